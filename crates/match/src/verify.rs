//! Verifying a candidate: whether a template's segments match a text
//! exactly, literals found by their rarest byte and holes taking the
//! shortest text that lets the rest match.

use crate::bytes::Padded;
use crate::holes;
use crate::set::{Seg, TemplateSet};
use crate::trace::Span;
use errdex_model::HoleKind;

impl TemplateSet {
    /// The first position from `from` where the literal `lit` occurs whole
    /// before `end`. Searches for its rarest byte, then compares.
    #[inline]
    pub(crate) fn next_literal(
        &self,
        t: &Padded,
        lit: Seg,
        from: usize,
        end: usize,
    ) -> Option<usize> {
        let Seg::Lit {
            len,
            words,
            probe,
            byte,
            first,
        } = lit
        else {
            return None;
        };
        let (len, probe) = (len as usize, probe as usize);
        if end < from + len {
            return None;
        }
        let rest = self.rest_words(len, words);
        // The probe byte's positions for starts in [from, end - len].
        let (mut q, last) = (from + probe, end - len + probe);
        while q <= last {
            let found = t.find_byte(byte, q, last)?;
            let at = found - probe;
            if t.has_literal(at, len, first, rest) {
                return Some(at);
            }
            q = found + 1;
        }
        None
    }

    /// Whether the literal occurs whole at `at`, before `end`.
    #[inline]
    pub(crate) fn literal_at(&self, t: &Padded, lit: Seg, at: usize, end: usize) -> bool {
        let Some((len, first, rest)) = self.literal_words(lit) else {
            return false;
        };
        at + len <= end && t.has_literal(at, len, first, rest)
    }

    /// A literal's length, first eight bytes and the words past them.
    #[inline]
    fn literal_words(&self, lit: Seg) -> Option<(usize, u64, &[u64])> {
        let Seg::Lit {
            len, words, first, ..
        } = lit
        else {
            return None;
        };
        let len = len as usize;
        Some((len, first, self.rest_words(len, words)))
    }

    /// Whether `text` (shorter than the literal) is how the literal begins.
    pub(crate) fn literal_begins_with(&self, lit: Seg, text: &[u8]) -> bool {
        let Some((len, first, rest)) = self.literal_words(lit) else {
            return false;
        };
        if text.len() >= len {
            return false;
        }
        let bytes = std::iter::once(first)
            .chain(rest.iter().copied())
            .flat_map(u64::to_le_bytes);
        text.iter().zip(bytes).all(|(a, b)| *a == b)
    }

    /// The words of a literal of `len` bytes past its first eight.
    #[inline]
    fn rest_words(&self, len: usize, words: u32) -> &[u64] {
        let n = len.saturating_sub(8).div_ceil(8);
        &self.words[words as usize..words as usize + n]
    }
}

/// One verification: whether a template's segments match `text[pos..end]`
/// exactly; hole spans are pushed in order. Holes take the shortest text
/// that lets the rest match. With `CUT`, the text may end anywhere inside
/// the template (a line cut at a terminal's width or a collector's
/// limit): a literal it ends in need only begin there, a hole it ends in
/// takes the rest, and the holes after the end get empty spans.
pub(crate) struct Verify<'a, const CUT: bool> {
    pub(crate) set: &'a TemplateSet,
    pub(crate) t: &'a Padded,
    pub(crate) text: &'a str,
    pub(crate) end: usize,
    pub(crate) spans: &'a mut Vec<Span>,
    pub(crate) budget: &'a mut u32,
}

impl<const CUT: bool> Verify<'_, CUT> {
    /// Whether `segs` match `text[pos..end]`.
    pub(crate) fn run(&mut self, segs: &[Seg], pos: usize) -> bool {
        if CUT {
            return self.run_cut(segs, pos);
        }
        if *self.budget == 0 {
            return false;
        }
        *self.budget -= 1;
        let end = self.end;
        let Some(&first) = segs.first() else {
            return pos == end;
        };
        let Seg::Hole { kind, .. } = first else {
            let Seg::Lit { len, .. } = first else {
                unreachable!()
            };
            return self.set.literal_at(self.t, first, pos, end)
                && self.run(&segs[1..], pos + len as usize);
        };
        match segs.get(1) {
            None => self.last_hole(kind, pos),
            Some(&next @ Seg::Lit { len, .. }) if segs.len() == 2 => {
                self.hole_before_last_literal(kind, pos, next, len as usize)
            }
            Some(&next @ Seg::Lit { .. }) => self.hole_before_literal(kind, segs, pos, next),
            Some(Seg::Hole { .. }) => self.adjacent_holes(kind, segs, pos),
        }
    }

    /// [`Verify::run`] of a text that may be cut short, apart so that the
    /// common verification stays as small as it was.
    #[cold]
    #[inline(never)]
    fn run_cut(&mut self, segs: &[Seg], pos: usize) -> bool {
        if *self.budget == 0 {
            return false;
        }
        *self.budget -= 1;
        let end = self.end;
        let Some(&first) = segs.first() else {
            return pos == end;
        };
        if pos == end {
            self.cut_off(segs);
            return true;
        }
        let Seg::Hole { kind, .. } = first else {
            let Seg::Lit { len, .. } = first else {
                unreachable!()
            };
            if pos + len as usize > end {
                let begins = self
                    .set
                    .literal_begins_with(first, &self.t.bytes()[pos..end]);
                if begins {
                    self.cut_off(&segs[1..]);
                }
                return begins;
            }
            return self.set.literal_at(self.t, first, pos, end)
                && self.run(&segs[1..], pos + len as usize);
        };
        self.cut_hole(kind, segs, pos)
    }

    /// Empty spans for the holes of `segs`, which the text's end cut off.
    fn cut_off(&mut self, segs: &[Seg]) {
        let end = self.end;
        for seg in segs {
            if matches!(seg, Seg::Hole { .. }) {
                self.spans.push(Span::new(end, end));
            }
        }
    }

    /// A hole in a text that may be cut: it ends before a whole literal
    /// that lets the rest match, or before the literal's beginning at the
    /// text's end, or the text ends inside it (a value of one word, or
    /// the template's last hole).
    fn cut_hole(&mut self, kind: HoleKind, segs: &[Seg], pos: usize) -> bool {
        let end = self.end;
        let lit = match segs.get(1) {
            Some(&lit @ Seg::Lit { len, .. }) => Some((lit, len as usize)),
            _ => None,
        };
        if let Some((lit, _)) = lit {
            if self.hole_before_literal(kind, segs, pos, lit) {
                return true;
            }
        }
        // The literal after the hole may begin in the text's last bytes.
        if let Some((lit, len)) = lit {
            for he in end.saturating_sub(len - 1).max(pos + 1)..end {
                if self.text.is_char_boundary(he)
                    && self.set.literal_begins_with(lit, &self.t.bytes()[he..end])
                    && holes::accepts(kind, &self.text[pos..he])
                {
                    self.spans.push(Span::new(pos, he));
                    self.cut_off(&segs[2..]);
                    return true;
                }
            }
        }
        // Text that goes on past a space where the template goes on with
        // a literal went another way: a value cut short is one word.
        let rest = &self.text[pos..end];
        let one_word = lit.is_none() || !rest.contains(' ');
        if pos < end && one_word && holes::accepts(kind, rest) {
            self.spans.push(Span::new(pos, end));
            self.cut_off(&segs[1..]);
            return true;
        }
        false
    }

    /// A hole that ends the template takes the rest of the text.
    #[inline]
    fn last_hole(&mut self, kind: HoleKind, pos: usize) -> bool {
        if holes::accepts(kind, &self.text[pos..self.end]) {
            self.spans.push(Span::new(pos, self.end));
            true
        } else {
            false
        }
    }

    /// A hole before the literal that ends the template: the literal can
    /// only sit at the end.
    #[inline]
    fn hole_before_last_literal(
        &mut self,
        kind: HoleKind,
        pos: usize,
        lit: Seg,
        len: usize,
    ) -> bool {
        let end = self.end;
        if end < pos + len {
            return false;
        }
        let he = end - len;
        if !self.text.is_char_boundary(he)
            || !self.set.literal_at(self.t, lit, he, end)
            || !holes::accepts(kind, &self.text[pos..he])
        {
            return false;
        }
        self.spans.push(Span::new(pos, he));
        true
    }

    /// A hole before a literal: it ends at each place the literal occurs,
    /// nearest first, until the rest matches.
    #[inline]
    fn hole_before_literal(&mut self, kind: HoleKind, segs: &[Seg], pos: usize, lit: Seg) -> bool {
        let bounded = holes::is_bounded(kind);
        let mut from = pos;
        while let Some(he) = self.set.next_literal(self.t, lit, from, self.end) {
            from = he + 1;
            if !self.text.is_char_boundary(he) {
                continue;
            }
            if holes::accepts(kind, &self.text[pos..he]) {
                self.spans.push(Span::new(pos, he));
                if self.run(&segs[1..], he) {
                    return true;
                }
                self.spans.pop();
            } else if bounded && self.t.bytes()[pos..he].contains(&b' ') {
                break;
            }
            if *self.budget == 0 {
                return false;
            }
        }
        false
    }

    /// Adjacent holes (`%d%s`): every split is tried.
    #[inline]
    fn adjacent_holes(&mut self, kind: HoleKind, segs: &[Seg], pos: usize) -> bool {
        let end = self.end;
        let mut he = pos;
        loop {
            if holes::accepts(kind, &self.text[pos..he]) {
                self.spans.push(Span::new(pos, he));
                if self.run(&segs[1..], he) {
                    return true;
                }
                self.spans.pop();
            }
            if he >= end || *self.budget == 0 {
                return false;
            }
            he += self.text[he..].chars().next().map_or(1, char::len_utf8);
        }
    }
}
