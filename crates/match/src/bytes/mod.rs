//! Byte-level helpers the matcher's hot loops share: a text copied with
//! zero padding on both sides, so that any eight bytes around a position
//! load without a bounds branch per byte, and word masks built eight bytes
//! at a time.

/// Zero bytes before and after the text in a [`Padded`] buffer.
const PAD: usize = 16;

/// A text with [`PAD`] zero bytes on each side. Positions are the text's
/// own byte offsets.
#[derive(Debug, Default)]
pub(crate) struct Padded {
    buf: Vec<u8>,
    len: usize,
}

impl Padded {
    /// Copies `text` in, replacing what was there; keeps the allocation.
    pub(crate) fn set(&mut self, text: &[u8]) {
        self.buf.clear();
        self.buf.extend_from_slice(&[0; PAD]);
        self.buf.extend_from_slice(text);
        self.buf.extend_from_slice(&[0; PAD]);
        self.len = text.len();
    }

    /// Whether a literal of `n` bytes, whose first eight (zero-padded) are
    /// `first` and whose [`literal_words`] past them are `rest`, occurs at
    /// `at`.
    #[inline]
    pub(crate) fn has_literal(&self, at: usize, n: usize, first: u64, rest: &[u64]) -> bool {
        at + n <= self.len
            && self.load(at) & low_mask(n) == first
            && (n <= 8 || self.has_at(at + 8, n - 8, rest))
    }

    /// The text's length.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes `[at, at + 8)` little-endian; zero past the end. `at` may be
    /// up to the text's length plus eight.
    #[inline]
    pub(crate) fn load(&self, at: usize) -> u64 {
        let i = PAD + at;
        u64::from_le_bytes(self.buf[i..i + 8].try_into().expect("eight bytes"))
    }

    /// Bytes `[at, at + 16)` as two little-endian halves, from one bounds
    /// check; `at` may be up to the text's length.
    #[inline]
    pub(crate) fn load16(&self, at: usize) -> (u64, u64) {
        let i = PAD + at;
        let b: &[u8; 16] = self.buf[i..i + 16].try_into().expect("sixteen bytes");
        let (lo, hi) = b.split_at(8);
        (
            u64::from_le_bytes(lo.try_into().expect("eight bytes")),
            u64::from_le_bytes(hi.try_into().expect("eight bytes")),
        )
    }

    /// Bytes `[end - 8, end)`: the eight before `end`, zero before the start.
    #[inline]
    pub(crate) fn load_before(&self, end: usize) -> u64 {
        let i = PAD + end - 8;
        u64::from_le_bytes(self.buf[i..i + 8].try_into().expect("eight bytes"))
    }

    /// Bytes `[at, at + n)` (`n` at most eight), zero-extended.
    #[inline]
    pub(crate) fn load_n(&self, at: usize, n: usize) -> u64 {
        self.load(at) & low_mask(n)
    }

    /// The first position in `[from, last]` holding `byte`. Eight bytes a
    /// step: texts are short, and a library search's set-up would cost more
    /// than the search.
    #[inline]
    pub(crate) fn find_byte(&self, byte: u8, from: usize, last: usize) -> Option<usize> {
        let spread = LO.wrapping_mul(u64::from(byte));
        let mut p = from;
        while p <= last {
            if let Some(i) = first_equal(self.load(p), spread) {
                let at = p + i;
                return (at <= last).then_some(at);
            }
            p += 8;
        }
        None
    }

    /// The text itself.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf[PAD..PAD + self.len]
    }

    /// Whether the literal of `n` bytes whose [`literal_words`] are
    /// `lit_words` occurs at `at`.
    #[inline]
    pub(crate) fn has_at(&self, at: usize, n: usize, lit_words: &[u64]) -> bool {
        if at + n > self.len {
            return false;
        }
        let mut i = 0;
        for &w in lit_words {
            let k = (n - i).min(8);
            if self.load(at + i) & low_mask(k) != w {
                return false;
            }
            i += 8;
        }
        true
    }
}

/// The low `n` bytes set (`n` at most eight).
#[inline]
pub(crate) fn low_mask(n: usize) -> u64 {
    const LOW: [u64; 9] = {
        let mut t = [0u64; 9];
        let mut n = 1;
        while n < 9 {
            t[n] = u64::MAX >> (64 - 8 * n);
            n += 1;
        }
        t
    };
    LOW[n.min(8)]
}

/// The high `n` bytes set (`n` at most eight).
#[inline]
pub(crate) fn high_mask(n: usize) -> u64 {
    if n == 0 {
        0
    } else {
        u64::MAX << (8 * (8 - n.min(8)))
    }
}

/// Bytes of `b` from `at`, at most eight, little-endian, zero-padded.
pub(crate) fn load_slice(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    let n = b.len().saturating_sub(at).min(8);
    w[..n].copy_from_slice(&b[at..at + n]);
    u64::from_le_bytes(w)
}

/// A literal as eight-byte words, the last zero-padded: compared with
/// [`Padded::has_at`] one word at a time.
pub(crate) fn literal_words(lit: &[u8]) -> Vec<u64> {
    (0..lit.len())
        .step_by(8)
        .map(|i| load_slice(lit, i))
        .collect()
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Which of eight bytes are word bytes (ASCII letters, digits, `_`): bit
/// `i` for byte `i`. Each byte is tested with adds that cannot carry into
/// its neighbour, since the high bit is cleared first and checked apart.
// On x86-64 the SSE2 version is used; this stays as its reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub(crate) fn word_bits(x: u64) -> u64 {
    let ascii = !x & HI;
    let low = x & !HI;
    let folded = low | (0x20 * LO);
    let alpha = (folded + (0x80 - 0x61) * LO) & !(folded + (0x80 - 0x7b) * LO);
    let digit = (low + (0x80 - 0x30) * LO) & !(low + (0x80 - 0x3a) * LO);
    let under = !((low ^ (0x5f * LO)) + 0x7f * LO);
    let w = (alpha | digit | under) & ascii & HI;
    // Gather the eight high bits into the low byte: each lands alone.
    ((w >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Asks the CPU to start loading the cache line of `value`, which a later
/// step will read: the matcher's tables are larger than a core's cache, and
/// waiting for their lines is most of a traced line's time.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and
    // cannot fault, and the pointer comes from a reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Which of sixteen bytes are word bytes: [`word_bits`] of both halves, in
/// a few SSE2 instructions (a fifth of the SWAR version's).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline]
fn word_bits16(lo: u64, hi: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline, so every CPU this code
    // runs on has these instructions; they touch registers only.
    unsafe {
        let v = _mm_set_epi64x(hi as i64, lo as i64);
        // Unsigned `x - base < n` as a signed compare: add `0x80 - base`,
        // then compare below `n - 128`.
        let folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
        let alpha = _mm_cmplt_epi8(
            _mm_add_epi8(folded, _mm_set1_epi8(0x80u8.wrapping_sub(b'a') as i8)),
            _mm_set1_epi8((26i32 - 128) as i8),
        );
        let digit = _mm_cmplt_epi8(
            _mm_add_epi8(v, _mm_set1_epi8(0x80u8.wrapping_sub(b'0') as i8)),
            _mm_set1_epi8((10i32 - 128) as i8),
        );
        let under = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'_' as i8));
        let w = _mm_or_si128(_mm_or_si128(alpha, digit), under);
        u64::from(_mm_movemask_epi8(w) as u16)
    }
}

/// Which of sixteen bytes are `c`: bit `i` for byte `i`.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline]
fn equal_bits16(lo: u64, hi: u64, c: u8) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; registers only.
    unsafe {
        let v = _mm_set_epi64x(hi as i64, lo as i64);
        u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u16)
    }
}

/// Which of sixteen bytes are `c`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn equal_bits16(lo: u64, hi: u64, c: u8) -> u64 {
    equal_bits16_swar(lo, hi, c)
}

/// [`equal_bits16`] without SSE2; on x86-64 it stays as its reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn equal_bits16_swar(lo: u64, hi: u64, c: u8) -> u64 {
    // Exact per byte: the high bit is cleared before the add, so no byte
    // carries into its neighbour.
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let gather = |w: u64| {
        let x = w ^ LO.wrapping_mul(u64::from(c));
        let high = !(((x & LOW7) + LOW7) | x | LOW7);
        ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    };
    gather(lo) | gather(hi) << 8
}

/// Positions of the newlines of a chunk of input, in order, found 64
/// bytes a step: log lines are short, and a library search's set-up for
/// every line costs more than the line's scan.
#[derive(Debug)]
pub struct Newlines<'a> {
    chunk: &'a [u8],
    /// Where the next 64 bytes to test start.
    next: usize,
    /// Where the block in `bits` starts.
    base: usize,
    /// Newlines of that block still to report.
    bits: u64,
}

impl<'a> Newlines<'a> {
    /// The newlines of `chunk`.
    pub fn new(chunk: &'a [u8]) -> Newlines<'a> {
        Newlines {
            chunk,
            next: 0,
            base: 0,
            bits: 0,
        }
    }
}

/// Bit `i` for each newline byte `i` of a block.
#[inline]
fn newline_bits64(block: &[u8; 64]) -> u64 {
    let word = |i: usize| u64::from_le_bytes(block[i..i + 8].try_into().expect("eight bytes"));
    (0..4).fold(0, |bits, k| {
        bits | equal_bits16(word(16 * k), word(16 * k + 8), b'\n') << (16 * k)
    })
}

impl Iterator for Newlines<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            if self.next >= self.chunk.len() {
                return None;
            }
            let rest = &self.chunk[self.next..];
            let bits = match rest.get(..64) {
                Some(block) => newline_bits64(block.try_into().expect("64 bytes")),
                None => {
                    // The chunk's last bytes, padded with zeros (no newline).
                    let mut block = [0u8; 64];
                    block[..rest.len()].copy_from_slice(rest);
                    newline_bits64(&block)
                }
            };
            self.base = self.next;
            self.next += 64;
            self.bits = bits;
        }
        let p = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(p)
    }
}

/// Which of sixteen bytes are word bytes.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn word_bits16(lo: u64, hi: u64) -> u64 {
    word_bits(lo) | word_bits(hi) << 8
}

/// Word-byte masks of a whole text: bit `i % 64` of mask `i / 64` for
/// byte `i`.
pub(crate) fn word_masks(t: &Padded, out: &mut Vec<u64>) {
    out.clear();
    let n = t.len();
    let mut at = 0;
    while at < n {
        let mut m = 0u64;
        let mut k = 0;
        // Bytes past the end are zero, which is no word byte.
        while k < 64 && at + k < n {
            let (lo, hi) = t.load16(at + k);
            m |= word_bits16(lo, hi) << k;
            k += 16;
        }
        out.push(m);
        at += 64;
    }
    if n.is_multiple_of(64) {
        // A word that ends the text then still has an edge after it.
        out.push(0);
    }
}

/// Calls `f(start, end)` for each word of a text from its [`word_masks`],
/// in order. Walks the bits where word bytes start or stop, two per word;
/// the masks end with a non-word bit, so every word has its end edge, and
/// `f` has one call site, which lets it be inlined here.
#[inline(always)]
pub(crate) fn for_each_word(masks: &[u64], mut f: impl FnMut(usize, usize)) {
    let mut carry = 0u64;
    let mut in_word = false;
    let mut start = 0;
    for (i, &m) in masks.iter().enumerate() {
        let mut edges = m ^ ((m << 1) | carry);
        carry = m >> 63;
        while edges != 0 {
            let p = i * 64 + edges.trailing_zeros() as usize;
            edges &= edges - 1;
            if in_word {
                f(start, p);
            } else {
                start = p;
            }
            in_word = !in_word;
        }
    }
}

/// Where `: ` first occurs in `b`: a search from the colons, cheaper on a
/// short text than a substring searcher's set-up.
#[inline]
pub(crate) fn colon_space(b: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b':', b).find(|&i| b.get(i + 1) == Some(&b' '))
}

/// The first space of `b`.
#[inline]
pub(crate) fn first_space(b: &[u8]) -> Option<usize> {
    find_byte(b, b' ')
}

/// The first `c` in `b`, eight bytes per step: what prefix and stack
/// detection look for (a space, `=`) is near the start of a line, where a
/// library search's set-up would cost more than the search, and a byte
/// loop takes a step per byte.
#[inline]
pub(crate) fn find_byte(b: &[u8], c: u8) -> Option<usize> {
    let spread = LO.wrapping_mul(u64::from(c));
    let mut i = 0;
    while i + 8 <= b.len() {
        let w = u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"));
        if let Some(k) = first_equal(w, spread) {
            return Some(i + k);
        }
        i += 8;
    }
    b[i..].iter().position(|&x| x == c).map(|p| i + p)
}

/// The first of the eight bytes of `w` equal to the byte `spread` repeats
/// (`LO * c`). The XOR leaves that byte zero; of the bytes the zero test
/// flags, the lowest is always a true zero (a borrow only flags bytes above
/// one).
#[inline]
fn first_equal(w: u64, spread: u64) -> Option<usize> {
    let x = w ^ spread;
    let zero = x.wrapping_sub(LO) & !x & HI;
    (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
}

/// The matcher's reference definition of a word byte, for tests and for
/// splitting templates at build time.
pub(crate) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests;
