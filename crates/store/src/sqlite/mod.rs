//! The SQLite backend.

use crate::encode::{
    self, encode, encode_all, rows_to_records, RecordRow, RecordTraceFields, RunStamp, Stored,
    TraceFields,
};
use crate::{Error, ListQuery, RepoSummary, Result, Store, TraceRow};
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use errdex_model::{Analysed, AnalysisMemo, DynamicSite, Record, RepoDataset};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

/// Migrations in order; `PRAGMA user_version` records how many have run.
const MIGRATIONS: &[&str] = &[
    include_str!("001_initial.sql"),
    include_str!("002_content_changed_at.sql"),
    include_str!("003_llm_cache.sql"),
    include_str!("004_trace.sql"),
    include_str!("005_trace_guards.sql"),
    include_str!("006_versions_and_crawl.sql"),
    include_str!("007_marked_records.sql"),
    include_str!("008_analysis_memo.sql"),
];

/// An atlas in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    /// The crawl job this process's repository writes settle, if any.
    ticket: Mutex<Option<crate::JobTicket>>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

/// A log this small is left for the next writer to move into the file:
/// moving it at close costs a sync of the database file (about 13 ms on
/// this project's machines, 7 % of a re-index), and opening it again
/// reads at most this much.
const LOG_LEFT_AT_CLOSE: u64 = 4 << 20;

impl Drop for SqliteStore {
    fn drop(&mut self) {
        let conn = self.conn.get_mut().unwrap_or_else(|p| p.into_inner());
        let log = conn
            .path()
            .filter(|p| !p.is_empty())
            .and_then(|p| std::fs::metadata(format!("{p}-wal")).ok());
        // The log's committed pages are as safe as the file's under
        // `synchronous = NORMAL`: a crash can lose the last runs, never
        // tear one.
        if log.is_some_and(|m| m.len() <= LOG_LEFT_AT_CLOSE) {
            let _ = conn.set_db_config(
                rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                true,
            );
        }
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        let open_err = |message: String| Error::Open {
            path: path.display().to_string(),
            message,
        };
        if path.is_dir() {
            return Err(open_err(
                "is a folder; give a database file name, e.g. --db errdex.db".into(),
            ));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            if !parent.is_dir() {
                return Err(open_err(format!(
                    "folder {} does not exist; create it or choose another --db",
                    parent.display()
                )));
            }
        }
        let conn = Connection::open(path).map_err(|e| open_err(e.to_string()))?;
        Self::setup(conn).map_err(|e| match e {
            Error::Sqlite(rusqlite::Error::SqliteFailure(f, _))
                if f.code == rusqlite::ErrorCode::NotADatabase =>
            {
                open_err("is not an errdex (SQLite) database; choose another --db".into())
            }
            other => other,
        })
    }

    /// A private in-memory database, for tests and one-shot runs.
    pub fn open_in_memory() -> Result<SqliteStore> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<SqliteStore> {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL lets readers (the server) go on while an index run writes.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = SqliteStore {
            conn: Mutex::new(conn),
            ticket: Mutex::new(None),
        };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<()> {
        let conn = self.conn.get_mut().expect("not poisoned");
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let supported = MIGRATIONS.len() as i64;
        if version > supported {
            return Err(Error::NewerSchema {
                found: version,
                supported,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Exclusive)?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent
        // (transactions roll back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Timestamps as in the seed: RFC 3339, UTC, milliseconds, `Z`.
pub(crate) fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl SqliteStore {
    /// [`Store::replace_repo`] in two steps, so the slow part of an index
    /// run overlaps the database work: opens the write transaction, reads
    /// what is needed of the old records and deletes them, then calls
    /// `dataset` (which may block until the run is done) and writes what it
    /// returns. `None` rolls back, leaving the old records in place, and
    /// returns `None`. The write lock is held while waiting; readers are
    /// not blocked (WAL).
    pub fn replace_repo_when_ready<D: std::borrow::Borrow<RepoDataset>>(
        &self,
        repo: &str,
        dataset: impl FnOnce() -> Option<D>,
    ) -> Result<Option<String>> {
        self.replace_repo_reusing(repo, |_| dataset().map(|d| (d, Vec::new())))
    }

    /// [`SqliteStore::replace_repo_when_ready`] for an index run that takes
    /// unchanged rows over: `dataset` gets what each stored row's analysis
    /// was made from, by record id (rows another writer wrote, or whose
    /// time is not the repository's, are left out), and returns with the
    /// dataset how each of its records is to be written, in order
    /// ([`Analysed::TakenOver`]: the stored row stays as it is).
    pub fn replace_repo_reusing<D: std::borrow::Borrow<RepoDataset>>(
        &self,
        repo: &str,
        dataset: impl FnOnce(HashMap<String, AnalysisMemo>) -> Option<(D, Vec<Analysed>)>,
    ) -> Result<Option<String>> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stored = stored_rows(&tx, repo)?;
        let earlier = stored
            .iter()
            .filter(|(_, s)| s.analyzed_at.is_none())
            .filter_map(|(id, s)| Some((id.clone(), s.memo.clone()?)))
            .collect();
        let Some((ds, analysed)) = dataset(earlier) else {
            return Ok(None); // dropping `tx` rolls back
        };
        let ds = ds.borrow();
        assert_eq!(
            ds.repo, repo,
            "the dataset belongs to the repo being replaced"
        );
        let version = next_version(&tx)?;
        let analyzed_at = encode::common_analyzed_at(&ds.records);
        tx.execute(
            "INSERT INTO repos (repo, commit_sha, remote_url, dataset_version, indexed_at, stats,
               versions, analyzed_at)
             VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7)
             ON CONFLICT(repo) DO UPDATE SET commit_sha = ?2, remote_url = ?3,
               dataset_version = ?4, indexed_at = ?4, stats = ?5, versions = ?6, analyzed_at = ?7",
            params![
                ds.repo,
                ds.commit,
                ds.remote_url,
                version,
                serde_json::to_string(&ds.stats)?,
                serde_json::to_string(&ds.versions)?,
                analyzed_at,
            ],
        )?;
        // Serialising and hashing is most of the work: done on every core.
        let run = RunStamp {
            commit: ds.commit.as_deref(),
            analyzed_at: &analyzed_at,
        };
        let encoded = encode_all(&ds.records, run, &stored, &analysed)?;
        // Rows go before any is added: a slug moves between records.
        let change = encode::Change::of(&ds.records, &encoded, &stored);
        delete_rows(&tx, &change.gone)?;
        insert_rows(&tx, &change.fresh)?;
        update_memos(&tx, &change.memos)?;
        tx.execute("DELETE FROM dynamic_sites WHERE repo = ?", [repo])?;
        let mut dy = tx.prepare(
            "INSERT INTO dynamic_sites (repo, file_path, line_number, function, callee, expression)
             VALUES (?, ?, ?, ?, ?, ?)",
        )?;
        for d in &ds.dynamic_sites {
            dy.execute(params![
                ds.repo,
                d.file_path,
                d.line_number,
                d.function,
                d.callee,
                d.expression
            ])?;
        }
        drop(dy);
        set_version(&tx, &version)?;
        queue::settle_ticket(&tx, self.held_ticket(), &ds.repo)?;
        tx.commit()?;
        Ok(Some(version))
    }
}

/// What is stored of `repo`'s records, by id.
fn stored_rows(tx: &rusqlite::Transaction<'_>, repo: &str) -> Result<HashMap<String, Stored>> {
    let mut st = tx.prepare(
        "SELECT id, seq, content_hash, content_changed_at, analyzed_at,
           analysis_input, analysis_related, family
         FROM records WHERE repo = ?",
    )?;
    let rows = st.query_map([repo], |r| {
        let memo = match (r.get(5)?, r.get(6)?, r.get(7)?) {
            (Some(input), Some(related), Some(family)) => Some(AnalysisMemo {
                input,
                related,
                family,
            }),
            _ => None,
        };
        Ok((
            r.get::<_, String>(0)?,
            Stored {
                seq: r.get(1)?,
                hash: r.get(2)?,
                content_changed_at: r.get(3)?,
                analyzed_at: r.get(4)?,
                memo,
            },
        ))
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Removes records by `seq`, with their search and trace rows.
fn delete_rows(tx: &rusqlite::Transaction<'_>, seqs: &[i64]) -> Result<()> {
    let mut fts = tx.prepare("DELETE FROM records_fts WHERE rowid = ?")?;
    let mut rec = tx.prepare("DELETE FROM records WHERE seq = ?")?;
    for seq in seqs {
        fts.execute([seq])?;
        rec.execute([seq])?;
    }
    Ok(())
}

/// Sets the memos of rows that stay as they are.
fn update_memos(tx: &rusqlite::Transaction<'_>, memos: &[(i64, &AnalysisMemo)]) -> Result<()> {
    let mut st = tx.prepare(
        "UPDATE records SET analysis_input = ?, analysis_related = ?, family = ? WHERE seq = ?",
    )?;
    for (seq, m) in memos {
        st.execute(params![m.input, m.related, m.family, seq])?;
    }
    Ok(())
}

/// Adds records with their search and trace rows.
fn insert_rows(tx: &rusqlite::Transaction<'_>, rows: &[(&Record, &encode::Encoded)]) -> Result<()> {
    let mut ins = tx.prepare(
        "INSERT INTO records (id, repo, slug, message_pattern, error_message, error_type,
           severity, file_path, line_number, error_code, content_hash, record,
           content_changed_at, analyzed_at, analysis_input, analysis_related, family)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )?;
    let mut fts = tx.prepare(
        "INSERT INTO records_fts (rowid, error_message, message_pattern) VALUES (?, ?, ?)",
    )?;
    let mut traces = tx.prepare("INSERT INTO record_traces (seq, trace) VALUES (?, ?)")?;
    for (r, e) in rows {
        ins.execute(params![
            r.id,
            r.repo,
            r.slug,
            r.message_pattern,
            r.error_message,
            r.error_type.as_str(),
            r.severity.as_str(),
            r.file_path,
            r.line_number,
            r.error_code,
            e.hash,
            e.json,
            e.content_changed_at,
            e.analyzed_at,
            e.memo.as_ref().map(|m| &m.input),
            e.memo.as_ref().map(|m| &m.related),
            e.memo.as_ref().map(|m| &m.family),
        ])?;
        let seq = tx.last_insert_rowid();
        fts.execute(params![seq, r.error_message, r.message_pattern])?;
        traces.execute(params![seq, e.trace])?;
    }
    Ok(())
}

/// The columns [`rows_to_records`] reads, from table alias `t`.
fn record_columns(t: &str) -> String {
    format!(
        "{t}.record, (SELECT p.commit_sha FROM repos p WHERE p.repo = {t}.repo),
         coalesce({t}.analyzed_at, (SELECT p.analyzed_at FROM repos p WHERE p.repo = {t}.repo)),
         {t}.content_changed_at"
    )
}

/// Reads one [`RecordRow`] from columns 0–3.
fn record_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RecordRow> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

/// Records `version` as the atlas's newest dataset version.
fn set_version(tx: &rusqlite::Transaction<'_>, version: &str) -> Result<()> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('dataset_version', ?1)
         ON CONFLICT(key) DO UPDATE SET value = ?1",
        [version],
    )?;
    Ok(())
}

/// A new dataset version: now, or just after the last one if the clock
/// stepped back. Dataset versions only ever increase.
fn next_version(tx: &rusqlite::Transaction<'_>) -> Result<String> {
    let last: Option<String> = tx
        .query_row(
            "SELECT value FROM meta WHERE key = 'dataset_version'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    Ok(version_after(last.as_deref()))
}

/// Now as a dataset version, or just after `last` if the clock stepped
/// back: dataset versions only ever increase (both backends).
pub(crate) fn version_after(last: Option<&str>) -> String {
    let mut version = timestamp(Utc::now());
    if let Some(prev) = last {
        // Same-format RFC 3339 strings order like the instants they name.
        if version.as_str() <= prev {
            if let Ok(p) = DateTime::parse_from_rfc3339(prev) {
                version = timestamp(p.with_timezone(&Utc) + Duration::milliseconds(1));
            }
        }
    }
    version
}

/// The trace-only tier, as an SQL condition on a record: log statements
/// at info and debug level. An error value the analyser rates info by
/// its meaning (a cooperative shutdown) is not of it.
const TRACE_ONLY: &str = "error_type = 'log' AND severity IN ('info', 'debug')";

impl ListQuery {
    /// WHERE clause and parameters.
    fn where_sql(&self) -> (String, Vec<String>) {
        let mut clauses = Vec::new();
        let mut args = Vec::new();
        let mut add = |sql: &str, v: &Option<String>| {
            if let Some(v) = v {
                clauses.push(sql.to_string());
                args.push(v.clone());
            }
        };
        add("repo = ?", &self.repo);
        add("severity = ?", &self.severity);
        add("error_type = ?", &self.error_type);
        add(
            "EXISTS (SELECT 1 FROM json_each(record, '$.tags') WHERE value = ?)",
            &self.tag,
        );
        add("json_extract(record, '$.backgroundTag') = ?", &self.family);
        add("error_code = ?", &self.error_code);
        add("substr(file_path, 1, length(?)) = ?", &self.path_prefix);
        if self.path_prefix.is_some() {
            args.push(self.path_prefix.clone().unwrap_or_default());
        }
        if !self.all_levels && self.severity.is_none() {
            clauses.push(format!("NOT ({TRACE_ONLY})"));
        }
        let sql = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        (sql, args)
    }
}

impl Store for SqliteStore {
    fn update_records(&self, records: &[Record]) -> Result<Option<String>> {
        if records.is_empty() {
            return Ok(None);
        }
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version = next_version(&tx)?;
        let mut repos: Vec<&str> = Vec::new();
        {
            let mut old = tx.prepare(
                "SELECT r.seq, r.content_hash, r.content_changed_at, r.analyzed_at,
                   p.commit_sha, p.analyzed_at
                 FROM records r JOIN repos p ON p.repo = r.repo WHERE r.id = ? AND r.repo = ?",
            )?;
            // A row another writer wrote is analysed again by the next
            // index run: its memo goes.
            let mut up = tx.prepare(
                "UPDATE records SET severity = ?, content_hash = ?, record = ?,
                   content_changed_at = ?, analyzed_at = ?, analysis_input = NULL,
                   analysis_related = NULL, family = NULL WHERE id = ?",
            )?;
            let mut trace = tx.prepare(
                "INSERT OR REPLACE INTO record_traces (seq, trace)
                 SELECT seq, ? FROM records WHERE id = ?",
            )?;
            for r in records {
                type Row = (Stored, Option<String>, Option<String>);
                let prev: Option<Row> = old
                    .query_row(params![r.id, r.repo], |row| {
                        let stored = Stored {
                            seq: row.get(0)?,
                            hash: row.get(1)?,
                            content_changed_at: row.get(2)?,
                            analyzed_at: row.get(3)?,
                            memo: None,
                        };
                        Ok((stored, row.get(4)?, row.get(5)?))
                    })
                    .optional()?;
                // A record that is no longer stored (re-indexed away) is
                // not brought back.
                let Some((stored, commit, repo_analyzed_at)) = prev else {
                    continue;
                };
                let run = RunStamp {
                    commit: commit.as_deref(),
                    analyzed_at: repo_analyzed_at.as_deref().unwrap_or_default(),
                };
                let e = encode(r, run, Some(&stored))?;
                up.execute(params![
                    r.severity.as_str(),
                    e.hash,
                    e.json,
                    e.content_changed_at,
                    e.analyzed_at,
                    r.id
                ])?;
                trace.execute(params![e.trace, r.id])?;
                if !repos.contains(&r.repo.as_str()) {
                    repos.push(&r.repo);
                }
            }
        }
        for repo in &repos {
            tx.execute(
                "UPDATE repos SET dataset_version = ?1 WHERE repo = ?2",
                params![version, repo],
            )?;
        }
        set_version(&tx, &version)?;
        tx.commit()?;
        Ok(Some(version))
    }

    fn cache_get(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn()
            .query_row("SELECT answer FROM llm_cache WHERE key = ?", [key], |r| {
                r.get(0)
            })
            .optional()?)
    }

    fn cache_put(&self, key: &str, provider: &str, model: &str, answer: &str) -> Result<()> {
        self.conn().execute(
            "INSERT INTO llm_cache (key, provider, model, answer, created_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT(key) DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at",
            params![key, provider, model, answer, timestamp(Utc::now())],
        )?;
        Ok(())
    }

    fn replace_repo(&self, ds: &RepoDataset) -> Result<String> {
        let version = self.replace_repo_when_ready(&ds.repo, || Some(ds))?;
        Ok(version.expect("the dataset was given"))
    }

    fn repos(&self) -> Result<Vec<RepoSummary>> {
        let conn = self.conn();
        // The records a repository shows: its trace-only tier is not counted.
        let mut st = conn.prepare(&format!(
            "SELECT r.repo, r.commit_sha, r.remote_url, r.dataset_version, r.indexed_at, r.stats,
                    (SELECT count(*) FROM records WHERE repo = r.repo AND NOT ({TRACE_ONLY})),
                    r.versions
             FROM repos r ORDER BY r.repo"
        ))?;
        let rows = st.query_map([], |r| {
            Ok((
                RepoSummary {
                    repo: r.get(0)?,
                    commit: r.get(1)?,
                    remote_url: r.get(2)?,
                    dataset_version: r.get(3)?,
                    indexed_at: r.get(4)?,
                    records: r.get::<_, i64>(6)? as u64,
                    stats: Default::default(),
                    versions: Vec::new(),
                },
                r.get::<_, String>(5)?,
                r.get::<_, String>(7)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (mut s, stats, versions) = row?;
            s.stats = serde_json::from_str(&stats)?;
            s.versions = serde_json::from_str(&versions)?;
            out.push(s);
        }
        Ok(out)
    }

    fn list(&self, q: &ListQuery) -> Result<Vec<Record>> {
        let (wh, args) = q.where_sql();
        let limit = if q.limit == 0 { -1 } else { q.limit as i64 };
        let sql = format!(
            "SELECT {} FROM records {wh} ORDER BY repo, file_path, line_number, message_pattern LIMIT {limit} OFFSET {}",
            record_columns("records"),
            q.offset
        );
        let conn = self.conn();
        let mut st = conn.prepare(&sql)?;
        let rows = st
            .query_map(rusqlite::params_from_iter(args.iter()), record_row)?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows_to_records(rows)
    }

    fn count(&self, q: &ListQuery) -> Result<u64> {
        let (wh, args) = q.where_sql();
        let conn = self.conn();
        let n: i64 = conn.query_row(
            &format!("SELECT count(*) FROM records {wh}"),
            rusqlite::params_from_iter(args.iter()),
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    fn get(&self, id: &str) -> Result<Option<Record>> {
        let conn = self.conn();
        let row = conn
            .query_row(
                &format!(
                    "SELECT {} FROM records WHERE id = ?",
                    record_columns("records")
                ),
                [id],
                record_row,
            )
            .optional()?;
        Ok(rows_to_records(row.into_iter().collect())?.pop())
    }

    fn find_slug(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>> {
        let conn = self.conn();
        let mut st = conn.prepare(&format!(
            "SELECT {} FROM records WHERE slug = ?1 AND (?2 IS NULL OR repo = ?2) ORDER BY repo",
            record_columns("records")
        ))?;
        let rows = st
            .query_map(params![slug, repo], record_row)?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows_to_records(rows)
    }

    fn search(&self, text: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Record>> {
        let query = fts_query(text);
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.conn();
        let mut st = conn.prepare(&format!(
            "SELECT {} FROM records_fts f JOIN records r ON r.seq = f.rowid
             WHERE records_fts MATCH ?1 AND (?2 IS NULL OR r.repo = ?2)
               AND NOT ({TRACE_ONLY})
             ORDER BY bm25(records_fts) LIMIT ?3",
            record_columns("r")
        ))?;
        let rows = st
            .query_map(params![query, repo, limit as i64], record_row)?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows_to_records(rows)
    }

    fn dynamic_sites(&self, repo: Option<&str>) -> Result<Vec<(String, DynamicSite)>> {
        let conn = self.conn();
        let mut st = conn.prepare(
            "SELECT repo, file_path, line_number, function, callee, expression FROM dynamic_sites
             WHERE (?1 IS NULL OR repo = ?1) ORDER BY repo, file_path, line_number",
        )?;
        let rows = st.query_map(params![repo], |r| {
            Ok((
                r.get(0)?,
                DynamicSite {
                    file_path: r.get(1)?,
                    line_number: r.get(2)?,
                    function: r.get(3)?,
                    callee: r.get(4)?,
                    expression: r.get(5)?,
                },
            ))
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    fn trace_rows(&self, repo: Option<&str>) -> Result<Vec<TraceRow>> {
        let conn = self.conn();
        // From `records_by_pattern` alone (no record page is read), and
        // the whole record only for a row without its trace.
        let mut st = conn.prepare(
            "SELECT r.id, r.repo, r.slug, r.message_pattern, t.trace, r.seq
             FROM records r INDEXED BY records_by_pattern
             LEFT JOIN record_traces t ON t.seq = r.seq
             WHERE (?1 IS NULL OR r.repo = ?1) ORDER BY r.repo, r.message_pattern",
        )?;
        let commits: HashMap<String, Option<String>> = conn
            .prepare("SELECT repo, commit_sha FROM repos")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        let mut whole = conn.prepare("SELECT record FROM records WHERE seq = ?")?;
        let mut rows = st.query(params![repo])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let trace = r
                .get_ref(4)?
                .as_str_or_null()
                .map_err(rusqlite::Error::from)?;
            let repo: String = r.get(1)?;
            let commit = commits.get(&repo).and_then(|c| c.as_deref());
            let (language, documentation, sites, presence) = match trace {
                Some(json) => {
                    let TraceFields(language, documentation, sites, presence) =
                        serde_json::from_str(&encode::with_commit(json, commit))?;
                    (
                        language,
                        documentation,
                        sites.into_iter().map(crate::TraceSite::from).collect(),
                        presence,
                    )
                }
                None => {
                    let json: String = whole.query_row([r.get::<_, i64>(5)?], |row| row.get(0))?;
                    let f: RecordTraceFields =
                        serde_json::from_str(&encode::with_commit(&json, commit))?;
                    let sites = f.sites.into_iter().map(crate::TraceSite::from).collect();
                    (f.language, f.documentation, sites, None)
                }
            };
            out.push(TraceRow {
                id: r.get(0)?,
                repo,
                slug: r.get(2)?,
                message_pattern: r.get(3)?,
                language,
                documentation,
                sites,
                presence,
            });
        }
        Ok(out)
    }

    fn dataset_version(&self) -> Result<Option<String>> {
        let conn = self.conn();
        Ok(conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'dataset_version'",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }
}

/// Words of free text as an FTS5 query: each word quoted (so user text is
/// never FTS syntax), all required.
fn fts_query(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(32)
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" ")
}

mod queue;
#[cfg(test)]
mod tests;
