//! `relatedErrors`: for each record, at most eight others of the same
//! repository, best first, by what they share: the function, the file, the
//! wrapped callee, the family, and rare words of the message.

use crate::family;
use errdex_model::{Record, RelatedError};
use foldhash::{HashMap, HashSet};
use rayon::prelude::*;

/// At most this many related records per record.
pub const MAX_RELATED: usize = 8;
/// A key shared by more records than this (a generated file, a common
/// word) says little about any pair of them and is skipped.
const MAX_GROUP: usize = 60;

const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "not", "with", "from", "into", "this", "that", "failed", "error", "err",
    "unable", "cannot", "could", "invalid", "while", "when", "has", "was", "are", "can", "get",
];

/// Keys one record is filed under, with the weight of sharing them.
fn keys(r: &Record, fam: &str) -> Vec<(String, f32)> {
    let s = &r.sites[0];
    let mut k = Vec::new();
    if let Some(f) = &s.function {
        k.push((format!("fn\0{}\0{f}", s.file_path), 4.0));
    }
    k.push((format!("file\0{}", s.file_path), 2.0));
    if let Some(c) = &s.facts.wrapped_call {
        k.push((format!("call\0{c}"), 3.0));
    }
    if let Some(c) = &r.error_class {
        k.push((format!("class\0{c}"), 3.0));
    }
    if fam != family::FALLBACK.slug {
        k.push((format!("family\0{fam}"), 1.0));
    }
    let words: HashSet<String> = family::words(&literal_text(&r.message_pattern))
        .into_iter()
        .filter(|w| w.len() >= 3 && !STOP_WORDS.contains(&w.as_str()))
        .collect();
    let mut words: Vec<String> = words.into_iter().collect();
    words.sort();
    k.extend(words.into_iter().map(|w| (format!("word\0{w}"), 1.0)));
    k
}

/// The pattern without its verbs (`%w`, `%-10s`).
fn literal_text(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if chars.peek() == Some(&'%') {
                chars.next();
                out.push('%');
                continue;
            }
            // Flags, width, precision, then the verb letter.
            while let Some(&n) = chars.peek() {
                chars.next();
                if n.is_ascii_alphabetic() {
                    break;
                }
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Related records for every record, in order. Keys and scores are made
/// on every core: a re-index that takes most analyses over still relates
/// every record.
pub(crate) fn related(records: &[Record], families: &[&str]) -> Vec<Vec<RelatedError>> {
    let keys: Vec<Vec<(String, f32)>> = records
        .par_iter()
        .zip(families)
        .map(|(r, f)| keys(r, f))
        .collect();
    let mut index: HashMap<(&str, &str), Vec<u32>> = HashMap::default();
    for (i, (r, ks)) in records.iter().zip(&keys).enumerate() {
        for (k, _) in ks {
            index.entry((&r.repo, k)).or_default().push(i as u32);
        }
    }
    records
        .par_iter()
        .zip(&keys)
        .enumerate()
        .map(|(i, (r, ks))| {
            let mut score: HashMap<u32, f32> = HashMap::default();
            for (k, w) in ks {
                let group = &index[&(r.repo.as_str(), k.as_str())];
                if group.len() > MAX_GROUP {
                    continue;
                }
                for &j in group {
                    if j as usize != i {
                        *score.entry(j).or_default() += w;
                    }
                }
            }
            // One shared word alone is chance.
            let mut best: Vec<(u32, f32)> = score.into_iter().filter(|&(_, s)| s >= 2.0).collect();
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            best.truncate(MAX_RELATED);
            best.into_iter()
                .map(|(j, _)| RelatedError {
                    id: records[j as usize].id.clone(),
                    error_message: records[j as usize].error_message.clone(),
                })
                .collect()
        })
        .collect()
}
