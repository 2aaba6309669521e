//! The LLM client against real processes: a local HTTP server inside the
//! test that speaks the chat-completions protocol and plays back scripted
//! answers, and a shell script as the subprocess provider.

use errdex_llm::{build, Config, Session, Stats};
use errdex_model::Record;
use errdex_store::{SqliteStore, Store};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the server answers to one request.
#[derive(Clone)]
enum Reply {
    /// 200 with this assistant message content.
    Content(String),
    /// 200 with a refusal.
    Refusal,
    /// Any status, extra headers, body.
    Status(u16, Vec<(&'static str, String)>, String),
    /// Accepts and says nothing for this long.
    Hang(Duration),
}

struct Server {
    url: String,
    requests: Arc<AtomicUsize>,
    bodies: Arc<Mutex<Vec<Value>>>,
    script: Arc<Mutex<VecDeque<Reply>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Mutex<VecDeque<Reply>>> = Arc::default();
        let (r, b, s) = (requests.clone(), bodies.clone(), script.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (r, b, s) = (r.clone(), b.clone(), s.clone());
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut len = 0;
                    let mut line = String::new();
                    let mut first = true;
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if first {
                            assert!(line.starts_with("POST /v1/chat/completions "), "{line}");
                            first = false;
                        }
                        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                            len = v.trim().parse().unwrap();
                        }
                        if line == "\r\n" {
                            break;
                        }
                    }
                    let mut body = vec![0; len];
                    reader.read_exact(&mut body).unwrap();
                    b.lock()
                        .unwrap()
                        .push(serde_json::from_slice(&body).unwrap());
                    r.fetch_add(1, Ordering::SeqCst);
                    let reply = s
                        .lock()
                        .unwrap()
                        .pop_front()
                        .expect("a scripted reply is left");
                    let (status, headers, body) = match reply {
                        Reply::Content(c) => (200, vec![], json!({
                            "choices": [{"message": {"role": "assistant", "content": c}, "finish_reason": "stop"}],
                            "usage": {"total_tokens": 100}
                        }).to_string()),
                        Reply::Refusal => (200, vec![], json!({
                            "choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]
                        }).to_string()),
                        Reply::Status(code, headers, body) => (code, headers, body),
                        Reply::Hang(d) => {
                            std::thread::sleep(d);
                            return;
                        }
                    };
                    let mut resp = format!("HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
                    for (k, v) in headers {
                        resp.push_str(&format!("{k}: {v}\r\n"));
                    }
                    resp.push_str("\r\n");
                    resp.push_str(&body);
                    let _ = stream.write_all(resp.as_bytes());
                });
            }
        });
        Server {
            url,
            requests,
            bodies,
            script,
        }
    }

    fn play(&self, replies: Vec<Reply>) {
        self.script.lock().unwrap().extend(replies);
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// Two analysed records of the shop fixture.
fn records() -> Vec<Record> {
    let shop = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../analyze/tests/fixtures/shop");
    let mut rs = errdex_testkit::index_copy(&shop, "example/shop", None).records;
    errdex_analyze::analyze_all(&mut rs);
    rs.retain(|r| {
        r.message_pattern == "invalid quantity %d" || r.message_pattern == "item not found"
    });
    assert_eq!(rs.len(), 2);
    rs
}

/// A valid answer for these records.
fn answer_for(records: &[Record]) -> String {
    let items: Vec<Value> = records
        .iter()
        .map(|r| json!({
            "id": r.id,
            "documentation": format!("LLM: {} is returned by the inventory package.", r.message_pattern),
            "triggerScenarios": "The caller passes a bad value.",
            "commonSituations": "When orders are placed.",
            "solutions": ["Check the value.", "See inventory/store.go for the check."],
            "exampleFix": null,
            "handlingStrategy": "validation",
            "validationCode": "if qty <= 0 {\n\treturn errInvalid\n}",
            "typeGuard": null,
            "tryCatchPattern": "```go\nif err := s.Reserve(sku, qty); err != nil {\n\treturn err\n}\n```",
            "preventionTips": ["Validate quantities at the API edge."],
            "tags": ["inventory", "validation"],
            "backgroundTag": "invalid-argument",
            "severity": "warning"
        }))
        .collect();
    json!({"records": items}).to_string()
}

fn config(url: &str, script: Option<&Path>, extra: &str) -> Config {
    let fallback = match script {
        Some(p) => format!(
            "fallback = \"script\"\n{extra}\n[providers.script]\nkind = \"command\"\ncommand = [\"sh\", \"{}\"]\nmodel = \"script-model\"\n",
            p.display()
        ),
        None => format!("{extra}\n"),
    };
    let text = format!(
        "[llm]\nprimary = \"local\"\nconcurrency = 1\ntimeout_secs = 2\nmax_backoff_secs = 5\n{fallback}\n[providers.local]\nkind = \"openai\"\nbase_url = \"{url}\"\nmodel = \"test-model\"\n"
    );
    Config::parse(&text, "test.toml").unwrap()
}

fn session<'a>(c: &Config, cache: &'a SqliteStore) -> Session<'a> {
    Session {
        settings: c.llm.clone(),
        primary: build(&c.llm.primary, c.provider(&c.llm.primary).unwrap()).unwrap(),
        fallback: c
            .llm
            .fallback
            .as_ref()
            .map(|f| build(f, c.provider(f).unwrap()).unwrap()),
        verifier: c
            .llm
            .verifier
            .as_ref()
            .map(|f| build(f, c.provider(f).unwrap()).unwrap()),
        cache,
        now: "2026-11-29T12:00:00.000Z".into(),
    }
}

/// Runs a session; the records it wrote, and its counts.
fn run(s: &Session<'_>, records: Vec<Record>, verify: bool) -> (Vec<Record>, Stats) {
    let mut written = Vec::new();
    let stats = s.run(records, verify, &|_, _| {}, &mut |batch| {
        written.extend(batch)
    });
    written.sort_by(|a: &Record, b| a.message_pattern.cmp(&b.message_pattern));
    (written, stats)
}

fn analyzers(rs: &[Record]) -> Vec<String> {
    rs.iter()
        .map(|r| r.analyzer.clone().unwrap_or_default())
        .collect()
}

#[test]
fn good_answers_are_applied_and_a_rerun_sends_nothing() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "");
    server.play(vec![Reply::Content(answer_for(&rs))]);
    let (out, stats) = run(&session(&c, &cache), rs.clone(), false);
    assert_eq!(server.requests(), 1, "two records, one batch");
    assert_eq!(analyzers(&out), ["llm:local/test-model"; 2]);
    assert!(out[0]
        .documentation
        .as_deref()
        .unwrap()
        .starts_with("LLM: "));
    assert!(
        out[0]
            .try_catch_pattern
            .as_deref()
            .unwrap()
            .starts_with("if err := s.Reserve"),
        "fence removed"
    );
    assert_eq!(
        (stats.by_primary, stats.tokens, stats.kept_static),
        (2, 100, 0)
    );
    // The request carried the facts and asked for JSON.
    let body = server.bodies.lock().unwrap()[0].clone();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["response_format"]["type"], "json_object");
    let prompt = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("\"messagePattern\": \"invalid quantity %d\"")
            && prompt.contains("qty <= 0")
    );

    // Same facts, same provider and model: answered from the cache.
    let (again, stats) = run(&session(&c, &cache), rs, false);
    assert_eq!(server.requests(), 1, "the re-run sent no request");
    assert_eq!(stats.cached, 2);
    assert_eq!(again, out);
}

#[test]
fn json_behind_a_preamble_or_in_a_fence_is_found() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "batch = 1");
    let a0 = answer_for(&rs[..1]);
    let a1 = answer_for(&rs[1..]);
    server.play(vec![
        Reply::Content(format!(
            "Sure! Here is the analysis:\n\n{a0}\n\nLet me know."
        )),
        Reply::Content(format!("```json\n{a1}\n```")),
    ]);
    let (out, stats) = run(&session(&c, &cache), rs, false);
    assert_eq!(analyzers(&out), ["llm:local/test-model"; 2]);
    assert_eq!((stats.calls, stats.failed_calls), (2, 0));
}

#[test]
fn truncated_or_fabricating_answers_are_retried_once() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "");
    let good = answer_for(&rs);
    let mut lying: Value = serde_json::from_str(&good).unwrap();
    lying["records"][0]["commonSituations"] =
        json!("Check deploy/shop-values.yaml and https://example.com/fix.");
    server.play(vec![
        Reply::Content(good[..good.len() / 2].to_string()),
        Reply::Content(good.clone()),
    ]);
    let (out, stats) = run(&session(&c, &cache), rs.clone(), false);
    assert_eq!(server.requests(), 2, "the truncated answer was retried");
    assert_eq!(analyzers(&out), ["llm:local/test-model"; 2]);
    assert_eq!((stats.kept_static, stats.failed_calls), (0, 1));

    // One record's answer names a file and a URL the facts do not hold:
    // that record alone is asked again.
    let cache = SqliteStore::open_in_memory().unwrap();
    server.play(vec![
        Reply::Content(lying.to_string()),
        Reply::Content(answer_for(&rs[..1])),
    ]);
    let (out, stats) = run(&session(&c, &cache), rs.clone(), false);
    assert_eq!(server.requests(), 4);
    let retry = server.bodies.lock().unwrap()[3]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(retry.contains("invalid quantity %d") && !retry.contains("item not found"));
    assert_eq!(analyzers(&out), ["llm:local/test-model"; 2]);
    let all: String = out
        .iter()
        .map(|r| r.common_situations.clone().unwrap())
        .collect();
    assert!(
        !all.contains("example.com"),
        "the fabricated answer never landed"
    );
    assert_eq!(stats.kept_static, 0);

    // Fabricating twice keeps the static analysis.
    let cache = SqliteStore::open_in_memory().unwrap();
    server.play(vec![
        Reply::Content(lying.to_string()),
        Reply::Content(lying.to_string()),
    ]);
    let (out, stats) = run(&session(&c, &cache), rs, false);
    assert_eq!(analyzers(&out), ["static", "llm:local/test-model"]);
    assert!(
        stats.reasons[0].contains("deploy/shop-values.yaml"),
        "{:?}",
        stats.reasons
    );
}

#[test]
fn refusals_go_to_the_fallback_command() {
    let server = Server::start();
    let rs = records();
    let dir = tempfile::tempdir().unwrap();
    let script = subprocess_script(dir.path(), &answer_for(&rs), &["good"]);
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, Some(&script), "");
    server.play(vec![Reply::Refusal, Reply::Refusal]);
    let (out, stats) = run(&session(&c, &cache), rs.clone(), false);
    assert_eq!(server.requests(), 2, "the refusal was retried once");
    assert_eq!(analyzers(&out), ["llm:script/script-model"; 2]);
    assert_eq!(stats.by_fallback, 2);
    assert_eq!(calls(dir.path()), 1);
    // The fallback's answer is cached too.
    server.play(vec![Reply::Refusal, Reply::Refusal]);
    let (_, stats) = run(&session(&c, &cache), rs, false);
    assert_eq!((stats.cached, calls(dir.path())), (2, 1));
}

#[test]
fn rate_limits_wait_for_retry_after() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "");
    server.play(vec![
        Reply::Status(
            429,
            vec![("Retry-After", "1".into())],
            "{\"error\":\"slow down\"}".into(),
        ),
        Reply::Content(answer_for(&rs)),
    ]);
    let t = Instant::now();
    let (out, stats) = run(&session(&c, &cache), rs, false);
    assert!(t.elapsed() >= Duration::from_secs(1), "waited as asked");
    assert_eq!(stats.rate_limited, 1);
    assert_eq!(analyzers(&out), ["llm:local/test-model"; 2]);
}

#[test]
fn server_errors_and_hangs_keep_the_static_analysis() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "");
    server.play(vec![
        Reply::Status(500, vec![], "{\"error\":\"boom\"}".into()),
        Reply::Hang(Duration::from_secs(30)),
    ]);
    let t = Instant::now();
    let (out, stats) = run(&session(&c, &cache), rs.clone(), false);
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "the hung call was abandoned: {:?}",
        t.elapsed()
    );
    assert_eq!(analyzers(&out), ["static"; 2]);
    assert_eq!(
        out[0].documentation,
        rs.iter().find(|r| r.id == out[0].id).unwrap().documentation
    );
    assert_eq!(stats.kept_static, 2);
    assert!(
        stats.reasons.iter().any(|r| r.contains("HTTP 500")),
        "{:?}",
        stats.reasons
    );
    assert!(
        stats
            .reasons
            .iter()
            .any(|r| r.contains("no answer within 2 s")),
        "{:?}",
        stats.reasons
    );
}

#[test]
fn the_token_budget_stops_sending() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "batch = 1\ntoken_budget = 50");
    server.play(vec![Reply::Content(answer_for(&rs[..1]))]);
    let (out, stats) = run(&session(&c, &cache), rs, false);
    assert_eq!(server.requests(), 1, "the second record was never sent");
    assert_eq!(stats.tokens, 100);
    assert_eq!(analyzers(&out).iter().filter(|a| *a == "static").count(), 1);
    assert!(stats.reasons.iter().any(|r| r.contains("token budget")));
}

#[test]
fn verify_applies_only_patches_that_validate() {
    let server = Server::start();
    let rs = records();
    let cache = SqliteStore::open_in_memory().unwrap();
    let c = config(&server.url, None, "verifier = \"local\"");
    let patches = json!({"records": [
        {"id": rs[0].id, "patches": {"severity": "info", "solutions": ["Reviewed: check the value first."]}},
        {"id": rs[1].id, "patches": {"typeGuard": "if errors.Is(err, { {"}},
    ]});
    server.play(vec![
        Reply::Content(answer_for(&rs)),
        Reply::Content(patches.to_string()),
    ]);
    let (out, stats) = run(&session(&c, &cache), rs.clone(), true);
    assert_eq!((stats.verified_patched, stats.patches_rejected), (1, 1));
    let patched = out.iter().rev().find(|r| r.id == rs[0].id).unwrap();
    assert_eq!(patched.solutions, ["Reviewed: check the value first."]);
    assert_eq!(
        patched.analyzer.as_deref(),
        Some("llm:local/test-model+verify:llm:local/test-model")
    );
}

/// A shell script provider that plays `modes` in turn and counts calls.
fn subprocess_script(dir: &Path, answer: &str, modes: &[&str]) -> PathBuf {
    std::fs::write(dir.join("answer.json"), answer).unwrap();
    std::fs::write(dir.join("modes"), modes.join("\n") + "\n").unwrap();
    let script = dir.join("provider.sh");
    let d = dir.display();
    std::fs::write(
        &script,
        format!(
            r#"cat > "{d}/prompt.txt"
echo call >> "{d}/calls"
mode=$(head -n 1 "{d}/modes")
tail -n +2 "{d}/modes" > "{d}/modes.next"; mv "{d}/modes.next" "{d}/modes"
case "$mode" in
  good) cat "{d}/answer.json" ;;
  preamble) echo "Here is the JSON you asked for:"; cat "{d}/answer.json" ;;
  fenced) echo '```json'; cat "{d}/answer.json"; echo; echo '```' ;;
  truncated) head -c 60 "{d}/answer.json" ;;
  refuse) echo "I cannot help with that request." ;;
  hang) sleep 30 ;;
  busy) exit 75 ;;
  *) echo "no mode" >&2; exit 3 ;;
esac
"#
        ),
    )
    .unwrap();
    script
}

fn calls(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("calls")).map_or(0, |s| s.lines().count())
}

fn script_config(script: &Path, extra: &str) -> Config {
    let text = format!(
        "[llm]\nprimary = \"script\"\nconcurrency = 1\ntimeout_secs = 2\nmax_backoff_secs = 1\n{extra}\n[providers.script]\nkind = \"command\"\ncommand = [\"sh\", \"{}\"]\nmodel = \"script-model\"\n",
        script.display()
    );
    Config::parse(&text, "test.toml").unwrap()
}

#[test]
fn the_subprocess_provider_handles_every_kind_of_answer() {
    let rs = records();
    for (modes, expect_llm, expect_calls) in [
        (&["good"][..], true, 1),
        (&["preamble"][..], true, 1),
        (&["fenced"][..], true, 1),
        (&["truncated", "good"][..], true, 2),
        (&["refuse", "refuse"][..], false, 2),
        (&["busy", "good"][..], true, 2),
        (&["hang", "good"][..], true, 2),
        (&["fail", "fail"][..], false, 2),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let script = subprocess_script(dir.path(), &answer_for(&rs), modes);
        let cache = SqliteStore::open_in_memory().unwrap();
        let c = script_config(&script, "");
        let t = Instant::now();
        let (out, _) = run(&session(&c, &cache), rs.clone(), false);
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{modes:?} took {:?}",
            t.elapsed()
        );
        let want = if expect_llm {
            "llm:script/script-model"
        } else {
            "static"
        };
        assert_eq!(analyzers(&out), [want; 2], "{modes:?}");
        assert_eq!(calls(dir.path()), expect_calls, "{modes:?}");
        let prompt = std::fs::read_to_string(dir.path().join("prompt.txt")).unwrap();
        assert!(
            prompt.contains("Never invent file paths"),
            "the prompt arrived on stdin"
        );
        // Stored answers survive in the database too.
        let _ = cache.dataset_version().unwrap();
    }
}
