//! `explain --json`'s lines, written without serde's field-by-field
//! walk: what a candidate shows of its record and site is the same on
//! every line that names it, so it is written once per site, when the
//! records are (and kept in the trace cache), and copied after that. The
//! bytes are those `serde_json` writes for an [`Explanation`]; a test holds
//! them equal.

use crate::records::{RecordView, SiteView};
use crate::{CandidateOut, Explainer, Explanation, FrameOut, Unmatched};
use serde::Serialize;

/// Appends `v` as JSON (escaped as serde_json escapes it).
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    serde_json::to_writer(&mut *out, v).expect("writing JSON to memory cannot fail");
}

/// Appends `"key":` and `v`.
fn field<T: Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, v: &T) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    put(out, v);
}

/// Appends a site's candidate JSON with its three per-line values left
/// out: `{"id":…,"githubUrl":…,"score":` ‹score› `,"function":…,"hinted":`
/// ‹hinted› `,"exact":` ‹exact› `,"documentation":…}`. (A knowledge-base
/// candidate has no fragment: it is written field by field.) Gives where the two
/// holes are in what it appended: where `,"function":` and
/// `,"documentation":` start.
pub(crate) fn fragment(r: &RecordView<'_>, s: &SiteView<'_>, out: &mut Vec<u8>) -> [u32; 2] {
    let start = out.len();
    out.push(b'{');
    field(out, "id", r.id);
    out.push(b',');
    field(out, "repo", r.repo);
    out.push(b',');
    field(out, "slug", r.slug);
    out.push(b',');
    field(out, "messagePattern", r.message_pattern);
    out.push(b',');
    field(out, "filePath", s.file_path);
    out.push(b',');
    field(out, "lineNumber", &s.line_number);
    out.push(b',');
    field(out, "githubUrl", &s.github_url);
    out.extend_from_slice(b",\"score\":");
    let function = (out.len() - start) as u32;
    out.push(b',');
    field(out, "function", &s.function);
    out.extend_from_slice(b",\"hinted\":");
    let documentation = (out.len() - start) as u32;
    out.push(b',');
    field(out, "documentation", &r.documentation);
    if let Some(p) = r.presence() {
        out.push(b',');
        field(out, "firstSeen", p.first_seen());
        out.push(b',');
        field(out, "lastSeen", p.last_seen());
        out.push(b',');
        field(out, "removedIn", &p.removed_in());
    }
    out.push(b'}');
    [function, documentation]
}

/// Appends candidate `c` from its site's fragment.
fn fill_fragment(bytes: &[u8], [f, d]: [usize; 2], c: &CandidateOut<'_>, out: &mut Vec<u8>) {
    out.extend_from_slice(&bytes[..f]);
    put(out, &c.score);
    out.extend_from_slice(&bytes[f..d]);
    out.extend_from_slice(if c.hinted { b"true" } else { b"false" });
    out.extend_from_slice(if c.exact {
        b",\"exact\":true"
    } else {
        b",\"exact\":false"
    });
    out.extend_from_slice(&bytes[d..]);
}

impl Explainer {
    /// Appends `e` as one line of JSON (no newline): the bytes
    /// `serde_json::to_writer` gives, each candidate's record and site
    /// written once per site.
    pub fn write_json(&self, e: &Explanation, out: &mut Vec<u8>) {
        out.push(b'{');
        field(out, "input", &e.input);
        out.push(b',');
        field(out, "prefix", &e.prefix);
        out.push(b',');
        field(out, "verdict", &e.verdict);
        out.extend_from_slice(b",\"frames\":");
        list(out, &e.frames, |f, out| self.write_frame(f, out));
        out.extend_from_slice(b",\"unmatched\":");
        list(out, &e.unmatched, write_unmatched);
        if let Some(stack) = e.stack {
            out.push(b',');
            field(out, "stack", stack);
        }
        out.push(b'}');
    }

    fn write_frame(&self, f: &FrameOut, out: &mut Vec<u8>) {
        out.push(b'{');
        field(out, "text", &f.text);
        out.push(b',');
        field(out, "start", &f.start);
        out.push(b',');
        field(out, "end", &f.end);
        out.extend_from_slice(b",\"candidates\":");
        list(out, &f.candidates, |c, out| {
            match self.records.json(c.site) {
                Some((fragment, holes)) => fill_fragment(fragment, holes, c, out),
                None => put(out, c),
            }
        });
        out.push(b',');
        field(out, "candidateCount", &f.candidate_count);
        out.push(b'}');
    }
}

/// Appends `items` as a JSON array, each written by `write`.
fn list<T>(out: &mut Vec<u8>, items: &[T], mut write: impl FnMut(&T, &mut Vec<u8>)) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(item, out);
    }
    out.push(b']');
}

fn write_unmatched(u: &Unmatched, out: &mut Vec<u8>) {
    out.push(b'{');
    field(out, "text", &u.text);
    out.push(b',');
    field(out, "start", &u.start);
    out.push(b',');
    field(out, "end", &u.end);
    out.push(b'}');
}
