//! A text that traces to nothing may be a whole message with more after
//! it: where such a message can end, and its head traced alone.

use super::{Cx, Scratch, Span};
use crate::set::TemplateSet;
use crate::sink::Sink;

impl TemplateSet {
    /// A text that traces to nothing may be a whole message with more
    /// after it ([`tail_cuts`]): its head is traced (with the anchors
    /// already found), the rest unmatched.
    #[cold]
    pub(super) fn trace_head<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch) -> Option<S> {
        let b = cx.text.as_bytes();
        for cut in tail_cuts(cx.text).into_iter().flatten() {
            // Where no template's last literal ends, or no anchor is
            // before, nothing can end.
            let end = u32::from_le_bytes([b[cut - 4], b[cut - 3], b[cut - 2], b[cut - 1]]);
            if !self.literal_ends.contains(&end) || !sc.occ.iter().any(|o| o.end <= cut) {
                continue;
            }
            let mut head = S::default();
            sc.cands.clear();
            sc.hits.clear();
            sc.spans.clear();
            self.trace_span(cx, sc, Span::new(0, cut), 0, true, &mut head);
            if !head.unexplained().0 {
                head.unmatched(Span::new(cut, cx.text.len()));
                return Some(head);
            }
        }
        None
    }
}

/// Where a text that traces to nothing may end a whole message, longest
/// head first, never in its first 16 bytes: before a logger's detail in
/// parentheses at its end (nginx's `ngx_ssl_error`: `… failed (SSL:
/// …)`); after its last and its first sentence end (`. ` after a word: a
/// sentence another version appended, `Fatal: Can't initialize Background
/// Jobs. Error message: …`); before a space that starts words in another
/// script (a user's question after the message).
pub(crate) fn tail_cuts(text: &str) -> [Option<usize>; 4] {
    const MIN_HEAD: usize = 16;
    let b = text.as_bytes();
    if b.len() <= MIN_HEAD {
        return [None; 4];
    }
    let (mut first, mut last) = (None, None);
    for dot in memchr::memchr_iter(b'.', &b[MIN_HEAD - 1..]) {
        let p = MIN_HEAD + dot;
        if b.get(p) == Some(&b' ') && b[p - 2].is_ascii_alphanumeric() {
            first = first.or(Some(p));
            last = Some(p);
        }
    }
    // Only a text that ends in another script.
    let other_script = (b[b.len() - 1] >= 0x80)
        .then(|| {
            let p = b.iter().position(|&c| c >= 0x80)?;
            let space = b[..p].iter().rposition(|&c| c == b' ')?;
            (space >= MIN_HEAD && !b[space..].iter().any(u8::is_ascii_alphabetic)).then_some(space)
        })
        .flatten();
    let detail = (b[b.len() - 1] == b')')
        .then(|| {
            let mut depth = 0usize;
            let open = b.iter().rposition(|&c| {
                depth = match c {
                    b')' => depth + 1,
                    b'(' => depth - 1,
                    _ => depth,
                };
                depth == 0
            })?;
            (open > MIN_HEAD && b[open - 1] == b' ').then(|| open - 1)
        })
        .flatten();
    [
        detail,
        last,
        first.filter(|f| Some(*f) != last),
        other_script,
    ]
}
