//! Real error output of Debian bookworm's OpenSSH client 9.2p1
//! (openssh-client: `ssh`, `scp`, `ssh-keygen`, `ssh-add`) and nginx
//! 1.22.1, both built from exactly the sources `corpora.sh debsrc`
//! unpacks, captured by `fixtures/real-c.sh` into `fixtures/real-c.log`:
//! - `ssh` against a closed local port, an unresolvable name, a blackhole
//!   address, with bad options (`-p`, `-c`, `-m`, `-L`/`-R`/`-D`/`-W`,
//!   `-e`, `-J`, `-Q`, `-o …`), a missing identity file, a bad `-b`
//!   address and a broken `-F` config file; `scp` to a closed port;
//!   `ssh-keygen` with missing files and bad key types; `ssh-add` with no
//!   agent;
//! - `nginx -t` with broken configurations (unknown directive, bad values,
//!   a missing `;`, a stray `}`, an unknown variable, a duplicate block, a
//!   bad listen port, an unresolvable upstream, a missing include) and bad
//!   options, both as nginx prints them on stderr (`nginx: [emerg] …`) and
//!   as its error log has them (`… [emerg] pid#tid: …`).
//!
//! Each expected line names, besides the top candidate of each frame, the
//! site read by hand from the sources as the one that printed it
//! (`sites`): it must be among the frame's candidates. Where the same text
//! sits at several sites (`Bad port '%s'` in ssh and ssh-keyscan, nginx's
//! two `unexpected "}"`, its `%s in upstream "%V"` in several modules) the
//! verdict is `ambiguous` and the top candidate may be another one; at
//! least ten lines must have the right site on top. Text from outside the
//! sources (strerror, getaddrinfo) stays unmatched, and messages without
//! literal text (ssh-keygen's `fatal("%s: %s", path, strerror(errno))`)
//! stay unknown.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

const PACKAGES: &[&str] = &["openssh", "nginx"];

fn corpus() -> PathBuf {
    let root = std::env::var("CORPORA").unwrap_or_else(|_| "/var/tmp/errdex-corpora".into());
    Path::new(&root).join("debsrc")
}

#[test]
fn real_c_lines_trace_to_their_sites() {
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
    let log = std::fs::read_to_string(fixtures.join("real-c.log")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("real-c.expected.jsonl")).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let explained = ex.explain_block(&lines);
    let messages: Vec<_> = explained.iter().filter(|e| e.stack.is_none()).collect();
    let expected: Vec<Value> = expected
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(messages.len(), expected.len(), "message lines of the log");
    let (mut traced, mut right) = (0, 0);
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
        let sites: Vec<String> = serde_json::from_value(want["sites"].clone()).unwrap();
        assert_eq!(sites.len(), e.frames.len(), "{}", e.input);
        for (f, site) in e.frames.iter().zip(&sites) {
            assert!(
                f.candidates.iter().any(|c| {
                    let pkg = c.repo.rsplit('/').next().unwrap_or("");
                    &format!("{pkg} {}:{}", c.file_path, c.line_number) == site
                }),
                "{}: {site} is not a candidate",
                e.input
            );
        }
        right += usize::from(!frames.is_empty() && frames == sites);
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
    assert!(traced >= 10, "{traced} real C lines traced");
    assert!(
        right >= 10,
        "{right} real C lines with the right site on top"
    );
}
