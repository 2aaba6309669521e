//! Kubernetes' klog and Google's glog headers, which name the file and
//! line that logged.

use crate::Hints;

/// `E1129 12:00:03.123456 1 file.go:80] ` (klog/glog).
#[inline]
pub(super) fn klog_header(s: &str, hints: &mut Hints) -> Option<usize> {
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
