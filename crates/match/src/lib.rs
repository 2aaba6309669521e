//! Tracing raw error text back to message templates.
//!
//! A [`TemplateSetBuilder`] compiles every template of the atlas into an
//! immutable [`TemplateSet`], shared by all threads. Each template is
//! anchored on its most selective word; tracing a text splits it into words
//! once and looks each up in a hash table (templates with no whole word
//! fall back to an Aho-Corasick automaton over a literal), then verifies
//! only the templates whose anchor occurred: literals must appear
//! in order and each hole must hold text its verb can print. The template
//! that explains the most literal text wins; equally good ones stay together
//! as one ambiguous frame. When the winner's hole is a chain point (`%w`,
//! `%v` of `err`), the hole's text is traced again, giving frames outermost
//! first; text nothing explains is kept as unmatched.
//!
//! ```
//! use errdex_match::{TemplateSetBuilder, Hints};
//! use errdex_model::{Hole, HoleKind, Template};
//! let mut t = Template::default();
//! t.push_lit("serving readiness probe: ");
//! t.push_hole(Hole { kind: HoleKind::Any, verb: "%w".into(), arg: Some("err".into()), chain: true });
//! let mut b = TemplateSetBuilder::new();
//! b.add(t, 7, "channels/pkg/cmd/apply_channel.go", 130);
//! let set = b.build();
//! let tr = set.trace("serving readiness probe: listen tcp :3989: bind: address already in use", &Hints::default());
//! assert_eq!(tr.frames[0].candidates[0].payload, 7);
//! assert_eq!(tr.unmatched.len(), 1); // the standard library's text
//! ```
#![deny(missing_docs)]

mod anchors;
mod bytes;
pub mod codec;
mod holes;
mod persist;
pub mod prefix;
pub mod sample;
pub mod stack;

use anchors::{Anchors, Occurrence};
use bytes::Padded;
use errdex_model::{HoleKind, Segment, Template};
use std::cell::RefCell;

pub use bytes::Newlines;
pub use holes::accepts;

/// Templates with fewer literal letters and digits never match alone.
const MIN_ALNUM: usize = 4;
/// Candidates kept per frame: a message printed from hundreds of places
/// (generated code) keeps the best of them and counts the rest.
pub const MAX_CANDIDATES: usize = 16;
/// Deepest chain followed.
const MAX_DEPTH: usize = 12;
/// Verification steps per template attempt, so pathological text cannot
/// make matching slow.
const STEP_BUDGET: u32 = 2_000;

/// Where a log line says it came from (`apply_channel.go:80`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// File names or path suffixes, most specific first.
    pub files: Vec<String>,
    /// The line the header names, if any (may be stale: it only orders
    /// sites within a hinted file).
    pub line: Option<u32>,
}

/// One candidate site for a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The payload given to [`TemplateSetBuilder::add`].
    pub payload: u32,
    /// Share of the frame's text that the template's literals explain,
    /// in `[0, 1]`.
    pub score: f32,
    /// Whether the site's file matches a location hint.
    pub hinted: bool,
    /// Whether the site's line is exactly the hinted line as well.
    pub exact: bool,
}

/// A layer of the error: a span of the text and the sites that print it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Byte offset where the layer's text starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// Sites, best first (hinted ones first among equals), at most
    /// [`MAX_CANDIDATES`].
    pub candidates: Vec<Candidate>,
    /// How many sites print this layer in all.
    pub total: usize,
}

/// The result of tracing one text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Layers, outermost first.
    pub frames: Vec<Frame>,
    /// Spans no template explains, in order.
    pub unmatched: Vec<(usize, usize)>,
    /// Leading text before the outermost frame when the message did not
    /// start the text (an unknown log prefix).
    pub head: Option<(usize, usize)>,
}

/// What tracing a text found, without building its frames: enough to
/// give a verdict and the outermost layer's best site, for grouping a
/// whole log. Tracing for it allocates nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceOutline {
    /// How many layers were found.
    pub frames: usize,
    /// The outermost frame's best candidate, as [`Frame::candidates`]
    /// would list it first.
    pub top: Option<u32>,
    /// Whether some frame is ambiguous ([`Frame::is_ambiguous`]).
    pub ambiguous: bool,
    /// Whether some text is unmatched.
    pub unmatched: bool,
    /// See [`Trace::head`].
    pub head: Option<(usize, usize)>,
}

impl Frame {
    /// Several sites print this layer equally well and no location hint
    /// singles one out (neither exactly one hinted nor one exact site).
    pub fn is_ambiguous(&self) -> bool {
        let hinted = self.candidates.iter().filter(|c| c.hinted).count();
        let exact = self.candidates.iter().filter(|c| c.exact).count();
        ambiguous(self.total, hinted, exact)
    }
}

/// The rule behind [`Frame::is_ambiguous`], from counts.
fn ambiguous(total: usize, hinted: usize, exact: usize) -> bool {
    total > 1 && hinted != 1 && exact != 1
}

/// Where tracing puts what it finds: a [`Trace`] keeps every frame with its
/// candidates; a [`TraceOutline`] only what a summary needs.
trait Sink {
    /// A layer `[s, e)` printed by the templates of `hits`.
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], s: usize, e: usize, hints: &Hints);
    /// Text no template explains.
    fn unmatched(&mut self, s: usize, e: usize);
    /// An unknown prefix before the outermost frame.
    fn head(&mut self, s: usize, e: usize);
}

impl Sink for Trace {
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], s: usize, e: usize, hints: &Hints) {
        let span = (e - s).max(1) as f32;
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut total = 0usize;
        for h in hits {
            let x = &set.anchored[h.entry as usize];
            let score = (x.lit_len as f32 / span).min(1.0);
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
            start: s,
            end: e,
            candidates,
            total,
        });
    }

    fn unmatched(&mut self, s: usize, e: usize) {
        self.unmatched.push((s, e));
    }

    fn head(&mut self, s: usize, e: usize) {
        self.head = Some((s, e));
    }
}

impl Sink for TraceOutline {
    fn frame(&mut self, set: &TemplateSet, hits: &[Hit], _s: usize, _e: usize, hints: &Hints) {
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
        }
        self.frames += 1;
        // A frame lists at most MAX_CANDIDATES sites, exact ones first,
        // then hinted ones: what it would count of each.
        self.ambiguous |= ambiguous(total, hinted.min(MAX_CANDIDATES), exact.min(MAX_CANDIDATES));
    }

    fn unmatched(&mut self, _s: usize, _e: usize) {
        self.unmatched = true;
    }

    fn head(&mut self, s: usize, e: usize) {
        self.head = Some((s, e));
    }
}

/// A piece of a compiled template. Literal bytes live in the set's
/// arenas, so a template is a run of small, copyable segments.
#[derive(Debug, Clone, Copy)]
enum Seg {
    /// A literal of `len` bytes: its first eight (zero-padded) in `first`,
    /// the rest as eight-byte words at `words[words..]`. `probe` is the
    /// index of its rarest byte, searched for first, and `byte` that byte.
    /// Most literals are eight bytes or shorter, and a template tried in
    /// vain mostly fails on its first bytes: both are answered from the
    /// segment alone, without reading another array.
    Lit {
        len: u32,
        words: u32,
        probe: u32,
        byte: u8,
        first: u64,
    },
    Hole {
        kind: HoleKind,
        chain: bool,
    },
}

/// An anchored template with what its text must start and end with (up to
/// eight bytes each, masked): checked in one dense table before any
/// verification, these reject most candidates of an occurrence without
/// touching the template. It also holds all that verifying and answering
/// need of the template (its segment and payload ranges), so a traced line
/// reads one line of this table per template it tries: on these machines
/// each cache line a line misses costs more than its instructions.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Entry {
    template: u32,
    lit_len: u32,
    /// Range of `TemplateSet::segs`.
    segs: (u32, u32),
    /// Range of `TemplateSet::payloads`.
    payloads: (u32, u32),
    /// Where its literals' words past their first eight bytes start in
    /// `TemplateSet::words` (read once it is verified, so asked for early).
    words: u32,
    /// Whether this is the last template of its anchor.
    last: bool,
    head: u64,
    head_mask: u64,
    tail: u64,
    tail_mask: u64,
}

/// How common a byte is in log text, to pick the byte of a literal that
/// is searched for first: spaces and common letters stop a search at
/// every other position, rare bytes seldom.
fn commonness(c: u8) -> u32 {
    const LETTERS: &[u8] = b"etaoinsrhldcumfpgwybvkxjqz";
    match c {
        b' ' => 100,
        b'a'..=b'z' => 60 - LETTERS.iter().position(|&l| l == c).unwrap_or(25) as u32 * 2,
        b'0'..=b'9' | b':' | b'/' | b'.' | b'-' | b'=' => 30,
        b'A'..=b'Z' => 5,
        _ => 10,
    }
}

/// Collects templates; [`TemplateSetBuilder::build`] compiles them.
#[derive(Debug, Default)]
pub struct TemplateSetBuilder {
    templates: Vec<(Template, Vec<u32>)>,
    index: foldhash::HashMap<Template, usize>,
    files: foldhash::HashMap<u32, (Box<str>, u32)>,
}

impl TemplateSetBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a template for a site. `payload` is the caller's handle for the
    /// site; `file` its path, for location hints. Identical templates share
    /// one compiled form.
    pub fn add(&mut self, template: Template, payload: u32, file: &str, line: u32) {
        self.files.insert(payload, (file.into(), line));
        match self.index.get(&template) {
            Some(&i) => self.templates[i].1.push(payload),
            None => {
                self.index.insert(template.clone(), self.templates.len());
                self.templates.push((template, vec![payload]));
            }
        }
    }

    /// Compiles the set.
    pub fn build(self) -> TemplateSet {
        let mut anchors = Anchors::build(
            self.templates
                .iter()
                .map(|(t, _)| (t, t.literal_alnum() >= MIN_ALNUM)),
        );
        let mut set = TemplateSet {
            templates: self.templates.len() as u32,
            segs: Vec::new(),
            words: Vec::new(),
            payloads: Vec::new(),
            anchored: Vec::new(),
            anchors: Anchors::default(),
            files: self.files,
        };
        let mut entries = Vec::with_capacity(self.templates.len());
        for (t, payloads) in &self.templates {
            let seg_start = set.segs.len() as u32;
            let words = set.words.len() as u32;
            for seg in &t.segments {
                let seg = match seg {
                    Segment::Lit(l) => set.literal(l.as_bytes()),
                    Segment::Hole(h) => Seg::Hole {
                        kind: h.kind,
                        chain: h.chain,
                    },
                };
                set.segs.push(seg);
            }
            let segs = (seg_start, set.segs.len() as u32);
            let pay_start = set.payloads.len() as u32;
            set.payloads.extend_from_slice(payloads);
            let (mut head, mut head_mask, mut tail, mut tail_mask) = (0, 0, 0, 0);
            if let Some(Segment::Lit(l)) = t.segments.first() {
                let n = l.len().min(8);
                head = bytes::load_slice(l.as_bytes(), 0);
                head_mask = bytes::low_mask(n);
            }
            if let Some(Segment::Lit(l)) = t.segments.last() {
                let b = l.as_bytes();
                let n = b.len().min(8);
                // The last `n` bytes in the high bytes, as a text's eight
                // bytes before its end load.
                tail = bytes::load_slice(b, b.len() - n) << (8 * (8 - n));
                tail_mask = bytes::high_mask(n);
            }
            entries.push(Entry {
                template: entries.len() as u32,
                lit_len: t.literal_len() as u32,
                segs,
                payloads: (pay_start, set.payloads.len() as u32),
                words,
                last: false,
                head,
                head_mask,
                tail,
                tail_mask,
            });
        }
        // Each anchor's templates in one flat array, the last marked: the
        // candidates of an occurrence are then one contiguous read, from
        // where the anchor's number (renumbered so) points.
        let mut first = Vec::new();
        for list in anchors.take_templates() {
            first.push(set.anchored.len() as u32);
            set.anchored
                .extend(list.iter().map(|&ti| entries[ti as usize]));
            if let Some(x) = set.anchored.last_mut() {
                x.last = true;
            }
        }
        anchors.renumber(|a| first[a as usize]);
        set.anchors = anchors;
        set
    }
}

/// Compiled templates; immutable and shared.
#[derive(Debug)]
pub struct TemplateSet {
    /// How many distinct templates were compiled (the unanchored ones,
    /// glue only, have no entry).
    templates: u32,
    segs: Vec<Seg>,
    /// Literals past their first eight bytes, as eight-byte words.
    words: Vec<u64>,
    payloads: Vec<u32>,
    /// Templates by anchor; an anchor is numbered by its first one here.
    anchored: Vec<Entry>,
    anchors: Anchors,
    files: foldhash::HashMap<u32, (Box<str>, u32)>,
}

/// A template and where in the text to try it. Ordered as verification
/// tries them: longest literal text first (`rank` is `u32::MAX` minus
/// it), then by template and start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cand {
    rank: u32,
    template: u32,
    start: u32,
    /// The template's [`Entry`] (one per template, so it orders nothing).
    entry: u32,
}

/// [`Cand::rank`] of a template's literal length.
fn rank_of(lit_len: u32) -> u32 {
    u32::MAX - lit_len
}

/// A verified match: the template, where it starts, and its holes' spans
/// (a range of [`Scratch::spans`]).
#[derive(Debug, Clone, Copy)]
struct Hit {
    template: u32,
    /// The template's [`Entry`].
    entry: u32,
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
    spans: Vec<(usize, usize)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl TemplateSet {
    /// Number of distinct templates.
    pub fn len(&self) -> usize {
        self.templates as usize
    }

    /// Whether the set has no templates.
    pub fn is_empty(&self) -> bool {
        self.templates == 0
    }

    /// The largest payload any template carries, if any does.
    pub fn max_payload(&self) -> Option<u32> {
        self.payloads.iter().copied().max()
    }

    fn literal(&mut self, l: &[u8]) -> Seg {
        let probe = (0..l.len()).min_by_key(|&i| commonness(l[i])).unwrap_or(0);
        let seg = Seg::Lit {
            len: l.len() as u32,
            words: self.words.len() as u32,
            probe: probe as u32,
            byte: l.get(probe).copied().unwrap_or(0),
            first: bytes::load_slice(l, 0),
        };
        self.words
            .extend(bytes::literal_words(l.get(8..).unwrap_or_default()));
        seg
    }

    fn segs(&self, x: &Entry) -> &[Seg] {
        &self.segs[x.segs.0 as usize..x.segs.1 as usize]
    }

    fn payloads(&self, x: &Entry) -> &[u32] {
        &self.payloads[x.payloads.0 as usize..x.payloads.1 as usize]
    }

    /// Traces a whole text.
    pub fn trace(&self, text: &str, hints: &Hints) -> Trace {
        self.trace_into(text, hints, Trace::default())
    }

    /// Traces a whole text for its [`TraceOutline`] only.
    pub fn outline(&self, text: &str, hints: &Hints) -> TraceOutline {
        self.trace_into(text, hints, TraceOutline::default())
    }

    fn trace_into<S: Sink>(&self, text: &str, hints: &Hints, mut out: S) -> S {
        if text.len() > u32::MAX as usize {
            // Positions are kept in 32 bits; no message is that long.
            out.unmatched(0, text.len());
            return out;
        }
        SCRATCH.with(|sc| match sc.try_borrow_mut() {
            Ok(mut sc) => self.trace_with(text, hints, &mut sc, out),
            Err(_) => self.trace_with(text, hints, &mut Scratch::default(), out),
        })
    }

    fn trace_with<S: Sink>(&self, text: &str, hints: &Hints, sc: &mut Scratch, mut out: S) -> S {
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
        sc.cands.clear();
        sc.hits.clear();
        sc.spans.clear();
        let cx = Cx { text, hints };
        self.trace_span(&cx, sc, 0, text.len(), 0, true, &mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn trace_span<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        s: usize,
        e: usize,
        depth: usize,
        outermost: bool,
        out: &mut S,
    ) {
        if s >= e {
            return;
        }
        if depth > MAX_DEPTH {
            out.unmatched(s, e);
            return;
        }
        let (cbase, hbase, sbase) = (sc.cands.len(), sc.hits.len(), sc.spans.len());
        // With no anchor inside the span no template can match in it, alone,
        // as glue or floating (each starts from an anchor it contains), so
        // those passes are skipped; only a repr's quoted text is left.
        let anchored = sc.occ.iter().any(|o| o.start >= s && o.end <= e);
        if anchored {
            self.candidates(sc, s, e, true);
            self.best(cx.text, sc, cbase, e);
            sc.cands.truncate(cbase);
        }
        if sc.hits.len() == hbase && !outermost {
            // A wrapped error printed with its repr (Python's `{reason!r}`:
            // `NewConnectionError('…: Connection refused')`): its message
            // is the quoted text.
            if let Some((is, ie)) = repr_inner(cx.text.as_bytes(), s, e) {
                self.trace_span(cx, sc, is, ie, depth + 1, false, out);
                return;
            }
        }
        if anchored && sc.hits.len() == hbase && self.glue(cx, sc, s, e, depth, out) {
            return;
        }
        if anchored && sc.hits.len() == hbase {
            // The message may follow a prefix nobody stripped (outermost),
            // or text no template explains (a wrapped error's `{conn}: `
            // before its message): let templates that start with their
            // anchor start where it occurs.
            self.candidates(sc, s, e, false);
            let fbase = sc.cands.len();
            self.floating(sc, cbase, s, e, outermost);
            sc.cands.drain(cbase..fbase);
            sc.cands[cbase..].sort_unstable();
            self.best(cx.text, sc, cbase, e);
            sc.cands.truncate(cbase);
        }
        if sc.hits.len() == hbase {
            out.unmatched(s, e);
            return;
        }
        let start = sc.hits[hbase].start;
        if start > s {
            // A head that reads as words (`upstream said no: `) is a layer
            // nobody explains, not a log prefix: the answer is partial.
            if outermost && prefix::head_is_prefix(&cx.text.as_bytes()[s..start]) {
                out.head(s, start);
            } else {
                out.unmatched(s, start);
            }
        }
        self.push_frame(cx, sc, hbase, start, e, depth, out);
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
    }

    /// Glue: `a: b` where `a` is a whole message of its own and `b` another
    /// layer (a `%s: %v` wrapper, or text concatenated by hand). Splits at
    /// the first `: ` whose left side a template explains completely.
    fn glue<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        s: usize,
        e: usize,
        depth: usize,
        out: &mut S,
    ) -> bool {
        let mut from = s;
        while let Some(p) = bytes::colon_space(&cx.text.as_bytes()[from..e]) {
            let split = from + p;
            let (cbase, hbase, sbase) = (sc.cands.len(), sc.hits.len(), sc.spans.len());
            self.candidates(sc, s, split, true);
            self.best(cx.text, sc, cbase, split);
            sc.cands.truncate(cbase);
            if sc.hits.len() > hbase {
                self.push_frame(cx, sc, hbase, s, split, depth, out);
                sc.hits.truncate(hbase);
                sc.spans.truncate(sbase);
                self.trace_span(cx, sc, split + 2, e, depth + 1, false, out);
                return true;
            }
            from = split + 2;
        }
        false
    }

    /// Whether a site's file matches a location hint, and its line too.
    fn hinted(&self, payload: u32, hints: &Hints) -> (bool, bool) {
        if hints.files.is_empty() {
            return (false, false);
        }
        match self.files.get(&payload) {
            Some((f, line)) => {
                let hinted = hints.files.iter().any(|h| {
                    f.ends_with(h.as_str())
                        && (f.len() == h.len() || f.as_bytes()[f.len() - h.len() - 1] == b'/')
                });
                (hinted, hinted && hints.line == Some(*line))
            }
            None => (false, false),
        }
    }

    /// Records a frame for the hits from `hbase` on and follows the first
    /// hit's chain holes.
    #[allow(clippy::too_many_arguments)]
    fn push_frame<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        hbase: usize,
        s: usize,
        e: usize,
        depth: usize,
        out: &mut S,
    ) {
        out.frame(self, &sc.hits[hbase..], s, e, cx.hints);
        // Deeper layers push above this one's hits and spans and truncate
        // back, so the first hit's spans stay where they are.
        let first = sc.hits[hbase];
        let x = &self.anchored[first.entry as usize];
        let mut hole = first.holes as usize;
        for seg in self.segs(x) {
            if let Seg::Hole { chain, .. } = *seg {
                let (hs, he) = sc.spans[hole];
                if chain {
                    self.trace_span(cx, sc, hs, he, depth + 1, false, out);
                }
                hole += 1;
            }
        }
    }

    /// Appends the templates whose anchor occurs in `text[s..e]`, to try
    /// from `s`, sorted and without repeats; with `at_start`, only those
    /// whose head text `text[s..]` begins with. Templates that cannot end
    /// at `e` (their last literal is not there) or are longer than the span
    /// are left out.
    fn candidates(&self, sc: &mut Scratch, s: usize, e: usize, at_start: bool) {
        let Scratch {
            text, occ, cands, ..
        } = sc;
        let base = cands.len();
        let head = text.load_n(s, (e - s).min(8));
        let tail = text.load_before(e);
        let span = e - s;
        for o in occ.iter().filter(|o| o.start >= s && o.end <= e) {
            let mut i = o.anchor as usize;
            while let Some(x) = self.anchored.get(i) {
                if x.lit_len as usize <= span
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
    /// prefixes end, so that the last words of a message nobody wrote
    /// (`file already closed`) are not taken for a short template
    /// (`closed`) behind a prefix.
    fn floating(&self, sc: &mut Scratch, base: usize, s: usize, e: usize, outermost: bool) {
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
    /// that explain the most literal text.
    fn best(&self, text: &str, sc: &mut Scratch, base: usize, e: usize) {
        let hbase = sc.hits.len();
        let sbase = sc.spans.len();
        let mut best_rank = u32::MAX;
        for i in base..sc.cands.len() {
            let Cand {
                rank,
                template: ti,
                start,
                entry,
            } = sc.cands[i];
            if rank > best_rank {
                // Longest first: no later one can be better.
                break;
            }
            let start = start as usize;
            let x = &self.anchored[entry as usize];
            if sc.hits[hbase..].iter().any(|h| h.template == ti) {
                continue;
            }
            let mark = sc.spans.len();
            let mut budget = STEP_BUDGET;
            let mut v = Verify {
                set: self,
                t: &sc.text,
                text,
                end: e,
                spans: &mut sc.spans,
                budget: &mut budget,
            };
            if !v.run(self.segs(x), start) {
                sc.spans.truncate(mark);
                continue;
            }
            let spans = sc.spans.len() - mark;
            if rank < best_rank {
                // A better template: the hits so far and their spans go.
                sc.hits.truncate(hbase);
                sc.spans.drain(sbase..mark);
                best_rank = rank;
            }
            // For now the number of its holes' spans; made their start
            // below, once the hits are final.
            sc.hits.push(Hit {
                template: ti,
                entry,
                start,
                holes: spans as u32,
            });
        }
        // Spans were appended in hit order; give each hit its range.
        let mut at = sbase;
        for h in &mut sc.hits[hbase..] {
            let n = h.holes as usize;
            h.holes = at as u32;
            at += n;
        }
    }

    /// The first position from `from` where the literal `lit` occurs whole
    /// before `end`. Searches for its rarest byte, then compares.
    #[inline]
    fn next_literal(&self, t: &Padded, lit: Seg, from: usize, end: usize) -> Option<usize> {
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
    fn literal_at(&self, t: &Padded, lit: Seg, at: usize, end: usize) -> bool {
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
struct Verify<'a> {
    set: &'a TemplateSet,
    t: &'a Padded,
    text: &'a str,
    end: usize,
    spans: &'a mut Vec<(usize, usize)>,
    budget: &'a mut u32,
}

impl Verify<'_> {
    fn run(&mut self, segs: &[Seg], pos: usize) -> bool {
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
            None => {
                if holes::accepts(kind, &self.text[pos..end]) {
                    self.spans.push((pos, end));
                    true
                } else {
                    false
                }
            }
            Some(&next @ Seg::Lit { len, .. }) if segs.len() == 2 => {
                // The literal ends the template: it can only sit at the end.
                let len = len as usize;
                if end < pos + len {
                    return false;
                }
                let he = end - len;
                if !self.text.is_char_boundary(he)
                    || !self.set.literal_at(self.t, next, he, end)
                    || !holes::accepts(kind, &self.text[pos..he])
                {
                    return false;
                }
                self.spans.push((pos, he));
                true
            }
            Some(&next @ Seg::Lit { .. }) => {
                let bounded = holes::is_bounded(kind);
                let mut from = pos;
                while let Some(he) = self.set.next_literal(self.t, next, from, end) {
                    from = he + 1;
                    if !self.text.is_char_boundary(he) {
                        continue;
                    }
                    if holes::accepts(kind, &self.text[pos..he]) {
                        self.spans.push((pos, he));
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
            Some(Seg::Hole { .. }) => {
                // Adjacent holes (`%d%s`): try every split.
                let mut he = pos;
                loop {
                    if holes::accepts(kind, &self.text[pos..he]) {
                        self.spans.push((pos, he));
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
    }
}

/// The quoted argument of `Name('text')` or `Name("text")` spanning
/// `b[s..e]`.
fn repr_inner(b: &[u8], s: usize, e: usize) -> Option<(usize, usize)> {
    let t = &b[s..e];
    let name = t
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'.')
        .count();
    if name == 0 || t.len() < name + 4 || t[name] != b'(' || t[t.len() - 1] != b')' {
        return None;
    }
    let q = t[name + 1];
    ((q == b'\'' || q == b'"') && t[t.len() - 2] == q).then(|| (s + name + 2, e - 2))
}

/// What every layer of one trace shares.
struct Cx<'a> {
    text: &'a str,
    hints: &'a Hints,
}

#[cfg(test)]
mod tests;
