//! `errdex serve` and `errdex up` as processes: they print their URL, answer
//! over HTTP, and name a busy address.

use super::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};

/// Starts errdex with `args`; the child and the URL it printed.
pub(super) fn start(db: &Path, args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("errdex printed its URL").unwrap();
        if let Some(rest) = line.split(" at http://").nth(1) {
            break format!("http://{}", rest.split('/').next().unwrap());
        }
    };
    (child, url)
}

pub(super) fn http_get(url: &str, path: &str) -> String {
    let addr = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_answers_and_up_indexes_first() {
    let env = Env::new("seed");
    env.index();
    let (mut child, url) = start(&env.db(), &["serve", "--addr", "127.0.0.1:0"]);
    let health = http_get(&url, "/healthz");
    assert!(
        health.starts_with("HTTP/1.1 200") && health.contains("\"status\":\"ok\""),
        "{health}"
    );
    let page = http_get(&url, "/kubernetes/kops/stop-requested/");
    assert!(page.contains("<h1>Error message</h1>"), "{page}");

    // A second server on the same address is refused with a clear error.
    let addr = url.trim_start_matches("http://").to_string();
    let o = errdex(&env.db(), &["serve", "--addr", &addr]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("cannot listen on {addr}")),
        "{}",
        stderr(&o)
    );
    child.kill().unwrap();
    child.wait().unwrap();

    let fresh = env.dir.path().join("up.db");
    let tree = env.tree();
    let (mut child, url) = start(
        &fresh,
        &[
            "up",
            tree.to_str().unwrap(),
            "--repo",
            "kubernetes/kops",
            "--addr",
            "127.0.0.1:0",
        ],
    );
    let repos = http_get(&url, "/api/repos");
    assert!(
        repos.contains("\"repo\":\"kubernetes/kops\"") && repos.contains("\"records\":4"),
        "{repos}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}
