//! [`CrawlQueue`] on PostgreSQL: workers on several machines take jobs
//! with `FOR UPDATE SKIP LOCKED`, so no two take the same one, and hold
//! them by a lease they renew while they work; a job whose worker died
//! is taken again once its lease has passed.

use super::{off_runtime, PgStore};
use crate::queue::{CrawlJob, CrawlQueue, JobOutcome, JobState};
use crate::Result;

/// How long a job stays a worker's without a renewal, unless the worker
/// says otherwise (`errdex worker --lease`).
pub const LEASE_SECONDS: i64 = 30;

const COLUMNS: &str = "seq, source, refs, state, attempts, repo, reason, seconds";

fn job(r: &postgres::Row) -> CrawlJob {
    CrawlJob {
        seq: r.get(0),
        source: r.get(1),
        refs: r.get(2),
        state: JobState::named(r.get(3)),
        attempts: r.get::<_, i32>(4) as u32,
        repo: r.get(5),
        reason: r.get(6),
        seconds: r.get(7),
    }
}

fn now() -> String {
    crate::sqlite::timestamp(chrono::Utc::now())
}

impl CrawlQueue for PgStore {
    fn enqueue(&self, jobs: &[(String, Option<String>)], again: bool) -> Result<usize> {
        off_runtime(|| {
            let mut c = self.pool.get()?;
            let mut tx = c.transaction()?;
            let mut added = 0;
            for (source, refs) in jobs {
                added += tx.execute(
                    "INSERT INTO crawl_jobs (source, refs) VALUES ($1, $2)
                     ON CONFLICT (source) DO NOTHING",
                    &[source, refs],
                )?;
                if again {
                    added += tx.execute(
                        "UPDATE crawl_jobs SET state = 'queued', refs = $2, reason = NULL,
                           owner = NULL, lease_until = NULL
                         WHERE source = $1 AND state IN ('done', 'failed')",
                        &[source, refs],
                    )?;
                }
            }
            tx.commit()?;
            Ok(added as usize)
        })
    }

    /// `alive` is not asked: a worker on another machine cannot be looked
    /// up, so a job's lease says whether its worker lives.
    fn claim_job(&self, owner: u32, _alive: &dyn Fn(u32) -> bool) -> Result<Option<CrawlJob>> {
        off_runtime(|| {
            let row = self.pool.get()?.query_opt(
                &format!(
                    "UPDATE crawl_jobs SET state = 'running', owner = $1, attempts = attempts + 1,
                       started_at = $2, lease_until = now() + make_interval(secs => $3)
                     WHERE seq = (
                       SELECT seq FROM crawl_jobs
                       WHERE state = 'queued' OR (state = 'running' AND lease_until < now())
                       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
                     RETURNING {COLUMNS}"
                ),
                &[&i64::from(owner), &now(), &self.lease_seconds()],
            )?;
            Ok(row.as_ref().map(job))
        })
    }

    fn finish_job(&self, seq: i64, outcome: &JobOutcome) -> Result<()> {
        let (state, repo, reason, seconds) = match outcome {
            JobOutcome::Done { repo, seconds } => ("done", Some(repo.as_str()), None, *seconds),
            JobOutcome::Failed { reason, seconds } => {
                ("failed", None, Some(reason.as_str()), *seconds)
            }
        };
        off_runtime(|| {
            self.pool.get()?.execute(
                "UPDATE crawl_jobs SET state = $2, repo = $3, reason = $4, seconds = $5,
                   finished_at = $6, owner = NULL, lease_until = NULL WHERE seq = $1",
                &[&seq, &state, &repo, &reason, &seconds, &now()],
            )?;
            Ok(())
        })
    }

    fn jobs(&self) -> Result<Vec<CrawlJob>> {
        off_runtime(|| {
            let rows = self.pool.get()?.query(
                &format!("SELECT {COLUMNS} FROM crawl_jobs ORDER BY seq"),
                &[],
            )?;
            Ok(rows.iter().map(job).collect())
        })
    }

    fn renew(&self, seq: i64, owner: u32) -> Result<bool> {
        off_runtime(|| {
            let n = self.pool.get()?.execute(
                "UPDATE crawl_jobs SET lease_until = now() + make_interval(secs => $3)
                 WHERE seq = $1 AND owner = $2 AND state = 'running'",
                &[&seq, &i64::from(owner), &self.lease_seconds()],
            )?;
            Ok(n == 1)
        })
    }
}
