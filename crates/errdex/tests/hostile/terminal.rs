//! Control characters from indexed code, from file names and from the
//! pasted line never reach the terminal raw: `explain`, `show`, `index`'s
//! warnings and errors write them as visible escapes.

use super::{errdex, errdex_fed, seed_db, stderr};

/// The bytes a terminal acts on (all C0 controls but newline and tab,
/// DEL, and the C1 controls), as found in `out`.
fn raw_controls(out: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(out);
    text.chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .map(|c| c as u32 as u8)
        .collect()
}

#[test]
fn no_control_character_reaches_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("app.py"),
        "def f():\n    raise ValueError(\"disk \x1b]0;owned\x07 \x1b[2J gone \u{9b}31m now\")\n",
    )
    .unwrap();
    // A file name with ESC, whose bytes are no UTF-8: a warning names it.
    std::fs::write(tree.join("x\x1b[31m.py"), b"# \xff\n").unwrap();
    let db = dir.path().join("atlas.db");
    let o = errdex(&db, &["index", tree.to_str().unwrap(), "--verbose"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("x\\u001b[31m.py"), "{}", stderr(&o));
    assert_eq!(raw_controls(&o.stderr), b"", "index warnings");

    let line = "ERROR disk \x1b]0;owned\x07 \x1b[2J gone \u{9b}31m now";
    let o = errdex(&db, &["explain", line]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        raw_controls(&o.stdout),
        b"",
        "explain ARG:\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("\\u001b[2J"));

    let o = errdex_fed(&db, &["explain", "-"], format!("{line}\x00\n").as_bytes());
    assert_eq!(raw_controls(&o.stdout), b"", "explain -");

    let o = errdex(&db, &["explain", "--json", line]);
    assert_eq!(raw_controls(&o.stdout), b"", "explain --json");
    // A stream's JSON lines are written as the explainer escaped them.
    for threads in ["1", "2"] {
        let args = ["explain", "--json", "--threads", threads, "-"];
        let o = errdex_fed(&db, &args, format!("{line}\x7f\u{85}\n").as_bytes());
        assert_eq!(raw_controls(&o.stdout), b"", "explain --json -");
        assert!(String::from_utf8_lossy(&o.stdout).contains("\\u009b31m now\\u007f\\u0085"));
    }
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    assert!(v.to_string().contains('\u{9b}'), "JSON keeps the text: {v}");

    let exported = errdex(&db, &["export", "--format", "jsonl"]);
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&exported.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let id = first["id"].as_str().unwrap().to_string();
    let o = errdex(&db, &["show", &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        raw_controls(&o.stdout),
        b"",
        "show:\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = errdex(&db, &["show", "no\x1b[2Jsuch"]);
    assert!(!o.status.success());
    assert_eq!(raw_controls(&o.stderr), b"", "an error naming the input");
}

#[test]
fn explain_json_lines_up_with_its_input_and_says_where_a_line_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let db = seed_db(dir.path());
    let mut input = b"stop requested\n\n   \n".to_vec();
    input.extend(vec![b'z'; 70 * 1024]);
    input.extend(b"\nstop requested\n");
    for args in [
        &["explain", "--json", "-"][..],
        &["explain", "--json", "--threads", "2", "-"][..],
    ] {
        let o = errdex_fed(&db, args, &input);
        let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let lines: Vec<u64> = answers
            .iter()
            .map(|a| a["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, [1, 4, 5], "{args:?}");
        assert_eq!(answers[1]["cutAt"], 64 * 1024);
        assert!(
            answers[0].get("cutAt").is_none() && answers[2]["verdict"] == answers[0]["verdict"]
        );
    }
    let o = errdex(&db, &["explain", "stop requested\n\nstop requested"]);
    assert!(o.status.success());
    let human =
        String::from_utf8_lossy(&errdex_fed(&db, &["explain", "-"], &input).stdout).into_owned();
    assert!(
        human.contains("line 4 is longer than 64 KiB"),
        "{:.300}",
        human
    );
}
