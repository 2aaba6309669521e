//! Which templates a text may match, found in one pass over the text.
//!
//! Each template is anchored on its most selective *key*: a whole word of
//! its literal text, or two adjacent whole words with what separates them
//! (`parse config`), whichever the fewest templates share (longest among
//! equals). A word is whole when a non-word byte of the same literal, or an
//! end of the template, bounds it on both sides: then the text that template
//! prints has exactly that word, and splitting the text into words and
//! looking each word (and each adjacent pair) up in a hash table finds
//! every template whose key occurs. That is a few lookups per word instead
//! of an automaton step per byte. The rare template with no whole word
//! (`invalid%d`) is anchored on a literal through a small Aho-Corasick
//! automaton, as before.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use errdex_model::{Segment, Template};
use std::cmp::Reverse;

/// Shortest key or literal worth anchoring on.
pub(crate) const MIN_ANCHOR: usize = 3;

/// Where an anchor occurs in a text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Occurrence {
    pub anchor: u32,
    pub start: usize,
    pub end: usize,
}

/// Word bytes: ASCII letters, digits and `_`. Everything else, UTF-8
/// included, separates words, the same way in templates and in texts.
const WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    t
};

/// Hash of a key's bytes. Two keys with one hash share an anchor, and a
/// word of a text that only hashes like a key (all 64 bits at build time,
/// the upper 32 at lookup) adds a candidate that verification rejects:
/// collisions cost time, never answers.
fn key_hash(b: &[u8], s: usize, e: usize) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = (e - s) as u64;
    let mut p = s;
    while p + 8 <= e {
        h = (h.rotate_left(5) ^ load_le(b, p, 8)).wrapping_mul(K);
        p += 8;
    }
    if p < e {
        h = (h.rotate_left(5) ^ load_le(b, p, e - p)).wrapping_mul(K);
    }
    // Never 0, which marks an empty slot.
    (h ^ (h >> 31)) | 1
}

/// Bytes `b[at..at + n]` (`n` at most eight) as a little-endian number,
/// zero-padded. Loaded straight from `b`, wider and masked where `b` allows:
/// copying them into a buffer first and loading that stalls the load until
/// the copy's stores drain, which was a quarter of finding anchors.
#[inline]
pub(crate) fn load_le(b: &[u8], at: usize, n: usize) -> u64 {
    debug_assert!(n <= 8 && at + n <= b.len());
    let end = at + n;
    if at + 8 <= b.len() {
        let w = u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"));
        if n == 8 {
            w
        } else {
            w & ((1u64 << (8 * n)) - 1)
        }
    } else if end >= 8 {
        let w = u64::from_le_bytes(b[end - 8..end].try_into().expect("eight bytes"));
        if n == 0 {
            0
        } else {
            w >> (8 * (8 - n))
        }
    } else {
        b[at..end]
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 8) | u64::from(c))
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
    filter: Vec<u64>,
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
            filter: vec![0; FILTER_BITS / 64],
            slots: vec![(0, 0); size],
            mask: size - 1,
        };
        for &(h, anchor) in entries {
            let bit = Self::filter_bit(h);
            t.filter[bit / 64] |= 1 << (bit % 64);
            let mut i = h as usize & t.mask;
            while t.slots[i].0 != 0 {
                i = (i + 1) & t.mask;
            }
            t.slots[i] = (Self::check(h), anchor);
        }
        t
    }

    #[inline]
    fn get(&self, h: u64) -> Option<u32> {
        let bit = Self::filter_bit(h);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
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

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn test_bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

/// Spans of the words of `b`, in order: how templates and texts are split
/// alike.
fn words(b: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut p = 0;
    std::iter::from_fn(move || {
        while p < b.len() && !WORD[b[p] as usize] {
            p += 1;
        }
        if p == b.len() {
            return None;
        }
        let s = p;
        while p < b.len() && WORD[b[p] as usize] {
            p += 1;
        }
        Some((s, p))
    })
}

/// The anchor index of a template set.
#[derive(Debug)]
pub(crate) struct Anchors {
    /// Key (a word, or two words and their separator) → anchor.
    keys: KeyTable,
    /// Longest key, so longer spans are not looked up.
    longest_key: usize,
    /// Bit filter of the first words of pair keys: a word pair is hashed
    /// and looked up only when its first word may start one, which most
    /// words of a text cannot.
    pair_heads: Vec<u64>,
    /// Literal anchors of templates without whole words.
    literals: Option<AhoCorasick>,
    /// Automaton pattern → anchor.
    literal_anchor: Vec<u32>,
    /// Anchor → templates anchored on it.
    templates: Vec<Vec<u32>>,
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
        let words: Vec<(usize, usize)> = words(b)
            .filter(|&(s, e)| (s > 0 || i == 0) && (e < b.len() || i == last))
            .collect();
        for (k, &(s, e)) in words.iter().enumerate() {
            out.push(&l[s..e]);
            // Adjacent whole words: nothing but separators between them.
            if let Some(&(s2, e2)) = words.get(k + 1) {
                if b[e..s2].iter().all(|&c| !WORD[c as usize]) {
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
            pair_heads: vec![0; PAIR_HEAD_BITS / 64],
            literals: None,
            literal_anchor: Vec::new(),
            templates: Vec::new(),
        };
        let mut literal_ids: foldhash::HashMap<&str, u32> = Default::default();
        let mut literal_texts: Vec<&str> = Vec::new();
        for (ti, ((t, selective), ks)) in templates.iter().zip(&template_keys).enumerate() {
            if !selective {
                continue;
            }
            let key = ks.iter().min_by_key(|k| (key_freq[*k], Reverse(k.len())));
            let anchor = if let Some(k) = key {
                let next = a.templates.len() as u32;
                let id = *key_ids
                    .entry(key_hash(k.as_bytes(), 0, k.len()))
                    .or_insert(next);
                a.longest_key = a.longest_key.max(k.len());
                let mut kw = words(k.as_bytes());
                if let (Some((s, e)), Some(_)) = (kw.next(), kw.next()) {
                    set_bit(
                        &mut a.pair_heads,
                        pair_head_bit(key_hash(k.as_bytes(), s, e)),
                    );
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
                    a.literal_anchor.push(next);
                    next
                })
            };
            if anchor as usize == a.templates.len() {
                a.templates.push(Vec::new());
            }
            a.templates[anchor as usize].push(ti as u32);
        }
        a.keys = KeyTable::new(&key_ids.into_iter().collect::<Vec<_>>());
        if !literal_texts.is_empty() {
            a.literals = Some(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::Standard)
                    .build(&literal_texts)
                    .expect("anchor literals build an automaton"),
            );
        }
        a
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

    /// Every anchor occurring in `text`.
    pub(crate) fn find(&self, text: &str) -> Vec<Occurrence> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        // Words and pairs are hashed first and looked up after, in
        // batches: the lookups are independent memory reads, and issued
        // together they wait for memory once instead of once each.
        const BATCH: usize = 64;
        let mut batch = [(0u64, 0usize, 0usize); BATCH];
        let mut n = 0;
        let flush = |batch: &[(u64, usize, usize)], out: &mut Vec<Occurrence>| {
            for &(h, start, end) in batch {
                if let Some(anchor) = self.keys.get(h) {
                    out.push(Occurrence { anchor, start, end });
                }
            }
        };
        // The previous word's start, when it may head a pair key.
        let mut prev: Option<usize> = None;
        for (s, p) in words(b) {
            let h = key_hash(b, s, p);
            if (MIN_ANCHOR..=self.longest_key).contains(&(p - s)) {
                batch[n] = (h, s, p);
                n += 1;
            }
            if let Some(ps) = prev {
                if p - ps <= self.longest_key {
                    batch[n] = (key_hash(b, ps, p), ps, p);
                    n += 1;
                }
            }
            prev = test_bit(&self.pair_heads, pair_head_bit(h)).then_some(s);
            if n >= BATCH - 1 {
                flush(&batch[..n], &mut out);
                n = 0;
            }
        }
        flush(&batch[..n], &mut out);
        if let Some(ac) = &self.literals {
            for m in ac.find_overlapping_iter(text) {
                out.push(Occurrence {
                    anchor: self.literal_anchor[m.pattern().as_usize()],
                    start: m.start(),
                    end: m.end(),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::{Hole, HoleKind};

    fn template(parts: &[&str]) -> Template {
        let mut t = Template::default();
        for p in parts {
            if let Some(verb) = p.strip_prefix('%') {
                t.push_hole(Hole {
                    kind: HoleKind::Any,
                    verb: format!("%{verb}"),
                    arg: None,
                    chain: false,
                });
            } else {
                t.push_lit(p);
            }
        }
        t
    }

    #[test]
    fn load_le_reads_any_span_like_a_padded_copy() {
        let b: Vec<u8> = (1..=20).collect();
        for len in 0..=b.len() {
            let b = &b[..len];
            for at in 0..=len {
                for n in 0..=(len - at).min(8) {
                    let mut buf = [0u8; 8];
                    buf[..n].copy_from_slice(&b[at..at + n]);
                    assert_eq!(load_le(b, at, n), u64::from_le_bytes(buf), "{len} {at} {n}");
                }
            }
        }
    }

    #[test]
    fn keys_are_whole_words_and_adjacent_pairs() {
        let t = template(&["open ", "%v", ": permission denied (code", "%d", ")"]);
        assert_eq!(
            keys(&t),
            vec!["denied", "open", "permission", "permission denied"]
        );
        // "code" runs on into the number; ")" has no word.
        let t = template(&["invalid", "%d"]);
        assert!(keys(&t).is_empty());
    }

    #[test]
    fn rarest_key_anchors_and_is_found_in_text() {
        let a = template(&["failed to parse config: ", "%v"]);
        let b = template(&["failed to dial: ", "%v"]);
        let c = template(&["invalid", "%d"]);
        let anchors = Anchors::build([(&a, true), (&b, true), (&c, true)].into_iter());
        let found = |text: &str| -> Vec<u32> {
            let mut ts: Vec<u32> = anchors
                .find(text)
                .iter()
                .flat_map(|o| anchors.templates(o.anchor).to_vec())
                .collect();
            ts.sort_unstable();
            ts.dedup();
            ts
        };
        assert_eq!(found("failed to parse config: EOF"), vec![0]);
        assert_eq!(found("E1 x.go:3] failed to dial: refused"), vec![1]);
        assert_eq!(found("invalid42"), vec![2]);
        assert!(found("nothing here").is_empty());
    }
}
