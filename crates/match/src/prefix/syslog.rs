//! Syslog and journald: the `host name[pid]: ` after a syslog timestamp
//! ([`super::time`] reads the timestamp).

use crate::bytes::first_space;

/// After a syslog timestamp: `host name[pid]: ` or `name[pid]: `. Only
/// stripped when a tag with a `[pid]` or a host before it is clear.
/// `sp` is the first space of `s`.
#[inline]
pub(super) fn syslog_host_tag(s: &str, sp: Option<usize>) -> Option<usize> {
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
