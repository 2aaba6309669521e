//! `errdex lint`: what in a repository's messages users cannot trace or
//! handle, for maintainers in review and CI.
//!
//! Two sources feed the rules ([`rules::RULES`]): the records an index run
//! finds (messages, their sites and the values that fill their holes:
//! `ambiguous-message`, `untraceable-message`, `style`, `leaks-secret`,
//! `duplicate-sentinel`, Go's `lost-cause`), and the syntax of each source
//! file (handlers: `swallowed-error`, `lost-cause` in the languages with
//! exceptions). Findings carry fingerprints that survive moved lines, for
//! baselines and SARIF ([`sarif`]).

mod baseline;
mod changed;
mod declared;
mod records;
pub mod rules;
pub mod sarif;
mod syntax;

pub use baseline::Baseline;
pub use changed::ChangedLines;
pub use rules::{Level, Rule, RULES};

use errdex_model::{Lang, RepoDataset};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong and what to do.
        message: String,
    },
    /// `--diff REF` could not be worked out.
    #[error("--diff {reference}: {message}")]
    Diff {
        /// The ref given.
        reference: String,
        /// What git said, and what to do.
        message: String,
    },
}

/// One place a finding points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    /// Path relative to the linted root, `/`-separated.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// What is there, for related places (`also printed in loadCache`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One thing a rule reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The rule's id.
    pub rule: &'static str,
    /// The rule's level.
    pub level: Level,
    /// Where.
    pub file: String,
    /// 1-based line of the statement.
    pub line: u32,
    /// What is wrong and what to do, without line numbers (they move).
    pub message: String,
    /// Other places that belong to it (the other sites of a message).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Place>,
    /// Stable across moved lines: the rule, the file, the message and the
    /// text of the line, and which of several equal ones it is.
    pub fingerprint: String,
}

/// What a lint run reads.
pub struct Input<'a> {
    /// The folder linted.
    pub root: &'a Path,
    /// What an index run found there (info and debug logs included).
    pub dataset: &'a RepoDataset,
    /// Its source files: path relative to `root`, and language.
    pub files: &'a [(String, Lang)],
}

/// Runs every rule of `only` (every rule when empty) and returns the
/// findings by file and line; generated files (`Code generated … DO NOT
/// EDIT`, `@generated`) have none.
pub fn lint(input: &Input<'_>, only: &[&str]) -> Vec<Finding> {
    let wanted = |id: &str| only.is_empty() || only.contains(&id);
    let declared = declared::Declared::new(input.root, input.files);
    let mut found: Vec<Finding> = records::check(input.dataset, &declared)
        .into_iter()
        .filter(|f| wanted(f.rule))
        .collect();
    if wanted("swallowed-error") || wanted("lost-cause") {
        let per_file: Vec<Vec<Finding>> = input
            .files
            .par_iter()
            .filter(|(rel, _)| !errdex_model::is_built_copy(rel))
            .map(|(rel, lang)| syntax::check(&input.root.join(rel), rel, *lang))
            .collect();
        found.extend(per_file.into_iter().flatten().filter(|f| wanted(f.rule)));
    }
    finish(input.root, found)
}

/// Drops findings in generated files, sorts, and gives each its
/// fingerprint.
fn finish(root: &Path, mut found: Vec<Finding>) -> Vec<Finding> {
    found.sort_by(|a, b| (&a.file, a.line, a.rule).cmp(&(&b.file, b.line, b.rule)));
    let mut lines: HashMap<String, Option<Vec<String>>> = HashMap::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    found.retain_mut(|f| {
        let Some(text) = lines
            .entry(f.file.clone())
            .or_insert_with(|| source_lines(&root.join(&f.file)))
        else {
            return false;
        };
        let line = text.get(f.line as usize - 1).map_or("", |l| l.trim());
        // A format ending in CRLF writes protocol text for a peer (an
        // `Authorization:` header), not a message; patterns drop the CRLF,
        // the source line keeps it.
        if f.rule == "leaks-secret" && line.contains("\\r\\n") {
            return false;
        }
        let key = digest(&[f.rule, &f.file, &f.message, line]);
        let n = seen.entry(key.clone()).or_default();
        *n += 1;
        f.fingerprint = format!("{key}:{n}");
        true
    });
    found
}

/// A file's lines, or `None` for a generated file (or one that cannot be
/// read: the index run has reported it).
fn source_lines(path: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    if is_generated(&text) {
        return None;
    }
    Some(text.lines().map(str::to_string).collect())
}

/// Go's `// Code generated … DO NOT EDIT.` and the `@generated` marker of
/// other tools, in the file's head.
pub(crate) fn is_generated(text: &str) -> bool {
    let mut end = text.len().min(2048);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    (head.contains("Code generated") && head.contains("DO NOT EDIT")) || head.contains("@generated")
}

/// The first 16 hex digits of SHA-256 over the parts.
fn digest(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A finding as the rules make it; `finish` adds the fingerprint.
pub(crate) fn finding(rule: &'static str, file: &str, line: u32, message: String) -> Finding {
    Finding {
        rule,
        level: rules::rule(rule).expect("a known rule").level,
        file: file.to_string(),
        line,
        message,
        related: Vec::new(),
        fingerprint: String::new(),
    }
}

#[cfg(test)]
mod tests;
