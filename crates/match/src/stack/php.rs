//! PHP: `PHP Fatal error:  Uncaught X\Y: msg in /path/F.php:12` (the
//! message may run over several lines; the ` in /path:12` that ends its
//! last line is where it was thrown, a hint, not message text), `Stack
//! trace:`, `#0 /path/F.php(123): f()` frames, `Next X\Y: msg in
//! /path:12` for the exception raised from the one above, and `  thrown
//! in /path on line 12`.

use super::{starts, suffix_path, trim_start, Block, Line, Role, StackLine, StackReader};
use crate::Hints;

/// The state of a PHP block.
#[derive(Default)]
pub(super) struct Php {
    /// Inside an uncaught exception's block (`Next …` may follow).
    open: bool,
    /// The lines of a message still to come, with the message's hints.
    more: Option<(usize, Hints)>,
    /// The lines of the PHP message that frames hint.
    message: Vec<usize>,
    /// Inside a Symfony Console error block, under its `In F.php line
    /// 12:` header: the header's hints, and the width its lines are
    /// padded to once one came.
    console: Option<(Hints, Option<usize>)>,
}

impl StackReader for Php {
    #[inline]
    fn open(&self) -> bool {
        self.more.is_some() || self.open || self.console.is_some()
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        if let Some((left, hints)) = self.more.take() {
            self.continued(line, block, left, hints);
            return true;
        }
        if self.console.is_some() && self.console_line(line, block) {
            return true;
        }
        if let Some(hints) = line.marked.then(|| console_header(line.trimmed)).flatten() {
            // The header is a message of its own (Symfony's `In %s line
            // %s:`).
            self.console = Some((hints, None));
            block.message(StackLine::message(0, None));
            return true;
        }
        if let Some((class, start)) = line
            .marked
            .then(|| php_uncaught(line.text, self.open))
            .flatten()
        {
            self.uncaught(line, block, class, start);
            return true;
        }
        if self.open {
            if line.trimmed == "Stack trace:" {
                block.other(Role::Link);
                return true;
            }
            if starts(line.trimmed, "thrown in ") {
                self.end();
                block.other(Role::Frame);
                return true;
            }
        }
        if let Some(frame) = line.marked.then(|| php_frame(line.trimmed)).flatten() {
            self.hint(block, frame);
            block.other(Role::Frame);
            return true;
        }
        false
    }
}

impl Php {
    /// The block ends: a line of no trace came.
    pub(super) fn end(&mut self) {
        self.open = false;
        self.message.clear();
    }

    /// A plain message came: frames no longer hint the PHP message.
    #[inline]
    pub(super) fn forget_message(&mut self) {
        self.message.clear();
    }

    /// A further line of a multi-line message; the last one ends with
    /// the location.
    fn continued(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>, left: usize, hints: Hints) {
        let mut s = StackLine::message(line.indent, None);
        s.hints = hints.clone();
        if left > 1 {
            self.more = Some((left - 1, hints));
        } else {
            s.end = php_location(line.text).map(|(at, _, _)| at);
        }
        block.message(s);
        self.message.push(block.out.len() - 1);
    }

    /// A line of a Symfony Console error block: a line of its message
    /// carries the header's hints. The block's lines are indented by two
    /// spaces and padded to one width (blank ones too, which a log reader
    /// may have dropped); the first line that is not ends the block.
    /// Whether the line was the message's.
    fn console_line(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        let Some((hints, width)) = self.console.as_mut() else {
            return false;
        };
        if line.trimmed.is_empty() {
            return false;
        }
        let w = line.text.chars().count();
        if line.indent != 2 || width.is_some_and(|width| width != w) {
            self.console = None;
            return false;
        }
        *width = Some(w);
        let mut s = StackLine::message(line.indent, None);
        s.hints = hints.clone();
        block.message(s);
        true
    }

    /// An uncaught exception's first line.
    fn uncaught(
        &mut self,
        line: &Line<'_>,
        block: &mut Block<'_, '_>,
        class: String,
        start: usize,
    ) {
        self.open = true;
        self.message.clear();
        let mut s = StackLine::message(start, Some(class));
        // The location ends this line or one of the next few.
        let ahead = block.lines[line.index..]
            .iter()
            .take(16)
            .take_while(|l| l.trim() != "Stack trace:")
            .position(|l| php_location(l).is_some());
        if let Some(n) = ahead {
            let (_, f, l) = php_location(block.lines[line.index + n]).unwrap_or_default();
            s.hints.files.push(f);
            s.hints.line = Some(l);
            if n == 0 {
                s.end = php_location(line.text).map(|(at, _, _)| at);
            } else {
                self.more = Some((n, s.hints.clone()));
            }
        }
        block.message(s);
        self.message.push(block.out.len() - 1);
    }

    /// A frame's file hints every line of the PHP message above it, or
    /// the last message when there is none.
    fn hint(&self, block: &mut Block<'_, '_>, frame: Option<(String, u32)>) {
        let Some((f, _)) = frame else {
            return;
        };
        let hinted = if self.message.is_empty() {
            block.last_message.as_slice()
        } else {
            &self.message[..]
        };
        for &i in hinted {
            let h = &mut block.out[i].hints;
            if !h.files.contains(&f) && h.files.len() < 16 {
                h.files.push(f.clone());
            }
        }
    }
}

/// PHP's uncaught exception line, `PHP Fatal error:  Uncaught X\\Y: msg`
/// (`Fatal error: Uncaught …` where errors are displayed, not logged), or
/// within one's block `Next X\\Y: msg`: the class and where the message
/// starts.
fn php_uncaught(line: &str, in_php: bool) -> Option<(String, usize)> {
    let t = trim_start(line);
    let rest = match t.strip_prefix("Next ") {
        Some(r) if in_php => r,
        _ => {
            let r = t.strip_prefix("PHP ").unwrap_or(t);
            r.strip_prefix("Fatal error:")?
                .trim_start()
                .strip_prefix("Uncaught ")?
        }
    };
    let (class, _) = rest.split_once(": ")?;
    let plausible = !class.is_empty()
        && class
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'\\' || c == b'_')
        && class
            .rsplit('\\')
            .next()
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_uppercase()));
    if !plausible {
        return None;
    }
    let start = line.len() - rest.len() + class.len() + 2;
    Some((class.trim_start_matches('\\').to_string(), start))
}

/// Symfony Console's header above an exception's message block, `In
/// Config.php line 582:`: the file and the line it was thrown at, as
/// hints.
fn console_header(t: &str) -> Option<Hints> {
    let (file, n) = t
        .strip_prefix("In ")?
        .strip_suffix(':')?
        .split_once(" line ")?;
    let plausible = file.ends_with(".php") && !file.contains(' ');
    let n: u32 = n.parse().ok()?;
    plausible.then(|| Hints {
        files: vec![file.to_string()],
        line: Some(n),
        ..Hints::default()
    })
}

/// The ` in /path/F.php:12` that ends a PHP exception's message: where it
/// starts, and the file and line, as a hint.
fn php_location(line: &str) -> Option<(usize, String, u32)> {
    let line = line.trim_end();
    let at = line.rfind(" in ")?;
    let (path, n) = line[at + 4..].rsplit_once(':')?;
    let n: u32 = n.parse().ok()?;
    let file = path.starts_with('/') && path.ends_with(".php") && !path.contains(' ');
    (file || path == "Command line code").then(|| (at, php_path(path), n))
}

/// A PHP stack frame: `#0 /path/F.php(123): C->f()` (the file, as a hint),
/// or `#1 {main}`, `#0 [internal function]: f()` (no file).
fn php_frame(t: &str) -> Option<Option<(String, u32)>> {
    let rest = t.strip_prefix('#')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = rest[digits..].strip_prefix(' ').filter(|_| digits > 0)?;
    if rest == "{main}" || rest.starts_with("[internal function]: ") {
        return Some(None);
    }
    let (path, _) = rest.split_once("): ")?;
    let (path, n) = path.rsplit_once('(')?;
    Some(Some((php_path(path), n.parse().ok()?)))
}

/// The part of a PHP file's path a repository path can end with: after
/// Composer's `vendor/<vendor>/<package>/` or Debian's
/// `/usr/share/php/<Package>/`, else the file and its folder.
fn php_path(p: &str) -> String {
    let tail = |rest: &str, skip: usize| {
        let mut r = rest;
        for _ in 0..skip {
            r = r.split_once('/').map_or(r, |x| x.1);
        }
        r.to_string()
    };
    if let Some(i) = p.rfind("/vendor/") {
        return tail(&p[i + 8..], 2);
    }
    if let Some(rest) = p.strip_prefix("/usr/share/php/") {
        return tail(rest, 1);
    }
    suffix_path(p)
}
