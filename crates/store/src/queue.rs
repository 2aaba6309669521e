//! The crawl queue: repositories to index, taken one at a time, which
//! survives a killed crawl (a job whose process is gone is taken again).

use crate::Result;
use serde::Serialize;

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting.
    Queued,
    /// Taken by a process.
    Running,
    /// Indexed.
    Done,
    /// Given up on, with the reason.
    Failed,
}

impl JobState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    pub(crate) fn named(s: &str) -> JobState {
        match s {
            "running" => JobState::Running,
            "done" => JobState::Done,
            "failed" => JobState::Failed,
            _ => JobState::Queued,
        }
    }
}

/// One repository of a crawl.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrawlJob {
    /// Its place in the list.
    pub seq: i64,
    /// The URL or path as listed.
    pub source: String,
    /// The tag glob to index every release of, if listed.
    pub refs: Option<String>,
    /// Where it is.
    pub state: JobState,
    /// Times it was taken.
    pub attempts: u32,
    /// The repository it became, once done.
    pub repo: Option<String>,
    /// Why it failed.
    pub reason: Option<String>,
    /// Seconds the last attempt took.
    pub seconds: Option<f64>,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq)]
pub enum JobOutcome {
    /// Indexed as this repository.
    Done {
        /// `owner/name`.
        repo: String,
        /// Seconds it took.
        seconds: f64,
    },
    /// Given up on.
    Failed {
        /// Why, for the summary.
        reason: String,
        /// Seconds it took.
        seconds: f64,
    },
}

/// A queue of repositories to index.
pub trait CrawlQueue: Send + Sync {
    /// Adds the sources not queued yet, in order; with `again`, sources
    /// already done or failed are queued again. Returns how many were
    /// (re)queued.
    fn enqueue(&self, jobs: &[(String, Option<String>)], again: bool) -> Result<usize>;
    /// Takes the first queued job for process `owner`. Jobs left running
    /// by a process for which `alive` says no are queued again first.
    fn claim_job(&self, owner: u32, alive: &dyn Fn(u32) -> bool) -> Result<Option<CrawlJob>>;
    /// Records how a job ended.
    fn finish_job(&self, seq: i64, outcome: &JobOutcome) -> Result<()>;
    /// Every job, in list order.
    fn jobs(&self) -> Result<Vec<CrawlJob>>;
    /// Tells the queue that `owner` is still working on job `seq`, where
    /// jobs are leased (PostgreSQL: a job whose lease passes is taken
    /// again); false when the job is no longer `owner`'s.
    fn renew(&self, seq: i64, owner: u32) -> Result<bool> {
        let _ = (seq, owner);
        Ok(true)
    }
}
