//! Sites → records: one record per message pattern, every site kept, the
//! first in path order primary, with its snippet and pinned link.

use crate::snapshot::{blob_url, Remote, Snapshot};
use crate::{Warning, SNIPPET_CONTEXT};
use errdex_model::{record_id, unique_slugs, RawSite, Record, Site, SCHEMA_VERSION};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

pub(crate) struct Context<'a> {
    pub repo: &'a str,
    pub commit: Option<&'a str>,
    pub remote: Option<&'a Remote>,
    pub snap: &'a Snapshot,
    pub source: &'a crate::source::Source,
    /// Lines per repo-relative path, to clamp snippets at the end of a file.
    pub line_counts: &'a HashMap<String, u32>,
    pub timestamp: &'a str,
    /// The blob each repo-relative path was read from, and the facts
    /// cache: snippets of a blob already seen are not read again.
    pub blobs: &'a HashMap<&'a str, gix::ObjectId>,
    pub cache: Option<&'a crate::cache::FactsCache>,
}

impl Context<'_> {
    fn range(&self, path: &str, line: u32) -> (u32, u32) {
        let last = self
            .line_counts
            .get(path)
            .copied()
            .unwrap_or(line)
            .max(line);
        (
            line.saturating_sub(SNIPPET_CONTEXT).max(1),
            (line + SNIPPET_CONTEXT).min(last),
        )
    }

    fn link(&self, path: &str, start: u32, end: u32) -> Option<String> {
        blob_url(self.remote?, self.commit?, path, start, end)
    }
}

/// The snippets around `lines` (line, column) of the file at repo path
/// `path`, by line; from the cache when this blob's snippets at these
/// lines were cut before.
fn file_snippets(
    cx: &Context<'_>,
    path: &str,
    lines: &[(u32, u32)],
) -> Result<HashMap<u32, String>, String> {
    let wanted: Vec<(u32, u32, (u32, u32))> = lines
        .iter()
        .map(|&(l, column)| (l, column, cx.range(path, l)))
        .collect();
    let key = cx.cache.zip(cx.blobs.get(path)).map(|(cache, blob)| {
        let extra = serde_json::to_string(&wanted).unwrap_or_default();
        (cache, cache.key("snippets", path, blob.as_bytes(), &extra))
    });
    if let Some(hit) = key.as_ref().and_then(|(cache, k)| cache.get(k)) {
        return Ok(hit);
    }
    let rel = path
        .strip_prefix(&cx.snap.prefix)
        .map(|p| p.trim_start_matches('/'))
        .unwrap_or(path);
    let bytes = cx.source.read(rel).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.split('\n').collect();
    let cut: HashMap<u32, String> = wanted
        .iter()
        .map(|&(l, column, range)| (l, snippet(&all, range, (l, column))))
        .collect();
    if let Some((cache, k)) = key {
        cache.put(k, &cut);
    }
    Ok(cut)
}

pub(crate) fn records(sites: Vec<RawSite>, cx: &Context<'_>) -> (Vec<Record>, Vec<Warning>) {
    let mut groups: BTreeMap<String, Vec<RawSite>> = BTreeMap::new();
    for s in sites {
        groups.entry(s.message_pattern.clone()).or_default().push(s);
    }
    for g in groups.values_mut() {
        g.sort_by(|a, b| {
            (&a.file_path, a.line_number, a.column).cmp(&(&b.file_path, b.line_number, b.column))
        });
    }
    let slugs = unique_slugs(groups.keys().map(String::as_str));

    // Snippets come from the primary sites' files, read once each.
    let mut primaries: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for g in groups.values() {
        primaries
            .entry(g[0].file_path.as_str())
            .or_default()
            .push((g[0].line_number, g[0].column));
    }
    let files: Vec<(&str, Vec<(u32, u32)>)> = primaries.into_iter().collect();
    /// Snippets by line for one file, or why the file could not be read.
    type FileSnippets = (String, Result<HashMap<u32, String>, String>);
    let read: Vec<FileSnippets> = files
        .par_iter()
        .map(|(path, lines)| (path.to_string(), file_snippets(cx, path, lines)))
        .collect();
    let mut snippets: HashMap<String, HashMap<u32, String>> = HashMap::new();
    let mut warnings = Vec::new();
    for (path, r) in read {
        match r {
            Ok(m) => {
                snippets.insert(path, m);
            }
            Err(e) => warnings.push(Warning {
                path,
                message: format!("changed or vanished during the run ({e}); snippet left empty"),
            }),
        }
    }

    // Each record is built from its own sites, moved rather than copied,
    // on every core.
    let groups: Vec<((String, Vec<RawSite>), String)> = groups.into_iter().zip(slugs).collect();
    let records = groups
        .into_par_iter()
        .map(|((pattern, sites), slug)| record(cx, &snippets, pattern, sites, slug))
        .collect();
    (records, warnings)
}

/// The record of the sites of one pattern, the first primary.
fn record(
    cx: &Context<'_>,
    snippets: &HashMap<String, HashMap<u32, String>>,
    pattern: String,
    sites: Vec<RawSite>,
    slug: String,
) -> Record {
    let primary = &sites[0];
    let (start, end) = cx.range(&primary.file_path, primary.line_number);
    let source_code = snippets
        .get(&primary.file_path)
        .and_then(|m| m.get(&primary.line_number))
        .cloned()
        .unwrap_or_default();
    let github_url = cx.link(&primary.file_path, start, end);
    let (error_message, error_type, severity, language, file_path, line_number) = (
        primary.error_message.clone(),
        primary.error_type,
        primary.severity,
        primary.lang,
        primary.file_path.clone(),
        primary.line_number,
    );
    let error_code = sites.iter().find_map(|s| s.error_code.clone());
    let error_class = sites.iter().find_map(|s| s.error_class.clone());
    let http_status = sites.iter().find_map(|s| s.http_status);
    let out_sites: Vec<Site> = sites
        .into_iter()
        .map(|s| {
            let (a, b) = cx.range(&s.file_path, s.line_number);
            Site {
                github_url: cx.link(&s.file_path, a, b),
                file_path: s.file_path,
                line_number: s.line_number,
                function: s.function,
                callee: s.callee,
                error_type: s.error_type,
                error_class: s.error_class,
                args: s.args,
                source_code_start: a,
                source_code_end: b,
                facts: s.facts,
            }
        })
        .collect();
    Record {
        id: record_id(cx.repo, &pattern),
        repo: cx.repo.to_string(),
        slug,
        error_code,
        error_message,
        error_type,
        error_class,
        http_status,
        severity,
        file_path,
        line_number,
        source_code,
        source_code_start: start,
        source_code_end: end,
        github_url,
        documentation: None,
        trigger_scenarios: None,
        common_situations: None,
        solutions: Vec::new(),
        example_fix: None,
        handling_strategy: None,
        validation_code: None,
        type_guard: None,
        try_catch_pattern: None,
        prevention_tips: Vec::new(),
        tags: Vec::new(),
        background_tag: None,
        analyzed_sha: cx.commit.map(str::to_string),
        analyzed_at: cx.timestamp.to_string(),
        content_changed_at: cx.timestamp.to_string(),
        schema_version: SCHEMA_VERSION,
        sites: out_sites,
        related_errors: Vec::new(),
        causes: Vec::new(),
        analyzer: None,
        language,
        first_seen: None,
        last_seen: None,
        removed_in: None,
        versions: Vec::new(),
        message_pattern: pattern,
    }
}

/// Longest line a snippet keeps whole; a longer line (minified code)
/// keeps a window of this many characters, around the site on its own
/// line, from the start on the others.
pub(crate) const SNIPPET_LINE_CHARS: usize = 300;
/// Longest snippet: a record's size stays bounded whatever the file.
const SNIPPET_BYTES: usize = 16 * 1024;

/// Lines `start..=end` (1-based) joined with `\n`, carriage returns
/// dropped, each line cut to a window of [`SNIPPET_LINE_CHARS`] (around
/// `column` on the site's line), the whole cut at [`SNIPPET_BYTES`].
fn snippet(lines: &[&str], (start, end): (u32, u32), (line, column): (u32, u32)) -> String {
    let from = (start as usize).saturating_sub(1).min(lines.len());
    let to = (end as usize).min(lines.len());
    let mut out = String::new();
    for (i, l) in lines[from..to].iter().enumerate() {
        let l = l.strip_suffix('\r').unwrap_or(l);
        let at = if from + i + 1 == line as usize {
            column as usize
        } else {
            1
        };
        let kept = window(l, at.saturating_sub(1));
        if out.len() + kept.len() + 1 > SNIPPET_BYTES {
            break;
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&kept);
    }
    out
}

/// `line` whole when it is short; otherwise [`SNIPPET_LINE_CHARS`]
/// characters around the byte offset `at` (a column from 0), with `…`
/// where text was left out.
fn window(line: &str, at: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= SNIPPET_LINE_CHARS {
        return line.into();
    }
    let half = SNIPPET_LINE_CHARS / 2;
    let mut lo = at.min(line.len()).saturating_sub(half);
    while !line.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = (lo + SNIPPET_LINE_CHARS).min(line.len());
    while !line.is_char_boundary(hi) {
        hi -= 1;
    }
    let before = if lo > 0 { "…" } else { "" };
    let after = if hi < line.len() { "…" } else { "" };
    format!("{before}{}{after}", &line[lo..hi]).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_is_inclusive_and_clamped() {
        let lines = ["a", "b\r", "c"];
        assert_eq!(snippet(&lines, (1, 2), (1, 1)), "a\nb");
        assert_eq!(snippet(&lines, (2, 9), (2, 1)), "b\nc");
        assert_eq!(snippet(&lines, (5, 9), (5, 1)), "");
    }

    #[test]
    fn a_minified_line_keeps_a_window_around_the_site() {
        let long = format!(
            "{}throw new Error(\"bad\"){}",
            "a;".repeat(5000),
            "b;".repeat(5000)
        );
        let column = 10_001;
        let lines = ["// header", long.as_str(), "next"];
        let s = snippet(&lines, (1, 3), (2, column));
        let kept: Vec<&str> = s.split('\n').collect();
        assert_eq!(kept[0], "// header");
        assert!(kept[1].contains("throw new Error(\"bad\")"), "{}", kept[1]);
        assert!(kept[1].starts_with('…') && kept[1].ends_with('…'));
        assert!(kept[1].chars().count() <= SNIPPET_LINE_CHARS + 2);
        assert_eq!(kept[2], "next");
        // Other long lines keep their start; the whole stays bounded.
        let many = vec![long.as_str(); 200];
        let s = snippet(&many, (1, 200), (1, 1));
        assert!(
            s.starts_with("a;a;") && s.len() <= SNIPPET_BYTES,
            "{}",
            s.len()
        );
    }

    #[test]
    fn a_window_never_cuts_a_character() {
        let line = "é".repeat(1000);
        for at in [0, 1, 301, 999, 1999, 5000] {
            let w = window(&line, at);
            assert!(w.chars().all(|c| c == 'é' || c == '…'), "{w}");
        }
    }
}
