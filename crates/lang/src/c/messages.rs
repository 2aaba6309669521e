//! How a C expression reads as a message: string literals, adjacent
//! pieces and known `#define`s, gettext's translations, printf formats
//! (libc's and nginx's), `{}` formats, and the calls that build text.

use super::*;

/// One piece of a literal message expression.
pub(super) enum Piece {
    /// Literal text.
    Text(String),
    /// A macro whose value is unknown here: perhaps a string `#define`d
    /// in another file, resolved with the repository's constants.
    Macro(String),
}

/// Whether an expression is literal text (a string, a concatenation of
/// them, a known `#define`, or a translation of one).
pub(crate) fn is_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    match n.kind() {
        "string_literal" | "concatenated_string" | "raw_string_literal" => true,
        "identifier" => known_macro(n, cx).is_some(),
        "parenthesized_expression" => n.named_child(0).is_some_and(|i| is_text(i, cx)),
        "call_expression" => translated(n, cx).is_some_and(|i| is_text(i, cx)),
        _ => false,
    }
}

/// The text of a `#define`d string of this file.
pub(super) fn known_macro(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match cx.facts.constants.get(cx.text(n))?.as_slice() {
        [MsgPart::Text { text, .. }] => Some(text.clone()),
        _ => None,
    }
}

/// The message inside `_("…")`, `gettext("…")`, `dgettext(domain, "…")`.
pub(super) fn translated<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let f = cx.text(n.child_by_field_name("function")?);
    if !formats::is_translation(f) && !matches!(f, "dcgettext" | "gettext_noop") {
        return None;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    let at = usize::from(matches!(f, "dgettext" | "dcgettext"));
    args.get(at).copied()
}

/// The pieces of a literal message expression, or None when it is not
/// one. `PRIu64` and kin in a concatenation are their conversion letter.
pub(super) fn pieces(n: Node<'_>, cx: &Cx<'_>, out: &mut Vec<Piece>) -> Option<()> {
    match n.kind() {
        "string_literal" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                match c.kind() {
                    "string_content" => out.push(Piece::Text(cx.text(c).to_string())),
                    "escape_sequence" => out.push(Piece::Text(tree::decode_c_escapes(cx.text(c)))),
                    _ => {}
                }
            }
        }
        "raw_string_literal" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                if c.kind() == "raw_string_content" {
                    out.push(Piece::Text(cx.text(c).to_string()));
                }
            }
        }
        "concatenated_string" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                if c.kind() == "identifier" {
                    let name = cx.text(c);
                    match inttypes_conversion(name)
                        .map(str::to_string)
                        .or_else(|| known_macro(c, cx))
                    {
                        Some(t) => out.push(Piece::Text(t)),
                        // `"%" CURL_FORMAT_CURL_OFF_T`: the macro ends a
                        // conversion, which by the inttypes convention
                        // prints an integer, whatever its definition.
                        None if ends_open_conversion(out) => out.push(Piece::Text("d".into())),
                        None => out.push(Piece::Macro(name.to_string())),
                    }
                } else {
                    pieces(c, cx, out)?;
                }
            }
        }
        "identifier" => match known_macro(n, cx) {
            Some(t) => out.push(Piece::Text(t)),
            // `fprintf(stderr, USAGE)`: a macro, not a variable.
            None if is_macro_name(cx.text(n)) => out.push(Piece::Macro(cx.text(n).to_string())),
            None => return None,
        },
        "parenthesized_expression" => pieces(n.named_child(0)?, cx, out)?,
        "call_expression" => pieces(translated(n, cx)?, cx, out)?,
        _ => return None,
    }
    Some(())
}

/// Whether the pieces so far end inside a conversion: an unpaired `%`,
/// then only flags, width, precision and length letters (`%`, `%-8`,
/// `%5l`).
pub(super) fn ends_open_conversion(pieces: &[Piece]) -> bool {
    let Some(Piece::Text(t)) = pieces.last() else {
        return false;
    };
    let spec = t.trim_end_matches(|c: char| c.is_ascii_digit() || "-+ #.*lhjztqL".contains(c));
    let percents = spec.len() - spec.trim_end_matches('%').len();
    percents % 2 == 1
}

/// `USAGE`, `SSH_VERSION`: a name in capitals.
pub(super) fn is_macro_name(name: &str) -> bool {
    name.len() > 1
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// `PRIu64` → `u`, `PRIx32` → `x`, `PRIdMAX` → `d`; glib's
/// `G_GUINT64_FORMAT` → `u`.
pub(super) fn inttypes_conversion(name: &str) -> Option<&'static str> {
    if let Some(rest) = name.strip_prefix("PRI") {
        return match rest.chars().next()? {
            'd' => Some("d"),
            'i' => Some("i"),
            'o' => Some("o"),
            'u' => Some("u"),
            'x' => Some("x"),
            'X' => Some("X"),
            _ => None,
        };
    }
    let g = name.strip_prefix("G_G")?.strip_suffix("_FORMAT")?;
    Some(if g.starts_with('U') || g == "SIZE" {
        "u"
    } else {
        "d"
    })
}

/// A printf-family call's message: the format, kept as written (nginx's
/// verbs rewritten), and the values after it. A macro from another file
/// inside the format stays a constant to resolve across the repository:
/// text, which takes no value.
pub(crate) fn format_message(
    fmt: Node<'_>,
    rest: &[Node<'_>],
    cx: &Cx<'_>,
    verbs: Verbs,
) -> (Message, Vec<String>) {
    let mut ps = Vec::new();
    if pieces(fmt, cx, &mut ps).is_none() {
        return (vec![MsgPart::Hole], vec![cx.text(fmt).to_string()]);
    }
    let values: Vec<String> = rest
        .iter()
        .map(|a| program_name(cx.text(*a), cx).unwrap_or_else(|| cx.text(*a).to_string()))
        .collect();
    let mut message = Vec::new();
    let mut holes = Vec::new();
    let mut next = 0usize;
    let mut buf = String::new();
    let mut flush =
        |buf: &mut String, message: &mut Message, holes: &mut Vec<String>, all: bool| {
            if !buf.is_empty() {
                let text = match verbs {
                    Verbs::Libc => std::mem::take(buf),
                    Verbs::Nginx => nginx_format(&std::mem::take(buf)),
                };
                let k = if all {
                    values.len().saturating_sub(next)
                } else {
                    values_taken(&text)
                };
                let end = (next + k).min(values.len());
                holes.extend(values[next.min(end)..end].iter().cloned());
                next = end;
                message.push(MsgPart::Text { text, format: true });
            }
        };
    for p in ps {
        match p {
            Piece::Text(t) => buf.push_str(&t),
            Piece::Macro(name) => {
                // Text, once resolved: it takes no value.
                flush(&mut buf, &mut message, &mut holes, false);
                message.push(MsgPart::Const { name, format: true });
            }
        }
    }
    flush(&mut buf, &mut message, &mut holes, true);
    (message, holes)
}

/// `__progname` (BSD, OpenSSH), `getprogname()` or glibc's
/// `program_invocation_short_name` in a file that holds the program's
/// `main`: the program's name, the file's (`ssh-keygen.c` is
/// `ssh-keygen`), as the literal a format's `%s` then prints. In a file
/// without `main` (a library shared by several programs) it stays a value.
pub(super) fn program_name(value: &str, cx: &Cx<'_>) -> Option<String> {
    if !matches!(
        value,
        "__progname" | "getprogname()" | "program_invocation_short_name"
    ) {
        return None;
    }
    let main = memchr::memmem::find(cx.src, b"\nmain(").is_some()
        || memchr::memmem::find(cx.src, b"int main(").is_some();
    let file = cx.path.rsplit('/').next()?;
    let stem = file
        .strip_suffix(".c")
        .or_else(|| file.strip_suffix(".cc"))?;
    main.then(|| format!("\"{stem}\""))
}

/// A literal argument that is a printf format for the arguments after it
/// (a C++ exception class that formats its message: `throw
/// FormatRuntimeError("%s: %s", prefix, why)`): they are exactly as many
/// as it takes, and it takes one or more. A literal with a `%` and no
/// values after it is text.
pub(crate) fn printf_argument(
    literal: Node<'_>,
    rest: &[Node<'_>],
    cx: &Cx<'_>,
) -> Option<(Message, Vec<String>)> {
    if !matches!(literal.kind(), "string_literal" | "concatenated_string") {
        return None;
    }
    let text = cx.text(literal);
    let taken = values_taken(text);
    (taken > 0 && taken == rest.len()).then(|| format_message(literal, rest, cx, Verbs::Libc))
}

/// How many values a printf format takes (`*` widths count, `%%` and
/// `%m` take none).
pub(super) fn values_taken(fmt: &str) -> usize {
    let b = fmt.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < b.len() && b"+-# 0'123456789.$*hlLqjzt".contains(&b[i]) {
            n += usize::from(b[i] == b'*');
            i += 1;
        }
        if i < b.len() && b[i] != b'%' && b[i] != b'm' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// nginx's verbs as printf's: `%V`/`%v` (an `ngx_str_t`) → `%s`, the
/// integer types (`%ui`, `%uz`, `%O`, `%T`, `%M`, `%D`, `%L`, `%A`) →
/// `%d`, with `x`/`X` → `%x`/`%X`; `%N` is a newline, `%Z` a NUL (dropped).
pub(super) fn nginx_format(fmt: &str) -> String {
    let mut out = String::with_capacity(fmt.len());
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        let mut hex = None;
        while let Some(&d) = chars.peek() {
            match d {
                '0'..='9' | '*' | '.' => spec.push(d),
                'x' | 'X' => hex = Some(d),
                'u' | 'm' => {}
                _ => break,
            }
            chars.next();
        }
        let Some(verb) = chars.next() else {
            out.push_str("%%");
            break;
        };
        let int = hex.unwrap_or('d');
        // A precision only means something to `%f`.
        let width = |spec: &str| spec.split('.').next().unwrap_or("").to_string();
        match verb {
            'V' | 'v' | 's' => {
                let v = hex.unwrap_or('s');
                out.push_str(&format!("%{}{v}", width(&spec)));
            }
            'O' | 'P' | 'T' | 'M' | 'z' | 'i' | 'd' | 'l' | 'D' | 'L' | 'A' | 'r' => {
                out.push_str(&format!("%{}{int}", width(&spec)));
            }
            'f' => out.push_str(&format!("%{spec}f")),
            'p' | 'c' => out.push_str(&format!("%{}{verb}", width(&spec))),
            'N' => out.push('\n'),
            'Z' => {}
            '%' => out.push_str("%%"),
            other => {
                // Not a verb nginx knows: printed as is.
                out.push_str("%%");
                out.push_str(&spec);
                out.push(other);
            }
        }
    }
    out
}

/// A message expression that is no format: literals, `"a" + b` (C++
/// strings), `std::string(…)`, `….c_str()`, translations; the rest are
/// run-time values.
pub(crate) fn plain_message(n: Node<'_>, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let hole = || (vec![MsgPart::Hole], vec![cx.text(n).to_string()]);
    match n.kind() {
        "string_literal" | "concatenated_string" | "raw_string_literal" | "identifier" => {
            let mut ps = Vec::new();
            if pieces(n, cx, &mut ps).is_none() {
                return hole();
            }
            let mut m = Vec::new();
            let h = Vec::new();
            for p in ps {
                match p {
                    Piece::Text(t) => match m.last_mut() {
                        Some(MsgPart::Text { text, .. }) => text.push_str(&t),
                        _ => m.push(text_part(t)),
                    },
                    Piece::Macro(name) => m.push(MsgPart::Const {
                        name,
                        format: false,
                    }),
                }
            }
            (m, h)
        }
        "char_literal" => {
            let t = cx.text(n);
            let inner = t.get(t.find('\'').map_or(0, |i| i + 1)..t.len() - 1);
            match inner {
                Some(i) => (vec![text_part(tree::decode_c_escapes(i))], Vec::new()),
                None => hole(),
            }
        }
        "user_defined_literal" => match n.named_child(0) {
            Some(s) if s.kind().ends_with("string_literal") => plain_message(s, cx),
            _ => hole(),
        },
        "parenthesized_expression" => match n.named_child(0) {
            Some(i) => plain_message(i, cx),
            None => hole(),
        },
        "binary_expression"
            if n.child_by_field_name("operator").map(|o| cx.text(o)) == Some("+") =>
        {
            let (Some(l), Some(r)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return hole();
            };
            // `"abc" + 1` in C is pointer arithmetic, not text.
            if r.kind() == "number_literal" {
                return hole();
            }
            let (mut m, mut h) = plain_message(l, cx);
            let (m2, h2) = plain_message(r, cx);
            m.extend(m2);
            h.extend(h2);
            (m, h)
        }
        "call_expression" => call_message(n, cx).unwrap_or_else(hole),
        _ => hole(),
    }
}

/// Calls that build a message: translations, `std::string("…")`,
/// `s.c_str()`, `std::format`/`fmt::format` (braces), `absl::StrFormat`
/// (printf), `absl::StrCat` (concatenation).
pub(super) fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    if let Some(inner) = translated(n, cx) {
        return Some(plain_message(inner, cx));
    }
    let f = n.child_by_field_name("function")?;
    let args = arguments(n.child_by_field_name("arguments"));
    if f.kind() == "field_expression" {
        let field = f.child_by_field_name("field").map(|x| cx.text(x));
        if matches!(field, Some("c_str" | "data" | "str")) && args.is_empty() {
            return Some(plain_message(f.child_by_field_name("argument")?, cx));
        }
        return None;
    }
    let callee = cx.text(f);
    let callee = callee.split('<').next().unwrap_or(callee);
    match callee {
        "std::string" | "string" | "std::string_view" | "std::wstring" if args.len() == 1 => {
            Some(plain_message(args[0], cx))
        }
        "std::format" | "fmt::format" | "std::vformat" | "fmt::sprintf" => {
            if callee == "fmt::sprintf" {
                return Some(format_message(*args.first()?, &args[1..], cx, Verbs::Libc));
            }
            Some(brace_format(&args, cx))
        }
        "absl::StrFormat" | "base::StringPrintf" | "StringPrintf" | "string_format" => {
            Some(format_message(*args.first()?, &args[1..], cx, Verbs::Libc))
        }
        "absl::StrCat" | "StrCat" => {
            let mut m = Vec::new();
            let mut h = Vec::new();
            for a in &args {
                let (m2, h2) = plain_message(*a, cx);
                m.extend(m2);
                h.extend(h2);
            }
            Some((m, h))
        }
        _ => None,
    }
}

/// `std::format("…{}…", a, b)`: the first argument as a brace format.
pub(crate) fn brace_format(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(fmt) = args.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut ps = Vec::new();
    if pieces(*fmt, cx, &mut ps).is_none() || ps.iter().any(|p| matches!(p, Piece::Macro(_))) {
        return (vec![MsgPart::Hole], vec![cx.text(*fmt).to_string()]);
    }
    let text: String = ps
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t,
            Piece::Macro(_) => String::new(),
        })
        .collect();
    let values: Vec<String> = args[1..].iter().map(|a| cx.text(*a).to_string()).collect();
    formats::brace_message(&text, &values, true)
}
