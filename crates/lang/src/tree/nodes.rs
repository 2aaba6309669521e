//! Small readings of syntax nodes every language built on the shared walk
//! uses: arguments by position and by name, a callee's last name, a
//! function's name and parameters, HTTP statuses and their phrases, and C's
//! escapes.

use super::*;

/// Positional argument nodes of an argument list, comments left out.
pub(crate) fn arguments<'t>(list: Option<Node<'t>>) -> Vec<Node<'t>> {
    let Some(list) = list else {
        return Vec::new();
    };
    let mut cur = list.walk();
    let args: Vec<Node<'t>> = list
        .named_children(&mut cur)
        .filter(|c| !c.kind().contains("comment"))
        .collect();
    args
}

/// The value of the first `name: value` argument named one of `names`
/// (C#'s and PHP's named arguments).
pub(crate) fn named_argument<'t>(
    args: &[Node<'t>],
    names: &[&str],
    cx: &Cx<'_>,
) -> Option<Node<'t>> {
    args.iter().find_map(|a| {
        let n = a.child_by_field_name("name")?;
        names
            .contains(&cx.text(n))
            .then(|| a.named_child(a.named_child_count() as u32 - 1))
            .flatten()
    })
}

/// The name of the innermost `class_declaration` around `n` (Java, C#,
/// TypeScript): whose constructor hands its parent a message.
pub(crate) fn enclosing_class(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    std::iter::successors(n.parent(), |p| p.parent())
        .find(|p| p.kind() == "class_declaration")
        .and_then(|c| c.child_by_field_name("name"))
        .map(|c| cx.text(c).to_string())
}

/// The text of a node's field, or `""` without one.
pub(crate) fn field_text<'a>(n: Node<'_>, field: &str, cx: &Cx<'a>) -> &'a str {
    n.child_by_field_name(field)
        .map(|f| cx.text(f))
        .unwrap_or("")
}

/// The last segment of a dotted or scoped name (`logging.error` →
/// `error`, `std::io::Error::new` → `new`).
pub(crate) fn last_name(callee: &str) -> &str {
    callee
        .rsplit(['.', ':', '>'])
        .next()
        .unwrap_or(callee)
        .trim()
}

/// A call's `function` node and its text, when the text is at most
/// `max` bytes (longer callees are chained expressions, no names).
pub(crate) fn callee<'t, 'a>(n: Node<'t>, cx: &Cx<'a>, max: usize) -> Option<(Node<'t>, &'a str)> {
    let f = n.child_by_field_name("function")?;
    let text = cx.text(f);
    (text.len() <= max).then_some((f, text))
}

/// A definition's `name` and its `parameters` list.
pub(crate) fn name_and_param_list(n: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    Some((
        n.child_by_field_name("name")?,
        n.child_by_field_name("parameters")?,
    ))
}

/// A definition's `name` and its parameters (comments left out).
pub(crate) fn name_and_params(n: Node<'_>) -> Option<(Node<'_>, Vec<Node<'_>>)> {
    let (name, list) = name_and_param_list(n)?;
    Some((name, arguments(Some(list))))
}

/// The severity of an HTTP answer: server errors are errors, client
/// errors warnings.
pub(crate) fn severity_of_status(status: u16) -> Severity {
    if status >= 500 {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// The reason phrase of a common HTTP status, where the web frameworks
/// errdex reads agree on it.
pub(crate) fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => return None,
    })
}

/// A plain text part.
pub(crate) fn text_part(s: impl Into<String>) -> MsgPart {
    MsgPart::Text {
        text: s.into(),
        format: false,
    }
}

/// Decodes backslash escapes shared by C-family languages (`\n`, `\t`,
/// `\"`, `\\`, `\xHH`, `\uHHHH`, `\u{H}`, octal); unknown escapes keep
/// the escaped character.
pub(crate) fn decode_c_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'x' => {
                let mut v = 0;
                let mut n = 0;
                while n < 2 {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d;
                            chars.next();
                            n += 1;
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'u' | 'U' => {
                let mut hex = String::new();
                if chars.peek() == Some(&'{') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        hex.push(c);
                    }
                } else {
                    let n = if e == 'u' { 4 } else { 8 };
                    for _ in 0..n {
                        match chars.peek() {
                            Some(c) if c.is_ascii_hexdigit() => {
                                hex.push(*c);
                                chars.next();
                            }
                            _ => break,
                        }
                    }
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) => out.push(c),
                    None => out.push('\u{fffd}'),
                }
            }
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            'e' => out.push('\u{1b}'),
            '\n' => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether the operator of `n` (its `operator` field) is `op`.
pub(crate) fn operator_is(n: Node<'_>, op: &str, cx: &Cx<'_>) -> bool {
    n.child_by_field_name("operator")
        .is_some_and(|o| cx.text(o) == op)
}

/// What an assignment appends to a message kept under a name: the
/// right side of `msg += "…"` (`augmented` is the grammar's kind of such
/// an assignment), or what follows the name in `message = message +
/// "…"` (`binary`: its kind of a binary expression).
pub(crate) fn appended_to_message<'t>(
    n: Node<'t>,
    (augmented, binary): (&str, &str),
    cx: &Cx<'_>,
) -> Option<Node<'t>> {
    let target = n.child_by_field_name("left")?;
    let right = n.child_by_field_name("right")?;
    if !crate::is_message_name(cx.text(target)) {
        return None;
    }
    if n.kind() == augmented {
        return operator_is(n, "+=", cx).then_some(right);
    }
    let joined = right.kind() == binary
        && operator_is(right, "+", cx)
        && right
            .child_by_field_name("left")
            .is_some_and(|l| cx.text(l) == cx.text(target));
    joined.then(|| right.child_by_field_name("right")).flatten()
}

/// The statement after `n` in its block, comments skipped.
pub(crate) fn next_statement(n: Node<'_>) -> Option<Node<'_>> {
    let mut next = n.next_named_sibling();
    while let Some(c) = next.filter(|c| c.kind().ends_with("comment")) {
        next = c.next_named_sibling();
    }
    next
}

/// The value of an assignment to a name for a message (`msg = …`,
/// `u->err = …`).
pub(crate) fn assigned_to_message_name<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let left = n.child_by_field_name("left")?;
    let right = n.child_by_field_name("right")?;
    crate::is_message_name(cx.text(left)).then_some(right)
}

/// The first statement of a block, comments skipped.
pub(crate) fn first_statement(block: Node<'_>) -> Option<Node<'_>> {
    let mut cur = block.walk();
    let first = block
        .named_children(&mut cur)
        .find(|c| !c.kind().ends_with("comment"));
    first
}
