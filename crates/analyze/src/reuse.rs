//! Analysis on a re-index: records made from what their stored rows were
//! made from are taken over instead of analysed, so a commit that touches
//! a few files costs the analysis of the records it touched.

use crate::{analyze, related, Analysis, STATIC};
use errdex_model::{Analysed, AnalysisMemo, Record, RelatedError};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// What the analysis of `r` is made from, as a hash: the record as
/// extraction left it and the build that analyses it. The run's commit and
/// the record's times are left out, as the store leaves them out of what a
/// record says: the same code at a new commit is the same input.
pub fn analysis_input(r: &Record, build: &str, commit: Option<&str>) -> String {
    // MessagePack: the record's bytes without JSON's escaping.
    let bytes = rmp_serde::to_vec(r).unwrap_or_default();
    let mut marks: Vec<&[u8]> = vec![r.analyzed_at.as_bytes(), r.content_changed_at.as_bytes()];
    marks.extend(commit.filter(|c| c.len() >= 7).map(str::as_bytes));
    marks.retain(|m| !m.is_empty());
    let mut h = Sha256::new();
    h.update(build.as_bytes());
    h.update([0]);
    hash_without(&mut h, &bytes, &marks);
    hex(&h.finalize())
}

/// Feeds `text` to `h` with every occurrence of each mark left out.
fn hash_without(h: &mut Sha256, text: &[u8], marks: &[&[u8]]) {
    let mut spans: Vec<(usize, usize)> = marks
        .iter()
        .flat_map(|m| memchr::memmem::find_iter(text, m).map(move |at| (at, at + m.len())))
        .collect();
    spans.sort_unstable();
    let mut from = 0;
    for (start, end) in spans {
        if start >= from {
            h.update(&text[from..start]);
            from = end;
        }
    }
    h.update(&text[from..]);
}

/// A record's related records, as a hash.
fn related_key(related: &[RelatedError]) -> String {
    let mut h = Sha256::new();
    for r in related {
        h.update(r.id.as_bytes());
        h.update([0]);
        h.update(r.error_message.as_bytes());
        h.update([0]);
    }
    hex(&h.finalize())
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest[..16]
        .iter()
        .fold(String::with_capacity(32), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// [`crate::analyze_all`] for an index run whose repository has stored
/// rows: `earlier` holds, by record id, what each stored row's analysis
/// was made from. A record with the same input and, once every record is
/// related, the same related records is [`Analysed::TakenOver`] and left
/// unanalysed; every other record is analysed and related as
/// `analyze_all` does, and returns its memo.
pub fn analyze_reusing(
    records: &mut [Record],
    earlier: &HashMap<String, AnalysisMemo>,
    build: &str,
    commit: Option<&str>,
) -> Vec<Analysed> {
    let inputs: Vec<String> = records
        .par_iter()
        .map(|r| analysis_input(r, build, commit))
        .collect();
    let stored: Vec<Option<&AnalysisMemo>> = records
        .iter()
        .zip(&inputs)
        .map(|(r, input)| earlier.get(&r.id).filter(|m| &m.input == input))
        .collect();
    let mut analyses: Vec<Option<Analysis>> = records
        .par_iter()
        .zip(&stored)
        .map(|(r, s)| s.is_none().then(|| analyze(r)))
        .collect();
    let families: Vec<String> = analyses
        .iter()
        .zip(&stored)
        .map(|(a, s)| match (a, s) {
            (Some(a), _) => a.background_tag.clone(),
            (None, Some(s)) => s.family.clone(),
            (None, None) => unreachable!("a record without a stored analysis is analysed"),
        })
        .collect();
    let family_refs: Vec<&str> = families.iter().map(String::as_str).collect();
    let related = related::related(records, &family_refs);
    records
        .par_iter_mut()
        .zip(analyses.par_iter_mut())
        .zip(related)
        .zip(inputs)
        .zip(stored)
        .map(|((((r, analysis), rel), input), stored)| {
            let related = related_key(&rel);
            if stored.is_some_and(|s| s.related == related) {
                return Analysed::TakenOver;
            }
            let a = analysis.take().unwrap_or_else(|| analyze(r));
            let family = a.background_tag.clone();
            a.apply(r, STATIC);
            r.related_errors = rel;
            Analysed::Fresh(AnalysisMemo {
                input,
                related,
                family,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(commit: &str) -> Vec<Record> {
        errdex_testkit::index_copy(
            &errdex_testkit::fixtures().join("seed"),
            "kubernetes/kops",
            Some(commit),
        )
        .records
    }

    #[test]
    fn the_input_leaves_out_the_commit_and_the_times_and_keeps_the_build_and_the_code() {
        let (a, b) = (
            "1111111111111111111111111111111111111111",
            "2222222222222222222222222222222222222222",
        );
        let (at_a, mut at_b) = (seed(a), seed(b));
        let r = &mut at_b[0];
        assert!(r.github_url.as_deref().is_some_and(|u| u.contains(b)));
        r.analyzed_at = "2031-01-01T00:00:00.000Z".into();
        r.content_changed_at = r.analyzed_at.clone();
        let key = analysis_input(&at_a[0], "build 1", Some(a));
        assert_eq!(analysis_input(r, "build 1", Some(b)), key);
        assert_ne!(analysis_input(r, "build 2", Some(b)), key);
        r.sites[0].line_number += 1;
        assert_ne!(analysis_input(r, "build 1", Some(b)), key);
    }

    #[test]
    fn reusing_nothing_analyses_as_analyze_all_and_reusing_everything_takes_all_over() {
        let commit = "1111111111111111111111111111111111111111";
        let (mut all, mut reused) = (seed(commit), seed(commit));
        crate::analyze_all(&mut all);
        let first = analyze_reusing(&mut reused, &HashMap::new(), "b", Some(commit));
        assert_eq!(reused, all);
        let memos: HashMap<String, AnalysisMemo> = reused
            .iter()
            .zip(first)
            .map(|(r, a)| match a {
                Analysed::Fresh(m) => (r.id.clone(), m),
                Analysed::TakenOver => panic!("nothing was stored"),
            })
            .collect();
        let mut again = seed(commit);
        let second = analyze_reusing(&mut again, &memos, "b", Some(commit));
        assert!(second.iter().all(|a| *a == Analysed::TakenOver));
        assert!(again.iter().all(|r| r.documentation.is_none()));
    }
}
