//! Real errors of real PHP code, traced through Debian's PHP libraries
//! (`corpora.sh debsrc`: php-guzzlehttp-psr7 2.4.5 in
//! /usr/share/php/GuzzleHttp, php-monolog 2.9.1 in /usr/share/php/Monolog),
//! run by PHP 8.2's CLI from exactly those files (`fixtures/real-php.sh`,
//! `fixtures/real-php/main.php`). Captured in `fixtures/real-php.log`:
//! - caught and printed as `Class: message`: PSR-7 URIs with a bad port, an
//!   unparsable URI, a colon in a relative path, a bad status code, an
//!   empty method, a bad header name, bad stream resources, seeking
//!   unseekable streams, a garbage response, a multipart element without
//!   contents, fopen failures; Monolog with an unwritable stream, an
//!   unknown level, an empty handler stack, bad rotating-file formats, a
//!   bad uid length, a negative socket timeout, a closed socket port, a
//!   missing registry logger, an unknown syslog facility;
//! - left uncaught, as PHP prints them: `PHP Fatal error:  Uncaught X: msg
//!   in /path/F.php:12`, `Stack trace:`, `#0 …` frames, and `Next X: msg`
//!   for an exception raised from the one above (Uri::fromParts wrapping
//!   filterPort's error, HttpFactory wrapping Utils::tryFopen's); Monolog's
//!   message runs over two lines.
//!
//! PHP's own text (`fopen(…): Failed to open stream: …`, a TypeError, the
//! OS's `Connection refused`) must stay unknown or unmatched, never pinned
//! to a site that merely shares words. The fixture's folder was normalised
//! to /app when captured.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

const PACKAGES: &[&str] = &["GuzzleHttp", "Monolog"];

fn corpus() -> PathBuf {
    PathBuf::from("/usr/share/php")
}

#[test]
fn real_php_errors_trace_to_their_sites() {
    let dir = corpus();
    if !PACKAGES.iter().all(|p| dir.join(p).is_dir()) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is incomplete under CI=true: run ../shared/bench/corpora.sh debsrc",
                dir.display()
            );
        }
        eprintln!(
            "NOTICE: skipping: {} is missing (run ../shared/bench/corpora.sh debsrc)",
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
    let log = std::fs::read_to_string(fixtures.join("real-php.log")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("real-php.expected.jsonl")).unwrap();
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
        // The top candidate of each frame; where the verdict is ambiguous
        // (identical templates, no hint to choose), every candidate, so
        // the right one is seen among them.
        let ambiguous = serde_json::to_value(e.verdict).unwrap() == "ambiguous";
        let frames: Vec<String> = e
            .frames
            .iter()
            .map(|f| {
                let shown = if ambiguous { f.candidates.len() } else { 1 };
                let mut cs: Vec<String> = f.candidates[..shown]
                    .iter()
                    .map(|c| {
                        let pkg = c.repo.rsplit('/').next().unwrap_or("");
                        format!("{pkg} {}:{}", c.file_path, c.line_number)
                    })
                    .collect();
                cs.sort();
                cs.join(" | ")
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
    assert!(traced >= 10, "{traced} real PHP lines traced");
}
