//! The crate table in ARCHITECTURE.md is the map of the workspace, and its
//! rule is that dependencies point up the table only. This test reads the
//! table and `cargo metadata` and fails when a crate depends on one listed
//! below it, or when a workspace crate is missing from the map.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// The crate names in the table's first column, in the table's order.
fn crates_in_map(architecture: &str) -> Vec<String> {
    architecture
        .lines()
        .skip_while(|line| !line.starts_with("## Crates"))
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Each workspace crate and the workspace crates it depends on to build
/// (normal and build dependencies; dev-dependencies are test support).
fn workspace_dependencies(root: &Path) -> HashMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.contains(d))
                .map(str::to_string)
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect()
}

#[test]
fn dependencies_point_up_the_map_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable");
    let map = crates_in_map(&architecture);
    let position = |name: &str| map.iter().position(|m| m == name);
    let mut problems = Vec::new();
    for (krate, deps) in workspace_dependencies(&root) {
        let Some(at) = position(&krate) else {
            problems.push(format!("{krate} is not in ARCHITECTURE.md's crate table"));
            continue;
        };
        for dep in deps {
            match position(&dep) {
                Some(d) if d < at => {}
                _ => problems.push(format!("{krate} depends on {dep}, which is not above it")),
            }
        }
    }
    problems.sort();
    assert!(
        problems.is_empty(),
        "the map is not true:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_map_is_read_from_its_table() {
    let text =
        "intro `x`\n## Crates\n\n| crate | owns |\n|---|---|\n| `a` | one |\n| `b` | two `c` |\n";
    assert_eq!(crates_in_map(text), ["a", "b"]);
}
