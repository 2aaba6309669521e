//! Which of two templates that explain the same text is the outer
//! layer: words before a message wrap a template that leads with a hole.

use super::{absorbs_sentences, Cand, Hit, Scratch, Span};
use crate::set::{Entry, Seg, TemplateSet};

impl TemplateSet {
    /// Whether a final hit's template leads with a hole that holds text.
    pub(super) fn leads_with_hole(&self, spans: &[Span], h: Hit) -> bool {
        let x = &self.anchored[h.entry as usize];
        matches!(self.segs(x).first(), Some(Seg::Hole { .. }))
            && spans.get(h.holes as usize).is_some_and(|s| s.len() > 0)
    }

    /// When the best hits lead with a hole and a template that leads with
    /// words explains the same text from the same start, the one with words
    /// is the outer layer: `curl: (%d) %s` around `%s in URL position
    /// %zu:`, `Invalid package.json: %v` around `%v while parsing %v`. A
    /// message wraps another by putting words before it far more often
    /// than after, and the hole-led template still explains the inner
    /// layer, inside the other's hole. `behind` an unknown head, where
    /// templates start wherever their words occur, the same holds for a
    /// template that starts earlier and holds the best one in its last
    /// hole (`rpc error: code = %s desc = %s` around `grpc: received
    /// message larger than max (%d vs. %d)`, which has more words).
    pub(super) fn prefer_literal_head(
        &self,
        text: &str,
        sc: &mut Scratch,
        (base, hbase, sbase): (usize, usize, usize),
        e: usize,
        behind: bool,
    ) {
        let Some(first) = sc.hits.get(hbase).copied() else {
            return;
        };
        let x = &self.anchored[first.entry as usize];
        let lead = sc.spans.get(sbase).copied();
        let hole_led = matches!(self.segs(x).first(), Some(Seg::Hole { .. }))
            && lead.is_some_and(|s| s.len() > 0);
        if !hole_led && !behind {
            return;
        }
        let lead_end = lead.map_or(first.start, |s| s.end);
        let mut worded = None;
        for i in base..sc.cands.len() {
            let c = sc.cands[i];
            let y = &self.anchored[c.entry as usize];
            let at = c.start as usize;
            let starts = hole_led && (first.start..lead_end.max(first.start + 1)).contains(&at)
                || behind && at < first.start;
            if !starts || !self.leads_with_words(y) {
                continue;
            }
            if worded.as_ref().is_some_and(|(rank, _)| c.rank > *rank) {
                break;
            }
            let mark = sc.spans.len();
            if !self.verify(text, sc, c, e) {
                continue;
            }
            let spans = sc.spans.split_off(mark);
            let held = e - c.start as usize;
            if absorbs_sentences(self.segs(y), text, &spans, y.lit_len as usize, held)
                || !self.wraps(text, sc, y, &spans, first, e)
            {
                continue;
            }
            if worded.is_none() {
                worded = Some((c.rank, Vec::new()));
            }
            if let Some((_, hits)) = worded.as_mut() {
                hits.push((c, spans));
            }
        }
        let Some((_, hits)) = worded else {
            return;
        };
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        for (c, spans) in hits {
            let mark = sc.spans.len();
            sc.spans.extend(spans);
            self.push_hit(sc, c, mark);
        }
    }

    /// Whether `outer`'s template ends with a hole (a wrapped error) whose
    /// text, `spans`' last, the `inner` hit's template explains: from the
    /// hole's start, or after a layer nobody explains that ends with `: `
    /// (`desc = failed to get image "x": ` before the inner message, which
    /// the trace then reports as unknown).
    fn wraps(
        &self,
        text: &str,
        sc: &mut Scratch,
        outer: &Entry,
        spans: &[Span],
        inner: Hit,
        e: usize,
    ) -> bool {
        let (Some(Seg::Hole { .. }), Some(last)) = (self.segs(outer).last(), spans.last()) else {
            return false;
        };
        if last.end != e || last.len() == 0 {
            return false;
        }
        if inner.start > last.start {
            // The inner hit was verified from its start to `e` already.
            return text.as_bytes()[..inner.start].ends_with(b": ");
        }
        let mark = sc.spans.len();
        let c = Cand {
            rank: 0,
            template: inner.template,
            start: last.start as u32,
            entry: inner.entry,
        };
        let fits = self.verify(text, sc, c, e);
        sc.spans.truncate(mark);
        fits
    }

    /// Whether an entry's template starts with a literal of four bytes or
    /// more that holds a letter (`curl: (`, not `(` or `[`).
    fn leads_with_words(&self, x: &Entry) -> bool {
        match self.segs(x).first() {
            Some(Seg::Lit { len, first, .. }) => {
                let bytes = first.to_le_bytes();
                *len >= 4
                    && bytes[..(*len as usize).min(8)]
                        .iter()
                        .any(u8::is_ascii_alphabetic)
            }
            _ => false,
        }
    }
}
