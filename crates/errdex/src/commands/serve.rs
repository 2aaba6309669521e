//! `errdex serve` and `errdex up`.

use crate::cli::{IndexArgs, LogLevels, ServeArgs, UpArgs};
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_serve::AppState;
use errdex_store::{AnyStore, Store};
use std::path::Path;

pub(crate) fn run(store: AnyStore, db: &Path, a: &ServeArgs) -> Result<(), Failure> {
    let records: u64 = store.repos()?.iter().map(|r| r.records).sum();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(&a.addr).await.map_err(|e| {
            anyhow!(
                "cannot listen on {}: {e}; pick another with --addr HOST:PORT",
                a.addr
            )
        })?;
        let local = listener.local_addr().context("reading the bound address")?;
        let base = a
            .base_url
            .clone()
            .unwrap_or_else(|| format!("http://{local}"));
        eprintln!(
            "serving {records} errors from {} at {base}/ (Ctrl-C stops)",
            super::shown_db(db)
        );
        errdex_serve::serve_limited(AppState::new(store, &base), listener, a.limits())
            .await
            .context("serving")?;
        Ok::<(), Failure>(())
    })
}

pub(crate) fn up(db: &Path, a: UpArgs) -> Result<(), Failure> {
    super::index::run(
        db,
        IndexArgs {
            path: a.path,
            refs: Vec::new(),
            tags: None,
            ref_glob: None,
            cache_dir: None,
            no_cache: false,
            repo: a.repo,
            commit: None,
            include_vendor: false,
            include_tests: false,
            max_file_size: "4M".into(),
            threads: 0,
            verbose: false,
            log_levels: LogLevels::All,
            config: None,
            timings: false,
            list: false,
            json_summary: false,
            crawl_ticket: None,
        },
    )?;
    run(super::open_store(db)?, db, &a.serve)
}
