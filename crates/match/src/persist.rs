//! A compiled [`TemplateSet`] written out and read back, so that a caller
//! can keep it between runs instead of compiling the atlas again.
//!
//! Reading checks every index the set follows while tracing (segment,
//! literal, word, payload and anchor ranges): bytes that decode but do not
//! describe a set read as `None`, so tracing a set read back can never
//! index out of bounds.

use crate::anchors::Anchors;
use crate::codec::{Decoder, Encoder};
use crate::set::{Entry, Link, Seg, TemplateSet};
use errdex_model::HoleKind;

/// Every hole kind, by the number it is written as.
const HOLE_KINDS: [HoleKind; 12] = [
    HoleKind::Any,
    HoleKind::Int,
    HoleKind::Hex,
    HoleKind::Octal,
    HoleKind::Binary,
    HoleKind::Float,
    HoleKind::Bool,
    HoleKind::Quoted,
    HoleKind::Char,
    HoleKind::Unicode,
    HoleKind::Pointer,
    HoleKind::Type,
];

/// A kind's number: its place in [`HOLE_KINDS`]. Exhaustive, so a kind
/// added to the model does not build until it has one.
fn hole_kind_number(k: HoleKind) -> u8 {
    match k {
        HoleKind::Any => 0,
        HoleKind::Int => 1,
        HoleKind::Hex => 2,
        HoleKind::Octal => 3,
        HoleKind::Binary => 4,
        HoleKind::Float => 5,
        HoleKind::Bool => 6,
        HoleKind::Quoted => 7,
        HoleKind::Char => 8,
        HoleKind::Unicode => 9,
        HoleKind::Pointer => 10,
        HoleKind::Type => 11,
    }
}

impl TemplateSet {
    /// Writes the set for [`TemplateSet::decode`].
    pub fn encode(&self, e: &mut Encoder) {
        e.u32(self.templates);
        e.usize(self.segs.len());
        for s in &self.segs {
            match *s {
                Seg::Lit {
                    len,
                    words,
                    probe,
                    byte,
                    first,
                } => {
                    e.u8(0);
                    e.u32(len);
                    e.u32(words);
                    e.u32(probe);
                    e.u8(byte);
                    e.u64(first);
                }
                Seg::Hole {
                    kind,
                    chain,
                    system,
                } => {
                    e.u8(1);
                    e.u8(hole_kind_number(kind));
                    e.u8(u8::from(chain) | (u8::from(system) << 1));
                }
            }
        }
        e.u64s(&self.words);
        e.u32s(&self.payloads);
        e.usize(self.anchored.len());
        for a in &self.anchored {
            e.u32(a.template);
            e.u32(a.lit_len);
            e.u32(a.segs.0);
            e.u32(a.segs.1);
            e.u32(a.payloads.0);
            e.u32(a.payloads.1);
            e.u32(a.words);
            e.u8(u8::from(a.last));
            e.u64(a.head);
            e.u64(a.head_mask);
            e.u64(a.tail);
            e.u64(a.tail_mask);
        }
        self.anchors.encode(e);
        // In payload order, so the same set always writes the same bytes.
        let mut files: Vec<_> = self.files.iter().collect();
        files.sort_unstable_by_key(|(p, _)| **p);
        e.usize(files.len());
        for (payload, (file, line)) in files {
            e.u32(*payload);
            e.str(file);
            e.u32(*line);
        }
        e.usize(self.links.len());
        for l in &self.links {
            e.u32(l.template);
            e.u32(l.hole);
            e.u32(l.entry);
        }
        // Keys are recomputed from the entries' heads.
        let mut short: Vec<u32> = self.short_pieces.values().flatten().copied().collect();
        short.sort_unstable();
        e.u32s(&short);
    }

    /// Reads a set [`TemplateSet::encode`] wrote; `None` for anything else.
    pub fn decode(d: &mut Decoder<'_>) -> Option<TemplateSet> {
        let templates = d.u32()?;
        let segs = d.list(3, |d| {
            Some(match d.u8()? {
                0 => Seg::Lit {
                    len: d.u32()?,
                    words: d.u32()?,
                    probe: d.u32()?,
                    byte: d.u8()?,
                    first: d.u64()?,
                },
                1 => {
                    let kind = *HOLE_KINDS.get(usize::from(d.u8()?))?;
                    let flags = d.u8()?;
                    if flags > 3 {
                        return None;
                    }
                    Seg::Hole {
                        kind,
                        chain: flags & 1 != 0,
                        system: flags & 2 != 0,
                    }
                }
                _ => return None,
            })
        })?;
        let words = d.u64s()?;
        let payloads = d.u32s()?;
        let anchored = d.list(60, |d| {
            Some(Entry {
                template: d.u32()?,
                lit_len: d.u32()?,
                segs: (d.u32()?, d.u32()?),
                payloads: (d.u32()?, d.u32()?),
                words: d.u32()?,
                last: match d.u8()? {
                    0 => false,
                    1 => true,
                    _ => return None,
                },
                head: d.u64()?,
                head_mask: d.u64()?,
                tail: d.u64()?,
                tail_mask: d.u64()?,
            })
        })?;
        let anchors = Anchors::decode(d)?;
        let files = d.list(16, |d| {
            let payload = d.u32()?;
            let file: Box<str> = d.str()?.into();
            Some((payload, (file, d.u32()?)))
        })?;
        let files: foldhash::HashMap<_, _> = files.into_iter().collect();
        let links = d.list(12, |d| {
            Some(Link {
                template: d.u32()?,
                hole: d.u32()?,
                entry: d.u32()?,
            })
        })?;
        let short = d.u32s()?;
        if short.iter().any(|&x| x as usize >= anchored.len()) {
            return None;
        }
        let mut short_pieces: foldhash::HashMap<u32, Vec<u32>> = Default::default();
        for x in short {
            let key = anchored[x as usize].head as u32;
            short_pieces.entry(key).or_default().push(x);
        }
        let mut set = TemplateSet {
            templates,
            segs,
            words,
            payloads,
            anchored,
            anchors,
            files,
            links,
            short_pieces,
            piece_heads: Default::default(),
            literal_ends: Default::default(),
            full_heads: Default::default(),
        };
        if !set.is_whole() {
            return None;
        }
        (set.piece_heads, set.literal_ends) = (set.pieces(), set.ends());
        set.full_heads = set.heads();
        Some(set)
    }

    /// Whether every range and index the set follows lies inside it.
    fn is_whole(&self) -> bool {
        let within = |(s, e): (u32, u32), len: usize| s <= e && e as usize <= len;
        let segs_ok = self.segs.iter().all(|s| match *s {
            Seg::Lit {
                len,
                words,
                probe,
                byte,
                first,
            } => {
                let (len, words, probe) = (len as usize, words as usize, probe as usize);
                let words_end = words + len.saturating_sub(8).div_ceil(8);
                // The probe byte as the literal holds it: in `first` or in
                // the words after.
                let at = |i: usize| match i.checked_sub(8) {
                    None => Some((first >> (8 * i)) as u8),
                    Some(r) => self
                        .words
                        .get(words + r / 8)
                        .map(|w| (w >> (8 * (r % 8))) as u8),
                };
                words_end <= self.words.len()
                    && first & !crate::bytes::low_mask(len) == 0
                    && (probe < len || (probe == 0 && len == 0))
                    && (len == 0 || at(probe) == Some(byte))
            }
            Seg::Hole { .. } => true,
        });
        // An anchor is the index of its first entry, and the last entry
        // ends an anchor's run.
        let starts_ok = self.anchors.anchor_bound() as usize <= self.anchored.len()
            && self.anchored.last().is_none_or(|x| x.last);
        // An entry's ranges lie inside the set (its `words` is only a hint
        // of what to load early, checked where it is used).
        let entries_ok = self.anchored.iter().all(|a| {
            a.template < self.templates
                && within(a.segs, self.segs.len())
                && within(a.payloads, self.payloads.len())
        });
        // Links are sorted (they are searched) and name entries of the set.
        let links_ok = self
            .links
            .windows(2)
            .all(|w| (w[0].template, w[0].hole) <= (w[1].template, w[1].hole))
            && self
                .links
                .iter()
                .all(|l| (l.entry as usize) < self.anchored.len());
        segs_ok && starts_ok && entries_ok && links_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Hints, TemplateSetBuilder};
    use errdex_model::{Hole, Template};

    fn template(parts: &[&str], kind: HoleKind) -> Template {
        let mut t = Template::default();
        for p in parts {
            if p.starts_with('%') {
                t.push_hole(Hole {
                    kind,
                    verb: p.to_string(),
                    arg: Some("err".into()),
                    chain: *p == "%w",
                });
            } else {
                t.push_lit(p);
            }
        }
        t
    }

    fn set() -> TemplateSet {
        let mut b = TemplateSetBuilder::new();
        b.add(
            template(&["serving readiness probe: ", "%w"], HoleKind::Any),
            1,
            "cmd/apply_channel.go",
            130,
        );
        b.add(
            template(&["listen tcp ", "%s", ": bind failed"], HoleKind::Any),
            2,
            "net/listen.go",
            9,
        );
        // No whole word: anchored through the literal automaton.
        b.add(template(&["invalid", "%d"], HoleKind::Int), 3, "x.go", 1);
        for (i, k) in HOLE_KINDS.iter().enumerate() {
            b.add(
                template(&["kind number ", "%v", " written"], *k),
                10 + i as u32,
                "kinds.go",
                i as u32,
            );
        }
        b.build()
    }

    fn encoded(s: &TemplateSet) -> Vec<u8> {
        let mut e = Encoder::new();
        s.encode(&mut e);
        e.finish()
    }

    #[test]
    fn every_hole_kind_reads_back_as_its_number() {
        for (i, &k) in HOLE_KINDS.iter().enumerate() {
            assert_eq!(usize::from(hole_kind_number(k)), i, "{k:?}");
        }
    }

    #[test]
    fn a_set_read_back_traces_as_the_one_written() {
        let original = set();
        let bytes = encoded(&original);
        let mut d = Decoder::new(&bytes);
        let back = TemplateSet::decode(&mut d).expect("reads back");
        assert!(d.is_empty());
        // Every hole kind has its own number, so the bytes say it all.
        assert_eq!(encoded(&back), bytes);
        let hinted = Hints {
            files: vec!["apply_channel.go".into()],
            line: Some(130),
            ..Hints::default()
        };
        for (text, hints) in [
            (
                "serving readiness probe: listen tcp :80: bind failed",
                &hinted,
            ),
            ("invalid42", &Hints::default()),
            ("kind number 3 written", &Hints::default()),
            ("nothing known", &Hints::default()),
        ] {
            assert_eq!(
                back.trace(text, hints),
                original.trace(text, hints),
                "{text}"
            );
        }
        assert_eq!(
            back.trace(
                "serving readiness probe: listen tcp :80: bind failed",
                &hinted
            )
            .frames
            .len(),
            2
        );
    }

    #[test]
    fn cut_or_altered_bytes_never_read_as_a_set_that_indexes_out_of_bounds() {
        let bytes = encoded(&set());
        for cut in 0..bytes.len() {
            assert!(TemplateSet::decode(&mut Decoder::new(&bytes[..cut])).is_none());
        }
        // Flip bytes one at a time: what still decodes must trace without
        // a panic.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x5a;
            if let Some(s) = TemplateSet::decode(&mut Decoder::new(&b)) {
                for text in [
                    "serving readiness probe: x",
                    "invalid7",
                    "kind number 1 written",
                ] {
                    let _ = s.trace(text, &Hints::default());
                }
            }
        }
    }
}
