//! Rust: `thread 'main' panicked at src/x.rs:10:5:` (newer Rust adds the
//! thread's id: `thread 'main' (4242) panicked at`; the message is the
//! next line; older Rust put it inline), `Error: msg` with anyhow's
//! `Caused by:` list, `note: run with RUST_BACKTRACE=1…`.

use super::{starts, suffix_path, Block, Line, Role, StackLine, StackReader};

/// The state of a panic or an anyhow error.
#[derive(Default)]
pub(super) struct Rust {
    /// Where the panic whose message is the next line happened.
    panic_at: Option<(String, u32)>,
    /// Inside anyhow's `Caused by:` list.
    in_causes: bool,
}

impl StackReader for Rust {
    #[inline]
    fn open(&self) -> bool {
        self.in_causes || self.panic_at.is_some()
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let t = line.trimmed;
        if line.marked && (starts(t, "note: run with `RUST_BACKTRACE") || t == "stack backtrace:") {
            block.other(Role::Frame);
            return true;
        }
        if let Some(rest) = line
            .marked
            .then(|| t.strip_prefix("thread '"))
            .flatten()
            .and_then(rust_panic_rest)
        {
            if self.panic(line, block, rest) {
                return true;
            }
        }
        if let Some((f, l)) = self.panic_at.take() {
            let mut s = StackLine::message(line.indent, None);
            s.hints.files.push(f);
            s.hints.line = Some(l);
            block.message(s);
            return true;
        }
        if line.marked && t == "Caused by:" {
            self.in_causes = true;
            block.other(Role::Link);
            return true;
        }
        self.in_causes && self.cause(line, block)
    }
}

impl Rust {
    /// A panic's first line, `rest` after its `panicked at `.
    fn panic(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>, rest: &str) -> bool {
        if let Some(loc) = rest.strip_suffix(':') {
            // Rust 1.73+: the location, then the message on its own line.
            self.panic_at = rust_location(loc);
            block.other(Role::Link);
            return true;
        }
        // Older: `panicked at 'msg', src/x.rs:3:5`.
        let Some((_msg, loc)) = rest.rsplit_once("', ") else {
            return false;
        };
        let start = line.text.len() - rest.len() + 1;
        let mut s = StackLine::message(start, None);
        if let Some((f, l)) = rust_location(loc) {
            s.hints.files.push(f);
            s.hints.line = Some(l);
        }
        block.message(s);
        true
    }

    /// A line of anyhow's `Caused by:` list (`    0: msg` or `    msg`);
    /// a line that is not indented ends it unread.
    fn cause(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let t = line.trimmed;
        if line.indent == 0 || t.is_empty() {
            self.in_causes = false;
            return false;
        }
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let start = if digits > 0 && t[digits..].starts_with(": ") {
            line.indent + digits + 2
        } else {
            line.indent
        };
        block.message(StackLine::message(start, None));
        true
    }
}

/// What follows `panicked at ` in `main' panicked at …`, or in
/// `main' (4242) panicked at …` where Rust names the thread's id too.
fn rust_panic_rest(r: &str) -> Option<&str> {
    if let Some((_, rest)) = r.split_once("' panicked at ") {
        return Some(rest);
    }
    let (_, rest) = r.split_once("' (")?;
    let (id, rest) = rest.split_once(") panicked at ")?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(rest)
}

/// `src/main.rs:10:5`.
fn rust_location(loc: &str) -> Option<(String, u32)> {
    let (rest, _col) = loc.trim().rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    file.ends_with(".rs")
        .then(|| (suffix_path(file), line.parse().ok()))
        .and_then(|(f, l)| Some((f, l?)))
}
