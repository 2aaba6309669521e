//! Golden files per language: every fixture under `tests/fixtures/<lang>/`
//! is extracted (project message functions applied across the folder)
//! and the sites, one JSON object each, are compared with
//! `tests/golden/<lang>.json`. `ERRDEX_BLESS=1` rewrites the golden file;
//! read the diff before committing it.

use errdex_lang::{apply_wrappers, language_for_path, resolve_package, ExtractOptions};
use serde_json::{json, Value};
use std::path::Path;

fn extract_folder(dir: &Path) -> Vec<Value> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for p in &paths {
        let rel = p.file_name().unwrap().to_string_lossy().to_string();
        let Some(lang) = language_for_path(&rel) else {
            continue;
        };
        let src = std::fs::read_to_string(p).unwrap();
        let facts = lang.extract(&rel, &src, &ExtractOptions::default());
        assert_eq!(facts.syntax_errors, 0, "{rel} has syntax errors");
        files.push(facts);
    }
    apply_wrappers(&mut files, false);
    errdex_lang::exception_classes::apply_exception_classes(&mut files);
    let (mut sites, _) = resolve_package(files);
    sites.sort_by(|a, b| {
        (&a.file_path, a.line_number, a.column).cmp(&(&b.file_path, b.line_number, b.column))
    });
    sites
        .into_iter()
        .map(|s| {
            let lang = errdex_lang::language(s.lang);
            let template = lang.template(&s.message_pattern, &s.args, &s.callee);
            let chains: Vec<&str> = template
                .segments
                .iter()
                .filter_map(|seg| match seg {
                    errdex_model::Segment::Hole(h) if h.chain => h.arg.as_deref(),
                    _ => None,
                })
                .collect();
            let mut v = json!({
                "at": format!("{}:{}", s.file_path, s.line_number),
                "callee": s.callee,
                "pattern": s.message_pattern,
                "type": s.error_type.as_str(),
                "severity": s.severity.as_str(),
            });
            let o = v.as_object_mut().unwrap();
            let mut put = |k: &str, val: Value| {
                if !(val.is_null() || val == json!([]) || val == json!(false)) {
                    o.insert(k.to_string(), val);
                }
            };
            put("class", json!(s.error_class));
            put("code", json!(s.error_code));
            put("status", json!(s.http_status));
            put("args", json!(s.args));
            put("chain", json!(chains));
            put("function", json!(s.function));
            put("guards", json!(s.facts.guards));
            put("wraps", json!(s.facts.wrapped_call));
            put("returned", json!(s.facts.returned));
            put("inLoop", json!(s.facts.in_loop));
            v
        })
        .collect()
}

#[test]
fn every_language_matches_its_golden_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut dirs: Vec<_> = std::fs::read_dir(root.join("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    let mut failed = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let sites = extract_folder(&dir);
        assert!(!sites.is_empty(), "{name}: no sites at all");
        let got = serde_json::to_string_pretty(&sites).unwrap() + "\n";
        let golden = root.join("golden").join(format!("{name}.json"));
        if std::env::var_os("ERRDEX_BLESS").is_some() {
            std::fs::write(&golden, &got).unwrap();
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            failed.push(golden.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "sites differ from {failed:?}; run with ERRDEX_BLESS=1 and read the diff"
    );
}
