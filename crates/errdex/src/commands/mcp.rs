//! `errdex mcp`.

use crate::cli::McpArgs;
use crate::Failure;
use anyhow::anyhow;
use errdex_mcp::{serve_stdio, ErrdexMcp};
use errdex_model::{Record, RepoDataset};
use errdex_store::{SqliteStore, Store};
use std::collections::BTreeMap;
use std::path::Path;

pub(crate) fn run(db: &Path, a: McpArgs) -> Result<(), Failure> {
    // stdout carries the protocol: everything else goes to stderr.
    let store = match &a.dataset {
        Some(dir) => errdex_store::AnyStore::Sqlite(load_dataset(dir)?),
        None => super::open_existing(db)?,
    };
    serve_stdio(ErrdexMcp::new(store, &a.base_url))?;
    Ok(())
}

/// Loads an exported dataset (`errdex export --format dataset`) into an
/// in-memory store.
fn load_dataset(dir: &Path) -> anyhow::Result<SqliteStore> {
    let errors = dir.join("errors");
    let entries = std::fs::read_dir(&errors).map_err(|e| {
        anyhow!(
            "{}: {e}; point --dataset at a folder written by `errdex export --format dataset`",
            errors.display()
        )
    })?;
    let mut by_repo: BTreeMap<String, Vec<Record>> = BTreeMap::new();
    for e in entries {
        let path = e?.path();
        let r = read_record(&path)?;
        by_repo.entry(r.repo.clone()).or_default().push(r);
    }
    let store = SqliteStore::open_in_memory()?;
    for (repo, records) in by_repo {
        store.replace_repo(&RepoDataset {
            repo,
            records,
            ..Default::default()
        })?;
    }
    Ok(store)
}

/// The record of one exported `errors/{id}.json`.
fn read_record(path: &Path) -> anyhow::Result<Record> {
    let text = std::fs::read_to_string(path)?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    serde_json::from_value(v["record"].clone())
        .map_err(|e| anyhow!("{}: not a record: {e}", path.display()))
}
