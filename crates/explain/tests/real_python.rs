//! Real error output of real Python programs, traced through the Python
//! corpus (`corpora.sh python`: requests 2.32.3, urllib3 2.2.3, click
//! 8.1.7, flask 3.1.0), run from exactly those sources. Captured in
//! `fixtures/real-python.log`:
//! - `requests.get` on a closed local port: the chained traceback
//!   (ConnectionRefusedError → urllib3 NewConnectionError → MaxRetryError
//!   → requests ConnectionError), traced layer by layer, with the repr of
//!   the wrapped error (`Caused by NewConnectionError('…')`) unwrapped;
//! - requests with bad URLs, a bad timeout tuple and a bad timeout value;
//! - urllib3's URL parser on a broken IPv6 host;
//! - a click command with a missing argument, a bad integer, a missing
//!   path, a bad choice and an unknown option (click's `self.fail(…)` is
//!   found as a message function; `Invalid value for …: …` wraps it).
//!
//! Python's own messages (`too many values to unpack`, `[Errno 111]
//! Connection refused`) must stay unknown, never pinned to a `raise
//! ValueError` that merely shares the class. Memory addresses and the
//! corpus path were normalised when captured.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

const PACKAGES: &[&str] = &[
    "requests-2.32.3",
    "urllib3-2.2.3",
    "click-8.1.7",
    "flask-3.1.0",
];

fn corpus() -> PathBuf {
    let root = std::env::var("CORPORA").unwrap_or_else(|_| "/var/tmp/errdex-corpora".into());
    Path::new(&root).join("python")
}

#[test]
fn real_python_tracebacks_trace_to_their_sites() {
    let dir = corpus();
    if !PACKAGES.iter().all(|p| dir.join(p).is_dir()) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is incomplete under CI=true: run ../shared/bench/corpora.sh python",
                dir.display()
            );
        }
        eprintln!(
            "NOTICE: skipping: {} is missing (run ../shared/bench/corpora.sh python)",
            dir.display()
        );
        return;
    }
    let store = SqliteStore::open_in_memory().unwrap();
    for p in PACKAGES {
        let out = index(
            &Options::new(dir.join(p), "2026-11-29T00:00:00.000Z"),
            &NoProgress,
        )
        .unwrap();
        store.replace_repo(&out.dataset).unwrap();
    }
    let ex = Explainer::new(store.trace_rows(None).unwrap());

    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let log = std::fs::read_to_string(fixtures.join("real-python.log")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("real-python.expected.jsonl")).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let explained = ex.explain_block(&lines);
    let messages: Vec<_> = explained.iter().filter(|e| e.stack.is_none()).collect();
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
    assert!(traced >= 10, "{traced} real Python lines traced");
}
