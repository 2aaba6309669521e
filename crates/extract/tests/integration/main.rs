//! Integration tests of errdex-extract: the seed records, golden output for
//! every Go construct, hostile input, and real corpora.

mod bad_input;
mod callers;
mod causes;
mod corpus;
mod golden;
mod seed;

use errdex_extract::{index, Indexed, NoProgress, Options};
use errdex_model::Record;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const TIMESTAMP: &str = "2026-09-05T04:13:19.212Z";

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Copies a fixture into a fresh temporary folder (outside errdex's own git
/// work tree, so discovery does not find errdex's repository).
pub fn copy_fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture(name), dir.path());
    dir
}

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

/// Runs git in `dir` (tests only: errdex itself reads git in-process).
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Indexes files written for a test (`(path, text)`) in a fresh folder.
pub fn index_files(files: &[(&str, &str)]) -> Vec<Record> {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    run(&opts(dir.path())).dataset.records
}

/// The record of `pattern`.
pub fn by_pattern<'a>(records: &'a [Record], pattern: &str) -> &'a Record {
    records
        .iter()
        .find(|r| r.message_pattern == pattern)
        .unwrap_or_else(|| panic!("no record {pattern:?}"))
}

pub fn run(opts: &Options) -> Indexed {
    index(opts, &NoProgress).expect("index runs")
}

pub fn opts(root: &Path) -> Options {
    Options::new(root, TIMESTAMP)
}
