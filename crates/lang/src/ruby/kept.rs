//! Ruby messages kept under a name or returned by a method named for
//! one, raised or printed elsewhere.

use super::{arguments, is_text, literal, M};
use crate::message::Message;
use crate::tree::Cx;
use tree_sitter::Node;

/// `msg = String.new "Could not find a valid gem #{gem}"`, `message =
/// "…"`: a message kept under a name and raised or printed later.
pub(super) fn kept_message(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(mut right) = crate::tree::assigned_to_message_name(n, cx) else {
        return;
    };
    if appended_piece(n, cx) {
        return;
    }
    // `String.new "…"` is the text itself.
    if right.kind() == "call" && cx.text(right).starts_with("String.new") {
        match arguments(right).first() {
            Some(a) => right = *a,
            None => return,
        }
    }
    // `msg = found ? "no match for #{x}" : "nothing given"`: each branch
    // is a message.
    let branches = if right.kind() == "conditional" {
        vec![
            right.child_by_field_name("consequence"),
            right.child_by_field_name("alternative"),
        ]
    } else {
        vec![Some(right)]
    };
    for value in branches.into_iter().flatten().filter(|v| is_text(*v)) {
        let (message, holes) = M.message_of(value, cx);
        let at = if value == right { n } else { value };
        cx.push_kept_message(at, "=", message, holes);
    }
}

/// `message = message + " in #{path}"` or `msg += " (while reading)"`:
/// text appended to a message kept under a name is a piece of it (the
/// trace finds it after the message, or in its last hole). Whether the
/// assignment appended to a message.
pub(super) fn appended_piece(n: Node<'_>, cx: &mut Cx<'_>) -> bool {
    let kinds = ("operator_assignment", "binary");
    let Some(piece) = crate::tree::appended_to_message(n, kinds, cx) else {
        return false;
    };
    if is_text(piece) {
        let (message, holes) = M.message_of(piece, cx);
        cx.push_kept_message(n, "+=", message, holes);
    }
    true
}

/// `def error_message; "Couldn't find a gemspec file in #{dir}"; end`: a
/// method named for a message gives one, and a Ruby method returns its
/// last value, so each text it can end with (through `if`, `unless`,
/// `case` and `?:` branches, and a last `return`) is a message kept and
/// shown elsewhere.
pub(super) fn message_method(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(name) = n.child_by_field_name("name") else {
        return;
    };
    let name = cx.text(name).to_ascii_lowercase();
    if !(name.contains("message") || name.contains("msg")) {
        return;
    }
    let Some(body) = n.child_by_field_name("body") else {
        return;
    };
    let mut ends = Vec::new();
    last_values(body, &mut ends);
    for v in ends.into_iter().filter(|v| is_text(*v)) {
        let (message, holes) = M.message_of(v, cx);
        cx.push_kept_message(v, "return", message, holes);
    }
}

/// The expressions a block of statements can end with.
fn last_values<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let last = |n: Node<'t>| {
        let mut cur = n.walk();
        let children: Vec<Node<'t>> = n
            .named_children(&mut cur)
            .filter(|c| c.kind() != "comment")
            .collect();
        children.last().copied()
    };
    match n.kind() {
        "body_statement"
        | "then"
        | "else"
        | "begin"
        | "parenthesized_statements"
        | "return"
        | "argument_list" => {
            if let Some(l) = last(n) {
                last_values(l, out);
            }
        }
        "if" | "unless" | "elsif" | "conditional" => {
            for field in ["consequence", "alternative"] {
                if let Some(b) = n.child_by_field_name(field) {
                    last_values(b, out);
                }
            }
        }
        "case" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                match c.kind() {
                    "when" => {
                        if let Some(b) = c.child_by_field_name("body") {
                            last_values(b, out);
                        }
                    }
                    "else" => last_values(c, out),
                    _ => {}
                }
            }
        }
        _ => out.push(n),
    }
}

/// `def help_text; "See https://… for help"; end`: a method without
/// parameters whose whole body is one literal is that text wherever it is
/// called (`alert_warning help_text`). Collected before the walk reaches
/// the calls, which may come first in the file.
pub(super) fn literal_methods(root: Node<'_>, cx: &mut Cx<'_>) {
    crate::expr::collect_returned_literals(root, cx, literal_method);
}

/// A method's name and the literal that is its whole body.
fn literal_method(n: Node<'_>, cx: &Cx<'_>) -> Option<(String, String)> {
    if n.kind() != "method" {
        return None;
    }
    let name = n.child_by_field_name("name")?;
    if n.child_by_field_name("parameters")
        .is_some_and(|p| p.named_child_count() > 0)
    {
        return None;
    }
    let only = crate::expr::only_statement(n.child_by_field_name("body")?)?;
    let value = match only.kind() {
        "return" => only
            .named_child(0)?
            .named_child(0)
            .or(only.named_child(0))?,
        _ => only,
    };
    Some((cx.text(name).to_string(), literal(value, cx)?))
}

/// The text a call of a literal method gives ([`literal_methods`]): a bare
/// `help_text`, or `help_text()` / `self.help_text` without arguments.
pub(super) fn literal_call<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c Message> {
    let name = match n.kind() {
        "identifier" => n,
        "call"
            if arguments(n).is_empty()
                && n.child_by_field_name("block").is_none()
                && n.child_by_field_name("receiver")
                    .is_none_or(|r| cx.text(r) == "self") =>
        {
            n.child_by_field_name("method")?
        }
        _ => return None,
    };
    crate::expr::returned_text(cx, cx.text(name))
}
