//! Output a terminal cannot be steered by. Messages come from indexed
//! code and from the lines a user pastes; an ESC, BEL or CSI among them
//! would move the cursor, retitle the window or hide text. Every control
//! character but newline and tab is written as a `\u00XX` escape: visible
//! text for a person, and the same character for a JSON reader, since
//! inside a JSON string that is its escape.

use std::io::Write;

/// A writer that escapes control characters on their way to `W`.
pub(crate) struct Printable<W: Write> {
    inner: W,
    /// A UTF-8 lead byte 0xC2 seen last: whether the next byte makes a C1
    /// control (U+0080–U+009F) decides how it is written.
    pending_c2: bool,
}

impl<W: Write> Printable<W> {
    pub(crate) fn new(inner: W) -> Printable<W> {
        Printable {
            inner,
            pending_c2: false,
        }
    }
}

fn escape(c: u32) -> Vec<u8> {
    format!("\\u{c:04x}").into_bytes()
}

/// A byte that is not written as it is: a control character (newline
/// and tab aside), or 0xC2, which may lead a C1 control.
fn needs_care(b: u8) -> bool {
    (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2
}

/// The first byte of `buf` that [`needs_care`], eight bytes at a time: a
/// word with no byte below 0x20, no 0x7F and no 0xC2 is passed whole
/// (the tests of the bit-twiddling hacks' `hasless` and `haszero`, which
/// may flag a word falsely, never miss one); a flagged word is read byte
/// by byte. JSON output has a newline a line and little else to look at.
fn first_care(buf: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |y: u64| y.wrapping_sub(ONES) & !y & HIGH != 0;
    let mut words = buf.chunks_exact(8);
    for (k, word) in words.by_ref().enumerate() {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
        if below_space || has_zero(x ^ (ONES * 0x7f)) || has_zero(x ^ (ONES * 0xc2)) {
            if let Some(j) = word.iter().position(|&b| needs_care(b)) {
                return Some(k * 8 + j);
            }
        }
    }
    let tail = words.remainder();
    let at = buf.len() - tail.len();
    tail.iter().position(|&b| needs_care(b)).map(|j| at + j)
}

impl<W: Write> Printable<W> {
    /// The writer underneath, for bytes known to hold no control
    /// character (a 0xC2 lead byte held back is written first).
    pub(crate) fn plain(&mut self) -> std::io::Result<&mut W> {
        if std::mem::take(&mut self.pending_c2) {
            self.inner.write_all(&[0xc2])?;
        }
        Ok(&mut self.inner)
    }

    /// Writes what a 0xC2 lead byte and the start of `rest` make: a C1
    /// control escaped (both bytes), or the lead byte as it is; gives the
    /// bytes left to write.
    fn after_c2<'b>(&mut self, rest: &'b [u8]) -> std::io::Result<&'b [u8]> {
        match rest.first() {
            Some(&b) if (0x80..=0x9f).contains(&b) => {
                self.inner.write_all(&escape(u32::from(b)))?;
                Ok(&rest[1..])
            }
            _ => {
                self.inner.write_all(&[0xc2])?;
                Ok(rest)
            }
        }
    }
}

impl<W: Write> Write for Printable<W> {
    /// Runs of plain bytes go through as they are, in one write each:
    /// only a control byte, or a C1 control's lead byte, is looked at.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        if std::mem::take(&mut self.pending_c2) {
            rest = self.after_c2(rest)?;
        }
        while let Some(i) = first_care(rest) {
            self.inner.write_all(&rest[..i])?;
            let b = rest[i];
            rest = &rest[i + 1..];
            if b != 0xc2 {
                self.inner.write_all(&escape(u32::from(b)))?;
            } else if rest.is_empty() {
                self.pending_c2 = true;
            } else {
                rest = self.after_c2(rest)?;
            }
        }
        self.inner.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if std::mem::take(&mut self.pending_c2) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Printable<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(parts: &[&[u8]]) -> String {
        let mut buf = Vec::new();
        {
            let mut p = Printable::new(&mut buf);
            for part in parts {
                p.write_all(part).unwrap();
            }
        }
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn control_characters_become_visible_escapes_and_text_stays() {
        assert_eq!(
            through(&[b"a\x1b[31mred\x07\x00 \r\x7f\n\tok \xc3\xa9"]),
            "a\\u001b[31mred\\u0007\\u0000 \\u000d\\u007f\n\tok é"
        );
        // A C1 CSI (U+009B), also when its two bytes come in two writes;
        // other characters led by 0xC2 (U+00A0–U+00BF) pass.
        assert_eq!(through(&["x\u{9b}2J".as_bytes()]), "x\\u009b2J");
        assert_eq!(
            through(&[b"x\xc2", b"\x9b2J \xc2", b"\xa9"]),
            "x\\u009b2J ©"
        );
    }

    #[test]
    fn the_first_byte_to_look_at_is_found_in_any_word() {
        // Every position of a 19-byte text (two words and a tail), each
        // kind of byte that needs care, among bytes that do not (a
        // newline, a tab, 0xC3 and 0x80 included).
        for bad in [0x00u8, 0x1b, 0x1f, 0x7f, 0xc2] {
            for at in 0..19 {
                let mut text = b"ab\ncd\tef\xc3\x80gh ijklmno".to_vec();
                text.truncate(19);
                text[at] = bad;
                let want = text.iter().position(|&b| needs_care(b));
                assert_eq!(first_care(&text), want, "{bad:#x} at {at}");
            }
        }
        assert_eq!(first_care(b"plain text,\n with\tno controls"), None);
    }

    #[test]
    fn an_escaped_json_string_reads_back_the_same() {
        let v = serde_json::json!({"m": "a\u{7f}b\u{9b}c\u{1b}"});
        let written = through(&[v.to_string().as_bytes()]);
        assert!(!written.contains(['\u{7f}', '\u{9b}', '\u{1b}']));
        let back: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back, v);
    }
}
