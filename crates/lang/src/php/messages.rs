//! How a PHP expression reads as a message: arguments by position,
//! string literals with their interpolations, heredocs, `sprintf`
//! formats, and calls that build text.

use super::*;

/// Argument nodes (comments left out).
pub(super) fn arguments(list: Option<Node<'_>>) -> Vec<Node<'_>> {
    tree::arguments(list)
        .into_iter()
        .filter(|a| a.kind() == "argument")
        .collect()
}

/// The values of arguments without a `name:`.
pub(super) fn positional<'t>(args: &[Node<'t>]) -> Vec<Node<'t>> {
    args.iter()
        .filter(|a| a.child_by_field_name("name").is_none())
        .filter_map(|a| {
            let mut cur = a.walk();
            let v = a.named_children(&mut cur).find(|c| c.kind() != "comment");
            v
        })
        .collect()
}

/// A string literal without interpolation.
pub(super) fn is_literal(n: Node<'_>) -> bool {
    match n.kind() {
        "string" | "nowdoc" => true,
        "encapsed_string" => {
            let mut cur = n.walk();
            let plain = n
                .named_children(&mut cur)
                .all(|c| matches!(c.kind(), "string_content" | "escape_sequence"));
            plain
        }
        _ => false,
    }
}

/// An expression that evaluates to text with a literal part.
pub(super) fn is_text(n: Node<'_>) -> bool {
    match n.kind() {
        "string" | "encapsed_string" | "heredoc" | "nowdoc" => true,
        "binary_expression" | "parenthesized_expression" => n
            .child_by_field_name("left")
            .or_else(|| n.named_child(0))
            .is_some_and(is_text),
        "function_call_expression" => n
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .and_then(|a| a.named_child(0))
            .is_some_and(is_text),
        _ => false,
    }
}

/// Text and holes of a double-quoted string or heredoc body.
pub(super) fn string_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let mut pieces = Vec::new();
    let mut cur = n.walk();
    // A heredoc body leaves its line breaks between the nodes.
    let body = matches!(n.kind(), "heredoc_body" | "nowdoc_body");
    let mut end: Option<usize> = None;
    for c in n.children(&mut cur) {
        if let Some(e) = end.filter(|e| body && c.start_byte() > *e) {
            let gap = std::str::from_utf8(&cx.src[e..c.start_byte()]).unwrap_or_default();
            pieces.push(Piece::Text(gap.to_string()));
        }
        end = Some(c.end_byte());
        if !c.is_named() {
            continue;
        }
        match c.kind() {
            "string_content" | "nowdoc_string" => {
                pieces.push(Piece::Text(console::without_console_tags(cx.text(c))))
            }
            "escape_sequence" => pieces.push(Piece::Text(tree::decode_c_escapes(cx.text(c)))),
            "heredoc_body" | "nowdoc_body" => {
                // A closing marker's indentation is removed from every line.
                let indent = n
                    .child_by_field_name("end_tag")
                    .map(|e| e.start_position().column)
                    .unwrap_or(0);
                let mut at_line_start = true;
                for p in string_pieces(c, cx) {
                    match p {
                        Piece::Text(t) => {
                            let t = dedent(&t, indent, at_line_start);
                            at_line_start = t.ends_with('\n');
                            pieces.push(Piece::Text(t));
                        }
                        e => {
                            at_line_start = false;
                            pieces.push(e);
                        }
                    }
                }
            }
            "heredoc_start" | "heredoc_end" | "comment" => {}
            _ => pieces.push(Piece::Expr(cx.text(c), "")),
        }
    }
    pieces
}

/// Removes up to `indent` leading blanks of every line of `t` (of its
/// first line only when it starts one).
pub(super) fn dedent(t: &str, indent: usize, at_line_start: bool) -> String {
    let strip = |l: &str| -> String {
        let n = l
            .bytes()
            .take(indent)
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        l[n..].to_string()
    };
    t.split('\n')
        .enumerate()
        .map(|(i, l)| {
            if i > 0 || at_line_start {
                strip(l)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of a string without interpolation.
pub(super) fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match n.kind() {
        // Single quotes: only `\'` and `\\` are escapes.
        "string" => {
            let t = cx.text(n);
            let inner = t
                .strip_prefix(['b', 'B'])
                .unwrap_or(t)
                .strip_prefix('\'')?
                .strip_suffix('\'')?;
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '\\' && matches!(chars.peek(), Some('\\' | '\'')) {
                    out.push(chars.next().unwrap_or('\\'));
                } else {
                    out.push(c);
                }
            }
            Some(console::without_console_tags(&out))
        }
        "encapsed_string" | "nowdoc" | "heredoc" => formats::plain_text(string_pieces(n, cx)),
        "parenthesized_expression" => literal(n.named_child(0)?, cx),
        _ => None,
    }
}

/// `sprintf('…%s', $x)` and a message function's arguments.
pub(super) fn printf_message(
    fmt: Node<'_>,
    rest: &[Node<'_>],
    cx: &Cx<'_>,
) -> (Message, Vec<String>) {
    match literal(fmt, cx) {
        // `sprintf('<comment>%s</comment>', $text)`: a format of one
        // placeholder prints its argument's message.
        Some(text) if text == "%s" && rest.len() == 1 => M.message_of(rest[0], cx),
        Some(text) => (
            vec![MsgPart::Text { text, format: true }],
            rest.iter().map(|a| cx.text(*a).to_string()).collect(),
        ),
        None if is_text(fmt) && fmt.kind() == "binary_expression" => {
            let (parts, inner) = M.message_of(fmt, cx);
            let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
            formats::printf_of_parts(parts, inner, &values)
        }
        None => M.message_of(fmt, cx),
    }
}

/// How PHP expressions make messages.
/// `$name = <text>` in a function: the text a hole printing `name` holds.
pub(super) static LOCALS: crate::locals::LocalTexts = crate::locals::LocalTexts {
    assignments: &[("assignment_expression", "left", "right")],
    read: |v, cx| M.has_text(v, cx).then(|| M.message_of(v, cx)),
};

pub(super) static M: Messages = Messages {
    strings: &["string", "encapsed_string", "nowdoc", "heredoc"],
    read_own,
    plain: Some(literal),
    parens: &["parenthesized_expression"],
    binaries: &["binary_expression"],
    concat: ".",
    ..expr::NOTHING
};

/// PHP's own message forms.
pub(super) fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    match n.kind() {
        "encapsed_string" | "heredoc" => Some(formats::interpolated(string_pieces(n, cx))),
        "function_call_expression" => {
            Some(function_call_message(n, cx).unwrap_or_else(|| hole(n, cx)))
        }
        // `OutputFormatter::escape('…')`: escaping keeps the words.
        "scoped_call_expression" => {
            let method = n.child_by_field_name("name").map(|m| cx.text(m));
            let args = arguments(n.child_by_field_name("arguments"));
            match (method, positional(&args).first()) {
                (Some(m), Some(a)) if formats::keeps_words(m) => Some(M.message_of(*a, cx)),
                _ => None,
            }
        }
        "member_call_expression" => {
            // `$this->translator->trans('…')`
            let method = n.child_by_field_name("name").map(|m| cx.text(m));
            let args = arguments(n.child_by_field_name("arguments"));
            let pos = positional(&args);
            Some(match (method, pos.first()) {
                (Some(m), Some(a)) if formats::is_translation(m) && is_literal(*a) => {
                    M.message_of(*a, cx)
                }
                _ => hole(n, cx),
            })
        }
        _ => None,
    }
}

/// `sprintf`, `vsprintf` and translations (`__('…')`).
pub(super) fn function_call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let callee = cx
        .text(n.child_by_field_name("function")?)
        .trim_start_matches('\\');
    let args = arguments(n.child_by_field_name("arguments"));
    let pos = positional(&args);
    match callee {
        "sprintf" => Some(printf_message(*pos.first()?, &pos[1..], cx)),
        // `vsprintf('…', [$a, $b])`: the values are the array's.
        "vsprintf" => match (pos.first(), pos.get(1)) {
            (Some(fmt), Some(arr)) if arr.kind() == "array_creation_expression" => {
                let mut cur = arr.walk();
                let values: Vec<Node<'_>> = arr
                    .named_children(&mut cur)
                    .filter_map(|e| e.named_child(0))
                    .collect();
                Some(printf_message(*fmt, &values, cx))
            }
            (Some(fmt), _) => Some(printf_message(*fmt, &[], cx)),
            _ => None,
        },
        "implode" | "join" => None,
        _ if formats::keeps_words(callee) => Some(M.message_of(*pos.first()?, cx)),
        _ if formats::is_translation(callee) => Some(M.message_of(*pos.first()?, cx)),
        _ => None,
    }
}
