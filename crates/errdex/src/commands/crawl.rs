//! `errdex crawl`: index a list of repositories through a queue in the
//! database. Each repository is indexed by a child `errdex index` under a
//! time limit and a memory limit, so one stuck or huge repository is
//! recorded as failed with its reason and the rest go on; a remote that
//! cannot be reached is tried again with back-off; a killed crawl is
//! resumed by running it again.

use crate::cli::{CrawlArgs, JobLimits};
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_store::{AnyStore, CrawlJob, CrawlQueue, JobOutcome, JobState};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Exit code of `errdex index` when a remote could not be reached.
pub(crate) const EXIT_FETCH: i32 = 3;
/// Lines of a failed child's error output kept as the reason.
const REASON_LINES: usize = 3;

pub(crate) fn run(db: &Path, a: CrawlArgs) -> Result<(), Failure> {
    let list = read_list(&a.file)?;
    let store = super::open_store(db)?;
    let added = queue(&store).enqueue(&list, a.again)?;
    let total = queue(&store).jobs()?.len();
    eprintln!(
        "queue: {added} of {} listed repositories added ({total} in the queue)",
        list.len()
    );
    if super::is_postgres(db) {
        // A shared atlas: workers on any machine take the queue.
        eprintln!(
            "start workers to index them: errdex worker --db {}",
            super::shown_db(db)
        );
        return Ok(());
    }
    let limits = Limits::of(&a.limits)?;
    let bar = progress(&store)?;
    let started = Instant::now();
    let renew_every = Duration::from_secs((errdex_store::LEASE_SECONDS / 3) as u64);
    let this_run = take_jobs(db, &store, &limits, &bar, true, renew_every)?;
    bar.finish_and_clear();
    summary(&queue(&store).jobs()?, this_run, started.elapsed())
}

/// The store's queue.
pub(crate) fn queue(store: &AnyStore) -> &dyn CrawlQueue {
    match store {
        AnyStore::Sqlite(s) => s,
        AnyStore::Postgres(p) => &**p,
    }
}

/// Takes jobs and indexes them until the queue is idle: nothing queued and
/// nothing running (a job another worker holds may come back when that
/// worker dies, so it is waited for); or, when `until_idle` is false,
/// forever, looking again every second. Returns how many this process
/// indexed.
pub(crate) fn take_jobs(
    db: &Path,
    store: &AnyStore,
    limits: &Limits,
    bar: &ProgressBar,
    until_idle: bool,
    renew_every: Duration,
) -> Result<usize, Failure> {
    let q = queue(store);
    let me = std::process::id();
    let mut taken = 0usize;
    loop {
        let Some(job) = q.claim_job(me, &process_alive)? else {
            let held = q.jobs()?.iter().any(|j| j.state == JobState::Running);
            if until_idle && !held {
                return Ok(taken);
            }
            std::thread::sleep(Duration::from_millis(if held { 200 } else { 1000 }));
            continue;
        };
        bar.set_message(job.source.clone());
        let outcome = with_lease(q, &job, renew_every, || {
            index_with_retries(db, &job, limits)
        });
        if q.finish_job(job.ticket(), &outcome)? {
            taken += 1;
            bar.inc(1);
        } else {
            bar.println(format!(
                "{}: taken again by another worker after this one's lease ran out; left to it",
                job.source
            ));
        }
    }
}

/// Runs `work` while renewing `job`'s lease `every` so often.
fn with_lease<T>(
    q: &dyn CrawlQueue,
    job: &CrawlJob,
    every: Duration,
    work: impl FnOnce() -> T,
) -> T {
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every)
            {
                // A renewal that fails is tried again at the next beat; the
                // lease runs out only if every one fails.
                let _ = q.renew(job.ticket());
            }
        });
        let out = work();
        drop(stop);
        out
    })
}

/// The list: `URL_OR_PATH [TAG_GLOB]` per line (`#` starts a comment), or
/// a TOML file of `[[repo]]` tables with `source` and `tags`.
fn read_list(file: &Path) -> Result<Vec<(String, Option<String>)>, Failure> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("{}: cannot read the list", file.display()))?;
    let list = if file.extension().is_some_and(|e| e == "toml") {
        toml_list(&text).map_err(|e| anyhow!("{}: {e}", file.display()))?
    } else {
        text.lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(|l| {
                let mut words = l.split_whitespace();
                let source = words.next().unwrap_or_default().to_string();
                (source, words.next().map(str::to_string))
            })
            .collect()
    };
    if list.is_empty() {
        return Err(anyhow!(
            "{}: lists no repository (one URL or path per line, optionally followed by a tag glob)",
            file.display()
        )
        .into());
    }
    // Relative paths are relative to the list, not to where crawl runs.
    let base = file.parent().unwrap_or(Path::new("."));
    Ok(list
        .into_iter()
        .map(|(s, tags)| {
            let local = !errdex_extract::fetch::is_url(&s) && Path::new(&s).is_relative();
            let s = if local {
                base.join(&s).to_string_lossy().into_owned()
            } else {
                s
            };
            (s, tags)
        })
        .collect())
}

fn toml_list(text: &str) -> Result<Vec<(String, Option<String>)>, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct List {
        repo: Vec<Entry>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Entry {
        source: String,
        tags: Option<String>,
    }
    let list: List = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    Ok(list.repo.into_iter().map(|e| (e.source, e.tags)).collect())
}

/// The limits each child runs under.
pub(crate) struct Limits {
    timeout: Duration,
    memory: Option<u64>,
    retries: u32,
    cache_dir: Option<PathBuf>,
    /// `setpriv` and `prlimit` are there (util-linux): the child dies with
    /// the crawl and gets the memory limit.
    wrap: bool,
}

impl Limits {
    pub(crate) fn of(a: &JobLimits) -> Result<Limits, Failure> {
        let memory = match a.memory.as_str() {
            "0" | "none" => None,
            m => Some(super::index::parse_size(m).ok_or_else(|| {
                anyhow!("--memory {m:?}: expected a size such as 4G or 512M, or none")
            })?),
        };
        let wrap = ["setpriv", "prlimit"].iter().all(|t| on_path(t));
        if !wrap {
            eprintln!("warning: setpriv/prlimit (util-linux) not found: repositories are indexed without the memory limit");
        }
        Ok(Limits {
            timeout: Duration::from_secs(a.timeout),
            memory,
            retries: a.retries,
            cache_dir: a.cache_dir.clone(),
            wrap,
        })
    }
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// Indexes one job, trying again after 1, 2, 4… seconds when the remote
/// could not be reached.
fn index_with_retries(db: &Path, job: &CrawlJob, limits: &Limits) -> JobOutcome {
    let started = Instant::now();
    let mut attempt = 0;
    loop {
        let result = index_once(db, job, limits);
        let seconds = started.elapsed().as_secs_f64();
        match result {
            Ok(repo) => return JobOutcome::Done { repo, seconds },
            Err(Attempt::Network(why)) if attempt < limits.retries => {
                std::thread::sleep(Duration::from_secs(1 << attempt.min(6)));
                attempt += 1;
                let _ = why;
            }
            Err(Attempt::Network(why)) => {
                return JobOutcome::Failed {
                    reason: format!("{why} (after {} tries)", attempt + 1),
                    seconds,
                }
            }
            Err(Attempt::Failed(reason)) => return JobOutcome::Failed { reason, seconds },
        }
    }
}

enum Attempt {
    /// The remote could not be reached: worth another try.
    Network(String),
    /// Anything else: recorded as the reason.
    Failed(String),
}

/// Runs `errdex index` on the job in a child process.
fn index_once(db: &Path, job: &CrawlJob, limits: &Limits) -> Result<String, Attempt> {
    let exe = std::env::current_exe().map_err(|e| Attempt::Failed(e.to_string()))?;
    let mut cmd = if limits.wrap {
        let mut c = Command::new("setpriv");
        c.args(["--pdeathsig", "KILL", "--"]);
        if let Some(bytes) = limits.memory {
            c.args(["prlimit", &format!("--as={bytes}"), "--"]);
        }
        c.arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    cmd.arg("--db")
        .arg(db)
        .args(["index", "--json-summary", &job.source])
        .arg("--crawl-ticket")
        .arg(job.ticket().to_string());
    if let Some(glob) = &job.refs {
        cmd.args(["--tags", glob]);
    }
    if let Some(dir) = &limits.cache_dir {
        cmd.arg("--cache-dir").arg(dir);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Attempt::Failed(format!("cannot start errdex index: {e}")))?;
    // Both pipes are drained on their own threads so a chatty child never
    // blocks on a full pipe while the clock runs.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped")));
    let err = drain(Box::new(child.stderr.take().expect("piped")));
    let status = wait_with_timeout(&mut child, limits.timeout);
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let Some(status) = status else {
        return Err(Attempt::Failed(format!(
            "took longer than {} s (--timeout); stopped",
            limits.timeout.as_secs()
        )));
    };
    if status.success() {
        let repo = serde_json::from_str::<serde_json::Value>(stdout.trim())
            .ok()
            .and_then(|v| v["repo"].as_str().map(str::to_string))
            .unwrap_or_else(|| job.source.clone());
        return Ok(repo);
    }
    Err(failure(status, &stderr, limits))
}

/// Waits for `child` at most `limit`; kills it past that (`None`).
fn wait_with_timeout(child: &mut std::process::Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Why a child failed, from its exit and its last error lines.
fn failure(status: ExitStatus, stderr: &str, limits: &Limits) -> Attempt {
    let last: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = last[last.len().saturating_sub(REASON_LINES)..].join(" / ");
    let out_of_memory = stderr.contains("memory allocation of");
    if out_of_memory {
        let limit = limits
            .memory
            .map_or(String::new(), |m| format!(" of {} MiB", m >> 20));
        return Attempt::Failed(format!("ran out of the memory limit{limit} (--memory)"));
    }
    if status.code() == Some(EXIT_FETCH) {
        return Attempt::Network(tail);
    }
    let how = match status.code() {
        Some(c) => format!("exit {c}"),
        None => "killed by a signal".to_string(),
    };
    Attempt::Failed(if tail.is_empty() {
        how
    } else {
        format!("{tail} ({how})")
    })
}

pub(crate) fn progress(store: &AnyStore) -> Result<ProgressBar, Failure> {
    let jobs = queue(store).jobs()?;
    let left = jobs
        .iter()
        .filter(|j| matches!(j.state, JobState::Queued | JobState::Running))
        .count();
    let bar = ProgressBar::with_draw_target(Some(left as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} crawling [{bar:30}] {pos}/{len} repos, {per_sec}, eta {eta}  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    Ok(bar)
}

fn summary(jobs: &[CrawlJob], this_run: usize, took: Duration) -> Result<(), Failure> {
    let count = |s: JobState| jobs.iter().filter(|j| j.state == s).count();
    let per_hour = this_run as f64 / took.as_secs_f64().max(1e-3) * 3600.0;
    eprintln!(
        "crawled {this_run} repositories in {:.1} s ({per_hour:.0} per hour); queue: {} done, {} failed, {} left",
        took.as_secs_f64(),
        count(JobState::Done),
        count(JobState::Failed),
        count(JobState::Queued) + count(JobState::Running),
    );
    for j in jobs.iter().filter(|j| j.state == JobState::Failed) {
        eprintln!(
            "failed: {}: {}",
            j.source,
            j.reason.as_deref().unwrap_or("?")
        );
    }
    if count(JobState::Failed) > 0 {
        return Err(Failure {
            code: crate::EXIT_NOT_FOUND,
            error: anyhow!(
                "{} repositories failed (run again with --again to retry them)",
                count(JobState::Failed)
            ),
        });
    }
    Ok(())
}

/// Whether process `pid` still runs (its `/proc` entry is there and not a
/// zombie).
fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z"),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_lines_or_toml() {
        let dir = tempfile::tempdir().unwrap();
        let lines = dir.path().join("repos.txt");
        std::fs::write(&lines, "# mine\nhttps://x.org/a/b v*\n\nsub/c  # local\n").unwrap();
        let got = read_list(&lines).unwrap();
        assert_eq!(
            got[0],
            ("https://x.org/a/b".to_string(), Some("v*".to_string()))
        );
        assert_eq!(got[1].0, dir.path().join("sub/c").to_string_lossy());
        let toml = dir.path().join("repos.toml");
        std::fs::write(
            &toml,
            "[[repo]]\nsource = \"file:///r.git\"\ntags = \"v1.*\"\n",
        )
        .unwrap();
        assert_eq!(
            read_list(&toml).unwrap(),
            [("file:///r.git".to_string(), Some("v1.*".to_string()))]
        );
        std::fs::write(&toml, "[[repo]]\nurl = \"x\"\n").unwrap();
        assert!(read_list(&toml).is_err(), "an unknown key is an error");
        std::fs::write(&lines, "# nothing\n").unwrap();
        assert!(read_list(&lines).is_err(), "an empty list is an error");
    }

    #[test]
    fn this_process_is_alive_and_a_finished_one_is_not() {
        assert!(process_alive(std::process::id()));
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_alive(pid));
    }
}
