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
//!   a styled buffer: not in the atlas, so unknown.
//!
//! `ERRDEX_REAL_DUMP=1` prints what the explainer says of each message
//! line, to check by hand against the sources before the expected file
//! changes. Skips with a notice when the corpus is missing; fails under
//! CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
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
fn corpus() -> Option<PathBuf> {
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
    let Some(dir) = corpus() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "the Rust corpus is incomplete under CI=true: run ../shared/bench/corpora.sh rust"
            );
        }
        eprintln!(
            "NOTICE: skipping: the cargo registry lacks {PACKAGES:?} (run ../shared/bench/corpora.sh rust)"
        );
        return;
    };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let store = SqliteStore::open_in_memory().unwrap();
    let roots = PACKAGES
        .iter()
        .map(|p| dir.join(p))
        .chain(std::iter::once(fixtures.join("real-rust")));
    for root in roots {
        let out = index(&Options::new(root, "2026-11-29T00:00:00.000Z"), &NoProgress).unwrap();
        store.replace_repo(&out.dataset).unwrap();
    }
    let ex = Explainer::new(store.trace_rows(None).unwrap());

    let log = std::fs::read_to_string(fixtures.join("real-rust.log")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("real-rust.expected.jsonl")).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let explained = ex.explain_block(&lines);
    let messages: Vec<_> = explained.iter().filter(|e| e.stack.is_none()).collect();
    if std::env::var_os("ERRDEX_REAL_DUMP").is_some() {
        for e in &messages {
            let frames: Vec<String> = e
                .frames
                .iter()
                .map(|f| {
                    let c = &f.candidates[0];
                    let pkg = c.repo.rsplit('/').next().unwrap_or("");
                    format!("{pkg} {}:{}", c.file_path, c.line_number)
                })
                .collect();
            let unmatched: Vec<&str> = e.unmatched.iter().map(|u| u.text.as_str()).collect();
            println!(
                "{}",
                serde_json::json!({"input": e.input, "verdict": e.verdict, "frames": frames, "unmatched": unmatched})
            );
        }
    }
    let expected: Vec<Value> = expected
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(messages.len(), expected.len(), "message lines of the log");
    let mut traced = 0;
    for (e, want) in messages.iter().zip(&expected) {
        assert_eq!(want["input"], e.input.as_str());
        let frames: Vec<String> = e
            .frames
            .iter()
            .map(|f| {
                let c = &f.candidates[0];
                let pkg = c.repo.rsplit('/').next().unwrap_or("");
                format!("{pkg} {}:{}", c.file_path, c.line_number)
            })
            .collect();
        let want_frames: Vec<String> = serde_json::from_value(want["frames"].clone()).unwrap();
        assert_eq!(frames, want_frames, "{}", e.input);
        let unmatched: Vec<&str> = e.unmatched.iter().map(|u| u.text.as_str()).collect();
        let want_unmatched: Vec<String> =
            serde_json::from_value(want["unmatched"].clone()).unwrap();
        assert_eq!(unmatched, want_unmatched, "{}", e.input);
        assert_eq!(
            serde_json::to_value(e.verdict).unwrap(),
            want["verdict"],
            "{}",
            e.input
        );
        traced += usize::from(!e.frames.is_empty());
    }
    assert!(traced >= 10, "{traced} real Rust lines traced");
}
