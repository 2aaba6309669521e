//! Every text of the knowledge base is printed by its runtime here: each
//! runtime runs its printer (`printers/`), which makes the real error
//! happen (a port bound twice, a refused connection, a missing file, a bad
//! certificate) and prints `KEY<TAB>TEXT` lines. A printed text must fit a
//! template of its entry for that runtime, and every template must be
//! fitted by a printed text: no entry's text is guessed.
//!
//! A runtime missing from the machine is skipped with a notice, except
//! under `CI=true`, where `.ci/run` installs them all and a missing one
//! fails.

use errdex_kb::{entries, fits, Entry};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn printers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("printers")
}

/// Runs a command and gives its standard output, or `None` when its
/// program is not installed.
fn output(cmd: &mut Command) -> Option<String> {
    match cmd.output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("running {cmd:?}: {e}"),
        Ok(out) => {
            assert!(
                out.status.success(),
                "{cmd:?} failed: {}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8(out.stdout).expect("printer output is UTF-8"))
        }
    }
}

fn missing(by: &str) {
    let why =
        format!("the {by} runtime is not installed: its knowledge-base texts are not checked");
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{why} (CI installs it)"
    );
    eprintln!("skipped: {why}");
}

/// Checks one runtime's printed lines against the entries.
fn check(by: &str, printed: &str) {
    let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for line in printed.lines().filter(|l| !l.is_empty()) {
        let (key, text) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{by} printer line without a tab: {line:?}"));
        match errdex_kb::get(key) {
            None => wrong.push(format!("{key}: no such entry (printed {text:?})")),
            Some(e) if !own_texts(e, by).any(|t| fits(t, text)) => {
                wrong.push(format!("{key}: printed {text:?}, no {by} template fits"))
            }
            Some(_) => seen.entry(key).or_default().push(text),
        }
    }
    for e in entries() {
        for t in own_texts(e, by) {
            let printed = seen.get(e.key.as_str()).into_iter().flatten();
            if !printed.clone().any(|p| fits(t, p)) {
                wrong.push(format!("{}: {by} template {t:?} was never printed", e.key));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{by}: {} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn own_texts<'a>(e: &'a Entry, by: &'a str) -> impl Iterator<Item = &'a str> + Clone {
    e.texts
        .iter()
        .filter(move |t| t.by == by)
        .map(|t| t.text.as_str())
}

/// glibc's texts: a C program printing `strerror` of every errno name the
/// knowledge base has and `gai_strerror` of every `EAI_` name (names the
/// headers lack print nothing, and the check then reports their texts as
/// never printed).
#[test]
fn c_library_prints_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let mut src = String::from("#define _GNU_SOURCE\n#include <errno.h>\n#include <netdb.h>\n#include <stdio.h>\n#include <string.h>\nint main(void) {\n");
    for e in entries() {
        if let Some(name) = e.key.strip_prefix("errno/") {
            let f = if name.starts_with("EAI_") {
                "gai_strerror"
            } else {
                "strerror"
            };
            src.push_str(&format!(
                "#ifdef {name}\n  printf(\"errno/{name}\\t%s\\n\", {f}({name}));\n#endif\n"
            ));
        }
    }
    src.push_str("  return 0;\n}\n");
    let c = dir.path().join("errno.c");
    std::fs::write(&c, src).unwrap();
    let exe = dir.path().join("errno");
    let Some(_) = output(Command::new("cc").arg("-o").arg(&exe).arg(&c)) else {
        return missing("c");
    };
    check("c", &output(&mut Command::new(&exe)).unwrap());
}

#[test]
fn go_prints_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new("go")
        .args(["run", "."])
        .current_dir(printers().join("go"))
        .env("GOCACHE", dir.path().join("cache"))
        .env("GOPATH", dir.path().join("path"))
        .env("GOFLAGS", "")
        .env("GOTOOLCHAIN", "local")
        .output_of();
    match run {
        None => missing("go"),
        Some(out) => check("go", &out),
    }
}

#[test]
fn python_prints_its_texts() {
    match Command::new("python3")
        .arg(printers().join("python.py"))
        .output_of()
    {
        None => missing("python"),
        Some(out) => check("python", &out),
    }
}

#[test]
fn openssl_prints_its_texts() {
    match Command::new("python3")
        .arg(printers().join("openssl.py"))
        .output_of()
    {
        None => missing("openssl"),
        Some(out) => check("openssl", &out),
    }
}

#[test]
fn node_prints_its_texts() {
    match Command::new("node")
        .arg(printers().join("node.js"))
        .output_of()
    {
        None => missing("node"),
        Some(out) => check("node", &out),
    }
}

#[test]
fn java_prints_its_texts() {
    match Command::new("java")
        .arg(printers().join("Printer.java"))
        .output_of()
    {
        None => missing("java"),
        Some(out) => check("java", &out),
    }
}

#[test]
fn rust_prints_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("printer");
    let built = Command::new("rustc")
        .args(["--edition", "2021", "-o"])
        .arg(&exe)
        .arg(printers().join("rust.rs"))
        .output_of();
    match built {
        None => missing("rust"),
        Some(_) => check("rust", &output(&mut Command::new(&exe)).unwrap()),
    }
}

trait OutputOf {
    fn output_of(&mut self) -> Option<String>;
}

impl OutputOf for Command {
    fn output_of(&mut self) -> Option<String> {
        output(self)
    }
}
