//! Storage for the atlas. The rest of errdex sees only the [`Store`] trait;
//! the binary picks a backend. SQLite ([`SqliteStore`]) is the embedded
//! default: one file, WAL, versioned migrations, one transaction per index
//! run so a reader never sees half a dataset.
//!
//! ```
//! use errdex_store::{SqliteStore, Store, ListQuery};
//! let store = SqliteStore::open_in_memory().unwrap();
//! assert!(store.list(&ListQuery::default()).unwrap().is_empty());
//! ```
#![deny(missing_docs)]

#[cfg(test)]
mod conformance;
mod encode;
mod pg;
mod queue;
mod sqlite;

use errdex_model::{DynamicSite, IndexStats, Lang, Record, RepoDataset, RepoVersion};
use serde::Serialize;

pub use pg::{PgStore, LEASE_SECONDS};
pub use queue::{CrawlJob, CrawlQueue, JobOutcome, JobState, JobTicket};
pub use sqlite::SqliteStore;

/// Store errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The database file could not be used.
    #[error("{path}: {message}")]
    Open {
        /// The file.
        path: String,
        /// What went wrong and what to do.
        message: String,
    },
    /// The database was written by a newer errdex.
    #[error("database schema version {found} is newer than this errdex supports ({supported}); upgrade errdex or use another --db")]
    NewerSchema {
        /// Version in the file.
        found: i64,
        /// Newest version this build knows.
        supported: i64,
    },
    /// An SQLite error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A PostgreSQL error.
    #[error("database error: {0}")]
    Postgres(#[from] postgres::Error),
    /// A crawl job's write was refused: the job was taken again after its
    /// lease ran out, and the new taker writes the repository.
    #[error("crawl job {0} was taken again by another worker (its lease ran out); nothing written, the other worker indexes it")]
    JobTaken(queue::JobTicket),
    /// An index run handed a record over as its stored row, and none is
    /// stored: the rows changed under the run.
    #[error("record {0} was handed over as its stored row, but no such row is stored; run the index again")]
    NoStoredRow(String),
    /// A stored record could not be read back.
    #[error("stored record is corrupt: {0}")]
    Json(#[from] serde_json::Error),
}

/// Store result.
pub type Result<T> = std::result::Result<T, Error>;

/// One repository in the store.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoSummary {
    /// `owner/name`.
    pub repo: String,
    /// Commit of the last index run.
    pub commit: Option<String>,
    /// Remote URL of the last run.
    pub remote_url: Option<String>,
    /// Dataset version written by the last run.
    pub dataset_version: String,
    /// When it was indexed.
    pub indexed_at: String,
    /// Records stored (the trace-only tier of info and debug logs not
    /// counted).
    pub records: u64,
    /// Counts of the last run.
    pub stats: IndexStats,
    /// The versions indexed, oldest first (empty: one commit).
    pub versions: Vec<RepoVersion>,
}

/// What tracing needs of a record: its pattern, language and sites,
/// without the snippet, prose and site facts.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceRow {
    /// Record id.
    pub id: String,
    /// `owner/name`.
    pub repo: String,
    /// Slug.
    pub slug: String,
    /// The pattern.
    pub message_pattern: String,
    /// Source language.
    pub language: Lang,
    /// One-line meaning, when analysed.
    pub documentation: Option<String>,
    /// Every site, primary first.
    pub sites: Vec<TraceSite>,
    /// The versions that print it, for a repository indexed over history.
    pub presence: Option<Presence>,
}

/// Which indexed versions print a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Presence {
    /// The first version that prints it.
    pub first_seen: String,
    /// The last.
    pub last_seen: String,
    /// The version after `last_seen`, when the newest does not print it.
    pub removed_in: Option<String>,
    /// The runs of consecutive versions that print it (first, last).
    pub ranges: Vec<(String, String)>,
}

impl Presence {
    /// A record's presence, for a record of a history run.
    pub fn of(r: &Record) -> Option<Presence> {
        Some(Presence {
            first_seen: r.first_seen.clone()?,
            last_seen: r.last_seen.clone()?,
            removed_in: r.removed_in.clone(),
            ranges: r
                .versions
                .iter()
                .map(|v| (v.from.clone(), v.to.clone()))
                .collect(),
        })
    }

    /// Whether version `name` prints it.
    pub fn includes(&self, name: &str) -> bool {
        self.ranges
            .iter()
            .any(|(from, to)| errdex_model::in_range(name, from, to))
    }
}

/// What tracing needs of a site: where it is and its link (for answers),
/// its callee and the source of its arguments (for its template). Lean,
/// as an atlas holds tens of thousands of them while it explains. Read
/// from a whole stored site too (its other fields skipped unparsed).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceSite {
    /// Path relative to the repository root.
    pub file_path: String,
    /// 1-based line.
    pub line_number: u32,
    /// Enclosing function, if any.
    pub function: Option<String>,
    /// The callee as resolved (`fmt.Errorf`, …).
    pub callee: String,
    /// Source text of the values that fill the holes.
    #[serde(default)]
    pub args: Vec<String>,
    /// Pinned link to the site, when known.
    pub github_url: Option<String>,
    /// Conditions of the `if` statements around the site, innermost first
    /// (an `else` branch's as `not (…)` or `!(…)`): two sites under
    /// contradicting ones never print in one run of their function.
    #[serde(default)]
    pub guards: Vec<String>,
    /// The hole of a message of the file this site's text fills, if it
    /// is such a piece.
    #[serde(default)]
    pub fills: Option<errdex_model::Fill>,
    /// The keys of the fields a structured logging call sets.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Holes whose value is one of a few literals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_holes: Vec<errdex_model::ClosedHole>,
}

/// Which records to list.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Only this repository.
    pub repo: Option<String>,
    /// Only this severity (`critical`, `error`, …).
    pub severity: Option<String>,
    /// Only this error type (`exception`, `log`, …).
    pub error_type: Option<String>,
    /// Only records whose primary file starts with this path.
    pub path_prefix: Option<String>,
    /// Only records with this tag.
    pub tag: Option<String>,
    /// Only records of this family (`backgroundTag`).
    pub family: Option<String>,
    /// Only records with this error code (`codes.NotFound`).
    pub error_code: Option<String>,
    /// At most this many (0: all).
    pub limit: usize,
    /// Skip this many.
    pub offset: usize,
    /// Also the trace-only tier: info and debug log statements, which
    /// `explain` traces but lists and pages leave out unless asked (or
    /// unless `severity` asks for one of those levels).
    pub all_levels: bool,
}

/// What every backend provides.
pub trait Store: Send + Sync {
    /// Replaces a repository's records and dynamic sites with `dataset`, in
    /// one transaction; returns the new dataset version. Records whose
    /// content did not change keep their `contentChangedAt`.
    fn replace_repo(&self, dataset: &RepoDataset) -> Result<String>;
    /// Repositories, by name.
    fn repos(&self) -> Result<Vec<RepoSummary>>;
    /// Records matching `q`, by repo, path and line.
    fn list(&self, q: &ListQuery) -> Result<Vec<Record>>;
    /// Number of records matching `q` (ignoring limit and offset).
    fn count(&self, q: &ListQuery) -> Result<u64>;
    /// One record by id.
    fn get(&self, id: &str) -> Result<Option<Record>>;
    /// Records with this slug (one per repo), optionally in one repo.
    fn find_slug(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>>;
    /// Full-text search over messages and patterns, best first; the
    /// trace-only tier (info and debug) is left out.
    fn search(&self, text: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Record>>;
    /// Dynamic sites, with their repository.
    fn dynamic_sites(&self, repo: Option<&str>) -> Result<Vec<(String, DynamicSite)>>;
    /// What tracing needs of every record (optionally of one repo).
    fn trace_rows(&self, repo: Option<&str>) -> Result<Vec<TraceRow>>;
    /// The newest dataset version, if anything was ever indexed.
    fn dataset_version(&self) -> Result<Option<String>>;
    /// Writes new versions of stored records (same ids: analysis results)
    /// in one transaction; returns the new dataset version, or None when
    /// there was nothing to write. Records no longer stored are skipped.
    /// A record whose content did not change keeps its `contentChangedAt`.
    fn update_records(&self, records: &[Record]) -> Result<Option<String>>;
    /// A cached LLM answer.
    fn cache_get(&self, key: &str) -> Result<Option<String>>;
    /// Stores an LLM answer under `key`.
    fn cache_put(&self, key: &str, provider: &str, model: &str, answer: &str) -> Result<()>;
}

/// A store chosen by what `--db` names: a `postgres://` (or
/// `postgresql://`) URL is a [`PgStore`], anything else an SQLite file.
#[derive(Debug)]
pub enum AnyStore {
    /// An SQLite file.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    Postgres(Box<PgStore>),
}

/// `db` as it may be printed: a PostgreSQL URL's password replaced.
pub fn shown_db(db: &str) -> String {
    if is_postgres_url(db) {
        pg::redacted(db)
    } else {
        db.to_string()
    }
}

/// Whether `db` names a PostgreSQL database rather than a file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

impl AnyStore {
    /// Opens (creating and migrating) the atlas `db` names.
    pub fn open(db: &str) -> Result<AnyStore> {
        if is_postgres_url(db) {
            Ok(AnyStore::Postgres(Box::new(PgStore::open(db)?)))
        } else {
            Ok(AnyStore::Sqlite(SqliteStore::open(std::path::Path::new(
                db,
            ))?))
        }
    }

    fn inner(&self) -> &dyn Store {
        match self {
            AnyStore::Sqlite(s) => s,
            AnyStore::Postgres(s) => &**s,
        }
    }
}

impl Store for AnyStore {
    fn replace_repo(&self, dataset: &RepoDataset) -> Result<String> {
        self.inner().replace_repo(dataset)
    }
    fn repos(&self) -> Result<Vec<RepoSummary>> {
        self.inner().repos()
    }
    fn list(&self, q: &ListQuery) -> Result<Vec<Record>> {
        self.inner().list(q)
    }
    fn count(&self, q: &ListQuery) -> Result<u64> {
        self.inner().count(q)
    }
    fn get(&self, id: &str) -> Result<Option<Record>> {
        self.inner().get(id)
    }
    fn find_slug(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>> {
        self.inner().find_slug(repo, slug)
    }
    fn search(&self, text: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Record>> {
        self.inner().search(text, repo, limit)
    }
    fn dynamic_sites(&self, repo: Option<&str>) -> Result<Vec<(String, DynamicSite)>> {
        self.inner().dynamic_sites(repo)
    }
    fn trace_rows(&self, repo: Option<&str>) -> Result<Vec<TraceRow>> {
        self.inner().trace_rows(repo)
    }
    fn dataset_version(&self) -> Result<Option<String>> {
        self.inner().dataset_version()
    }
    fn update_records(&self, records: &[Record]) -> Result<Option<String>> {
        self.inner().update_records(records)
    }
    fn cache_get(&self, key: &str) -> Result<Option<String>> {
        self.inner().cache_get(key)
    }
    fn cache_put(&self, key: &str, provider: &str, model: &str, answer: &str) -> Result<()> {
        self.inner().cache_put(key, provider, model, answer)
    }
}
