//! kill -9 during index and export: the atlas is always the complete old
//! or the complete new one, an export folder is never half written, and
//! the next export removes what killed ones left behind.

use super::{errdex, stderr};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A Go tree of `packages` packages with 20 messages each.
fn go_tree(root: &Path, packages: usize) {
    for i in 0..packages {
        let dir = root.join(format!("pkg{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let body: String = (0..20)
            .map(|j| format!("func F{j}() error {{ return errors.New(\"widget {i} failed in stage {j}\") }}\n"))
            .collect();
        std::fs::write(
            dir.join("f.go"),
            format!("package pkg{i}\nimport \"errors\"\n{body}"),
        )
        .unwrap();
    }
}

fn records(db: &Path) -> usize {
    let o = errdex(db, &["export", "--format", "jsonl"]);
    assert!(
        o.status.success(),
        "the atlas opens after a kill: {}",
        stderr(&o)
    );
    String::from_utf8_lossy(&o.stdout).lines().count()
}

/// Runs errdex with `args` and kills it with SIGKILL after `after`.
fn killed(db: &Path, args: &[&str], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("ERRDEX_DB")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
}

/// Delays spread over a run of about `span`, the same every time.
fn delays(trials: u64, span: Duration) -> impl Iterator<Item = Duration> {
    (0..trials).map(move |t| span.mul_f64((t as f64 + 0.5) / trials as f64))
}

#[test]
fn a_killed_index_leaves_the_complete_old_or_new_atlas() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    go_tree(&a, 150);
    go_tree(&b, 160);
    let db = dir.path().join("atlas.db");
    let index = |tree: &Path| {
        vec![
            "index".to_string(),
            tree.display().to_string(),
            "--repo".into(),
            "acme/widgets".into(),
        ]
    };
    assert!(errdex(
        &db,
        &index(&a).iter().map(String::as_str).collect::<Vec<_>>()
    )
    .status
    .success());
    let (old, new) = (records(&db), 160 * 20);
    assert_eq!(old, 150 * 20);
    for (trial, after) in delays(10, Duration::from_millis(1500)).enumerate() {
        let tree = if trial % 2 == 0 { &b } else { &a };
        let args = index(tree);
        killed(
            &db,
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            after,
        );
        let n = records(&db);
        assert!(
            n == old || n == new,
            "trial {trial} killed after {after:?}: {n} records"
        );
    }
}

#[test]
fn a_killed_export_leaves_no_half_folder_and_the_next_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    go_tree(&tree, 150);
    let db = dir.path().join("atlas.db");
    let o = errdex(
        &db,
        &["index", tree.to_str().unwrap(), "--repo", "acme/widgets"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.path().join("exports").join("ds");
    let out_arg = out.to_str().unwrap();
    for (trial, after) in delays(10, Duration::from_millis(2500)).enumerate() {
        killed(
            &db,
            &["export", "--format", "dataset", "--out", out_arg],
            after,
        );
        if out.exists() {
            let errors = std::fs::read_dir(out.join("errors")).unwrap().count();
            assert_eq!(errors, 150 * 20, "trial {trial}: a complete export or none");
            assert!(out.join("manifest.json").is_file(), "trial {trial}");
        }
    }
    let o = errdex(&db, &["export", "--format", "dataset", "--out", out_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let left: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        left,
        ["ds"],
        "temporary folders of killed exports are removed"
    );
}
