//! The `errdex` binary end to end: index a fixture, list, show, export, and
//! validate every exported record against the shipped JSON Schema.

mod analyze;
mod browser;
mod config;
mod lint;
mod mcp;
mod postgres;
mod repos;
mod serve;

use errdex_testkit::copy_tree;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHA: &str = "4c8573c808a73d578c5eadc86d410646ea0b0d73";

fn errdex(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .output()
        .expect("errdex runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixture(name: &str) -> PathBuf {
    errdex_testkit::fixtures().join(name)
}

/// A fresh copy of a fixture outside any git work tree, plus a database.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new(name: &str) -> Env {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&fixture(name), &dir.path().join("tree"));
        Env { dir }
    }
    fn tree(&self) -> PathBuf {
        self.dir.path().join("tree")
    }
    fn db(&self) -> PathBuf {
        self.dir.path().join("atlas.db")
    }
    fn index(&self) -> Output {
        let tree = self.tree();
        let o = errdex(
            &self.db(),
            &[
                "index",
                tree.to_str().unwrap(),
                "--repo",
                "kubernetes/kops",
                "--commit",
                SHA,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        o
    }
}

fn schema() -> jsonschema::Validator {
    let text = include_str!("../../../../schema/record.schema.json");
    jsonschema::validator_for(&serde_json::from_str(text).unwrap()).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, record: &Value) {
    let errors: Vec<String> = v
        .iter_errors(record)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "record {} invalid: {errors:#?}",
        record["id"]
    );
}

#[test]
fn index_prints_a_summary_and_list_shows_records() {
    let env = Env::new("seed");
    let o = env.index();
    let err = stderr(&o);
    assert!(
        err.contains("indexed kubernetes/kops @ 4c8573c808"),
        "{err}"
    );
    assert!(err.contains("2 files"), "{err}");
    assert!(err.contains("records"), "{err}");
    let o = errdex(&env.db(), &["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("dns-controller/pkg/dns/dnscontroller.go:265 (+1)"),
        "{out}"
    );
    assert!(out.contains("serving readiness probe: %w"), "{out}");
    let o = errdex(&env.db(), &["list", "--severity", "warning", "--json"]);
    let rows: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["severity"] == "warning"));
}

#[test]
fn show_by_slug_and_id_matches_the_seed_shape() {
    let env = Env::new("seed");
    env.index();
    let o = errdex(&env.db(), &["show", "serving-readiness-probe-w", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rec = &doc["record"];
    assert!(doc["datasetVersion"].is_string());

    // Same fields, same order, same JSON types as the seed record.
    let seed_text = include_str!("../../../../crates/extract/tests/fixtures/seed-record.json");
    let seed: Value = serde_json::from_str(seed_text).unwrap();
    let seed = &seed["record"];
    let seed_keys: Vec<&String> = seed.as_object().unwrap().keys().collect();
    let our_keys: Vec<&String> = rec
        .as_object()
        .unwrap()
        .keys()
        .take(seed_keys.len())
        .collect();
    assert_eq!(our_keys, seed_keys);
    let kind = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    for k in seed_keys {
        let (s, o) = (&seed[k], &rec[k]);
        // Prose fields are null until analysis; the seed's are filled.
        if !(o.is_null() || s.is_null()) {
            assert_eq!(kind(s), kind(o), "field {k}");
        }
    }
    for k in [
        "id",
        "repo",
        "slug",
        "messagePattern",
        "errorMessage",
        "errorType",
        "filePath",
        "lineNumber",
        "sourceCode",
        "sourceCodeStart",
        "sourceCodeEnd",
        "githubUrl",
        "analyzedSha",
        "schemaVersion",
    ] {
        if k == "id" {
            continue; // the seed id came from another system
        }
        assert_eq!(rec[k], seed[k], "field {k}");
    }
    assert_valid(&schema(), rec);

    let id = rec["id"].as_str().unwrap();
    let o = errdex(&env.db(), &["show", id]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains(">   130 | \t\treturn fmt.Errorf(\"serving readiness probe: %w\", err)"),
        "{text}"
    );
    assert!(
        text.contains("View: https://github.com/kubernetes/kops/blob/"),
        "{text}"
    );
}

#[test]
fn export_jsonl_validates_against_the_schema() {
    let env = Env::new("constructs");
    let tree = env.tree();
    let o = errdex(
        &env.db(),
        &[
            "index",
            tree.to_str().unwrap(),
            "--include-vendor",
            "--include-tests",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = env.dir.path().join("out.jsonl");
    let o = errdex(
        &env.db(),
        &[
            "export",
            "--format",
            "jsonl",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v = schema();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut n = 0;
    for line in text.lines() {
        assert_valid(&v, &serde_json::from_str(line).unwrap());
        n += 1;
    }
    assert!(n > 40, "{n} records");
    // Standard output gives the same lines.
    let o = errdex(&env.db(), &["export"]);
    assert_eq!(stdout(&o), text);
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(env.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.iter().all(|n| !n.to_string_lossy().contains(".tmp")),
        "{left:?}"
    );
}

#[test]
fn reindex_replaces_the_dataset_and_keeps_ids() {
    let env = Env::new("seed");
    env.index();
    let first: Vec<String> = stdout(&errdex(&env.db(), &["export"]))
        .lines()
        .map(String::from)
        .collect();
    // Remove one message and re-index: the other records keep their ids and
    // the removed one is gone.
    let f = env.tree().join("channels/pkg/cmd/apply_channel.go");
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace("serving readiness probe: %w", "readiness: %w");
    std::fs::write(&f, text).unwrap();
    env.index();
    let second = stdout(&errdex(&env.db(), &["export"]));
    assert!(!second.contains("serving readiness probe"));
    assert!(second.contains("\"readiness: %w\""));
    let stop_first = first
        .iter()
        .find(|l| l.contains("\"stop requested\""))
        .unwrap();
    let stop_second = second
        .lines()
        .find(|l| l.contains("\"stop requested\""))
        .unwrap();
    let a: Value = serde_json::from_str(stop_first).unwrap();
    let b: Value = serde_json::from_str(stop_second).unwrap();
    assert_eq!(a["id"], b["id"]);
    assert_eq!(
        a["contentChangedAt"], b["contentChangedAt"],
        "unchanged record keeps contentChangedAt"
    );
}

#[test]
fn errors_are_clear_and_exit_codes_usable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    // Reading commands do not create a database.
    let o = errdex(&db, &["list"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("run `errdex index PATH` first"),
        "{}",
        stderr(&o)
    );
    assert!(!db.exists());
    // A missing tree.
    let o = errdex(&db, &["index", "/no/such/tree"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/no/such/tree: no such file or folder"),
        "{}",
        stderr(&o)
    );
    // A database that is not one.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![7u8; 8192]).unwrap();
    let o = errdex(&junk, &["index", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not an errdex"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&junk).unwrap(),
        vec![7u8; 8192],
        "junk file untouched"
    );
    // Bad flags.
    let o = errdex(&db, &["index", ".", "--max-file-size", "lots"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--max-file-size"));
    // Unknown id: exit 1.
    let env = Env::new("seed");
    env.index();
    let o = errdex(&env.db(), &["show", "no-such-error"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no record with id or slug"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn errdex_db_environment_variable_picks_the_database() {
    let env = Env::new("seed");
    env.index();
    let o = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("list")
        .env("ERRDEX_DB", env.db())
        .current_dir(env.dir.path().join("tree"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("stop requested"));
}

#[test]
fn help_teaches() {
    let o = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .args(["index", "--help"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = stdout(&o);
    for want in [
        "--include-vendor",
        "--include-tests",
        "--max-file-size",
        "--repo",
        "--commit",
        "ERRDEX_DB",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
}

#[test]
fn explain_keeps_its_templates_beside_the_database_and_never_reads_them_stale() {
    let env = Env::new("seed");
    env.index();
    let cache = PathBuf::from(format!("{}.trace-cache", env.db().display()));
    let lines = "E1129 12:00:03.1 1 dnscontroller.go:306] stop requested\n\
                 serving readiness probe: listen tcp :80: bind: address already in use\n\
                 something nobody wrote\n";
    let explain = |extra: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
            .arg("--db")
            .arg(env.db())
            .args(["explain", "-", "--json"])
            .args(extra)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let uncached = explain(&["--no-cache"]);
    assert!(!cache.exists(), "--no-cache writes no cache");
    let built = explain(&[]);
    assert!(cache.exists(), "the first run keeps the templates");
    let cached = explain(&[]);
    assert_eq!(built, uncached);
    assert_eq!(cached, uncached);
    assert!(uncached.contains(r#""lineNumber":306"#), "{uncached}");

    // The code changes and is indexed again: the cache must not answer
    // for the old atlas.
    let file = env.tree().join("dns-controller/pkg/dns/dnscontroller.go");
    let code = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        code.replace("\"stop requested\"", "\"halt requested\""),
    )
    .unwrap();
    env.index();
    let after = explain(&[]);
    let first: Value = serde_json::from_str(after.lines().next().unwrap()).unwrap();
    assert_eq!(first["verdict"], "unknown", "{after}");
    assert_eq!(after, explain(&["--no-cache"]));

    // A damaged cache is rebuilt, not believed.
    let mut bytes = std::fs::read(&cache).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&cache, &bytes).unwrap();
    assert_eq!(explain(&[]), after);
    std::fs::write(&cache, b"not a cache").unwrap();
    assert_eq!(explain(&[]), after);
    assert_ne!(std::fs::read(&cache).unwrap(), b"not a cache", "rewritten");
}

#[test]
fn explain_traces_text_json_and_summary() {
    let env = Env::new("seed");
    env.index();
    let line = "E1129 12:00:03.123456 1 apply_channel.go:80] serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use";
    let o = errdex(&env.db(), &["explain", line]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("channels/pkg/cmd/apply_channel.go:130 in runApplyChannelLoop"),
        "{text}"
    );
    // The standard library's tail is the runtime's, with the command
    // that checks the port the line names.
    assert!(text.contains("runtime: errno/EADDRINUSE"), "{text}");
    assert!(text.contains("$ ss -ltnp 'sport = :3989'"), "{text}");

    let o = errdex(&env.db(), &["explain", "--json", line]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "traced");
    assert_eq!(v["prefix"], "E1129 12:00:03.123456 1 apply_channel.go:80] ");
    assert_eq!(v["frames"][0]["candidates"][0]["lineNumber"], 130);
    assert_eq!(
        v["frames"][0]["candidates"][0]["slug"],
        "serving-readiness-probe-w"
    );
    let tail = &v["frames"][1];
    assert_eq!(
        tail["text"],
        "listen tcp 0.0.0.0:3989: bind: address already in use"
    );
    assert_eq!(
        &line[tail["start"].as_u64().unwrap() as usize..],
        "listen tcp 0.0.0.0:3989: bind: address already in use"
    );
    assert_eq!(
        tail["candidates"][0]["knowledge"]["key"],
        "go/net.OpError.listen"
    );
    assert_eq!(
        v["frames"][3]["candidates"][0]["knowledge"]["key"],
        "errno/EADDRINUSE"
    );
    assert_eq!(v["unmatched"], serde_json::json!([]));

    // A hint with the line picks one of two identical sites.
    let o = errdex(
        &env.db(),
        &[
            "explain",
            "--json",
            "E1129 12:00:03.1 1 dnscontroller.go:306] stop requested",
        ],
    );
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "traced");
    assert_eq!(v["frames"][0]["candidates"][0]["lineNumber"], 306);
    let o = errdex(&env.db(), &["explain", "--json", "stop requested"]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "ambiguous");

    // Nothing known: exit 1.
    let o = errdex(&env.db(), &["explain", "the message that was removed"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("verdict: unknown"));

    // Streaming stdin with --summary, in parallel.
    let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(env.db())
        .args(["explain", "-", "--summary", "-j", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        for i in 0..5000 {
            writeln!(
                stdin,
                "2026-11-29T12:00:03Z error in apply iteration (will retry in {i}s): boom"
            )
            .unwrap();
            writeln!(stdin, "{}", "x".repeat(if i == 0 { 200_000 } else { 3 })).unwrap();
        }
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("    5000  partial    error in apply iteration (will retry in %s): %v"),
        "{text}"
    );
    assert!(text.contains("10000 lines"), "{text}");
}

#[test]
fn a_hole_closed_to_a_few_literals_traces_only_them() {
    // A package whose unexported field is only ever set by literals: the
    // message prints `write` or `dial` there, and nothing else.
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("peer")).unwrap();
    std::fs::write(
        tree.join("peer/status.go"),
        "package peer\n\ntype failure struct {\n\torigin string\n\tverb   string\n}\n\n\
         func (p *peer) down(f failure, why string) error {\n\
         \treturn fmt.Errorf(\"could not %s to %s (%s)\", f.verb, f.origin, why)\n}\n",
    )
    .unwrap();
    std::fs::write(
        tree.join("peer/send.go"),
        "package peer\n\nfunc (p *peer) send() {\n\
         \tp.down(failure{origin: p.name, verb: \"write\"}, \"reset\")\n\
         \tp.down(failure{origin: p.name, verb: \"dial\"}, \"refused\")\n}\n",
    )
    .unwrap();
    let db = dir.path().join("atlas.db");
    let o = errdex(
        &db,
        &["index", tree.to_str().unwrap(), "--repo", "acme/peer"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let verdict = |line: &str| {
        let o = errdex(&db, &["explain", "--json", line]);
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict("could not dial to node-2 (refused)"), "traced");
    // Another release's wording puts other words there: not this site.
    assert_eq!(
        verdict("could not send out heartbeat to node-2 (late)"),
        "unknown"
    );
    let o = errdex(&db, &["export", "--format", "jsonl"]);
    let record: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_valid(&schema(), &record);
    assert_eq!(
        record["sites"][0]["facts"]["closedHoles"],
        serde_json::json!([{"arg": "f.verb", "values": ["dial", "write"]}])
    );
}
