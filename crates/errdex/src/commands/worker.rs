//! `errdex worker` and `errdex status`: the queue of a shared atlas, taken
//! by workers on any machine, and what it holds.

use super::crawl::{progress, queue, take_jobs, Limits};
use crate::cli::WorkerArgs;
use crate::Failure;
use errdex_store::{AnyStore, JobState, Store};
use std::path::Path;
use std::time::Instant;

pub(crate) fn run(db: &Path, a: WorkerArgs) -> Result<(), Failure> {
    let store = super::open_store(db)?;
    if let AnyStore::Postgres(p) = &store {
        p.set_lease_seconds(a.lease as i64);
    }
    let limits = Limits::of(&a.limits)?;
    eprintln!(
        "worker {} on {}: taking jobs{}",
        std::process::id(),
        super::shown_db(db),
        if a.exit_when_idle {
            " until the queue is empty"
        } else {
            " (Ctrl-C stops)"
        }
    );
    let bar = progress(&store)?;
    let started = Instant::now();
    let renew_every = std::time::Duration::from_secs((a.lease / 3).max(1));
    let taken = take_jobs(db, &store, &limits, &bar, a.exit_when_idle, renew_every)?;
    bar.finish_and_clear();
    eprintln!(
        "worker {}: indexed {taken} repositories in {:.1} s",
        std::process::id(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub(crate) fn status(store: &AnyStore) -> Result<(), Failure> {
    let jobs = queue(store).jobs()?;
    let count = |s: JobState| jobs.iter().filter(|j| j.state == s).count();
    println!(
        "queue: {} queued, {} running, {} done, {} failed",
        count(JobState::Queued),
        count(JobState::Running),
        count(JobState::Done),
        count(JobState::Failed)
    );
    for j in jobs.iter().filter(|j| j.state == JobState::Running) {
        println!("  running  {} (attempt {})", j.source, j.attempts);
    }
    for j in jobs.iter().filter(|j| j.state == JobState::Failed) {
        let why = j.reason.as_deref().unwrap_or("no reason recorded");
        println!("  failed   {}: {why}", j.source);
    }
    let repos = store.repos()?;
    let records: u64 = repos.iter().map(|r| r.records).sum();
    println!(
        "atlas: {} repositories, {records} records, dataset {}",
        repos.len(),
        store.dataset_version()?.unwrap_or_else(|| "none".into())
    );
    Ok(())
}
