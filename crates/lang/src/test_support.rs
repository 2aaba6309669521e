//! What the language files' tests share: the resolved sites of one
//! source ([`sites_of`]), and their `#[ignore]`d corpus runs (`cargo test -p
//! errdex-lang -- --ignored --nocapture`): extract every file of a real
//! code base, apply the repository's message functions across it, and
//! print files, sites, dynamic sites, files with syntax errors and time.
//! Must not panic. With `ERRDEX_CORPUS_OUT=FILE`, one tab-separated line
//! per site (and `DYN` per dynamic site) is written there for reading by
//! hand against the source.

use crate::{apply_wrappers, language_for_path, resolve_package, ExtractOptions};
use errdex_model::{DynamicSite, RawSite};
use std::path::{Path, PathBuf};

/// Files under `roots` whose name ends with one of `exts`, sorted; roots
/// that do not exist are reported and skipped.
pub(crate) fn files_under(roots: &[&str], exts: &[&str]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for root in roots {
        let root = Path::new(root);
        if !root.exists() {
            println!("corpus {} absent: skipped", root.display());
            continue;
        }
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                    let rel = p
                        .strip_prefix(root)
                        .unwrap_or(&p)
                        .to_string_lossy()
                        .to_string();
                    out.push((p, rel));
                }
            }
        }
    }
    out.sort();
    out
}

/// Extracts the files (skipping test files unless `tests`), prints the
/// summary line for `name`, and returns the resolved sites.
pub(crate) fn run(
    name: &str,
    files: &[(PathBuf, String)],
    opts: &ExtractOptions,
    tests: bool,
) -> (Vec<RawSite>, Vec<DynamicSite>) {
    let start = std::time::Instant::now();
    let mut facts = Vec::new();
    let mut broken = 0;
    for (path, rel) in files {
        let Some(lang) = language_for_path(rel) else {
            continue;
        };
        if !tests && lang.is_test_path(rel) {
            continue;
        }
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let f = lang.extract(rel, &src, opts);
        broken += usize::from(f.syntax_errors > 0);
        facts.push(f);
    }
    let n = facts.len();
    apply_wrappers(&mut facts, opts.all_levels);
    crate::exception_classes::apply_exception_classes(&mut facts);
    let (sites, dynamic) = resolve_package(facts);
    println!(
        "{name}: {n} files, {} sites, {} dynamic, {broken} with syntax errors, {:?}",
        sites.len(),
        dynamic.len(),
        start.elapsed()
    );
    if let Some(out) = std::env::var_os("ERRDEX_CORPUS_OUT") {
        let mut lines: Vec<String> = sites
            .iter()
            .map(|s| {
                format!(
                    "{}:{}\t{}\t{}/{}\t{:?}\t{:?}\t{:?}",
                    s.file_path,
                    s.line_number,
                    s.callee,
                    s.error_type.as_str(),
                    s.severity.as_str(),
                    s.error_class,
                    s.message_pattern,
                    s.args
                )
            })
            .collect();
        lines.extend(
            dynamic
                .iter()
                .map(|d| format!("DYN\t{}:{}\t{}", d.file_path, d.line_number, d.expression)),
        );
        std::fs::write(out, lines.join("\n")).unwrap();
    }
    (sites, dynamic)
}

/// The resolved sites of one source file, which must parse without
/// syntax errors.
pub(crate) fn sites_of(path: &str, src: &str) -> Vec<RawSite> {
    let lang = language_for_path(path).expect("a language claims the path");
    let mut facts = vec![lang.extract(path, src, &ExtractOptions::default())];
    assert_eq!(facts[0].syntax_errors, 0, "{path} has syntax errors");
    crate::exception_classes::apply_exception_classes(&mut facts);
    resolve_package(facts).0
}

/// Callee, pattern and values of each site.
pub(crate) type Patterns = Vec<(String, String, Vec<String>)>;

/// Callee, pattern and values of each site of one file indexed at every
/// level, with the calls of the file's own message functions resolved.
pub(crate) fn all_level_patterns_of(path: &str, src: &str) -> Patterns {
    let lang = language_for_path(path).expect("a language claims the path");
    let opts = ExtractOptions {
        all_levels: true,
        ..ExtractOptions::default()
    };
    let mut facts = vec![lang.extract(path, src, &opts)];
    assert_eq!(facts[0].syntax_errors, 0, "{path} has syntax errors");
    apply_wrappers(&mut facts, true);
    crate::exception_classes::apply_exception_classes(&mut facts);
    resolve_package(facts)
        .0
        .into_iter()
        .map(|s| (s.callee, s.message_pattern, s.args))
        .collect()
}

/// [`sites_of`] as callee, pattern and values.
pub(crate) fn patterns_of(path: &str, src: &str) -> Patterns {
    sites_of(path, src)
        .into_iter()
        .map(|s| (s.callee, s.message_pattern, s.args))
        .collect()
}

/// Callee, pattern, values and error class of each site.
pub(crate) type ClassedPatterns = Vec<(String, String, Vec<String>, Option<String>)>;

/// [`sites_of`] as callee, pattern, values and error class.
pub(crate) fn classed_patterns_of(path: &str, src: &str) -> ClassedPatterns {
    sites_of(path, src)
        .into_iter()
        .map(|s| (s.callee, s.message_pattern, s.args, s.error_class))
        .collect()
}

/// A row of a language test whose second column is the message pattern.
pub(crate) trait PatternRow {
    /// The row's pattern.
    fn pattern(&self) -> &str;
}

impl<A, B> PatternRow for (String, String, A, B) {
    fn pattern(&self) -> &str {
        &self.1
    }
}

impl<A> PatternRow for (String, String, A) {
    fn pattern(&self) -> &str {
        &self.1
    }
}

/// The pattern column of a test's rows.
pub(crate) fn pattern_column<R: PatternRow>(rows: &[R]) -> Vec<&str> {
    rows.iter().map(PatternRow::pattern).collect()
}
