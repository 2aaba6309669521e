//! The JSON API.

use crate::{blocking, AppState, Failure, MAX_EXPLAIN_BYTES};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use errdex_model::Record;
use errdex_store::{ListQuery, Store};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

/// Largest page of `/api/repos/{owner}/{repo}/errors`.
const MAX_LIMIT: usize = 500;

pub(crate) async fn repos(State(s): State<Arc<AppState>>) -> Result<Json<Value>, Failure> {
    blocking(&s, |s| {
        let repos = s.store.repos()?;
        let list: Vec<Value> = repos
            .iter()
            .map(|r| {
                json!({
                    "repo": r.repo,
                    "commit": r.commit,
                    "records": r.records,
                    "datasetVersion": r.dataset_version,
                    "indexedAt": r.indexed_at,
                    "url": format!("{}/{}/", s.base_url, r.repo),
                })
            })
            .collect();
        Ok(Json(json!({"repos": list, "datasetVersion": s.version()})))
    })
    .await
}

/// Filters of a repository's error list (API and page).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Filters {
    pub severity: Option<String>,
    #[serde(rename = "type")]
    pub error_type: Option<String>,
    pub tag: Option<String>,
    pub path: Option<String>,
    pub limit: Option<usize>,
    pub offset: Option<usize>,
    pub page: Option<usize>,
}

impl Filters {
    /// Empty strings (an untouched form field) mean no filter.
    pub(crate) fn query(&self, repo: &str, limit: usize, offset: usize) -> ListQuery {
        let f = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        ListQuery {
            repo: Some(repo.to_string()),
            severity: f(&self.severity),
            error_type: f(&self.error_type),
            tag: f(&self.tag),
            path_prefix: f(&self.path),
            limit,
            offset,
            ..ListQuery::default()
        }
    }
}

/// One compact row of a list.
pub(crate) fn row(base: &str, r: &Record) -> Value {
    json!({
        "id": r.id,
        "slug": r.slug,
        "messagePattern": r.message_pattern,
        "errorType": r.error_type,
        "severity": r.severity,
        "filePath": r.file_path,
        "lineNumber": r.line_number,
        "backgroundTag": r.background_tag,
        "url": format!("{base}/{}/{}/", r.repo, r.slug),
    })
}

pub(crate) async fn repo_errors(
    State(s): State<Arc<AppState>>,
    Path((owner, name)): Path<(String, String)>,
    Query(f): Query<Filters>,
) -> Result<Json<Value>, Failure> {
    blocking(&s, move |s| {
        let repo = format!("{owner}/{name}");
        if !s.store.repos()?.iter().any(|r| r.repo == repo) {
            return Err(Failure(
                StatusCode::NOT_FOUND,
                format!("no repository {repo} in this atlas"),
            ));
        }
        let limit = f.limit.unwrap_or(crate::PAGE_SIZE).clamp(1, MAX_LIMIT);
        let offset = f.offset.unwrap_or(0);
        let q = f.query(&repo, limit, offset);
        let total = s.store.count(&q)?;
        let rows: Vec<Value> = s
            .store
            .list(&q)?
            .iter()
            .map(|r| row(&s.base_url, r))
            .collect();
        Ok(Json(json!({
            "repo": repo,
            "total": total,
            "offset": offset,
            "limit": limit,
            "errors": rows,
            "datasetVersion": s.version(),
        })))
    })
    .await
}

pub(crate) async fn error(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    let id = id.trim_end_matches(".json").to_string();
    blocking(&s, move |s| match s.store.get(&id)? {
        Some(r) => Ok(Json(json!({"record": r, "datasetVersion": s.version()}))),
        None => Err(Failure(
            StatusCode::NOT_FOUND,
            format!("no error with id {id}"),
        )),
    })
    .await
}

#[derive(Debug, Deserialize)]
pub(crate) struct SearchParams {
    pub q: Option<String>,
    pub repo: Option<String>,
    pub limit: Option<usize>,
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
}

/// Tiered search: an exact error code, then the records whose pattern
/// explains the text (traced), then full-text matches; best first, each
/// record once.
pub(crate) fn search_hits(
    s: &AppState,
    q: &str,
    repo: Option<&str>,
    limit: usize,
) -> Result<Vec<Hit>, Failure> {
    let q = q.trim();
    let mut hits: Vec<Hit> = Vec::new();
    if q.is_empty() {
        return Ok(hits);
    }
    let push = |hits: &mut Vec<Hit>, h: Hit| {
        if !hits.iter().any(|x| x.id == h.id) {
            hits.push(h);
        }
    };
    let by_code = s.store.list(&ListQuery {
        error_code: Some(q.to_string()),
        repo: repo.map(str::to_string),
        limit,
        ..ListQuery::default()
    })?;
    for r in &by_code {
        push(&mut hits, Hit::of(r, "errorCode", 1.0));
    }
    let ex = s.explainer()?;
    for line in q.lines().take(20) {
        let e = ex.explain(line);
        for frame in &e.frames {
            for c in &frame.candidates {
                if repo.is_some_and(|r| r != c.repo) {
                    continue;
                }
                // The candidate names the matching site already; a traced
                // frame outranks any text match.
                push(
                    &mut hits,
                    Hit {
                        id: c.id.clone(),
                        repo: c.repo.clone(),
                        slug: c.slug.clone(),
                        message_pattern: c.message_pattern.clone(),
                        file_path: c.file_path.clone(),
                        line_number: c.line_number,
                        match_type: "traced",
                        score: (0.5 + c.score / 2.0).clamp(0.0, 1.0),
                    },
                );
            }
        }
    }
    for (i, r) in s.store.search(q, repo, limit)?.iter().enumerate() {
        push(
            &mut hits,
            Hit::of(r, "fulltext", 0.45 / (1.0 + i as f32 * 0.2)),
        );
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    hits.truncate(limit);
    Ok(hits)
}

pub(crate) async fn search(
    State(s): State<Arc<AppState>>,
    Query(p): Query<SearchParams>,
) -> Result<Json<Value>, Failure> {
    let q = p.q.unwrap_or_default();
    if q.trim().is_empty() {
        return Err(Failure(
            StatusCode::BAD_REQUEST,
            "give the text to search for as ?q=".into(),
        ));
    }
    let limit = p.limit.unwrap_or(20).clamp(1, 100);
    blocking(&s, move |s| {
        let hits = search_hits(s, &q, p.repo.as_deref(), limit)?;
        Ok(Json(
            json!({"results": hits, "datasetVersion": s.version()}),
        ))
    })
    .await
}

pub(crate) async fn explain(
    State(s): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Failure> {
    if body.len() > MAX_EXPLAIN_BYTES {
        return Err(Failure(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("at most {MAX_EXPLAIN_BYTES} bytes per request; split the log or use `errdex explain -`"),
        ));
    }
    let json_body = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let text = if json_body {
        let v: Value = serde_json::from_slice(&body)
            .map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("body is not JSON: {e}")))?;
        v["text"]
            .as_str()
            .ok_or_else(|| {
                Failure(
                    StatusCode::BAD_REQUEST,
                    "JSON body needs a \"text\" string".into(),
                )
            })?
            .to_string()
    } else {
        String::from_utf8(body.to_vec())
            .map_err(|_| Failure(StatusCode::BAD_REQUEST, "body is not UTF-8 text".into()))?
    };
    if text.trim().is_empty() {
        return Err(Failure(
            StatusCode::BAD_REQUEST,
            "nothing to explain: send the log text as the body".into(),
        ));
    }
    blocking(&s, move |s| {
        let out = s
            .explain(&text)
            .map_err(|e| Failure(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        crate::add_explained(s, out.len() as u64);
        Ok(Json(
            json!({"explanations": out, "datasetVersion": s.version()}),
        ))
    })
    .await
}
