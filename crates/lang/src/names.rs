//! Which names a file's text holds, as a Bloom filter: the cause graph
//! asks of many files whether they mention a function, type or constant
//! before it reads their flows, and answering from this filter (cached
//! with the file's facts) spares reading every file of a folder to ask.
//!
//! A name is a run of identifier bytes: ASCII letters, digits, `_`, and
//! every byte of a multi-byte character (Go allows Unicode letters). The
//! filter can say "maybe" of a name the text lacks, never "no" of one it
//! holds.

use serde::{Deserialize, Serialize};

/// Bits per distinct name: with four probes, about one "maybe" in a
/// hundred for names the text lacks.
const BITS_PER_NAME: usize = 10;
const PROBES: u64 = 4;

/// The names of one text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameFilter {
    bits: Vec<u64>,
}

impl NameFilter {
    /// The filter of every name in `text`.
    pub fn of(text: &str) -> NameFilter {
        let mut hashes: Vec<u64> = names(text).map(hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        let words = (hashes.len() * BITS_PER_NAME).div_ceil(64).max(1);
        let mut bits = vec![0u64; words];
        for h in hashes {
            for bit in probes(words, h) {
                bits[bit / 64] |= 1 << (bit % 64);
            }
        }
        NameFilter { bits }
    }

    /// Whether the text may hold every name written in `needle` (`" f("`
    /// asks for `f`); `false` only when one of them is surely absent.
    pub fn may_hold(&self, needle: &str) -> bool {
        // A filter made by no text (`Default`) knows nothing.
        if self.bits.is_empty() {
            return true;
        }
        names(needle).all(|name| {
            probes(self.bits.len(), hash(name)).all(|bit| {
                self.bits
                    .get(bit / 64)
                    .is_some_and(|w| w & (1 << (bit % 64)) != 0)
            })
        })
    }
}

/// The bits a name's hash sets in a filter of `words` words.
fn probes(words: usize, h: u64) -> impl Iterator<Item = usize> {
    let len = (words.max(1) * 64) as u64;
    // Two halves of one hash make the probes (Kirsch and Mitzenmacher).
    let (a, b) = (h & 0xffff_ffff, (h >> 32) | 1);
    (0..PROBES).map(move |i| (a.wrapping_add(i.wrapping_mul(b)) % len) as usize)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The names in `text`, in order, repeats kept. A run that starts with a
/// digit is a number, no name: tables of numbers would fill the filter.
fn names(text: &str) -> impl Iterator<Item = &[u8]> {
    text.as_bytes()
        .split(|&b| !is_name_byte(b))
        .filter(|n| n.first().is_some_and(|b| !b.is_ascii_digit()))
}

/// FNV-1a, then a final mix: fixed across runs, since filters are cached.
fn hash(name: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "package store\n\nconst defaultPort, x9 = 3986, 0\n\n\
        func (s *Server) listen() error { return serveÜber(s) }\n";

    #[test]
    fn every_name_of_the_text_is_held() {
        let f = NameFilter::of(FILE);
        // A number is no name; a needle's numbers are not asked.
        for needle in [
            " listen(",
            "Server ",
            ") listen(",
            "defaultPort",
            "serveÜber",
            "3986",
            "x9",
        ] {
            assert!(f.may_hold(needle), "{needle}");
        }
    }

    #[test]
    fn names_the_text_lacks_are_mostly_refused() {
        let f = NameFilter::of(FILE);
        let refused = (0..1000)
            .filter(|i| !f.may_hold(&format!(" missing{i}(")))
            .count();
        assert!(refused > 950, "{refused} of 1000 refused");
    }

    #[test]
    fn a_part_of_a_longer_name_is_not_a_name_of_the_text() {
        // `defaultPortFor` holds the text `defaultPort` but not the name:
        // the cause graph then finds no declaration of that name either.
        let f = NameFilter::of("var defaultPortFor = 1\n");
        assert!(!f.may_hold("defaultPort"));
        assert!(f.may_hold("defaultPortFor"));
    }

    #[test]
    fn a_filter_of_no_text_refuses_nothing() {
        assert!(NameFilter::default().may_hold("x"));
    }

    #[test]
    fn an_empty_filter_holds_only_empty_needles() {
        let f = NameFilter::of("");
        assert!(f.may_hold("( )"));
        assert!(!f.may_hold("x"));
    }
}
