//! The PostgreSQL backend: the atlas shared by several indexing workers
//! and web servers. The same rows as SQLite's (records keep the marked
//! JSON of `encode.rs`), PostgreSQL's own text search for the search tier,
//! and migrations versioned like SQLite's, counted in `meta`.

mod pool;
mod queue;
mod tls;

pub use queue::LEASE_SECONDS;

use crate::encode::{
    self, encode, encode_all, fill, with_commit, RecordTraceFields, RunStamp, Stored, TraceFields,
};
use crate::{Error, ListQuery, RepoSummary, Result, Store, TraceRow};
use errdex_model::{DynamicSite, Record, RepoDataset};
pub(crate) use pool::redacted;
use pool::Pool;
use postgres::{Row, Transaction};
use std::collections::HashMap;

/// Migrations in order; `meta.schema_version` records how many have run.
/// The first holds what SQLite's first seven hold; a later change to what
/// is stored gets a migration on each backend, in the same commit.
const MIGRATIONS: &[&str] = &[include_str!("001_atlas.sql")];

/// The lock every migrating process takes, so that workers and servers
/// started together migrate once.
const MIGRATION_LOCK: i64 = 0x6572_7264_6578; // "errdex"

/// An atlas in a PostgreSQL database.
pub struct PgStore {
    pub(crate) pool: Pool,
    /// Seconds a crawl job stays a worker's without a renewal.
    lease_seconds: std::sync::atomic::AtomicI64,
    /// The dataset version as last read, and when.
    version_seen: std::sync::Mutex<Option<(std::time::Instant, Option<String>)>>,
    /// The crawl job this process's repository writes settle, if any.
    ticket: std::sync::Mutex<Option<crate::JobTicket>>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("url", &self.pool.shown())
            .finish_non_exhaustive()
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:pw@host/db`,
    /// `?sslmode=require` for TLS) and migrates it.
    pub fn open(url: &str) -> Result<PgStore> {
        Self::open_in_schema(url, None)
    }

    /// [`PgStore::open`] with every table in `schema` (created if
    /// missing): several atlases in one database, one per test.
    pub fn open_in_schema(url: &str, schema: Option<&str>) -> Result<PgStore> {
        let pool = Pool::new(url, schema)?;
        let store = PgStore {
            pool,
            lease_seconds: std::sync::atomic::AtomicI64::new(LEASE_SECONDS),
            version_seen: std::sync::Mutex::new(None),
            ticket: std::sync::Mutex::new(None),
        };
        store.migrate()?;
        Ok(store)
    }

    /// How long a crawl job this store's worker takes stays its without a
    /// renewal (default [`LEASE_SECONDS`]): a killed worker's job waits
    /// this long for another.
    pub fn set_lease_seconds(&self, seconds: i64) {
        self.lease_seconds
            .store(seconds.max(1), std::sync::atomic::Ordering::Relaxed);
    }

    /// This process wrote a dataset: its next read of the version asks.
    fn forget_version(&self) {
        *self.version_seen.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    pub(crate) fn lease_seconds(&self) -> f64 {
        self.lease_seconds
            .load(std::sync::atomic::Ordering::Relaxed) as f64
    }

    fn migrate(&self) -> Result<()> {
        let mut c = self.pool.get()?;
        let mut tx = c.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        )?;
        let found: i64 = tx
            .query_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])?
            .and_then(|r| r.get::<_, String>(0).parse().ok())
            .unwrap_or(0);
        let supported = MIGRATIONS.len() as i64;
        if found > supported {
            return Err(Error::NewerSchema { found, supported });
        }
        for sql in MIGRATIONS.iter().skip(found as usize) {
            tx.batch_execute(sql)?;
        }
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('schema_version', $1)
             ON CONFLICT (key) DO UPDATE SET value = $1",
            &[&supported.to_string()],
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// How long a dataset version read from the database is taken as current.
const VERSION_FRESH_MS: u64 = 200;

/// The trace-only tier, as an SQL condition on a record (as SQLite's).
const TRACE_ONLY: &str = "error_type = 'log' AND severity IN ('info', 'debug')";

/// The columns [`record_of`] reads, from table alias `t`.
fn record_columns(t: &str) -> String {
    format!(
        "{t}.record, (SELECT p.commit_sha FROM repos p WHERE p.repo = {t}.repo),
         coalesce({t}.analyzed_at, (SELECT p.analyzed_at FROM repos p WHERE p.repo = {t}.repo)),
         {t}.content_changed_at"
    )
}

/// A record from columns 0–3 of [`record_columns`].
fn record_of(r: &Row) -> Result<Record> {
    let json = fill(
        r.get(0),
        r.get::<_, Option<&str>>(1),
        r.get::<_, Option<&str>>(2),
        r.get::<_, Option<&str>>(3),
    );
    Ok(serde_json::from_str(&json)?)
}

fn records_of(rows: Vec<Row>) -> Result<Vec<Record>> {
    rows.iter().map(record_of).collect()
}

/// A WHERE clause for `q` with `$n` parameters.
fn where_sql(q: &ListQuery) -> (String, Vec<String>) {
    let mut clauses = Vec::new();
    let mut args: Vec<String> = Vec::new();
    let mut add = |sql: &str, v: &Option<String>| {
        if let Some(v) = v {
            args.push(v.clone());
            clauses.push(sql.replace("$?", &format!("${}", args.len())));
        }
    };
    add("repo = $?", &q.repo);
    add("severity = $?", &q.severity);
    add("error_type = $?", &q.error_type);
    add("(record::jsonb -> 'tags') ? $?", &q.tag);
    add("record::jsonb ->> 'backgroundTag' = $?", &q.family);
    add("error_code = $?", &q.error_code);
    add("starts_with(file_path, $?)", &q.path_prefix);
    if !q.all_levels && q.severity.is_none() {
        clauses.push(format!("NOT ({TRACE_ONLY})"));
    }
    let sql = if clauses.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", clauses.join(" AND "))
    };
    (sql, args)
}

fn params(args: &[String]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    args.iter()
        .map(|a| a as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

/// A new dataset version, later than every earlier one (the `meta` row is
/// locked until the transaction ends, so concurrent writers take turns).
fn next_version(tx: &mut Transaction<'_>) -> Result<String> {
    let last: Option<String> = tx
        .query_opt(
            "SELECT value FROM meta WHERE key = 'dataset_version' FOR UPDATE",
            &[],
        )?
        .map(|r| r.get(0));
    Ok(crate::sqlite::version_after(last.as_deref()))
}

/// Records `version` as the newest and tells listening servers.
fn set_version(tx: &mut Transaction<'_>, version: &str) -> Result<()> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('dataset_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = $1",
        &[&version],
    )?;
    tx.execute("SELECT pg_notify('errdex_dataset', $1)", &[&version])?;
    Ok(())
}

fn stored_rows(tx: &mut Transaction<'_>, repo: &str) -> Result<HashMap<String, Stored>> {
    let rows = tx.query(
        "SELECT id, seq, content_hash, content_changed_at, analyzed_at FROM records WHERE repo = $1",
        &[&repo],
    )?;
    Ok(rows
        .iter()
        .map(|r| {
            (
                r.get(0),
                Stored {
                    seq: r.get(1),
                    hash: r.get(2),
                    content_changed_at: r.get(3),
                    analyzed_at: r.get(4),
                    memo: None,
                },
            )
        })
        .collect())
}

fn insert_rows(tx: &mut Transaction<'_>, rows: &[(&Record, &encode::Encoded)]) -> Result<()> {
    let ins = tx.prepare(
        "INSERT INTO records (id, repo, slug, message_pattern, error_message, error_type,
           severity, file_path, line_number, error_code, content_hash, record,
           content_changed_at, analyzed_at, trace)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
    )?;
    for (r, e) in rows {
        tx.execute(
            &ins,
            &[
                &r.id,
                &r.repo,
                &r.slug,
                &r.message_pattern,
                &r.error_message,
                &r.error_type.as_str(),
                &r.severity.as_str(),
                &r.file_path,
                &(r.line_number as i32),
                &r.error_code,
                &e.hash,
                &e.json,
                &e.content_changed_at,
                &e.analyzed_at,
                &e.trace,
            ],
        )?;
    }
    Ok(())
}

/// The words of `text` as a query every one of them must match, as
/// SQLite's tier does.
fn ts_query(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(32)
        .map(|w| format!("'{}'", w.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" & ")
}

/// The work of each [`Store`] method, on a thread that may block.
impl PgStore {
    fn replace_repo_now(&self, ds: &RepoDataset) -> Result<String> {
        let mut c = self.pool.get()?;
        let mut tx = c.transaction()?;
        // One writer per repository at a time; others wait for it.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&ds.repo])?;
        let stored = stored_rows(&mut tx, &ds.repo)?;
        let version = next_version(&mut tx)?;
        let analyzed_at = encode::common_analyzed_at(&ds.records);
        tx.execute(
            "INSERT INTO repos (repo, commit_sha, remote_url, dataset_version, indexed_at, stats,
               versions, analyzed_at)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
             ON CONFLICT (repo) DO UPDATE SET commit_sha = $2, remote_url = $3,
               dataset_version = $4, indexed_at = $4, stats = $5, versions = $6, analyzed_at = $7",
            &[
                &ds.repo,
                &ds.commit,
                &ds.remote_url,
                &version,
                &serde_json::to_string(&ds.stats)?,
                &serde_json::to_string(&ds.versions)?,
                &analyzed_at,
            ],
        )?;
        let run = RunStamp {
            commit: ds.commit.as_deref(),
            analyzed_at: &analyzed_at,
        };
        let encoded = encode_all(&ds.records, run, &stored, &[])?;
        let change = encode::Change::of(&ds.records, &encoded, &stored);
        tx.execute("DELETE FROM records WHERE seq = ANY($1)", &[&change.gone])?;
        insert_rows(&mut tx, &change.fresh)?;
        tx.execute("DELETE FROM dynamic_sites WHERE repo = $1", &[&ds.repo])?;
        let dy = tx.prepare(
            "INSERT INTO dynamic_sites (repo, file_path, line_number, function, callee, expression)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )?;
        for d in &ds.dynamic_sites {
            tx.execute(
                &dy,
                &[
                    &ds.repo,
                    &d.file_path,
                    &(d.line_number as i32),
                    &d.function,
                    &d.callee,
                    &d.expression,
                ],
            )?;
        }
        set_version(&mut tx, &version)?;
        queue::settle_ticket(&mut tx, self.held_ticket(), &ds.repo)?;
        tx.commit()?;
        Ok(version)
    }

    fn repos_now(&self) -> Result<Vec<RepoSummary>> {
        let mut c = self.pool.get()?;
        let rows = c.query(
            &format!(
                "SELECT r.repo, r.commit_sha, r.remote_url, r.dataset_version, r.indexed_at, r.stats,
                        (SELECT count(*) FROM records WHERE repo = r.repo AND NOT ({TRACE_ONLY})),
                        r.versions
                 FROM repos r ORDER BY r.repo"
            ),
            &[],
        )?;
        rows.iter()
            .map(|r| {
                Ok(RepoSummary {
                    repo: r.get(0),
                    commit: r.get(1),
                    remote_url: r.get(2),
                    dataset_version: r.get(3),
                    indexed_at: r.get(4),
                    stats: serde_json::from_str(r.get(5))?,
                    records: r.get::<_, i64>(6) as u64,
                    versions: serde_json::from_str(r.get(7))?,
                })
            })
            .collect()
    }

    fn list_now(&self, q: &ListQuery) -> Result<Vec<Record>> {
        let (wh, args) = where_sql(q);
        let limit = if q.limit == 0 {
            "ALL".to_string()
        } else {
            q.limit.to_string()
        };
        let sql = format!(
            "SELECT {} FROM records {wh} ORDER BY repo, file_path, line_number, message_pattern
             LIMIT {limit} OFFSET {}",
            record_columns("records"),
            q.offset
        );
        let rows = self.pool.get()?.query(&sql, &params(&args))?;
        records_of(rows)
    }

    fn count_now(&self, q: &ListQuery) -> Result<u64> {
        let (wh, args) = where_sql(q);
        let row = self.pool.get()?.query_one(
            &format!("SELECT count(*) FROM records {wh}"),
            &params(&args),
        )?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn get_now(&self, id: &str) -> Result<Option<Record>> {
        let row = self.pool.get()?.query_opt(
            &format!(
                "SELECT {} FROM records WHERE id = $1",
                record_columns("records")
            ),
            &[&id],
        )?;
        row.as_ref().map(record_of).transpose()
    }

    fn find_slug_now(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>> {
        let rows = self.pool.get()?.query(
            &format!(
                "SELECT {} FROM records WHERE slug = $1 AND ($2::text IS NULL OR repo = $2)
                 ORDER BY repo",
                record_columns("records")
            ),
            &[&slug, &repo],
        )?;
        records_of(rows)
    }

    fn search_now(&self, text: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Record>> {
        let query = ts_query(text);
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.pool.get()?.query(
            &format!(
                "SELECT {} FROM records r, to_tsquery('simple', $1) q
                 WHERE r.search @@ q AND ($2::text IS NULL OR r.repo = $2)
                   AND NOT ({TRACE_ONLY})
                 ORDER BY ts_rank_cd(r.search, q) DESC, r.seq LIMIT $3",
                record_columns("r")
            ),
            &[&query, &repo, &(limit as i64)],
        )?;
        records_of(rows)
    }

    fn dynamic_sites_now(&self, repo: Option<&str>) -> Result<Vec<(String, DynamicSite)>> {
        let rows = self.pool.get()?.query(
            "SELECT repo, file_path, line_number, function, callee, expression FROM dynamic_sites
             WHERE ($1::text IS NULL OR repo = $1) ORDER BY repo, file_path, line_number",
            &[&repo],
        )?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    DynamicSite {
                        file_path: r.get(1),
                        line_number: r.get::<_, i32>(2) as u32,
                        function: r.get(3),
                        callee: r.get(4),
                        expression: r.get(5),
                    },
                )
            })
            .collect())
    }

    fn trace_rows_now(&self, repo: Option<&str>) -> Result<Vec<TraceRow>> {
        let mut c = self.pool.get()?;
        let commits: HashMap<String, Option<String>> = c
            .query("SELECT repo, commit_sha FROM repos", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        // The whole record only for a row without its trace.
        let rows = c.query(
            "SELECT id, repo, slug, message_pattern, trace,
               CASE WHEN trace IS NULL THEN record END FROM records
             WHERE ($1::text IS NULL OR repo = $1) ORDER BY repo, message_pattern",
            &[&repo],
        )?;
        rows.iter()
            .map(|r| {
                let repo: String = r.get(1);
                let commit = commits.get(&repo).and_then(|c| c.as_deref());
                let (language, documentation, sites, presence) = match r.get::<_, Option<&str>>(4) {
                    Some(json) => {
                        let TraceFields(language, documentation, sites, presence) =
                            serde_json::from_str(&with_commit(json, commit))?;
                        let sites = sites.into_iter().map(crate::TraceSite::from).collect();
                        (language, documentation, sites, presence)
                    }
                    None => {
                        let f: RecordTraceFields =
                            serde_json::from_str(&with_commit(r.get(5), commit))?;
                        let sites = f.sites.into_iter().map(crate::TraceSite::from).collect();
                        (f.language, f.documentation, sites, None)
                    }
                };
                Ok(TraceRow {
                    id: r.get(0),
                    repo,
                    slug: r.get(2),
                    message_pattern: r.get(3),
                    language,
                    documentation,
                    sites,
                    presence,
                })
            })
            .collect()
    }

    fn dataset_version_now(&self) -> Result<Option<String>> {
        Ok(self
            .pool
            .get()?
            .query_opt("SELECT value FROM meta WHERE key = 'dataset_version'", &[])?
            .map(|r| r.get(0)))
    }

    fn update_records_now(&self, records: &[Record]) -> Result<Option<String>> {
        if records.is_empty() {
            return Ok(None);
        }
        let mut c = self.pool.get()?;
        let mut tx = c.transaction()?;
        let version = next_version(&mut tx)?;
        let mut repos: Vec<&str> = Vec::new();
        for r in records {
            let prev = tx.query_opt(
                "SELECT r.seq, r.content_hash, r.content_changed_at, r.analyzed_at,
                   p.commit_sha, p.analyzed_at
                 FROM records r JOIN repos p ON p.repo = r.repo WHERE r.id = $1 AND r.repo = $2",
                &[&r.id, &r.repo],
            )?;
            // A record that is no longer stored is not brought back.
            let Some(prev) = prev else { continue };
            let stored = Stored {
                seq: prev.get(0),
                hash: prev.get(1),
                content_changed_at: prev.get(2),
                analyzed_at: prev.get(3),
                memo: None,
            };
            let commit: Option<String> = prev.get(4);
            let repo_analyzed_at: Option<String> = prev.get(5);
            let run = RunStamp {
                commit: commit.as_deref(),
                analyzed_at: repo_analyzed_at.as_deref().unwrap_or_default(),
            };
            let e = encode(r, run, Some(&stored))?;
            tx.execute(
                "UPDATE records SET severity = $1, content_hash = $2, record = $3,
                   content_changed_at = $4, analyzed_at = $5, trace = $6 WHERE id = $7",
                &[
                    &r.severity.as_str(),
                    &e.hash,
                    &e.json,
                    &e.content_changed_at,
                    &e.analyzed_at,
                    &e.trace,
                    &r.id,
                ],
            )?;
            if !repos.contains(&r.repo.as_str()) {
                repos.push(&r.repo);
            }
        }
        for repo in &repos {
            tx.execute(
                "UPDATE repos SET dataset_version = $1 WHERE repo = $2",
                &[&version, repo],
            )?;
        }
        set_version(&mut tx, &version)?;
        tx.commit()?;
        Ok(Some(version))
    }

    fn cache_get_now(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .pool
            .get()?
            .query_opt("SELECT answer FROM llm_cache WHERE key = $1", &[&key])?
            .map(|r| r.get(0)))
    }

    fn cache_put_now(&self, key: &str, provider: &str, model: &str, answer: &str) -> Result<()> {
        let now = crate::sqlite::timestamp(chrono::Utc::now());
        self.pool.get()?.execute(
            "INSERT INTO llm_cache (key, provider, model, answer, created_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (key) DO UPDATE SET answer = excluded.answer,
               created_at = excluded.created_at",
            &[&key, &provider, &model, &answer, &now],
        )?;
        Ok(())
    }
}

/// The synchronous client blocks on a runtime of its own, which cannot
/// start on a thread that drives another (a server's handlers): there,
/// each call runs on a thread of its own.
pub(crate) fn off_runtime<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| {
        s.spawn(f)
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

impl Store for PgStore {
    fn replace_repo(&self, dataset: &RepoDataset) -> Result<String> {
        let v = off_runtime(|| self.replace_repo_now(dataset))?;
        self.forget_version();
        Ok(v)
    }
    fn repos(&self) -> Result<Vec<RepoSummary>> {
        off_runtime(|| self.repos_now())
    }
    fn list(&self, q: &ListQuery) -> Result<Vec<Record>> {
        off_runtime(|| self.list_now(q))
    }
    fn count(&self, q: &ListQuery) -> Result<u64> {
        off_runtime(|| self.count_now(q))
    }
    fn get(&self, id: &str) -> Result<Option<Record>> {
        off_runtime(|| self.get_now(id))
    }
    fn find_slug(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>> {
        off_runtime(|| self.find_slug_now(repo, slug))
    }
    fn search(&self, text: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Record>> {
        off_runtime(|| self.search_now(text, repo, limit))
    }
    fn dynamic_sites(&self, repo: Option<&str>) -> Result<Vec<(String, DynamicSite)>> {
        off_runtime(|| self.dynamic_sites_now(repo))
    }
    fn trace_rows(&self, repo: Option<&str>) -> Result<Vec<TraceRow>> {
        off_runtime(|| self.trace_rows_now(repo))
    }
    /// Read at most every [`VERSION_FRESH_MS`]: a server asks on every
    /// request, and a round trip each would cost most of a page's time;
    /// another process's new dataset is still seen within a second.
    fn dataset_version(&self) -> Result<Option<String>> {
        let mut seen = self.version_seen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, v)) = seen.as_ref() {
            if at.elapsed() < std::time::Duration::from_millis(VERSION_FRESH_MS) {
                return Ok(v.clone());
            }
        }
        let v = off_runtime(|| self.dataset_version_now())?;
        *seen = Some((std::time::Instant::now(), v.clone()));
        Ok(v)
    }
    fn update_records(&self, records: &[Record]) -> Result<Option<String>> {
        let v = off_runtime(|| self.update_records_now(records))?;
        self.forget_version();
        Ok(v)
    }
    fn cache_get(&self, key: &str) -> Result<Option<String>> {
        off_runtime(|| self.cache_get_now(key))
    }
    fn cache_put(&self, key: &str, provider: &str, model: &str, answer: &str) -> Result<()> {
        off_runtime(|| self.cache_put_now(key, provider, model, answer))
    }
}
