//! [`CrawlQueue`] on SQLite: each step is one immediate transaction, so
//! two crawls on one database never take the same job.

use super::{timestamp, SqliteStore};
use crate::queue::{CrawlJob, CrawlQueue, JobOutcome, JobState, JobTicket};
use crate::Result;
use chrono::Utc;
use rusqlite::{params, OptionalExtension, TransactionBehavior};

impl CrawlQueue for SqliteStore {
    fn enqueue(&self, jobs: &[(String, Option<String>)], again: bool) -> Result<usize> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut added = 0;
        {
            let mut insert = tx.prepare(
                "INSERT INTO crawl_jobs (source, refs) VALUES (?1, ?2)
                 ON CONFLICT(source) DO NOTHING",
            )?;
            let mut requeue = tx.prepare(
                "UPDATE crawl_jobs SET state = 'queued', refs = ?2, reason = NULL, owner = NULL
                 WHERE source = ?1 AND state IN ('done', 'failed')",
            )?;
            for (source, refs) in jobs {
                added += insert.execute(params![source, refs])?;
                if again {
                    added += requeue.execute(params![source, refs])?;
                }
            }
        }
        tx.commit()?;
        Ok(added)
    }

    fn claim_job(&self, owner: u32, alive: &dyn Fn(u32) -> bool) -> Result<Option<CrawlJob>> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let orphans: Vec<(i64, Option<u32>)> = tx
            .prepare("SELECT seq, owner FROM crawl_jobs WHERE state = 'running'")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (seq, by) in orphans {
            let held = by.is_some_and(|p| p == owner || alive(p));
            if !held {
                tx.execute(
                    "UPDATE crawl_jobs SET state = 'queued', owner = NULL WHERE seq = ?",
                    [seq],
                )?;
            }
        }
        let seq: Option<i64> = tx
            .query_row(
                "SELECT seq FROM crawl_jobs WHERE state = 'queued' ORDER BY seq LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let Some(seq) = seq else {
            tx.commit()?;
            return Ok(None);
        };
        tx.execute(
            "UPDATE crawl_jobs SET state = 'running', owner = ?2, attempts = attempts + 1,
               started_at = ?3 WHERE seq = ?1",
            params![seq, owner, timestamp(Utc::now())],
        )?;
        let job = tx.query_row(&format!("{SELECT} WHERE seq = ?"), [seq], row)?;
        tx.commit()?;
        Ok(Some(job))
    }

    fn finish_job(&self, ticket: JobTicket, outcome: &JobOutcome) -> Result<bool> {
        let (state, repo, reason, seconds) = match outcome {
            JobOutcome::Done { repo, seconds } => ("done", Some(repo.as_str()), None, seconds),
            JobOutcome::Failed { reason, seconds } => {
                ("failed", None, Some(reason.as_str()), seconds)
            }
        };
        // A done job may already be marked by its repository's write.
        let n = self.conn().execute(
            "UPDATE crawl_jobs SET state = ?3, repo = ?4, reason = ?5, seconds = ?6,
               finished_at = ?7, owner = NULL
             WHERE seq = ?1 AND attempts = ?2
               AND (state = 'running' OR (state = 'done' AND ?3 = 'done'))",
            params![
                ticket.seq,
                ticket.attempt,
                state,
                repo,
                reason,
                seconds,
                timestamp(Utc::now())
            ],
        )?;
        Ok(n == 1)
    }

    /// Nothing is leased on SQLite; says whether the job is still the
    /// ticket's.
    fn renew(&self, ticket: JobTicket) -> Result<bool> {
        let held = self
            .conn()
            .query_row(
                "SELECT 1 FROM crawl_jobs WHERE seq = ?1 AND attempts = ?2 AND state = 'running'",
                params![ticket.seq, ticket.attempt],
                |_| Ok(()),
            )
            .optional()?;
        Ok(held.is_some())
    }

    fn hold_ticket(&self, ticket: Option<JobTicket>) {
        *self.ticket.lock().unwrap_or_else(|p| p.into_inner()) = ticket;
    }

    fn jobs(&self) -> Result<Vec<CrawlJob>> {
        let conn = self.conn();
        let mut st = conn.prepare(&format!("{SELECT} ORDER BY seq"))?;
        let jobs = st.query_map([], row)?.collect::<rusqlite::Result<_>>()?;
        Ok(jobs)
    }
}

impl SqliteStore {
    pub(super) fn held_ticket(&self) -> Option<JobTicket> {
        *self.ticket.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Marks the job `ticket` took done as `repo`, inside the transaction that
/// writes it; refuses (and so rolls the write back) when the job was taken
/// again since.
pub(super) fn settle_ticket(
    tx: &rusqlite::Transaction<'_>,
    ticket: Option<JobTicket>,
    repo: &str,
) -> Result<()> {
    let Some(t) = ticket else { return Ok(()) };
    let n = tx.execute(
        "UPDATE crawl_jobs SET state = 'done', repo = ?3, finished_at = ?4, owner = NULL
         WHERE seq = ?1 AND attempts = ?2 AND state = 'running'",
        params![t.seq, t.attempt, repo, timestamp(Utc::now())],
    )?;
    if n == 1 {
        Ok(())
    } else {
        Err(crate::Error::JobTaken(t))
    }
}

const SELECT: &str =
    "SELECT seq, source, refs, state, attempts, repo, reason, seconds FROM crawl_jobs";

fn row(r: &rusqlite::Row) -> rusqlite::Result<CrawlJob> {
    Ok(CrawlJob {
        seq: r.get(0)?,
        source: r.get(1)?,
        refs: r.get(2)?,
        state: JobState::named(&r.get::<_, String>(3)?),
        attempts: r.get(4)?,
        repo: r.get(5)?,
        reason: r.get(6)?,
        seconds: r.get(7)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> Vec<(String, Option<String>)> {
        (0..n).map(|i| (format!("/src/r{i}"), None)).collect()
    }

    #[test]
    fn jobs_are_taken_in_order_once_and_a_dead_owners_job_is_taken_again() {
        let s = SqliteStore::open_in_memory().unwrap();
        assert_eq!(s.enqueue(&list(3), false).unwrap(), 3);
        assert_eq!(
            s.enqueue(&list(3), false).unwrap(),
            0,
            "listed twice, queued once"
        );
        let alive = |_: u32| true;
        let a = s.claim_job(100, &alive).unwrap().unwrap();
        let b = s.claim_job(200, &alive).unwrap().unwrap();
        assert_eq!(
            (a.source.as_str(), b.source.as_str()),
            ("/src/r0", "/src/r1")
        );
        s.finish_job(
            a.ticket(),
            &JobOutcome::Done {
                repo: "o/r0".into(),
                seconds: 1.0,
            },
        )
        .unwrap();
        // Process 200 died holding r1: the next claim takes r1 again.
        let dead_200 = |p: u32| p != 200;
        let again = s.claim_job(300, &dead_200).unwrap().unwrap();
        assert_eq!((again.source.as_str(), again.attempts), ("/src/r1", 2));
        let c = s.claim_job(300, &dead_200).unwrap().unwrap();
        s.finish_job(
            c.ticket(),
            &JobOutcome::Failed {
                reason: "timed out".into(),
                seconds: 9.0,
            },
        )
        .unwrap();
        s.finish_job(
            again.ticket(),
            &JobOutcome::Done {
                repo: "o/r1".into(),
                seconds: 1.0,
            },
        )
        .unwrap();
        assert!(s.claim_job(300, &dead_200).unwrap().is_none());
        let states: Vec<JobState> = s.jobs().unwrap().iter().map(|j| j.state).collect();
        assert_eq!(states, [JobState::Done, JobState::Done, JobState::Failed]);
        assert_eq!(
            s.enqueue(&list(3), true).unwrap(),
            3,
            "--again queues every job again"
        );
    }
}
