//! The small marks loggers put before a message: leading space, bullets,
//! level markers, nginx's headers, and depd's deprecation header (with the
//! caller's location after the message).

/// Where the message starts and where the caller's location starts in a
/// depd deprecation (express, body-parser and most of npm print them so):
/// `express deprecated res.send(status): Use res.sendStatus(status) instead
/// at app.js:10:7`. The namespace and `deprecated` are depd's header, the
/// location is the caller's: neither is the message's.
/// `sp` is the first space of `s`.
#[inline]
pub(super) fn depd_call_site(s: &str, sp: Option<usize>) -> Option<(usize, usize)> {
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

#[inline]
pub(super) fn leading_space(s: &str) -> Option<usize> {
    // Most messages start with a visible ASCII byte.
    if s.as_bytes().first().is_some_and(|c| c.is_ascii_graphic()) {
        return None;
    }
    let n = s.len() - s.trim_start().len();
    (n > 0).then_some(n)
}

#[inline]
pub(super) fn bullet(s: &str) -> Option<usize> {
    if !matches!(s.as_bytes().first(), Some(b'-' | b'*' | b'>' | b'|' | 0xe2)) {
        return None;
    }
    for b in errdex_model::BULLETS {
        if s.starts_with(b) {
            return Some(b.len());
        }
    }
    None
}

/// nginx's headers: `nginx: [emerg] ` on stderr, and in its error log,
/// after the timestamp, `[error] 1234#1234: ` with an optional
/// connection number (`*42 `). Only nginx's own level names count.
#[inline]
/// Its length, and whether it is the error log's form (`[error]
/// 1234#1234: `), whose lines end in the context the logger adds
/// ([`nginx_context`]).
pub(super) fn nginx_log_header(s: &str) -> Option<(usize, bool)> {
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
        return Some((i, false));
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
    Some((i, true))
}

/// Where the context nginx's error log adds after a message starts: the
/// action (` while reading response header from upstream`) and the
/// request (`, client: 1.2.3.4, server: x, request: "GET / HTTP/1.1"`).
/// The message is what comes before.
#[inline]
pub(super) fn nginx_context(text: &str) -> usize {
    let mut end = text.find(", client: ").unwrap_or(text.len());
    if let Some(w) = text[..end].rfind(" while ") {
        let action = &text[w + 7..end];
        if !action.is_empty() && action.bytes().all(|c| c.is_ascii_lowercase() || c == b' ') {
            end = w;
        }
    }
    end
}

/// Python's warnings header, `warnings.formatwarning`'s `FILE:LINE:
/// Category: ` (`/usr/lib/python3/dist-packages/urllib3/connectionpool.py:1097:
/// InsecureRequestWarning: `): the file and line are hints, the category
/// a class name ending in `Warning`.
#[inline]
pub(super) fn python_warning(s: &str, hints: &mut crate::Hints) -> Option<usize> {
    // The path and line are the line's first word, ending in `:` (most
    // first words do not: looked at before any search).
    let word = &s[..memchr::memchr(b' ', s.as_bytes()).unwrap_or(s.len())];
    if !word.ends_with(':') || word.len() < 7 {
        return None;
    }
    let py = memchr::memmem::find(word.as_bytes(), b".py:")?;
    let path = &s[..py + 3];
    if path.len() <= 3 {
        return None;
    }
    let rest = &s[py + 4..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = rest[digits..].strip_prefix(": ")?;
    let class = rest.split_once(": ")?.0;
    let named = class.ends_with("Warning")
        && class.starts_with(|c: char| c.is_ascii_uppercase())
        && class
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
    if digits == 0 || !named {
        return None;
    }
    hints.files.push(path.rsplit('/').next()?.to_string());
    hints.line = s[py + 4..py + 4 + digits].parse().ok();
    Some(py + 4 + digits + 2 + class.len() + 2)
}

/// log4j's and logback's location: `[main:QuorumPeerMain@99] - ` (thread,
/// class and line, with the pattern's ` - ` after it). The class names
/// the file for the hints.
#[inline]
pub(super) fn log4j_location(s: &str, hints: &mut crate::Hints) -> Option<usize> {
    let inner = s.strip_prefix('[')?;
    let close = inner.find(']')?;
    let (thread_class, line) = inner[..close].rsplit_once('@')?;
    let (_, class) = thread_class.rsplit_once(':')?;
    let class = class.rsplit('.').next()?.split('$').next()?;
    if line.is_empty() || !line.bytes().all(|c| c.is_ascii_digit()) || class.is_empty() {
        return None;
    }
    if !class.starts_with(|c: char| c.is_ascii_uppercase())
        || !class
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return None;
    }
    for ext in [".java", ".kt", ".scala"] {
        hints.files.push(format!("{class}{ext}"));
    }
    hints.line = line.parse().ok();
    let mut n = 1 + close + 1;
    let rest = &s[n..];
    if rest.starts_with(" - ") {
        n += 3;
    } else if rest.starts_with(' ') {
        n += 1;
    }
    Some(n)
}

/// Redis's log header: `30097:M 02 Dec 2026 08:19:00.536 # ` — pid, role
/// (`X` sentinel, `C` child, `S` replica, `M` master), the time and the
/// level mark (`.` debug, `-` verbose, `*` notice, `#` warning).
#[inline]
pub(super) fn redis_header(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let pid = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if pid == 0
        || b.get(pid) != Some(&b':')
        || !matches!(b.get(pid + 1), Some(b'X' | b'C' | b'S' | b'M'))
    {
        return None;
    }
    let i = pid + 2;
    // ` 02 Dec 2026 08:19:00.536 `: 26 bytes with both spaces.
    let t = b.get(i..i + 26)?;
    let digit = |k: usize| t[k].is_ascii_digit();
    let shape = t[0] == b' '
        && digit(1)
        && digit(2)
        && t[3] == b' '
        && t[4..7].iter().all(|c| c.is_ascii_alphabetic())
        && t[7] == b' '
        && (8..12).all(digit)
        && t[12] == b' '
        && t[15] == b':'
        && t[18] == b':'
        && t[21] == b'.'
        && t[25] == b' ';
    let level = b.get(i + 26)?;
    (shape && matches!(level, b'.' | b'-' | b'*' | b'#') && b.get(i + 27) == Some(&b' '))
        .then_some(i + 28)
}

/// Level markers: `ERROR `, `[error] `, `level=error `, `Error: `, `E! `.
#[inline]
pub(super) fn level_marker(s: &str) -> Option<usize> {
    // By first byte: most messages start with none of these, and no two
    // markers can both start one text.
    let markers = markers_starting(*s.as_bytes().first()?);
    let m = markers.iter().find(|m| s.starts_with(**m))?.len();
    // Loggers pad levels to one width (`INFO  `, rubygems' `ERROR:  `).
    Some(m + s.as_bytes()[m..].iter().take_while(|&&c| c == b' ').count())
}

/// The first bytes a level marker can start with.
const MARKER_STARTS: &[u8] = b"EeFfWwpC[lIDNT";

/// The level markers that start with byte `b`.
#[inline]
fn markers_starting(b: u8) -> &'static [&'static str] {
    match b {
        b'E' => &["Error: ", "ERROR: ", "ERROR ", "E! "],
        b'e' => &["error: "],
        b'F' => &["FATAL: ", "FATAL "],
        b'f' => &["fatal: "],
        b'W' => &["WARNING: ", "WARN ", "WARNING ", "W! "],
        b'w' => &["warning: "],
        b'p' => &["panic: "],
        b'C' => &["CRITICAL "],
        b'[' => &[
            "[ERROR] ", "[error] ", "[WARN] ", "[warn] ", "[FATAL] ", "[E] ", "[W] ", "[INFO] ",
            "[info] ", "[DEBUG] ", "[debug] ",
        ],
        b'I' => &["INFO ", "INFO: "],
        b'D' => &["DEBUG ", "DEBUG: "],
        b'N' => &["NOTICE ", "NOTICE: "],
        b'T' => &["TRACE "],
        b'l' => &[
            "level=error ",
            "level=warning ",
            "level=warn ",
            "level=fatal ",
            "level=info ",
        ],
        _ => &[],
    }
}

/// Every level marker: a CLI's own `Error: ` printer starts a template
/// with one, and such a line is read both ways.
pub fn level_markers() -> impl Iterator<Item = &'static str> {
    MARKER_STARTS
        .iter()
        .flat_map(|&b| markers_starting(b).iter().copied())
}
