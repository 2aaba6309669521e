//! The rules that read an index run's records: what each message says,
//! where it is printed and what fills its holes.

use crate::{finding, Finding, Place};

mod params;
mod secrets;
mod style;
mod untraceable;

use errdex_model::{
    ErrorType, HoleKind, Lang, Record, RepoDataset, Segment, Severity, Site, Template,
};
use secrets::leaks_secret;
use std::collections::BTreeMap;
use style::style;
use untraceable::untraceable;

/// Words that say nothing about what failed: a message made only of them
/// cannot be told from any other.
const GENERIC_WORDS: &[&str] = &[
    "error",
    "errors",
    "err",
    "failed",
    "fail",
    "failure",
    "invalid",
    "unknown",
    "exception",
    "warning",
    "fatal",
    "panic",
    "unexpected",
    "bad",
    "wrong",
    "problem",
    "oops",
];

/// File name endings that build a file for one platform only (Go's build
/// suffixes, and the same habit elsewhere): copies of one statement in
/// such files are one site.
const PLATFORM_SUFFIXES: &[&str] = &[
    "linux",
    "windows",
    "darwin",
    "freebsd",
    "openbsd",
    "netbsd",
    "dragonfly",
    "solaris",
    "illumos",
    "aix",
    "plan9",
    "android",
    "ios",
    "js",
    "wasm",
    "wasip1",
    "unix",
    "posix",
    "bsd",
    "other",
    "others",
    "unsupported",
    "nonlinux",
    "notlinux",
    "nonwindows",
    "notwindows",
    "nocgo",
    "cgo",
    "amd64",
    "arm64",
    "arm",
    "386",
    "ppc64",
    "ppc64le",
    "s390x",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "riscv64",
    "loong64",
    "generic",
    "fallback",
    "stub",
    "win",
    "win32",
    "nt",
    "mac",
    "macos",
    "osx",
];

/// `declared` answers what the package of a file declares.
pub(crate) fn check(ds: &RepoDataset, declared: &crate::declared::Declared) -> Vec<Finding> {
    let mut out = Vec::new();
    let raised = untraceable::sites_by_class(ds);
    for r in &ds.records {
        let sites = distinct_sites(r);
        if sites.is_empty() {
            continue;
        }
        if errorish(r) && !only_a_class_name(r) {
            ambiguous(r, &sites, &mut out);
            untraceable(r, &sites, declared, &raised, &mut out);
            style(r, &sites, &|file, name| declared.has(file, name), &mut out);
            duplicate_sentinel(r, &sites, &mut out);
        }
        for s in &sites {
            let t = template(r, s);
            leaks_secret(r, s, &t, declared, &mut out);
            if r.language == Lang::Go {
                go_lost_cause(s, &t, &mut out);
            }
        }
    }
    out
}

/// `raise PermissionDenied`: no message written, the class name stands
/// for it (and a traceback prints it qualified by its module).
fn only_a_class_name(r: &Record) -> bool {
    let last = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
    r.error_class
        .as_deref()
        .is_some_and(|c| last(c) == last(&r.message_pattern))
}

/// Errors, warnings and fatal ones: info and debug logs are not read for
/// how they are worded.
fn errorish(r: &Record) -> bool {
    !matches!(r.severity, Severity::Info | Severity::Debug)
}

/// A record's sites, one per statement, leaving out built and vendored
/// copies (their maintainers edit the origin).
fn distinct_sites(r: &Record) -> Vec<&Site> {
    let mut seen = std::collections::BTreeSet::new();
    r.sites
        .iter()
        .filter(|s| !errdex_model::is_built_copy(&s.file_path))
        .filter(|s| seen.insert((&s.file_path, s.line_number)))
        .collect()
}

fn template(r: &Record, s: &Site) -> Template {
    errdex_lang::language(r.language).template(&r.message_pattern, &s.args, &s.callee)
}

/// The literal text of a template.
fn literal(t: &Template) -> String {
    own_text(t, |_| None)
}

/// The text a site prints whatever its values: the literal, and the text
/// of each hole filled by a string constant of the package
/// (`const warning = "recursive set of Transformers detected"`).
fn own_text(t: &Template, constant: impl Fn(&str) -> Option<String>) -> String {
    let plain_name = |a: &str| !a.is_empty() && a.chars().all(|c| c.is_alphanumeric() || c == '_');
    t.segments
        .iter()
        .filter_map(|seg| match seg {
            Segment::Lit(l) => Some(l.clone()),
            Segment::Hole(h) => h
                .arg
                .as_deref()
                .filter(|a| plain_name(a))
                .and_then(&constant),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last name of a dotted or `::` path (`errors.InvalidClaimError` →
/// `InvalidClaimError`).
fn last_name(path: &str) -> &str {
    path.rsplit(['.', ':']).next().unwrap_or(path)
}

/// Words of two letters or more that are not [`GENERIC_WORDS`].
fn telling_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .map(str::to_lowercase)
        .filter(|w| !GENERIC_WORDS.contains(&w.as_str()))
        .collect()
}

/// Too little of its own to find: no telling word (`%s: %v`, `error: %v`,
/// `unexpected error`), or fewer than five letters in all (`EOF`).
pub(crate) fn too_little_text(literal: &str) -> bool {
    telling_words(literal).is_empty() || literal.chars().filter(|c| c.is_alphabetic()).count() < 5
}

/// A Go expression whose value is an error or its text: `err`,
/// `readErr`, `ctx.Err()`, `err.Error()`.
fn is_error_value(expr: &str) -> bool {
    let e = expr.trim().trim_end_matches(".Error()");
    e.ends_with(".Err()") || e == "e" || is_error_name(e)
}

/// A Go-style error variable: `err`, `rerr`, `readErr`, `lastError`.
pub(crate) fn is_error_name(name: &str) -> bool {
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') || name.starts_with("std") {
        return false;
    }
    name == "err"
        || (name.len() <= 6 && name.ends_with("err"))
        || (name.len() > 3 && (name.ends_with("Err") || name.ends_with("Error")))
}

fn ambiguous(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    if sites.len() < 2 || sentinel_sites(r, sites).len() == sites.len() {
        return;
    }
    let t = template(r, sites[0]);
    if too_little_text(&literal(&t)) {
        return; // untraceable-message says it
    }
    let statement = |s: &Site| (platform_free(&s.file_path), s.function.clone());
    let distinct: std::collections::BTreeSet<_> = sites.iter().map(|s| statement(s)).collect();
    if distinct.len() < 2 {
        return;
    }
    for s in sites {
        let others: Vec<Place> = sites
            .iter()
            .filter(|o| !std::ptr::eq(**o, *s))
            .map(|o| Place {
                file: o.file_path.clone(),
                line: o.line_number,
                note: Some(format!("also printed {}", in_function(o))),
            })
            .collect();
        let mut f = finding(
            "ambiguous-message",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` is also printed at {} other site{}, so a log line cannot tell which ran; {}",
                r.message_pattern,
                others.len(),
                if others.len() == 1 { "" } else { "s" },
                suggestion(&r.message_pattern, s)
            ),
        );
        f.related = others;
        out.push(f);
    }
}

fn in_function(s: &Site) -> String {
    match &s.function {
        Some(f) => format!("in {f}"),
        None => "at package level".to_string(),
    }
}

/// The words of the site's function its message does not say yet.
fn suggestion(pattern: &str, s: &Site) -> String {
    let said = pattern.to_lowercase();
    let words: Vec<String> = s
        .function
        .as_deref()
        .map(identifier_words)
        .unwrap_or_default()
        .into_iter()
        .filter(|w| w.len() > 2 && !said.contains(w.as_str()))
        .collect();
    if words.is_empty() {
        "say what this site does that the others do not".to_string()
    } else {
        format!(
            "say what this site does, e.g. with words of {}: {}",
            s.function.as_deref().unwrap_or("its function"),
            words.join(", ")
        )
    }
}

/// `readConfigFile` → read, config, file; `load_cache` → load, cache.
pub(crate) fn identifier_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The path with its platform suffixes removed: `a/x_linux_amd64.go` →
/// `a/x.go`.
fn platform_free(path: &str) -> String {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let mut stem = stem.to_string();
    while let Some((head, tail)) = stem.rsplit_once('_') {
        if !PLATFORM_SUFFIXES.contains(&tail.to_lowercase().as_str()) {
            break;
        }
        stem = head.to_string();
    }
    format!("{dir}/{stem}.{ext}")
}

/// Sites that declare a sentinel: a package-level `var ErrX = …`.
fn sentinel_sites<'a>(r: &Record, sites: &[&'a Site]) -> Vec<&'a Site> {
    sites
        .iter()
        .copied()
        .filter(|s| {
            r.language == Lang::Go
                && s.function.is_none()
                && s.error_class.is_some()
                && s.error_type == ErrorType::Exception
        })
        .collect()
}

fn duplicate_sentinel(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    let sentinels = sentinel_sites(r, sites);
    let mut by_package: BTreeMap<&str, Vec<&Site>> = BTreeMap::new();
    for s in &sentinels {
        let dir = s.file_path.rsplit_once('/').map_or("", |(d, _)| d);
        by_package.entry(dir).or_default().push(s);
    }
    if by_package.len() < 2 {
        return;
    }
    for s in &sentinels {
        let mut f = finding(
            "duplicate-sentinel",
            &s.file_path,
            s.line_number,
            format!(
                "sentinel {} = `{}` is declared with the same text in {} other package{}: errors.Is tells them apart but no log can; declare it once and import it, or say the package in its text",
                s.error_class.as_deref().unwrap_or("?"),
                r.message_pattern,
                by_package.len() - 1,
                if by_package.len() == 2 { "" } else { "s" }
            ),
        );
        f.related = sentinels
            .iter()
            .filter(|o| !std::ptr::eq(**o, *s))
            .map(|o| Place {
                file: o.file_path.clone(),
                line: o.line_number,
                note: Some(format!(
                    "also declared as {}",
                    o.error_class.as_deref().unwrap_or("?")
                )),
            })
            .collect();
        out.push(f);
    }
}

fn go_lost_cause(s: &Site, t: &Template, out: &mut Vec<Finding>) {
    if s.callee != "fmt.Errorf" {
        return;
    }
    let holes: Vec<_> = t
        .segments
        .iter()
        .filter_map(|seg| match seg {
            Segment::Hole(h) => Some(h),
            Segment::Lit(_) => None,
        })
        .collect();
    if holes.iter().any(|h| h.verb.ends_with('w')) {
        return;
    }
    let Some(h) = holes.iter().find(|h| {
        h.arg.as_deref().is_some_and(is_error_value)
            && matches!(h.verb.chars().last(), Some('v' | 's' | 'q'))
    }) else {
        return;
    };
    out.push(finding(
        "lost-cause",
        &s.file_path,
        s.line_number,
        format!(
            "`{}` formats the error `{}` with {}, so errors.Is and errors.As cannot reach it; wrap it with %w",
            t.segments
                .iter()
                .map(|seg| match seg {
                    Segment::Lit(l) => l.clone(),
                    Segment::Hole(h) => h.verb.clone(),
                })
                .collect::<String>(),
            h.arg.as_deref().unwrap_or("?"),
            h.verb
        ),
    ));
}
