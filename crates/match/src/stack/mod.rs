//! Stack traces as programs print them: which lines of a pasted block are
//! error messages, where in each line the message starts (after the
//! exception's class), and which files the trace names, as location hints
//! for the message it belongs to.
//!
//! Each dialect has its module and its reader (`StackReader`): Python,
//! the JVM (Java, Kotlin, Scala), Rust, Node, .NET, PHP and Ruby. A line
//! is offered to the readers in a fixed order; the exception lines several
//! dialects print alike are read last (`exception`). Lines outside a
//! trace are messages as they are.

mod dotnet;
mod exception;
mod jvm;
mod node;
mod php;
mod python;
mod ruby;
mod rust;
#[cfg(test)]
mod tests;

use crate::bytes::{find_byte, first_space};
use crate::Hints;
use exception::{could_be_class, exception_line, CAUSE_MARKERS, THREAD_EXCEPTION};
use node::node_location_line;

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
    /// Locations the trace names for this message, most specific first;
    /// for a frame line, the place it names (path suffix and line), when
    /// it names one.
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
/// block to the next. Each line is offered to the dialects' readers in
/// turn; a line none of them takes is a message, of
/// an exception's class where it has one.
pub fn read_into(lines: &[&str], out: &mut Vec<StackLine>) {
    out.clear();
    out.reserve(lines.len());
    let mut block = Block {
        lines,
        out,
        last_message: None,
    };
    let mut readers = Readers::default();
    for (index, &text) in lines.iter().enumerate() {
        // Outside any trace, most lines of a log are plain messages: told
        // in one look at their first word, before the dozen readings below.
        if !readers.open() && plain(text) {
            block.message(StackLine::message(0, None));
            readers.php.forget_message();
            continue;
        }
        let line = Line::new(index, text);
        if readers.read(&line, &mut block) || readers.node.location(&line, &mut block) {
            continue;
        }
        // Exception lines: JVM `Exception in thread "main" x.Y: msg`,
        // `Caused by: x.Y: msg`, .NET `Unhandled exception. X: msg` and
        // ` ---> X: msg`, Node `TypeError [ERR_X]: msg`.
        let mut s = exception_line(text).unwrap_or_else(|| StackLine::message(0, None));
        readers.node.hint_uncaught(&mut s);
        block.message(s);
        if !line.trimmed.is_empty() {
            readers.php.end();
        }
    }
}

/// One line of a block, as every reader looks at it.
struct Line<'a> {
    /// Its index in the block.
    index: usize,
    text: &'a str,
    /// Without leading whitespace.
    trimmed: &'a str,
    /// How many bytes of leading whitespace it has.
    indent: usize,
    /// Whether it may start with a trace's marker ([`may_be_marker`]):
    /// most log lines start with none of those the readers ask for.
    marked: bool,
}

impl<'a> Line<'a> {
    #[inline]
    fn new(index: usize, text: &'a str) -> Line<'a> {
        let trimmed = trim_start(text);
        Line {
            index,
            text,
            trimmed,
            indent: text.len() - trimmed.len(),
            marked: may_be_marker(trimmed),
        }
    }
}

/// The block being read: its lines, the readings so far, and the last
/// message, which frames that follow their message hint.
struct Block<'a, 'o> {
    lines: &'a [&'a str],
    out: &'o mut Vec<StackLine>,
    /// Index of the last message line.
    last_message: Option<usize>,
}

impl Block<'_, '_> {
    /// Adds a message line.
    #[inline]
    fn message(&mut self, s: StackLine) {
        self.out.push(s);
        self.last_message = Some(self.out.len() - 1);
    }

    /// Adds a frame or link line.
    #[inline]
    fn other(&mut self, role: Role) {
        self.out.push(StackLine::other(role));
    }

    /// Adds a frame line that names `place` (path suffix and line).
    fn frame_at(&mut self, (file, line): (String, u32)) {
        let mut s = StackLine::other(Role::Frame);
        s.hints = Hints {
            files: vec![file],
            line: Some(line),
            ..Hints::default()
        };
        self.out.push(s);
    }

    /// A frame that follows its message: hints it ([`Block::hint_last`])
    /// and names its place.
    fn frame_after(&mut self, frame: (String, u32)) {
        self.hint_last(frame.clone());
        self.frame_at(frame);
    }

    /// A frame that follows its message (JVM, .NET, Node, Ruby): its file
    /// hints the last message, and the first frame's line too.
    fn hint_last(&mut self, (file, line): (String, u32)) {
        if let Some(i) = self.last_message {
            let h = &mut self.out[i].hints;
            if !h.files.contains(&file) && h.files.len() < 8 {
                h.files.push(file);
                if h.files.len() == 1 {
                    h.line = Some(line);
                }
            }
        }
    }
}

/// How one dialect reads its lines of a stack trace. Readers are asked in
/// a fixed order ([`Readers::read`]); the first that takes a line pushes
/// its reading to the block.
trait StackReader {
    /// Whether a trace of this dialect is open, so that the next line
    /// cannot be told plain from its first word alone.
    fn open(&self) -> bool;

    /// Reads `line` if this dialect knows it, pushing its reading to
    /// `block`; `false` leaves it to the next reader.
    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool;
}

/// Every dialect's reader, with the state of the traces open in a block.
#[derive(Default)]
struct Readers {
    php: php::Php,
    python: python::Python,
    ruby: ruby::Ruby,
    jvm: jvm::Jvm,
    dotnet: dotnet::DotNet,
    node: node::Node,
    rust: rust::Rust,
}

impl Readers {
    #[inline]
    fn open(&self) -> bool {
        self.php.open()
            || self.python.open()
            || self.ruby.open()
            || self.jvm.open()
            || self.dotnet.open()
            || self.node.open()
            || self.rust.open()
    }

    /// Offers `line` to each reader in turn. The order settles lines two
    /// dialects could claim: PHP's multi-line messages and Python's
    /// tracebacks first, since their open blocks own the lines that
    /// follow; frames before the Rust reader's message that follows a
    /// panic's location.
    #[inline]
    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        self.php.read(line, block)
            || self.python.read(line, block)
            || self.ruby.read(line, block)
            || self.jvm.read(line, block)
            || self.dotnet.read(line, block)
            || self.node.read(line, block)
            || self.rust.read(line, block)
    }
}

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
            | [b'I', b'n', b' ', ..]
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
