//! Heads the stripper does not know (`web-1  | `, `cmd/ctr: `), and
//! whether text before a message ends the way log prefixes end.

use super::{prepare, Part, Prepared};
use crate::bytes::find_byte;
use smallvec::SmallVec;

/// Whether `before` (the text before a message found past the start of a
/// line) ends the way log prefixes end: `name: `, `[worker] `, `app | `,
/// `-> `, `Foo - `, `{..} `, `desc = ` (gRPC's status), a tab or a tag
/// glued to the message (`[core]`). A plain
/// space does not, nor `) `: there the text before is most likely the same
/// message (`aggregate() not implemented`).
pub(crate) fn ends_like_prefix(before: &[u8]) -> bool {
    match before {
        [.., c, b' '] => ends_head(*c),
        [.., b'\t'] => true,
        [.., b']'] => ends_in_glued_tag(before),
        _ => false,
    }
}

/// Whether `before` ends in a component tag glued to the message:
/// gRPC's `[core]`, `[transport]` (`[core]Subchannel Connectivity
/// change`), one word in brackets at the start or after a space or quote.
fn ends_in_glued_tag(before: &[u8]) -> bool {
    let inner = &before[..before.len() - 1];
    let Some(open) = inner.iter().rposition(|&c| c == b'[') else {
        return false;
    };
    let word = &inner[open + 1..];
    (1..=20).contains(&word.len())
        && word
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-_".contains(c))
        && (open == 0 || matches!(inner[open - 1], b' ' | b'"'))
}

/// The most literal bytes a head without a closing mark may have, and
/// the most words (see [`is_plain_head`]).
const MAX_PLAIN_HEAD: usize = 32;
const MAX_PLAIN_HEAD_WORDS: usize = 4;

/// Whether `head`, the text before a message on the outermost layer, is a
/// few words a program prints before its messages with no closing mark
/// (`npm error 404 `, `PAM `, `WORKER Error `): at most four words and
/// 32 bytes, one space after each. The template behind it must be the
/// longer text (`plain_head_fits`), so that the last words of a message
/// nobody wrote are not taken for a short template behind a prefix.
pub(crate) fn is_plain_head(head: &[u8]) -> bool {
    let Some(words) = head.strip_suffix(b" ") else {
        return false;
    };
    !words.is_empty()
        && head.len() <= MAX_PLAIN_HEAD
        && words.split(|&c| c == b' ').count() <= MAX_PLAIN_HEAD_WORDS
        && words.split(|&c| c == b' ').all(|w| !w.is_empty())
        && !words.iter().any(|&c| c == b'\t' || c < b' ')
}

/// Whether a template of `literal` bytes may stand behind a plain head of
/// `head` bytes ([`is_plain_head`]): it holds 16 literal bytes or more,
/// and more than the head.
pub(crate) fn plain_head_fits(head: usize, literal: usize) -> bool {
    literal >= 16 && literal > head
}

/// The marks before a space that end a log prefix (see [`ends_like_prefix`]).
fn ends_head(c: u8) -> bool {
    matches!(c, b':' | b']' | b'|' | b'>' | b'-' | b'}' | b'=')
}

/// Whether an unknown head before the outermost message is a log prefix
/// (`etcdmain: `, `worker.go:80: `, `[pod a] `) rather than a message layer
/// no template explains (`upstream said no: `): a head ending in `: `
/// whose last part, after any bracket or bar, holds several words reads as
/// a message.
pub(crate) fn head_is_prefix(head: &[u8]) -> bool {
    let Some(h) = head.strip_suffix(b": ") else {
        return true;
    };
    let last = h
        .iter()
        .rposition(|&c| matches!(c, b']' | b'|' | b'>' | b')' | b'}'))
        .map_or(h, |i| &h[i + 1..]);
    !last.trim_ascii().contains(&b' ')
}

/// How far into a line an unknown head may reach (`web-1  | `,
/// `cmd/ctr: `, `[2026-12-02 01:00:00,123] `).
const MAX_UNKNOWN_HEAD: usize = 64;

/// Where a head the stripper does not know may end in `line`, at most
/// four places, each where log prefixes end and reading as one
/// ([`head_is_prefix`]): behind `upstream said no: ` is not a log line.
/// For a line whose own reading traces to nothing; see
/// [`behind_unknown_head`].
pub fn unknown_heads(line: &str) -> SmallVec<[usize; 4]> {
    heads_where(line, head_is_prefix)
}

/// Where any head may end in `line`, at most four places where log
/// prefixes end, also those that read as a message (`could not sync: `):
/// a layer that no template explains may hide one that a template does
/// (`rpc error: code = … desc = …` after a caller's words). For a line
/// whose reading found its outermost frame only mid-text.
pub fn layer_heads(line: &str) -> SmallVec<[usize; 4]> {
    heads_where(line, |_| true)
}

/// Where heads end in the first bytes of `line`, that `keep` keeps.
fn heads_where(line: &str, keep: impl Fn(&[u8]) -> bool) -> SmallVec<[usize; 4]> {
    let b = line.as_bytes();
    let mut out = SmallVec::new();
    let head = &b[..b.len().min(MAX_UNKNOWN_HEAD)];
    let mut push = |i: usize| {
        if out.len() < 4 && keep(&b[..=i]) {
            out.push(i + 1);
        }
    };
    // Eight bytes a step ([`find_byte`]): most lines this sees (noise)
    // are short and have few spaces, none after a mark a head ends with.
    let mut from = 0;
    while let Some(k) = find_byte(&head[from..], b' ') {
        let i = from + k;
        if i > 0 && ends_head(b[i - 1]) {
            push(i);
        }
        from = i + 1;
    }
    // A tab ends a head too (rare: after the spaces' heads).
    if let Some(i) = find_byte(head, b'\t') {
        push(i);
    }
    out
}

/// The reading of `line` behind an unknown head that ends at `at` (one of
/// [`unknown_heads`]), when a known prefix or log format starts there:
/// `web-1  | 2026-12-02T01:00:00Z ERROR msg` (docker compose before a
/// timestamp and a level).
pub fn behind_unknown_head(line: &str, at: usize) -> Option<Prepared<'_>> {
    let rest = line.get(at..)?;
    let p = prepare(rest);
    let stripped = !p.prefix.is_empty()
        || p.parts.len() != 1
        || p.parts[0].offset != 0
        || p.parts[0].text.len() != rest.trim_end_matches(['\r', '\n']).len();
    stripped.then(|| shifted(line, at, p))
}

/// The reading of `line` behind a head that ends at `at` (one of
/// [`unknown_heads`]), whatever starts there: `curl: ` before `option
/// --bogus: is unknown`, when the line's own reading found only its last
/// layer.
pub fn behind_head(line: &str, at: usize) -> Option<Prepared<'_>> {
    let rest = line.get(at..)?;
    Some(shifted(line, at, prepare(rest)))
}

/// A reading of `line[at..]` as a reading of `line`.
fn shifted<'a>(line: &'a str, at: usize, p: Prepared<'a>) -> Prepared<'a> {
    Prepared {
        prefix: &line[..at + p.prefix.len()],
        parts: p
            .parts
            .into_iter()
            .map(|part| Part {
                offset: part.offset + at,
                ..part
            })
            .collect(),
        hints: p.hints,
    }
}

#[cfg(test)]
mod tests {
    use super::ends_like_prefix;

    #[test]
    fn prefixes_end_in_marks_and_glued_tags() {
        for yes in [
            "etcdmain: ",
            "[worker] ",
            "app | ",
            "x\t",
            "[core]",
            "[2022] [transport]",
            "\"[core]",
        ] {
            assert!(ends_like_prefix(yes.as_bytes()), "{yes}");
        }
        for no in [
            "aggregate() ",
            "the ",
            "items[3]",
            "[two words]",
            "a[core]",
            "[]",
        ] {
            assert!(!ends_like_prefix(no.as_bytes()), "{no}");
        }
    }
}
