//! logrus's text format on a terminal: `WARN[0000] message  key=value
//! error="…"`, the level's four letters and the seconds since start (or
//! the time) in brackets, the message padded to 44 columns, then its
//! fields as logfmt pairs, each after a space.

use super::logfmt::pairs;
use super::{Part, CALLER_KEYS, ERR_KEYS};
use crate::Hints;
use smallvec::{smallvec, SmallVec};
use std::borrow::Cow;

/// The four letters logrus writes for each level.
const LEVELS: [&[u8; 4]; 7] = [
    b"PANI", b"FATA", b"ERRO", b"WARN", b"INFO", b"DEBU", b"TRAC",
];

/// How long a logrus header's bracket may be: `[0000]` or a full
/// timestamp (`[2019-09-26T18:20:47.828993788Z]`).
const MAX_STAMP: usize = 40;

/// `WARN[0000] `: how many bytes the header takes.
#[inline]
pub(super) fn logrus_header(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.get(4) != Some(&b'[') || !LEVELS.iter().any(|l| b.starts_with(*l)) {
        return None;
    }
    let close = memchr::memchr(b']', &b[5..(5 + MAX_STAMP).min(b.len())])? + 5;
    let stamp = &b[5..close];
    let stamp_ok = !stamp.is_empty()
        && stamp
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-:.+ ".contains(c));
    (stamp_ok && b.get(close + 1) == Some(&b' ')).then_some(close + 2)
}

/// A logrus message and its fields (`text` after the header, at `offset`
/// in the line): the message, then each error field's value, when the
/// text ends in fields. The fields start after two spaces or more (the
/// message's padding and the space before each field) and are all
/// logfmt pairs to the end.
pub(super) fn logrus_parts<'a>(
    text: &'a str,
    offset: usize,
    hints: &mut Hints,
) -> Option<SmallVec<[Part<'a>; 2]>> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(gap) = memchr::memmem::find(&b[from..], b"  ").map(|g| g + from) {
        let start = gap + b[gap..].iter().take_while(|&&c| c == b' ').count();
        if let Some(kvs) = pairs(&text[start..]) {
            let message = text[..gap].trim_end();
            if message.is_empty() {
                return None;
            }
            let mut parts: SmallVec<[Part<'a>; 2]> = smallvec![Part {
                text: Cow::Borrowed(message),
                offset,
            }];
            for (k, v, at) in kvs {
                if ERR_KEYS.contains(&k.as_str()) {
                    parts.push(Part {
                        text: Cow::Owned(v),
                        offset: offset + start + at,
                    });
                } else if CALLER_KEYS.contains(&k.as_str()) {
                    if let Some((file, _)) = v.rsplit_once(':') {
                        hints.files.push(file.to_string());
                    }
                }
            }
            return Some(parts);
        }
        from = start;
    }
    None
}
