//! Timestamps before a message: RFC 3339 (`2026-11-29T12:00:03.123Z`,
//! `2026-11-29 12:00:03.123456`), Go's log (`2026/11/29 12:00:03`), syslog
//! (`Nov 29 12:00:03`) and HTTP dates, and a capnslog level after them.

/// A timestamp followed by a space, and a capnslog level (`E | `) after
/// it: how many bytes they take.
#[inline]
pub(super) fn timestamp(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first() == Some(&b'[') {
        return bracketed_timestamp(b);
    }
    let i = iso_date_time(b)
        .or_else(|| syslog_date_time(s))
        .or_else(|| http_date(b))?;
    if b.get(i) != Some(&b' ') {
        return None;
    }
    Some(capnslog_level(b, i + 1))
}

/// `[2022/05/26 08:55:34.291 +00:00] `, `[2026-11-29 12:00:03,123] `: a
/// date and time in brackets, with anything of a zone after them.
#[inline]
fn bracketed_timestamp(b: &[u8]) -> Option<usize> {
    let inner = &b[1..];
    let close = inner.iter().take(40).position(|&c| c == b']')?;
    let time = iso_date_time(&inner[..close])?;
    let zone_ok = inner
        .get(time..close)?
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || b" +-:".contains(c));
    (zone_ok && inner.get(close + 1) == Some(&b' ')).then_some(close + 3)
}

/// Whether `b[r]` is there and all digits.
#[inline]
fn digits(b: &[u8], r: std::ops::Range<usize>) -> bool {
    b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit))
}

/// RFC 3339 and Go's log: `2026-11-29T12:00:03`, then optional fractions
/// and zone.
#[inline]
fn iso_date_time(b: &[u8]) -> Option<usize> {
    let date_time = b.len() >= 19
        && digits(b, 0..4)
        && (b[4] == b'-' || b[4] == b'/')
        && digits(b, 5..7)
        && digits(b, 8..10)
        && (b[10] == b'T' || b[10] == b' ')
        && digits(b, 11..13)
        && b[13] == b':';
    if !date_time {
        return None;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') || b.get(i) == Some(&b',') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if b.get(i) == Some(&b'Z') {
        i += 1;
    } else if matches!(b.get(i), Some(b'+') | Some(b'-')) && digits(b, i + 1..i + 3) {
        // `+07`, `+0700`, `+07:00`: minutes only where they are there.
        let minutes = if b.get(i + 3) == Some(&b':') {
            i + 4
        } else {
            i + 3
        };
        i = if digits(b, minutes..minutes + 2) {
            minutes + 2
        } else {
            i + 3
        };
    }
    Some(i)
}

/// Whether `s` starts with a syslog timestamp.
pub(super) fn is_syslog_date_time(s: &str) -> bool {
    syslog_date_time(s).is_some()
}

/// Syslog's `Nov 29 12:00:03` or `Nov  9 12:00:03`.
#[inline]
fn syslog_date_time(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let ok = b.len() >= 15
        && b[3] == b' '
        && b[0].is_ascii_uppercase()
        && MONTHS.iter().any(|m| s.starts_with(m))
        && (b[4] == b' ' || b[4].is_ascii_digit())
        && b[5].is_ascii_digit()
        && b[6] == b' '
        && digits(b, 7..9)
        && b[9] == b':';
    ok.then_some(15)
}

/// An HTTP date, JavaScript's `toUTCString()` (depd prints it): `Mon, 30
/// Nov 2026 00:12:54 GMT`.
#[inline]
fn http_date(b: &[u8]) -> Option<usize> {
    let ok = b.len() >= 29
        && b[3] == b','
        && b[4] == b' '
        && digits(b, 5..7)
        && b[7] == b' '
        && MONTHS.iter().any(|m| b[8..].starts_with(m.as_bytes()))
        && b[11] == b' '
        && digits(b, 12..16)
        && b[16] == b' '
        && digits(b, 17..19)
        && b[19] == b':'
        && &b[25..29] == b" GMT";
    ok.then_some(29)
}

/// capnslog: `2026-11-29 12:00:03.123456 E | etcdmain: `, the package
/// name being part of the header. `i` is where it would start.
#[inline]
fn capnslog_level(b: &[u8], mut i: usize) -> usize {
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
    i
}

const MONTHS: &[&str] = &[
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
