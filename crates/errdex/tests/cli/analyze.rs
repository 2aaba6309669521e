//! `errdex analyze` end to end: the static analysis `index` writes, and an
//! LLM session through a command provider that is killed half-way and
//! resumed from the cache.

use super::*;
use std::time::{Duration, Instant};

/// Every record of the database, by pattern.
fn records(db: &Path) -> Vec<Value> {
    let o = errdex(db, &["export"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut rs: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    rs.sort_by_key(|r| r["messagePattern"].as_str().unwrap().to_string());
    rs
}

/// A command provider that answers one record per call (no id: matched by
/// position), playing `modes` in turn (`good`, `hang`), counting calls.
fn provider(dir: &Path, modes: &[&str]) -> PathBuf {
    let answer = serde_json::json!({"records": [{
        "documentation": "LLM prose from the facts.",
        "triggerScenarios": "The condition in the facts holds.",
        "commonSituations": "During normal operation.",
        "solutions": ["Read the wrapped error.", "Check the condition."],
        "exampleFix": null,
        "handlingStrategy": "try-catch",
        "validationCode": null,
        "typeGuard": null,
        "tryCatchPattern": "if err != nil {\n\treturn err\n}",
        "preventionTips": ["Handle the error where it is returned."],
        "tags": ["kops"],
        "backgroundTag": "operation-failed",
        "severity": "error"
    }]});
    std::fs::write(dir.join("answer.json"), answer.to_string()).unwrap();
    std::fs::write(dir.join("modes"), modes.join("\n") + "\n").unwrap();
    let d = dir.display();
    let script = dir.join("provider.sh");
    std::fs::write(
        &script,
        format!(
            r#"cat > /dev/null
echo call >> "{d}/calls"
mode=$(head -n 1 "{d}/modes")
tail -n +2 "{d}/modes" > "{d}/modes.next"; mv "{d}/modes.next" "{d}/modes"
case "$mode" in
  hang) sleep 60 ;;
  *) cat "{d}/answer.json" ;;
esac
"#
        ),
    )
    .unwrap();
    let config = dir.join("errdex.toml");
    std::fs::write(
        &config,
        format!(
            "[llm]\nprimary = \"agent\"\nconcurrency = 1\nbatch = 1\ntimeout_secs = 60\n\n[providers.agent]\nkind = \"command\"\ncommand = [\"sh\", \"{}\"]\nmodel = \"script\"\n",
            script.display()
        ),
    )
    .unwrap();
    config
}

fn calls(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("calls")).map_or(0, |s| s.lines().count())
}

fn analyzers(db: &Path) -> Vec<String> {
    records(db)
        .iter()
        .map(|r| r["analyzer"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn index_analyses_statically_and_analyze_resumes_an_llm_run() {
    let env = Env::new("seed");
    env.index();
    let rs = records(&env.db());
    assert_eq!(rs.len(), 4);
    for r in &rs {
        assert_eq!(r["analyzer"], "static");
        assert!(!r["documentation"].as_str().unwrap().is_empty());
        assert!(!r["solutions"].as_array().unwrap().is_empty());
    }
    let stop = rs
        .iter()
        .find(|r| r["messagePattern"] == "stop requested")
        .unwrap();
    assert_eq!(stop["severity"], "info");
    assert_eq!(stop["backgroundTag"], "graceful-shutdown");

    // An LLM run killed while its second call hangs keeps the first record.
    let dir = env.dir.path();
    let config = provider(dir, &["good", "hang"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(env.db())
        .args(["analyze", "--config", config.to_str().unwrap()])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while analyzers(&env.db()).iter().all(|a| a == "static") {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the first record was never written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let after_kill = analyzers(&env.db());
    assert_eq!(
        after_kill
            .iter()
            .filter(|a| *a == "llm:agent/script")
            .count(),
        1,
        "{after_kill:?}"
    );

    // Resumed: the finished record comes from the cache, the rest is sent.
    std::fs::write(dir.join("modes"), "good\ngood\ngood\ngood\n").unwrap();
    let before = calls(dir);
    let o = errdex(
        &env.db(),
        &["analyze", "--config", config.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 cached, 3 by primary"),
        "{}",
        stderr(&o)
    );
    assert_eq!(calls(dir) - before, 3);
    assert_eq!(analyzers(&env.db()), ["llm:agent/script"; 4]);

    // Again: nothing is sent.
    let before = calls(dir);
    let o = errdex(
        &env.db(),
        &["analyze", "--config", config.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(calls(dir), before, "a re-run sends no request");
    let o = errdex(
        &env.db(),
        &[
            "analyze",
            "--config",
            config.to_str().unwrap(),
            "--only-missing",
        ],
    );
    assert!(stderr(&o).contains("nothing to analyse"), "{}", stderr(&o));

    // Re-indexing unchanged code writes the static analysis again; analyze
    // restores the LLM prose from the cache without a request.
    env.index();
    assert_eq!(analyzers(&env.db()), ["static"; 4]);
    let o = errdex(
        &env.db(),
        &["analyze", "--config", config.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(calls(dir), before);
    assert_eq!(analyzers(&env.db()), ["llm:agent/script"; 4]);

    // --static goes back to the static analyser.
    let o = errdex(&env.db(), &["analyze", "--static"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(analyzers(&env.db()), ["static"; 4]);
}

#[test]
fn analyze_names_configuration_mistakes() {
    let env = Env::new("seed");
    env.index();
    let bad = env.dir.path().join("bad.toml");
    std::fs::write(&bad, "[llm]\nprimary = \"nope\"\n").unwrap();
    let o = errdex(&env.db(), &["analyze", "--config", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.toml") && stderr(&o).contains("no provider named \"nope\""),
        "{}",
        stderr(&o)
    );
    let missing = env.dir.path().join("missing.toml");
    let o = errdex(
        &env.db(),
        &["analyze", "--config", missing.to_str().unwrap()],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing.toml"), "{}", stderr(&o));
    let o = errdex(&env.db(), &["analyze", "--repo", "other/repo"]);
    assert!(
        stderr(&o).contains("no records for other/repo") && stderr(&o).contains("kubernetes/kops"),
        "{}",
        stderr(&o)
    );
}
