//! Hostile trees: every case is a warning or a clear error, never a panic
//! or a hang.

use crate::*;
use errdex_extract::Error;
use std::os::unix::fs::symlink;

#[test]
fn missing_path_and_file_path_are_clear_errors() {
    let err = index(&opts(Path::new("/no/such/tree")), &NoProgress).unwrap_err();
    assert!(matches!(err, Error::NotFound(_)), "{err}");
    assert!(err.to_string().contains("/no/such/tree"));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.go");
    std::fs::write(&f, "package a").unwrap();
    let err = index(&opts(&f), &NoProgress).unwrap_err();
    assert!(err.to_string().contains("not a folder"), "{err}");
}

#[test]
fn bad_overrides_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts(dir.path());
    o.repo = Some("no-slash".into());
    assert!(matches!(index(&o, &NoProgress), Err(Error::BadRepo(_))));
    let mut o = opts(dir.path());
    o.commit = Some("abc".into());
    assert!(matches!(index(&o, &NoProgress), Err(Error::BadCommit(_))));
}

#[test]
fn hostile_files_are_skipped_with_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    let ok = "package pkg\nimport \"errors\"\nvar ErrOK = errors.New(\"still found\")\n";
    std::fs::write(root.join("pkg/ok.go"), ok).unwrap();
    // Invalid UTF-8 inside a string: replaced, file still used.
    let mut bad =
        b"package pkg\nimport \"errors\"\nvar E = errors.New(\"bad \xff byte\")\n".to_vec();
    bad.extend_from_slice(b"// \xfe\n");
    std::fs::write(root.join("pkg/latin1.go"), bad).unwrap();
    // Binary file with a .go name.
    std::fs::write(root.join("pkg/blob.go"), [0u8, 1, 2, 3, 0, 255]).unwrap();
    // A 50 MB generated file.
    let big = format!(
        "package pkg\n{}",
        "// generated\n".repeat(50 * 1024 * 1024 / 13)
    );
    std::fs::write(root.join("pkg/big.go"), big).unwrap();
    // Unparseable text.
    std::fs::write(
        root.join("pkg/garbage.go"),
        "}}}{{{ ((( errors.New(\"x\" ]]]",
    )
    .unwrap();
    // Symlink loop, a symlink out of the tree, a dangling symlink, a link
    // to a file inside.
    symlink("loop_b.go", root.join("loop_a.go")).unwrap();
    symlink("loop_a.go", root.join("loop_b.go")).unwrap();
    symlink(root.join("pkg"), root.join("pkg/self")).unwrap();
    let outside = dir.path().join("outside.go");
    std::fs::write(
        &outside,
        "package x\nimport \"errors\"\nvar E = errors.New(\"outside\")\n",
    )
    .unwrap();
    symlink(&outside, root.join("pkg/escape.go")).unwrap();
    symlink(root.join("nothing.go"), root.join("pkg/dangling.go")).unwrap();
    // A FIFO with a .go name would block a naive reader forever.
    let fifo = root.join("pkg/fifo.go");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());

    let out = run(&opts(&root));
    let pats: Vec<&str> = out
        .dataset
        .records
        .iter()
        .map(|r| r.message_pattern.as_str())
        .collect();
    assert!(pats.contains(&"still found"), "{pats:?}");
    assert!(pats.contains(&"bad \u{fffd} byte"), "{pats:?}");
    assert!(!pats.contains(&"outside"), "{pats:?}");
    let warned = |path: &str, what: &str| {
        assert!(
            out.warnings
                .iter()
                .any(|w| w.path.ends_with(path) && w.message.contains(what)),
            "expected a warning for {path} containing {what:?}: {:#?}",
            out.warnings
        )
    };
    warned("pkg/latin1.go", "UTF-8");
    warned("pkg/big.go", "size limit");
    warned("pkg/escape.go", "leaves");
    warned("pkg/dangling.go", "symlink");
    warned("pkg/garbage.go", "syntax error");
    warned("pkg/fifo.go", "not a regular file");
    warned("loop_a.go", "looping symlink");
}
