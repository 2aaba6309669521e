//! What the real-program tests share: finding a corpus (skipping with a
//! notice on a developer's machine, failing under `CI=true`), indexing its
//! packages into one in-memory atlas, and checking a captured log against
//! its hand-checked expectations.
//!
//! A log `fixtures/real-<name>.log` is explained as one block (stack traces
//! read across lines); every message line (frame and link lines left out)
//! has one JSON line in `fixtures/real-<name>.expected.jsonl`: `input`,
//! `verdict`, `frames` (the top candidate of each frame, `package
//! file:line`; for an ambiguous line every tied candidate, sorted, joined
//! by ` | `), `unmatched`, and optionally `sites` (the site read by hand for
//! each frame, which must be among the candidates). `ERRDEX_REAL_DUMP=1`
//! prints what the atlas answers now, to write a new expectation from
//! after checking it by hand.

#![allow(dead_code)]

use errdex_explain::{CandidateOut, Explainer, Explanation, Verdict};
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Where `corpora.sh` installs its trees.
pub fn corpora() -> PathBuf {
    PathBuf::from(std::env::var("CORPORA").unwrap_or_else(|_| "/var/tmp/errdex-corpora".into()))
}

/// Whether the test can run: `present`, or else a printed notice on a
/// developer's machine and a failure under `CI=true`.
pub fn corpus_present(present: bool, what: &str, install: &str) -> bool {
    if present {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what} is missing under CI=true: run ../shared/bench/corpora.sh {install}");
    }
    eprintln!("NOTICE: skipping: {what} is missing (run ../shared/bench/corpora.sh {install})");
    false
}

/// One atlas of every root, each indexed as its own repository.
pub fn explainer(roots: impl IntoIterator<Item = PathBuf>) -> Explainer {
    let store = SqliteStore::open_in_memory().unwrap();
    for root in roots {
        let out = index(&Options::new(root, "2026-11-29T00:00:00.000Z"), &NoProgress).unwrap();
        store.replace_repo(&out.dataset).unwrap();
    }
    Explainer::new(store.trace_rows(None).unwrap())
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// `package file:line` of a candidate; `kb KEY` of a knowledge-base
/// entry (a text of the runtime).
fn key(c: &CandidateOut) -> String {
    if let Some(k) = c.knowledge {
        return format!("kb {}", k.key);
    }
    let pkg = c.repo.rsplit('/').next().unwrap_or("");
    format!("{pkg} {}:{}", c.file_path, c.line_number)
}

/// How an ambiguous line's frames are written down.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// The top candidate only (the hand-read `sites` say which is right).
    Top,
    /// Every tied candidate, sorted, joined by ` | `.
    All,
}

/// The frames as the expectation writes them.
fn frames(e: &Explanation, ties: Ties) -> Vec<String> {
    e.frames
        .iter()
        .map(|f| {
            if e.verdict == Verdict::Ambiguous && ties == Ties::All {
                let mut all: Vec<String> = f.candidates.iter().map(key).collect();
                all.sort();
                all.join(" | ")
            } else {
                key(&f.candidates[0])
            }
        })
        .collect()
}

/// What a real-log check found.
pub struct Outcome {
    /// Message lines with at least one frame.
    pub traced: usize,
    /// Lines whose hand-read `sites` are the top candidates.
    pub right_on_top: usize,
}

/// Explains `fixtures/real-<name>.log` and compares every message line
/// with its expectation.
pub fn check_log(ex: &Explainer, name: &str, ties: Ties) -> Outcome {
    let dir = fixtures();
    let log = std::fs::read_to_string(dir.join(format!("real-{name}.log"))).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let explained = ex.explain_block(&lines);
    let messages: Vec<&Explanation> = explained.iter().filter(|e| e.stack.is_none()).collect();
    if std::env::var_os("ERRDEX_REAL_DUMP").is_some() {
        for e in &messages {
            let unmatched: Vec<&str> = e.unmatched.iter().map(|u| u.text.as_str()).collect();
            println!(
                "{}",
                json!({"input": e.input, "verdict": e.verdict, "frames": frames(e, ties), "unmatched": unmatched})
            );
        }
    }
    let expected =
        std::fs::read_to_string(dir.join(format!("real-{name}.expected.jsonl"))).unwrap();
    let expected: Vec<Value> = expected
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        messages.len(),
        expected.len(),
        "message lines of real-{name}.log"
    );
    let mut out = Outcome {
        traced: 0,
        right_on_top: 0,
    };
    for (e, want) in messages.iter().zip(&expected) {
        assert_eq!(want["input"], e.input.as_str());
        let got = frames(e, ties);
        let want_frames: Vec<String> = serde_json::from_value(want["frames"].clone()).unwrap();
        assert_eq!(got, want_frames, "{}", e.input);
        if let Some(sites) = want.get("sites") {
            let sites: Vec<String> = serde_json::from_value(sites.clone()).unwrap();
            assert_eq!(sites.len(), e.frames.len(), "{}", e.input);
            for (f, site) in e.frames.iter().zip(&sites) {
                assert!(
                    f.candidates.iter().any(|c| &key(c) == site),
                    "{}: {site} is not a candidate",
                    e.input
                );
            }
            let tops: Vec<String> = e.frames.iter().map(|f| key(&f.candidates[0])).collect();
            out.right_on_top += usize::from(!tops.is_empty() && tops == sites);
        }
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
        out.traced += usize::from(!e.frames.is_empty());
    }
    out
}
