//! The server over a real socket, on the seed fixture.

use super::*;
use errdex_testkit::open_store;
use sha2::Digest;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

mod hardening;
mod rule_pages;

const SHA: &str = "4c8573c808a73d578c5eadc86d410646ea0b0d73";

/// The seed fixture indexed and analysed into `dir/atlas.db`.
fn seed_db(dir: &Path) -> PathBuf {
    let seed = errdex_testkit::fixtures().join("seed");
    let mut ds = errdex_testkit::index_copy(&seed, "kubernetes/kops", Some(SHA));
    errdex_analyze::analyze_all(&mut ds.records);
    let db = dir.join("atlas.db");
    open_store(&db).replace_repo(&ds).unwrap();
    db
}

/// Serves `db` on a free port, on its own thread; the base URL.
fn serve_db(db: PathBuf) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}", listener.local_addr().unwrap());
            let state = AppState::new(open_store(&db), &url);
            tx.send(url).unwrap();
            serve(state, listener).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// The seed fixture indexed and analysed into a database, served on a free
/// port; the base URL.
fn start() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let base = serve_db(seed_db(dir.path()));
    (base, dir)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// Status, headers (lowercase names) and body of a GET.
fn get(url: &str) -> (u16, Vec<(String, String)>, String) {
    let mut r = agent().get(url).call().unwrap();
    let headers = r
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    (
        r.status().as_u16(),
        headers,
        r.body_mut().read_to_string().unwrap(),
    )
}

fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn error_page_has_the_seed_sections_in_order() {
    let (base, _dir) = start();
    let (status, headers, html) = get(&format!("{base}/kubernetes/kops/stop-requested/"));
    assert_eq!(status, 200, "{html}");
    assert!(header(&headers, "content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(html.len() < 50 * 1024, "{} bytes", html.len());
    let order = [
        "<h1>Error message</h1>",
        "<pre class=\"msg\">stop requested</pre>",
        "<h2>What it means</h2>",
        "<h2>Source</h2>",
        "dns-controller/pkg/dns/dnscontroller.go:265",
        "id=\"site\"",
        "View on GitHub (pinned to 4c8573c808)",
        "<h2>Solutions</h2>",
        "<h2>Defensive patterns</h2>",
        "<details>",
        "<h2>When it happens</h2>",
        "<h2>All sites</h2>",
        "<footer>",
        "Static analysis of kubernetes/kops@4c8573c808",
        "/api/errors/",
        "Report an issue",
    ];
    let mut at = 0;
    for part in order {
        let found = html[at..]
            .find(part)
            .unwrap_or_else(|| panic!("{part:?} missing or out of order"));
        at += found + part.len();
    }
    assert!(html.contains("\"@type\":\"TechArticle\"") && html.contains("\"@type\":\"FAQPage\""));
    assert!(html.contains(&format!(
        "<link rel=\"canonical\" href=\"{base}/kubernetes/kops/stop-requested/\">"
    )));
    assert!(html.contains("<link rel=\"alternate\" type=\"application/json\" href=\"/api/errors/"));
    assert!(html.contains("name=\"viewport\"") && !html.contains("<script src"));

    let (status, _, _) = get(&format!("{base}/kubernetes/kops/no-such-error/"));
    assert_eq!(status, 404);
    // Without the trailing slash: a permanent redirect (followed).
    let (status, _, body) = get(&format!("{base}/kubernetes/kops/stop-requested"));
    assert_eq!(status, 200);
    assert!(body.contains("stop requested"));
}

#[test]
fn api_record_matches_the_store_and_etags_work() {
    let (base, _dir) = start();
    let (_, _, repos) = get(&format!("{base}/api/repos"));
    let repos: serde_json::Value = serde_json::from_str(&repos).unwrap();
    assert_eq!(repos["repos"][0]["repo"], "kubernetes/kops");
    assert_eq!(repos["repos"][0]["records"], 4);
    let (_, _, list) = get(&format!(
        "{base}/api/repos/kubernetes/kops/errors?severity=info"
    ));
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list["total"], 1);
    let id = list["errors"][0]["id"].as_str().unwrap().to_string();
    let (status, headers, body) = get(&format!("{base}/api/errors/{id}"));
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["record"]["messagePattern"], "stop requested");
    assert_eq!(v["record"]["schemaVersion"], 2);
    assert!(v["datasetVersion"].is_string());
    let etag = header(&headers, "etag").unwrap().to_string();
    assert_eq!(
        etag,
        format!("W/\"{}\"", v["datasetVersion"].as_str().unwrap())
    );
    let r = agent()
        .get(&format!("{base}/api/errors/{id}"))
        .header("If-None-Match", &etag)
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 304);
    let (status, _, body) = get(&format!("{base}/api/errors/0000000000000000"));
    assert_eq!(status, 404);
    assert!(body.contains("no error with id"));
    let (status, _, _) = get(&format!("{base}/api/repos/no/such/errors"));
    assert_eq!(status, 404);
}

#[test]
fn search_is_tiered_and_explain_traces_raw_text() {
    let (base, _dir) = start();
    let q = "E1129 12:00:03.123456 1 apply_channel.go:130] serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use";
    let url = format!(
        "{base}/api/search?q={}",
        q.replace(' ', "%20")
            .replace(':', "%3A")
            .replace(']', "%5D")
    );
    let (status, _, body) = get(&url);
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let first = &v["results"][0];
    assert_eq!(first["messagePattern"], "serving readiness probe: %w");
    assert_eq!(first["matchType"], "traced");
    let scores: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]) && scores.iter().all(|s| (0.0..=1.0).contains(s))
    );
    let (_, _, body) = get(&format!("{base}/api/search?q=requested"));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["results"][0]["messagePattern"], "stop requested");
    assert_eq!(v["results"][0]["matchType"], "fulltext");
    let (status, _, _) = get(&format!("{base}/api/search?q="));
    assert_eq!(status, 400);

    let mut r = agent()
        .post(&format!("{base}/api/explain"))
        .header("Content-Type", "text/plain")
        .send(format!("{q}\nstop requested\n"))
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: serde_json::Value =
        serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    let ex = v["explanations"].as_array().unwrap();
    assert_eq!(ex.len(), 2);
    assert_eq!(
        ex[0]["frames"][0]["candidates"][0]["slug"],
        "serving-readiness-probe-w"
    );
    // The standard library's tail is the runtime's, with its remedy.
    let tail = &ex[0]["frames"][1];
    assert_eq!(
        tail["text"],
        "listen tcp 0.0.0.0:3989: bind: address already in use"
    );
    assert_eq!(
        tail["candidates"][0]["knowledge"]["key"],
        "go/net.OpError.listen"
    );
    assert!(tail["candidates"][0]["knowledge"]["remedy"].is_string());
    assert_eq!(ex[0]["verdict"], "traced");
    assert_eq!(ex[1]["verdict"], "ambiguous", "two sites print it");
    let r = agent()
        .post(&format!("{base}/api/explain"))
        .send("x".repeat(MAX_EXPLAIN_BYTES + 1))
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let r = agent()
        .post(&format!("{base}/api/explain"))
        .send("  \n")
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);

    let (status, _, html) = get(&format!("{base}/search?q=stop%20requested"));
    assert_eq!(status, 200);
    assert!(html.contains("href=\"/kubernetes/kops/stop-requested/\""));
}

#[test]
fn pages_and_machine_documents() {
    let (base, _dir) = start();
    let (status, _, home) = get(&format!("{base}/"));
    assert_eq!(status, 200);
    assert!(home.contains("href=\"/kubernetes/kops/\"") && home.contains("action=\"/search\""));
    let (_, _, repo) = get(&format!("{base}/kubernetes/kops/?severity=info"));
    assert!(repo.contains("stop requested") && !repo.contains("serving readiness probe"));
    assert!(repo.contains("1 matching"));
    let (status, _, fam) = get(&format!("{base}/info/graceful-shutdown/"));
    assert_eq!(status, 200);
    assert!(fam.contains("stop requested"));
    assert_eq!(get(&format!("{base}/info/no-such-family/")).0, 404);
    let (_, _, robots) = get(&format!("{base}/robots.txt"));
    assert!(robots.contains(&format!("Sitemap: {base}/sitemap.xml")));
    let (_, _, index) = get(&format!("{base}/sitemap.xml"));
    assert!(index.contains(&format!("<loc>{base}/sitemaps/kubernetes/kops.xml</loc>")));
    let (status, _, part) = get(&format!("{base}/sitemaps/kubernetes/kops.xml"));
    assert_eq!(status, 200);
    assert_eq!(
        part.matches("<url>").count(),
        5,
        "the repo page and four errors"
    );
    let (_, _, llms) = get(&format!("{base}/llms.txt"));
    assert!(llms.starts_with("# errdex") && llms.contains("kubernetes/kops"));
    let (_, _, api) = get(&format!("{base}/openapi.json"));
    let api: serde_json::Value = serde_json::from_str(&api).unwrap();
    for path in [
        "/api/errors/{id}",
        "/api/search",
        "/api/explain",
        "/api/repos/{owner}/{repo}/errors",
    ] {
        assert!(api["paths"][path].is_object(), "{path}");
    }
    let (_, _, health) = get(&format!("{base}/healthz"));
    assert!(health.contains("\"status\":\"ok\""));
    let (_, _, metrics) = get(&format!("{base}/metrics"));
    assert!(
        metrics.contains("errdex_http_requests_total{route=\"home\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("errdex_records{repo=\"kubernetes/kops\"} 4"));
    assert_eq!(get(&format!("{base}/api-docs/")).0, 200);
}

#[test]
fn answers_are_gzipped_when_asked() {
    let (base, _dir) = start();
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /kubernetes/kops/stop-requested/ HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let head =
        String::from_utf8_lossy(&buf[..buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap()])
            .to_lowercase();
    assert!(head.contains("content-encoding: gzip"), "{head}");
}

#[test]
fn the_dataset_export_lists_every_file_with_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let store = open_store(&db);
    let out = dir.path().join("dataset");
    let e = crate::export::export_dataset(&store, None, &out).unwrap();
    assert_eq!((e.errors, e.repos), (4, 1));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["schemaVersion"], 2);
    assert_eq!(manifest["counts"]["errors"], 4);
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(
        files.len(),
        4 + 3,
        "errors, index.json, repos.json, one repo file"
    );
    for f in files {
        let bytes = std::fs::read(out.join(f["path"].as_str().unwrap())).unwrap();
        assert_eq!(bytes.len() as u64, f["bytes"].as_u64().unwrap());
        let sha: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(sha, f["sha256"].as_str().unwrap());
    }
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("index.json")).unwrap()).unwrap();
    let id = index[0]["id"].as_str().unwrap();
    let one: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(format!("errors/{id}.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(one["record"]["id"], id);
    assert!(out.join("repos/kubernetes/kops.json").is_file());

    // A second export replaces the first whole, with a version not older.
    let first = manifest["datasetVersion"].as_str().unwrap().to_string();
    std::fs::write(out.join("stale.txt"), "left from before").unwrap();
    let again = crate::export::export_dataset(&store, None, &out).unwrap();
    assert!(
        again.dataset_version > first,
        "{} then {}",
        first,
        again.dataset_version
    );
    assert!(
        !out.join("stale.txt").exists(),
        "the old folder was swapped out"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".dataset"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary folders left");
    let err =
        crate::export::export_dataset(&store, Some("no/such"), &dir.path().join("x")).unwrap_err();
    assert!(err.to_string().contains("no records for no/such"), "{err}");
}

#[test]
fn every_link_of_the_exported_site_resolves() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let out = dir.path().join("site");
    let e = crate::export::export_site(open_store(&db), "https://errors.example", &out).unwrap();
    assert_eq!(e.errors, 4);
    let resolves = |link: &str| -> bool {
        let path = link
            .split(['?', '#'])
            .next()
            .unwrap()
            .trim_start_matches('/');
        let p = out.join(path);
        if link.ends_with('/') || path.is_empty() {
            p.join("index.html").is_file()
        } else {
            p.is_file()
        }
    };
    let mut pages = 0;
    let mut links = 0;
    let mut stack = vec![out.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                pages += 1;
                let html = std::fs::read_to_string(&p).unwrap();
                assert!(
                    !html.contains("action=\"/search\""),
                    "no server search in {}",
                    p.display()
                );
                for part in html.split("href=\"").skip(1) {
                    let link = &part[..part.find('"').unwrap()];
                    if link.starts_with('/') {
                        links += 1;
                        assert!(
                            resolves(link),
                            "{} links to {link}, which is missing",
                            p.display()
                        );
                    }
                }
            }
        }
    }
    // Home, the repo, its errors (at least four) and a family page.
    let at_least = 1 + 1 + 4 + 1;
    assert!(pages >= at_least, "home, repo, errors, a family: {pages}");
    assert!(links > 20, "{links} internal links");
    let index = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    for part in index.split("<loc>").skip(1).chain(
        std::fs::read_to_string(out.join("sitemaps/kubernetes/kops.xml"))
            .unwrap()
            .split("<loc>")
            .skip(1)
            .collect::<Vec<_>>(),
    ) {
        let url = &part[..part.find("</loc>").unwrap()];
        let link = url
            .strip_prefix("https://errors.example")
            .expect("absolute with the base URL");
        assert!(resolves(link), "sitemap lists {url}, which is missing");
    }
}

#[test]
fn api_record_has_the_seed_records_shape_field_by_field() {
    let (base, _dir) = start();
    let (_, _, list) = get(&format!("{base}/api/repos/kubernetes/kops/errors"));
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    let id = list["errors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["slug"] == "serving-readiness-probe-w")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, _, body) = get(&format!("{base}/api/errors/{id}"));
    let ours: serde_json::Value = serde_json::from_str(&body).unwrap();
    let seed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(errdex_testkit::fixtures().join("seed-record.json")).unwrap(),
    )
    .unwrap();
    let top: Vec<&String> = ours.as_object().unwrap().keys().collect();
    assert_eq!(top, ["record", "datasetVersion"]);
    let (o, s) = (
        ours["record"].as_object().unwrap(),
        seed["record"].as_object().unwrap(),
    );
    // The seed's fields, in the seed's order, first.
    let ours_keys: Vec<&String> = o.keys().take(s.len()).collect();
    let seed_keys: Vec<&String> = s.keys().collect();
    assert_eq!(ours_keys, seed_keys);
    let kind = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    };
    for (k, sv) in s {
        let ov = &o[k];
        if !sv.is_null() && !ov.is_null() {
            assert_eq!(kind(ov), kind(sv), "{k}");
        }
    }
    for k in [
        "id",
        "repo",
        "slug",
        "messagePattern",
        "filePath",
        "lineNumber",
        "sourceCode",
        "githubUrl",
        "analyzedSha",
    ] {
        if k != "id" {
            assert_eq!(o[k], s[k], "{k} matches the seed");
        }
    }
}

#[test]
fn a_reindex_shows_under_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let base = serve_db(db.clone());
    let page = format!("{base}/kubernetes/kops/stop-requested/");
    let (_, h1, first) = get(&page);
    assert_eq!(
        get(&page).2,
        first,
        "the second answer comes from the cache, unchanged"
    );
    // Re-index with a changed analysis: the next answer shows it, with a
    // new ETag (the version is read per request).
    let store = open_store(&db);
    let mut r = store
        .find_slug(Some("kubernetes/kops"), "stop-requested")
        .unwrap()
        .remove(0);
    r.documentation = Some("Changed by a re-index.".into());
    store.update_records(&[r]).unwrap();
    let (_, h2, second) = get(&page);
    assert!(second.contains("Changed by a re-index."));
    assert_ne!(header(&h1, "etag"), header(&h2, "etag"));
}

/// Handlers without a socket: the router called directly.
#[test]
fn handlers_answer_through_oneshot() {
    use tower::ServiceExt;
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let app = router(AppState::new(open_store(&db), "http://test"));
        let call = |uri: &str| {
            let app = app.clone();
            let req = axum::http::Request::get(uri)
                .body(axum::body::Body::empty())
                .unwrap();
            async move { app.oneshot(req).await.unwrap() }
        };
        let r = call("/healthz").await;
        assert_eq!(r.status(), StatusCode::OK);
        let r = call("/api/repos").await;
        assert_eq!(r.status(), StatusCode::OK);
        let body = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["repos"][0]["url"], "http://test/kubernetes/kops/");
        assert_eq!(
            call("/kubernetes/kops/stop-requested/").await.status(),
            StatusCode::OK
        );
        assert_eq!(
            call("/kubernetes/kops").await.status(),
            StatusCode::PERMANENT_REDIRECT
        );
        assert_eq!(
            call("/api/errors/nope").await.status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(call("/api/search").await.status(), StatusCode::BAD_REQUEST);
    });
}

/// A store that fails every call with text no client may see.
struct Broken;

fn broken<T>() -> errdex_store::Result<T> {
    Err(errdex_store::Error::Open {
        path: "/srv/secret/atlas.db".into(),
        message: "disk I/O error".into(),
    })
}

impl Store for Broken {
    fn replace_repo(&self, _: &errdex_model::RepoDataset) -> errdex_store::Result<String> {
        broken()
    }
    fn repos(&self) -> errdex_store::Result<Vec<errdex_store::RepoSummary>> {
        broken()
    }
    fn list(&self, _: &errdex_store::ListQuery) -> errdex_store::Result<Vec<errdex_model::Record>> {
        broken()
    }
    fn count(&self, _: &errdex_store::ListQuery) -> errdex_store::Result<u64> {
        broken()
    }
    fn get(&self, _: &str) -> errdex_store::Result<Option<errdex_model::Record>> {
        broken()
    }
    fn find_slug(
        &self,
        _: Option<&str>,
        _: &str,
    ) -> errdex_store::Result<Vec<errdex_model::Record>> {
        broken()
    }
    fn search(
        &self,
        _: &str,
        _: Option<&str>,
        _: usize,
    ) -> errdex_store::Result<Vec<errdex_model::Record>> {
        broken()
    }
    fn dynamic_sites(
        &self,
        _: Option<&str>,
    ) -> errdex_store::Result<Vec<(String, errdex_model::DynamicSite)>> {
        broken()
    }
    fn trace_rows(&self, _: Option<&str>) -> errdex_store::Result<Vec<errdex_store::TraceRow>> {
        broken()
    }
    fn dataset_version(&self) -> errdex_store::Result<Option<String>> {
        broken()
    }
    fn update_records(&self, _: &[errdex_model::Record]) -> errdex_store::Result<Option<String>> {
        broken()
    }
    fn cache_get(&self, _: &str) -> errdex_store::Result<Option<String>> {
        broken()
    }
    fn cache_put(&self, _: &str, _: &str, _: &str, _: &str) -> errdex_store::Result<()> {
        broken()
    }
}

/// Log lines written while `f` runs on this thread.
fn logged<T>(f: impl FnOnce() -> T) -> (T, String) {
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buf = Buf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let out = tracing::subscriber::with_default(subscriber, f);
    let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    (out, text)
}

/// Status, headers and body of one GET through the router, on this thread.
fn oneshot(app: Router, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    use tower::ServiceExt;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let req = axum::http::Request::get(uri)
            .body(axum::body::Body::empty())
            .unwrap();
        let r = app.oneshot(req).await.unwrap();
        let (parts, body) = r.into_parts();
        let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
        (
            parts.status,
            parts.headers,
            String::from_utf8_lossy(&body).into_owned(),
        )
    })
}

#[test]
fn an_internal_error_is_logged_and_answered_with_generic_text_and_the_request_id() {
    let app = router(AppState::new(Broken, "http://test"));
    for uri in [
        "/api/repos",
        "/",
        "/kubernetes/kops/stop-requested/",
        "/api/search?q=x",
    ] {
        let ((status, headers, body), log) = logged(|| oneshot(app.clone(), uri));
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{uri}: {body}");
        let id = headers[REQUEST_ID].to_str().unwrap();
        assert!(
            body.contains(id),
            "{uri}: the body names the request id: {body}"
        );
        assert!(
            !body.contains("secret") && !body.contains("disk I/O"),
            "{uri}: no store text reaches the client: {body}"
        );
        assert!(
            log.contains("internal error") && log.contains("disk I/O error") && log.contains(id),
            "{uri}: the log has the error under the id: {log}"
        );
    }
}

#[test]
fn every_request_is_logged_with_method_path_status_and_latency() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let app = router(AppState::new(open_store(&db), "http://test"));
    let ((status, headers, _), log) = logged(|| oneshot(app.clone(), "/api/errors/nope"));
    assert_eq!(status, StatusCode::NOT_FOUND);
    let id = headers[REQUEST_ID].to_str().unwrap();
    let line = log
        .lines()
        .find(|l| l.contains("request") && l.contains(id))
        .unwrap_or_else(|| panic!("no request line in {log}"));
    for part in [
        "method=GET",
        "path=/api/errors/nope",
        "status=404",
        "latency_ms=",
    ] {
        assert!(line.contains(part), "{part} in {line}");
    }
    // A client's own id is kept, so its logs and ours line up.
    let mut req = axum::http::Request::get("/healthz")
        .body(axum::body::Body::empty())
        .unwrap();
    req.headers_mut()
        .insert(REQUEST_ID, "client-42".parse().unwrap());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let r = rt.block_on(tower::ServiceExt::oneshot(app, req)).unwrap();
    assert_eq!(r.headers()[REQUEST_ID], "client-42");
}

/// The seed records as if indexed over two versions: the first record
/// only in v1 (removed in v2), the rest in both.
#[test]
fn repositories_list_their_versions_and_a_version_page_lists_what_it_prints() {
    let dir = tempfile::tempdir().unwrap();
    let seed = errdex_testkit::fixtures().join("seed");
    let mut ds = errdex_testkit::index_copy(&seed, "kubernetes/kops", Some(SHA));
    errdex_analyze::analyze_all(&mut ds.records);
    ds.versions = ["v1", "v2"]
        .iter()
        .map(|v| errdex_model::RepoVersion {
            name: v.to_string(),
            commit: SHA.into(),
            date: None,
        })
        .collect();
    for (i, r) in ds.records.iter_mut().enumerate() {
        let last = if i == 0 { "v1" } else { "v2" };
        r.first_seen = Some("v1".into());
        r.last_seen = Some(last.into());
        r.removed_in = (i == 0).then(|| "v2".to_string());
        r.versions = vec![errdex_model::VersionRange {
            from: "v1".into(),
            to: last.into(),
            commit: SHA.into(),
            file_path: r.file_path.clone(),
            line_number: r.line_number,
            github_url: r.github_url.clone(),
        }];
    }
    let (removed, total) = (ds.records[0].slug.clone(), ds.records.len());
    let db = dir.path().join("atlas.db");
    open_store(&db).replace_repo(&ds).unwrap();
    let base = serve_db(db);
    let (_, _, body) = get(&format!("{base}/api/repos"));
    let repos: serde_json::Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = repos["repos"][0]["versions"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["v1", "v2"]);
    let (_, _, home) = get(&format!("{base}/"));
    assert!(home.contains("2 (v1 – v2)"), "{home}");
    let (_, _, all) = get(&format!("{base}/kubernetes/kops/"));
    assert!(
        all.contains(&format!("{total} matching")) && all.contains("?version=v2"),
        "{all}"
    );
    let (_, _, v2) = get(&format!("{base}/kubernetes/kops/?version=v2"));
    assert!(v2.contains(&format!("{} matching", total - 1)), "{v2}");
    assert!(
        !v2.contains(&format!("/{removed}/")),
        "v2 does not print {removed}"
    );
    let (_, _, api) = get(&format!(
        "{base}/api/repos/kubernetes/kops/errors?version=v1"
    ));
    let api: serde_json::Value = serde_json::from_str(&api).unwrap();
    assert_eq!(api["total"], total);
    let (_, _, page) = get(&format!("{base}/kubernetes/kops/{removed}/"));
    assert!(page.contains("present in v1, removed in v2"), "{page}");
}
