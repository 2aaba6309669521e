//! Log lines as people paste them: strip what loggers put around a message
//! and find the parts worth tracing (a JSON log's `msg` and `error`, a
//! logfmt line's `msg=` and `err=`), with location hints where the header
//! names a file.

use crate::bytes::{find_byte, first_space};
use crate::Hints;
use smallvec::{smallvec, SmallVec};
use std::borrow::Cow;

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

/// Whether `before` (the text before a message found past the start of a
/// line) ends the way log prefixes end: `name: `, `[worker] `, `app | `,
/// `-> `, `Foo - `, `{..} `, `desc = ` (gRPC's status) or a tab. A plain
/// space does not, nor `) `: there the text before is most likely the same
/// message (`aggregate() not implemented`).
pub(crate) fn ends_like_prefix(before: &[u8]) -> bool {
    match before {
        [.., c, b' '] => ends_head(*c),
        [.., b'\t'] => true,
        _ => false,
    }
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
    let b = line.as_bytes();
    let mut out = SmallVec::new();
    let head = &b[..b.len().min(MAX_UNKNOWN_HEAD)];
    let mut push = |i: usize| {
        if out.len() < 4 && head_is_prefix(&b[..=i]) {
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
    stripped.then(|| Prepared {
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
    })
}

/// Strips prefixes and splits a line into parts to trace.
pub fn prepare(line: &str) -> Prepared<'_> {
    let line = line.trim_end_matches(['\r', '\n']);
    let mut hints = Hints::default();
    let mut pos = 0usize;
    // Where a level marker was stripped, and where the last strip began:
    // the marker counts only when it was the last.
    let (mut marker, mut last) = (None, 0);
    // The first space of `line[pos..]`: several readings below start by
    // finding the first word, so it is found once per position.
    let mut sp = first_space(line.as_bytes());
    // Strip repeatedly: `Nov 29 12:00:03 host kubelet[77]: E1129 12:00:03.1 1 x.go:80] msg`.
    for _ in 0..8 {
        let rest = &line[pos..];
        let skip = leading_space(rest)
            .or_else(|| bullet(rest))
            .or_else(|| klog_header(rest, &mut hints))
            .or_else(|| timestamp(rest))
            .or_else(|| syslog_host_tag(rest, sp))
            .or_else(|| nginx_header(rest))
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
    let marker = marker.filter(|&m| m == last);
    let rest = &line[pos..];
    let prefix = &line[..pos];
    if rest.starts_with('{') {
        if let Some(parts) = json_parts(rest, pos, &mut hints) {
            return Prepared {
                prefix,
                parts,
                hints,
            };
        }
    }
    // A logfmt line that starts with its level (`level=error msg="…"`):
    // the level is one of its pairs, so the message alone is logfmt too.
    let (fields, fields_at) = match marker {
        Some(m) if line[m..].starts_with("level=") => (&line[m..], m),
        _ => (rest, pos),
    };
    let fields_sp = if fields_at == pos {
        sp
    } else {
        first_space(fields.as_bytes())
    };
    if let Some(parts) = structured_parts(fields, fields_sp, fields_at, &mut hints) {
        return Prepared {
            prefix: &line[..fields_at],
            parts,
            hints,
        };
    }
    // A depd deprecation's `express deprecated ` is its logger's header.
    let (mut text, mut offset, prefix) = match depd_call_site(rest, sp) {
        Some((head, at)) => (&rest[head..at], pos + head, &line[..pos + head]),
        None => (rest, pos, prefix),
    };
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

/// Where the message starts and where the caller's location starts in a
/// depd deprecation (express, body-parser and most of npm print them so):
/// `express deprecated res.send(status): Use res.sendStatus(status) instead
/// at app.js:10:7`. The namespace and `deprecated` are depd's header, the
/// location is the caller's: neither is the message's.
/// `sp` is the first space of `s`.
fn depd_call_site(s: &str, sp: Option<usize>) -> Option<(usize, usize)> {
    const MARK: &[u8] = b"deprecated ";
    let sp = sp?;
    if sp == 0 || !s.as_bytes()[sp + 1..].starts_with(MARK) {
        return None;
    }
    let head = sp + 1 + MARK.len();
    let at = s.rfind(" at ")?;
    let loc = &s[at + 4..];
    let loc = loc
        .strip_prefix("file://")
        .or_else(|| loc.strip_prefix("file:"))
        .unwrap_or(loc);
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    let (rest, col) = loc.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    let script = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]
        .iter()
        .any(|e| file.ends_with(e));
    (at >= head && script && digits(line) && digits(col) && !file.contains(char::is_whitespace))
        .then_some((head, at))
}

fn leading_space(s: &str) -> Option<usize> {
    // Most messages start with a visible ASCII byte.
    if s.as_bytes().first().is_some_and(|c| c.is_ascii_graphic()) {
        return None;
    }
    let n = s.len() - s.trim_start().len();
    (n > 0).then_some(n)
}

fn bullet(s: &str) -> Option<usize> {
    if !matches!(s.as_bytes().first(), Some(b'-' | b'*' | b'>' | b'|' | 0xe2)) {
        return None;
    }
    for b in ["- ", "* ", "• ", "> ", "└ ", "| "] {
        if s.starts_with(b) {
            return Some(b.len());
        }
    }
    None
}

/// `E1129 12:00:03.123456 1 file.go:80] ` (klog/glog).
fn klog_header(s: &str, hints: &mut Hints) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() < 20
        || !matches!(b[0], b'I' | b'W' | b'E' | b'F')
        || !b[1..5].iter().all(u8::is_ascii_digit)
        || b[5] != b' '
    {
        return None;
    }
    let close = memchr::memmem::find(s.as_bytes(), b"] ")?;
    let head = &s[6..close];
    let mut fields = head.split_whitespace();
    let time = fields.next()?;
    if !time.as_bytes().first()?.is_ascii_digit() || !time.contains(':') {
        return None;
    }
    let _thread = fields.next()?;
    let loc = fields.next()?;
    if let Some((file, line)) = loc.rsplit_once(':') {
        hints.files.push(file.to_string());
        hints.line = line.parse().ok();
    }
    Some(close + 2)
}

/// RFC 3339 (`2026-11-29T12:00:03.123Z`, `2026-11-29 12:00:03.123456`),
/// Go's log (`2026/11/29 12:00:03`) and syslog (`Nov 29 12:00:03`)
/// timestamps, followed by a space; a capnslog level (`E | `) after it.
fn timestamp(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|x| x.iter().all(u8::is_ascii_digit))
    };
    let mut i;
    if b.len() >= 19
        && digits(0..4)
        && (b[4] == b'-' || b[4] == b'/')
        && digits(5..7)
        && digits(8..10)
        && (b[10] == b'T' || b[10] == b' ')
        && digits(11..13)
        && b[13] == b':'
    {
        i = 19;
        if b.get(i) == Some(&b'.') || b.get(i) == Some(&b',') {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if b.get(i) == Some(&b'Z') {
            i += 1;
        } else if matches!(b.get(i), Some(b'+') | Some(b'-')) && digits(i + 1..i + 3) {
            i += 3;
            if b.get(i) == Some(&b':') {
                i += 1;
            }
            i += 2;
        }
    } else if b.len() >= 15
        && b[3] == b' '
        && b[0].is_ascii_uppercase()
        && MONTHS.iter().any(|m| s.starts_with(m))
        && (b[4] == b' ' || b[4].is_ascii_digit())
        && b[5].is_ascii_digit()
        && b[6] == b' '
        && digits(7..9)
        && b[9] == b':'
    {
        // `Nov 29 12:00:03` or `Nov  9 12:00:03`
        i = 15;
    } else if b.len() >= 29
        && b[3] == b','
        && b[4] == b' '
        && digits(5..7)
        && b[7] == b' '
        && MONTHS.iter().any(|m| b[8..].starts_with(m.as_bytes()))
        && b[11] == b' '
        && digits(12..16)
        && b[16] == b' '
        && digits(17..19)
        && b[19] == b':'
        && &b[25..29] == b" GMT"
    {
        // HTTP date, JavaScript's `toUTCString()` (depd prints it):
        // `Mon, 30 Nov 2026 00:12:54 GMT`.
        i = 29;
    } else {
        return None;
    }
    if b.get(i) != Some(&b' ') {
        return None;
    }
    i += 1;
    // capnslog: `2026-11-29 12:00:03.123456 E | etcdmain: `, the package
    // name being part of the header.
    if b.len() > i + 3 && b[i].is_ascii_uppercase() && &b[i + 1..i + 4] == b" | " {
        i += 4;
        let pkg = b[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || b"/_-.".contains(c))
            .count();
        if pkg > 0 && b[i + pkg..].starts_with(b": ") {
            i += pkg + 2;
        }
    }
    Some(i)
}

const MONTHS: &[&str] = &[
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// After a syslog timestamp: `host name[pid]: ` or `name[pid]: `. Only
/// stripped when a tag with a `[pid]` or a host before it is clear.
/// `sp` is the first space of `s`.
fn syslog_host_tag(s: &str, sp: Option<usize>) -> Option<usize> {
    fn is_tag(w: &[u8]) -> bool {
        let Some(inner) = w.strip_suffix(b"]:") else {
            return false;
        };
        let Some(open) = memchr::memchr(b'[', inner) else {
            return false;
        };
        let pid = &inner[open + 1..];
        open > 0 && !pid.is_empty() && pid.iter().all(|c| c.is_ascii_digit())
    }
    let b = s.as_bytes();
    let word_end = sp?;
    let first = &b[..word_end];
    if is_tag(first) {
        return Some(word_end + 1);
    }
    let rest = &b[word_end + 1..];
    let second_end = first_space(rest)?;
    if is_tag(&rest[..second_end]) && !first.contains(&b':') {
        return Some(word_end + 1 + second_end + 1);
    }
    None
}

/// nginx's headers: `nginx: [emerg] ` on stderr, and in its error log,
/// after the timestamp, `[error] 1234#1234: ` with an optional
/// connection number (`*42 `). Only nginx's own level names count.
fn nginx_header(s: &str) -> Option<usize> {
    const LEVELS: &[&str] = &[
        "emerg", "alert", "crit", "error", "warn", "notice", "info", "debug",
    ];
    let (stderr, rest) = match s.strip_prefix("nginx: ") {
        Some(r) => (true, r),
        None => (false, s),
    };
    let inner = rest.strip_prefix('[')?;
    let close = inner.find("] ")?;
    if !LEVELS.contains(&&inner[..close]) {
        return None;
    }
    let mut i = s.len() - inner.len() + close + 2;
    if stderr {
        return Some(i);
    }
    // `pid#tid: `, then an optional `*connection `.
    let b = s.as_bytes();
    let digits_from = |at: usize| b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    let pid = digits_from(i);
    if pid == 0 || b.get(i + pid) != Some(&b'#') {
        return None;
    }
    let tid = digits_from(i + pid + 1);
    if tid == 0 || !s[i + pid + 1 + tid..].starts_with(": ") {
        return None;
    }
    i += pid + 1 + tid + 2;
    if b.get(i) == Some(&b'*') {
        let conn = digits_from(i + 1);
        if conn > 0 && b.get(i + 1 + conn) == Some(&b' ') {
            i += conn + 2;
        }
    }
    Some(i)
}

/// Level markers: `ERROR `, `[error] `, `level=error `, `Error: `, `E! `.
#[inline]
fn level_marker(s: &str) -> Option<usize> {
    // By first byte: most messages start with none of these, and no two
    // markers can both start one text.
    let markers: &[&str] = match s.as_bytes().first()? {
        b'E' => &["Error: ", "ERROR: ", "ERROR ", "E! "],
        b'e' => &["error: "],
        b'F' => &["FATAL: ", "FATAL "],
        b'f' => &["fatal: "],
        b'W' => &["WARNING: ", "WARN ", "WARNING ", "W! "],
        b'w' => &["warning: "],
        b'p' => &["panic: "],
        b'C' => &["CRITICAL "],
        b'[' => &[
            "[ERROR] ", "[error] ", "[WARN] ", "[warn] ", "[FATAL] ", "[E] ", "[W] ",
        ],
        b'l' => &[
            "level=error ",
            "level=warning ",
            "level=warn ",
            "level=fatal ",
            "level=info ",
        ],
        _ => return None,
    };
    markers.iter().find(|m| s.starts_with(**m)).map(|m| m.len())
}

/// A JSON log object: trace its message and its error separately.
fn json_parts<'a>(s: &'a str, offset: usize, hints: &mut Hints) -> Option<SmallVec<[Part<'a>; 2]>> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    let o = v.as_object()?;
    for k in CALLER_KEYS {
        if let Some(c) = o.get(*k).and_then(|c| c.as_str()) {
            if let Some((file, _)) = c.rsplit_once(':') {
                hints.files.push(file.to_string());
            }
        }
    }
    let mut parts = SmallVec::new();
    for keys in [MSG_KEYS, ERR_KEYS] {
        if let Some(text) = keys.iter().find_map(|k| o.get(*k).and_then(|v| v.as_str())) {
            let at = s.find(text).map_or(offset, |p| offset + p);
            parts.push(Part {
                text: Cow::Owned(text.to_string()),
                offset: at,
            });
        }
    }
    (!parts.is_empty()).then_some(parts)
}

/// logfmt (`msg="..." err="..."`) and klog's structured form
/// (`"msg" err="..." key="value"`).
/// `sp` is the first space of `s`.
fn structured_parts<'a>(
    s: &str,
    sp: Option<usize>,
    offset: usize,
    hints: &mut Hints,
) -> Option<SmallVec<[Part<'a>; 2]>> {
    let kvs = logfmt(s, sp)?;
    let mut parts = SmallVec::new();
    let mut has_msg_key = false;
    for (k, v, at) in &kvs {
        if k.is_empty() {
            // klog's leading quoted message.
            parts.insert(
                0,
                Part {
                    text: Cow::Owned(v.clone()),
                    offset: offset + at,
                },
            );
            has_msg_key = true;
        } else if MSG_KEYS.contains(&k.as_str()) {
            parts.insert(
                0,
                Part {
                    text: Cow::Owned(v.clone()),
                    offset: offset + at,
                },
            );
            has_msg_key = true;
        } else if ERR_KEYS.contains(&k.as_str()) {
            parts.push(Part {
                text: Cow::Owned(v.clone()),
                offset: offset + at,
            });
        } else if CALLER_KEYS.contains(&k.as_str()) {
            if let Some((file, _)) = v.rsplit_once(':') {
                hints.files.push(file.to_string());
            }
        }
    }
    (has_msg_key && !parts.is_empty()).then_some(parts)
}

/// Parses `key=value key="quoted value"` pairs (a leading `"quoted"` has an
/// empty key). `None` unless the whole text is such pairs. `sp` is the
/// first space of `s`.
fn logfmt(s: &str, sp: Option<usize>) -> Option<Vec<(String, String, usize)>> {
    let b = s.as_bytes();
    // A key is the first token before its `=`: text whose first token has
    // none is no logfmt (most log messages).
    if b.first() != Some(&b'"') {
        let from = b.iter().take_while(|&&c| c == b' ').count();
        let token = &b[from..];
        // With no spaces before it, the token ends at the first space.
        let end = if from == 0 {
            sp.unwrap_or(b.len())
        } else {
            first_space(token).unwrap_or(token.len())
        };
        find_byte(&token[..end], b'=')?;
    }
    let mut out = Vec::new();
    let mut i = 0;
    if b.first() == Some(&b'"') {
        let (v, n) = quoted_at(s)?;
        out.push((String::new(), v, 1));
        i = n;
    }
    while i < b.len() {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let eq = memchr::memchr(b'=', &b[i..])? + i;
        let key = &s[i..eq];
        if key.is_empty()
            || !key
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_.-".contains(&c))
        {
            return None;
        }
        i = eq + 1;
        if b.get(i) == Some(&b'"') {
            let (v, n) = quoted_at(&s[i..])?;
            out.push((key.to_string(), v, i + 1));
            i += n;
        } else {
            let end = s[i..].find(' ').map_or(b.len(), |p| i + p);
            out.push((key.to_string(), s[i..end].to_string(), i));
            i = end;
        }
    }
    (out.len() >= 2 || out.first().is_some_and(|(k, _, _)| k.is_empty())).then_some(out)
}

/// A Go-quoted string at the start of `s`: its value and the bytes used.
fn quoted_at(s: &str) -> Option<(String, usize)> {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some((unquote(&s[..=i])?, i + 1)),
            _ => i += 1,
        }
    }
    None
}

/// Undoes Go's `%q` quoting: `"a \"b\"\n"` → `a "b"` + newline.
pub fn unquote(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            'x' => {
                let h: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&h, 16).ok()?));
            }
            'u' => {
                let h: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
            }
            'U' => {
                let h: String = chars.by_ref().take(8).collect();
                out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> (String, String, Vec<String>) {
        let p = prepare(line);
        assert_eq!(p.parts.len(), 1, "{p:?}");
        (
            p.prefix.to_string(),
            p.parts[0].text.to_string(),
            p.hints.files,
        )
    }

    #[test]
    fn the_last_level_marker_can_be_kept_in_the_message() {
        let line = "Dec  2 01:00:00 host app[7]: error: name does not exist";
        let p = prepare(line);
        assert_eq!(p.parts[0].text, "name does not exist");
        let q = p.with_marker(line).unwrap();
        assert_eq!(q.prefix, "Dec  2 01:00:00 host app[7]: ");
        assert_eq!(
            (q.parts[0].text.as_ref(), q.parts[0].offset),
            ("error: name does not exist", 29)
        );
        // Not when the marker is not right before the message, nor when
        // there is none.
        for line in [
            "ERROR 2026-12-02T01:00:00Z disk full",
            "ERROR \"disk full\"",
            "ERROR {\"msg\":\"disk full\"}",
            "disk full",
        ] {
            assert_eq!(prepare(line).with_marker(line), None, "{line}");
        }
    }

    #[test]
    fn a_logfmt_line_may_start_with_its_level() {
        let p = prepare(r#"level=error msg="disk is full" err="EIO""#);
        let parts: Vec<_> = p
            .parts
            .iter()
            .map(|p| (p.text.as_ref(), p.offset))
            .collect();
        assert_eq!(
            (p.prefix, parts),
            ("", vec![("disk is full", 17), ("EIO", 36)])
        );
        // A message that is one pair is still a message.
        assert_eq!(one("level=error x=1").1, "x=1");
    }

    #[test]
    fn known_prefixes_are_read_behind_an_unknown_head() {
        let read = |line| {
            unknown_heads(line)
                .into_iter()
                .filter_map(|at| behind_unknown_head(line, at))
                .map(|p| (p.prefix, p.parts[0].text.to_string(), p.parts[0].offset))
                .collect::<Vec<_>>()
        };
        let line = "web-1  | 2026-12-02T01:00:00Z ERROR disk is full";
        assert_eq!(
            read(line),
            vec![(
                "web-1  | 2026-12-02T01:00:00Z ERROR ",
                "disk is full".into(),
                36
            )]
        );
        let line = "cmd/ctr: {\"level\":\"error\",\"msg\":\"disk is full\"}";
        assert_eq!(read(line), vec![("cmd/ctr: ", "disk is full".into(), 33)]);
        assert_eq!(
            read("[2026-12-02 01:00:00,123] ERROR disk is full")[0].1,
            "disk is full"
        );
        // Not behind prose, nor where nothing known follows the head.
        assert!(read("upstream said no: ERROR disk is full").is_empty());
        assert!(read("something happened: the disk is full").is_empty());
        assert!(read("web-1  | disk is full").is_empty());
    }

    #[test]
    fn klog_header_is_stripped_and_gives_a_hint() {
        let (prefix, text, files) = one("E1129 12:00:03.123456       1 apply_channel.go:80] serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use");
        assert_eq!(
            text,
            "serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use"
        );
        assert!(prefix.starts_with("E1129"));
        assert_eq!(files, vec!["apply_channel.go"]);
    }

    #[test]
    fn timestamps_syslog_and_levels() {
        for line in [
            "2026-11-29T12:00:03.123Z stop requested",
            "2026-11-29T12:00:03+01:00 ERROR stop requested",
            "2026-11-29 12:00:03.123456 C | stop requested",
            "2026/11/29 12:00:03 stop requested",
            "Nov 29 12:00:03 node1 dns-controller[4242]: stop requested",
            "Nov  9 12:00:03 dns-controller[4242]: stop requested",
            "dns-controller[4242]: stop requested",
            "Error: stop requested",
            "  - stop requested",
            "\"stop requested\"",
            "level=error stop requested",
            "[ERROR] stop requested",
            "2026-11-29 12:00:03.123456 C | etcdmain: stop requested",
            "nginx: [emerg] stop requested",
            "2026/11/29 12:00:03 [emerg] 1234#1234: stop requested",
            "2026/11/29 12:00:03 [error] 1234#0: *42 stop requested",
        ] {
            let (_, text, _) = one(line);
            assert_eq!(text, "stop requested", "{line}");
        }
    }

    #[test]
    fn json_and_logfmt_give_message_and_error() {
        let p = prepare(
            r#"{"level":"error","ts":"2026-11-29T12:00:03Z","caller":"embed/etcd.go:123","msg":"failed to start","error":"listen tcp :2379: bind: address already in use"}"#,
        );
        let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
        assert_eq!(
            texts,
            vec![
                "failed to start",
                "listen tcp :2379: bind: address already in use"
            ]
        );
        assert_eq!(p.hints.files, vec!["embed/etcd.go"]);

        let p = prepare(
            r#"time="2026-11-29T12:00:03Z" level=error msg="failed to load \"x\"" err="open /x: no such file""#,
        );
        let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
        assert_eq!(texts, vec!["failed to load \"x\"", "open /x: no such file"]);

        let p = prepare(
            r#"E1129 12:00:03.000000 1 lease.go:10] "Failed to update lease" err="context deadline exceeded" lease="kube-node-lease""#,
        );
        let texts: Vec<&str> = p.parts.iter().map(|p| p.text.as_ref()).collect();
        assert_eq!(
            texts,
            vec!["Failed to update lease", "context deadline exceeded"]
        );
    }

    #[test]
    fn nginx_headers_keep_the_message() {
        for (line, want) in [
            // Not nginx's level names, or no `pid#tid: `: message text.
            ("nginx: [bogus] x", "nginx: [bogus] x"),
            ("[emerg] x", "[emerg] x"),
            ("[crit] 12 x", "[crit] 12 x"),
            // `[error] ` alone stays a level marker.
            ("[error] x", "x"),
            ("2026/11/29 12:00:03 [error] 1#1: *x y", "*x y"),
        ] {
            let (_, text, _) = one(line);
            assert_eq!(text, want, "{line}");
        }
    }

    #[test]
    fn plain_text_with_equals_signs_is_not_logfmt() {
        let (_, text, _) = one("proto: wrong wireType = 2 for field Key");
        assert_eq!(text, "proto: wrong wireType = 2 for field Key");
    }

    #[test]
    fn only_quotes_around_the_whole_message_are_stripped() {
        let text = |l: &str| prepare(l).parts[0].text.to_string();
        assert_eq!(text("'no such file'"), "no such file");
        assert_eq!(text("`a` then \"b\""), "`a` then \"b\"");
        assert_eq!(
            text("\"x\" is not defined in 'rpcpb.Case_value'"),
            "\"x\" is not defined in 'rpcpb.Case_value'"
        );
        assert_eq!(text("'a' or 'b'"), "'a' or 'b'");
    }

    #[test]
    fn depd_deprecations_lose_their_header_and_the_callers_location() {
        let (prefix, text, files) = one("Mon, 30 Nov 2026 00:12:54 GMT express deprecated res.send(status): Use res.sendStatus(status) instead at file:/app/server.mjs:14:35");
        assert_eq!(prefix, "Mon, 30 Nov 2026 00:12:54 GMT express deprecated ");
        assert_eq!(text, "res.send(status): Use res.sendStatus(status) instead");
        assert!(files.is_empty());
        let (prefix, text, _) = one(
            "body-parser deprecated undefined extended: provide extended option at app.js:9:20",
        );
        assert_eq!(prefix, "body-parser deprecated ");
        assert_eq!(text, "undefined extended: provide extended option");
        // Only a depd line, only a script location.
        let (_, text, _) = one("unexpected token at app.js:9:20");
        assert_eq!(text, "unexpected token at app.js:9:20");
        let (_, text, _) = one("express deprecated x at the end");
        assert_eq!(text, "express deprecated x at the end");
    }

    #[test]
    fn go_quoting_is_undone() {
        assert_eq!(unquote(r#""a \"b\"\n\u00e9""#).unwrap(), "a \"b\"\né");
    }
}
