//! Messages as extractors see them before package-level constants are known,
//! and how they become a pattern once they are.

use std::collections::HashMap;

/// One piece of a message expression.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MsgPart {
    /// Literal text. `format` says whether it is already in the language's
    /// format syntax (a printf format string) or plain text that must be
    /// escaped to become part of a pattern.
    Text {
        /// The decoded text.
        text: String,
        /// Already format syntax?
        format: bool,
    },
    /// A name that may be a same-package string constant.
    Const {
        /// The identifier.
        name: String,
        /// Whether its value is used as format syntax.
        format: bool,
    },
    /// A value only known at run time; it becomes a `%v` hole.
    Hole,
}

/// A message expression as extracted from one file.
pub type Message = Vec<MsgPart>;

/// Constants of one package (or module), by name.
pub type Constants = HashMap<String, Message>;

/// Drops the newline a printed message ends on: the log line ends there,
/// so it is no part of the message.
pub(crate) fn trim_newline(message: &mut Message) {
    if let Some(MsgPart::Text { text, .. }) = message.last_mut() {
        let t = text.trim_end_matches(['\n', '\r']).len();
        text.truncate(t);
        if text.is_empty() && message.len() > 1 {
            message.pop();
        }
    }
}

/// glibc's `strerror` texts (Linux). A message table entry or a kept
/// message that is exactly one of these (`case ERR_TIMEOUT: return
/// "Connection timed out";`) cannot be told from the operating system's
/// own text in a log, so it is left to the OS rather than made a site.
const OS_ERROR_TEXTS: &[&str] = &[
    "Operation not permitted",
    "No such file or directory",
    "No such process",
    "Interrupted system call",
    "Input/output error",
    "No such device or address",
    "Argument list too long",
    "Exec format error",
    "Bad file descriptor",
    "No child processes",
    "Resource temporarily unavailable",
    "Cannot allocate memory",
    "Permission denied",
    "Bad address",
    "Block device required",
    "Device or resource busy",
    "File exists",
    "Invalid cross-device link",
    "No such device",
    "Not a directory",
    "Is a directory",
    "Invalid argument",
    "Too many open files in system",
    "Too many open files",
    "Inappropriate ioctl for device",
    "Text file busy",
    "File too large",
    "No space left on device",
    "Illegal seek",
    "Read-only file system",
    "Too many links",
    "Broken pipe",
    "Numerical argument out of domain",
    "Numerical result out of range",
    "Resource deadlock avoided",
    "File name too long",
    "No locks available",
    "Function not implemented",
    "Directory not empty",
    "Too many levels of symbolic links",
    "No data available",
    "Timer expired",
    "Protocol error",
    "Bad message",
    "Value too large for defined data type",
    "Invalid or incomplete multibyte or wide character",
    "Socket operation on non-socket",
    "Message too long",
    "Protocol not supported",
    "Operation not supported",
    "Address family not supported by protocol",
    "Address already in use",
    "Cannot assign requested address",
    "Network is down",
    "Network is unreachable",
    "Software caused connection abort",
    "Connection reset by peer",
    "No buffer space available",
    "Transport endpoint is already connected",
    "Transport endpoint is not connected",
    "Connection timed out",
    "Connection refused",
    "Host is down",
    "No route to host",
    "Operation already in progress",
    "Operation now in progress",
    "Stale file handle",
    "Disk quota exceeded",
    "Operation canceled",
];

/// Whether a message is exactly an operating-system error text
/// ([`OS_ERROR_TEXTS`]).
pub(crate) fn is_os_error_text(m: &Message) -> bool {
    matches!(m.as_slice(), [MsgPart::Text { text, .. }] if OS_ERROR_TEXTS.contains(&text.as_str()))
}

/// The text a run-time value takes in a pattern.
pub const HOLE: &str = "%v";

/// Deepest chain of constants defined from constants that is followed;
/// deeper (or cyclic) chains become holes.
const MAX_CONST_DEPTH: usize = 8;

/// A message once constants are substituted: the pattern (format syntax) and
/// the message as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The pattern in format syntax: plain text with `%` escaped as `%%`.
    pub pattern: String,
    /// The message as written, holes shown as `%v`.
    pub message: String,
    /// Whether any literal text survived; without it the site is dynamic.
    pub has_literal: bool,
}

/// Substitutes constants and renders the message.
pub fn resolve(parts: &[MsgPart], consts: &Constants) -> Resolved {
    let mut out = Resolved {
        pattern: String::new(),
        message: String::new(),
        has_literal: false,
    };
    render(parts, consts, None, 0, &mut out);
    // Text that is only verbs (`msg + "%v"`) says nothing a reader could
    // search for: such a message is as dynamic as no text at all.
    out.has_literal = out.has_literal && printf_literal_len(&out.pattern) > 0;
    out
}

/// Characters of a printf-style pattern outside its verbs (`%%` counts as
/// a literal `%`). Flags, width, precision and argument indexes
/// (`%-10s`, `%5.2f`, `%*d`, `%[1]d`) belong to the verb.
pub fn printf_literal_len(pattern: &str) -> usize {
    let b = pattern.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            n += 1;
            i += 1;
            continue;
        }
        i += 1;
        if i < b.len() && b[i] == b'%' {
            n += 1;
            i += 1;
            continue;
        }
        while i < b.len() && (b"+-# 0123456789.*[]".contains(&b[i])) {
            i += 1;
        }
        // The verb letter itself.
        if i < b.len() {
            i += 1;
        }
    }
    n
}

fn render(
    parts: &[MsgPart],
    consts: &Constants,
    force_format: Option<bool>,
    depth: usize,
    out: &mut Resolved,
) {
    for part in parts {
        match part {
            MsgPart::Text { text, format } => {
                let format = force_format.unwrap_or(*format);
                if !text.is_empty() {
                    out.has_literal = true;
                }
                out.message.push_str(text);
                if format {
                    out.pattern.push_str(text);
                } else {
                    out.pattern.push_str(&text.replace('%', "%%"));
                }
            }
            MsgPart::Const { name, format } => match consts.get(name) {
                Some(value) if depth < MAX_CONST_DEPTH => {
                    render(
                        value,
                        consts,
                        Some(force_format.unwrap_or(*format)),
                        depth + 1,
                        out,
                    );
                }
                _ => push_hole(out),
            },
            MsgPart::Hole => push_hole(out),
        }
    }
}

fn push_hole(out: &mut Resolved) {
    out.pattern.push_str(HOLE);
    out.message.push_str(HOLE);
}

/// The indices of `message`'s holes, when they pair one to one with
/// `args` (the values that fill them, in order); `None` for a printf
/// format, whose holes are inside its text.
pub(crate) fn paired_holes(message: &Message, args: &[String]) -> Option<Vec<usize>> {
    let formatted = message
        .iter()
        .any(|p| matches!(p, MsgPart::Text { format: true, .. }));
    let holes: Vec<usize> = (message.iter().enumerate())
        .filter(|(_, p)| matches!(p, MsgPart::Hole))
        .map(|(i, _)| i)
        .collect();
    (!formatted && holes.len() == args.len()).then_some(holes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str, format: bool) -> MsgPart {
        MsgPart::Text {
            text: s.into(),
            format,
        }
    }

    #[test]
    fn plain_text_is_escaped_in_the_pattern_only() {
        let r = resolve(&[text("100% done", false)], &Constants::new());
        assert_eq!(r.pattern, "100%% done");
        assert_eq!(r.message, "100% done");
        assert!(r.has_literal);
    }

    #[test]
    fn constants_resolve_and_cycles_become_holes() {
        let mut consts = Constants::new();
        consts.insert(
            "A".into(),
            vec![
                text("a-", false),
                MsgPart::Const {
                    name: "B".into(),
                    format: false,
                },
            ],
        );
        consts.insert(
            "B".into(),
            vec![MsgPart::Const {
                name: "A".into(),
                format: false,
            }],
        );
        let r = resolve(
            &[MsgPart::Const {
                name: "A".into(),
                format: true,
            }],
            &consts,
        );
        assert!(r.pattern.starts_with("a-a-"));
        assert!(r.pattern.ends_with(HOLE));
    }

    #[test]
    fn verbs_are_not_literal_text() {
        assert_eq!(printf_literal_len("%v%v"), 0);
        assert_eq!(printf_literal_len("%-10s%5.2f%*d%[1]d"), 0);
        assert_eq!(printf_literal_len("%s: %v"), 2);
        assert_eq!(printf_literal_len("100%%"), 4);
        let r = resolve(&[MsgPart::Hole, text("%v", true)], &Constants::new());
        assert!(!r.has_literal);
    }

    #[test]
    fn only_holes_is_dynamic() {
        let r = resolve(
            &[
                MsgPart::Hole,
                MsgPart::Const {
                    name: "missing".into(),
                    format: true,
                },
            ],
            &Constants::new(),
        );
        assert!(!r.has_literal);
        assert_eq!(r.pattern, "%v%v");
    }
}
