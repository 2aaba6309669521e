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

impl CrawlJob {
    /// This taking of the job, which fences its writes.
    pub fn ticket(&self) -> JobTicket {
        JobTicket {
            seq: self.seq,
            attempt: self.attempts,
        }
    }
}

/// One taking of a job: its sequence number and attempt. Each claim makes
/// a new attempt, so a worker whose lease ran out (the job was taken
/// again) holds a ticket that no longer matches, and its writes and its
/// outcome are refused: a repository is written once per job, by the
/// worker that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobTicket {
    /// The job.
    pub seq: i64,
    /// Which taking of it.
    pub attempt: u32,
}

impl std::fmt::Display for JobTicket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.seq, self.attempt)
    }
}

impl std::str::FromStr for JobTicket {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<JobTicket, String> {
        let bad = || format!("{s:?}: a crawl ticket is SEQ:ATTEMPT, as a worker passes it");
        let (seq, attempt) = s.split_once(':').ok_or_else(bad)?;
        Ok(JobTicket {
            seq: seq.parse().map_err(|_| bad())?,
            attempt: attempt.parse().map_err(|_| bad())?,
        })
    }
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
    /// Records how the job `ticket` took ended; false (nothing recorded)
    /// when the job was taken again since.
    fn finish_job(&self, ticket: JobTicket, outcome: &JobOutcome) -> Result<bool>;
    /// Every job, in list order.
    fn jobs(&self) -> Result<Vec<CrawlJob>>;
    /// Tells the queue that the holder of `ticket` is still working on it,
    /// where jobs are leased (PostgreSQL: a job whose lease passes is taken
    /// again); false when the job was taken again since.
    fn renew(&self, ticket: JobTicket) -> Result<bool>;
    /// Makes this store's repository writes carry `ticket`: each commits
    /// only while the job is still that taking's, and marks it done in the
    /// same transaction; otherwise it fails with [`crate::Error::JobTaken`]
    /// and writes nothing.
    fn hold_ticket(&self, ticket: Option<JobTicket>);
}
