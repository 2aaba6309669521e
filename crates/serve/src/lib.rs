//! The atlas over HTTP, from the same store the CLI writes: server-rendered
//! pages in the seed page's order (no JavaScript needed), the JSON API
//! (records exactly as the seed's `{"record", "datasetVersion"}`), tiered
//! search, explain, sitemaps, `llms.txt`, OpenAPI and Prometheus metrics.
//!
//! Every answer carries the dataset version as a weak ETag; a request with
//! a matching `If-None-Match` gets 304. The version is read per request, so
//! a re-index under a running server shows at once (the trace index is
//! rebuilt on the first explain after a change).
#![deny(missing_docs)]

mod api;
pub use errdex_atlas::Hit;
mod error;
mod harden;
mod listen;
pub use error::Error;
pub(crate) use error::Failure;
pub use listen::{serve_with, Limits};
pub mod export;
mod meta;
mod observe;
pub use observe::REQUEST_ID;
mod pages;
mod rule_pages;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use errdex_atlas::Atlas;
use errdex_store::Store;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Largest body `POST /api/explain` accepts.
pub const MAX_EXPLAIN_BYTES: usize = 64 * 1024;
/// Records per page of lists.
pub const PAGE_SIZE: usize = 50;

/// What every handler shares.
pub struct AppState {
    atlas: Atlas,
    /// The site's public root (`https://errdex.example`), for canonical
    /// links and sitemaps; no trailing slash.
    base_url: String,
    /// Requests by route, for `/metrics`.
    requests: Mutex<BTreeMap<&'static str, u64>>,
    explained_lines: AtomicU64,
    /// Rendering for static files: no search forms or filters, whole lists.
    static_site: bool,
    /// Answers already rendered for the current dataset version.
    cache: RwLock<PageCache>,
}

/// Largest answer kept in the cache.
const CACHE_MAX_BODY: usize = 2 << 20;
/// The cache starts over past this many bytes.
const CACHE_MAX_BYTES: usize = 256 << 20;

/// Rendered answers by path and query, all of one dataset version: the
/// data only changes with the version, so an answer stays right until then.
#[derive(Default)]
struct PageCache {
    version: String,
    entries: HashMap<String, (HeaderValue, Bytes)>,
    bytes: usize,
}

impl AppState {
    /// State over an opened store; `base_url` is the public root.
    pub fn new(store: impl Store + 'static, base_url: &str) -> Arc<AppState> {
        Arc::new(AppState::with(Atlas::new(store), base_url, false))
    }

    /// State for rendering the static site.
    fn for_static_site(atlas: Atlas, base_url: &str) -> AppState {
        AppState::with(atlas, base_url, true)
    }

    fn with(atlas: Atlas, base_url: &str, static_site: bool) -> AppState {
        AppState {
            atlas,
            base_url: base_url.trim_end_matches('/').to_string(),
            requests: Mutex::new(BTreeMap::new()),
            explained_lines: AtomicU64::new(0),
            static_site,
            cache: RwLock::new(PageCache::default()),
        }
    }

    /// The dataset version now ("none" before anything was indexed), as
    /// the atlas last read it.
    pub(crate) fn version(&self) -> String {
        self.atlas.version()
    }

    fn cached(&self, version: &str, key: &str) -> Option<(HeaderValue, Bytes)> {
        let c = self.cache.read().unwrap_or_else(|p| p.into_inner());
        (c.version == version)
            .then(|| c.entries.get(key).cloned())
            .flatten()
    }

    fn remember(&self, version: &str, key: String, ctype: HeaderValue, body: Bytes) {
        let mut c = self.cache.write().unwrap_or_else(|p| p.into_inner());
        if c.version != version || c.bytes + body.len() > CACHE_MAX_BYTES {
            *c = PageCache {
                version: version.to_string(),
                ..PageCache::default()
            };
        }
        c.bytes += body.len() + key.len();
        c.entries.insert(key, (ctype, body));
    }

    /// The query service it answers from.
    pub fn atlas(&self) -> &Atlas {
        &self.atlas
    }

    /// The public root URL, no trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    fn count(&self, route: &'static str) {
        *self
            .requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(route)
            .or_default() += 1;
    }
}

/// The whole site.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/search", get(pages::search))
        .route("/info/{family}/", get(pages::family))
        .route("/api-docs/", get(pages::api_docs))
        .route("/rules/", get(rule_pages::index))
        .route("/rules/{id}/", get(rule_pages::rule))
        .route("/{owner}/{repo}/", get(pages::repo))
        .route("/{owner}/{repo}", get(pages::add_slash))
        .route("/{owner}/{repo}/{slug}/", get(pages::error))
        .route("/{owner}/{repo}/{slug}", get(pages::add_slash3))
        .route("/api/repos", get(api::repos))
        .route("/api/repos/{owner}/{repo}/errors", get(api::repo_errors))
        .route("/api/errors/{id}", get(api::error))
        .route("/api/search", get(api::search))
        .route("/api/explain", post(api::explain))
        .route("/openapi.json", get(meta::openapi))
        .route("/healthz", get(meta::healthz))
        .route("/metrics", get(meta::metrics))
        .route("/robots.txt", get(meta::robots))
        .route("/llms.txt", get(meta::llms))
        .route("/sitemap.xml", get(meta::sitemap_index))
        .route("/sitemaps/{owner}/{repo}", get(meta::sitemap_repo))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            conditional,
        ))
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(axum::middleware::from_fn(observe::observe))
        .layer(axum::middleware::from_fn(harden::harden))
        .with_state(state)
}

/// Counts the request, and answers 304 when the client's copy is of the
/// current dataset version; otherwise tags the answer with it. Answers to
/// GETs of pages and records are kept for the dataset version and served
/// from memory after the first time.
async fn conditional(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let route = route_class(req.uri().path());
    state.count(route);
    let get = req.method() == axum::http::Method::GET;
    let tagged = get && !matches!(route, "healthz" | "metrics");
    let cacheable = tagged && !matches!(route, "search" | "api_search" | "api_explain");
    let version = state.version();
    let etag = HeaderValue::from_str(&format!("W/\"{version}\"")).ok();
    if let (true, Some(etag)) = (tagged, &etag) {
        let matches = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(',')
                    .any(|t| t.trim() == "*" || t.trim().as_bytes() == etag.as_bytes())
            });
        if matches {
            let mut r = StatusCode::NOT_MODIFIED.into_response();
            r.headers_mut().insert(header::ETAG, etag.clone());
            return r;
        }
    }
    let key = req.uri().to_string();
    if cacheable {
        if let Some((ctype, body)) = state.cached(&version, &key) {
            let mut r = body.into_response();
            r.headers_mut().insert(header::CONTENT_TYPE, ctype);
            if let Some(etag) = etag {
                r.headers_mut().insert(header::ETAG, etag);
            }
            return r;
        }
    }
    let mut resp = next.run(req).await;
    if resp.status().is_success() {
        if let (true, Some(etag)) = (tagged, &etag) {
            resp.headers_mut().insert(header::ETAG, etag.clone());
        }
    }
    let small = {
        use axum::body::HttpBody;
        resp.body()
            .size_hint()
            .upper()
            .is_some_and(|n| n <= CACHE_MAX_BODY as u64)
    };
    if cacheable && small && resp.status() == StatusCode::OK {
        let (parts, body) = resp.into_parts();
        let bytes = match axum::body::to_bytes(body, CACHE_MAX_BODY).await {
            Ok(bytes) => bytes,
            Err(e) => return Failure::Internal(Error::Body(e.to_string())).into_response(),
        };
        if let Some(ctype) = parts.headers.get(header::CONTENT_TYPE) {
            state.remember(&version, key, ctype.clone(), bytes.clone());
        }
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    }
    resp
}

/// A label for `/metrics` that does not grow with the number of pages.
fn route_class(path: &str) -> &'static str {
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segs.as_slice() {
        [""] => "home",
        ["api", "errors", ..] => "api_error",
        ["api", "repos"] => "api_repos",
        ["api", "repos", ..] => "api_repo_errors",
        ["api", "search"] => "api_search",
        ["api", "explain"] => "api_explain",
        ["search"] => "search",
        ["info", ..] => "family",
        ["rules", ..] => "rules",
        ["healthz"] => "healthz",
        ["metrics"] => "metrics",
        ["openapi.json"] | ["api-docs"] | ["robots.txt"] | ["llms.txt"] => "meta",
        ["sitemap.xml"] | ["sitemaps", ..] => "sitemap",
        [_, _] => "repo_page",
        [_, _, _] => "error_page",
        _ => "other",
    }
}

/// Serves until Ctrl-C under the default [`Limits`].
pub async fn serve(state: Arc<AppState>, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    serve_limited(state, listener, Limits::default()).await
}

/// Serves until Ctrl-C under `limits`.
pub async fn serve_limited(
    state: Arc<AppState>,
    listener: tokio::net::TcpListener,
    limits: Limits,
) -> std::io::Result<()> {
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve_with(router(state), listener, limits, stop).await
}

/// Requests served so far, by route.
pub(crate) fn request_counts(state: &AppState) -> Vec<(&'static str, u64)> {
    state
        .requests
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|(k, v)| (*k, *v))
        .collect()
}

pub(crate) fn explained_lines(state: &AppState) -> &AtomicU64 {
    &state.explained_lines
}

pub(crate) fn add_explained(state: &AppState, n: u64) {
    state.explained_lines.fetch_add(n, Ordering::Relaxed);
}

/// Blocking store work off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    state: &Arc<AppState>,
    f: impl FnOnce(&AppState) -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    let state = state.clone();
    tokio::task::spawn_blocking(move || f(&state)).await?
}

#[cfg(test)]
mod tests;
