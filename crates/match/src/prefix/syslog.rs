//! Syslog and journald: the `host name[pid]: ` after a syslog timestamp
//! ([`super::time`] reads the timestamp).

use crate::bytes::first_space;

/// After a syslog timestamp: `host name[pid]: ` or `name[pid]: `, and
/// `host name: ` (a tag without a pid) where `after_syslog_time` says a
/// syslog timestamp came just before. Only stripped when a tag with a
/// `[pid]`, or a host before a tag, is clear. `sp` is the first space of
/// `s`.
#[inline]
pub(super) fn syslog_host_tag(
    s: &str,
    sp: Option<usize>,
    after_syslog_time: impl FnOnce() -> bool,
) -> Option<usize> {
    let b = s.as_bytes();
    let word_end = sp?;
    let first = &b[..word_end];
    if is_pid_tag(first) {
        return Some(word_end + 1);
    }
    let rest = &b[word_end + 1..];
    let second_end = first_space(rest)?;
    let second = &rest[..second_end];
    if first.contains(&b':') {
        return None;
    }
    let tag = is_pid_tag(second) || (is_program_tag(second) && after_syslog_time());
    tag.then_some(word_end + 1 + second_end + 1)
}

/// `name[pid]:`.
fn is_pid_tag(w: &[u8]) -> bool {
    let Some(inner) = w.strip_suffix(b"]:") else {
        return false;
    };
    let Some(open) = memchr::memchr(b'[', inner) else {
        return false;
    };
    let pid = &inner[open + 1..];
    open > 0 && !pid.is_empty() && pid.iter().all(|c| c.is_ascii_digit())
}

/// `containerd:`, `systemd-logind:`: a program's name and a colon.
fn is_program_tag(w: &[u8]) -> bool {
    let Some(name) = w.strip_suffix(b":") else {
        return false;
    };
    name.first().is_some_and(u8::is_ascii_alphabetic)
        && name
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'/'))
}
