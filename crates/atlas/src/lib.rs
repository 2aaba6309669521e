//! The atlas as a query service over the [`Store`] trait, for every front
//! end (HTTP pages and API, MCP, the command line): tiered search, records
//! by id, slug or filter, the trace index kept per dataset version, and one
//! renderer of a record ([`render`]) for HTML, the terminal and markdown.
//!
//! It never names a backend: whoever owns the process opens one and hands
//! it in, so a new backend plugs in here without touching the front ends.
//!
//! ```
//! use errdex_atlas::Atlas;
//! let atlas = Atlas::new(errdex_store::SqliteStore::open_in_memory().unwrap());
//! assert!(atlas.search("stop requested", None, 10).unwrap().is_empty());
//! assert_eq!(atlas.version(), "none");
//! ```
#![deny(missing_docs)]

pub mod render;

use errdex_explain::Explainer;
use errdex_model::Record;
use errdex_store::{ListQuery, RepoSummary, Store};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// What can go wrong answering a query.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store could not answer.
    #[error(transparent)]
    Store(#[from] errdex_store::Error),
    /// An answer could not be written as JSON.
    #[error("writing an answer as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Query result.
pub type Result<T> = std::result::Result<T, Error>;

/// Lines of a search text that are traced; the rest is searched as text.
const TRACED_LINES: usize = 20;

/// The query service over one store.
pub struct Atlas {
    store: Box<dyn Store>,
    /// The trace index and the dataset version it was built from.
    explainer: Mutex<Option<(String, Arc<Explainer>)>>,
}

impl std::fmt::Debug for Atlas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Atlas").finish_non_exhaustive()
    }
}

/// A search hit.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    /// Record id.
    pub id: String,
    /// `owner/name`.
    pub repo: String,
    /// Record slug.
    pub slug: String,
    /// The record's pattern.
    pub message_pattern: String,
    /// Primary site's file.
    pub file_path: String,
    /// Primary site's line.
    pub line_number: u32,
    /// `errorCode`, `traced` or `fulltext`.
    pub match_type: &'static str,
    /// In `[0, 1]`, best first.
    pub score: f32,
}

impl Hit {
    fn of(r: &Record, match_type: &'static str, score: f32) -> Hit {
        Hit {
            id: r.id.clone(),
            repo: r.repo.clone(),
            slug: r.slug.clone(),
            message_pattern: r.message_pattern.clone(),
            file_path: r.file_path.clone(),
            line_number: r.line_number,
            match_type,
            score: score.clamp(0.0, 1.0),
        }
    }

    fn traced(c: &errdex_explain::CandidateOut<'_>) -> Hit {
        Hit {
            id: c.id.to_string(),
            repo: c.repo.to_string(),
            slug: c.slug.to_string(),
            message_pattern: c.message_pattern.to_string(),
            file_path: c.file_path.to_string(),
            line_number: c.line_number,
            match_type: "traced",
            // A traced frame outranks any text match.
            score: (0.5 + c.score / 2.0).clamp(0.0, 1.0),
        }
    }
}

/// Hits, each record once, in the order first found.
#[derive(Default)]
struct Hits(Vec<Hit>);

impl Hits {
    fn push(&mut self, h: Hit) {
        if !self.0.iter().any(|x| x.id == h.id) {
            self.0.push(h);
        }
    }
}

impl Atlas {
    /// The service over `store`.
    pub fn new(store: impl Store + 'static) -> Atlas {
        Atlas::over(Box::new(store))
    }

    /// The service over a boxed store.
    pub fn over(store: Box<dyn Store>) -> Atlas {
        Atlas {
            store,
            explainer: Mutex::new(None),
        }
    }

    /// The store it answers from.
    pub fn store(&self) -> &dyn Store {
        &*self.store
    }

    /// The dataset version now ("none" before anything was indexed), read
    /// from the store each time: an answer's ETag and `/healthz` must name
    /// the data the answer was made from. A store that cannot say counts
    /// as "none".
    pub fn version(&self) -> String {
        self.store
            .dataset_version()
            .ok()
            .flatten()
            .unwrap_or_else(|| "none".to_string())
    }

    /// The trace index for the current dataset, built on first use after
    /// the version changes.
    pub fn explainer(&self) -> Result<Arc<Explainer>> {
        let version = self.version();
        let mut slot = self.explainer.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((v, e)) = slot.as_ref() {
            if *v == version {
                return Ok(e.clone());
            }
        }
        let e = Arc::new(
            Explainer::new(self.store.trace_rows(None)?)
                .with_raises(self.store.dynamic_sites(None)?),
        );
        *slot = Some((version, e.clone()));
        Ok(e)
    }

    /// Traces each non-empty line of `text`, each explanation as its JSON
    /// value (an [`errdex_explain::Explanation`] borrows from the explainer, which may be
    /// replaced once this returns).
    pub fn explain(&self, text: &str) -> Result<Vec<serde_json::Value>> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let ex = self.explainer()?;
        ex.explain_block(&lines)
            .iter()
            .map(|e| Ok(serde_json::to_value(e)?))
            .collect()
    }

    /// Tiered search: an exact error code, then the records whose pattern
    /// explains the text (traced), then full-text matches; best first, each
    /// record once, at most `limit`.
    pub fn search(&self, q: &str, repo: Option<&str>, limit: usize) -> Result<Vec<Hit>> {
        let q = q.trim();
        let mut hits = Hits::default();
        if q.is_empty() {
            return Ok(hits.0);
        }
        let by_code = self.store.list(&ListQuery {
            error_code: Some(q.to_string()),
            repo: repo.map(str::to_string),
            limit,
            ..ListQuery::default()
        })?;
        for r in &by_code {
            hits.push(Hit::of(r, "errorCode", 1.0));
        }
        let ex = self.explainer()?;
        for line in q.lines().take(TRACED_LINES) {
            for frame in &ex.explain(line).frames {
                // A runtime's text (the knowledge base) is no record of
                // the atlas: search answers with records only.
                for c in frame
                    .candidates
                    .iter()
                    .filter(|c| c.knowledge.is_none() && !c.built_at_run_time)
                {
                    if repo.is_none_or(|r| r == c.repo) {
                        hits.push(Hit::traced(c));
                    }
                }
            }
        }
        for (i, r) in self.store.search(q, repo, limit)?.iter().enumerate() {
            hits.push(Hit::of(r, "fulltext", 0.45 / (1.0 + i as f32 * 0.2)));
        }
        let mut hits = hits.0;
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        Ok(hits)
    }

    /// Repositories, by name.
    pub fn repos(&self) -> Result<Vec<RepoSummary>> {
        Ok(self.store.repos()?)
    }

    /// One repository, if the atlas holds it.
    pub fn repo(&self, repo: &str) -> Result<Option<RepoSummary>> {
        Ok(self.repos()?.into_iter().find(|r| r.repo == repo))
    }

    /// Records matching `q`, by repo, path and line.
    pub fn list(&self, q: &ListQuery) -> Result<Vec<Record>> {
        Ok(self.store.list(q)?)
    }

    /// Number of records matching `q` (ignoring limit and offset).
    pub fn count(&self, q: &ListQuery) -> Result<u64> {
        Ok(self.store.count(q)?)
    }

    /// One record by id.
    pub fn get(&self, id: &str) -> Result<Option<Record>> {
        Ok(self.store.get(id)?)
    }

    /// Records with this slug (one per repo), optionally in one repo.
    pub fn find_slug(&self, repo: Option<&str>, slug: &str) -> Result<Vec<Record>> {
        Ok(self.store.find_slug(repo, slug)?)
    }

    /// The records `r` lists as related that the atlas still holds, in
    /// its order; one that cannot be read is left out.
    pub fn related(&self, r: &Record) -> Vec<Record> {
        r.related_errors
            .iter()
            .filter_map(|x| self.store.get(&x.id).ok().flatten())
            .collect()
    }
}
