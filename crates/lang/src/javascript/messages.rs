//! How a JavaScript expression reads as a message: literals and template
//! strings, `util.format` and `%s` directives, joined arrays, and a local
//! name traced back to the value it was declared with.

use super::*;

/// The value a local variable was declared with, looking back from its
/// use `n` through the enclosing blocks of the function: `const msg =
/// \`…\`; throw new Error(msg)`. A `let` or `var` counts only when no
/// assignment to it comes between (within a short distance).
pub(super) fn local_value<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let name = cx.text(n);
    let mut child = n;
    while let Some(block) = child.parent() {
        if FUNCTIONS.contains(&block.kind()) || block.kind() == "class_body" {
            return None;
        }
        if matches!(block.kind(), "statement_block" | "program" | "switch_case") {
            let earlier =
                std::iter::successors(child.prev_named_sibling(), |s| s.prev_named_sibling());
            for stmt in earlier.take(50) {
                if !matches!(stmt.kind(), "lexical_declaration" | "variable_declaration") {
                    continue;
                }
                let mut cur = stmt.walk();
                let decl = stmt.named_children(&mut cur).find(|d| {
                    d.kind() == "variable_declarator"
                        && d.child_by_field_name("name")
                            .is_some_and(|x| cx.text(x) == name)
                });
                let Some(decl) = decl else {
                    continue;
                };
                let value = decl.child_by_field_name("value")?;
                let constant = stmt.child(0).is_some_and(|k| k.kind() == "const");
                if !constant {
                    let between = cx.src.get(stmt.end_byte()..n.start_byte())?;
                    if between.len() > 20_000 {
                        return None;
                    }
                    let between = std::str::from_utf8(between).ok()?;
                    let assigned = between.match_indices(name).any(|(i, _)| {
                        let before = between[..i].chars().next_back();
                        let after = between[i + name.len()..].trim_start();
                        !before.is_some_and(|c| {
                            c.is_alphanumeric() || c == '_' || c == '$' || c == '.'
                        }) && (after.starts_with("+=")
                            || after.starts_with('=') && !after.starts_with("=="))
                    });
                    if assigned {
                        return None;
                    }
                }
                return (value.kind() != "identifier").then_some(value);
            }
        }
        child = block;
    }
    None
}

/// Whether an expression evaluates to text with literal parts.
pub(super) fn is_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    cx.remembered_text(n, || finds_text(n, cx))
}

pub(super) fn finds_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let n = unwrap(n);
    if literal_functions::call(n, cx).is_some() {
        return true;
    }
    match n.kind() {
        "string" | "template_string" => true,
        "binary_expression" => {
            n.child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == "+")
                && (n
                    .child_by_field_name("left")
                    .is_some_and(|l| is_text(l, cx))
                    || n.child_by_field_name("right")
                        .is_some_and(|r| is_text(r, cx)))
        }
        "identifier" => {
            cx.facts.constants.contains_key(cx.text(n))
                || local_value(n, cx).is_some_and(|v| is_text(v, cx))
        }
        "call_expression" if joined_array(n, cx).is_some() => true,
        "call_expression" => {
            let (Some(f), Some(first)) = (
                n.child_by_field_name("function"),
                arguments(n.child_by_field_name("arguments"))
                    .first()
                    .copied(),
            ) else {
                return false;
            };
            (formats::is_translation(cx.text(f)) || is_format_call(cx.text(f)))
                && is_text(first, cx)
        }
        _ => false,
    }
}

/// `['Missing script: "x"', '', 'To see a list…'].join('\n')`: an array
/// of texts joined by a literal separator (a message of several lines).
/// Gives the items and the separator when some item is text (the others
/// are holes).
pub(super) fn joined_array<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<(Vec<Node<'t>>, String)> {
    let f = n.child_by_field_name("function")?;
    if f.kind() != "member_expression"
        || f.child_by_field_name("property").map(|p| cx.text(p)) != Some("join")
    {
        return None;
    }
    let array = unwrap(f.child_by_field_name("object")?);
    if array.kind() != "array" {
        return None;
    }
    let sep = match arguments(n.child_by_field_name("arguments")).as_slice() {
        [] => ",".to_string(),
        [one] => string_value(*one, cx)?,
        _ => return None,
    };
    let mut cur = array.walk();
    let items: Vec<Node<'t>> = array
        .named_children(&mut cur)
        .filter(|c| c.kind() != "comment")
        .collect();
    items
        .iter()
        .any(|i| is_text(*i, cx))
        .then_some((items, sep))
}

/// The message of a joined array: each item's, `sep` between them.
pub(super) fn joined_message(items: &[Node<'_>], sep: &str, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let (mut m, mut h) = (Vec::new(), Vec::new());
    for (i, item) in items.iter().enumerate() {
        if i > 0 && !sep.is_empty() {
            m.push(text_part(sep));
        }
        let (m2, h2) = message_of(*item, cx);
        m.extend(m2);
        h.extend(h2);
    }
    (m, h)
}

pub(super) fn is_format_call(callee: &str) -> bool {
    matches!(
        callee,
        "util.format" | "format" | "sprintf" | "vsprintf" | "printf"
    )
}

/// A string's value, escapes decoded.
pub(super) fn string_value(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let n = unwrap(n);
    if n.kind() != "string" {
        return None;
    }
    let t = cx.text(n);
    let inner = t.get(1..t.len().saturating_sub(1)).unwrap_or("");
    Some(decode_escapes(inner))
}

/// A literal's value: a string, a template without substitutions, or a
/// `+` of them.
pub(super) fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let n = unwrap(n);
    match n.kind() {
        "string" => string_value(n, cx),
        "template_string" => formats::plain_text(template_pieces(n, cx)),
        "binary_expression"
            if n.child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == "+") =>
        {
            let l = literal(n.child_by_field_name("left")?, cx)?;
            Some(l + &literal(n.child_by_field_name("right")?, cx)?)
        }
        "identifier" => match cx.facts.constants.get(cx.text(n))?.as_slice() {
            [MsgPart::Text {
                text,
                format: false,
            }] => Some(text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A template literal as text and `${…}` holes.
pub(super) fn template_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let mut pieces = Vec::new();
    let end = n.end_byte().saturating_sub(1);
    let mut pos = n.start_byte() + 1;
    let raw = |a: usize, b: usize| std::str::from_utf8(&cx.src[a..b.max(a)]).unwrap_or_default();
    let mut cur = n.walk();
    for c in n.named_children(&mut cur) {
        if c.kind() != "template_substitution" {
            continue;
        }
        pieces.push(Piece::Text(decode_escapes(raw(pos, c.start_byte()))));
        let expr = c.named_child(0).map(|e| cx.text(e)).unwrap_or("");
        pieces.push(Piece::Expr(expr, ""));
        pos = c.end_byte();
    }
    pieces.push(Piece::Text(decode_escapes(raw(pos, end))));
    pieces
}

/// JavaScript escapes: C's, except that `\a`, `\e` and `\U` are the
/// letters themselves.
pub(super) fn decode_escapes(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut pre = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            pre.push(c);
            continue;
        }
        match chars.next() {
            Some(e @ ('a' | 'e' | 'U')) => pre.push(e),
            Some(e) => {
                pre.push('\\');
                pre.push(e);
            }
            None => pre.push('\\'),
        }
    }
    // A line continuation (`\` + CRLF) leaves the LF to the C decoder.
    tree::decode_c_escapes(&pre.replace("\\\r\n", "\\\n"))
}

/// The message of a logger or message-function call, by node's
/// `util.format` rules: a string first argument with `%s %d %i %f %j %o
/// %O %c` directives and more arguments is a format (the arguments left
/// over are appended, space-separated); otherwise the arguments are
/// joined by spaces.
pub(super) fn format_message(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    if let (Some(fmt), true) = (
        args.first().and_then(|a| string_value(*a, cx)),
        args.len() > 1,
    ) {
        if has_directive(&fmt) {
            return util_format(&fmt, &args[1..], cx);
        }
    }
    let mut message = Vec::new();
    let mut holes = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            message.push(text_part(" "));
        }
        let (m, h) = message_of(*a, cx);
        message.extend(m);
        holes.extend(h);
    }
    // `console.warn(msg, ...args)`: the spaces between values are no
    // text anyone could search for.
    let blank = message.iter().all(|p| match p {
        MsgPart::Text { text, .. } => text.trim().is_empty(),
        _ => true,
    });
    if blank {
        message.retain(|p| matches!(p, MsgPart::Hole));
    }
    (message, holes)
}

pub(super) fn has_directive(fmt: &str) -> bool {
    let b = fmt.as_bytes();
    b.windows(2)
        .any(|w| w[0] == b'%' && b"sdifjoOc".contains(&w[1]))
}

/// `util.format(fmt, …args)` as a pattern: `%s %d %i %f` stay printf
/// verbs, `%j %o %O` (JSON and inspected objects) become `%v`, `%c`
/// (CSS) consumes its argument and prints nothing, `%%` is `%`, and
/// arguments beyond the directives are appended after a space.
pub(super) fn util_format(fmt: &str, rest: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let mut message: Message = Vec::new();
    let mut holes = Vec::new();
    let mut text = String::new();
    let mut next = 0usize;
    let flush = |text: &mut String, message: &mut Message| {
        if !text.is_empty() {
            message.push(text_part(std::mem::take(text)));
        }
    };
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('%') => {
                chars.next();
                text.push('%');
            }
            Some(v @ ('s' | 'd' | 'i' | 'f' | 'j' | 'o' | 'O' | 'c')) if next < rest.len() => {
                chars.next();
                let arg = cx.text(rest[next]).to_string();
                next += 1;
                if v == 'c' {
                    continue;
                }
                flush(&mut text, &mut message);
                match v {
                    's' | 'd' | 'i' | 'f' => message.push(MsgPart::Text {
                        text: format!("%{v}"),
                        format: true,
                    }),
                    _ => message.push(MsgPart::Hole),
                }
                holes.push(arg);
            }
            _ => text.push('%'),
        }
    }
    flush(&mut text, &mut message);
    for a in &rest[next..] {
        message.push(text_part(" "));
        let (m, h) = message_of(*a, cx);
        message.extend(m);
        holes.extend(h);
    }
    (message, holes)
}

/// The message an expression evaluates to and the source of its holes.
pub(super) fn message_of(n: Node<'_>, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let n = unwrap(n);
    if let Some(text) = literal_functions::call(n, cx) {
        return (text.clone(), Vec::new());
    }
    let hole = || (vec![MsgPart::Hole], vec![cx.text(n).to_string()]);
    match n.kind() {
        "string" => (
            vec![text_part(string_value(n, cx).unwrap_or_default())],
            Vec::new(),
        ),
        "template_string" => formats::interpolated(template_pieces(n, cx)),
        "binary_expression" if is_text(n, cx) => {
            let (Some(l), Some(r)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return hole();
            };
            let (mut m, mut h) = message_of(l, cx);
            let (m2, h2) = message_of(r, cx);
            m.extend(m2);
            h.extend(h2);
            (m, h)
        }
        "identifier" => match cx.facts.constants.get(cx.text(n)) {
            Some(m) => (m.clone(), Vec::new()),
            None => match local_value(n, cx).filter(|v| is_text(*v, cx)) {
                Some(v) => message_of(v, cx),
                None => hole(),
            },
        },
        "call_expression" => {
            let Some(f) = n.child_by_field_name("function") else {
                return hole();
            };
            let callee = cx.text(f);
            let args = arguments(
                n.child_by_field_name("arguments")
                    .filter(|a| a.kind() == "arguments"),
            );
            if let Some((items, sep)) = joined_array(n, cx) {
                return joined_message(&items, &sep, cx);
            }
            // `i18n.t("…")`, `t("…")`: the translation of a message.
            if formats::is_translation(callee) {
                if let Some(first) = args.first() {
                    return message_of(*first, cx);
                }
            }
            if is_format_call(callee) && args.first().is_some_and(|a| is_text(*a, cx)) {
                return format_message(&args, cx);
            }
            hole()
        }
        _ => hole(),
    }
}
