//! Real error output of the etcd 3.4.23 binaries (Debian's etcd-server and
//! etcd-client, built from exactly the sources `corpora.sh go` installs),
//! captured from provoked failures: bad flags, a port in use, a bad data
//! dir, missing TLS files, a corrupt WAL, and etcdctl against a live server
//! (missing leases, users, roles, members, future and compacted
//! revisions). Each line must trace to the same sites as read by hand from
//! the sources; standard-library text must stay unmatched.
//!
//! Skips with a notice when the corpus is missing; fails under CI=true.

use errdex_explain::Explainer;
use errdex_extract::{index, NoProgress, Options};
use errdex_store::{SqliteStore, Store};
use serde_json::Value;
use std::path::Path;

const ETCD: &str = "/usr/share/gocode/src/go.etcd.io/etcd";

#[test]
fn real_etcd_lines_trace_to_their_sites() {
    if !Path::new(ETCD).is_dir() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{ETCD} is missing under CI=true: run ../shared/bench/corpora.sh go");
        }
        eprintln!("NOTICE: skipping: {ETCD} is missing (run ../shared/bench/corpora.sh go)");
        return;
    }
    let out = index(&Options::new(ETCD, "2026-11-29T00:00:00.000Z"), &NoProgress).unwrap();
    let store = SqliteStore::open_in_memory().unwrap();
    store.replace_repo(&out.dataset).unwrap();
    let ex = Explainer::new(store.trace_rows(None).unwrap());

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let lines = std::fs::read_to_string(dir.join("real-etcd.log")).unwrap();
    let expected = std::fs::read_to_string(dir.join("real-etcd.expected.jsonl")).unwrap();
    let mut traced = 0;
    for (line, want) in lines.lines().zip(expected.lines()) {
        let want: Value = serde_json::from_str(want).unwrap();
        assert_eq!(want["input"], line);
        let e = ex.explain(line);
        let got_frames: Vec<Vec<String>> = e
            .frames
            .iter()
            .map(|f| {
                let mut c: Vec<String> = f
                    .candidates
                    .iter()
                    .map(|c| match c.knowledge {
                        Some(k) => format!("kb {}", k.key),
                        None => format!("{}:{}", c.file_path, c.line_number),
                    })
                    .collect();
                c.sort();
                c
            })
            .collect();
        let want_frames: Vec<Vec<String>> = serde_json::from_value(want["frames"].clone()).unwrap();
        if std::env::var_os("ERRDEX_REAL_DUMP").is_some() {
            let unmatched: Vec<&str> = e.unmatched.iter().map(|u| u.text.as_str()).collect();
            println!(
                "{}",
                serde_json::json!({"input": line, "verdict": e.verdict, "frames": got_frames, "unmatched": unmatched})
            );
            traced += usize::from(!e.frames.is_empty());
            continue;
        }
        assert_eq!(got_frames, want_frames, "{line}");
        let unmatched: Vec<&str> = e.unmatched.iter().map(|u| u.text.as_str()).collect();
        let want_unmatched: Vec<String> =
            serde_json::from_value(want["unmatched"].clone()).unwrap();
        assert_eq!(unmatched, want_unmatched, "{line}");
        assert_eq!(
            serde_json::to_value(e.verdict).unwrap(),
            want["verdict"],
            "{line}"
        );
        if !e.frames.is_empty() {
            traced += 1;
        }
    }
    assert_eq!(lines.lines().count(), expected.lines().count());
    assert!(traced >= 20, "{traced} real lines traced");
}
