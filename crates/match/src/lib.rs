//! Tracing raw error text back to message templates.
//!
//! A [`TemplateSetBuilder`] compiles every template of the atlas into an
//! immutable [`TemplateSet`], shared by all threads. Each template is
//! anchored on its most selective word; tracing a text splits it into words
//! once and looks each up in a hash table (templates with no whole word
//! fall back to an Aho-Corasick automaton over a literal), then verifies
//! only the templates whose anchor occurred: literals must appear
//! in order and each hole must hold text its verb can print. The template
//! that explains the most literal text wins; equally good ones stay together
//! as one ambiguous frame. When the winner's hole is a chain point (`%w`,
//! `%v` of `err`), the hole's text is traced again, giving frames outermost
//! first; text nothing explains is kept as unmatched.
//!
//! The parts: `set` compiles the templates (one 64-byte entry each, the
//! anchor table), `trace` walks a text layer by layer over `Span`s of it
//! and hands what it finds to a `sink` (a whole [`Trace`] or a
//! [`TraceOutline`]), `verify` checks one candidate template against a
//! span. `anchors`, `bytes` and `holes` are their tools; [`prefix`] and
//! [`stack`] read a log line before it is traced.
//!
//! ```
//! use errdex_match::{TemplateSetBuilder, Hints};
//! use errdex_model::{Hole, HoleKind, Template};
//! let mut t = Template::default();
//! t.push_lit("serving readiness probe: ");
//! t.push_hole(Hole { kind: HoleKind::Any, verb: "%w".into(), arg: Some("err".into()), chain: true });
//! let mut b = TemplateSetBuilder::new();
//! b.add(t, 7, "channels/pkg/cmd/apply_channel.go", 130);
//! let set = b.build();
//! let tr = set.trace("serving readiness probe: listen tcp :3989: bind: address already in use", &Hints::default());
//! assert_eq!(tr.frames[0].candidates[0].payload, 7);
//! assert_eq!(tr.unmatched.len(), 1); // the standard library's text
//! ```
#![deny(missing_docs)]

mod anchors;
mod bytes;
pub mod codec;
mod holes;
mod persist;
pub mod prefix;
pub mod sample;
mod set;
mod sink;
pub mod stack;
mod trace;
mod verify;

pub use bytes::Newlines;
pub use holes::accepts;
pub use set::{TemplateSet, TemplateSetBuilder};

/// Candidates kept per frame: a message printed from hundreds of places
/// (generated code) keeps the best of them and counts the rest.
pub const MAX_CANDIDATES: usize = 16;

/// Where a log line says it came from (`apply_channel.go:80`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// File names or path suffixes, most specific first.
    pub files: Vec<String>,
    /// The line the header names, if any (may be stale: it only orders
    /// sites within a hinted file).
    pub line: Option<u32>,
    /// The header is a syslog or journald one (`host prog[pid]:`): the
    /// program ran on a Unix host, so code built only for Windows did
    /// not print the line.
    pub unix_host: bool,
}

/// One candidate site for a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The payload given to [`TemplateSetBuilder::add`].
    pub payload: u32,
    /// Share of the frame's text that the template's literals explain,
    /// in `[0, 1]`.
    pub score: f32,
    /// Whether the site's file matches a location hint.
    pub hinted: bool,
    /// Whether the site's line is exactly the hinted line as well.
    pub exact: bool,
}

/// A layer of the error: a span of the text and the sites that print it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Byte offset where the layer's text starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// Sites, best first (hinted ones first among equals), at most
    /// [`MAX_CANDIDATES`].
    pub candidates: Vec<Candidate>,
    /// How many sites print this layer in all.
    pub total: usize,
}

/// The result of tracing one text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Layers, outermost first.
    pub frames: Vec<Frame>,
    /// Spans no template explains, in order.
    pub unmatched: Vec<(usize, usize)>,
    /// Leading text before the outermost frame when the message did not
    /// start the text (an unknown log prefix).
    pub head: Option<(usize, usize)>,
}

/// What tracing a text found, without building its frames: enough to
/// give a verdict and the outermost layer's best site, for grouping a
/// whole log. Tracing for it allocates nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceOutline {
    /// How many layers were found.
    pub frames: usize,
    /// The outermost frame's best candidate, as [`Frame::candidates`]
    /// would list it first.
    pub top: Option<u32>,
    /// Whether some frame is ambiguous ([`Frame::is_ambiguous`]).
    pub ambiguous: bool,
    /// Whether some text is unmatched.
    pub unmatched: bool,
    /// See [`Trace::head`].
    pub head: Option<(usize, usize)>,
    /// Where the outermost frame ends (0 without frames).
    pub first_end: usize,
    /// Where the outermost frame starts (0 without frames).
    pub first_start: usize,
    /// How many bytes of literal text the outermost frame's template has
    /// (0 without frames).
    pub first_literal: usize,
}

impl Frame {
    /// Several sites print this layer equally well and no location hint
    /// singles one out (neither exactly one hinted nor one exact site).
    pub fn is_ambiguous(&self) -> bool {
        let hinted = self.candidates.iter().filter(|c| c.hinted).count();
        let exact = self.candidates.iter().filter(|c| c.exact).count();
        ambiguous(self.total, hinted, exact)
    }
}

/// The rule behind [`Frame::is_ambiguous`], from counts: how many sites
/// print the layer, how many of them a location hint names, and how many
/// it names with their line.
pub fn ambiguous(total: usize, hinted: usize, exact: usize) -> bool {
    total > 1 && hinted != 1 && exact != 1
}

#[cfg(test)]
mod tests;
