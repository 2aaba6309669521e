//! Stack traces as programs print them: which lines of a pasted block are
//! error messages, where in each line the message starts (after the
//! exception's class), and which files the trace names, as location hints
//! for the message it belongs to.
//!
//! - Python: `Traceback (most recent call last):`, `File "x.py", line N,
//!   in f` (hints for the exception line that ends the traceback, the
//!   innermost frame first), `ValueError: msg`, and the links `During
//!   handling of the above exception…` / `The above exception was the
//!   direct cause…`.
//! - Java, Kotlin, Scala: `Exception in thread "main" x.Y: msg`, `Caused
//!   by: x.Y: msg`, `at pkg.C.m(C.java:123)` and `... 5 more` (frames
//!   follow their message, so they hint the message above them).
//! - Rust: `thread 'main' panicked at src/x.rs:10:5:` (newer Rust adds the
//!   thread's id: `thread 'main' (4242) panicked at`; the message is the
//!   next line; older Rust put it inline), `Error: msg` with anyhow's
//!   `Caused by:` list, `note: run with RUST_BACKTRACE=1…`.
//! - Node: `Error: msg`, `TypeError [ERR_X]: msg`, `at f (file.js:10:5)`,
//!   and the `file.js:10` line Node prints above an uncaught error.
//! - C#: `Unhandled exception. X: msg`, ` ---> X: msg`, `at N.C.M() in
//!   /src/F.cs:line 42`, `--- End of inner exception stack trace ---`.
//! - PHP: `PHP Fatal error:  Uncaught X\Y: msg in /path/F.php:12` (the
//!   message may run over several lines; the ` in /path:12` that ends its
//!   last line is where it was thrown, a hint, not message text), `Stack
//!   trace:`, `#0 /path/F.php(123): f()` frames, `Next X\Y: msg in
//!   /path:12` for the exception raised from the one above, and `  thrown
//!   in /path on line 12`.
//! - Ruby: `/gems/rack/lib/rack/utils.rb:633:in `status_code': msg
//!   (ArgumentError)` (Ruby 3.4 quotes `'Rack::Utils.status_code'`): the
//!   message without its class, the line's own location as its first
//!   hint, then the `\tfrom x.rb:12:in `m'` lines below it, and `\t ...
//!   92 levels...`.
//!
//! Lines outside a trace are messages as they are.

use crate::bytes::{colon_space, find_byte, first_space};
use crate::Hints;

/// What a line of a stack trace is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A message to trace (a log line, or an exception's message).
    Message,
    /// A frame (`File "x.py", line 3`, `at C.m(C.java:3)`), or the source
    /// line a Python frame shows.
    Frame,
    /// A header or link between exceptions (`Traceback …`, `Caused by:`,
    /// `During handling …`).
    Link,
}

/// One line of a block, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackLine {
    /// What it is.
    pub role: Role,
    /// Byte offset where the message starts (after `Caused by: x.Y: `).
    pub start: usize,
    /// Byte offset where the message ends, when the line goes on after it
    /// (Ruby's ` (ArgumentError)`, PHP's ` in /path/F.php:12`); `None`: at
    /// the end of the line.
    pub end: Option<usize>,
    /// The exception class the line names, if any.
    pub class: Option<String>,
    /// Locations the trace names for this message, most specific first.
    pub hints: Hints,
    /// Whether the trace's shape shows where the message starts (a
    /// Python traceback's last line, `Caused by: `); otherwise `start` is
    /// a guess from a class-like head, and the whole line is tried first.
    pub certain: bool,
}

impl StackLine {
    fn message(start: usize, class: Option<String>) -> StackLine {
        StackLine {
            role: Role::Message,
            start,
            end: None,
            class,
            hints: Hints::default(),
            certain: true,
        }
    }

    fn other(role: Role) -> StackLine {
        StackLine {
            role,
            start: 0,
            end: None,
            class: None,
            hints: Hints::default(),
            certain: true,
        }
    }
}

/// Reads a block of lines (a pasted trace, or a batch of a log).
pub fn read(lines: &[&str]) -> Vec<StackLine> {
    let mut out = Vec::with_capacity(lines.len());
    read_into(lines, &mut out);
    out
}

/// [`read`] into `out` (cleared first), which keeps its memory from one
/// block to the next.
pub fn read_into(lines: &[&str], out: &mut Vec<StackLine>) {
    out.clear();
    out.reserve(lines.len());
    // Python frames seen since the last `Traceback`, innermost last.
    let mut py_frames: Vec<(String, u32)> = Vec::new();
    // Frames of the earlier tracebacks of one chain.
    let mut chain_frames: Vec<(String, u32)> = Vec::new();
    let mut linked = false;
    let mut in_python = false;
    // The message a following Rust panic line belongs to.
    let mut rust_panic_at: Option<(String, u32)> = None;
    let mut in_caused_list = false;
    // Node's `file.js:10` line above an uncaught error.
    let mut node_at: Option<(String, u32)> = None;
    let mut node_source = false;
    // Index of the last message line, for frames that follow it.
    let mut last_message: Option<usize> = None;
    // PHP: inside an uncaught exception's block (`Next …` may follow), and
    // the lines of a message still to come, with the message's hints.
    let mut in_php = false;
    let mut php_more: Option<(usize, Hints)> = None;
    // The lines of the PHP message that frames hint.
    let mut php_message: Vec<usize> = Vec::new();
    for (i, &line) in lines.iter().enumerate() {
        // Outside any trace, most lines of a log are plain messages: told
        // in one look at their first word, before the dozen readings below.
        let idle = php_more.is_none()
            && !in_php
            && !in_python
            && !node_source
            && !in_caused_list
            && rust_panic_at.is_none()
            && node_at.is_none();
        if idle && plain(line) {
            out.push(StackLine::message(0, None));
            last_message = Some(out.len() - 1);
            php_message.clear();
            continue;
        }
        let trimmed = trim_start(line);
        let indent = line.len() - trimmed.len();
        // Most log lines start with none of the markers asked for below.
        let marked = may_be_marker(trimmed);
        // PHP.
        if let Some((left, hints)) = php_more.take() {
            // A further line of a multi-line message; the last one ends
            // with the location.
            let mut s = StackLine::message(indent, None);
            s.hints = hints.clone();
            if left > 1 {
                php_more = Some((left - 1, hints));
            } else {
                s.end = php_location(line).map(|(at, _, _)| at);
            }
            out.push(s);
            last_message = Some(out.len() - 1);
            php_message.push(out.len() - 1);
            continue;
        }
        if let Some((class, start)) = marked.then(|| php_uncaught(line, in_php)).flatten() {
            in_php = true;
            php_message.clear();
            let mut s = StackLine::message(start, Some(class));
            // The location ends this line or one of the next few.
            let ahead = lines[i..]
                .iter()
                .take(16)
                .take_while(|l| l.trim() != "Stack trace:")
                .position(|l| php_location(l).is_some());
            if let Some(n) = ahead {
                let (_, f, l) = php_location(lines[i + n]).unwrap_or_default();
                s.hints.files.push(f);
                s.hints.line = Some(l);
                if n == 0 {
                    s.end = php_location(line).map(|(at, _, _)| at);
                } else {
                    php_more = Some((n, s.hints.clone()));
                }
            }
            out.push(s);
            last_message = Some(out.len() - 1);
            php_message.push(out.len() - 1);
            continue;
        }
        if in_php {
            if trimmed == "Stack trace:" {
                out.push(StackLine::other(Role::Link));
                continue;
            }
            if starts(trimmed, "thrown in ") {
                in_php = false;
                php_message.clear();
                out.push(StackLine::other(Role::Frame));
                continue;
            }
        }
        if let Some(frame) = marked.then(|| php_frame(trimmed)).flatten() {
            let hinted = if php_message.is_empty() {
                last_message.into_iter().collect()
            } else {
                php_message.clone()
            };
            for (i, frame) in hinted.into_iter().zip(std::iter::repeat(frame)) {
                let Some((f, _)) = frame else { break };
                let h = &mut out[i].hints;
                if !h.files.contains(&f) && h.files.len() < 16 {
                    h.files.push(f);
                }
            }
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        // Python.
        if marked && starts(trimmed, "Traceback (most recent call last)") {
            in_python = true;
            py_frames.clear();
            if !linked {
                chain_frames.clear();
            }
            linked = false;
            out.push(StackLine::other(Role::Link));
            continue;
        }
        if marked
            && (starts(trimmed, "During handling of the above exception")
                || starts(trimmed, "The above exception was the direct cause"))
        {
            linked = true;
            out.push(StackLine::other(Role::Link));
            continue;
        }
        if in_python {
            if let Some(frame) = python_frame(trimmed) {
                py_frames.push(frame);
                out.push(StackLine::other(Role::Frame));
                continue;
            }
            if indent > 0 || trimmed.starts_with('^') || trimmed.starts_with('~') {
                // The frame's source line and its carets.
                out.push(StackLine::other(Role::Frame));
                continue;
            }
            if let Some((class, start)) = exception_head(line) {
                let mut s = StackLine::message(start, Some(class));
                // This traceback's frames first, then those of the
                // exceptions it was raised from or while handling.
                s.hints = hints(py_frames.iter().rev().chain(chain_frames.iter().rev()));
                out.push(s);
                in_python = false;
                chain_frames.append(&mut py_frames);
                continue;
            }
            in_python = false;
        }
        // Ruby: `x.rb:3:in `m': msg (Class)`, frames below it.
        if let Some(s) = ruby_message(line) {
            out.push(s);
            last_message = Some(out.len() - 1);
            continue;
        }
        if marked && trimmed.starts_with("... ") && trimmed.ends_with(" levels...") {
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        // JVM, .NET, Node and Ruby frames hint the message above them.
        if let Some(frame) = marked
            .then(|| {
                jvm_frame(trimmed)
                    .or_else(|| dotnet_frame(trimmed))
                    .or_else(|| node_frame(trimmed))
                    .or_else(|| ruby_frame(trimmed))
            })
            .flatten()
        {
            if let Some(i) = last_message {
                let h = &mut out[i].hints;
                if !h.files.contains(&frame.0) && h.files.len() < 8 {
                    h.files.push(frame.0.clone());
                    if h.files.len() == 1 {
                        h.line = Some(frame.1);
                    }
                }
            }
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        if node_source {
            // The source line and caret Node shows under its location; the
            // caret line ends them (a log read without its blank lines
            // goes straight on to the error).
            if trimmed.is_empty() || trimmed.bytes().all(|c| c == b'^' || c == b'~') {
                node_source = false;
            }
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        if marked
            && ((trimmed.starts_with("... ") && trimmed.ends_with(" more"))
                || (trimmed.starts_with("at ")
                    && (trimmed.ends_with(')') || trimmed.contains(':'))
                    && !trimmed.contains(": "))
                || starts(trimmed, "--- End of inner exception stack trace")
                || starts(trimmed, "--- End of stack trace from previous location")
                || starts(trimmed, "note: run with `RUST_BACKTRACE")
                || trimmed == "stack backtrace:")
        {
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        // Rust.
        if let Some(rest) = marked
            .then(|| trimmed.strip_prefix("thread '"))
            .flatten()
            .and_then(rust_panic_rest)
        {
            if let Some(loc) = rest.strip_suffix(':') {
                // Rust 1.73+: the location, then the message on its own line.
                rust_panic_at = rust_location(loc);
                out.push(StackLine::other(Role::Link));
                continue;
            }
            // Older: `panicked at 'msg', src/x.rs:3:5`.
            if let Some((msg, loc)) = rest.rsplit_once("', ") {
                let start = line.len() - rest.len() + 1;
                let mut s = StackLine::message(start, None);
                if let Some((f, l)) = rust_location(loc) {
                    s.hints.files.push(f);
                    s.hints.line = Some(l);
                }
                let _ = msg;
                out.push(s);
                last_message = Some(out.len() - 1);
                continue;
            }
        }
        if let Some((f, l)) = rust_panic_at.take() {
            let mut s = StackLine::message(indent, None);
            s.hints.files.push(f);
            s.hints.line = Some(l);
            out.push(s);
            last_message = Some(out.len() - 1);
            continue;
        }
        if marked && trimmed == "Caused by:" {
            in_caused_list = true;
            out.push(StackLine::other(Role::Link));
            continue;
        }
        if in_caused_list {
            if indent > 0 && !trimmed.is_empty() {
                // `    0: msg` or `    msg`.
                let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
                let start = if digits > 0 && trimmed[digits..].starts_with(": ") {
                    indent + digits + 2
                } else {
                    indent
                };
                out.push(StackLine::message(start, None));
                last_message = Some(out.len() - 1);
                continue;
            }
            in_caused_list = false;
        }
        // Node's location line above an uncaught error: `/app/x.js:10`.
        if let Some(loc) = node_location_line(trimmed) {
            node_at = Some(loc);
            node_source = true;
            out.push(StackLine::other(Role::Frame));
            continue;
        }
        // Exception lines: JVM `Exception in thread "main" x.Y: msg`,
        // `Caused by: x.Y: msg`, .NET `Unhandled exception. X: msg` and
        // ` ---> X: msg`, Node `TypeError [ERR_X]: msg`.
        let mut s = exception_line(line).unwrap_or_else(|| StackLine::message(0, None));
        if let Some((f, l)) = node_at.take() {
            s.hints.files.push(f);
            s.hints.line = Some(l);
        }
        out.push(s);
        last_message = Some(out.len() - 1);
        if !trimmed.is_empty() {
            in_php = false;
            php_message.clear();
        }
    }
}

/// Hints from frames, innermost first: the innermost frame's line too.
fn hints<'a>(frames: impl Iterator<Item = &'a (String, u32)>) -> Hints {
    let mut h = Hints::default();
    for (f, l) in frames {
        if h.files.is_empty() {
            h.line = Some(*l);
        }
        if !h.files.contains(f) && h.files.len() < 16 {
            h.files.push(f.clone());
        }
    }
    h
}

/// `File "/x/y.py", line 3, in f`.
fn python_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("File \"")?;
    let (path, rest) = rest.split_once("\", line ")?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((suffix_path(path), n.parse().ok()?))
}

/// `at pkg.C.m(C.java:123)`, `at pkg.C.m(C.kt:9)`; the file name is all a
/// JVM frame names, and the package gives its folders.
fn jvm_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("at ")?;
    let open = rest.rfind('(')?;
    let inner = rest[open + 1..].strip_suffix(')')?;
    let (file, line) = inner.rsplit_once(':')?;
    if !(file.ends_with(".java") || file.ends_with(".kt") || file.ends_with(".scala")) {
        return None;
    }
    let line: u32 = line.parse().ok()?;
    // `org.apache.commons.lang3.Validate.notNull` → org/apache/commons/lang3/Validate.java
    // `java.base/java.util.Objects.requireNonNull`, `app//com.x.Y.m`: a
    // module or class loader before the class.
    let qualified = &rest[..open];
    let qualified = qualified.rsplit('/').next().unwrap_or(qualified);
    let parts: Vec<&str> = qualified.split('.').collect();
    let dirs = parts
        .iter()
        .take_while(|p| p.starts_with(|c: char| c.is_ascii_lowercase()))
        .copied()
        .collect::<Vec<_>>();
    let path = if dirs.is_empty() {
        file.to_string()
    } else {
        format!("{}/{file}", dirs.join("/"))
    };
    Some((path, line))
}

/// `path.rb:12:in `meth'` (or `in 'meth'`, Ruby 3.4): the location and
/// the rest of the line after the method's closing quote.
fn ruby_location(t: &str) -> Option<(String, u32, &str)> {
    // The first `:in `` if the line has one, else the first `:in '`. The
    // location before it has no space, so it is looked for before the
    // line's first space only: every line of a log is asked.
    let b = t.as_bytes();
    let head = &b[..first_space(b).map_or(b.len(), |sp| sp + 1)];
    // Most lines' first word has no colon at all.
    find_byte(head, b':')?;
    let (mut tick, mut quote) = (None, None);
    for i in (0..head.len()).filter(|&i| head[i] == b':') {
        if b[i + 1..].starts_with(b"in ") {
            match b.get(i + 4) {
                Some(b'`') => {
                    tick = Some(i);
                    break;
                }
                Some(b'\'') if quote.is_none() => quote = Some(i),
                _ => {}
            }
        }
    }
    let i = match (tick, quote) {
        (Some(i), _) => i,
        // A `:in `` further on would have been the one taken, and failed.
        (None, Some(i)) if memchr::memmem::find(&b[head.len()..], b":in `").is_none() => i,
        _ => return None,
    };
    let (loc, rest) = (&t[..i], &t[i + 5..]);
    let (path, line) = loc.rsplit_once(':')?;
    if path.is_empty() || path.contains(' ') || !line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let line: u32 = line.parse().ok()?;
    let close = rest.find('\'')?;
    Some((suffix_path(path), line, &rest[close + 1..]))
}

/// Ruby's uncaught error: `path.rb:12:in `meth': msg (Class)`.
fn ruby_message(line: &str) -> Option<StackLine> {
    let (path, n, rest) = ruby_location(line)?;
    let msg = rest.strip_prefix(": ")?;
    let start = line.len() - msg.len();
    let mut s = StackLine::message(start, None);
    // ` (Rack::Lint::LintError)` after the (first line of the) message.
    if let Some(open) = msg.strip_suffix(')').and_then(|m| m.rfind(" (")) {
        let class = &msg[open + 2..msg.len() - 1];
        let plausible = class.starts_with(|c: char| c.is_ascii_uppercase())
            && class
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b':' || c == b'_');
        if plausible {
            s.class = Some(class.to_string());
            s.end = Some(start + open);
        }
    }
    s.hints.files.push(path);
    s.hints.line = Some(n);
    Some(s)
}

/// `from path.rb:12:in `meth'`.
fn ruby_frame(t: &str) -> Option<(String, u32)> {
    let (path, line, rest) = ruby_location(t.strip_prefix("from ")?)?;
    rest.is_empty().then_some((path, line))
}

/// `at N.C.M() in /src/F.cs:line 42`.
fn dotnet_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("at ")?;
    let (_, loc) = rest.rsplit_once(" in ")?;
    let (file, line) = loc.rsplit_once(":line ")?;
    Some((suffix_path(file), line.trim().parse().ok()?))
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
fn node_location_line(t: &str) -> Option<(String, u32)> {
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

/// The part of an absolute path a repository path can end with: installed
/// packages live under `site-packages/`, `node_modules/`, a registry; the
/// repository's own path starts after those.
fn suffix_path(p: &str) -> String {
    for marker in ["site-packages/", "dist-packages/", "node_modules/", "/src/"] {
        if let Some(i) = p.rfind(marker) {
            let rest = &p[i + marker.len()..];
            if marker == "/src/" {
                return rest.to_string();
            }
            if marker == "node_modules/" {
                // An npm package is its repository: `express/lib/router/
                // route.js` is the repository's `lib/router/route.js`.
                let skip = usize::from(rest.starts_with('@')) + 1;
                return match rest.splitn(skip + 1, '/').nth(skip) {
                    Some(inner) => inner.to_string(),
                    None => rest.to_string(),
                };
            }
            // `requests/adapters.py` (drop the package's folder name? no:
            // keep it, repositories often have `src/requests/…`).
            return rest.to_string();
        }
    }
    p.rsplit('/')
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("/")
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

/// Whether `t` may start with a marker of a trace line (`at `, `from `,
/// `Caused by:`, `Traceback`, `#0 `, `PHP Fatal error:`, `... 5 more`,
/// `thread '…' panicked`, …), judged from its first two bytes. Every line
/// of a log is asked for a dozen markers, and most lines can have none.
fn may_be_marker(t: &str) -> bool {
    matches!(
        t.as_bytes(),
        [b'a', b't', ..]
            | [b'f', b'r', ..]
            | [b'F', b'a', ..]
            | [b'P', b'H', ..]
            | [b'N', b'e', ..]
            | [b'T', b'r' | b'h', ..]
            | [b'D', b'u', ..]
            | [b'.', b'.', ..]
            | [b'-', b'-', ..]
            | [b'n', b'o', ..]
            | [b's', b't', ..]
            | [b't', b'h', ..]
            | [b'C', b'a', ..]
            | [b'S', b't', ..]
            | [b'#', ..]
    )
}

/// Whether `t` starts with `p`, asking its first byte first: every line of
/// a log is asked for a dozen markers, and most differ there, before a
/// comparison call.
fn starts(t: &str, p: &str) -> bool {
    t.as_bytes().first() == p.as_bytes().first() && t.starts_with(p)
}

/// `s` without leading whitespace. Most log lines start with a visible
/// ASCII byte, which needs no decoding to tell.
fn trim_start(s: &str) -> &str {
    if s.as_bytes().first().is_some_and(u8::is_ascii_graphic) {
        s
    } else {
        s.trim_start()
    }
}

/// What may come before an exception's class: the cause of another
/// (JVM, .NET) or an uncaught one (.NET, PHP).
const CAUSE_MARKERS: [&str; 5] = [
    "Caused by: ",
    "Suppressed: ",
    "Unhandled exception. ",
    "---> ",
    "Uncaught ",
];

/// How the names of exception classes end, whatever their package.
const CLASS_ENDINGS: [&str; 6] = [
    "Error",
    "Exception",
    "Throwable",
    "Failure",
    "Fault",
    "Exit",
];

/// How the JVM starts an uncaught exception's line.
const THREAD_EXCEPTION: &str = "Exception in thread \"";

/// Whether `line`, read outside any trace, is a plain message: no marker,
/// no location and no exception head can start it, so that the whole
/// reading in [`read_into`] would find nothing either. Decided from its
/// first word: a Ruby location has a colon in it, a Node exception's
/// ` [code]` follows it, and a class before `: ` is all of it.
fn plain(line: &str) -> bool {
    let b = line.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_graphic) || may_be_marker(line) {
        return false;
    }
    let sp = first_space(b);
    let word = &b[..sp.unwrap_or(b.len())];
    let first_word_plain = match find_byte(word, b':') {
        // No colon: no Ruby location, and no exception head unless Node's
        // ` [code]` follows.
        None => sp.is_none_or(|sp| b.get(sp + 1) != Some(&b'[')),
        // `pkg: msg`, the colon ending the word: no Ruby location (whose
        // colon is followed by `in `), and no exception head unless the
        // word could be a class.
        Some(c) => c + 1 == word.len() && sp.is_some() && !could_be_class(&word[..c]),
    };
    first_word_plain
        && !starts(line, THREAD_EXCEPTION)
        && !CAUSE_MARKERS.iter().any(|p| starts(line, p))
        // A Node location has no space (its path has none, and only digits
        // follow its last colon).
        && (sp.is_some() || node_location_line(line).is_none())
}

/// Whether `name` could name an exception class: dotted, or ending like
/// one (`exception_line` accepts no other head).
fn could_be_class(name: &[u8]) -> bool {
    name.contains(&b'.') || CLASS_ENDINGS.iter().any(|e| name.ends_with(e.as_bytes()))
}

/// JVM, .NET and Node exception lines.
fn exception_line(line: &str) -> Option<StackLine> {
    let t = trim_start(line);
    let indent = line.len() - t.len();
    let mut at = indent;
    let mut rest = t;
    let mut certain = false;
    for p in CAUSE_MARKERS {
        if starts(rest, p) {
            at += p.len();
            rest = &rest[p.len()..];
            certain = true;
        }
    }
    if let Some(r) = starts(rest, THREAD_EXCEPTION).then(|| &rest[THREAD_EXCEPTION.len()..]) {
        let close = r.find("\" ")?;
        at += THREAD_EXCEPTION.len() + close + 2;
        rest = &r[close + 2..];
        certain = true;
    }
    // Most lines have a space before any `: `, and a class has none: the
    // head before `: ` then holds that space, and so does the class cut
    // from it unless the space starts Node's ` [code]`. Told by the first
    // space alone, before any search for `: `.
    let b = rest.as_bytes();
    if let Some(sp) = first_space(b).filter(|&sp| sp > 0) {
        if b[sp - 1] != b':' && b.get(sp + 1) != Some(&b'[') {
            return None;
        }
    }
    // Node: `TypeError [ERR_INVALID_ARG_TYPE]: msg`.
    let head = &rest[..colon_space(rest.as_bytes())?];
    let class = head
        .as_bytes()
        .windows(2)
        .position(|w| w == b" [")
        .map_or(head, |i| &head[..i]);
    let name = memchr::memrchr(b'.', class.as_bytes()).map_or(class, |i| &class[i + 1..]);
    let known = CLASS_ENDINGS.iter().any(|s| name.ends_with(s));
    let dotted_class = class.contains('.')
        && class
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'$')
        && name.starts_with(|c: char| c.is_ascii_uppercase());
    if !(known || dotted_class) || class.contains(' ') {
        return None;
    }
    // `Error: msg` alone is how anyhow, Node and many CLIs print any
    // error: the message follows; the generic class says nothing.
    let class = (name != "Error").then(|| class.to_string());
    let mut s = StackLine::message(at + head.len() + 2, class);
    s.certain = certain || known;
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(block: &str) -> Vec<(Role, String, Vec<String>)> {
        let lines: Vec<&str> = block.lines().collect();
        read(&lines)
            .into_iter()
            .zip(&lines)
            .map(|(s, l)| (s.role, l[s.start..].to_string(), s.hints.files))
            .collect()
    }

    #[test]
    fn node_location_lines_end_in_a_script_and_its_line() {
        let loc = |t: &str| node_location_line(t).map(|(_, l)| l);
        assert_eq!(loc("/app/server.js:10"), Some(10));
        assert_eq!(loc("src/index.tsx:+7"), Some(7));
        for t in [
            "window 392545",
            "a.js:1x2",
            "ratio 3:2",
            "x.js:",
            "x.js:++2",
            "my app.js:3",
            "main.go:12",
        ] {
            assert_eq!(loc(t), None, "{t}");
        }
    }

    #[test]
    fn plain_lines_are_those_no_reading_finds_anything_in() {
        // `plain` is a shortcut past the readings of `read_into`: a line it
        // calls plain must be one that each of them passes over.
        let lines = [
            "failed to open /var/lib/x: permission denied",
            "one or more Instructions must be specified",
            "duration: 67365: seconds out of range",
            "proto: bad default int64 \"x\"",
            "etcdserver: request timed out",
            "grpc: [transport] closing",
            "x.go:12: bad",
            "SystemExit: 1",
            "io.EOF: x",
            "StopIteration: x",
            "pkg: x.rb:3:in `m': msg",
            "/gems/rack/utils.rb:633:in `status_code': bad (ArgumentError)",
            "x.rb:3:in 'M.m': msg",
            "TypeError [ERR_INVALID_ARG_TYPE]: bad arg",
            "ValueError: bad value",
            "Error: boom",
            "Caused by: java.io.IOException: x",
            "Exception in thread \"main\" java.lang.Error: x",
            "Unhandled exception. System.Exception: x",
            "---> System.Exception: inner",
            "Uncaught Error: x",
            "/app/server.js:10",
            "server.js:10",
            "window 392545",
            "at Object.<anonymous> (/app/x.js:1:1)",
            "  at C.m(C.java:3)",
            "\tfrom x.rb:1:in `m'",
            "StopIteration",
            "a:b c",
            "key=value other=1",
            "#0 /x.php(3): f()",
            "thread 'main' panicked at src/main.rs:2:5:",
            "",
            " ",
            "é accent first",
        ];
        let mut plain_seen = 0;
        for line in lines {
            if !plain(line) {
                continue;
            }
            plain_seen += 1;
            assert_eq!(trim_start(line), line, "{line:?}");
            assert!(!may_be_marker(line), "{line:?}");
            assert!(ruby_message(line).is_none(), "{line:?}");
            assert!(node_location_line(line).is_none(), "{line:?}");
            assert!(exception_line(line).is_none(), "{line:?}");
            let read = read(&[line]);
            assert_eq!(read, vec![StackLine::message(0, None)], "{line:?}");
        }
        // The common lines take the shortcut; the marked ones do not.
        assert!(plain("failed to open /var/lib/x: permission denied"));
        assert!(plain("window 392545"));
        assert!(!plain("ValueError: bad value"));
        assert!(plain("proto: bad default int64 \"x\""));
        assert!(plain("duration: 67365: seconds out of range"));
        assert!(!plain("Error: boom"));
        assert!(!plain("java.io.IOException: x"));
        assert!(!plain("a:b c"));
        assert!(!plain("x.rb:3:in 'M.m': msg"));
        assert!(!plain("TypeError [ERR_INVALID_ARG_TYPE]: bad arg"));
        assert!(!plain("server.js:10"));
        assert!(!plain("Caused by: java.io.IOException: x"));
        assert!(plain_seen >= 4);
    }

    #[test]
    fn python_chained_traceback() {
        let r = roles(
            "Traceback (most recent call last):
  File \"/usr/lib/python3/dist-packages/urllib3/connection.py\", line 198, in _new_conn
    sock = connection.create_connection(
ConnectionRefusedError: [Errno 111] Connection refused

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File \"/tmp/x.py\", line 2, in <module>
  File \"/usr/lib/python3/dist-packages/requests/adapters.py\", line 700, in send
    raise ConnectionError(e, request=request)
requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=1): Max retries",
        );
        assert_eq!(r[3].0, Role::Message);
        assert_eq!(r[3].1, "[Errno 111] Connection refused");
        assert_eq!(r[3].2, vec!["urllib3/connection.py"]);
        assert_eq!(r[5].0, Role::Link);
        let last = r.last().unwrap();
        assert_eq!(
            last.1,
            "HTTPConnectionPool(host='127.0.0.1', port=1): Max retries"
        );
        assert_eq!(last.2[0], "requests/adapters.py");
    }

    #[test]
    fn java_caused_by_and_frames_after() {
        let r = roles(
            "Exception in thread \"main\" java.lang.IllegalStateException: cannot start: port taken
\tat com.acme.Server.start(Server.java:42)
\tat com.acme.Main.main(Main.java:7)
Caused by: java.net.BindException: Address already in use
\t... 2 more",
        );
        assert_eq!(r[0].1, "cannot start: port taken");
        assert_eq!(r[0].2, vec!["com/acme/Server.java", "com/acme/Main.java"]);
        assert_eq!(r[1].0, Role::Frame);
        assert_eq!(r[3].1, "Address already in use");
        assert_eq!(r[4].0, Role::Frame);
        let r = roles(
            "java.lang.NullPointerException: The validated object is null
\tat java.base/java.util.Objects.requireNonNull(Objects.java:336)
\tat app//org.apache.commons.lang3.Validate.notNull(Validate.java:224)",
        );
        assert_eq!(
            r[0].2,
            vec![
                "java/util/Objects.java",
                "org/apache/commons/lang3/Validate.java"
            ]
        );
    }

    #[test]
    fn rust_panic_and_anyhow_causes() {
        let r = roles(
            "thread 'main' panicked at src/main.rs:10:5:
index out of range
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
Error: failed to load config

Caused by:
    0: reading /etc/x.toml
    1: No such file or directory (os error 2)",
        );
        assert_eq!(r[1].1, "index out of range");
        assert_eq!(r[1].2, vec!["src/main.rs"]);
        assert_eq!(r[2].0, Role::Frame);
        assert_eq!(r[3].1, "failed to load config");
        assert_eq!(r[6].1, "reading /etc/x.toml");
        assert_eq!(r[7].1, "No such file or directory (os error 2)");
    }

    #[test]
    fn rust_panic_with_thread_id() {
        let r = roles(
            "thread 'main' (4242) panicked at src/main.rs:55:60:
config must parse: Error(\"EOF while parsing a value\", line: 1, column: 3)",
        );
        assert_eq!(r[0].0, Role::Link);
        assert_eq!(
            r[1].1,
            "config must parse: Error(\"EOF while parsing a value\", line: 1, column: 3)"
        );
        assert_eq!(r[1].2, vec!["src/main.rs"]);
    }

    #[test]
    fn node_uncaught_without_blank_lines() {
        // A log read with its blank lines dropped: the caret line ends the
        // source Node shows, and the error under it is a message.
        let r = roles(
            "/app/node_modules/express/lib/application.js:217
    throw new TypeError('app.use() requires a middleware function')
    ^
TypeError: app.use() requires a middleware function
    at Function.use (/app/node_modules/express/lib/application.js:217:11)
Node.js v20.20.2",
        );
        assert_eq!(r[2].0, Role::Frame);
        assert_eq!(r[3].0, Role::Message);
        assert_eq!(r[3].1, "app.use() requires a middleware function");
        assert_eq!(r[3].2, vec!["lib/application.js"]);
        assert_eq!(r[4].0, Role::Frame);
        assert_eq!(r[5].0, Role::Message);
    }

    #[test]
    fn ruby_uncaught_error_and_from_lines() {
        let block = "/usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/utils.rb:633:in `block in status_code': Unrecognized status code :bogus (ArgumentError)
\tfrom /usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/utils.rb:633:in `fetch'
\tfrom /gems/rack-2.2.22/lib/rack/mock.rb:56:in `get'
\t ... 92 levels...
\tfrom main.rb:51:in `<main>'
main.rb:3:in 'Object#go': limit (4) exceeded (3) (Rack::QueryParser::QueryLimitError)
x.rb:1:in `<main>': unhandled exception";
        let lines: Vec<&str> = block.lines().collect();
        let r = read(&lines);
        let msg = |i: usize| &lines[i][r[i].start..r[i].end.unwrap_or(lines[i].len())];
        assert_eq!(r[0].role, Role::Message);
        assert_eq!(msg(0), "Unrecognized status code :bogus");
        assert_eq!(r[0].class.as_deref(), Some("ArgumentError"));
        assert_eq!(
            r[0].hints.files,
            vec!["rack/utils.rb", "rack/mock.rb", "main.rb"]
        );
        assert_eq!(r[0].hints.line, Some(633));
        assert!(r[1..5].iter().all(|s| s.role == Role::Frame));
        assert_eq!(msg(5), "limit (4) exceeded (3)");
        assert_eq!(
            r[5].class.as_deref(),
            Some("Rack::QueryParser::QueryLimitError")
        );
        assert_eq!(r[5].hints.line, Some(3));
        assert_eq!(msg(6), "unhandled exception");
        assert_eq!(r[6].class, None);
    }

    #[test]
    fn node_and_dotnet() {
        let r = roles(
            "/app/server.js:12
    throw new Error(`bad port ${port}`);
    ^

TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string
    at Object.open (node:fs:580:10)
    at load (/app/lib/config.js:8:3)
Unhandled exception. System.InvalidOperationException: Sequence contains no elements
 ---> System.IO.IOException: disk full
   at Shop.Orders.Save() in /src/Shop/Orders.cs:line 42",
        );
        let msg: Vec<&(Role, String, Vec<String>)> = r
            .iter()
            .filter(|x| x.0 == Role::Message && !x.1.trim().is_empty())
            .collect();
        assert!(msg
            .iter()
            .any(|m| m.1 == "The \"path\" argument must be of type string"
                && m.2.contains(&"lib/config.js".to_string())));
        assert!(msg.iter().any(|m| m.1 == "Sequence contains no elements"));
        assert!(msg
            .iter()
            .any(|m| m.1 == "disk full" && m.2 == vec!["Shop/Orders.cs"]));
    }

    #[test]
    fn php_uncaught_with_previous_and_multiline_message() {
        let block = "PHP Fatal error:  Uncaught InvalidArgumentException: Invalid port: 70000. Must be between 0 and 65535 in /usr/share/php/GuzzleHttp/Psr7/Uri.php:649
Stack trace:
#0 /usr/share/php/GuzzleHttp/Psr7/Uri.php(569): GuzzleHttp\\Psr7\\Uri->filterPort()
#1 /app/main.php(33): GuzzleHttp\\Psr7\\Uri::fromParts()
#2 [internal function]: {closure}()
#3 {main}

Next GuzzleHttp\\Psr7\\Exception\\MalformedUriException: Invalid port: 70000 in /usr/share/php/GuzzleHttp/Psr7/Uri.php:361
Stack trace:
#0 /app/vendor/acme/shop/src/Checkout.php(33): GuzzleHttp\\Psr7\\Uri::fromParts()
#1 {main}
  thrown in /usr/share/php/GuzzleHttp/Psr7/Uri.php on line 361
PHP Fatal error:  Uncaught UnexpectedValueException: The stream or file \"/x.log\" could not be opened in append mode: Permission denied
The exception occurred while attempting to log: hello in /usr/share/php/Monolog/Handler/StreamHandler.php:146
Stack trace:
#0 /usr/share/php/Monolog/Logger.php(399): Monolog\\Handler\\StreamHandler->handle()
#1 {main}
  thrown in /usr/share/php/Monolog/Handler/StreamHandler.php on line 146
Fatal error: Uncaught Exception: boom in Command line code:1
InvalidArgumentException: caught and printed";
        let lines: Vec<&str> = block.lines().collect();
        let read = read(&lines);
        let text = |i: usize| {
            let s = &read[i];
            &lines[i][s.start..s.end.unwrap_or(lines[i].len())]
        };
        assert_eq!(read[0].role, Role::Message);
        assert_eq!(text(0), "Invalid port: 70000. Must be between 0 and 65535");
        assert_eq!(read[0].class.as_deref(), Some("InvalidArgumentException"));
        assert_eq!(
            read[0].hints.files,
            vec!["Psr7/Uri.php".to_string(), "app/main.php".to_string()]
        );
        assert_eq!(read[0].hints.line, Some(649));
        assert_eq!(read[1].role, Role::Link);
        for i in 2..=5 {
            assert_eq!(read[i].role, Role::Frame, "{}", lines[i]);
        }
        assert_eq!(text(7), "Invalid port: 70000");
        assert_eq!(
            read[7].class.as_deref(),
            Some("GuzzleHttp\\Psr7\\Exception\\MalformedUriException")
        );
        assert_eq!(
            read[7].hints.files,
            vec!["Psr7/Uri.php".to_string(), "src/Checkout.php".to_string()]
        );
        assert_eq!(read[7].hints.line, Some(361));
        assert_eq!(read[11].role, Role::Frame);
        // Both lines of a multi-line message, hinted alike.
        assert_eq!(
            text(12),
            "The stream or file \"/x.log\" could not be opened in append mode: Permission denied"
        );
        assert_eq!(
            text(13),
            "The exception occurred while attempting to log: hello"
        );
        for i in [12, 13] {
            assert_eq!(
                read[i].hints.files,
                vec![
                    "Handler/StreamHandler.php".to_string(),
                    "Logger.php".to_string()
                ]
            );
            assert_eq!(read[i].hints.line, Some(146));
        }
        assert_eq!(read[17].role, Role::Frame);
        assert_eq!(text(18), "boom");
        // After the block, `Next`-like and caught lines are plain again.
        assert_eq!(text(19), "caught and printed");
        assert!(read[19].hints.files.is_empty());
    }
}
