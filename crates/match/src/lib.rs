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
mod holes;
pub mod prefix;
pub mod sample;
pub mod stack;

use anchors::{Anchors, Occurrence};
use errdex_model::{HoleKind, Segment, Template};
use std::collections::HashMap;

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

#[derive(Debug)]
enum Seg {
    Lit(Box<str>),
    Hole { kind: HoleKind, chain: bool },
}

#[derive(Debug)]
struct Compiled {
    segs: Vec<Seg>,
    lit_len: usize,
    payloads: Vec<u32>,
}

/// Up to eight bytes a template's text must start with (none when it
/// starts with a hole). Checking them needs one small, dense table instead
/// of following three pointers into the template, and rejects most
/// anchored candidates before verification.
#[derive(Debug, Clone, Copy, Default)]
struct Head {
    bytes: u64,
    mask: u64,
}

impl Head {
    fn of(segs: &[Seg]) -> Head {
        match segs.first() {
            Some(Seg::Lit(l)) => {
                let n = l.len().min(8);
                Head {
                    bytes: word_at(l.as_bytes(), 0, n),
                    mask: if n == 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * n)) - 1
                    },
                }
            }
            _ => Head::default(),
        }
    }
}

/// Bytes `b[at..end]`, at most eight, little-endian, zero-padded.
fn word_at(b: &[u8], at: usize, end: usize) -> u64 {
    anchors::load_le(b, at, end.saturating_sub(at).min(8))
}

/// Collects templates; [`TemplateSetBuilder::build`] compiles them.
#[derive(Debug, Default)]
pub struct TemplateSetBuilder {
    templates: Vec<(Template, Vec<u32>)>,
    index: HashMap<Template, usize>,
    files: HashMap<u32, (Box<str>, u32)>,
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
        let compiled: Vec<Compiled> = self
            .templates
            .iter()
            .map(|(t, payloads)| Compiled {
                segs: t
                    .segments
                    .iter()
                    .map(|s| match s {
                        Segment::Lit(l) => Seg::Lit(l.as_str().into()),
                        Segment::Hole(h) => Seg::Hole {
                            kind: h.kind,
                            chain: h.chain,
                        },
                    })
                    .collect(),
                lit_len: t.literal_len(),
                payloads: payloads.clone(),
            })
            .collect();
        // Each anchor's templates with their heads, in one flat array: the
        // candidates of an occurrence are then one contiguous read.
        let heads: Vec<Head> = compiled.iter().map(|c| Head::of(&c.segs)).collect();
        let mut anchor_start = vec![0u32];
        let mut anchored = Vec::new();
        for list in anchors.take_templates() {
            anchored.extend(list.iter().map(|&ti| (ti, heads[ti as usize])));
            anchor_start.push(anchored.len() as u32);
        }
        TemplateSet {
            templates: compiled,
            anchor_start,
            anchored,
            anchors,
            files: self.files.into_iter().collect(),
        }
    }
}

/// Compiled templates; immutable and shared.
#[derive(Debug)]
pub struct TemplateSet {
    templates: Vec<Compiled>,
    /// Anchor → its range of `anchored`.
    anchor_start: Vec<u32>,
    /// Templates by anchor, with their heads.
    anchored: Vec<(u32, Head)>,
    anchors: Anchors,
    files: foldhash::HashMap<u32, (Box<str>, u32)>,
}

/// A template and where in the text to try it.
type Start = (u32, usize);

/// A verified match: the template and its holes' spans.
struct Hit {
    template: u32,
    holes: Vec<(usize, usize)>,
    start: usize,
}

impl TemplateSet {
    /// Number of distinct templates.
    pub fn len(&self) -> usize {
        self.templates.len()
    }

    /// Whether the set has no templates.
    pub fn is_empty(&self) -> bool {
        self.templates.is_empty()
    }

    /// Traces a whole text.
    pub fn trace(&self, text: &str, hints: &Hints) -> Trace {
        let mut out = Trace::default();
        // Anchors are found once for the whole text; every layer and glue
        // split then picks those inside its span.
        let occ = self.anchors.find(text);
        let cx = Cx {
            text,
            occ: &occ,
            hints,
        };
        self.trace_span(&cx, 0, text.len(), 0, true, &mut out);
        out
    }

    fn trace_span(
        &self,
        cx: &Cx<'_>,
        s: usize,
        e: usize,
        depth: usize,
        outermost: bool,
        out: &mut Trace,
    ) {
        if s >= e {
            return;
        }
        if depth > MAX_DEPTH {
            out.unmatched.push((s, e));
            return;
        }
        let anchored = self.candidates(cx, s, e, true);
        let mut best = self.best(cx.text, &anchored, e);
        if best.is_empty() && !outermost {
            // A wrapped error printed with its repr (Python's `{reason!r}`:
            // `NewConnectionError('…: Connection refused')`): its message
            // is the quoted text.
            if let Some((is, ie)) = repr_inner(cx.text.as_bytes(), s, e) {
                self.trace_span(cx, is, ie, depth + 1, false, out);
                return;
            }
        }
        if best.is_empty() && self.glue(cx, s, e, depth, out) {
            return;
        }
        if best.is_empty() {
            // The message may follow a prefix nobody stripped (outermost),
            // or text no template explains (a wrapped error's `{conn}: `
            // before its message): let templates that start with their
            // anchor start where it occurs.
            let anywhere = self.candidates(cx, s, e, false);
            let mut floating = self.floating(&anywhere, cx.text, s, e);
            if !outermost {
                // Inside a chain, only after a `: ` separator: an unknown
                // head is one layer, not any text.
                floating.retain(|&(_, p)| cx.text.as_bytes()[..p].ends_with(b": "));
            }
            best = self.best(cx.text, &floating, e);
        }
        if best.is_empty() {
            out.unmatched.push((s, e));
            return;
        }
        let start = best[0].start;
        if start > s {
            if outermost {
                out.head = Some((s, start));
            } else {
                out.unmatched.push((s, start));
            }
        }
        self.push_frame(cx, &best, start, e, depth, out);
    }

    /// Glue: `a: b` where `a` is a whole message of its own and `b` another
    /// layer (a `%s: %v` wrapper, or text concatenated by hand). Splits at
    /// the first `: ` whose left side a template explains completely.
    fn glue(&self, cx: &Cx<'_>, s: usize, e: usize, depth: usize, out: &mut Trace) -> bool {
        let mut from = s;
        while let Some(p) = memchr::memmem::find(&cx.text.as_bytes()[from..e], b": ") {
            let split = from + p;
            let left_anchored = self.candidates(cx, s, split, true);
            let left = self.best(cx.text, &left_anchored, split);
            if !left.is_empty() {
                self.push_frame(cx, &left, s, split, depth, out);
                self.trace_span(cx, split + 2, e, depth + 1, false, out);
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

    /// Records a frame for the best hits and follows the first hit's chain
    /// holes.
    fn push_frame(
        &self,
        cx: &Cx<'_>,
        best: &[Hit],
        s: usize,
        e: usize,
        depth: usize,
        out: &mut Trace,
    ) {
        let span = (e - s).max(1) as f32;
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut total = 0usize;
        for h in best {
            let t = &self.templates[h.template as usize];
            let score = (t.lit_len as f32 / span).min(1.0);
            total += t.payloads.len();
            for &p in &t.payloads {
                let (hinted, exact) = self.hinted(p, cx.hints);
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
        out.frames.push(Frame {
            start: s,
            end: e,
            candidates,
            total,
        });
        let first = &best[0];
        let t = &self.templates[first.template as usize];
        let mut hole = 0;
        for seg in &t.segs {
            if let Seg::Hole { chain, .. } = seg {
                let (hs, he) = first.holes[hole];
                if *chain {
                    self.trace_span(cx, hs, he, depth + 1, false, out);
                }
                hole += 1;
            }
        }
    }

    /// Templates whose anchor occurs in `text[s..e]`, to try from `s`;
    /// with `at_start`, only those whose head text `text[s..]` begins with.
    fn candidates(&self, cx: &Cx<'_>, s: usize, e: usize, at_start: bool) -> Vec<Start> {
        let mut anchored: Vec<Start> = Vec::new();
        let start = word_at(cx.text.as_bytes(), s, e);
        for o in cx.occ.iter().filter(|o| o.start >= s && o.end <= e) {
            let range = self.anchor_start[o.anchor as usize] as usize
                ..self.anchor_start[o.anchor as usize + 1] as usize;
            anchored.extend(
                self.anchored[range]
                    .iter()
                    .filter(|(_, h)| !at_start || (start ^ h.bytes) & h.mask == 0)
                    .map(|&(ti, _)| (ti, s)),
            );
        }
        if anchored.len() > 1 {
            anchored.sort_unstable();
            anchored.dedup();
        }
        anchored
    }

    /// For a message after an unknown prefix: a template that starts with
    /// literal text may start wherever that text occurs (a few places).
    fn floating(&self, anchored: &[Start], text: &str, s: usize, e: usize) -> Vec<Start> {
        let mut floating = Vec::new();
        let hay = &text.as_bytes()[s..e];
        for &(ti, _) in anchored {
            if let Some(Seg::Lit(first)) = self.templates[ti as usize].segs.first() {
                for p in find_all(hay, first.as_bytes()).take(4) {
                    if p > 0 {
                        floating.push((ti, s + p));
                    }
                }
            }
        }
        floating
    }

    /// The verified hits that explain the most literal text.
    fn best(&self, text: &str, cands: &[Start], e: usize) -> Vec<Hit> {
        let mut best: Vec<Hit> = Vec::new();
        let mut best_len = 0usize;
        // Most attempts fail: they share one scratch list of hole spans.
        let mut holes = Vec::new();
        for &(ti, start) in cands {
            let t = &self.templates[ti as usize];
            if t.lit_len < best_len {
                continue;
            }
            if best.iter().any(|h| h.template == ti) {
                continue;
            }
            holes.clear();
            let mut budget = STEP_BUDGET;
            if verify(&t.segs, text, start, e, &mut holes, &mut budget) {
                if t.lit_len > best_len {
                    best.clear();
                    best_len = t.lit_len;
                }
                best.push(Hit {
                    template: ti,
                    holes: holes.clone(),
                    start,
                });
            }
        }
        best
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
    occ: &'a [Occurrence],
    hints: &'a Hints,
}

/// Where `needle` occurs in `hay`. Texts are short: finding the first byte
/// and comparing beats building a substring searcher for every search.
fn find_all<'a>(hay: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let first = needle.first().copied().unwrap_or(0);
    memchr::memchr_iter(first, hay).filter(move |&i| hay[i..].starts_with(needle))
}

/// Whether `segs` match `text[pos..end]` exactly; hole spans are pushed in
/// order. Holes take the shortest text that lets the rest match.
fn verify(
    segs: &[Seg],
    text: &str,
    pos: usize,
    end: usize,
    holes: &mut Vec<(usize, usize)>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let b = text.as_bytes();
    match segs.first() {
        None => pos == end,
        Some(Seg::Lit(l)) => {
            b[pos..end].starts_with(l.as_bytes())
                && verify(&segs[1..], text, pos + l.len(), end, holes, budget)
        }
        Some(Seg::Hole { kind, .. }) => match segs.get(1) {
            None => {
                if holes::accepts(*kind, &text[pos..end]) {
                    holes.push((pos, end));
                    true
                } else {
                    false
                }
            }
            Some(Seg::Lit(next)) => {
                let bounded = holes::is_bounded(*kind);
                for occ in find_all(&b[pos..end], next.as_bytes()) {
                    let he = pos + occ;
                    if !text.is_char_boundary(he) {
                        continue;
                    }
                    if holes::accepts(*kind, &text[pos..he]) {
                        holes.push((pos, he));
                        if verify(&segs[1..], text, he, end, holes, budget) {
                            return true;
                        }
                        holes.pop();
                    } else if bounded && b[pos..he].contains(&b' ') {
                        break;
                    }
                    if *budget == 0 {
                        return false;
                    }
                }
                false
            }
            Some(Seg::Hole { .. }) => {
                // Adjacent holes (`%d%s`): try every split.
                let mut he = pos;
                loop {
                    if holes::accepts(*kind, &text[pos..he]) {
                        holes.push((pos, he));
                        if verify(&segs[1..], text, he, end, holes, budget) {
                            return true;
                        }
                        holes.pop();
                    }
                    if he >= end || *budget == 0 {
                        return false;
                    }
                    he += text[he..].chars().next().map_or(1, char::len_utf8);
                }
            }
        },
    }
}

#[cfg(test)]
mod tests;
