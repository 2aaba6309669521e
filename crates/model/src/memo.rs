//! What a record's static analysis was made from, kept with its stored
//! row. A re-index whose record has the same input and the same related
//! records takes the stored row over: the record is neither analysed nor
//! encoded again.

/// Hashes of what made a stored record's analysis, and its family (which
/// relating records needs before any analysis runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisMemo {
    /// The record as extraction left it, and the build that analysed it.
    pub input: String,
    /// Its related records.
    pub related: String,
    /// The family slug its analysis gave (`backgroundTag`).
    pub family: String,
}

/// How the store writes one record of an index run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Analysed {
    /// Analysed by this run: written as it is, with what it was made from.
    Fresh(AnalysisMemo),
    /// Made from what its stored row was made from: the row stays as it is
    /// (the record in memory was not analysed).
    TakenOver,
}
