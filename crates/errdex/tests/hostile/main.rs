//! The reliability and security campaign as tests: hostile source trees,
//! kills during index and export, slow and abusive HTTP clients against a
//! real `errdex serve`, malformed messages to a real `errdex mcp`.

mod http;
mod kills;
mod mcp;
mod terminal;
mod trees;

use std::path::Path;
use std::process::{Command, Output};

fn errdex(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .output()
        .expect("errdex runs")
}

/// Runs errdex with `args` and `input` on its stdin.
fn errdex_fed(db: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("errdex runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The seed fixture indexed as kubernetes/kops into `dir/atlas.db`.
fn seed_db(dir: &Path) -> std::path::PathBuf {
    let tree = dir.join("seed");
    errdex_testkit::copy_tree(&errdex_testkit::fixtures().join("seed"), &tree);
    let db = dir.join("atlas.db");
    let o = errdex(
        &db,
        &["index", tree.to_str().unwrap(), "--repo", "kubernetes/kops"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    db
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A running `errdex serve` on a free port, killed when dropped.
struct Server {
    child: std::process::Child,
    addr: String,
}

impl Server {
    /// Starts `errdex serve` over `db` with `extra` flags and waits for
    /// its address.
    fn start(db: &Path, extra: &[&str]) -> Server {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
            .arg("--db")
            .arg(db)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .env_remove("ERRDEX_DB")
            .stderr(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("errdex serve starts");
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let line = lines.next().expect("a first line").unwrap();
        let addr = line
            .split(" at http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        // Keep reading the log so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, addr }
    }

    /// Status and body of a GET of `path`.
    fn get(&self, path: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (status, out)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
