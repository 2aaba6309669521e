//! The one path from a line to its answer, in pieces: what tracing a
//! part gives ([`PartTrace`]: a whole [`Trace`] or a [`TraceOutline`]),
//! what the parts of a reading gather ([`Gather`]), the verdict from what
//! they found ([`Tally`], computed in one place for both answers), and
//! the answers made from a [`Reading`] ([`Answer`]: an [`Explanation`] or
//! an [`Outline`]).

use crate::{Explainer, Explanation, FrameOut, Outline, Unmatched, Verdict};
use errdex_match::{prefix, Hints, TemplateSet, Trace, TraceOutline};

/// What a line's parts found, as far as its verdict goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Some part has a frame.
    frames: bool,
    /// Some frame has several equally good sites no location hint singles
    /// out.
    ambiguous: bool,
    /// Some text is unexplained.
    unmatched: bool,
}

impl Tally {
    /// The tally of an answer whose frames changed after tracing (sites
    /// dropped, a frame gone).
    pub(crate) fn of_answer(e: &Explanation) -> Tally {
        Tally {
            frames: !e.frames.is_empty(),
            ambiguous: e.frames.iter().any(crate::neighbours::is_ambiguous),
            unmatched: !e.unmatched.is_empty(),
        }
    }

    /// Unknown without frames; ambiguous when a frame has several equally
    /// good sites that no location hint singles out; partial with
    /// unexplained text.
    pub(crate) fn verdict(self) -> Verdict {
        if !self.frames {
            Verdict::Unknown
        } else if self.ambiguous {
            Verdict::Ambiguous
        } else if self.unmatched {
            Verdict::Partial
        } else {
            Verdict::Traced
        }
    }
}

/// What tracing one part gives: a [`Trace`] with its frames, or a
/// [`TraceOutline`] with only what an [`Outline`] needs.
pub(crate) trait PartTrace: Sized {
    /// Traces `text`.
    fn trace(set: &TemplateSet, text: &str, hints: &Hints) -> Self;
    /// Whether it found a frame.
    fn found(&self) -> bool;
    /// The same trace with the text's end, `[at, end)`, unmatched.
    fn with_unmatched_tail(self, at: usize, end: usize) -> Self;
}

impl PartTrace for Trace {
    #[inline]
    fn trace(set: &TemplateSet, text: &str, hints: &Hints) -> Self {
        set.trace(text, hints)
    }

    #[inline]
    fn found(&self) -> bool {
        !self.frames.is_empty()
    }

    fn with_unmatched_tail(mut self, at: usize, end: usize) -> Self {
        self.unmatched.push((at, end));
        self
    }
}

impl PartTrace for TraceOutline {
    #[inline]
    fn trace(set: &TemplateSet, text: &str, hints: &Hints) -> Self {
        set.outline(text, hints)
    }

    #[inline]
    fn found(&self) -> bool {
        self.frames > 0
    }

    #[inline]
    fn with_unmatched_tail(self, _at: usize, _end: usize) -> Self {
        TraceOutline {
            unmatched: true,
            ..self
        }
    }
}

/// What tracing all parts of a reading gathers: every part's trace, for
/// an [`Explanation`]; or, for an [`Outline`], only its tally and the
/// first part's outermost site, without allocating.
pub(crate) trait Gather: Default {
    /// What tracing a part gives.
    type Part: PartTrace;
    /// Adds the next part's trace.
    fn push(&mut self, part: Self::Part);
    /// Whether some part found a frame.
    fn found(&self) -> bool;
    /// What the parts found, for the verdict.
    fn tally(&self) -> Tally;
    /// The parts with the runtime knowledge base's frames added where the
    /// repositories' templates left text unexplained, its sites numbered
    /// from `base`; `None` when there is none to add.
    fn with_knowledge(&self, base: u32, p: &prefix::Prepared<'_>) -> Option<Self>;
    /// How the reading's one part fared: frames, whether it left a head
    /// unexplained, whether it left text unmatched, where its outermost
    /// frame ends.
    fn shape(&self) -> Option<Shape>;
    /// Whether this reading, of a text whose other reading `other` found
    /// its outermost frame only mid-text (an earlier layer unread:
    /// `curl: option --bogus: is unknown` found `is unknown` alone), finds
    /// more layers, or as many where the other left text unmatched (its
    /// head), and leaves no text unmatched.
    fn recovers_layers_of(&self, other: &Self) -> bool {
        match (self.shape(), other.shape()) {
            (Some(a), Some(b)) => {
                let more = a.frames > b.frames || a.frames == b.frames && b.unmatched;
                b.starts_mid_text() && more && !a.unmatched
            }
            _ => false,
        }
    }

    /// Whether this reading, with a level marker of `marker` bytes kept,
    /// explains more than `other`, the marker stripped: a frame more,
    /// starting at the text's start and reaching past the marker (a
    /// template of the word `error` alone explains no printer), and no
    /// text unmatched that `other` explains. Or as many frames, the
    /// outermost from the text's start with more literal text than
    /// `other`'s and the marker together: redis's `WARNING: The TCP
    /// backlog setting of %d …` over another program's `{} set to {}`.
    fn explains_more_than(&self, other: &Self, marker: usize) -> bool {
        match (self.shape(), other.shape()) {
            (Some(a), Some(b)) => {
                let clean = !a.head && (!a.unmatched || b.unmatched);
                let more_layers = a.frames > b.frames && a.first_end > marker;
                let more_text = a.frames == b.frames
                    && a.first_start == 0
                    && a.first_literal > b.first_literal + marker;
                clean && (more_layers || more_text)
            }
            _ => false,
        }
    }
}

/// See [`Gather::shape`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    frames: usize,
    head: bool,
    unmatched: bool,
    first_end: usize,
    first_start: usize,
    first_literal: usize,
}

impl Shape {
    /// Whether the outermost frame starts after unmatched text, or after
    /// a head read as a prefix that may hold a layer (`could not
    /// subscribe: rpc error: code = Unavailable desc = ` ends like a
    /// prefix, and `rpc error: …` is gRPC's own layer).
    fn starts_mid_text(&self) -> bool {
        self.first_start > 0 && (self.unmatched || self.head)
    }

    /// Where the outermost frame starts, when after unmatched text or a
    /// head.
    pub(crate) fn mid_text_start(&self) -> Option<usize> {
        self.starts_mid_text().then_some(self.first_start)
    }
}

impl Gather for Vec<Trace> {
    type Part = Trace;

    fn with_knowledge(&self, base: u32, p: &prefix::Prepared<'_>) -> Option<Self> {
        if self.iter().all(|t| t.unmatched.is_empty()) {
            return None;
        }
        let kb = &crate::knowledge::set().set;
        let hints = Hints::default();
        let mut out = self.clone();
        let mut added = false;
        for (t, part) in out.iter_mut().zip(&p.parts) {
            let mut unmatched = Vec::new();
            for &(s, e) in &t.unmatched {
                let inner = kb.trace(&part.text[s..e], &hints);
                if inner.frames.is_empty() {
                    unmatched.push((s, e));
                    continue;
                }
                added = true;
                unmatched.extend(
                    inner
                        .head
                        .iter()
                        .chain(&inner.unmatched)
                        .map(|&(a, b)| (s + a, s + b)),
                );
                // Inner layers go before the first frame that starts after
                // their text: the repository's frames keep their order.
                let at = (t.frames.iter())
                    .position(|f| f.start > s)
                    .unwrap_or(t.frames.len());
                let found = inner.frames.into_iter().map(|mut f| {
                    (f.start, f.end) = (f.start + s, f.end + s);
                    for c in &mut f.candidates {
                        c.payload += base;
                    }
                    f
                });
                t.frames.splice(at..at, found);
            }
            unmatched.sort_unstable();
            t.unmatched = unmatched;
        }
        added.then_some(out)
    }

    fn push(&mut self, part: Trace) {
        Vec::push(self, part);
    }

    fn found(&self) -> bool {
        self.iter().any(PartTrace::found)
    }

    fn tally(&self) -> Tally {
        Tally {
            frames: self.found(),
            ambiguous: self
                .iter()
                .flat_map(|t| &t.frames)
                .any(|f| f.is_ambiguous()),
            unmatched: self.iter().any(|t| !t.unmatched.is_empty()),
        }
    }

    fn shape(&self) -> Option<Shape> {
        let [t] = &self[..] else {
            return None;
        };
        Some(Shape {
            frames: t.frames.len(),
            head: t.head.is_some(),
            unmatched: !t.unmatched.is_empty(),
            first_end: t.frames.first().map_or(0, |f| f.end),
            first_start: t.frames.first().map_or(0, |f| f.start),
            // A candidate's score is its template's literal share of the
            // frame's text.
            first_literal: t.frames.first().map_or(0, |f| {
                let share = f.candidates.first().map_or(0.0, |c| c.score);
                (share * (f.end - f.start) as f32).round() as usize
            }),
        })
    }
}

/// The parts of a reading as an [`Outline`] needs them.
#[derive(Default)]
pub(crate) struct OutlineParts {
    tally: Tally,
    /// The outermost site of the first part that has one.
    top: Option<u32>,
    /// The parts pushed, and the first one's shape.
    parts: usize,
    first: Shape,
}

impl Gather for OutlineParts {
    type Part = TraceOutline;

    /// Outlines (summaries, grouping) group lines by the repositories'
    /// sites: the runtime's texts are read in full explanations only, so
    /// the outline path pays nothing for them.
    fn with_knowledge(&self, _base: u32, _p: &prefix::Prepared<'_>) -> Option<Self> {
        None
    }

    #[inline]
    fn push(&mut self, o: TraceOutline) {
        if self.top.is_none() {
            self.top = o.top;
        }
        if self.parts == 0 {
            self.first = Shape {
                frames: o.frames,
                head: o.head.is_some(),
                unmatched: o.unmatched,
                first_end: o.first_end,
                first_start: o.first_start,
                first_literal: o.first_literal,
            };
        }
        self.parts += 1;
        self.tally.frames |= o.frames > 0;
        self.tally.ambiguous |= o.ambiguous;
        self.tally.unmatched |= o.unmatched;
    }

    #[inline]
    fn found(&self) -> bool {
        self.tally.frames
    }

    #[inline]
    fn tally(&self) -> Tally {
        self.tally
    }

    fn shape(&self) -> Option<Shape> {
        (self.parts == 1).then_some(self.first)
    }
}

/// A line's message read and traced: where the traced text starts in the
/// line, the reading of it that was kept (the first that found
/// something, else the plain one), and what its parts gave.
pub(crate) struct Reading<'r, 'a, G> {
    pub(crate) at: usize,
    pub(crate) prepared: &'r prefix::Prepared<'a>,
    pub(crate) parts: &'r G,
}

/// What explaining a line answers, made from its [`Reading`]: an
/// [`Explanation`] (every frame) or an [`Outline`] (verdict and top site).
pub(crate) trait Answer<'e>: Sized {
    /// What tracing the parts gathers for it.
    type Parts: Gather;
    /// The answer for `line` from its reading.
    fn of(ex: &'e Explainer, line: &str, r: Reading<'_, '_, Self::Parts>) -> Self;
    /// Whether it found a frame.
    fn found(&self) -> bool;
}

impl<'e> Answer<'e> for Explanation<'e> {
    type Parts = Vec<Trace>;

    fn of(ex: &'e Explainer, line: &str, r: Reading<'_, '_, Vec<Trace>>) -> Self {
        let (at, p, traces) = (r.at, r.prepared, r.parts);
        let mut frames = Vec::new();
        let mut unmatched = Vec::new();
        let mut prefix = format!("{}{}", &line[..at], p.prefix);
        for (part, tr) in p.parts.iter().zip(traces) {
            let pos = |s: usize| at + part.offset + s;
            if let Some((s, e)) = tr.head {
                prefix.push_str(&part.text[s..e]);
            }
            for f in &tr.frames {
                frames.push(FrameOut {
                    text: part.text[f.start..f.end].to_string(),
                    start: pos(f.start),
                    end: pos(f.end),
                    candidates: f.candidates.iter().map(|c| ex.candidate(c)).collect(),
                    candidate_count: f.total,
                });
            }
            for &(s, e) in &tr.unmatched {
                unmatched.push(Unmatched {
                    text: part.text[s..e].to_string(),
                    start: pos(s),
                    end: pos(e),
                });
            }
        }
        let mut e = Explanation {
            input: line.to_string(),
            prefix,
            verdict: traces.tally().verdict(),
            frames,
            unmatched,
            stack: None,
        };
        crate::platform::drop_windows_only(&mut e, p.hints.unix_host);
        crate::outparams::drop_unfilled(&mut e, &ex.records);
        crate::class_text::drop_other_modules_text(&mut e);
        e
    }

    fn found(&self) -> bool {
        !self.frames.is_empty()
    }
}

impl Answer<'_> for Outline {
    type Parts = OutlineParts;

    #[inline]
    fn of(ex: &Explainer, _line: &str, r: Reading<'_, '_, OutlineParts>) -> Self {
        Outline {
            verdict: r.parts.tally().verdict(),
            top: r
                .parts
                .top
                .map(|site| (ex.records.record_of(site), site as usize)),
            prefix_len: r.prepared.prefix.len() + r.at,
        }
    }

    #[inline]
    fn found(&self) -> bool {
        self.top.is_some()
    }
}
