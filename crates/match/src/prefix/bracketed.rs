//! The bracketed console format of zap-based loggers (pingcap/log, TiDB,
//! TiKV): `[2022/05/26 08:55:34.291 +00:00] [WARN] [grpclog.go:46]
//! ["message"] [error="…"]`, every field in brackets, the message quoted
//! when it holds marks, the fields after it as `[key=value]`.

use super::logfmt::quoted_at;
use super::{Part, ERR_KEYS};
use crate::Hints;
use smallvec::{smallvec, SmallVec};
use std::borrow::Cow;

/// `[grpclog.go:46] `: a caller's file and line in brackets, a location
/// hint. How many bytes it takes.
#[inline]
pub(super) fn bracketed_location(s: &str, hints: &mut Hints) -> Option<usize> {
    let inner = s.strip_prefix('[')?;
    let close = inner.as_bytes().iter().take(128).position(|&c| c == b']')?;
    let (path, line) = inner[..close].rsplit_once(':')?;
    let file = path.rsplit('/').next()?;
    let (stem, ext) = file.rsplit_once('.')?;
    let ok = !stem.is_empty()
        && !ext.is_empty()
        && ext.bytes().all(|c| c.is_ascii_alphabetic())
        && !path.contains(' ')
        && !line.is_empty()
        && line.bytes().all(|c| c.is_ascii_digit());
    if !ok || inner.as_bytes().get(close + 1) != Some(&b' ') {
        return None;
    }
    hints.files.push(file.to_string());
    hints.line = line.parse().ok();
    Some(1 + close + 2)
}

/// `["message"] [error="…"] [key=value]`: the message, then each error
/// field's value (`text` at `offset` in the line).
pub(super) fn bracketed_parts(text: &str, offset: usize) -> Option<SmallVec<[Part<'_>; 2]>> {
    let rest = text.strip_prefix('[')?;
    if !rest.starts_with('"') {
        return None;
    }
    let (message, n) = quoted_at(rest)?;
    let mut i = 1 + n;
    if text.as_bytes().get(i) != Some(&b']') {
        return None;
    }
    i += 1;
    let mut parts: SmallVec<[Part<'_>; 2]> = smallvec![Part {
        text: Cow::Owned(message),
        offset: offset + 2,
    }];
    while let Some(field) = text[i..].strip_prefix(" [") {
        let at = i + 2;
        let eq = field.find('=')?;
        let key = &field[..eq];
        let value = &field[eq + 1..];
        let (v, used) = if value.starts_with('"') {
            quoted_at(value)?
        } else {
            let end = value.find(']')?;
            (value[..end].to_string(), end)
        };
        if value.as_bytes().get(used) != Some(&b']') {
            return None;
        }
        if ERR_KEYS.contains(&key) {
            parts.push(Part {
                text: Cow::Owned(v),
                offset: offset + at + eq + 1 + usize::from(value.starts_with('"')),
            });
        }
        i = at + eq + 1 + used + 1;
    }
    text[i..].trim_end().is_empty().then_some(parts)
}
