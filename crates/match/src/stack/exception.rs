//! Exception lines that several dialects print alike: the JVM's
//! `Exception in thread "main" x.Y: msg` and `Caused by: x.Y: msg`, .NET's
//! `Unhandled exception. X: msg` and ` ---> X: msg`, Node's
//! `TypeError [ERR_X]: msg`, and anyone's `Error: msg`.

use super::{first_space, starts, trim_start, StackLine};
use crate::bytes::colon_space;

/// What may come before an exception's class: the cause of another
/// (JVM, .NET) or an uncaught one (.NET, PHP).
pub(super) const CAUSE_MARKERS: [&str; 5] = [
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

/// How Python's warning categories end: they print as classes do
/// (`InsecureRequestWarning: Unverified HTTPS request …`). The word alone,
/// `Warning: `, is a level marker.
const WARNING_CLASS: &str = "Warning";

/// How the JVM starts an uncaught exception's line.
pub(super) const THREAD_EXCEPTION: &str = "Exception in thread \"";

/// Whether `name` could name an exception class: dotted, or ending like
/// one (`exception_line` accepts no other head).
pub(super) fn could_be_class(name: &[u8]) -> bool {
    name.contains(&b'.') || ends_like_class(name)
}

/// Whether a class name ends as exception and warning classes do.
fn ends_like_class(name: &[u8]) -> bool {
    CLASS_ENDINGS.iter().any(|e| name.ends_with(e.as_bytes()))
        || (name.len() > WARNING_CLASS.len() && name.ends_with(WARNING_CLASS.as_bytes()))
}

/// JVM, .NET and Node exception lines.
pub(super) fn exception_line(line: &str) -> Option<StackLine> {
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
    let known = ends_like_class(name.as_bytes());
    let dotted_class = class.contains('.')
        && class
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'$')
        && name.starts_with(|c: char| c.is_ascii_uppercase());
    if !(known || dotted_class) || class.contains(' ') {
        return None;
    }
    // `Error: msg` alone is how anyhow, Node and many CLIs print any
    // error: the message follows; the generic class says nothing, and
    // may be a CLI's own printer (`fmt.Fprintln(os.Stderr, "Error:", err)`),
    // so the whole line is read first.
    let generic = name == "Error" && class == name;
    let class = (!generic).then(|| class.to_string());
    let mut s = StackLine::message(at + head.len() + 2, class);
    s.certain = certain || (known && !generic);
    Some(s)
}
