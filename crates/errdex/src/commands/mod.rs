//! One module per subcommand.

mod analyze;
mod crawl;
mod explain;
mod export;
mod index;
mod lint;
mod list;
mod mcp;
mod serve;
mod show;
mod worker;

use crate::cli::{Cli, Command};
use crate::Failure;
use anyhow::Context;
use errdex_store::{is_postgres_url, AnyStore};
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
        Command::Worker(a) => worker::run(&cli.db, a),
        Command::Status => worker::status(&open_existing(&cli.db)?),
        Command::Lint(a) => lint::run(a),
    }
}

/// Opens a database that must already hold an atlas: reading commands should
/// not leave an empty database behind a typo.
fn open_existing(db: &Path) -> Result<AnyStore, Failure> {
    if !is_postgres(db) && !db.exists() {
        return Err(anyhow::anyhow!(
            "{}: no atlas database here; run `errdex index PATH` first, or point --db / ERRDEX_DB at one",
            db.display()
        )
        .into());
    }
    open_store(db)
}

/// `--db` as it may be printed: a PostgreSQL URL without its password.
pub(crate) fn shown_db(db: &Path) -> String {
    errdex_store::shown_db(&db.to_string_lossy())
}

/// Where `explain` keeps its trace cache: beside an SQLite file; for a
/// PostgreSQL atlas, in the user's cache folder under a name made from
/// the URL (the cache's key holds the dataset version either way).
pub(crate) fn trace_cache_path(db: &Path) -> std::path::PathBuf {
    if !is_postgres(db) {
        return errdex_explain::cache::path_for(db);
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(shown_db(db).as_bytes());
    let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let dir = user_cache_dir().unwrap_or_else(|| std::env::temp_dir().join("errdex"));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("postgres-{name}.trace-cache"))
}

/// The user's cache folder for errdex: `$XDG_CACHE_HOME/errdex` or
/// `~/.cache/errdex`.
pub(crate) fn user_cache_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))
        .map(|base| base.join("errdex"))
}

/// Whether `--db` names a PostgreSQL database (`postgres://…`).
pub(crate) fn is_postgres(db: &Path) -> bool {
    db.to_str().is_some_and(is_postgres_url)
}

/// Opens (creating and migrating) the atlas `--db` names: an SQLite file
/// or a PostgreSQL URL.
pub(crate) fn open_store(db: &Path) -> Result<AnyStore, Failure> {
    let name = db.to_string_lossy();
    Ok(AnyStore::open(&name).with_context(|| "cannot open the atlas".to_string())?)
}
