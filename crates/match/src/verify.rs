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
        let Seg::Lit {
            len, words, first, ..
        } = lit
        else {
            return false;
        };
        let len = len as usize;
        at + len <= end && t.has_literal(at, len, first, self.rest_words(len, words))
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
/// that lets the rest match.
pub(crate) struct Verify<'a> {
    pub(crate) set: &'a TemplateSet,
    pub(crate) t: &'a Padded,
    pub(crate) text: &'a str,
    pub(crate) end: usize,
    pub(crate) spans: &'a mut Vec<Span>,
    pub(crate) budget: &'a mut u32,
}

impl Verify<'_> {
    /// Whether `segs` match `text[pos..end]`.
    pub(crate) fn run(&mut self, segs: &[Seg], pos: usize) -> bool {
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
