//! The JSON API.

use crate::{blocking, AppState, Failure, MAX_EXPLAIN_BYTES};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use errdex_model::Record;
use errdex_store::ListQuery;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Largest page of `/api/repos/{owner}/{repo}/errors`.
const MAX_LIMIT: usize = 500;

pub(crate) async fn repos(State(s): State<Arc<AppState>>) -> Result<Json<Value>, Failure> {
    blocking(&s, |s| {
        let repos = s.atlas.repos()?;
        let list: Vec<Value> = repos
            .iter()
            .map(|r| {
                json!({
                    "repo": r.repo,
                    "commit": r.commit,
                    "records": r.records,
                    "datasetVersion": r.dataset_version,
                    "indexedAt": r.indexed_at,
                    "versions": r.versions,
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
    /// Only the records this indexed version prints.
    pub version: Option<String>,
}

impl Filters {
    /// The version asked for, if any (an empty field is none).
    pub(crate) fn version(&self) -> Option<&str> {
        self.version.as_deref().filter(|v| !v.trim().is_empty())
    }

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

/// A repository's records under `f`: the total and `limit` of them (0:
/// all) from `offset`. Version ranges compare as versions, which SQL
/// cannot: with `?version=`, the rows are filtered here, then paged.
pub(crate) fn listed(
    s: &AppState,
    repo: &str,
    f: &Filters,
    limit: usize,
    offset: usize,
) -> Result<(u64, Vec<Record>), Failure> {
    let Some(v) = f.version() else {
        let q = f.query(repo, limit, offset);
        return Ok((s.atlas.count(&q)?, s.atlas.list(&q)?));
    };
    let kept: Vec<Record> = s
        .atlas
        .list(&f.query(repo, 0, 0))?
        .into_iter()
        .filter(|r| prints_at(r, v))
        .collect();
    let take = if limit == 0 { usize::MAX } else { limit };
    Ok((
        kept.len() as u64,
        kept.into_iter().skip(offset).take(take).collect(),
    ))
}

/// Whether indexed version `version` prints `r` (a record of a run
/// without history is in its one version).
fn prints_at(r: &Record, version: &str) -> bool {
    r.versions.is_empty()
        || r.versions
            .iter()
            .any(|v| errdex_model::in_range(version, &v.from, &v.to))
}

/// One compact row of a list.
pub(crate) fn row(base: &str, r: &Record) -> Value {
    let mut row = json!({
        "id": r.id,
        "slug": r.slug,
        "messagePattern": r.message_pattern,
        "errorType": r.error_type,
        "severity": r.severity,
        "filePath": r.file_path,
        "lineNumber": r.line_number,
        "backgroundTag": r.background_tag,
        "url": format!("{base}/{}/{}/", r.repo, r.slug),
    });
    // Repositories indexed over history: which versions print it.
    if let Some(first) = &r.first_seen {
        row["firstSeen"] = json!(first);
        row["lastSeen"] = json!(r.last_seen);
        row["removedIn"] = json!(r.removed_in);
    }
    row
}

pub(crate) async fn repo_errors(
    State(s): State<Arc<AppState>>,
    Path((owner, name)): Path<(String, String)>,
    Query(f): Query<Filters>,
) -> Result<Json<Value>, Failure> {
    blocking(&s, move |s| {
        let repo = format!("{owner}/{name}");
        if s.atlas.repo(&repo)?.is_none() {
            return Err(Failure::Client(
                StatusCode::NOT_FOUND,
                format!("no repository {repo} in this atlas"),
            ));
        }
        let limit = f.limit.unwrap_or(crate::PAGE_SIZE).clamp(1, MAX_LIMIT);
        let offset = f.offset.unwrap_or(0);
        let (total, records) = listed(s, &repo, &f, limit, offset)?;
        let rows: Vec<Value> = records.iter().map(|r| row(&s.base_url, r)).collect();
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
    blocking(&s, move |s| match s.atlas.get(&id)? {
        Some(r) => Ok(Json(json!({"record": r, "datasetVersion": s.version()}))),
        None => Err(Failure::Client(
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

pub(crate) async fn search(
    State(s): State<Arc<AppState>>,
    Query(p): Query<SearchParams>,
) -> Result<Json<Value>, Failure> {
    let q = p.q.unwrap_or_default();
    if q.trim().is_empty() {
        return Err(Failure::Client(
            StatusCode::BAD_REQUEST,
            "give the text to search for as ?q=".into(),
        ));
    }
    let limit = p.limit.unwrap_or(20).clamp(1, 100);
    blocking(&s, move |s| {
        let hits = s.atlas.search(&q, p.repo.as_deref(), limit)?;
        Ok(Json(
            json!({"results": hits, "datasetVersion": s.version()}),
        ))
    })
    .await
}

pub(crate) async fn explain(
    State(s): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Result<Json<Value>, Failure> {
    let too_large = || {
        Failure::Client(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("at most {MAX_EXPLAIN_BYTES} bytes per request; split the log or use `errdex explain -`"),
        )
    };
    // A body announced too large is turned away before any of it is read.
    let announced = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_EXPLAIN_BYTES as u64) {
        return Err(too_large());
    }
    let body = axum::body::to_bytes(body, MAX_EXPLAIN_BYTES)
        .await
        .map_err(|e| {
            let over = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            if over {
                too_large()
            } else {
                Failure::Client(
                    StatusCode::BAD_REQUEST,
                    format!("could not read the request body: {e}"),
                )
            }
        })?;
    let json_body = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    // A stray invalid byte is replaced, as the CLI does, rather than
    // refusing the whole log.
    let body = String::from_utf8_lossy(&body);
    let text = if json_body {
        let v: Value = serde_json::from_str(&body).map_err(|e| {
            Failure::Client(StatusCode::BAD_REQUEST, format!("body is not JSON: {e}"))
        })?;
        v["text"]
            .as_str()
            .ok_or_else(|| {
                Failure::Client(
                    StatusCode::BAD_REQUEST,
                    "JSON body needs a \"text\" string".into(),
                )
            })?
            .to_string()
    } else {
        body.into_owned()
    };
    if text.trim().is_empty() {
        return Err(Failure::Client(
            StatusCode::BAD_REQUEST,
            "nothing to explain: send the log text as the body".into(),
        ));
    }
    blocking(&s, move |s| {
        let out = s.atlas.explain(&text)?;
        crate::add_explained(s, out.len() as u64);
        Ok(Json(
            json!({"explanations": out, "datasetVersion": s.version()}),
        ))
    })
    .await
}
