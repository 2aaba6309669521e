//! `explain --json`'s lines, written without serde's field-by-field
//! walk: what a candidate shows of its record and site is the same on
//! every line that names it, so it is written once per site, when the
//! records are (and kept in the trace cache), and copied after that. The
//! bytes are those `serde_json` writes for an [`Explanation`], but for the
//! control characters serde_json leaves as they are (DEL and the C1
//! controls U+0080–U+009F), which are escaped too: a line written here
//! is safe for a terminal as it is, and needs no second pass over its
//! bytes. A test holds them equal.

use crate::records::{RecordView, SiteView};
use crate::{CandidateOut, Explainer, Explanation, FrameOut, Unmatched};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};
use std::io::Write;

/// serde_json's compact output, with DEL and the C1 controls inside
/// strings written as `\u00XX` escapes as well.
struct TerminalSafe;

impl Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_unsafe_control(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

/// A control character serde_json writes unescaped.
fn is_unsafe_control(c: char) -> bool {
    c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c)
}

/// Whether `s` goes into a JSON string as it is: no quote, backslash or
/// control character, and no byte 0xC2, which may lead a C1 control. Eight
/// bytes at a time: the bit tests of the bit-twiddling hacks' `haszero`
/// and `hasless` may flag a word falsely, but never miss one, and a
/// flagged word is looked at byte by byte.
fn is_plain(s: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |y: u64| y.wrapping_sub(ONES) & !y & HIGH != 0;
    let needs_care = |b: u8| b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f || b == 0xc2;
    let mut words = s.as_bytes().chunks_exact(8);
    for word in words.by_ref() {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let flagged = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0
            || [b'"', b'\\', 0x7f, 0xc2]
                .iter()
                .any(|&b| has_zero(x ^ (ONES * u64::from(b))));
        if flagged && word.iter().any(|&b| needs_care(b)) {
            return false;
        }
    }
    !words.remainder().iter().any(|&b| needs_care(b))
}

/// Appends `v` as JSON (escaped as serde_json escapes it, and DEL and C1
/// controls too).
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, TerminalSafe);
    v.serialize(&mut ser)
        .expect("writing JSON to memory cannot fail");
}

/// Appends `s` as a JSON string: as it is between quotes when nothing in
/// it needs an escape, which is most text.
fn put_str(out: &mut Vec<u8>, s: &str) {
    if is_plain(s) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        put(out, s);
    }
}

/// Appends `"key":` and the string `s`.
fn str_field(out: &mut Vec<u8>, key: &str, s: &str) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    put_str(out, s);
}

/// Appends `"key":` and the number `n`.
fn number_field(out: &mut Vec<u8>, key: &str, n: usize) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    let _ = CompactFormatter.write_u64(out, n as u64);
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
        self.write_json_fields(e, out);
    }

    /// Appends what [`Explainer::write_json`] writes after its opening
    /// brace: for a caller that leads the object with fields of its own.
    pub fn write_json_fields(&self, e: &Explanation, out: &mut Vec<u8>) {
        str_field(out, "input", &e.input);
        out.push(b',');
        str_field(out, "prefix", &e.prefix);
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
        str_field(out, "text", &f.text);
        out.push(b',');
        number_field(out, "start", f.start);
        out.push(b',');
        number_field(out, "end", f.end);
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
    str_field(out, "text", &u.text);
    out.push(b',');
    number_field(out, "start", u.start);
    out.push(b',');
    number_field(out, "end", u.end);
    out.push(b'}');
}
