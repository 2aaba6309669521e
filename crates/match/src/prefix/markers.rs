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
    for b in ["- ", "* ", "• ", "> ", "└ ", "| "] {
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
pub(super) fn nginx_header(s: &str) -> Option<usize> {
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
pub(super) fn level_marker(s: &str) -> Option<usize> {
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
