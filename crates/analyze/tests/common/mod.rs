//! Helpers the analysis tests share: index a fixture and analyse it, and
//! find a record by its pattern.

use errdex_analyze::analyze_all;
use errdex_model::Record;
use std::path::{Path, PathBuf};

/// Indexes a copy of a fixture and analyses it.
pub fn analysed(fixture: &Path, repo: &str) -> Vec<Record> {
    let mut records = errdex_testkit::index_copy(
        fixture,
        repo,
        Some("4c8573c808a73d578c5eadc86d410646ea0b0d73"),
    )
    .records;
    analyze_all(&mut records);
    records
}

pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn by<'a>(records: &'a [Record], pattern: &str) -> &'a Record {
    records
        .iter()
        .find(|r| r.message_pattern == pattern)
        .unwrap_or_else(|| panic!("no record {pattern:?}"))
}
