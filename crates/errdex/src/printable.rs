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

impl<W: Write> Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = Vec::with_capacity(buf.len() + 8);
        for &b in buf {
            if self.pending_c2 {
                self.pending_c2 = false;
                if (0x80..=0x9f).contains(&b) {
                    out.extend(escape(u32::from(b)));
                    continue;
                }
                out.push(0xc2);
            }
            match b {
                b'\n' | b'\t' => out.push(b),
                0x00..=0x1f | 0x7f => out.extend(escape(u32::from(b))),
                0xc2 => self.pending_c2 = true,
                _ => out.push(b),
            }
        }
        self.inner.write_all(&out)?;
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
    fn an_escaped_json_string_reads_back_the_same() {
        let v = serde_json::json!({"m": "a\u{7f}b\u{9b}c\u{1b}"});
        let written = through(&[v.to_string().as_bytes()]);
        assert!(!written.contains(['\u{7f}', '\u{9b}', '\u{1b}']));
        let back: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back, v);
    }
}
