//! The reliability and security campaign as tests: hostile source trees,
//! kills during index and export, slow and abusive HTTP clients against a
//! real `errdex serve`, malformed messages to a real `errdex mcp`.

mod trees;

use std::path::Path;
use std::process::{Command, Output};

fn errdex(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .output()
        .expect("errdex runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
