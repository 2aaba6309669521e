//! Python: `Traceback (most recent call last):`, `File "x.py", line N,
//! in f` (hints for the exception line that ends the traceback, the
//! innermost frame first), `ValueError: msg`, and the links `During
//! handling of the above exception…` / `The above exception was the
//! direct cause…`.

use super::{hints, starts, suffix_path, Block, Line, Role, StackLine, StackReader};

/// The state of the tracebacks of one chain.
#[derive(Default)]
pub(super) struct Python {
    /// Inside a traceback, before its exception line.
    open: bool,
    /// Frames seen since the last `Traceback`, innermost last.
    frames: Vec<(String, u32)>,
    /// Frames of the earlier tracebacks of one chain.
    chain_frames: Vec<(String, u32)>,
    /// Whether a link said the next traceback continues the chain.
    linked: bool,
}

impl StackReader for Python {
    #[inline]
    fn open(&self) -> bool {
        self.open
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let t = line.trimmed;
        if line.marked && starts(t, "Traceback (most recent call last)") {
            self.open = true;
            self.frames.clear();
            if !self.linked {
                self.chain_frames.clear();
            }
            self.linked = false;
            block.other(Role::Link);
            return true;
        }
        if line.marked
            && (starts(t, "During handling of the above exception")
                || starts(t, "The above exception was the direct cause"))
        {
            self.linked = true;
            block.other(Role::Link);
            return true;
        }
        self.open && self.in_traceback(line, block)
    }
}

impl Python {
    /// A line inside a traceback: a frame, its source, or the exception
    /// that ends it. Anything else ends the traceback unread.
    fn in_traceback(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let t = line.trimmed;
        if let Some(frame) = python_frame(t) {
            self.frames.push(frame.clone());
            block.frame_at(frame);
            return true;
        }
        if line.indent > 0 || t.starts_with('^') || t.starts_with('~') {
            // The frame's source line and its carets.
            block.other(Role::Frame);
            return true;
        }
        self.open = false;
        let Some((class, start)) = exception_head(line.text) else {
            return false;
        };
        let mut s = StackLine::message(start, Some(class));
        // This traceback's frames first, then those of the exceptions it
        // was raised from or while handling.
        s.hints = hints(
            self.frames
                .iter()
                .rev()
                .chain(self.chain_frames.iter().rev()),
        );
        block.out.push(s);
        self.chain_frames.append(&mut self.frames);
        true
    }
}

/// `File "/x/y.py", line 3, in f`.
fn python_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("File \"")?;
    let (path, rest) = rest.split_once("\", line ")?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((suffix_path(path), n.parse().ok()?))
}

/// `x.y.ClassName: msg` at the start of a line: the class and where the
/// message starts. Class names end in Error, Exception, Warning, Exit,
/// Interrupt, Failure, or are dotted and capitalised.
fn exception_head(line: &str) -> Option<(String, usize)> {
    let (head, _) = line.split_once(": ").or_else(|| {
        // A bare class (`StopIteration`) has no message.
        (!line.contains(' ')).then_some((line, ""))
    })?;
    let name = head.rsplit('.').next().unwrap_or(head);
    let plausible = !head.is_empty()
        && head
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'$')
        && name.starts_with(|c: char| c.is_ascii_uppercase());
    if !plausible {
        return None;
    }
    let start = (head.len() + 2).min(line.len());
    Some((head.to_string(), start))
}
