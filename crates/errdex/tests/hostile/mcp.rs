//! Malformed messages to a real `errdex mcp`: each gets its JSON-RPC
//! error, and the session goes on to answer proper requests.

use super::seed_db;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Session {
    fn start(db: &std::path::Path) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
            .arg("--db")
            .arg(db)
            .arg("mcp")
            .env_remove("ERRDEX_DB")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line and reads the one answer line.
    fn ask(&mut self, line: &str) -> Value {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        let n = self.stdout.read_line(&mut answer).unwrap();
        assert!(
            n > 0,
            "no answer to {:.200}: the server exited ({:?})",
            line,
            self.child.try_wait()
        );
        assert!(answer.len() < 8 << 20, "{} bytes", answer.len());
        serde_json::from_str(&answer).unwrap()
    }

    fn tell(&mut self, line: &str) {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn code(v: &Value) -> i64 {
    v["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}"#;

#[test]
fn every_malformed_message_is_answered_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let mut s = Session::start(&db);

    // Before initialize.
    assert_eq!(
        code(&s.ask(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#)),
        -32002
    );
    assert_eq!(
        code(&s.ask(r#"{"jsonrpc":"2.0","id":6,"method":"initialize"}"#)),
        -32602
    );
    assert_eq!(code(&s.ask("{oops")), -32700);
    let mut answered = 3;
    for bad in [
        r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list"}"#,
        r#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#,
        r#"[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]"#,
    ] {
        let v = s.ask(bad);
        assert!(matches!(code(&v), -32600 | -32700), "{bad}: {v}");
        answered += 1;
    }

    let v = s.ask(INIT);
    assert_eq!(v["id"], 1);
    assert!(v["result"]["serverInfo"]["name"].is_string(), "{v}");
    s.tell(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(code(&s.ask(INIT)), -32600, "a second initialize");
    assert_eq!(
        code(&s.ask(r#"{"jsonrpc":"2.0","id":"x","method":"tools/list","params":5}"#)),
        -32602
    );

    // 3 MB of text to explain: an error, not a 200 MB answer.
    let huge = json!({"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"explain_error","arguments":{"text":"x".repeat(3 << 20)}}});
    let v = s.ask(&huge.to_string());
    assert_eq!(code(&v), -32600, "{v}");
    let big = json!({"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"explain_error","arguments":{"text":"y".repeat(100 << 10)}}});
    assert_eq!(s.ask(&big.to_string())["id"], 21);
    answered += 5;

    // The session still works.
    let v = s.ask(r#"{"jsonrpc":"2.0","id":30,"method":"tools/list"}"#);
    assert_eq!(
        v["result"]["tools"].as_array().map(Vec::len),
        Some(4),
        "{v}"
    );
    let call = json!({"jsonrpc":"2.0","id":31,"method":"tools/call","params":{"name":"search_error","arguments":{"message":"stop requested"}}});
    let v = s.ask(&call.to_string());
    assert!(
        v["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("stop")),
        "{v}"
    );
    assert!(answered >= 13);
}
