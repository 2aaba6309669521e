//! JSON log lines (zap, logrus, bunyan, pino …): the message and the
//! error are traced apart; the caller is a hint.

use super::{Part, CALLER_KEYS, ERR_KEYS, MSG_KEYS};
use crate::Hints;
use smallvec::SmallVec;
use std::borrow::Cow;

/// A JSON log object: trace its message and its error separately.
pub(super) fn json_parts<'a>(
    s: &'a str,
    offset: usize,
    hints: &mut Hints,
) -> Option<SmallVec<[Part<'a>; 2]>> {
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
