//! Real error output of a real Rust program, traced through the Rust corpus
//! (`corpora.sh rust`: the cargo registry's sources). The program,
//! `fixtures/real-rust/` (re-captured by `fixtures/real-rust.sh`), is built
//! against exactly the indexed versions (serde_json 1.0.154, serde_core
//! 1.0.229, clap 4.6.9 with clap_builder 4.6.7, rusqlite 0.32.1, tokio
//! 1.54.1, anyhow 1.0.105) and is indexed too, as its own package: its
//! `eprintln!`, `.context(…)`, `bail!`, `.expect(…)` and `panic!` sites
//! are where the chains start. Captured in `fixtures/real-rust.log`:
//! - serde_json parse and type errors printed with `Display`
//!   (`{code} at line {line} column {column}`);
//! - rusqlite errors (`Query returned no rows`, `Invalid column index`…)
//!   and SQLite's own text (`no such table`, `UNIQUE constraint failed`),
//!   which must stay unmatched: it is C, outside the atlas;
//! - anyhow's `Error: …` with its `Caused by:` list, holding serde_json,
//!   tokio (`deadline has elapsed`) and standard-library text (`invalid
//!   digit found in string`, `Connection refused (os error 111)`), the
//!   last two unknown;
//! - panics (`thread 'main' (4242) panicked at src/main.rs:…:` with the
//!   message on the next line): an `.expect` on an `Err`, `unwrap` on
//!   `None` (the standard library's text: unknown), a task's `panic!` and
//!   tokio's `JoinError` for it;
//! - clap's usage errors, which clap_builder composes with `write!` into
//!   a styled buffer, piece by piece: `error: ` (format.rs:135) then the
//!   kind's own text, `Usage: ` and the `For more information` hint.
//!   `invalid value '…' for '…'` is written identically for two kinds,
//!   told apart by what the next write adds: `: {source}` for a value
//!   that failed validation (format.rs:321, the source its own layer),
//!   the possible values on a line of their own (format.rs:222).
//!
//! `ERRDEX_REAL_DUMP=1` prints what the explainer says of each message
//! line, to check by hand against the sources before the expected file
//! changes. Skips with a notice when the corpus is missing; fails under
//! CI=true.

mod common;

use common::Ties;
use std::path::{Path, PathBuf};

const PACKAGES: &[&str] = &[
    "serde_json-1.0.154",
    "serde_core-1.0.229",
    "clap_builder-4.6.7",
    "rusqlite-0.32.1",
    "tokio-1.54.1",
    "anyhow-1.0.105",
];

/// The cargo registry's source folder that holds every package.
fn registry() -> Option<PathBuf> {
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok()?;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    dirs.sort();
    dirs.into_iter()
        .find(|d| PACKAGES.iter().all(|p| d.join(p).is_dir()))
}

#[test]
fn real_rust_errors_trace_to_their_sites() {
    let dir = registry();
    if !common::corpus_present(
        dir.is_some(),
        &format!("the cargo registry's {PACKAGES:?}"),
        "rust",
    ) {
        return;
    }
    let dir = dir.unwrap();
    let roots = PACKAGES
        .iter()
        .map(|p| dir.join(p))
        .chain(std::iter::once(common::fixtures().join("real-rust")));
    let ex = common::explainer(roots);
    let out = common::check_log(&ex, "rust", Ties::Top);
    assert!(out.traced >= 10, "{} real Rust lines traced", out.traced);
}
