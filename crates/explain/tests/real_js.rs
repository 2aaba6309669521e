//! Real error output of real Node.js programs, traced through the JS
//! corpus (`corpora.sh js`: express 4.21.2 and axios 1.7.9, the npm
//! tarballs), run from exactly those sources with Node 20. Captured by
//! `fixtures/real-js.sh` into `fixtures/real-js.log`:
//! - express set-up mistakes thrown uncaught (Node's `file.js:217`, source
//!   and caret lines above the error, frames under it): `app.use()`
//!   without a function, a route without a handler, a bad etag setting, a
//!   bundled-middleware getter, a bad `app.param`;
//! - express errors while serving, as its final handler prints their
//!   stacks (`res.sendFile` with a relative path, `res.render` without an
//!   engine or view, a bad Content-Type, signed cookies without a secret,
//!   `req.get()`), and depd deprecations (`<date> express deprecated … at
//!   file:line:col`);
//! - axios requests (imported as an ES module, so its frames are in
//!   `lib/`, not the bundles in `dist/`, which the corpus also holds): a
//!   404, maxContentLength, maxBodyLength, a bad timeout, an unsupported
//!   protocol, an unknown adapter, a bad option, a bad header name.
//!
//! Frames under `node_modules/axios/` hint `lib/…` in the axios corpus, so
//! the site in `lib/` is chosen over its copies in `dist/`. Text from
//! outside the corpus must stay unknown: Node's (`connect ECONNREFUSED`,
//! `Invalid URL`, V8's JSON `SyntaxError`, `Node.js v20…`), serve-static's
//! `root path required` and follow-redirects' `Maximum number of
//! redirects exceeded`. Absolute paths were normalised to `/app`.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

const PACKAGES: &[&str] = &["express", "axios"];

fn corpus() -> PathBuf {
    let root = std::env::var("CORPORA").unwrap_or_else(|_| "/var/tmp/errdex-corpora".into());
    Path::new(&root).join("js")
}

#[test]
fn real_node_errors_trace_to_their_sites() {
    let dir = corpus();
    if !PACKAGES.iter().all(|p| dir.join(p).is_dir()) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is incomplete under CI=true: run ../shared/bench/corpora.sh js",
                dir.display()
            );
        }
        eprintln!(
            "NOTICE: skipping: {} is missing (run ../shared/bench/corpora.sh js)",
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
    let log = std::fs::read_to_string(fixtures.join("real-js.log")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("real-js.expected.jsonl")).unwrap();
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
    assert!(traced >= 10, "{traced} real Node.js lines traced");
}
