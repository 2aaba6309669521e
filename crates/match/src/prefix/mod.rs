//! Log lines as people paste them: strip what loggers put around a message
//! and find the parts worth tracing (a JSON log's `msg` and `error`, a
//! logfmt line's `msg=` and `err=`), with location hints where the header
//! names a file.
//!
//! Each log format has its module: klog/glog headers ([`klog`]),
//! timestamps ([`time`]), syslog and journald tags ([`syslog`]), the
//! small marks before a message (levels, bullets, nginx's and depd's
//! headers: [`markers`]), JSON ([`json`]) and logfmt ([`logfmt`]) lines,
//! and the heads nobody knows ([`heads`]).

mod bracketed;
mod heads;
mod json;
mod klog;
mod logfmt;
mod logrus;
mod markers;
mod syslog;
#[cfg(test)]
mod tests;
mod time;

use crate::bytes::first_space;
use crate::Hints;
use bracketed::{bracketed_location, bracketed_parts};
pub use heads::{behind_head, behind_unknown_head, layer_heads, unknown_heads};
pub(crate) use heads::{ends_like_prefix, head_is_prefix, is_plain_head, plain_head_fits};
use json::json_parts;
use klog::klog_header;
use logfmt::structured_parts;
pub use logfmt::unquote;
use logrus::{logrus_header, logrus_parts};
pub use markers::level_markers;
use markers::{
    bullet, depd_call_site, leading_space, level_marker, log4j_location, nginx_context,
    nginx_log_header, python_warning, redis_header,
};
use smallvec::{smallvec, SmallVec};
use std::borrow::Cow;
use syslog::syslog_host_tag;
use time::{is_syslog_date_time, timestamp};

/// A part of a line to trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part<'a> {
    /// The text (unescaped where the log format escapes it; borrowed from
    /// the line otherwise).
    pub text: Cow<'a, str>,
    /// Byte offset of the part in the input line.
    pub offset: usize,
}

/// A line made ready for tracing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Prepared<'a> {
    /// The stripped prefix (timestamps, headers, level markers).
    pub prefix: &'a str,
    /// Texts to trace (most lines have one, kept inline).
    pub parts: SmallVec<[Part<'a>; 2]>,
    /// Location hints from the header.
    pub hints: Hints,
}

impl<'a> Prepared<'a> {
    /// The same line with its last level marker kept in the message:
    /// `error: name does not exist` is casbin's whole message, not a level
    /// and a message. For a line whose stripped reading traces to nothing.
    /// Only a marker right before the one part: not one before a depd
    /// header, a quote or a JSON or logfmt line.
    pub fn with_marker(&self, line: &'a str) -> Option<Prepared<'a>> {
        let [part] = &self.parts[..] else {
            return None;
        };
        let stripped = self.prefix.len();
        if stripped == 0 || part.offset != stripped || !matches!(part.text, Cow::Borrowed(_)) {
            return None;
        }
        // The longest marker is 14 bytes.
        let m = (stripped.saturating_sub(14)..stripped).find(|&m| {
            self.prefix.is_char_boundary(m) && level_marker(&self.prefix[m..]) == Some(stripped - m)
        })?;
        let end = part.offset + part.text.len();
        Some(Prepared {
            prefix: &line[..m],
            parts: smallvec![Part {
                text: Cow::Borrowed(line.get(m..end)?),
                offset: m,
            }],
            hints: self.hints.clone(),
        })
    }
}

/// Field names that hold the message in JSON and logfmt logs.
const MSG_KEYS: &[&str] = &["msg", "message", "M", "MESSAGE"];
/// Field names that hold the error.
const ERR_KEYS: &[&str] = &["error", "err", "E", "errorVerbose", "exception"];
/// Field names that hold the caller.
const CALLER_KEYS: &[&str] = &["caller", "source", "logger.caller"];

/// Strips prefixes and splits a line into parts to trace.
pub fn prepare(line: &str) -> Prepared<'_> {
    let line = line.trim_end_matches(['\r', '\n']);
    let mut hints = Hints::default();
    let heads = strip_heads(line, &mut hints);
    match structured(line, &heads, &mut hints) {
        Some((prefix, parts)) => Prepared {
            prefix,
            parts,
            hints,
        },
        None => message(line, &heads, hints),
    }
}

/// How far the known heads of a line reach.
struct Heads {
    /// Where the text after them starts.
    pos: usize,
    /// Where a level marker was stripped, when it was the last head.
    marker: Option<usize>,
    /// The first space of the text after them: several readings start by
    /// finding the first word, so it is found once per position.
    sp: Option<usize>,
    /// An nginx error log header was among them: the message ends where
    /// the logger's context starts.
    nginx_log: bool,
    /// A logrus terminal header was the last: fields may follow the
    /// message.
    logrus: bool,
}

/// Strips known heads repeatedly: `Nov 29 12:00:03 host kubelet[77]:
/// E1129 12:00:03.1 1 x.go:80] msg`.
#[inline]
fn strip_heads(line: &str, hints: &mut Hints) -> Heads {
    let mut pos = 0usize;
    // Where a level marker was stripped, and where the last strip began:
    // the marker counts only when it was the last.
    let (mut marker, mut last) = (None, 0);
    let mut nginx_log = false;
    let mut logrus = None;
    let mut sp = first_space(line.as_bytes());
    for _ in 0..8 {
        let rest = &line[pos..];
        let skip = leading_space(rest)
            .or_else(|| bullet(rest))
            .or_else(|| comment_mark(rest, hints))
            .or_else(|| klog_header(rest, hints))
            .or_else(|| timestamp(rest))
            .or_else(|| {
                let n =
                    syslog_host_tag(rest, sp, || pos > 0 && is_syslog_date_time(&line[last..]))?;
                hints.unix_host = true;
                Some(n)
            })
            .or_else(|| {
                let (n, log) = nginx_log_header(rest)?;
                nginx_log |= log;
                Some(n)
            })
            .or_else(|| redis_header(rest))
            .or_else(|| {
                let n = logrus_header(rest)?;
                logrus = Some(pos);
                Some(n)
            })
            .or_else(|| log4j_location(rest, hints))
            .or_else(|| python_warning(rest, hints))
            .or_else(|| bracketed_location(rest, hints))
            .or_else(|| {
                let n = level_marker(rest)?;
                marker = Some(pos);
                Some(n)
            });
        match skip {
            Some(n) if n > 0 => {
                last = pos;
                pos += n;
                sp = first_space(&line.as_bytes()[pos..]);
            }
            _ => break,
        }
    }
    Heads {
        pos,
        marker: marker.filter(|&m| m == last),
        sp,
        nginx_log,
        logrus: logrus == Some(last) && pos > 0,
    }
}

/// `# WARN[0000] failed to load plugin …`: a log line pasted as a shell
/// comment. The `# ` is a head only before a logger's header (logrus's or
/// a timestamp), so that a message of its own that starts with `#` stays.
#[inline]
fn comment_mark(s: &str, hints: &mut Hints) -> Option<usize> {
    let rest = s.strip_prefix("# ")?;
    let header = logrus_header(rest).is_some() || timestamp(rest).is_some() || {
        let mut scratch = hints.clone();
        klog_header(rest, &mut scratch).is_some()
    };
    header.then_some(2)
}

/// A JSON or logfmt line's parts after its heads, and the prefix before
/// them.
#[inline]
fn structured<'a>(
    line: &'a str,
    h: &Heads,
    hints: &mut Hints,
) -> Option<(&'a str, SmallVec<[Part<'a>; 2]>)> {
    let rest = &line[h.pos..];
    if h.logrus {
        if let Some(parts) = logrus_parts(rest, h.pos, hints) {
            return Some((&line[..h.pos], parts));
        }
    }
    if rest.starts_with('{') {
        if let Some(parts) = json_parts(rest, h.pos, hints) {
            return Some((&line[..h.pos], parts));
        }
    }
    // A logfmt line that starts with its level (`level=error msg="…"`):
    // the level is one of its pairs, so the message alone is logfmt too.
    let (fields, fields_at) = match h.marker {
        Some(m) if line[m..].starts_with("level=") => (&line[m..], m),
        _ => (rest, h.pos),
    };
    let fields_sp = if fields_at == h.pos {
        h.sp
    } else {
        first_space(fields.as_bytes())
    };
    let parts = structured_parts(fields, fields_sp, fields_at, hints)?;
    Some((&line[..fields_at], parts))
}

/// A line's one message after its heads: without a depd header, and
/// without quotes around the whole of it.
#[inline]
fn message<'a>(line: &'a str, h: &Heads, hints: Hints) -> Prepared<'a> {
    let (pos, sp) = (h.pos, h.sp);
    let rest = &line[pos..];
    // A depd deprecation's `express deprecated ` is its logger's header.
    let (mut text, mut offset, prefix) = match depd_call_site(rest, sp) {
        Some((head, at)) => (&rest[head..at], pos + head, &line[..pos + head]),
        None => (rest, pos, &line[..pos]),
    };
    if h.nginx_log {
        text = &text[..nginx_context(text)];
    }
    if let Some(parts) = bracketed_parts(text, offset) {
        return Prepared {
            prefix,
            parts,
            hints,
        };
    }
    // A whole message in quotes (pasted from a log viewer or a Go %q).
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        if let Some(unq) = unquote(text) {
            return Prepared {
                prefix,
                parts: smallvec![Part {
                    text: Cow::Owned(unq),
                    offset: offset + 1,
                }],
                hints,
            };
        }
    }
    // Quotes around the whole message: the same mark at both ends and
    // nowhere inside (`"x" is not 'y'` is a message that starts with a quote).
    while let Some(&q) = text
        .as_bytes()
        .first()
        .filter(|c| matches!(c, b'"' | b'\'' | b'`'))
    {
        let inner = text
            .strip_prefix(q as char)
            .and_then(|t| t.strip_suffix(q as char))
            .filter(|inner| memchr::memchr(q, inner.as_bytes()).is_none());
        match inner {
            Some(inner) => {
                text = inner;
                offset += 1;
            }
            None => break,
        }
    }
    Prepared {
        prefix,
        parts: smallvec![Part {
            text: Cow::Borrowed(text),
            offset,
        }],
        hints,
    }
}
