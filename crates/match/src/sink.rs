//! Where tracing puts what it finds: a [`Trace`] keeps every frame with
//! its candidates; a [`TraceOutline`] only what a summary needs.

use crate::set::TemplateSet;
use crate::trace::{Hit, Span};
use crate::{ambiguous, Candidate, Frame, Hints, Trace, TraceOutline, MAX_CANDIDATES};

/// What tracing tells its answer, layer by layer.
pub(crate) trait Sink {
    /// A layer printed by the templates of `hits`.
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], span: Span, hints: &Hints);
    /// Text no template explains.
    fn unmatched(&mut self, span: Span);
    /// An unknown prefix before the outermost frame.
    fn head(&mut self, span: Span);
    /// How much of the text is left unexplained, to compare two traces
    /// of it: whether no frame was found, then the bytes of head and
    /// unmatched text (an outline, which keeps no spans, counts its
    /// unmatched text as one byte). `(false, 0)` explains it all.
    fn unexplained(&self) -> (bool, usize);
    /// When one frame explains the text, its template's literal bytes and
    /// the bytes it spans: how loosely it explains its text. `None` with
    /// no frame or several (a wrapper's span holds the layers inside).
    fn lone_frame(&self) -> Option<(usize, usize)>;
}

impl Sink for Trace {
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], span: Span, hints: &Hints) {
        let len = span.len().max(1) as f32;
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut total = 0usize;
        for h in hits {
            let x = &set.anchored[h.entry as usize];
            let score = (x.lit_len as f32 / len).min(1.0);
            let payloads = set.payloads(x);
            total += payloads.len();
            for &p in payloads {
                let (hinted, exact) = set.hinted(p, hints);
                // Without hints, the first sites are as good as any: stop
                // collecting once the list is full.
                if candidates.len() >= MAX_CANDIDATES && !hinted {
                    continue;
                }
                candidates.push(Candidate {
                    payload: p,
                    score,
                    hinted,
                    exact,
                });
            }
        }
        if candidates.len() > 1 {
            candidates.sort_by(|a, b| {
                (b.exact, b.hinted)
                    .cmp(&(a.exact, a.hinted))
                    .then(b.score.total_cmp(&a.score))
            });
            candidates.truncate(MAX_CANDIDATES);
        }
        self.frames.push(Frame {
            start: span.start,
            end: span.end,
            candidates,
            total,
        });
    }

    fn unmatched(&mut self, span: Span) {
        self.unmatched.push((span.start, span.end));
    }

    fn head(&mut self, span: Span) {
        self.head = Some((span.start, span.end));
    }

    fn unexplained(&self) -> (bool, usize) {
        let head = self.head.map_or(0, |(s, e)| e - s);
        let unmatched: usize = self.unmatched.iter().map(|(s, e)| e - s).sum();
        (self.frames.is_empty(), head + unmatched)
    }

    fn lone_frame(&self) -> Option<(usize, usize)> {
        let [f] = &self.frames[..] else {
            return None;
        };
        let len = f.end - f.start;
        // A candidate's score is its template's literal share of the span.
        let share = f.candidates.first().map_or(0.0, |c| c.score);
        Some(((share * len as f32).round() as usize, len))
    }
}

impl Sink for TraceOutline {
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], span: Span, hints: &Hints) {
        // The hits of one frame explain the same literal length over the
        // same span, so their candidates tie on score: the first exact
        // site leads, then the first hinted one, then the first of all.
        let (mut total, mut hinted, mut exact) = (0usize, 0usize, 0usize);
        let (mut first, mut first_hinted, mut first_exact) = (None, None, None);
        for h in hits {
            let payloads = set.payloads(&set.anchored[h.entry as usize]);
            total += payloads.len();
            first = first.or(payloads.first().copied());
            if hints.files.is_empty() {
                continue;
            }
            for &p in payloads {
                let (is_hinted, is_exact) = set.hinted(p, hints);
                if is_hinted {
                    hinted += 1;
                    first_hinted = first_hinted.or(Some(p));
                }
                if is_exact {
                    exact += 1;
                    first_exact = first_exact.or(Some(p));
                }
            }
        }
        if self.frames == 0 {
            self.top = first_exact.or(first_hinted).or(first);
            self.first_end = span.end;
            self.first_start = span.start;
            self.first_literal =
                (hits.first()).map_or(0, |h| set.anchored[h.entry as usize].lit_len as usize);
        }
        self.frames += 1;
        // A frame lists at most MAX_CANDIDATES sites, exact ones first,
        // then hinted ones: what it would count of each.
        self.ambiguous |= ambiguous(total, hinted.min(MAX_CANDIDATES), exact.min(MAX_CANDIDATES));
    }

    fn unmatched(&mut self, _span: Span) {
        self.unmatched = true;
    }

    fn head(&mut self, span: Span) {
        self.head = Some((span.start, span.end));
    }

    fn unexplained(&self) -> (bool, usize) {
        let head = self.head.map_or(0, |(s, e)| e - s);
        (self.frames == 0, head + usize::from(self.unmatched))
    }

    fn lone_frame(&self) -> Option<(usize, usize)> {
        (self.frames == 1).then(|| (self.first_literal, self.first_end - self.first_start))
    }
}
