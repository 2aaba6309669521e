//! One module per subcommand.

mod analyze;
mod crawl;
mod explain;
mod export;
mod index;
mod list;
mod mcp;
mod serve;
mod show;

use crate::cli::{Cli, Command};
use crate::Failure;
use anyhow::Context;
use errdex_store::SqliteStore;
use std::path::Path;

pub(crate) fn dispatch(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Index(a) => index::run(&cli.db, a),
        Command::List(a) => list::run(&open_existing(&cli.db)?, a),
        Command::Show(a) => show::run(&open_existing(&cli.db)?, a),
        Command::Export(a) => export::run(&open_existing(&cli.db)?, &cli.db, a),
        Command::Explain(a) => explain::run(&open_existing(&cli.db)?, &cli.db, a),
        Command::Analyze(a) => analyze::run(&open_existing(&cli.db)?, a),
        Command::Serve(a) => serve::run(open_existing(&cli.db)?, &cli.db, &a),
        Command::Up(a) => serve::up(&cli.db, a),
        Command::Mcp(a) => mcp::run(&cli.db, a),
        Command::Crawl(a) => crawl::run(&cli.db, a),
    }
}

/// Opens a database that must already hold an atlas: reading commands should
/// not leave an empty database behind a typo.
fn open_existing(db: &Path) -> Result<SqliteStore, Failure> {
    if !db.exists() {
        return Err(anyhow::anyhow!(
            "{}: no atlas database here; run `errdex index PATH` first, or point --db / ERRDEX_DB at one",
            db.display()
        )
        .into());
    }
    Ok(SqliteStore::open(db).with_context(|| "cannot open the atlas".to_string())?)
}
