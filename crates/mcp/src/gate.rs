//! The gate between the client's stdio and the MCP SDK: every message the
//! client writes is checked here first, and every malformed one gets the
//! JSON-RPC error it calls for while the session goes on. The SDK ends the
//! process on a request before `initialize` or an `initialize` without
//! params, and says nothing to ids it cannot read; here those get -32002,
//! -32602 and -32600. Messages and answers are capped in size.

use serde_json::{json, Value};

/// Largest message read from the client (a 64 KiB log text with its JSON
/// escapes and envelope); a longer line is answered -32600 and skipped.
pub const MAX_MESSAGE: usize = 192 * 1024;
/// Largest text `explain_error` traces, as the HTTP API's limit.
pub const MAX_TEXT: usize = 64 * 1024;
/// Largest answer written to the client; a longer one is replaced by an
/// error that says to ask for less.
pub const MAX_ANSWER: usize = 4 * 1024 * 1024;

/// Where the session stands, as the gate sees it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No `initialize` yet.
    #[default]
    New,
    /// `initialize` passed on; `notifications/initialized` not yet.
    Initializing,
    /// The session is open.
    Ready,
}

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Hand these lines to the SDK, in order.
    Pass(Vec<String>),
    /// Answer the client with this message; the SDK never sees the line.
    Answer(Value),
    /// Drop it (a notification that is not for this phase, a blank line).
    Drop,
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Whether `id` is one JSON-RPC allows and the SDK reads: a string, or an
/// integer that fits 64 bits.
fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// Whether `initialize`'s params have what the protocol requires.
fn valid_initialize(params: Option<&Value>) -> bool {
    let Some(p) = params.and_then(Value::as_object) else {
        return false;
    };
    let info = p.get("clientInfo").and_then(Value::as_object);
    p.get("protocolVersion").is_some_and(Value::is_string)
        && p.get("capabilities").is_some_and(Value::is_object)
        && info.is_some_and(|i| {
            i.get("name").is_some_and(Value::is_string)
                && i.get("version").is_some_and(Value::is_string)
        })
}

/// Judges one line from the client and moves the phase on.
pub fn judge(line: &str, phase: &mut Phase) -> Verdict {
    if line.trim().is_empty() {
        return Verdict::Drop;
    }
    if line.len() > MAX_MESSAGE {
        return Verdict::Answer(error(
            Value::Null,
            -32600,
            &format!(
                "message larger than {} KiB; send less text per call",
                MAX_MESSAGE / 1024
            ),
        ));
    }
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Verdict::Answer(error(Value::Null, -32700, &format!("parse error: {e}"))),
    };
    let Some(msg) = v.as_object() else {
        let what = if v.is_array() {
            "batches are not supported; send one message per line"
        } else {
            "a message is a JSON object"
        };
        return Verdict::Answer(error(Value::Null, -32600, what));
    };
    let id = msg.get("id");
    if id.is_some_and(|id| !valid_id(id)) {
        return Verdict::Answer(error(
            Value::Null,
            -32600,
            "id must be a string or an integer",
        ));
    }
    let reply_id = id.cloned().unwrap_or(Value::Null);
    let invalid = |why: &str| match id {
        Some(_) => Verdict::Answer(error(reply_id.clone(), -32600, why)),
        None => Verdict::Drop,
    };
    if msg.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("\"jsonrpc\" must be \"2.0\"");
    }
    let method = match msg.get("method") {
        Some(Value::String(m)) => m.as_str(),
        Some(_) => return invalid("\"method\" must be a string"),
        // A response to a request of the server's.
        None if id.is_some() && (msg.contains_key("result") || msg.contains_key("error")) => {
            return match phase {
                Phase::Ready => Verdict::Pass(vec![line.to_string()]),
                _ => Verdict::Drop,
            };
        }
        None => return invalid("a request needs a \"method\""),
    };
    if msg.get("params").is_some_and(|p| !p.is_object()) {
        return match id {
            Some(_) => Verdict::Answer(error(reply_id, -32602, "\"params\" must be an object")),
            None => Verdict::Drop,
        };
    }
    let request = id.is_some();
    match (*phase, method) {
        (Phase::New, "initialize") if request => {
            if !valid_initialize(msg.get("params")) {
                return Verdict::Answer(error(
                    reply_id,
                    -32602,
                    "initialize needs params with protocolVersion, capabilities and clientInfo {name, version}",
                ));
            }
            *phase = Phase::Initializing;
            Verdict::Pass(vec![line.to_string()])
        }
        (Phase::New, _) if request => Verdict::Answer(error(
            reply_id,
            -32002,
            "server not initialized: send initialize first",
        )),
        (Phase::New, _) => Verdict::Drop,
        (_, "initialize") if request => {
            Verdict::Answer(error(reply_id, -32600, "already initialized"))
        }
        (Phase::Initializing, "notifications/initialized") => {
            *phase = Phase::Ready;
            Verdict::Pass(vec![line.to_string()])
        }
        // A client that asks before saying it is ready: the SDK waits for
        // that notification, so it is sent on the client's behalf.
        (Phase::Initializing, _) if request => {
            *phase = Phase::Ready;
            let ready =
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
            Verdict::Pass(vec![ready, line.to_string()])
        }
        (Phase::Initializing, _) => Verdict::Drop,
        (Phase::Ready, "notifications/initialized") => Verdict::Drop,
        (Phase::Ready, _) => Verdict::Pass(vec![line.to_string()]),
    }
}

/// The answer line to write for one line of the SDK's: itself, or when it
/// is larger than [`MAX_ANSWER`], an error for the same id.
pub fn bounded_answer(line: String) -> String {
    if line.len() <= MAX_ANSWER {
        return line;
    }
    let id = serde_json::from_str::<Value>(&line)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(Value::Null);
    error(
        id,
        -32603,
        &format!(
            "the answer is larger than {} MiB; ask for less (a shorter text, a smaller limit)",
            MAX_ANSWER >> 20
        ),
    )
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

    fn code(v: &Verdict) -> i64 {
        match v {
            Verdict::Answer(a) => a["error"]["code"].as_i64().unwrap(),
            other => panic!("no answer: {other:?}"),
        }
    }

    #[test]
    fn malformed_messages_get_the_json_rpc_error_they_call_for() {
        let mut p = Phase::Ready;
        assert_eq!(code(&judge("{not json", &mut p)), -32700);
        assert_eq!(code(&judge("[1,2]", &mut p)), -32600);
        assert_eq!(code(&judge("42", &mut p)), -32600);
        for id in ["null", "{}", "[1]", "1.5", "1e30", "true"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
            let v = judge(&line, &mut p);
            assert_eq!(code(&v), -32600, "id {id}");
        }
        let v = judge(r#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#, &mut p);
        assert_eq!(code(&v), -32600);
        let Verdict::Answer(a) = v else {
            unreachable!()
        };
        assert_eq!(a["id"], 7, "the answer names the request");
        assert_eq!(
            code(&judge(r#"{"jsonrpc":"2.0","id":"x","method":3}"#, &mut p)),
            -32600
        );
        assert_eq!(
            code(&judge(
                r#"{"jsonrpc":"2.0","id":"x","method":"tools/list","params":5}"#,
                &mut p
            )),
            -32602
        );
        assert_eq!(code(&judge(&"x".repeat(MAX_MESSAGE + 1), &mut p)), -32600);
        assert_eq!(
            judge(r#"{"jsonrpc":"2.0","method":7}"#, &mut p),
            Verdict::Drop,
            "no id: nothing to answer"
        );
    }

    #[test]
    fn the_session_opens_only_with_a_proper_initialize() {
        let mut p = Phase::New;
        assert_eq!(
            code(&judge(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                &mut p
            )),
            -32002
        );
        assert_eq!(
            code(&judge(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
                &mut p
            )),
            -32602
        );
        assert_eq!(
            code(&judge(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
                &mut p
            )),
            -32602
        );
        assert_eq!(p, Phase::New);
        assert_eq!(judge(INIT, &mut p), Verdict::Pass(vec![INIT.into()]));
        assert_eq!(p, Phase::Initializing);
        // A request before the initialized notification: it is sent first.
        let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
        let Verdict::Pass(lines) = judge(list, &mut p) else {
            panic!()
        };
        assert!(lines[0].contains("notifications/initialized") && lines[1] == list);
        assert_eq!(p, Phase::Ready);
        assert_eq!(code(&judge(INIT, &mut p)), -32600, "a second initialize");
    }

    #[test]
    fn an_answer_too_large_becomes_an_error_for_its_id() {
        let big =
            json!({"jsonrpc": "2.0", "id": 9, "result": {"t": "x".repeat(MAX_ANSWER)}}).to_string();
        let v: Value = serde_json::from_str(&bounded_answer(big)).unwrap();
        assert_eq!(v["id"], 9);
        assert_eq!(v["error"]["code"], -32603);
        assert_eq!(bounded_answer("{}".into()), "{}");
    }
}
