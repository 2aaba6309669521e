//! Real error output of a real Ruby program, traced through the Ruby
//! corpus: Debian's rack 2.2.22 and sinatra 3.0.5 gems (`corpora.sh
//! debsrc` installs them; their installed sources are what runs). Captured
//! by `fixtures/real-ruby.sh` into `fixtures/real-ruby.log`, each failure
//! printed as Ruby prints an uncaught error (`x.rb:12:in `m': msg (Class)`
//! and `\tfrom …` lines; the last one is uncaught):
//! - `parse_nested_query` with conflicting params, the key space, the
//!   parameter count and the depth limits;
//! - multipart bodies: empty, shorter than their Content-Length, without
//!   a boundary, with a bad boundary parameter;
//! - `Rack::Lint` on a bad env and a bad response, `Rack::Builder` with no
//!   `run`, `status_code(:bogus)`, a bad SameSite value, `MockRequest` on
//!   a bad URI;
//! - a Sinatra app with an unknown media type, a bad etag kind and an
//!   unknown template engine.
//!
//! Ruby's own messages (`bad URI(is not URI?)`) must stay unknown. A bare
//! `raise EOFError` prints its class as the message and traces to that
//! raise; `raise ParamsTooDeepError` (an alias Ruby prints as
//! `Rack::QueryParser::QueryLimitError`) stays unknown. The line Ruby
//! prints picks which of two equal raises it was (`bad content body`).
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

const GEMS: &str = "/usr/share/rubygems-integration/all/gems";
const PACKAGES: &[&str] = &["rack-2.2.22", "sinatra-3.0.5"];

#[test]
fn real_ruby_errors_trace_to_their_sites() {
    let dirs: Vec<PathBuf> = PACKAGES.iter().map(|p| Path::new(GEMS).join(p)).collect();
    if !dirs.iter().all(|d| d.join("lib").is_dir()) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{GEMS} lacks rack or sinatra under CI=true: run ../shared/bench/corpora.sh debsrc"
            );
        }
        eprintln!(
            "NOTICE: skipping: rack or sinatra is missing in {GEMS} (run ../shared/bench/corpora.sh debsrc)"
        );
        return;
    }
    let store = SqliteStore::open_in_memory().unwrap();
    for d in &dirs {
        let out = index(
            &Options::new(d.clone(), "2026-11-29T00:00:00.000Z"),
            &NoProgress,
        )
        .unwrap();
        store.replace_repo(&out.dataset).unwrap();
    }
    let ex = Explainer::new(store.trace_rows(None).unwrap());
    let traced = check(&ex, "real-ruby");
    assert!(traced >= 10, "{traced} real Ruby lines traced");
}

/// Compares each message line of `fixtures/<name>.log` with
/// `fixtures/<name>.expected.jsonl`; returns how many traced.
fn check(ex: &Explainer, name: &str) -> usize {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let log = std::fs::read_to_string(fixtures.join(format!("{name}.log"))).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let explained = ex.explain_block(&lines);
    let got: Vec<Value> = explained
        .iter()
        .filter(|e| e.stack.is_none())
        .map(|e| {
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
            serde_json::json!({
                "input": e.input,
                "verdict": e.verdict,
                "frames": frames,
                "unmatched": unmatched,
            })
        })
        .collect();
    let path = fixtures.join(format!("{name}.expected.jsonl"));
    if std::env::var("ERRDEX_BLESS").is_ok_and(|v| v == "1") {
        // Only after checking every site by hand.
        let text: String = got.iter().map(|v| format!("{v}\n")).collect();
        std::fs::write(&path, text).unwrap();
    }
    let expected: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), expected.len(), "message lines of the log");
    for (g, want) in got.iter().zip(&expected) {
        assert_eq!(g, want);
    }
    got.iter()
        .filter(|g| g["frames"].as_array().is_some_and(|f| !f.is_empty()))
        .count()
}
