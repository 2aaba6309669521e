//! How a record is kept in a row: its JSON with the run's commit and
//! timestamps replaced by marks, so that a record a new commit did not
//! change is byte for byte the row already stored and is not written
//! again. Reads put the repository's commit and the row's times back.

use crate::{Error, Result};
use errdex_model::{Analysed, AnalysisMemo, Record};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Where the repository's commit stands in a stored record (its
/// `analyzedSha`, its pinned links): as JSON text, inside strings.
const COMMIT_MARK: &str = r"\u0001errdex:commit\u0001";
const ANALYZED_MARK: &str = r"\u0001errdex:analyzedAt\u0001";
const CHANGED_MARK: &str = r"\u0001errdex:contentChangedAt\u0001";
const MARK_OPEN: &str = r"\u0001errdex:";
const MARK_CLOSE: &str = r"\u0001";

/// What is stored of a record now: for the row decided by [`encode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stored {
    pub seq: i64,
    pub hash: String,
    pub content_changed_at: String,
    /// `NULL`: the repository's `analyzed_at`.
    pub analyzed_at: Option<String>,
    /// What its static analysis was made from (`None`: a row another
    /// writer than an index run wrote, or one written before memos).
    pub memo: Option<AnalysisMemo>,
}

/// A record as a row: marked JSON, the hash of what it says (marks
/// left out), and its times.
pub(crate) struct Encoded {
    pub hash: String,
    pub json: String,
    pub content_changed_at: String,
    pub analyzed_at: Option<String>,
    /// The `record_traces` row: [`TraceFields`], marked alike.
    pub trace: String,
    /// The row stored already says all of this: nothing to write.
    pub unchanged: bool,
    /// What the record's analysis was made from, stored with a new row.
    pub memo: Option<AnalysisMemo>,
}

/// The run a record comes from: the repository's commit (records pinned
/// to it are marked) and the time most of its records were analysed.
#[derive(Clone, Copy)]
pub(crate) struct RunStamp<'a> {
    pub commit: Option<&'a str>,
    pub analyzed_at: &'a str,
}

/// `json` with the record's own timestamps and, where the record is pinned
/// to the run's commit, that commit replaced by marks, and the
/// [`content_hash`] of the result, made in one pass over the text.
fn mark(json: &str, r: &Record, commit: Option<&str>) -> (String, String) {
    // A text that holds a mark of its own is hashed as marks are: from the
    // marked copy.
    if memchr::memmem::find(json.as_bytes(), MARK_OPEN.as_bytes()).is_some() {
        let marked = mark_spans(json, r, commit, |_| {});
        let hash = content_hash(&marked);
        return (marked, hash);
    }
    let mut h = Sha256::new();
    let marked = mark_spans(json, r, commit, |unmarked| h.update(unmarked));
    (marked, hex12(&h.finalize()))
}

/// `json` with its marks in, handing each unmarked stretch to `seen`.
fn mark_spans(json: &str, r: &Record, commit: Option<&str>, mut seen: impl FnMut(&str)) -> String {
    let mut spans: Vec<(usize, usize, &str)> = Vec::with_capacity(4);
    for (field, value, mark) in [
        ("analyzedAt", r.analyzed_at.as_str(), ANALYZED_MARK),
        (
            "contentChangedAt",
            r.content_changed_at.as_str(),
            CHANGED_MARK,
        ),
    ] {
        let whole = format!("\"{field}\":\"{value}\"");
        if let Some(at) = memchr::memmem::find(json.as_bytes(), whole.as_bytes()) {
            let start = at + field.len() + 4;
            spans.push((start, start + value.len(), mark));
        }
    }
    if let Some(sha) = pinned_commit(r, commit) {
        spans.extend(
            memchr::memmem::find_iter(json.as_bytes(), sha.as_bytes())
                .map(|at| (at, at + sha.len(), COMMIT_MARK)),
        );
    }
    spans.sort_unstable();
    let mut out = String::with_capacity(json.len() + spans.len() * COMMIT_MARK.len());
    let mut from = 0;
    for (start, end, mark) in spans {
        // A commit inside a timestamp's span (or the reverse) is marked once.
        if start < from {
            continue;
        }
        seen(&json[from..start]);
        out.push_str(&json[from..start]);
        out.push_str(mark);
        from = end;
    }
    seen(&json[from..]);
    out.push_str(&json[from..]);
    out
}

/// The run's commit when `r` is pinned to it (a history run keeps records
/// of older versions at their own commits, written as they are).
fn pinned_commit<'a>(r: &Record, commit: Option<&'a str>) -> Option<&'a str> {
    commit.filter(|c| c.len() >= 7 && r.analyzed_sha.as_deref() == Some(*c))
}

/// The first 12 bytes of the SHA-256 of `marked` without its marks, in
/// hex: what the record says, whenever and at whichever commit it was said.
fn content_hash(marked: &str) -> String {
    let mut h = Sha256::new();
    let mut rest = marked;
    while let Some(i) = rest.find(MARK_OPEN) {
        h.update(&rest[..i]);
        let after = &rest[i + MARK_OPEN.len()..];
        rest = after
            .find(MARK_CLOSE)
            .map_or(after, |j| &after[j + MARK_CLOSE.len()..]);
    }
    h.update(rest);
    hex12(&h.finalize())
}

/// The first 12 bytes of a digest, in hex.
fn hex12(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest[..12]
        .iter()
        .fold(String::with_capacity(24), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Puts the repository's commit and the row's times into a stored JSON
/// text (a record's or a trace's). Rows without marks come back as they are.
pub(crate) fn fill(
    json: String,
    commit: Option<&str>,
    analyzed_at: Option<&str>,
    changed_at: Option<&str>,
) -> String {
    if !json.contains(MARK_OPEN) {
        return json;
    }
    let mut out = json;
    for (mark, value) in [
        (COMMIT_MARK, commit),
        (ANALYZED_MARK, analyzed_at),
        (CHANGED_MARK, changed_at),
    ] {
        if let Some(v) = value {
            out = out.replace(mark, v);
        }
    }
    out
}

/// A stored trace (or record) read only for its sites: the repository's
/// commit put back into its links, without a copy when it has none.
pub(crate) fn with_commit<'a>(json: &'a str, commit: Option<&str>) -> std::borrow::Cow<'a, str> {
    match commit {
        Some(c) if json.contains(COMMIT_MARK) => json.replace(COMMIT_MARK, c).into(),
        _ => json.into(),
    }
}

/// The row for `r`, given what is stored under its id. A record that
/// says what the stored one says keeps its `contentChangedAt`; one whose
/// times and content all match is left alone.
pub(crate) fn encode(r: &Record, run: RunStamp<'_>, stored: Option<&Stored>) -> Result<Encoded> {
    let (json, marked_hash) = mark(&serde_json::to_string(r)?, r, run.commit);
    let pinned = pinned_commit(r, run.commit).is_some();
    // A record pinned to another commit than the run's (an older version's,
    // in a history run) keeps that commit in its text; what it says is the
    // same whichever commit it names.
    let own_sha = r
        .analyzed_sha
        .as_deref()
        .filter(|s| !pinned && s.len() >= 7);
    let hash = match own_sha {
        Some(sha) => content_hash(&json.replace(sha, "")),
        None => marked_hash,
    };
    let mut trace = serde_json::to_string(&TraceFields::of(r))?;
    if pinned {
        trace = trace.replace(r.analyzed_sha.as_deref().unwrap_or_default(), COMMIT_MARK);
    }
    let analyzed_at = (r.analyzed_at != run.analyzed_at).then(|| r.analyzed_at.clone());
    let same = stored.filter(|s| s.hash == hash);
    let content_changed_at = same.map_or_else(
        || r.content_changed_at.clone(),
        |s| s.content_changed_at.clone(),
    );
    Ok(Encoded {
        // Only a row whose every other word is filled in on reading is
        // the same row.
        unchanged: own_sha.is_none() && same.is_some_and(|s| s.analyzed_at == analyzed_at),
        hash,
        json,
        content_changed_at,
        analyzed_at,
        trace,
        memo: None,
    })
}

/// The stored row of a record an index run took over: nothing to write,
/// nothing encoded.
fn taken_over(r: &Record, stored: Option<&Stored>) -> Result<Encoded> {
    let s = stored.ok_or_else(|| Error::NoStoredRow(r.id.clone()))?;
    Ok(Encoded {
        hash: s.hash.clone(),
        json: String::new(),
        content_changed_at: s.content_changed_at.clone(),
        analyzed_at: s.analyzed_at.clone(),
        trace: String::new(),
        unchanged: true,
        memo: s.memo.clone(),
    })
}

/// What a replacement writes: the stored rows to remove (those gone, and
/// those whose record changed), the records to add, and the rows that
/// stay but whose analysis was made from other input than their stored
/// memo says (after an upgrade, or a neighbour's change that did not
/// change the row): without the new memo, every later run would analyse
/// them again.
pub(crate) struct Change<'a> {
    pub gone: Vec<i64>,
    pub fresh: Vec<(&'a Record, &'a Encoded)>,
    pub memos: Vec<(i64, &'a AnalysisMemo)>,
}

impl<'a> Change<'a> {
    /// The change from `stored` to `records` (encoded as `encoded`).
    pub(crate) fn of(
        records: &'a [Record],
        encoded: &'a [Encoded],
        stored: &HashMap<String, Stored>,
    ) -> Change<'a> {
        let kept: std::collections::HashSet<&str> = records
            .iter()
            .zip(encoded)
            .filter(|(_, e)| e.unchanged)
            .map(|(r, _)| r.id.as_str())
            .collect();
        let gone = stored
            .iter()
            .filter(|(id, _)| !kept.contains(id.as_str()))
            .map(|(_, s)| s.seq)
            .collect();
        let fresh = records
            .iter()
            .zip(encoded)
            .filter(|(_, e)| !e.unchanged)
            .collect();
        let memos = records
            .iter()
            .zip(encoded)
            .filter(|(_, e)| e.unchanged)
            .filter_map(|(r, e)| {
                let s = stored.get(&r.id)?;
                let memo = e.memo.as_ref()?;
                (s.memo.as_ref() != Some(memo)).then_some((s.seq, memo))
            })
            .collect();
        Change { gone, fresh, memos }
    }
}

/// [`encode`] for every record, in parallel, in order. `analysed` says,
/// in the same order, which records an index run took over as their
/// stored rows and what the others' analyses were made from (empty: every
/// record is encoded, with no memo).
pub(crate) fn encode_all(
    records: &[Record],
    run: RunStamp<'_>,
    stored: &HashMap<String, Stored>,
    analysed: &[Analysed],
) -> Result<Vec<Encoded>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = records.len().div_ceil(threads).max(256);
    std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .enumerate()
            .map(|(k, c)| {
                let how = analysed.get(k * chunk..).unwrap_or_default();
                scope.spawn(move || {
                    c.iter()
                        .enumerate()
                        .map(|(i, r)| match how.get(i) {
                            Some(Analysed::TakenOver) => taken_over(r, stored.get(&r.id)),
                            Some(Analysed::Fresh(memo)) => {
                                encode(r, run, stored.get(&r.id)).map(|mut e| {
                                    e.memo = Some(memo.clone());
                                    e
                                })
                            }
                            None => encode(r, run, stored.get(&r.id)),
                        })
                        .collect::<Result<Vec<_>>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(records.len());
        for h in handles {
            out.extend(h.join().expect("encoding does not panic")?);
        }
        Ok(out)
    })
}

/// The time most of `records` were analysed at (all of them, after an
/// index run): stored once on the repository, not on every row.
pub(crate) fn common_analyzed_at(records: &[Record]) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for r in records {
        *counts.entry(r.analyzed_at.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(t, _)| t.to_string())
        .unwrap_or_default()
}

/// A stored row as read back: the marked JSON, the repository's commit,
/// and the row's times.
pub(crate) type RecordRow = (String, Option<String>, Option<String>, Option<String>);

pub(crate) fn rows_to_records(rows: Vec<RecordRow>) -> Result<Vec<Record>> {
    rows.into_iter()
        .map(|(json, commit, analyzed, changed)| {
            let json = fill(
                json,
                commit.as_deref(),
                analyzed.as_deref(),
                changed.as_deref(),
            );
            serde_json::from_str(&json).map_err(Error::from)
        })
        .collect()
}

/// What tracing reads of a stored record, kept in `record_traces` so that
/// loading an atlas's templates parses a few hundred bytes per record
/// instead of the whole record. Positional (JSON arrays, no field names):
/// `[language, documentation, [site, …]]`.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct TraceFields(
    pub errdex_model::Lang,
    pub Option<String>,
    pub Vec<TraceSite>,
    #[serde(default, skip_serializing_if = "Option::is_none")] pub Option<crate::Presence>,
);

/// A site without its facts but its guards, fills and fields, which
/// tracing reads of them: `[file, line, function, callee, errorType,
/// errorClass, args, start, end, url, guards, fills, fields,
/// closedHoles]` (rows written before guards have ten, before fills
/// eleven, before fields twelve; a site without closed holes thirteen).
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct TraceSite(
    String,
    u32,
    Option<String>,
    String,
    errdex_model::ErrorType,
    Option<String>,
    Vec<String>,
    u32,
    u32,
    Option<String>,
    #[serde(default)] Vec<String>,
    #[serde(default)] Option<errdex_model::Fill>,
    #[serde(default)] Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")] Vec<errdex_model::ClosedHole>,
);

impl TraceFields {
    pub(crate) fn of(r: &Record) -> TraceFields {
        TraceFields(
            r.language,
            r.documentation.clone(),
            r.sites
                .iter()
                .map(|s| {
                    TraceSite(
                        s.file_path.clone(),
                        s.line_number,
                        s.function.clone(),
                        s.callee.clone(),
                        s.error_type,
                        s.error_class.clone(),
                        s.args.clone(),
                        s.source_code_start,
                        s.source_code_end,
                        s.github_url.clone(),
                        s.facts.guards.clone(),
                        s.facts.fills.clone(),
                        s.facts.fields.clone(),
                        s.facts.closed_holes.clone(),
                    )
                })
                .collect(),
            crate::Presence::of(r),
        )
    }
}

impl From<TraceSite> for crate::TraceSite {
    fn from(t: TraceSite) -> Self {
        crate::TraceSite {
            file_path: t.0,
            line_number: t.1,
            function: t.2,
            callee: t.3,
            args: t.6,
            github_url: t.9,
            guards: t.10,
            fills: t.11,
            fields: t.12,
            closed_holes: t.13,
        }
    }
}

/// What tracing reads of a whole stored record, for a row that has no
/// `record_traces` row.
#[derive(serde::Deserialize)]
pub(crate) struct RecordTraceFields {
    pub language: errdex_model::Lang,
    pub documentation: Option<String>,
    pub sites: Vec<WholeSite>,
}

/// A whole stored site as tracing reads it: the site, and its guards from
/// its facts.
#[derive(serde::Deserialize)]
pub(crate) struct WholeSite {
    #[serde(flatten)]
    site: crate::TraceSite,
    #[serde(default)]
    facts: WholeSiteFacts,
}

#[derive(serde::Deserialize, Default)]
struct WholeSiteFacts {
    #[serde(default)]
    guards: Vec<String>,
    #[serde(default)]
    fills: Option<errdex_model::Fill>,
    #[serde(default)]
    fields: Vec<String>,
    #[serde(default, rename = "closedHoles")]
    closed_holes: Vec<errdex_model::ClosedHole>,
}

impl From<WholeSite> for crate::TraceSite {
    fn from(w: WholeSite) -> Self {
        crate::TraceSite {
            guards: w.facts.guards,
            fills: w.facts.fills,
            fields: w.facts.fields,
            closed_holes: w.facts.closed_holes,
            ..w.site
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks as plain replacements put them: what rows stored before
    /// the one-pass marking hold.
    fn marked_by_replacing(json: &str, r: &Record, commit: &str) -> String {
        json.replacen(
            &format!("\"analyzedAt\":\"{}\"", r.analyzed_at),
            &format!("\"analyzedAt\":\"{ANALYZED_MARK}\""),
            1,
        )
        .replacen(
            &format!("\"contentChangedAt\":\"{}\"", r.content_changed_at),
            &format!("\"contentChangedAt\":\"{CHANGED_MARK}\""),
            1,
        )
        .replace(commit, COMMIT_MARK)
    }

    #[test]
    fn one_pass_marks_and_hashes_as_replacing_and_hashing_do() {
        let commit = "0123456789abcdef0123456789abcdef01234567";
        let mut r = crate::conformance::record("o/r", "open %s: %w", 12);
        r.analyzed_sha = Some(commit.into());
        r.github_url = Some(format!("https://github.com/o/r/blob/{commit}/a.go#L12"));
        r.analyzed_at = "2026-12-07T10:00:00.000Z".into();
        r.content_changed_at = "2026-12-01T09:00:00.000Z".into();
        let json = serde_json::to_string(&r).unwrap();
        let (marked, hash) = mark(&json, &r, Some(commit));
        assert_eq!(marked, marked_by_replacing(&json, &r, commit));
        assert!(!marked.contains(commit) && !marked.contains("2026-12-0"));
        assert_eq!(hash, content_hash(&marked));
        // What a record says does not depend on when or at which commit.
        r.analyzed_at = "2027-01-01T00:00:00.000Z".into();
        let other = "fedcba9876543210fedcba9876543210fedcba98";
        r.analyzed_sha = Some(other.into());
        r.github_url = Some(format!("https://github.com/o/r/blob/{other}/a.go#L12"));
        let again = serde_json::to_string(&r).unwrap();
        assert_eq!(mark(&again, &r, Some(other)).1, hash);
    }

    #[test]
    fn a_text_holding_a_mark_of_its_own_hashes_as_before() {
        let mut r = crate::conformance::record("o/r", "odd \u{1}errdex:x\u{1} text", 3);
        r.analyzed_at = "2026-12-07T10:00:00.000Z".into();
        r.content_changed_at = r.analyzed_at.clone();
        let json = serde_json::to_string(&r).unwrap();
        let (marked, hash) = mark(&json, &r, None);
        assert_eq!(hash, content_hash(&marked));
    }
}
