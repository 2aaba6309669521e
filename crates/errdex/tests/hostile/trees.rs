//! A hostile source tree, generated: deep nesting in every language,
//! binary-looking and garbage text, invalid UTF-8, a minified bundle, an
//! oversized file, symlink loops and escapes, a FIFO, XSS texts. One index
//! of it must finish, warn about what it skipped, and keep every record
//! small.

use super::{errdex, stderr};
use std::path::Path;

/// A site in each language whose message is `"x " + "a" + …` (`n` terms)
/// and one whose argument is `n` nested parentheses.
fn deep_sources(n: usize) -> Vec<(&'static str, String)> {
    let chain = |op: &str| vec!["\"a\""; n].join(&format!(" {op} "));
    let parens = format!("{}1{}", "(".repeat(n), ")".repeat(n));
    let (c, p) = (chain("+"), parens.as_str());
    vec![
        ("f.py", format!("def f():\n    raise ValueError(\"x \" + {c})\ndef g():\n    raise ValueError(\"y %s\" % {p})\n")),
        ("f.js", format!("function f() {{ throw new Error(\"x \" + {c}); }}\nfunction g() {{ throw new Error(\"y\" + {p}); }}\n")),
        ("f.ts", format!("function f(): void {{ throw new Error(\"x \" + {c}); }}\nfunction g() {{ throw new Error(\"y\" + {p}); }}\n")),
        ("F.java", format!("class F {{ void f() {{ throw new IllegalStateException(\"x \" + {c}); }}\n void g() {{ throw new IllegalStateException(\"y\" + {p}); }} }}\n")),
        ("f.go", format!("package p\nimport (\"errors\"; \"fmt\")\nfunc f() error {{ return errors.New(\"x \" + {c}) }}\nfunc g() error {{ return fmt.Errorf(\"y %d\", {p}) }}\n")),
        ("f.kt", format!("fun f() {{ throw IllegalStateException(\"x \" + {c}) }}\nfun g() {{ throw IllegalStateException(\"y\" + {p}) }}\n")),
        ("f.scala", format!("object F {{ def f() = throw new IllegalStateException(\"x \" + {c})\n def g() = throw new IllegalStateException(\"y\" + {p}) }}\n")),
        ("f.rs", format!("fn f() {{ panic!(\"x {{}}\", String::new() + {c}); }}\nfn g() {{ panic!(\"y {{}}\", {p}); }}\n")),
        ("f.c", format!("#include <stdio.h>\nvoid f(void) {{ fprintf(stderr, \"x %d\\n\", {}); }}\nvoid g(void) {{ fprintf(stderr, \"y %d\\n\", {p}); }}\n", vec!["1"; n].join(" + "))),
        ("f.cpp", format!("void f() {{ throw std::runtime_error(std::string(\"x \") + {c}); }}\nvoid g() {{ throw std::runtime_error(\"y\" + {p}); }}\n")),
        ("f.cs", format!("class F {{ void f() {{ throw new System.Exception(\"x \" + {c}); }}\n void g() {{ throw new System.Exception(\"y\" + {p}); }} }}\n")),
        ("f.rb", format!("def f\n  raise ArgumentError, \"x \" + {c}\nend\ndef g\n  raise ArgumentError, \"y\" + {p}\nend\n")),
        ("f.php", format!("<?php\nfunction f() {{ throw new Exception(\"x \" . {}); }}\nfunction g() {{ throw new Exception(\"y\" . {p}); }}\n", chain("."))),
    ]
}

/// Bytes from a fixed xorshift sequence, none of them NUL.
fn noise(len: usize, printable: bool) -> Vec<u8> {
    let mut x = 0x9e37_79b9_u32;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if printable {
                if x.is_multiple_of(50) {
                    b'\n'
                } else {
                    b' ' + (x % 95) as u8
                }
            } else {
                (x % 255 + 1) as u8
            }
        })
        .collect()
}

/// A bundle of `n` functions on one line, each throwing its own message.
pub fn minified(n: usize) -> String {
    (0..n)
        .map(|i| format!("function f{i}(a){{if(!a)throw new Error(\"bad value {i} in step \"+a);return a+{i}}}"))
        .collect::<Vec<_>>()
        .join(";")
}

fn write(root: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Builds the hostile tree under `root`.
pub fn build(root: &Path) {
    // Deep but within the limit: indexed. Far past it: skipped.
    for (name, text) in deep_sources(1_200) {
        write(root, &format!("deep/{name}"), text);
    }
    for (name, text) in deep_sources(20_000) {
        write(root, &format!("deeper/{name}"), text);
    }
    write(root, "noise/random.go", noise(128 * 1024, false));
    write(root, "noise/garbage.js", noise(128 * 1024, true));
    let mut latin1 = b"def f():\n    raise ValueError(\"caf\xe9 closed\")\n".to_vec();
    latin1.extend(b"# \xff\xfe\n");
    write(root, "enc/latin1.py", latin1);
    write(root, "min/bundle.min.js", minified(3_000));
    write(
        root,
        "big/huge.go",
        format!("package p\n// {}\n", "x".repeat(300 * 1024)),
    );
    write(
        root,
        "xss/x.js",
        "function f() { throw new Error(\"x <!--<script> y </script><img src=x onerror=alert(1)> & \\u001b[31m\\u0007 z\"); }\n",
    );
    std::os::unix::fs::symlink("..", root.join("loop")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_MANIFEST_DIR"), root.join("escape")).unwrap();
    let fifo = root.join("pipe.go");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", fifo.display());
    write(
        root,
        "locked/secret.go",
        "package p\nimport \"errors\"\nvar E = errors.New(\"locked file read\")\n",
    );
    use std::os::unix::fs::PermissionsExt;
    let locked = root.join("locked/secret.go");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
}

#[test]
fn a_hostile_tree_is_indexed_with_a_warning_for_each_file_it_skips() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    build(&root);
    let db = dir.path().join("atlas.db");
    let o = errdex(
        &db,
        &[
            "index",
            root.to_str().unwrap(),
            "--verbose",
            "--max-file-size",
            "280K",
        ],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    for (name, _) in deep_sources(1) {
        let skipped = format!("deeper/{name}: nested more than");
        assert!(err.contains(&skipped), "{skipped} missing:\n{err}");
        assert!(
            !err.contains(&format!("warning: deep/{name}")),
            "deep/{name} was skipped:\n{err}"
        );
    }
    assert!(err.contains("noise/random.go: looks binary"), "{err}");
    assert!(err.contains("noise/garbage.js"), "{err}");
    assert!(err.contains("enc/latin1.py: not valid UTF-8"), "{err}");
    assert!(err.contains("big/huge.go"), "{err}");
    assert!(err.contains("pipe.go: not a regular file"), "{err}");

    let exported = errdex(&db, &["export", "--format", "jsonl"]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&exported.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let messages: Vec<&str> = records
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap_or(""))
        .collect();
    // Each language's 1,200-term message was read whole (they are one
    // text, so one record with a site per language).
    let chains: std::collections::BTreeSet<&str> = records
        .iter()
        .filter(|r| {
            r["errorMessage"]
                .as_str()
                .unwrap()
                .starts_with(&format!("x {}", "a".repeat(1_200)))
        })
        .flat_map(|r| r["sites"].as_array().unwrap())
        .map(|s| s["filePath"].as_str().unwrap())
        .collect();
    // (C's and Rust's deep part is a format's argument, not the text.)
    assert_eq!(chains.len(), 11, "chains read in {chains:?}");
    for lang in ["c", "rs"] {
        let deep = format!("deep/f.{lang}");
        let found = records.iter().any(|r| {
            r["sites"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["filePath"] == deep.as_str())
        });
        assert!(found, "no site in {deep}");
    }
    assert!(messages
        .iter()
        .any(|m| m.contains("café closed") || m.contains("caf\u{fffd} closed")));
    // The symlinks are not followed: nothing from outside the tree.
    assert!(records
        .iter()
        .all(|r| !r["filePath"].as_str().unwrap().starts_with("escape/")));
    // The bundle's 3,000 sites are all there, each with a bounded snippet.
    let bundle: Vec<&serde_json::Value> = records
        .iter()
        .filter(|r| r["filePath"] == "min/bundle.min.js")
        .collect();
    assert_eq!(bundle.len(), 3_000);
    for r in bundle {
        let code = r["sourceCode"].as_str().unwrap();
        assert!(
            code.chars().count() <= 302,
            "{} chars",
            code.chars().count()
        );
    }
    let db_bytes = std::fs::metadata(&db).unwrap().len();
    assert!(
        db_bytes < 64 << 20,
        "database {db_bytes} bytes for a 250 KB bundle"
    );
}
