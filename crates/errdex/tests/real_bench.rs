//! The real-capture benchmark (`bench/real`) as a test: this binary traces
//! real programs' output and the errors users pasted into issue trackers,
//! and the score must not fall below `bench/real/floor.txt`; the server
//! logs' statement grouping must not fall below
//! `bench/real/grouping-floor.txt`. Both floors only move up.
//!
//! Needs python3, the corpora (`../shared/bench/corpora.sh go python js
//! rust debsrc`, `bench/real/setup.sh`) and, for the grouping, drain3
//! (`pip install -r bench/real/requirements.txt`). Skips with a notice
//! when they are absent; fails under CI=true.

use std::path::{Path, PathBuf};
use std::process::Command;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/real")
}

/// Whether `python3 -c CODE` succeeds.
fn python_can(code: &str) -> bool {
    Command::new("python3")
        .args(["-c", code])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a bench/real script with this build's errdex; outside CI a
/// missing corpus skips its program rather than failing.
fn run_script(script: &str) -> Option<String> {
    if !python_can("import json") {
        assert!(!in_ci(), "python3 is missing under CI=true");
        eprintln!("NOTICE: skipping bench/real/{script}: no python3");
        return None;
    }
    let mut cmd = Command::new("python3");
    cmd.arg(bench_dir().join(script))
        .args(["--errdex", env!("CARGO_BIN_EXE_errdex")]);
    if !in_ci() {
        cmd.arg("--skip-missing");
    }
    let out = cmd.output().expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "bench/real/{script} failed:\n{text}");
    Some(text)
}

#[test]
fn real_output_traces_at_or_above_the_floor() {
    if let Some(text) = run_script("score") {
        println!("{text}");
        assert!(text.contains("overall"), "no overall line:\n{text}");
    }
}

#[test]
fn server_logs_group_at_or_above_the_floor() {
    if !python_can("import drain3") {
        assert!(
            !in_ci(),
            "drain3 is missing under CI=true: pip install -r bench/real/requirements.txt"
        );
        eprintln!("NOTICE: skipping bench/real/grouping: drain3 is not installed");
        return;
    }
    if let Some(text) = run_script("grouping") {
        println!("{text}");
        assert!(text.contains("overall"), "no overall line:\n{text}");
    }
}
