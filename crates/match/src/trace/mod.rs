//! Tracing a text: anchors found once, candidates gathered per layer,
//! verified longest first, and chain holes traced again as deeper layers.

use crate::anchors::Occurrence;
use crate::bytes::{self, Padded};
use crate::set::{Seg, TemplateSet};
use crate::sink::Sink;
use crate::verify::Verify;
use crate::{anchors, prefix, Hints, Trace, TraceOutline};
use errdex_model::HoleKind;
use std::cell::RefCell;

mod holes;
mod tail;
mod wrap;

pub(crate) use holes::{piece_head, MIN_PIECE_HEAD};
#[cfg(test)]
pub(crate) use tail::tail_cuts;

/// Deepest chain followed.
const MAX_DEPTH: usize = 12;
/// Verification steps per template attempt, so pathological text cannot
/// make matching slow.
const STEP_BUDGET: u32 = 2_000;

/// The shortest plain hole that is traced as a message of its own: shorter
/// values (names, numbers, paths' last parts) are values.
const MIN_HOLE_MESSAGE: usize = 8;

/// A plain hole's text is a message of its own only when the template's
/// literals are at least this fraction (one in N) of it.
const HOLE_MESSAGE_SHARE: usize = 3;

/// A part of the text being traced: bytes `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    #[inline]
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// How many bytes it holds.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether an anchor's occurrence lies inside it.
    #[inline]
    fn holds(self, o: &Occurrence) -> bool {
        o.start >= self.start && o.end <= self.end
    }
}

/// A template and where in the text to try it. Ordered as verification
/// tries them: longest literal text first (`rank` is `u32::MAX` minus
/// it), then by template and start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cand {
    rank: u32,
    template: u32,
    start: u32,
    /// The template's [`Entry`](crate::set::Entry) (one per template, so it orders nothing).
    entry: u32,
}

/// [`Cand::rank`] of a template's literal length.
#[inline]
fn rank_of(lit_len: u32) -> u32 {
    u32::MAX - lit_len
}

/// A verified match: the template, where it starts, and its holes' spans
/// (a range of [`Scratch::spans`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hit {
    template: u32,
    /// The template's [`Entry`](crate::set::Entry).
    pub(crate) entry: u32,
    start: usize,
    holes: u32,
}

/// Working memory of one trace, kept per thread so that tracing a line
/// allocates only its answer. Its lists are stacks: each layer of a chain
/// appends its candidates and hits and truncates them when done, so an
/// outer layer's hits stay valid while its chain holes are traced.
#[derive(Debug, Default)]
struct Scratch {
    text: Padded,
    masks: Vec<u64>,
    keys: anchors::KeyBatch,
    occ: Vec<Occurrence>,
    cands: Vec<Cand>,
    hits: Vec<Hit>,
    spans: Vec<Span>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// What every layer of one trace shares.
struct Cx<'a> {
    text: &'a str,
    hints: &'a Hints,
}

impl TemplateSet {
    /// Traces a whole text.
    pub fn trace(&self, text: &str, hints: &Hints) -> Trace {
        self.trace_into(text, hints, Trace::default())
    }

    /// Traces a whole text for its [`TraceOutline`] only.
    pub fn outline(&self, text: &str, hints: &Hints) -> TraceOutline {
        self.trace_into(text, hints, TraceOutline::default())
    }

    fn trace_into<S: Sink + Default>(&self, text: &str, hints: &Hints, mut out: S) -> S {
        if text.len() > u32::MAX as usize {
            // Positions are kept in 32 bits; no message is that long.
            out.unmatched(Span::new(0, text.len()));
            return out;
        }
        SCRATCH.with(|sc| match sc.try_borrow_mut() {
            Ok(mut sc) => self.trace_with(text, hints, &mut sc, out),
            Err(_) => self.trace_with(text, hints, &mut Scratch::default(), out),
        })
    }

    fn trace_with<S: Sink + Default>(
        &self,
        text: &str,
        hints: &Hints,
        sc: &mut Scratch,
        mut out: S,
    ) -> S {
        // Anchors are found once for the whole text; every layer and glue
        // split then picks those inside its span.
        sc.text.set(text.as_bytes());
        bytes::word_masks(&sc.text, &mut sc.masks);
        sc.occ.clear();
        self.anchors.find(
            &sc.text,
            &sc.masks,
            &mut sc.keys,
            &mut sc.occ,
            &self.anchored,
        );
        let cx = Cx { text, hints };
        self.trace_whole(&cx, sc, &mut out);
        let out = self.trace_rare(&cx, sc, out);
        if !out.unexplained().0 {
            return self.firmer_reading(&cx, sc, out);
        }
        if let Some(head) = self.trace_head(&cx, sc) {
            return head;
        }
        match self.trace_cut::<S>(&cx, sc) {
            Some(cut) if cut.unexplained() < out.unexplained() => cut,
            _ => out,
        }
    }

    /// Text left unexplained: the templates anchored on literals may
    /// explain more.
    fn trace_rare<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch, out: S) -> S {
        let left = out.unexplained();
        if left == (false, 0) || !self.anchors.has_rare() {
            return out;
        }
        let words = sc.occ.len();
        self.anchors.find_rare(&sc.text, &sc.masks, &mut sc.occ);
        if sc.occ.len() == words {
            return out;
        }
        let mut again = S::default();
        self.trace_whole(cx, sc, &mut again);
        if again.unexplained() < left {
            again
        } else {
            out
        }
    }

    /// Traces the whole text from the anchors found in it.
    fn trace_whole<S: Sink>(&self, cx: &Cx<'_>, sc: &mut Scratch, out: &mut S) {
        sc.cands.clear();
        sc.hits.clear();
        sc.spans.clear();
        self.trace_span(cx, sc, Span::new(0, cx.text.len()), 0, true, out);
    }

    /// Traces one layer, `span`, `depth` chain holes deep: the templates
    /// that explain it from its start, else glue, else a message after an
    /// unknown head; its chain holes are traced as deeper layers.
    fn trace_span<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
        outermost: bool,
        out: &mut S,
    ) {
        if span.start >= span.end {
            return;
        }
        if depth > MAX_DEPTH {
            out.unmatched(span);
            return;
        }
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        // With no anchor inside the span no template can match in it, alone,
        // as glue or floating (each starts from an anchor it contains), so
        // those passes are skipped; only a repr's quoted text is left.
        let anchored = sc.occ.iter().any(|o| span.holds(o));
        if anchored {
            self.explain_whole_or_behind(cx, sc, span, outermost);
        }
        if sc.hits.len() == hbase && !outermost {
            // A wrapped error printed with its repr (Python's `{reason!r}`:
            // `NewConnectionError('…: Connection refused')`): its message
            // is the quoted text.
            if let Some(inner) = repr_inner(cx.text.as_bytes(), span) {
                self.trace_span(cx, sc, inner, depth + 1, false, out);
                return;
            }
        }
        if anchored && sc.hits.len() == hbase && self.glue(cx, sc, span, depth, out) {
            return;
        }
        if anchored && sc.hits.len() == hbase {
            self.behind_head(cx, sc, span, outermost);
        }
        if sc.hits.len() == hbase {
            if !(anchored && self.message_then_piece(cx, sc, span, depth, out)) {
                out.unmatched(span);
            }
            return;
        }
        let start = sc.hits[hbase].start;
        if start > span.start {
            // A head that reads as words (`upstream said no: `) is a layer
            // nobody explains, not a log prefix: the answer is partial.
            let head = Span::new(span.start, start);
            if outermost && prefix::head_is_prefix(&cx.text.as_bytes()[span.start..start]) {
                out.head(head);
            } else {
                out.unmatched(head);
            }
        }
        self.push_frame(cx, sc, hbase, Span::new(start, span.end), depth, out);
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
    }

    /// Appends the hits of the best templates that explain all of `span`
    /// from its start.
    #[inline]
    fn explain_whole(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span) {
        let cbase = sc.cands.len();
        self.candidates(sc, span, true);
        self.best(cx.text, sc, cbase, span.end, false);
        sc.cands.truncate(cbase);
    }

    /// [`TemplateSet::explain_whole`] for a layer of its own; where the
    /// best hits lead with a hole, a template that leads with words after
    /// a head (as [`TemplateSet::behind_head`] finds them) and wraps the
    /// hole-led one is the layer instead: npm's `npm error JSON.parse `
    /// head, then `Invalid package.json: %v` around `%v while parsing %v`.
    fn explain_whole_or_behind(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span, outermost: bool) {
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        let Some(first) = sc.hits.get(hbase).copied() else {
            return;
        };
        if !self.leads_with_hole(&sc.spans, first) {
            return;
        }
        let cbase = self.floating_candidates(sc, span, outermost);
        // The hits' spans are final ranges now: make them counts again for
        // the comparison, which reorders nothing when it finds no better.
        for h in &mut sc.hits[hbase..] {
            h.holes = self.hole_count(h) as u32;
        }
        self.prefer_literal_head(cx.text, sc, (cbase, hbase, sbase), span.end, false);
        self.finish_hits(sc, hbase, sbase);
        sc.cands.truncate(cbase);
    }

    /// The message may follow a prefix nobody stripped (outermost), or
    /// text no template explains (a wrapped error's `{conn}: ` before its
    /// message): lets templates that start with their anchor start where
    /// it occurs, and appends the best hits.
    #[inline]
    fn behind_head(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span, outermost: bool) {
        let cbase = self.floating_candidates(sc, span, outermost);
        self.best(cx.text, sc, cbase, span.end, true);
        sc.cands.truncate(cbase);
    }

    /// Appends, sorted, the candidates of `span` that start where their
    /// first literal occurs behind a head ([`TemplateSet::floating`]);
    /// gives where they start in `sc.cands`.
    fn floating_candidates(&self, sc: &mut Scratch, span: Span, outermost: bool) -> usize {
        let cbase = sc.cands.len();
        self.candidates(sc, span, false);
        let fbase = sc.cands.len();
        self.floating(sc, cbase, span, outermost);
        sc.cands.drain(cbase..fbase);
        sc.cands[cbase..].sort_unstable();
        cbase
    }

    /// Glue: `a: b` where `a` is a whole message of its own and `b` another
    /// layer (a `%s: %v` wrapper, or text concatenated by hand). Splits at
    /// the first `: ` whose left side a template explains completely.
    fn glue<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        let (s, e) = (span.start, span.end);
        let mut from = s;
        while let Some(p) = bytes::colon_space(&cx.text.as_bytes()[from..e]) {
            let split = from + p;
            if self.whole_layer(cx, sc, Span::new(s, split), depth, out) {
                self.trace_span(cx, sc, Span::new(split + 2, e), depth + 1, false, out);
                return true;
            }
            from = split + 2;
        }
        false
    }

    /// Records a frame over `span` for the hits from `hbase` on and
    /// follows the first hit's chain holes.
    fn push_frame<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        hbase: usize,
        span: Span,
        depth: usize,
        out: &mut S,
    ) {
        out.frame(self, &sc.hits[hbase..], span, cx.hints);
        // Deeper layers push above this one's hits and spans and truncate
        // back, so the first hit's spans stay where they are.
        let first = sc.hits[hbase];
        let x = &self.anchored[first.entry as usize];
        let first_hole = first.holes as usize;
        let mut hole = first_hole;
        let segs = self.segs(x);
        self.resplit_at_colons(cx, sc, segs, first_hole);
        for (i, seg) in segs.iter().enumerate() {
            if let Seg::Hole {
                chain,
                kind,
                system,
            } = *seg
            {
                let hole_span = sc.spans[hole];
                let number = (hole - first_hole) as u32;
                if system {
                    // The runtime knowledge base reads what is left.
                    if hole_span.len() > 0 {
                        out.unmatched(hole_span);
                    }
                } else if chain {
                    self.trace_span(cx, sc, hole_span, depth + 1, false, out);
                } else if matches!(kind, HoleKind::Any | HoleKind::Quoted) {
                    let last = i + 1 == segs.len();
                    // Pieces first where they read the end better; else a
                    // message in the hole, a linked piece, and pieces last.
                    let before = last
                        .then(|| self.pieces_before_message(cx, sc, hole_span, depth))
                        .flatten();
                    let piece = before.or_else(|| {
                        let read = self.message_in_hole(cx, sc, hole_span, depth, out)
                            || self.linked_in_hole(
                                cx,
                                sc,
                                (first.template, number),
                                hole_span,
                                depth,
                                out,
                            );
                        (!read && last)
                            .then(|| self.piece_rest(cx, sc, hole_span, depth))
                            .flatten()
                    });
                    if let Some(rest) = piece {
                        self.piece_in_hole(cx, sc, rest, depth, out);
                    }
                }
                hole += 1;
            }
        }
    }

    /// Appends the templates whose anchor occurs in `span`, to try from its
    /// start, sorted and without repeats; with `at_start`, only those whose
    /// head text the span begins with. Templates that cannot end where it
    /// ends (their last literal is not there) or are longer than the span
    /// are left out.
    fn candidates(&self, sc: &mut Scratch, span: Span, at_start: bool) {
        let Scratch {
            text, occ, cands, ..
        } = sc;
        let (s, e) = (span.start, span.end);
        let base = cands.len();
        let head = text.load_n(s, (e - s).min(8));
        let tail = text.load_before(e);
        let len = e - s;
        for o in occ.iter().filter(|o| span.holds(o)) {
            let mut i = o.anchor as usize;
            while let Some(x) = self.anchored.get(i) {
                if x.lit_len as usize <= len
                    && (!at_start || (head ^ x.head) & x.head_mask == 0)
                    && (tail ^ x.tail) & x.tail_mask == 0
                {
                    // Its segments and words are read when it is verified.
                    if let Some(seg) = self.segs.get(x.segs.0 as usize) {
                        bytes::prefetch(seg);
                    }
                    if let Some(w) = self.words.get(x.words as usize) {
                        bytes::prefetch(w);
                    }
                    cands.push(Cand {
                        rank: rank_of(x.lit_len),
                        template: x.template,
                        start: s as u32,
                        entry: i as u32,
                    });
                }
                if x.last {
                    break;
                }
                i += 1;
            }
        }
        if cands.len() > base + 1 {
            cands[base..].sort_unstable();
            let mut w = base + 1;
            for r in base + 1..cands.len() {
                if cands[r] != cands[w - 1] {
                    cands[w] = cands[r];
                    w += 1;
                }
            }
            cands.truncate(w);
        }
    }

    /// For a message after an unknown prefix: a template that starts with
    /// literal text may start wherever that text occurs (a few places).
    /// Appends those starts for the candidates from `base` on, where a head
    /// can end: inside a chain after a `: ` separator (an unknown head is
    /// one layer, not any text); on the `outermost` layer where log
    /// prefixes end, or after a few plain words when the template is the
    /// longer text (`npm error 404 `), so that the last words of a message
    /// nobody wrote (`file already closed`) are not taken for a short
    /// template (`closed`) behind a prefix.
    fn floating(&self, sc: &mut Scratch, base: usize, span: Span, outermost: bool) {
        let (s, e) = (span.start, span.end);
        let end = sc.cands.len();
        for i in base..end {
            let Cand {
                rank,
                template,
                entry,
                ..
            } = sc.cands[i];
            let x = &self.anchored[entry as usize];
            let Some(&first @ Seg::Lit { .. }) = self.segs(x).first() else {
                continue;
            };
            let mut from = s;
            for _ in 0..4 {
                let Some(p) = self.next_literal(&sc.text, first, from, e) else {
                    break;
                };
                let before = &sc.text.bytes()[..p];
                let head_ends = if outermost {
                    prefix::ends_like_prefix(before)
                        || (prefix::plain_head_fits(p - s, x.lit_len as usize)
                            && prefix::is_plain_head(&before[s..]))
                } else {
                    before.ends_with(b": ")
                };
                if p > s && head_ends {
                    sc.cands.push(Cand {
                        rank,
                        template,
                        start: p as u32,
                        entry,
                    });
                }
                from = p + 1;
            }
        }
    }

    /// Appends the verified hits from `cands[base..]` (in [`Cand`] order)
    /// that explain the most literal text. A template whose leading plain
    /// hole took a layer separator ([`swallows_a_layer`]) is kept only
    /// when no other template explains the text.
    fn best(&self, text: &str, sc: &mut Scratch, base: usize, e: usize, behind: bool) {
        let hbase = sc.hits.len();
        let sbase = sc.spans.len();
        let mut best_rank = u32::MAX;
        let mut demoted = None;
        for i in base..sc.cands.len() {
            let Cand { rank, template, .. } = sc.cands[i];
            if rank > best_rank {
                // Longest first: no later one can be better.
                break;
            }
            if sc.hits[hbase..].iter().any(|h| h.template == template) {
                continue;
            }
            let mark = sc.spans.len();
            if !self.verify(text, sc, sc.cands[i], e) {
                continue;
            }
            let x = &self.anchored[sc.cands[i].entry as usize];
            let held = e - sc.cands[i].start as usize;
            if absorbs_sentences(
                self.segs(x),
                text,
                &sc.spans[mark..],
                x.lit_len as usize,
                held,
            ) {
                sc.spans.truncate(mark);
                continue;
            }
            if swallows_a_layer(self.segs(x), text, &sc.spans[mark..]) {
                sc.spans.truncate(mark);
                demoted.get_or_insert(i);
                continue;
            }
            if rank < best_rank {
                // A better template: the hits so far and their spans go.
                sc.hits.truncate(hbase);
                sc.spans.drain(sbase..mark);
                best_rank = rank;
            }
            self.push_hit(sc, sc.cands[i], mark);
        }
        if let Some(i) = demoted.filter(|_| sc.hits.len() == hbase) {
            let mark = sc.spans.len();
            if self.verify(text, sc, sc.cands[i], e) {
                self.push_hit(sc, sc.cands[i], mark);
            }
        }
        self.prefer_literal_head(text, sc, (base, hbase, sbase), e, behind);
        self.finish_hits(sc, hbase, sbase);
    }

    /// Spans were appended in hit order: gives each hit from `hbase` on
    /// its range, from `sbase` on, in place of its count.
    fn finish_hits(&self, sc: &mut Scratch, hbase: usize, sbase: usize) {
        let mut at = sbase;
        for h in &mut sc.hits[hbase..] {
            let n = h.holes as usize;
            h.holes = at as u32;
            at += n;
        }
    }

    /// How many holes a hit's template has.
    fn hole_count(&self, h: &Hit) -> usize {
        let x = &self.anchored[h.entry as usize];
        self.segs(x)
            .iter()
            .filter(|s| matches!(s, Seg::Hole { .. }))
            .count()
    }

    /// Whether a candidate's template matches `text[start..e]`; its holes'
    /// spans are pushed when it does.
    #[inline]
    fn verify(&self, text: &str, sc: &mut Scratch, c: Cand, e: usize) -> bool {
        self.verify_as::<false>(text, sc, c, e)
    }

    /// [`TemplateSet::verify`], or with `CUT` whether the template begins
    /// `text[start..e]` (or matches it whole).
    #[inline]
    fn verify_as<const CUT: bool>(&self, text: &str, sc: &mut Scratch, c: Cand, e: usize) -> bool {
        let mark = sc.spans.len();
        let mut budget = STEP_BUDGET;
        let mut v = Verify::<CUT> {
            set: self,
            t: &sc.text,
            text,
            end: e,
            spans: &mut sc.spans,
            budget: &mut budget,
        };
        let x = &self.anchored[c.entry as usize];
        if v.run(self.segs(x), c.start as usize) {
            return true;
        }
        sc.spans.truncate(mark);
        false
    }

    /// Appends a verified candidate as a hit whose holes' spans start at
    /// `mark`; for now `holes` counts them ([`TemplateSet::best`] makes it
    /// their start once the hits are final).
    #[inline]
    fn push_hit(&self, sc: &mut Scratch, c: Cand, mark: usize) {
        sc.hits.push(Hit {
            template: c.template,
            entry: c.entry,
            start: c.start as usize,
            holes: (sc.spans.len() - mark) as u32,
        });
    }
}

/// Whether a template that starts with a plain hole (not a wrapped
/// error) took a layer separator into it: `Error: Invalid value for
/// 'n': 'x'` is no value of `%v is not a valid %v.` but layers of their
/// own (`message repeated 5 times: [ …` is no `%s %s`). A message's own
/// words may hold one too (`invalid type: string, expected u32` in
/// serde_json's `%v at line %v column %v`), so such a match is kept only
/// when no other template explains the text.
///
/// The lead is the holes up to the template's first literal with a
/// letter (`%v %v does not exist.` leads with both), each value checked on
/// its own (clap's `%v '%v' isn't a valid value` leads with `error:`).
#[inline]
fn swallows_a_layer(segs: &[Seg], text: &str, spans: &[Span]) -> bool {
    let Some(Seg::Hole { chain: false, .. }) = segs.first() else {
        return false;
    };
    let b = text.as_bytes();
    let mut holes = spans.iter();
    for seg in segs {
        match *seg {
            Seg::Hole { .. } => match holes.next() {
                Some(s) if holds_separator(&b[s.start..s.end]) => return true,
                Some(_) => {}
                None => break,
            },
            Seg::Lit { len, first, .. } => {
                let bytes = first.to_le_bytes();
                let head = &bytes[..(len as usize).min(8)];
                if len > 8 || head.iter().any(u8::is_ascii_alphabetic) {
                    break;
                }
            }
        }
    }
    false
}

/// A template of two holes or more whose literal text is under an eighth
/// of what it matched explains no text whose plain values hold a
/// sentence's end (one hole after a few words, `Error: %s`, is a printer
/// of a message, traced as a deeper layer): values are
/// names, numbers and paths, and text of several sentences is a message
/// nobody indexed (ZooKeeper's `{} set to {}` is no reading of another
/// program's `overcommit_memory is set to 0! Background save may fail …`).
/// A chain hole may hold sentences: the message it wraps.
#[inline]
fn absorbs_sentences(
    segs: &[Seg],
    text: &str,
    spans: &[Span],
    lit_len: usize,
    held: usize,
) -> bool {
    let holes = segs.iter().filter(|s| matches!(s, Seg::Hole { .. }));
    if lit_len * 8 >= held || holes.clone().count() < 2 {
        return false;
    }
    let b = text.as_bytes();
    holes.zip(spans).any(|(seg, s)| {
        matches!(
            seg,
            Seg::Hole {
                chain: false,
                kind: HoleKind::Any,
                ..
            }
        ) && holds_sentence_end(&b[s.start..s.end])
    })
}

/// Whether `b` holds a sentence's end before another's start: `.`, `!`
/// or `?`, a space, a capital letter.
#[inline]
fn holds_sentence_end(b: &[u8]) -> bool {
    b.windows(3)
        .any(|w| matches!(w[0], b'.' | b'!' | b'?') && w[1] == b' ' && w[2].is_ascii_uppercase())
}

/// The quoted argument of `Name('text')` or `Name("text")` filling
/// `span` of `b`.
#[inline]
fn repr_inner(b: &[u8], span: Span) -> Option<Span> {
    let (s, e) = (span.start, span.end);
    let t = &b[s..e];
    let name = t
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'.')
        .count();
    if name == 0 || t.len() < name + 4 || t[name] != b'(' || t[t.len() - 1] != b')' {
        return None;
    }
    let q = t[name + 1];
    ((q == b'\'' || q == b'"') && t[t.len() - 2] == q).then(|| Span::new(s + name + 2, e - 2))
}

/// Whether a value holds a layer separator, `: ` or a tab.
#[inline]
fn holds_separator(value: &[u8]) -> bool {
    memchr::memchr2_iter(b':', b'\t', value)
        .any(|i| value[i] == b'\t' || value.get(i + 1) == Some(&b' '))
}
