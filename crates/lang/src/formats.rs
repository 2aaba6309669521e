//! Format syntaxes turned into templates.
//!
//! Every language's message pattern is stored in printf syntax, the one
//! the matcher reads: printf-family formats (C, Go, Python `%`, Java
//! `String.format`, PHP `sprintf`) are kept as written, and brace formats
//! (Rust `{}`, Python `{}`/f-strings, C# `{0}`, `MessageFormat` `{0}`,
//! SLF4J `{}`) and interpolations (JS `${}`, Ruby `#{}`, PHP `"$x"`) are
//! rewritten into it by the extractors, a typed verb where the format spec
//! says what the value prints as (`{:x}` → `%x`) and `%v` elsewhere.

use crate::message::{Message, MsgPart};
use errdex_model::{Hole, HoleKind, Template};

/// Which printf rules a pattern follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printf {
    /// Go's `fmt`: `%v`, `%q`, `%w`, `%[1]d`.
    Go,
    /// C, PHP and the printf-like rest: length modifiers (`%lu`, `%zu`),
    /// `%i`, `%u`, positional `%1$s`, glibc's `%m`.
    C,
    /// Python's `%` operator: also `%(name)s`, `%r`, `%a`.
    Python,
    /// Java's `Formatter`: also `%n` (a newline), `%b` (a boolean), `%,d`.
    Java,
}

/// Parses a printf-style pattern into literal text and typed holes.
/// `args` are the source text of the values in order; `is_error` says
/// which of them is an error value whose own text a chain can trace.
pub fn printf_template(
    pattern: &str,
    args: &[String],
    dialect: Printf,
    is_error: fn(&str) -> bool,
) -> Template {
    let mut t = Template::default();
    let b = pattern.as_bytes();
    let mut lit = String::new();
    let mut next_arg = 0usize;
    let mut i = 0usize;
    let mut run_start = 0usize;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        lit.push_str(&pattern[run_start..i]);
        let start = i;
        i += 1;
        if i < b.len() && b[i] == b'%' {
            lit.push('%');
            i += 1;
            run_start = i;
            continue;
        }
        if dialect == Printf::Python && i < b.len() && b[i] == b'(' {
            // `%(name)s`: a mapping key.
            if let Some(close) = pattern[i..].find(')') {
                i += close + 1;
            }
        }
        if matches!(dialect, Printf::C | Printf::Java) {
            // `%2$s`: an explicit argument position.
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 && b.get(i + digits) == Some(&b'$') {
                if let Ok(n) = pattern[i..i + digits].parse::<usize>() {
                    next_arg = n.saturating_sub(1);
                }
                i += digits + 1;
            }
        }
        // Flags (PHP pads with `'c`, Java groups with `,`).
        while i < b.len() && b"+-# 0,'".contains(&b[i]) {
            // The pad after `'` is a whole character, which may take
            // several bytes (`%'é10s`).
            i += if b[i] == b'\'' && dialect == Printf::C {
                1 + pattern[i + 1..].chars().next().map_or(0, char::len_utf8)
            } else {
                1
            };
        }
        let explicit = |i: &mut usize, next_arg: &mut usize| {
            if dialect == Printf::Go && *i < b.len() && b[*i] == b'[' {
                if let Some(close) = pattern[*i..].find(']') {
                    if let Ok(n) = pattern[*i + 1..*i + close].parse::<usize>() {
                        *next_arg = n.saturating_sub(1);
                    }
                    *i += close + 1;
                }
            }
        };
        explicit(&mut i, &mut next_arg);
        if i < b.len() && b[i] == b'*' {
            next_arg += 1;
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            if i < b.len() && b[i] == b'*' {
                next_arg += 1;
                i += 1;
            }
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        explicit(&mut i, &mut next_arg);
        if dialect != Printf::Go {
            // Length modifiers: `%lu`, `%lld`, `%zu`, `%hhx`, `%Lf`.
            while i < b.len() && b"hlLqjzt".contains(&b[i]) {
                i += 1;
            }
        }
        let Some(verb) = pattern[i.min(b.len())..].chars().next() else {
            // A lone trailing `%` prints as is (Go: `%!(NOVERB)`).
            lit.push_str(&pattern[start..]);
            run_start = b.len();
            break;
        };
        i += verb.len_utf8();
        run_start = i;
        if dialect == Printf::Java && verb == 'n' {
            lit.push('\n');
            continue;
        }
        let kind = verb_kind(verb, dialect);
        // glibc's `%m` prints strerror(errno) and takes no argument.
        let arg = if dialect == Printf::C && verb == 'm' {
            Some("strerror(errno)".to_string())
        } else {
            let a = args.get(next_arg).cloned();
            next_arg += 1;
            a
        };
        let chain = (dialect == Printf::Go && verb == 'w')
            || (kind == HoleKind::Any && arg.as_deref().is_some_and(is_error));
        t.push_lit(&lit);
        lit.clear();
        t.push_hole(Hole {
            kind,
            verb: pattern[start..i].to_string(),
            arg,
            chain,
        });
    }
    lit.push_str(&pattern[run_start.min(b.len())..]);
    t.push_lit(&lit);
    t
}

/// What text a verb prints.
fn verb_kind(verb: char, dialect: Printf) -> HoleKind {
    match verb {
        'd' => HoleKind::Int,
        'i' | 'u' if dialect != Printf::Go => HoleKind::Int,
        'x' | 'X' => HoleKind::Hex,
        'o' | 'O' => HoleKind::Octal,
        'b' if dialect == Printf::Java => HoleKind::Bool,
        'b' => HoleKind::Binary,
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => HoleKind::Float,
        't' if dialect == Printf::Go => HoleKind::Bool,
        'q' if dialect == Printf::Go => HoleKind::Quoted,
        'c' if dialect != Printf::Python => HoleKind::Char,
        'U' if dialect == Printf::Go => HoleKind::Unicode,
        'p' => HoleKind::Pointer,
        'T' if dialect == Printf::Go => HoleKind::Type,
        _ => HoleKind::Any,
    }
}

/// The argument of the hole that ends a piece of text other pieces
/// continue (see `rust::pieces`): what follows is traced again, as a
/// wrapped error's text is.
pub const CONTINUED: &str = "(continued)";

/// Whether an argument expression, in any language, is an error value
/// whose text is another layer: `err`, `e`, `exc`, `cause`, `ex.getMessage()`,
/// `str(e)`, `err.message`, `e.to_string()`, `strerror(errno)`, or what
/// further pieces write after a piece ([`CONTINUED`]).
pub fn looks_like_error(arg: &str) -> bool {
    if arg == CONTINUED {
        return true;
    }
    let mut a = arg.trim().trim_start_matches(['&', '*', '$', '@']);
    for (open, close) in [
        ("str(", ")"),
        ("repr(", ")"),
        ("String(", ")"),
        ("strval(", ")"),
        ("(", ")"),
    ] {
        if let Some(inner) = a.strip_prefix(open).and_then(|x| x.strip_suffix(close)) {
            a = inner.trim();
        }
    }
    // An exception's own message, inside its formatting methods.
    if matches!(
        a,
        "self.message" | "self.msg" | "this.message" | "$this->message"
    ) {
        return true;
    }
    if a.starts_with("strerror(") || a.starts_with("gai_strerror(") || a.starts_with("ssh_err(") {
        return true;
    }
    for suffix in [
        ".getMessage()",
        ".getLocalizedMessage()",
        ".message",
        ".Message",
        ".to_string()",
        ".what()",
        ".getMessage",
        "->getMessage()",
        ".Error()",
        ".localizedMessage",
    ] {
        if let Some(x) = a.strip_suffix(suffix) {
            a = x;
            break;
        }
    }
    let last = a
        .rsplit(['.', ':', '>'])
        .next()
        .unwrap_or(a)
        .trim_start_matches('$');
    if last.is_empty() || !last.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return false;
    }
    let lower = last.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "e" | "ex" | "exc" | "cause" | "reason" | "source"
    ) || lower.ends_with("err")
        || lower.ends_with("error")
        || lower.ends_with("exception")
        || lower.ends_with("_exc")
        || lower == "errno"
        || last.starts_with("Err")
}

/// A brace-style format (Rust, Python `str.format`, C# composite,
/// `MessageFormat`, SLF4J) turned into message parts: text, and a hole
/// for each placeholder. `args` are the call's value expressions;
/// placeholders take them by position (`{}` in order, `{0}` by index) or
/// by name (`{path}`, an inline Rust or Python name, which is its own
/// expression). Returns the parts and the expressions of the holes in
/// order. `{{`/`}}` are literal braces (SLF4J and MessageFormat have their
/// own escapes and pass `escapes: false`).
pub fn brace_message(fmt: &str, args: &[String], escapes: bool) -> (Message, Vec<String>) {
    let mut parts: Message = Vec::new();
    let mut holes = Vec::new();
    let mut text = String::new();
    let mut next = 0usize;
    let b = fmt.as_bytes();
    let mut i = 0;
    let flush = |text: &mut String, parts: &mut Message| {
        if !text.is_empty() {
            parts.push(MsgPart::Text {
                text: std::mem::take(text),
                format: false,
            });
        }
    };
    while i < b.len() {
        let c = b[i];
        if escapes && (c == b'{' || c == b'}') && b.get(i + 1) == Some(&c) {
            text.push(c as char);
            i += 2;
            continue;
        }
        if c == b'{' {
            if let Some(close) = fmt[i + 1..].find('}') {
                let inner = &fmt[i + 1..i + 1 + close];
                // `{` followed by something that is no placeholder (a JSON
                // example in the message) stays text.
                if is_placeholder(inner) {
                    let (name, spec) = match inner.find(':') {
                        Some(p) => (&inner[..p], &inner[p + 1..]),
                        None => (inner, ""),
                    };
                    let name = name.split(',').next().unwrap_or("").trim();
                    let expr = if name.is_empty() {
                        let e = args.get(next).cloned();
                        next += 1;
                        e
                    } else if let Ok(n) = name.parse::<usize>() {
                        args.get(n).cloned()
                    } else {
                        // A named placeholder: a keyword argument `name=x`
                        // when there is one, else the name itself.
                        Some(
                            args.iter()
                                .find_map(|a| {
                                    a.strip_prefix(name)
                                        .and_then(|r| r.trim_start().strip_prefix('='))
                                        .map(|v| v.trim().to_string())
                                })
                                .unwrap_or_else(|| name.trim_end_matches(['!', '=']).to_string()),
                        )
                    };
                    flush(&mut text, &mut parts);
                    push_typed_hole(&mut parts, spec);
                    holes.push(expr.unwrap_or_default());
                    i += close + 2;
                    continue;
                }
            }
        }
        let ch = fmt[i..].chars().next().unwrap_or('\u{fffd}');
        text.push(ch);
        i += ch.len_utf8();
    }
    flush(&mut text, &mut parts);
    (parts, holes)
}

/// Whether the text between braces is a placeholder: empty, a position,
/// a name, with an optional `!r`/`:spec` (Python), `:?`/`:>8` (Rust),
/// `,10:N2` (C#), `,number` (MessageFormat).
fn is_placeholder(inner: &str) -> bool {
    let head = inner.split([':', ',', '!']).next().unwrap_or("");
    let head = head.trim_end_matches('=');
    inner.len() <= 40
        && !inner.contains(['{', '"', '\n'])
        && (head.is_empty()
            || head
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.'))
}

/// A hole whose format spec says what it prints: `x`/`X` hex, `o`
/// octal, `b` binary, `e`/`f`/`g`/`%` float, `d`/`n` integer (Python), the
/// rest any text.
fn push_typed_hole(parts: &mut Message, spec: &str) {
    let ty = spec.trim_end().chars().last().unwrap_or(' ');
    let verb = match ty {
        'x' | 'X' => "%x",
        'o' => "%o",
        'b' if !spec.contains('?') => "%b",
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => "%f",
        'd' if !spec.starts_with(['N', 'D']) => "%d",
        _ => "",
    };
    if verb.is_empty() {
        parts.push(MsgPart::Hole);
    } else {
        parts.push(MsgPart::Text {
            text: verb.into(),
            format: true,
        });
    }
}

/// SLF4J/Log4j `{}` placeholders (`\{}` escapes one).
pub fn slf4j_message(fmt: &str, args: &[String]) -> (Message, Vec<String>) {
    let mut parts: Message = Vec::new();
    let mut holes = Vec::new();
    let mut text = String::new();
    let mut rest = fmt;
    let mut next = 0;
    while let Some(p) = rest.find("{}") {
        if rest[..p].ends_with('\\') {
            text.push_str(&rest[..p - 1]);
            text.push_str("{}");
        } else {
            text.push_str(&rest[..p]);
            if !text.is_empty() {
                parts.push(MsgPart::Text {
                    text: std::mem::take(&mut text),
                    format: false,
                });
            }
            parts.push(MsgPart::Hole);
            holes.push(args.get(next).cloned().unwrap_or_default());
            next += 1;
        }
        rest = &rest[p + 2..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        parts.push(MsgPart::Text {
            text,
            format: false,
        });
    }
    (parts, holes)
}

/// `MessageFormat` (`{0}`, `{1,number}`; `''` is a quote, text in single
/// quotes is literal).
pub fn message_format(fmt: &str, args: &[String]) -> (Message, Vec<String>) {
    let mut unquoted = String::new();
    let mut in_quote = false;
    let mut chars = fmt.chars().peekable();
    // Quoted braces are shielded as doubled braces for brace_message.
    while let Some(c) = chars.next() {
        match c {
            '\'' if chars.peek() == Some(&'\'') => {
                chars.next();
                unquoted.push('\'');
            }
            '\'' => in_quote = !in_quote,
            '{' | '}' if in_quote => {
                unquoted.push(c);
                unquoted.push(c);
            }
            '{' | '}' => unquoted.push(c),
            _ => unquoted.push(c),
        }
    }
    brace_message(&unquoted, args, true)
}

/// Message parts of an interpolated string (JS template literal, Ruby
/// `"#{x}"`, C# `$"{x}"`, PHP `"$x"`, Python f-string): the extractor
/// hands the pieces in order, text and expression alternating freely.
pub enum Piece<'a> {
    /// Literal text, already unescaped.
    Text(String),
    /// An embedded expression's source and its format spec, if any.
    Expr(&'a str, &'a str),
}

/// Joins interpolation pieces into a message and its hole expressions.
pub fn interpolated(pieces: Vec<Piece<'_>>) -> (Message, Vec<String>) {
    let mut parts: Message = Vec::new();
    let mut holes = Vec::new();
    for p in pieces {
        match p {
            Piece::Text(t) if !t.is_empty() => match parts.last_mut() {
                Some(MsgPart::Text {
                    text,
                    format: false,
                }) => text.push_str(&t),
                _ => parts.push(MsgPart::Text {
                    text: t,
                    format: false,
                }),
            },
            Piece::Text(_) => {}
            Piece::Expr(e, spec) => {
                push_typed_hole(&mut parts, spec);
                holes.push(e.trim().to_string());
            }
        }
    }
    (parts, holes)
}

/// A printf format built by concatenation (`sprintf('"%s" failed: ' .
/// $err, $path)`, Ruby's `"…%s: " + e.to_s % [x]`): its literal parts stay format syntax whose verbs take
/// the call's values in turn, its run-time parts are holes of their own.
pub fn printf_of_parts(
    parts: Message,
    inner: Vec<String>,
    rest: &[String],
) -> (Message, Vec<String>) {
    let mut values = rest.iter();
    let mut inner = inner.into_iter();
    let mut message = Vec::new();
    let mut holes = Vec::new();
    for p in parts {
        match p {
            MsgPart::Text { text, .. } => {
                let t = printf_template(&text, &[], Printf::C, |_| false);
                let verbs = t
                    .segments
                    .iter()
                    .filter(|s| matches!(s, errdex_model::Segment::Hole(_)))
                    .count();
                holes.extend(values.by_ref().take(verbs).cloned());
                message.push(MsgPart::Text { text, format: true });
            }
            other => {
                holes.extend(inner.next());
                message.push(other);
            }
        }
    }
    (message, holes)
}

/// The text of literal pieces, `None` when any piece is an expression (an
/// f-string or interpolation is no plain literal).
pub fn plain_text(pieces: Vec<Piece<'_>>) -> Option<String> {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Expr(..) => return None,
        }
    }
    Some(out)
}

/// A log format held as data: text whose placeholders are named
/// variables, `$remote_addr` and `${status}` (nginx, Apache) or
/// `%(asctime)s` (Python logging), each a hole named by its variable;
/// `None` with fewer than two.
pub fn named_placeholders(text: &str) -> Option<(Message, Vec<String>)> {
    let ident = |s: &str| {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let mut m: Message = Vec::new();
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['$', '%']) {
        let tail = &rest[at..];
        let (name, len) = if let Some(braced) = tail.strip_prefix("${") {
            let n = ident(braced);
            (
                &braced[..n],
                (braced[n..].starts_with('}')).then_some(n + 3),
            )
        } else if let Some(paren) = tail.strip_prefix("%(") {
            let n = ident(paren);
            let closed = paren[n..].starts_with(')') && paren.len() > n + 1;
            (&paren[..n], closed.then_some(n + 4))
        } else if let Some(plain) = tail.strip_prefix('$') {
            let n = ident(plain);
            (&plain[..n], Some(n + 1))
        } else {
            ("", None)
        };
        let Some(len) = len.filter(|_| !name.is_empty()) else {
            crate::expr::push_text(&mut m, &rest[..at + 1]);
            rest = &rest[at + 1..];
            continue;
        };
        crate::expr::push_text(&mut m, &rest[..at]);
        m.push(MsgPart::Hole);
        names.push(name.to_string());
        rest = &rest[at + len..];
    }
    crate::expr::push_text(&mut m, rest);
    (names.len() >= 2).then_some((m, names))
}

/// Calls that colour, style, clean or escape their first argument and
/// print its words unchanged (`click.style("…", fg="red")`, werkzeug's
/// `_ansi_style`, `termcolor.colored`, RubyGems' `clean_text`, Symfony's
/// `OutputFormatter::escape`, `htmlspecialchars`).
pub fn keeps_words(callee: &str) -> bool {
    let last = callee.rsplit(['.', ':', '>']).next().unwrap_or(callee);
    matches!(
        last,
        "style"
            | "colored"
            | "colorize"
            | "stylize"
            | "escape"
            | "clean_text"
            | "sanitize"
            | "htmlspecialchars"
            | "htmlentities"
    ) || last.ends_with("_style")
}

/// Words that mark a call as a translation lookup whose argument is the
/// message (`_("…")`, `gettext`, `_LE`, `N_`, `tr`, `i18n.t`, `__`).
pub fn is_translation(callee: &str) -> bool {
    let last = callee.rsplit(['.', ':']).next().unwrap_or(callee);
    matches!(
        last,
        "_" | "__"
            | "gettext"
            | "ugettext"
            | "gettext_lazy"
            | "ugettext_lazy"
            | "pgettext"
            | "ngettext"
            | "_LE"
            | "_LW"
            | "_LI"
            | "_LC"
            | "N_"
            | "_N"
            | "tr"
            | "i18n"
            | "t"
            | "translate"
            | "trans"
            | "dgettext"
    ) && (last != "t" || callee.contains("i18n") || callee == "t")
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Segment;

    fn shape(t: &Template) -> String {
        t.segments
            .iter()
            .map(|s| match s {
                Segment::Lit(l) => l.clone(),
                Segment::Hole(h) => format!("<{:?}{}>", h.kind, if h.chain { "*" } else { "" }),
            })
            .collect()
    }

    #[test]
    fn c_length_modifiers_and_positions() {
        let t = printf_template(
            "read %zu of %lu bytes from %s: %m",
            &["n".into(), "len".into(), "path".into()],
            Printf::C,
            looks_like_error,
        );
        assert_eq!(shape(&t), "read <Int> of <Int> bytes from <Any>: <Any*>");
        let t = printf_template(
            "%2$s then %1$d",
            &["a".into(), "b".into()],
            Printf::C,
            looks_like_error,
        );
        assert_eq!(t.segments.len(), 3);
        if let Segment::Hole(h) = &t.segments[0] {
            assert_eq!(h.arg.as_deref(), Some("b"));
        }
    }

    #[test]
    fn a_php_pad_character_of_several_bytes_is_one_character() {
        // Found by AFL++ (fuzz/regressions/formats): the byte after `'`
        // was skipped as the pad, inside a multi-byte character.
        let t = printf_template(
            "[%'é10s] and %'*5d",
            &["a".into(), "b".into()],
            Printf::C,
            looks_like_error,
        );
        assert_eq!(shape(&t), "[<Any>] and <Int>");
        let _ = printf_template("%'\u{ba}%'me\u{d6}r", &[], Printf::C, looks_like_error);
    }

    #[test]
    fn python_mapping_keys_and_java_newlines() {
        let t = printf_template(
            "bad %(name)s: %r",
            &["x".into(), "exc".into()],
            Printf::Python,
            looks_like_error,
        );
        assert_eq!(shape(&t), "bad <Any>: <Any*>");
        let t = printf_template("a%nb %b %,d", &[], Printf::Java, looks_like_error);
        assert_eq!(shape(&t), "a\nb <Bool> <Int>");
    }

    #[test]
    fn braces_by_position_name_and_spec() {
        let (m, h) = brace_message(
            "read {path} at {:>8} ({0:x}) {{literal}} {}",
            &["off".into(), "e".into()],
            true,
        );
        let r = crate::message::resolve(&m, &Default::default());
        assert_eq!(r.pattern, "read %v at %v (%x) {literal} %v");
        assert_eq!(h, vec!["path", "off", "off", "e"]);
        let (m, _) = brace_message("json {\"a\": 1}", &[], true);
        let r = crate::message::resolve(&m, &Default::default());
        assert_eq!(r.pattern, "json {\"a\": 1}");
    }

    #[test]
    fn slf4j_and_message_format() {
        let (m, h) = slf4j_message("user {} failed: {}", &["id".into(), "e".into()]);
        assert_eq!(
            crate::message::resolve(&m, &Default::default()).pattern,
            "user %v failed: %v"
        );
        assert_eq!(h, vec!["id", "e"]);
        let (m, h) = message_format("can''t open {0} ('{literal}')", &["f".into()]);
        assert_eq!(
            crate::message::resolve(&m, &Default::default()).pattern,
            "can't open %v ({literal})"
        );
        assert_eq!(h, vec!["f"]);
    }

    #[test]
    fn error_values_in_every_language() {
        for a in [
            "e",
            "exc",
            "err",
            "str(e)",
            "ex.getMessage()",
            "err.message",
            "$e->getMessage()",
            "e.to_string()",
            "strerror(errno)",
            "last_error",
            "cause",
        ] {
            assert!(looks_like_error(a), "{a}");
        }
        for a in ["path", "name", "len(x)", "user.id", "count", "message_id"] {
            assert!(!looks_like_error(a), "{a}");
        }
    }
}
