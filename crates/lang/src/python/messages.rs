//! How a Python expression reads as a message: string literals and
//! f-strings, `%` and `.format()` formats, joined pieces, gettext's
//! translations, HTTP exceptions' status lines, and functions that return
//! a literal.

use super::*;

pub(super) fn is_keyword(n: &Node<'_>) -> bool {
    matches!(
        n.kind(),
        "keyword_argument" | "list_splat" | "dictionary_splat"
    )
}

/// Whether an expression is message text: a string, a concatenation or
/// `%` of one, `"…".format(…)`, or a translation of one (`_("…")`,
/// `ngettext("…", "…", n)`).
pub(super) fn is_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    if literal_call(n, cx).is_some() {
        return true;
    }
    match n.kind() {
        "string" | "concatenated_string" => true,
        "binary_operator" => n
            .child_by_field_name("left")
            .is_some_and(|l| is_text(l, cx)),
        "parenthesized_expression" => n.named_child(0).is_some_and(|l| is_text(l, cx)),
        "call" => {
            let Some(f) = n.child_by_field_name("function") else {
                return false;
            };
            let callee = cx.text(f);
            let formats = f.kind() == "attribute"
                && f.child_by_field_name("attribute")
                    .is_some_and(|a| cx.text(a) == "format")
                && f.child_by_field_name("object")
                    .is_some_and(|o| is_text(o, cx));
            let passes_on = (f.kind() != "attribute" && formats::is_translation(callee))
                || formats::keeps_words(callee);
            formats
                || passes_on
                    && arguments(n.child_by_field_name("arguments"))
                        .first()
                        .is_some_and(|a| is_text(*a, cx))
        }
        _ => false,
    }
}

/// The value of the first keyword argument named one of `names`.
pub(super) fn keyword<'t>(args: &[Node<'t>], names: &[&str], cx: &Cx<'_>) -> Option<Node<'t>> {
    args.iter().find_map(|a| {
        (a.kind() == "keyword_argument"
            && a.child_by_field_name("name")
                .is_some_and(|k| names.contains(&cx.text(k))))
        .then(|| a.child_by_field_name("value"))
        .flatten()
    })
}

/// `HTTPException(status_code=404, …)` and `HTTPException(404, …)`.
pub(super) fn http_exception_status(class: &str, args: &[Node<'_>], cx: &Cx<'_>) -> Option<u16> {
    if !last_name(class).contains("HTTP") && !last_name(class).contains("Http") {
        return None;
    }
    let v =
        keyword(args, &["status_code", "status", "code"], cx).or_else(|| args.first().copied())?;
    cx.text(v)
        .trim_start_matches("status.HTTP_")
        .split('_')
        .next()?
        .parse()
        .ok()
}

/// `404 Not Found`: what Werkzeug prints for a bare abort.
pub(super) fn status_line(status: u16) -> String {
    let reason = match status {
        413 => "Request Entity Too Large",
        _ => tree::reason_phrase(status).unwrap_or(""),
    };
    format!("{status} {reason}").trim().to_string()
}

/// A logging call's message: the first argument is a `%` format whose
/// verbs the remaining arguments fill.
pub(super) fn format_message(
    fmt: Node<'_>,
    rest: &[Node<'_>],
    cx: &Cx<'_>,
) -> (Message, Vec<String>) {
    if rest.is_empty() {
        return M.message_of(fmt, cx);
    }
    match literal(fmt, cx) {
        Some(text) => (
            vec![MsgPart::Text { text, format: true }],
            rest.iter().map(|a| cx.text(*a).to_string()).collect(),
        ),
        None => M.message_of(fmt, cx),
    }
}

/// `print(a, b)`: operands joined by spaces.
pub(super) fn joined(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let mut message = Vec::new();
    let mut holes = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            message.push(text_part(" "));
        }
        let (m, h) = M.message_of(*a, cx);
        message.extend(m);
        holes.extend(h);
    }
    (message, holes)
}

/// The text of a plain (non-f) string literal or a concatenation of them.
pub(super) fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match n.kind() {
        "string" => formats::plain_text(string_pieces(n, cx)),
        "concatenated_string" => expr::chain_text(n, |s| literal(s, cx)),
        "parenthesized_expression" => literal(n.named_child(0)?, cx),
        // `_("…")`: the message before translation.
        "call" if formats::is_translation(cx.text(n.child_by_field_name("function")?)) => {
            literal(*arguments(n.child_by_field_name("arguments")).first()?, cx)
        }
        _ => None,
    }
}

/// A string literal as text and f-string holes.
pub(super) fn string_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let start = n
        .named_child(0)
        .filter(|c| c.kind() == "string_start")
        .map(|c| cx.text(c))
        .unwrap_or("\"");
    // `b"…"` prints as `b'…'` when formatted; its text is kept.
    let raw = start.to_ascii_lowercase().contains('r');
    expr::pieces_of(n, |c| match c.kind() {
        "string_content" | "escape_sequence" if raw => Some(Piece::Text(cx.text(c).to_string())),
        "string_content" | "escape_sequence" => Some(Piece::Text(decode_escapes(cx.text(c)))),
        // `f"{_('Usage:')} "`: a translated literal prints its text.
        "interpolation" if c.child_by_field_name("format_specifier").is_none() => {
            let e = c.child_by_field_name("expression")?;
            match translated_literal(e, cx) {
                Some(text) => Some(Piece::Text(text)),
                None => Some(Piece::Expr(cx.text(e), "")),
            }
        }
        "interpolation" => {
            let spec = tree::field_text(c, "format_specifier", cx);
            let expr = tree::field_text(c, "expression", cx);
            Some(Piece::Expr(expr, spec.trim_start_matches(':')))
        }
        _ => None,
    })
}

/// `_("…")`, `gettext("…")`: a translation call of one plain literal,
/// whose text it prints.
pub(super) fn translated_literal(e: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let f = e
        .child_by_field_name("function")
        .filter(|_| e.kind() == "call")?;
    let args = arguments(e.child_by_field_name("arguments"));
    match args.as_slice() {
        [only] if f.kind() == "identifier" && formats::is_translation(cx.text(f)) => {
            literal(*only, cx)
        }
        _ => None,
    }
}

/// Python escapes, plus `\N{…}` kept as written.
pub(super) fn decode_escapes(s: &str) -> String {
    if s.contains("\\N{") {
        return s.to_string();
    }
    tree::decode_c_escapes(s)
}

/// How Python expressions make messages.
pub(super) static M: Messages = Messages {
    strings: &["string"],
    read_own,
    parens: &["parenthesized_expression"],
    binaries: &["binary_operator"],
    chains: &["concatenated_string"],
    ..expr::NOTHING
};

/// Python's own message forms.
pub(super) fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    if let Some(text) = literal_call(n, cx) {
        return Some((text.clone(), Vec::new()));
    }
    match n.kind() {
        "string" => Some(formats::interpolated(string_pieces(n, cx))),
        "binary_operator" => {
            let Some(("%", l, r)) = expr::operands(n, cx) else {
                return None;
            };
            Some(percent_message(l, r, cx).unwrap_or_else(|| hole(n, cx)))
        }
        "call" => Some(call_message(n, cx).unwrap_or_else(|| hole(n, cx))),
        _ => None,
    }
}

/// `sys.stderr.write("tool: ")` then `sys.stderr.write(str(e))` (or
/// `print(e, file=sys.stderr)`): text without a line break, when the next
/// statement writes a value to stderr, makes one line with it; gives the
/// value's text, the line's hole.
pub(super) fn written_next(n: Node<'_>, message: &[MsgPart], cx: &Cx<'_>) -> Option<String> {
    let open_line = match message {
        [.., MsgPart::Text { text, .. }] => !text.ends_with('\n'),
        _ => false,
    };
    if !open_line || message.iter().any(|p| matches!(p, MsgPart::Hole)) {
        return None;
    }
    let statement = n.parent().filter(|p| p.kind() == "expression_statement")?;
    let call = tree::next_statement(statement)?
        .named_child(0)
        .filter(|c| c.kind() == "call")?;
    let callee = cx.text(call.child_by_field_name("function")?);
    let args = arguments(call.child_by_field_name("arguments"));
    let value = args.iter().find(|a| !is_keyword(a))?;
    let to_stderr =
        callee == "sys.stderr.write" || callee == "print" && writes_to_stderr(call, &args, cx);
    (to_stderr && !is_text(*value, cx)).then(|| cx.text(*value).to_string())
}

/// `def help_text(self): return "See https://… for help"`: a function
/// whose parameters are none (or only `self`, `cls`) and whose whole body
/// (a docstring aside) returns one literal is that text wherever it is
/// called (`raise UsageError(self.help_text())`). Collected before the
/// walk reaches the calls, which may come first in the file.
pub(super) fn literal_functions(root: Node<'_>, cx: &mut Cx<'_>) {
    expr::collect_returned_literals(root, cx, literal_function);
}

/// A function's name and the literal its whole body returns.
pub(super) fn literal_function(n: Node<'_>, cx: &Cx<'_>) -> Option<(String, String)> {
    if n.kind() != "function_definition" {
        return None;
    }
    let name = n.child_by_field_name("name")?;
    let params = n.child_by_field_name("parameters")?;
    let mut cur = params.walk();
    if params
        .named_children(&mut cur)
        .any(|p| !matches!(cx.text(p), "self" | "cls"))
    {
        return None;
    }
    let body = n.child_by_field_name("body")?;
    let mut cur = body.walk();
    let mut statements = body
        .named_children(&mut cur)
        .filter(|c| c.kind() != "comment");
    let mut only = statements.next()?;
    if only.kind() == "expression_statement" {
        // A docstring.
        only = statements.next()?;
    }
    if statements.next().is_some() || only.kind() != "return_statement" {
        return None;
    }
    Some((
        cx.text(name).to_string(),
        literal(only.named_child(0)?, cx)?,
    ))
}

/// The text a call of a literal function gives ([`literal_functions`]):
/// `help_text()` or `self.help_text()` without arguments.
pub(super) fn literal_call<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c Message> {
    if n.kind() != "call" || !arguments(n.child_by_field_name("arguments")).is_empty() {
        return None;
    }
    let f = n.child_by_field_name("function")?;
    let name = match f.kind() {
        "identifier" => f,
        "attribute"
            if f.child_by_field_name("object")
                .is_some_and(|o| matches!(cx.text(o), "self" | "cls")) =>
        {
            f.child_by_field_name("attribute")?
        }
        _ => return None,
    };
    expr::returned_text(cx, cx.text(name))
}

/// `"…%s…" % (a, b)`: a printf format and its values.
pub(super) fn percent_message(l: Node<'_>, r: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let text = literal(l, cx)?;
    let values = if r.kind() == "tuple" {
        let mut cur = r.walk();
        r.named_children(&mut cur)
            .map(|v| cx.text(v).to_string())
            .collect()
    } else {
        vec![cx.text(r).to_string()]
    };
    Some((vec![MsgPart::Text { text, format: true }], values))
}

/// `"…{}".format(x)` and translations (`_("…")`); `str(e)` and other
/// calls are the value itself.
pub(super) fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let f = n.child_by_field_name("function")?;
    let args = arguments(n.child_by_field_name("arguments"));
    if f.kind() == "attribute"
        && f.child_by_field_name("attribute")
            .is_some_and(|a| cx.text(a) == "format")
    {
        if let Some(text) = f.child_by_field_name("object").and_then(|o| literal(o, cx)) {
            let values: Vec<String> = args
                .iter()
                .map(|a| match a.kind() {
                    "keyword_argument" => {
                        let k = tree::field_text(*a, "name", cx);
                        format!("{k}={}", tree::field_text(*a, "value", cx))
                    }
                    _ => cx.text(*a).to_string(),
                })
                .collect();
            return Some(formats::brace_message(&text, &values, true));
        }
    }
    let callee = cx.text(f);
    // `str(key + ' already used as alias')`: text made of text keeps its
    // words (`str(e)` stays a hole).
    let converts = callee == "str" && args.len() == 1;
    let first = args
        .first()
        .filter(|_| converts || formats::is_translation(callee) || formats::keeps_words(callee))?;
    Some(M.message_of(*first, cx))
}
