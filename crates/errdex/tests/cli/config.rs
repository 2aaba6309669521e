//! `errdex.toml`: include/exclude paths and declared message functions, and
//! a configuration mistake reported with the file and the field.

use super::{errdex, stderr, stdout};

const C_SOURCE: &str = "void die(const char *m);\nint f(int x) {\n    if (x < 0) die(\"negative input\");\n    bark(\"not declared %d\", x);\n    return 0;\n}\n";

#[test]
fn declared_functions_become_sites_and_excluded_paths_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("generated")).unwrap();
    std::fs::write(root.join("src/a.c"), C_SOURCE).unwrap();
    std::fs::write(root.join("generated/b.c"), C_SOURCE).unwrap();
    std::fs::write(
        root.join("errdex.toml"),
        "[paths]\nexclude = [\"generated/**\"]\n\n[[function]]\nname = \"die\"\nlang = \"c\"\ntype = \"exit\"\n",
    )
    .unwrap();
    let db = dir.path().join("a.db");
    let o = errdex(&db, &["index", root.to_str().unwrap(), "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("src/a.c:3"), "{out}");
    assert!(out.contains("negative input"), "{out}");
    assert!(out.contains("exit"), "{out}");
    assert!(
        !out.contains("generated/"),
        "excluded folder indexed: {out}"
    );
    // `bark` is neither declared nor a printf wrapper defined here.
    assert!(!out.contains("not declared"), "{out}");

    // Without the file, die() is no site.
    std::fs::remove_file(root.join("errdex.toml")).unwrap();
    let o = errdex(&db, &["index", root.to_str().unwrap(), "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("negative input"), "{}", stdout(&o));
}

#[test]
fn a_configuration_mistake_names_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.c"), C_SOURCE).unwrap();
    let cfg = dir.path().join("custom.toml");
    std::fs::write(&cfg, "[[function]]\nname = \"die\"\ntype = \"fatal\"\n").unwrap();
    let db = dir.path().join("a.db");
    let o = errdex(
        &db,
        &[
            "index",
            root.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("custom.toml"), "{err}");
    assert!(err.contains("unknown type \"fatal\""), "{err}");
}
