//! Every request gets an id (the client's `x-request-id` when it sends a
//! usable one), answered in the `x-request-id` header; every request is
//! logged with its method, path, status and latency; every internal error
//! is logged in full and answered with generic text naming the id.

use crate::error::{chain, InternalError};
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// The header that carries the request id both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest id taken from a client.
const MAX_CLIENT_ID: usize = 64;

/// A new id: random per process, counted per request, so ids of two runs
/// do not collide in one log.
fn new_id() -> String {
    static RUN: OnceLock<u32> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let run = *RUN.get_or_init(|| RandomState::new().hash_one(std::process::id()) as u32);
    format!("{run:08x}-{:06x}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The client's id when it is short and plain (safe to log and echo).
fn client_id(req: &Request) -> Option<String> {
    let v = req.headers().get(&REQUEST_ID)?.to_str().ok()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    (!v.is_empty() && v.len() <= MAX_CLIENT_ID && v.chars().all(plain)).then(|| v.to_string())
}

/// Numbers, logs and guards one request.
pub(crate) async fn observe(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = client_id(&req).unwrap_or_else(new_id);
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let mut resp = next.run(req).await;
    if let Some(InternalError(e)) = resp.extensions_mut().remove::<InternalError>() {
        tracing::error!(request_id = %id, %method, %path, error = %chain(&*e), "internal error");
        resp = generic_answer(&id);
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        resp.headers_mut().insert(REQUEST_ID, v);
    }
    tracing::info!(
        request_id = %id,
        %method,
        %path,
        status = resp.status().as_u16(),
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        "request"
    );
    resp
}

/// What a client is told when the server failed.
fn generic_answer(id: &str) -> Response {
    let body = serde_json::json!({
        "error": format!("internal error; the server's log has the details under request id {id}"),
        "requestId": id,
    });
    (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(body)).into_response()
}
