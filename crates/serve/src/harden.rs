//! What makes the server safe to put on the internet, on every answer:
//! security headers (a Content-Security-Policy that allows exactly the
//! page's own stylesheet, no framing, no sniffing, no referrer), JSON
//! bodies for every error of the API (axum's own rejections are plain
//! text), and redirects that can only stay on this site.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The policy for pages as served: nothing but the inline stylesheet (by
/// its hash), forms that post here, no framing, no `<base>`.
pub(crate) fn content_security_policy() -> &'static str {
    static POLICY: OnceLock<String> = OnceLock::new();
    POLICY.get_or_init(|| format!("{}; frame-ancestors 'none'", meta_policy()))
}

/// The policy a `<meta>` tag can carry (browsers ignore
/// `frame-ancestors` there), for the exported static site.
pub(crate) fn meta_policy() -> &'static str {
    static POLICY: OnceLock<String> = OnceLock::new();
    POLICY.get_or_init(|| {
        let hash = base64(&Sha256::digest(crate::pages::CSS.as_bytes()));
        format!(
            "default-src 'none'; style-src 'sha256-{hash}'; img-src 'self'; \
             base-uri 'none'; form-action 'self'"
        )
    })
}

/// The `Referrer-Policy`: links out to code hosts carry no page address.
pub(crate) const REFERRER_POLICY: &str = "no-referrer";

/// Standard base64 with padding (RFC 4648), for the CSP hash.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Largest plain-text error body turned into JSON.
const MAX_ERROR_TEXT: usize = 4096;

/// Adds the security headers to every answer, and gives API errors that
/// axum wrote as plain text (413, 405, a bad query) a JSON body.
pub(crate) async fn harden(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut resp = next.run(req).await;
    if api && resp.status().as_u16() >= 400 && !is_json(&resp) {
        resp = as_json_error(resp).await;
    }
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(content_security_policy()),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static(REFERRER_POLICY),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    resp
}

fn is_json(resp: &Response) -> bool {
    resp.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

async fn as_json_error(resp: Response) -> Response {
    let status = resp.status();
    let (_, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, MAX_ERROR_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    (status, axum::Json(serde_json::json!({"error": message}))).into_response()
}

/// A permanent redirect to the folder of these path segments (`/a/b` →
/// `/a/b/`), each written percent-encoded. An empty segment would make
/// the target `//host/…`, which a browser reads as another site
/// (`GET //evil.example/x`): such a request is answered 404.
pub(crate) fn add_slash(segments: &[&str]) -> Response {
    if segments.iter().any(|s| s.is_empty()) {
        return (StatusCode::NOT_FOUND, Body::from("not found")).into_response();
    }
    let mut target = String::new();
    for s in segments {
        target.push('/');
        target.push_str(&encode_segment(s));
    }
    target.push('/');
    axum::response::Redirect::permanent(&target).into_response()
}

/// A path segment with every byte but the unreserved ones percent-encoded
/// (so no `/`, `\\` or control character reaches the `Location`).
fn encode_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn redirects_never_leave_the_site() {
        let location = |segs: &[&str]| {
            let r = add_slash(segs);
            (
                r.status(),
                r.headers()
                    .get(header::LOCATION)
                    .map(|v| v.to_str().unwrap().to_string()),
            )
        };
        // `GET //evil.example/x`: the owner segment is empty.
        assert_eq!(
            location(&["", "evil.example", "x"]).0,
            StatusCode::NOT_FOUND
        );
        // `GET /%2F%2Fevil.example/x`: the decoded owner holds slashes.
        assert_eq!(
            location(&["//evil.example", "x"]).1.as_deref(),
            Some("/%2F%2Fevil.example/x/")
        );
        assert_eq!(location(&["\\evil", "x"]).1.as_deref(), Some("/%5Cevil/x/"));
        assert_eq!(location(&["a\nb", "x"]).1.as_deref(), Some("/a%0Ab/x/"));
        assert_eq!(
            location(&["kubernetes", "kops"]),
            (
                StatusCode::PERMANENT_REDIRECT,
                Some("/kubernetes/kops/".into())
            )
        );
    }
}
