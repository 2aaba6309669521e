//! [`CrawlQueue`] on PostgreSQL: workers on several machines take jobs
//! with `FOR UPDATE SKIP LOCKED`, so no two take the same one, and hold
//! them by a lease they renew while they work; a job whose worker died
//! is taken again once its lease has passed.

use super::{off_runtime, PgStore};
use crate::queue::{CrawlJob, CrawlQueue, JobOutcome, JobState, JobTicket};
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

    fn finish_job(&self, ticket: JobTicket, outcome: &JobOutcome) -> Result<bool> {
        let (state, repo, reason, seconds) = match outcome {
            JobOutcome::Done { repo, seconds } => ("done", Some(repo.as_str()), None, *seconds),
            JobOutcome::Failed { reason, seconds } => {
                ("failed", None, Some(reason.as_str()), *seconds)
            }
        };
        off_runtime(|| {
            // A done job may already be marked by its repository's write.
            let n = self.pool.get()?.execute(
                "UPDATE crawl_jobs SET state = $3, repo = $4, reason = $5, seconds = $6,
                   finished_at = $7, owner = NULL, lease_until = NULL
                 WHERE seq = $1 AND attempts = $2
                   AND (state = 'running' OR (state = 'done' AND $3 = 'done'))",
                &[
                    &ticket.seq,
                    &(ticket.attempt as i32),
                    &state,
                    &repo,
                    &reason,
                    &seconds,
                    &now(),
                ],
            )?;
            Ok(n == 1)
        })
    }

    fn hold_ticket(&self, ticket: Option<JobTicket>) {
        *self.ticket.lock().unwrap_or_else(|p| p.into_inner()) = ticket;
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

    fn renew(&self, ticket: JobTicket) -> Result<bool> {
        off_runtime(|| {
            let n = self.pool.get()?.execute(
                "UPDATE crawl_jobs SET lease_until = now() + make_interval(secs => $3)
                 WHERE seq = $1 AND attempts = $2 AND state = 'running'",
                &[&ticket.seq, &(ticket.attempt as i32), &self.lease_seconds()],
            )?;
            Ok(n == 1)
        })
    }
}

impl PgStore {
    pub(super) fn held_ticket(&self) -> Option<JobTicket> {
        *self.ticket.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Marks the job `ticket` took done as `repo`, inside the transaction that
/// writes it; refuses (and so rolls the write back) when the job was taken
/// again since. The row stays locked until the commit, so a worker taking
/// the job again waits for the write and then finds the job done.
pub(super) fn settle_ticket(
    tx: &mut postgres::Transaction<'_>,
    ticket: Option<JobTicket>,
    repo: &str,
) -> Result<()> {
    let Some(t) = ticket else { return Ok(()) };
    let n = tx.execute(
        "UPDATE crawl_jobs SET state = 'done', repo = $3, finished_at = $4, owner = NULL,
           lease_until = NULL
         WHERE seq = $1 AND attempts = $2 AND state = 'running'",
        &[&t.seq, &(t.attempt as i32), &repo, &now()],
    )?;
    if n == 1 {
        Ok(())
    } else {
        Err(crate::Error::JobTaken(t))
    }
}
