//! `errdex mcp`.

use crate::cli::McpArgs;
use crate::Failure;
use errdex_mcp::{load_dataset, serve_stdio, ErrdexMcp};
use std::path::Path;

pub(crate) fn run(db: &Path, a: McpArgs) -> Result<(), Failure> {
    // stdout carries the protocol: everything else goes to stderr.
    let store = match &a.dataset {
        Some(dir) => load_dataset(dir)?,
        None => super::open_existing(db)?,
    };
    serve_stdio(ErrdexMcp::new(store, &a.base_url))?;
    Ok(())
}
