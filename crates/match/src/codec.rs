//! A plain binary form for compiled data kept between runs: little-endian
//! integers, and lengths before byte strings and arrays.
//!
//! Compiling the templates of a large atlas costs far more than reading
//! them back in this form (no parsing, arrays of integers copied whole),
//! so a caller can keep a [`TemplateSet`](crate::TemplateSet) on disk.
//! Nothing here trusts its input: every read is bounds-checked and a short
//! or malformed buffer reads as `None`, never a panic. It does not detect
//! flipped bits in well-formed data; a caller that keeps the bytes on disk
//! checks them first.

/// A 64-bit digest of `bytes`, to tell bytes kept on disk from bytes
/// altered since. Stable within one build, which is all a cache keyed by
/// its build needs.
pub fn checksum(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x6572_7264_6578).hash_one(bytes)
}

/// Writes values in order.
#[derive(Debug, Default)]
pub struct Encoder {
    buf: Vec<u8>,
}

impl Encoder {
    /// An empty buffer.
    pub fn new() -> Encoder {
        Encoder::default()
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// A `u32`.
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A `u64`.
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A length or index, as 64 bits.
    pub fn usize(&mut self, v: usize) {
        self.u64(v as u64);
    }

    /// Bytes, after their length.
    pub fn bytes(&mut self, v: &[u8]) {
        self.usize(v.len());
        self.buf.extend_from_slice(v);
    }

    /// A string.
    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }

    /// An optional string.
    pub fn opt_str(&mut self, v: Option<&str>) {
        match v {
            None => self.u8(0),
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
        }
    }

    /// An array of `u32`.
    pub fn u32s(&mut self, v: &[u32]) {
        self.usize(v.len());
        self.buf.reserve(v.len() * 4);
        for x in v {
            self.u32(*x);
        }
    }

    /// An array of `u64`.
    pub fn u64s(&mut self, v: &[u64]) {
        self.usize(v.len());
        self.buf.reserve(v.len() * 8);
        for x in v {
            self.u64(*x);
        }
    }
}

/// Reads values in the order an [`Encoder`] wrote them.
#[derive(Debug)]
pub struct Decoder<'a> {
    buf: &'a [u8],
}

impl<'a> Decoder<'a> {
    /// Reads `buf` from its start.
    pub fn new(buf: &'a [u8]) -> Decoder<'a> {
        Decoder { buf }
    }

    /// Whether everything has been read.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.buf.len() {
            return None;
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    /// A length or index; `None` when it cannot be one on this machine.
    pub fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }

    /// A length of `size`-byte items that the rest of the buffer can hold:
    /// a corrupt length must not reserve memory for items that are not
    /// there.
    fn count(&mut self, size: usize) -> Option<usize> {
        let n = self.usize()?;
        (n.checked_mul(size)? <= self.buf.len()).then_some(n)
    }

    /// Bytes.
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.usize()?;
        self.take(n)
    }

    /// A string.
    pub fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }

    /// An owned string.
    pub fn string(&mut self) -> Option<String> {
        self.str().map(str::to_string)
    }

    /// An optional owned string.
    pub fn opt_string(&mut self) -> Option<Option<String>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(self.string()?)),
            _ => None,
        }
    }

    /// A list of items each written as at least `min_size` bytes (its
    /// length checked against what is left), each read by `item`.
    pub fn list<T>(
        &mut self,
        min_size: usize,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let n = self.count(min_size.max(1))?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(item(self)?);
        }
        Some(out)
    }

    /// An array of `N`-byte integers, read whole.
    fn ints<const N: usize, T>(&mut self, from: fn([u8; N]) -> T) -> Option<Vec<T>> {
        let n = self.count(N)?;
        let b = self.take(n * N)?;
        Some(
            b.chunks_exact(N)
                .map(|c| from(c.try_into().expect("N bytes")))
                .collect(),
        )
    }

    /// An array of `u32`.
    pub fn u32s(&mut self) -> Option<Vec<u32>> {
        self.ints(u32::from_le_bytes)
    }

    /// An array of `u64`.
    pub fn u64s(&mut self) -> Option<Vec<u64>> {
        self.ints(u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_in_order() {
        let mut e = Encoder::new();
        e.u8(7);
        e.u32(0xdead_beef);
        e.u64(u64::MAX - 1);
        e.str("ünïcode");
        e.opt_str(None);
        e.opt_str(Some("x"));
        e.u32s(&[1, 2, 3]);
        e.u64s(&[]);
        let b = e.finish();
        let mut d = Decoder::new(&b);
        assert_eq!(d.u8(), Some(7));
        assert_eq!(d.u32(), Some(0xdead_beef));
        assert_eq!(d.u64(), Some(u64::MAX - 1));
        assert_eq!(d.str(), Some("ünïcode"));
        assert_eq!(d.opt_string(), Some(None));
        assert_eq!(d.opt_string(), Some(Some("x".to_string())));
        assert_eq!(d.u32s(), Some(vec![1, 2, 3]));
        assert_eq!(d.u64s(), Some(vec![]));
        assert!(d.is_empty());
    }

    #[test]
    fn checksums_tell_bytes_apart() {
        let a = vec![7u8; 100_000];
        let mut b = a.clone();
        b[54_321] = 8;
        assert_eq!(checksum(&a), checksum(&a.clone()));
        assert_ne!(checksum(&a), checksum(&b));
        assert_ne!(checksum(&a), checksum(&a[..99_999]));
    }

    #[test]
    fn short_or_malformed_input_reads_as_none() {
        let mut e = Encoder::new();
        e.u32s(&[1, 2, 3]);
        let b = e.finish();
        for cut in 0..b.len() {
            assert_eq!(Decoder::new(&b[..cut]).u32s(), None, "cut at {cut}");
        }
        // A huge length must not allocate for items that are not there.
        let mut e = Encoder::new();
        e.u64(u64::MAX / 2);
        let b = e.finish();
        assert_eq!(Decoder::new(&b).u64s(), None);
        assert_eq!(Decoder::new(&b).bytes(), None);
        assert_eq!(Decoder::new(&b).list(1, |d| d.u8()), None);
        // Not UTF-8; an unknown option tag.
        let mut e = Encoder::new();
        e.bytes(&[0xff, 0xfe]);
        assert_eq!(Decoder::new(&e.finish()).str(), None);
        assert_eq!(Decoder::new(&[2]).opt_string(), None);
    }
}
