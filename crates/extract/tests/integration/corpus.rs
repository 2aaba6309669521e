//! Real Go code from `../shared/bench/corpora.sh go`. Skips with a notice
//! when the corpus is missing on a developer machine; fails under CI=true.

use crate::*;

const GOCODE: &str = "/usr/share/gocode/src";

fn corpus(path: &str) -> Option<PathBuf> {
    let p = PathBuf::from(path);
    if p.is_dir() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{path} is missing under CI=true: run ../shared/bench/corpora.sh go");
    }
    eprintln!("NOTICE: skipping: {path} is missing (run ../shared/bench/corpora.sh go)");
    None
}

fn check(out: &Indexed, min_records: usize) {
    let ds = &out.dataset;
    assert!(
        ds.records.len() >= min_records,
        "{} records",
        ds.records.len()
    );
    for r in &ds.records {
        assert_eq!(r.id.len(), 16);
        assert!(!r.slug.is_empty());
        assert!(!r.sites.is_empty());
        assert!(r.source_code_start <= r.line_number && r.line_number <= r.source_code_end);
        assert!(r.line_number - r.source_code_start <= 18);
        assert!(
            !r.source_code.is_empty(),
            "{}:{}",
            r.file_path,
            r.line_number
        );
    }
    eprintln!(
        "{}: {} files, {} sites, {} records, {} dynamic, {} warnings",
        ds.repo,
        ds.stats.files_indexed,
        ds.stats.sites,
        ds.stats.records,
        ds.stats.dynamic_sites,
        out.warnings.len()
    );
}

#[test]
fn etcd_and_containerd() {
    let Some(etcd) = corpus(&format!("{GOCODE}/go.etcd.io/etcd")) else {
        return;
    };
    let mut o = opts(&etcd);
    o.include_tests = true;
    let out = run(&o);
    check(&out, 1000);
    // A known etcd sentinel, with its class.
    let r = out
        .dataset
        .records
        .iter()
        .find(|r| r.message_pattern == "requested index is older than the existing snapshot")
        .expect("raft ErrSnapOutOfDate");
    assert_eq!(r.error_class.as_deref(), Some("ErrSnapOutOfDate"));
    assert_eq!(r.file_path, "raft/storage.go");

    let Some(ctrd) = corpus(&format!("{GOCODE}/github.com/containerd/containerd")) else {
        return;
    };
    check(&run(&opts(&ctrd)), 1000);
}

#[test]
fn whole_gocode_tree() {
    let Some(root) = corpus(GOCODE) else {
        return;
    };
    let mut o = opts(&root);
    o.include_tests = true;
    o.include_vendor = true;
    check(&run(&o), 15_000);
}
