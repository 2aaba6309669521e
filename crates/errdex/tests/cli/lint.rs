//! `errdex lint` end to end: formats, SARIF validity, exit codes,
//! baselines, `--diff`, `--rule` and `[lint]` in errdex.toml.

use super::{stderr, stdout};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

const GO: &str = r#"package store

import (
	"errors"
	"fmt"
)

var ErrFull = errors.New("Store is full.")

func open(path string) error {
	f, err := load(path)
	if err != nil {
		return fmt.Errorf("open the store file %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
	}
	return nil
}
"#;

const PY: &str = "def read(path):\n    try:\n        return open(path).read()\n    except OSError:\n        raise ConfigError(f'cannot read the settings file {path}')\n";

fn lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("lint")
        .arg(dir)
        .args(args)
        .env_remove("ERRDEX_ATLAS_URL")
        .env_remove("ERRDEX_CACHE_DIR")
        .env("XDG_CACHE_HOME", dir.join(".no-home-cache"))
        .output()
        .expect("errdex runs")
}

fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("store.go"), GO).unwrap();
    std::fs::write(t.path().join("read.py"), PY).unwrap();
    t
}

/// (rule, file, line, fingerprint) of each finding of a JSON report.
fn from_json(v: &Value) -> BTreeSet<(String, String, u64, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["file"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["fingerprint"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn from_sarif(v: &Value) -> BTreeSet<(String, String, u64, String)> {
    v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_string(),
                loc["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                loc["region"]["startLine"].as_u64().unwrap(),
                r["partialFingerprints"]["errdexFingerprint/v1"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

fn from_text(text: &str) -> BTreeSet<(String, String, u64)> {
    text.lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| {
            let (file, rest) = l.split_once(':').unwrap();
            let (line, rest) = rest.split_once(':').unwrap();
            let rule = rest.split('[').nth(1).unwrap().split(']').next().unwrap();
            (rule.to_string(), file.to_string(), line.parse().unwrap())
        })
        .collect()
}

#[test]
fn text_json_and_sarif_hold_the_same_findings_and_sarif_is_valid() {
    let t = tree();
    let json = lint(t.path(), &["--format", "json"]);
    assert_eq!(json.status.code(), Some(1), "{}", stderr(&json));
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    let found = from_json(&json);
    let rules: BTreeSet<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        rules,
        BTreeSet::from(["lost-cause", "style", "swallowed-error"]),
        "{found:#?}"
    );

    let sarif = lint(t.path(), &["--format", "sarif"]);
    assert_eq!(sarif.status.code(), Some(1));
    let sarif: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(from_sarif(&sarif), found);
    let schema: Value =
        serde_json::from_str(include_str!("../../../lint/tests/sarif-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert_eq!(rules.len(), 7);
    let lost = rules.iter().find(|r| r["id"] == "lost-cause").unwrap();
    assert_eq!(lost["helpUri"], "http://127.0.0.1:8080/rules/lost-cause/");
    assert!(lost["help"]["markdown"]
        .as_str()
        .unwrap()
        .contains("from e"));

    let text = lint(t.path(), &[]);
    assert_eq!(text.status.code(), Some(1));
    let want: BTreeSet<_> = found
        .iter()
        .map(|f| (f.0.clone(), f.1.clone(), f.2))
        .collect();
    assert_eq!(from_text(&stdout(&text)), want);
    assert!(stderr(&text).contains("findings left"), "{}", stderr(&text));
}

#[test]
fn a_clean_tree_exits_0_and_bad_input_exits_2_naming_it() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("ok.go"),
        "package ok\n\nimport \"errors\"\n\nvar errGone = errors.New(\"the queue was closed by its owner\")\n",
    )
    .unwrap();
    let o = lint(t.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));

    let o = lint(&t.path().join("missing"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));

    let o = lint(t.path(), &["--rule", "no-such-rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no-such-rule") && stderr(&o).contains("lost-cause"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn rules_are_chosen_with_rule_and_turned_off_in_errdex_toml() {
    let t = tree();
    let o = lint(t.path(), &["--rule", "style", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: BTreeSet<String> = from_json(&v).into_iter().map(|f| f.0).collect();
    assert_eq!(rules, BTreeSet::from(["style".to_string()]));

    std::fs::write(
        t.path().join("errdex.toml"),
        "[lint]\ndisable = [\"style\", \"lost-cause\"]\n",
    )
    .unwrap();
    let o = lint(t.path(), &["--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: BTreeSet<String> = from_json(&v).into_iter().map(|f| f.0).collect();
    assert_eq!(rules, BTreeSet::from(["swallowed-error".to_string()]));

    std::fs::write(
        t.path().join("errdex.toml"),
        "[lint]\ndisable = [\"styel\"]\n",
    )
    .unwrap();
    let o = lint(t.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("styel"), "{}", stderr(&o));
}

#[test]
fn a_baseline_records_todays_findings_and_fails_only_on_new_ones_when_lines_move() {
    let t = tree();
    let base = t.path().join("baseline.json");
    let base_arg = base.to_str().unwrap();
    let o = lint(t.path(), &["--baseline", base_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("recorded 4 findings"), "{}", stderr(&o));
    assert_eq!(
        lint(t.path(), &["--baseline", base_arg]).status.code(),
        Some(0)
    );

    // Lines move: the same findings, nothing new.
    let moved = GO.replacen(
        "package store\n",
        "package store\n\n// Package store keeps things.\n",
        1,
    );
    std::fs::write(t.path().join("store.go"), &moved).unwrap();
    let o = lint(t.path(), &["--baseline", base_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    // A new swallowed error: only it is reported.
    let more = moved.replace(
        "\treturn nil\n}",
        "\tif err := f.Sync(); err != nil {\n\t}\n\treturn nil\n}",
    );
    std::fs::write(t.path().join("store.go"), more).unwrap();
    let o = lint(t.path(), &["--baseline", base_arg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: Vec<_> = from_json(&v).into_iter().collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].0.as_str(), found[0].2), ("swallowed-error", 19));

    let o = lint(t.path(), &["--baseline", base_arg, "--update-baseline"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        lint(t.path(), &["--baseline", base_arg]).status.code(),
        Some(0)
    );
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@errdex", "-c", "user.name=t"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn diff_reports_only_findings_on_lines_changed_since_the_ref() {
    let t = tree();
    git(t.path(), &["init", "-q"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "start"]);
    let changed = GO.replace(
        "\treturn nil\n}",
        "\tif err := f.Sync(); err != nil {\n\t}\n\treturn nil\n}",
    );
    std::fs::write(t.path().join("store.go"), changed).unwrap();
    std::fs::write(
        t.path().join("new.py"),
        PY.replace("the settings file", "the plugin list"),
    )
    .unwrap();
    let o = lint(t.path(), &["--diff", "HEAD", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: BTreeSet<(String, String, u64)> =
        from_json(&v).into_iter().map(|f| (f.0, f.1, f.2)).collect();
    assert_eq!(
        found,
        BTreeSet::from([
            ("lost-cause".into(), "new.py".into(), 5),
            ("swallowed-error".into(), "store.go".into(), 17),
        ])
    );
    let o = lint(t.path(), &["--diff", "no-such-ref"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-ref"), "{}", stderr(&o));
}

#[test]
fn a_run_with_the_facts_cache_finds_what_a_run_without_it_finds() {
    let t = tree();
    let cache = tempfile::tempdir().unwrap();
    let cache = cache.path().to_str().unwrap();
    let cold = lint(t.path(), &["--format", "json", "--no-cache"]);
    let first = lint(t.path(), &["--format", "json", "--cache-dir", cache]);
    let warm = lint(t.path(), &["--format", "json", "--cache-dir", cache]);
    let read = |o: &Output| from_json(&serde_json::from_slice(&o.stdout).unwrap());
    assert_eq!(read(&cold), read(&first));
    assert_eq!(read(&cold), read(&warm));
    assert!(
        std::fs::read_dir(cache).unwrap().next().is_some(),
        "the cache was written"
    );
}
