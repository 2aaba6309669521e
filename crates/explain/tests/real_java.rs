//! Real stack traces of a real Java program, traced through the Java
//! corpus: commons-lang3 3.12.0 (`corpora.sh debsrc`), whose Debian jar
//! (libcommons-lang3-java, Implementation-Version 3.12.0) is what runs.
//! Captured by `fixtures/real-java.sh` into `fixtures/real-java.log`:
//! `fixtures/real-java/Main.java` calls `Validate` (notNull, isTrue,
//! notEmpty, notBlank, inclusiveBetween, validIndex, matchesPattern,
//! validState, and an uncaught exclusiveBetween: `Exception in thread
//! "main"`), `StringUtils.abbreviate` with bad widths,
//! `NumberUtils.createNumber`, `LocaleUtils.toLocale`,
//! `RandomStringUtils.random(-1)`, `ArrayUtils.remove`,
//! `DateUtils.parseDate`, `BooleanUtils.toBoolean`, `Range.between`,
//! `Fraction` and `SerializationUtils`, each failure printed by
//! `printStackTrace()` (`Caused by:` chains included).
//!
//! The JDK's own messages (`For input string: "x1"`, `invalid stream
//! header`), and Main's own wrapper, must stay unknown; a
//! `SerializationException` built from its cause (`new
//! SerializationException(ex)`) carries the cause's text, not one of its
//! own.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    let root = std::env::var("CORPORA").unwrap_or_else(|_| "/var/tmp/errdex-corpora".into());
    Path::new(&root).join("debsrc/libcommons-lang3-java")
}

#[test]
fn real_java_stack_traces_trace_to_their_sites() {
    let dir = corpus();
    if !dir.join("src/main/java").is_dir() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is missing under CI=true: run ../shared/bench/corpora.sh debsrc",
                dir.display()
            );
        }
        eprintln!(
            "NOTICE: skipping: {} is missing (run ../shared/bench/corpora.sh debsrc)",
            dir.display()
        );
        return;
    }
    let out = index(&Options::new(dir, "2026-11-29T00:00:00.000Z"), &NoProgress).unwrap();
    let store = SqliteStore::open_in_memory().unwrap();
    store.replace_repo(&out.dataset).unwrap();
    let ex = Explainer::new(store.trace_rows(None).unwrap());
    let traced = check(&ex, "real-java");
    assert!(traced >= 10, "{traced} real Java lines traced");
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
