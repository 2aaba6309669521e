//! Node: `Error: msg`, `TypeError [ERR_X]: msg` (read as exception lines,
//! [`super::exception`]), `at f (file.js:10:5)`, and the `file.js:10`
//! line Node prints above an uncaught error, with the source line and
//! caret under it.

use super::{suffix_path, Block, Line, Role, StackLine, StackReader};

/// The state of an uncaught error's header.
#[derive(Default)]
pub(super) struct Node {
    /// The location line above an uncaught error, for the error's line.
    at: Option<(String, u32)>,
    /// Inside the source line and caret under that location.
    source: bool,
}

impl StackReader for Node {
    #[inline]
    fn open(&self) -> bool {
        self.source || self.at.is_some()
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let t = line.trimmed;
        if let Some(frame) = line.marked.then(|| node_frame(t)).flatten() {
            block.frame_after(frame);
            return true;
        }
        if self.source {
            // The source line and caret Node shows under its location; the
            // caret line ends them (a log read without its blank lines
            // goes straight on to the error).
            if t.is_empty() || t.bytes().all(|c| c == b'^' || c == b'~') {
                self.source = false;
            }
            block.other(Role::Frame);
            return true;
        }
        // A frame no reader could place (`at new Promise (<anonymous>)`,
        // the JVM's `at C.m(Native Method)`).
        if line.marked
            && t.starts_with("at ")
            && (t.ends_with(')') || t.contains(':'))
            && !t.contains(": ")
        {
            block.other(Role::Frame);
            return true;
        }
        false
    }
}

impl Node {
    /// Node's location line above an uncaught error: `/app/x.js:10`.
    /// Asked after every reader, since any open trace's line comes first.
    pub(super) fn location(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let Some(loc) = node_location_line(line.trimmed) else {
            return false;
        };
        self.at = Some(loc);
        self.source = true;
        block.other(Role::Frame);
        true
    }

    /// Gives the error under a location line that location as its hint.
    #[inline]
    pub(super) fn hint_uncaught(&mut self, s: &mut StackLine) {
        if let Some((f, l)) = self.at.take() {
            s.hints.files.push(f);
            s.hints.line = Some(l);
        }
    }
}

/// `at f (/app/x.js:10:5)`, `at /app/x.js:10:5`, `at async f (file:///x.mjs:3:9)`.
fn node_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("at ")?;
    let loc = match rest.rfind(" (") {
        Some(p) => rest[p + 2..].strip_suffix(')')?,
        None => rest,
    };
    let loc = loc.strip_prefix("file://").unwrap_or(loc);
    let (rest, _col) = loc.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    if !is_script(file) {
        return None;
    }
    Some((suffix_path(file), line.parse().ok()?))
}

fn is_script(f: &str) -> bool {
    [".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".mts", ".cts"]
        .iter()
        .any(|e| f.ends_with(e))
}

/// Node prints `/app/x.js:10` alone above an uncaught error's source line.
pub(super) fn node_location_line(t: &str) -> Option<(String, u32)> {
    // It ends with the line number.
    if !t.as_bytes().last().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    // The line number is what follows the last colon: digits (`u32`
    // parsing allows a `+` before them). Most lines ending in a number
    // have no colon, or text after their last one.
    let b = t.as_bytes();
    let colon = memchr::memrchr(b':', b)?;
    let number = &b[colon + 1..];
    let number = number.strip_prefix(b"+").unwrap_or(number);
    if number.is_empty() || !number.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (file, line) = (&t[..colon], &t[colon + 1..]);
    // Every script extension ends in `s` or `x`: most lines ending in a
    // number are told apart by one byte.
    if !matches!(file.as_bytes().last(), Some(b's' | b'x'))
        || !is_script(file)
        || file.contains(' ')
    {
        return None;
    }
    Some((suffix_path(file), line.parse().ok()?))
}
