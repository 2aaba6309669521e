//! Test support shared by errdex's crates (a dev-dependency only).
//!
//! Fixtures live in `crates/extract/tests/fixtures`. Tests index a copy
//! outside errdex's own git work tree, so discovery does not find errdex's
//! repository.

use errdex_extract::{index, NoProgress, Options};
use errdex_model::RepoDataset;
use errdex_store::Store;
use std::path::{Path, PathBuf};

/// The timestamp fixture runs are pinned to (the seed record's).
pub const TIMESTAMP: &str = "2026-09-05T04:13:19.212Z";

/// The fixture trees' folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extract/tests/fixtures")
}

/// Copies a tree, files and folders.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Indexes a copy of `tree` as `repo`, pinned to `commit` when given.
pub fn index_copy(tree: &Path, repo: &str, commit: Option<&str>) -> RepoDataset {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(tree, dir.path());
    let mut o = Options::new(dir.path(), TIMESTAMP);
    o.repo = Some(repo.into());
    o.commit = commit.map(str::to_string);
    index(&o, &NoProgress).expect("index runs").dataset
}

/// Opens the store a test writes to and reads from. Front ends' tests go
/// through here so that they see only the `Store` trait: the backend is the
/// embedded default, SQLite, and one place chooses it for every test.
pub fn open_store(path: &Path) -> impl Store + 'static {
    errdex_store::SqliteStore::open(path).expect("test store opens")
}

/// A runtime cause as the cause graph stores one: `net.Listen` failing
/// with the port in use, its address worked out from a constant (the kops
/// seed's readiness probe).
pub fn listen_cause() -> errdex_model::Cause {
    errdex_model::Cause {
        message_pattern: "address already in use".into(),
        record_id: None,
        knowledge: Some("errno/EADDRINUSE".into()),
        file_path: "channels/pkg/cmd/readiness.go".into(),
        line_number: 67,
        path: vec![
            "serveReadiness".into(),
            "serveReadinessOnAddr".into(),
            "net.Listen".into(),
        ],
        values: vec!["addr = 127.0.0.1:3986".into()],
        when: None,
        comment: None,
        translated_at: None,
    }
}
