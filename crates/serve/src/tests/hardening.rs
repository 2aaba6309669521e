//! What makes the server safe on the internet: security headers on every
//! answer, redirects that stay on the site, `<script>` blocks no message
//! can break, JSON for every API error, bodies with a stray byte accepted.

use super::{agent, oneshot, seed_db, serve_db};
use crate::{router, AppState};
use axum::http::{header, StatusCode};
use errdex_store::Store;
use errdex_testkit::open_store;

fn seed_router(dir: &std::path::Path) -> axum::Router {
    router(AppState::new(open_store(&seed_db(dir)), "http://test"))
}

#[test]
fn every_answer_carries_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let app = seed_router(dir.path());
    for uri in [
        "/",
        "/kubernetes/kops/stop-requested/",
        "/kubernetes/kops",
        "/nope/nope/nope/",
        "/api/errors/nope",
        "/api/search",
        "/healthz",
        "/no/such/route/at/all",
    ] {
        let (status, h, _) = oneshot(app.clone(), uri);
        let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        for part in [
            "default-src 'none'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "style-src 'sha256-",
        ] {
            assert!(
                csp.contains(part),
                "{uri} ({status}): {part} missing in {csp}"
            );
        }
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
        assert_eq!(h[header::REFERRER_POLICY], "no-referrer", "{uri}");
    }
}

#[test]
fn the_style_hash_in_the_policy_is_the_pages_stylesheet() {
    use sha2::Digest;
    let dir = tempfile::tempdir().unwrap();
    let (_, h, page) = oneshot(seed_router(dir.path()), "/");
    let css = page
        .split("<style>")
        .nth(1)
        .unwrap()
        .split("</style>")
        .next()
        .unwrap();
    let hash = sha2::Sha256::digest(css.as_bytes());
    let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    let named = csp
        .split("'sha256-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    // base64 of the 32-byte digest: 44 characters ending in one `=`.
    assert_eq!(named.len(), 44, "{named}");
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    let decoded: String = decode_base64(named)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(decoded, hex);
}

fn decode_base64(s: &str) -> Vec<u8> {
    const ABC: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bits: Vec<u32> = s
        .trim_end_matches('=')
        .chars()
        .map(|c| ABC.find(c).unwrap() as u32)
        .collect();
    let mut out = Vec::new();
    for chunk in bits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0, |n, (i, b)| n | b << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn no_request_is_redirected_off_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let app = seed_router(dir.path());
    for uri in [
        "//evil.example.com/x",
        "//evil.example.com/x/y",
        "/%2F%2Fevil.example.com/x",
        "/%5C%5Cevil.example.com/x",
        "/%2F%2Fevil.example.com/x/y",
    ] {
        let (status, h, _) = oneshot(app.clone(), uri);
        if let Some(to) = h.get(header::LOCATION) {
            let to = to.to_str().unwrap();
            assert!(
                to.starts_with('/') && !to.starts_with("//") && !to.starts_with("/\\"),
                "{uri} → {status} {to}"
            );
        }
    }
}

/// A tree whose one message would end a `<script>` block or start a
/// comment in it.
fn hostile_message_db(dir: &std::path::Path) -> std::path::PathBuf {
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("x.js"),
        "function f() { throw new Error(\"x <!--<script> y </script><b>&amp;</b>\"); }\n",
    )
    .unwrap();
    let mut ds = errdex_testkit::index_copy(&tree, "acme/site", None);
    errdex_analyze::analyze_all(&mut ds.records);
    let db = dir.join("atlas.db");
    open_store(&db).replace_repo(&ds).unwrap();
    db
}

/// The text of every `<script>` element of a page.
fn scripts(page: &str) -> Vec<&str> {
    page.split("<script")
        .skip(1)
        .map(|s| {
            s.split_once('>')
                .unwrap()
                .1
                .split("</script>")
                .next()
                .unwrap()
        })
        .collect()
}

#[test]
fn no_message_can_end_or_change_a_script_block() {
    let dir = tempfile::tempdir().unwrap();
    let db = hostile_message_db(dir.path());
    let app = router(AppState::new(open_store(&db), "http://test"));
    let (_, _, list) = oneshot(app.clone(), "/api/repos/acme/site/errors");
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    let slug = v["errors"][0]["slug"]
        .as_str()
        .unwrap_or_else(|| panic!("{list}"))
        .to_string();
    let (status, _, page) = oneshot(app, &format!("/acme/site/{slug}/"));
    assert_eq!(status, StatusCode::OK);
    let blocks = scripts(&page);
    assert_eq!(blocks.len(), 1, "one JSON-LD block");
    for b in &blocks {
        assert!(!b.contains(['<', '>', '&']), "{b}");
        let ld: serde_json::Value = serde_json::from_str(b).unwrap();
        assert!(
            ld.to_string().contains("x <!--<script> y </script>"),
            "the text survives: {ld}"
        );
    }
    // The static export writes the same block, and its policy as <meta>.
    let out = dir.path().join("site");
    crate::export::export_site(open_store(&db), "https://errdex.example", &out).unwrap();
    let page = std::fs::read_to_string(out.join(format!("acme/site/{slug}/index.html"))).unwrap();
    assert!(scripts(&page).iter().all(|b| !b.contains(['<', '>', '&'])));
    assert!(
        page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"),
        "{page}"
    );
}

#[test]
fn api_errors_are_json_and_a_stray_byte_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let base = serve_db(seed_db(dir.path()));
    let post = |body: Vec<u8>| {
        let mut r = agent()
            .post(&format!("{base}/api/explain"))
            .header("content-type", "text/plain")
            .send(&body[..])
            .unwrap();
        let status = r.status().as_u16();
        let ctype = r
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string());
        (status, ctype, r.body_mut().read_to_string().unwrap())
    };
    let (status, ctype, body) = post(vec![b'x'; 70 * 1024]);
    assert_eq!(status, 413, "{body}");
    assert_eq!(ctype.as_deref(), Some("application/json"), "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    // A client that announces 3 MiB gets its answer after the first part:
    // the server neither reads the rest nor waits for it.
    let big = announced_body(&base, "/api/explain", 3 << 20, 128 * 1024);
    assert!(big.starts_with("HTTP/1.1 413"), "{big}");
    assert!(
        big.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{big}"
    );
    let mut line = b"stop requested \xff\n".to_vec();
    line.extend(b"another line\n");
    let (status, _, body) = post(line);
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["explanations"].as_array().is_some_and(|a| !a.is_empty()),
        "{body}"
    );
}

/// Posts a request announcing `announced` bytes of body but sends only
/// `sent` of them, then reads the answer: what a client that the server
/// turns away early sees (a whole 3 MiB write would race the server's
/// closing of the connection).
fn announced_body(base: &str, path: &str, announced: usize, sent: usize) -> String {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\nContent-Length: {announced}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(&vec![b'x'; sent]);
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}
