//! logfmt lines (`msg="..." err="..."`), klog's structured form, and Go's
//! quoting, which both use for their values.

use super::{Part, CALLER_KEYS, ERR_KEYS, MSG_KEYS};
use crate::bytes::{find_byte, first_space};
use crate::Hints;
use smallvec::SmallVec;
use std::borrow::Cow;

/// logfmt (`msg="..." err="..."`) and klog's structured form
/// (`"msg" err="..." key="value"`).
/// `sp` is the first space of `s`.
#[inline]
pub(super) fn structured_parts<'a>(
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
    pairs_from(s, i, &mut out)?;
    (out.len() >= 2 || out.first().is_some_and(|(k, _, _)| k.is_empty())).then_some(out)
}

/// `key=value key="quoted value"` pairs, one at least, to the end of `s`:
/// each key, value and where the value starts. `None` unless the whole
/// text is such pairs.
pub(super) fn pairs(s: &str) -> Option<Vec<(String, String, usize)>> {
    let mut out = Vec::new();
    pairs_from(s, 0, &mut out)?;
    (!out.is_empty()).then_some(out)
}

/// Reads the pairs of `s` from byte `i` on into `out`.
fn pairs_from(s: &str, mut i: usize, out: &mut Vec<(String, String, usize)>) -> Option<()> {
    let b = s.as_bytes();
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
            let strict =
                quoted_at(&s[i..]).filter(|(_, n)| matches!(b.get(i + n), None | Some(b' ')));
            let (v, n) = strict.or_else(|| unescaped_quoted_at(&s[i..]))?;
            out.push((key.to_string(), v, i + 1));
            i += n;
        } else {
            let end = s[i..].find(' ').map_or(b.len(), |p| i + p);
            out.push((key.to_string(), s[i..end].to_string(), i));
            i = end;
        }
    }
    Some(())
}

/// A Go-quoted string at the start of `s`: its value and the bytes used.
pub(super) fn quoted_at(s: &str) -> Option<(String, usize)> {
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

/// A quoted value whose inner quotes lost their backslashes (Markdown
/// eats them when a user pastes a log line into an issue: `error="got
/// "[" instead"`): it ends at the first quote followed by the end or by
/// a space and the next pair's key. Its value and the bytes used.
fn unescaped_quoted_at(s: &str) -> Option<(String, usize)> {
    let b = s.as_bytes();
    let end = memchr::memchr_iter(b'"', b).skip(1).find(|&q| {
        let after = &b[q + 1..];
        let Some(rest) = after.strip_prefix(b" ") else {
            return after.is_empty();
        };
        let key = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || b"_.-".contains(c))
            .count();
        key > 0 && rest.get(key) == Some(&b'=')
    })?;
    Some((s[1..end].replace("\\\"", "\""), end + 1))
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
