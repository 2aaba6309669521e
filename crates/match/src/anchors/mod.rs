//! Which templates a text may match, found in one pass over the text.
//!
//! Each template is anchored on its most selective *key*: a whole word of
//! its literal text, or two adjacent whole words with what separates them
//! (`parse config`), whichever the fewest templates share (longest among
//! equals; a pair is hashed by its words alone, see [`pair_hash`]). A word
//! is whole when a non-word byte of the same literal, or an end of the
//! template, bounds it on both sides: then the text that template
//! prints has exactly that word, and splitting the text into words and
//! looking each word (and each adjacent pair) up in a hash table finds
//! every template whose key occurs. That is a few lookups per word instead
//! of an automaton step per byte. The rare template with no whole word
//! (`invalid%d`) is anchored on a literal through a small Aho-Corasick
//! automaton, as before.

use crate::bytes::{for_each_word, is_word, prefetch, Padded};
use crate::codec::{Decoder, Encoder};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use errdex_model::{Segment, Template};
use std::cmp::Reverse;

/// Shortest key or literal worth anchoring on.
pub(crate) const MIN_ANCHOR: usize = 3;

/// Keys looked up in the table together.
const KEY_BATCH: usize = 32;

/// Working memory of [`Anchors::find`], kept by the caller so that it is
/// not cleared for every text.
pub(crate) type KeyBatch = [Key; KEY_BATCH];

/// A word or word pair of a text, hashed as a key.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Key {
    hash: u64,
    start: u32,
    end: u32,
}

/// Where an anchor occurs in a text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Occurrence {
    pub anchor: u32,
    pub start: usize,
    pub end: usize,
}

/// Multiplier of the span hash (an odd 64-bit constant).
const K: u64 = 0x517c_c1b7_2722_0a95;

/// Hash of the bytes `[s, e)` of a text, eight at a time. Not finished:
/// see [`finish`].
#[inline]
fn span_hash(t: &Padded, s: usize, e: usize) -> u64 {
    let mut h = (e - s) as u64;
    let mut p = s;
    while p + 8 < e {
        h = (h.rotate_left(5) ^ t.load(p)).wrapping_mul(K);
        p += 8;
    }
    (h.rotate_left(5) ^ t.load_n(p, e - p)).wrapping_mul(K)
}

/// A key's hash from its span hash. Never 0, which marks an empty slot.
#[inline]
fn finish(h: u64) -> u64 {
    (h ^ (h >> 31)) | 1
}

/// A pair key's hash from its words' key hashes, which are reused, never
/// recomputed. What separates the words is left out: pairs that differ
/// only there (`parse config`, `parse: config`) share an anchor and
/// verification tells their templates apart, and a text's pairs cost no
/// hashing of their separators.
#[inline]
fn pair_hash(first: u64, second: u64) -> u64 {
    finish((first.rotate_left(17).wrapping_mul(K) ^ second).wrapping_mul(K))
}

/// Hash of a key: one word, or two words (not what separates them). Two keys
/// with one hash share an anchor, and a word of a text that only hashes
/// like a key (all 64 bits at build time, the upper 32 at lookup) adds a
/// candidate that verification rejects: collisions cost time, never
/// answers.
fn key_hash(key: &str) -> u64 {
    thread_local! {
        static TEXT: std::cell::RefCell<Padded> = Default::default();
    }
    TEXT.with_borrow_mut(|t| key_hash_in(t, key))
}

/// [`key_hash`] with the key copied into `t`.
fn key_hash_in(t: &mut Padded, key: &str) -> u64 {
    t.set(key.as_bytes());
    let t = &*t;
    let words = spans(key.as_bytes());
    match words.as_slice() {
        [(s, e)] => finish(span_hash(t, *s, *e)),
        [(s1, e1), (s2, e2)] => pair_hash(
            finish(span_hash(t, *s1, *e1)),
            finish(span_hash(t, *s2, *e2)),
        ),
        _ => unreachable!("a key is one word or two: {key:?}"),
    }
}

/// Bits of the filter in front of the key table: 16 KB, small enough to
/// stay in the first-level cache while the table (larger) does not.
const FILTER_BITS: usize = 1 << 17;

/// Key hash → anchor, open addressing. Most words of a text are no key;
/// a bit filter answers those without touching the table, and a table
/// lookup compares 32 bits of hash, never bytes.
#[derive(Debug, Default)]
struct KeyTable {
    filter: Bits<{ FILTER_BITS / 64 }>,
    /// (upper hash bits, never 0; anchor).
    slots: Vec<(u32, u32)>,
    mask: usize,
}

impl KeyTable {
    fn filter_bit(h: u64) -> usize {
        (h >> 17) as usize & (FILTER_BITS - 1)
    }

    fn check(h: u64) -> u32 {
        (h >> 32) as u32 | 1
    }

    fn new(entries: &[(u64, u32)]) -> KeyTable {
        let size = (entries.len() * 2).next_power_of_two().max(16);
        let mut t = KeyTable {
            filter: Bits::default(),
            slots: vec![(0, 0); size],
            mask: size - 1,
        };
        for &(h, anchor) in entries {
            let bit = Self::filter_bit(h);
            t.filter.set(bit);
            let mut i = h as usize & t.mask;
            while t.slots[i].0 != 0 {
                i = (i + 1) & t.mask;
            }
            t.slots[i] = (Self::check(h), anchor);
        }
        t
    }

    /// Whether the bit filter lets `h` through: false means no key has
    /// this hash.
    #[inline]
    fn may_have(&self, h: u64) -> bool {
        let bit = Self::filter_bit(h);
        self.filter.test(bit)
    }

    /// The anchor of `h`, for a hash the filter let through.
    #[inline]
    fn get_filtered(&self, h: u64) -> Option<u32> {
        let check = Self::check(h);
        let mut i = h as usize & self.mask;
        loop {
            let (c, anchor) = self.slots[i];
            if c == check {
                return Some(anchor);
            }
            if c == 0 {
                return None;
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// Bits of the pair-head filter (4 KB).
const PAIR_HEAD_BITS: usize = 1 << 15;

fn pair_head_bit(h: u64) -> usize {
    (h >> 40) as usize & (PAIR_HEAD_BITS - 1)
}

/// A bit set of a fixed size, `WORDS` 64-bit words: a bit's index is
/// taken modulo the size, so testing one needs no bounds check.
#[derive(Debug)]
struct Bits<const WORDS: usize>(Box<[u64; WORDS]>);

impl<const WORDS: usize> Default for Bits<WORDS> {
    fn default() -> Self {
        Bits(Box::new([0; WORDS]))
    }
}

impl<const WORDS: usize> Bits<WORDS> {
    fn set(&mut self, i: usize) {
        self.0[i / 64 % WORDS] |= 1 << (i % 64);
    }

    #[inline]
    fn test(&self, i: usize) -> bool {
        self.0[i / 64 % WORDS] & (1 << (i % 64)) != 0
    }

    fn words(&self) -> &[u64] {
        &self.0[..]
    }

    /// The set whose words are `words`; `None` if there are not `WORDS`.
    fn from_words(words: Vec<u64>) -> Option<Self> {
        words.into_boxed_slice().try_into().ok().map(Bits)
    }
}

/// Spans of the words of `b`, in order: how templates are split at build
/// time, as [`Words`] splits texts.
fn spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut p = 0;
    while p < b.len() {
        if !is_word(b[p]) {
            p += 1;
            continue;
        }
        let s = p;
        while p < b.len() && is_word(b[p]) {
            p += 1;
        }
        out.push((s, p));
    }
    out
}

/// The anchor index of a template set.
#[derive(Debug, Default)]
pub(crate) struct Anchors {
    /// Key (a word, or two words and their separator) → anchor.
    keys: KeyTable,
    /// Longest key, so longer spans are not looked up.
    longest_key: usize,
    /// Bit filter of the first words of pair keys: a word pair is hashed
    /// and looked up only when its first word may start one, which most
    /// words of a text cannot.
    pair_heads: Bits<{ PAIR_HEAD_BITS / 64 }>,
    /// Literal anchors of templates without whole words, holding a word
    /// byte (`invalid%d`): searched for in the whole text.
    literals: LiteralAnchors,
    /// Literal anchors of marks and blanks only (an access log's `" - - ["`):
    /// such a literal lies inside one run of non-word bytes of the text,
    /// so only the runs between words long enough to hold one are
    /// searched, which most lines have few of.
    marks: LiteralAnchors,
    /// Anchor → templates anchored on it.
    templates: Vec<Vec<u32>>,
}

/// Anchors on literals, found by an automaton.
#[derive(Debug, Default)]
struct LiteralAnchors {
    /// The automaton over `texts`, if there are any.
    automaton: Option<AhoCorasick>,
    /// The automaton's patterns, kept to build it again from a cache.
    texts: Vec<String>,
    /// Automaton pattern → anchor.
    anchor: Vec<u32>,
    /// The shortest pattern's length.
    shortest: usize,
}

impl LiteralAnchors {
    fn new(texts: Vec<String>, anchor: Vec<u32>) -> Option<LiteralAnchors> {
        if texts.len() != anchor.len() {
            return None;
        }
        let automaton = (!texts.is_empty()).then(|| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::Standard)
                .build(&texts)
                .expect("anchor literals build an automaton")
        });
        let shortest = texts.iter().map(String::len).min().unwrap_or(0).max(1);
        Some(LiteralAnchors {
            automaton,
            texts,
            anchor,
            shortest,
        })
    }

    fn encode(&self, e: &mut Encoder) {
        e.usize(self.texts.len());
        for l in &self.texts {
            e.str(l);
        }
        e.u32s(&self.anchor);
    }

    fn decode(d: &mut Decoder<'_>) -> Option<LiteralAnchors> {
        let texts = d.list(8, Decoder::string)?;
        LiteralAnchors::new(texts, d.u32s()?)
    }

    /// Appends each occurrence in `hay`, which starts at `at` in the text.
    #[inline]
    fn find(&self, hay: &[u8], at: usize, out: &mut Vec<Occurrence>) {
        let Some(ac) = &self.automaton else { return };
        for m in ac.find_overlapping_iter(hay) {
            out.push(Occurrence {
                anchor: self.anchor[m.pattern().as_usize()],
                start: at + m.start(),
                end: at + m.end(),
            });
        }
    }
}

/// Whether a literal anchor is marks and blanks only (see
/// [`Anchors::marks`]).
fn is_marks(l: &str) -> bool {
    l.bytes().all(|c| c.is_ascii() && !is_word(c))
}

/// A key of a template: byte span within one literal.
fn keys(t: &Template) -> Vec<&str> {
    let lits: Vec<(usize, &str)> = t
        .segments
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Segment::Lit(l) => Some((i, l.as_str())),
            Segment::Hole(_) => None,
        })
        .collect();
    let last = t.segments.len().saturating_sub(1);
    let mut out = Vec::new();
    for (i, l) in lits {
        let b = l.as_bytes();
        // A word touching a hole may run on into the hole's text.
        let words: Vec<(usize, usize)> = spans(b)
            .into_iter()
            .filter(|&(s, e)| (s > 0 || i == 0) && (e < b.len() || i == last))
            .collect();
        for (k, &(s, e)) in words.iter().enumerate() {
            out.push(&l[s..e]);
            // Adjacent whole words: nothing but separators between them.
            if let Some(&(s2, e2)) = words.get(k + 1) {
                if b[e..s2].iter().all(|&c| !is_word(c)) {
                    out.push(&l[s..e2]);
                }
            }
        }
    }
    out.retain(|k| k.len() >= MIN_ANCHOR);
    out.sort_unstable();
    out.dedup();
    out
}

impl Anchors {
    /// Chooses an anchor for every template that may match alone
    /// (`selective`); the others get none and only ever serve as glue.
    pub(crate) fn build<'a>(templates: impl Iterator<Item = (&'a Template, bool)>) -> Anchors {
        let templates: Vec<(&Template, bool)> = templates.collect();
        let template_keys: Vec<Vec<&str>> = templates.iter().map(|(t, _)| keys(t)).collect();
        let mut key_freq: foldhash::HashMap<&str, u32> = Default::default();
        for ks in &template_keys {
            for k in ks {
                *key_freq.entry(k).or_default() += 1;
            }
        }
        let mut lit_freq: foldhash::HashMap<&str, u32> = Default::default();
        for (t, _) in &templates {
            for s in &t.segments {
                if let Segment::Lit(l) = s {
                    if l.len() >= MIN_ANCHOR {
                        *lit_freq.entry(l.as_str()).or_default() += 1;
                    }
                }
            }
        }

        let mut key_ids: foldhash::HashMap<u64, u32> = Default::default();
        let mut a = Anchors {
            keys: KeyTable::default(),
            longest_key: 0,
            pair_heads: Bits::default(),
            literals: LiteralAnchors::default(),
            marks: LiteralAnchors::default(),
            templates: Vec::new(),
        };
        let mut literal_ids: foldhash::HashMap<&str, u32> = Default::default();
        let mut literal_texts: Vec<&str> = Vec::new();
        let mut literal_anchor: Vec<u32> = Vec::new();
        for (ti, ((t, selective), ks)) in templates.iter().zip(&template_keys).enumerate() {
            if !selective {
                continue;
            }
            let key = ks.iter().min_by_key(|k| (key_freq[*k], Reverse(k.len())));
            let anchor = if let Some(k) = key {
                let next = a.templates.len() as u32;
                let id = *key_ids.entry(key_hash(k)).or_insert(next);
                a.longest_key = a.longest_key.max(k.len());
                if let [(s, e), _] = spans(k.as_bytes()).as_slice() {
                    a.pair_heads.set(pair_head_bit(key_hash(&k[*s..*e])));
                }
                id
            } else {
                let literal = t
                    .segments
                    .iter()
                    .filter_map(|s| match s {
                        Segment::Lit(l) if l.len() >= MIN_ANCHOR => Some(l.as_str()),
                        _ => None,
                    })
                    .min_by_key(|l| (lit_freq[l], Reverse(l.len())));
                let Some(l) = literal else { continue };
                let next = a.templates.len() as u32;
                *literal_ids.entry(l).or_insert_with(|| {
                    literal_texts.push(l);
                    literal_anchor.push(next);
                    next
                })
            };
            if anchor as usize == a.templates.len() {
                a.templates.push(Vec::new());
            }
            a.templates[anchor as usize].push(ti as u32);
        }
        a.keys = KeyTable::new(&key_ids.into_iter().collect::<Vec<_>>());
        let (mut words, mut marks) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
        for (l, anchor) in literal_texts.into_iter().zip(literal_anchor) {
            let to = if is_marks(l) { &mut marks } else { &mut words };
            to.0.push(l.to_string());
            to.1.push(anchor);
        }
        a.literals = LiteralAnchors::new(words.0, words.1).expect("one anchor a literal");
        a.marks = LiteralAnchors::new(marks.0, marks.1).expect("one anchor a literal");
        a
    }

    /// Writes the index (its templates already taken) for [`Anchors::decode`].
    pub(crate) fn encode(&self, e: &mut Encoder) {
        e.u64s(self.keys.filter.words());
        e.usize(self.keys.slots.len());
        for &(check, anchor) in &self.keys.slots {
            e.u32(check);
            e.u32(anchor);
        }
        e.usize(self.longest_key);
        e.u64s(self.pair_heads.words());
        self.literals.encode(e);
        self.marks.encode(e);
    }

    /// Reads what [`Anchors::encode`] wrote; `None` if it is not that.
    pub(crate) fn decode(d: &mut Decoder<'_>) -> Option<Anchors> {
        // Bit sets of another size than this build's read as `None`.
        let filter = Bits::from_words(d.u64s()?)?;
        let slots = d.list(8, |d| Some((d.u32()?, d.u32()?)))?;
        // Lookups mask their slot index: the size must be what
        // `KeyTable::new` makes.
        if !slots.len().is_power_of_two() {
            return None;
        }
        let longest_key = d.usize()?;
        let pair_heads = Bits::from_words(d.u64s()?)?;
        let literals = LiteralAnchors::decode(d)?;
        let marks = LiteralAnchors::decode(d)?;
        Some(Anchors {
            keys: KeyTable {
                mask: slots.len() - 1,
                filter,
                slots,
            },
            longest_key,
            pair_heads,
            literals,
            marks,
            templates: Vec::new(),
        })
    }

    /// The highest anchor number the index can report, plus one.
    pub(crate) fn anchor_bound(&self) -> u32 {
        let keys = self
            .keys
            .slots
            .iter()
            .filter(|&&(check, _)| check != 0)
            .map(|&(_, a)| a + 1);
        let literals = self.literals.anchor.iter().chain(&self.marks.anchor);
        keys.chain(literals.map(|&a| a + 1)).max().unwrap_or(0)
    }

    /// Templates anchored on `anchor`.
    #[cfg(test)]
    fn templates(&self, anchor: u32) -> &[u32] {
        &self.templates[anchor as usize]
    }

    /// Hands over the templates of each anchor, by anchor: the set keeps
    /// them in its own layout, so the index keeps no copy.
    pub(crate) fn take_templates(&mut self) -> Vec<Vec<u32>> {
        std::mem::take(&mut self.templates)
    }

    /// Renumbers every anchor `a` as `to(a)`: the set numbers an anchor by
    /// where its templates start in its own table, so that an occurrence
    /// leads there without a lookup in between.
    pub(crate) fn renumber(&mut self, to: impl Fn(u32) -> u32) {
        for slot in &mut self.keys.slots {
            if slot.0 != 0 {
                slot.1 = to(slot.1);
            }
        }
        for a in self
            .literals
            .anchor
            .iter_mut()
            .chain(&mut self.marks.anchor)
        {
            *a = to(*a);
        }
    }

    /// Every anchor occurring in the text `t`, whose word masks are
    /// `masks`, appended to `out`; for each, the line of `warm[anchor]`
    /// (what the caller reads next for it) is asked for at once.
    ///
    /// Each word and adjacent pair is hashed and tested against the bit
    /// filter as it comes, and kept (without a branch) when the filter
    /// lets it through; the table is then asked for the kept ones a batch
    /// at a time, so that its memory is waited for once per batch rather
    /// than once per word.
    pub(crate) fn find<W>(
        &self,
        t: &Padded,
        masks: &[u64],
        kept: &mut KeyBatch,
        out: &mut Vec<Occurrence>,
        warm: &[W],
    ) {
        const BATCH: usize = KEY_BATCH;
        let mut n = 0;
        let lookup = |kept: &[Key], out: &mut Vec<Occurrence>| {
            for k in kept {
                if let Some(anchor) = self.keys.get_filtered(k.hash) {
                    if let Some(w) = warm.get(anchor as usize) {
                        prefetch(w);
                    }
                    out.push(Occurrence {
                        anchor,
                        start: k.start as usize,
                        end: k.end as usize,
                    });
                }
            }
        };
        // The previous word (start, key hash) when it may head a pair key,
        // which most words of a text cannot.
        let mut prev: Option<(usize, u64)> = None;
        for_each_word(masks, |s, e| {
            let h = finish(span_hash(t, s, e));
            if (MIN_ANCHOR..=self.longest_key).contains(&(e - s)) {
                kept[n] = Key {
                    hash: h,
                    start: s as u32,
                    end: e as u32,
                };
                n += usize::from(self.keys.may_have(h));
            }
            if let Some((ps, ph)) = prev {
                if e - ps <= self.longest_key {
                    let pair = pair_hash(ph, h);
                    kept[n] = Key {
                        hash: pair,
                        start: ps as u32,
                        end: e as u32,
                    };
                    n += usize::from(self.keys.may_have(pair));
                }
            }
            prev = self.pair_heads.test(pair_head_bit(h)).then_some((s, h));
            // A word adds at most two keys.
            if n > BATCH - 2 {
                lookup(&kept[..n], out);
                n = 0;
            }
        });
        lookup(&kept[..n], out);
    }

    /// Whether some template is anchored on a literal ([`Anchors::find_rare`]).
    pub(crate) fn has_rare(&self) -> bool {
        self.literals.automaton.is_some() || self.marks.automaton.is_some()
    }

    /// Every literal anchor occurring in the text `t` (whose word masks
    /// are `masks`), appended to `out`: those of templates without a
    /// whole word, searched for only where tracing with the word anchors
    /// left text unexplained, since an automaton over every line costs
    /// more than all the word lookups.
    pub(crate) fn find_rare(&self, t: &Padded, masks: &[u64], out: &mut Vec<Occurrence>) {
        let text = t.bytes();
        if self.marks.automaton.is_some() {
            // A literal of marks lies in one run of non-word bytes: the
            // runs between words, and after the last.
            let mut gap = 0;
            for_each_word(masks, |s, e| {
                if s - gap >= self.marks.shortest {
                    self.marks.find(&text[gap..s], gap, out);
                }
                gap = e;
            });
            if text.len().saturating_sub(gap) >= self.marks.shortest {
                self.marks.find(&text[gap..], gap, out);
            }
        }
        self.literals.find(text, 0, out);
    }
}

#[cfg(test)]
mod tests;
