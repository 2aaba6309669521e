//! Exceptions as sites: raised (`raise X(…)`) or built in one place and
//! raised, returned or handed on in another (`new_e = ProtocolError(…)`,
//! `return ValueError(…)`), and what one built with several arguments
//! prints ([`crate::exception_classes`]).

use super::*;
use crate::exception_classes::{repr_message, ArgsTuple, ClassDef};

/// `X(…)` of an exception class at `n` (a `raise` statement, or the call
/// itself where it is built): a site with the message its arguments give.
pub(super) fn exception_call(n: Node<'_>, call: Node<'_>, cx: &mut Cx<'_>) {
    let Some(f) = call.child_by_field_name("function") else {
        return;
    };
    let class = cx.text(f).to_string();
    let args = arguments(call.child_by_field_name("arguments"));
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(last_name(&class).to_string());
    if let Some(status) = http_exception_status(&class, &args, cx) {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = tree::severity_of_status(status);
    }
    // The message is the first text argument: urllib3 raises
    // `NewConnectionError(self, f"Failed to …: {e}")`.
    let positional = || args.iter().filter(|a| !is_keyword(a));
    let msg = keyword(&args, &["detail", "description", "message", "msg"], cx)
        .or_else(|| positional().find(|a| is_text(**a, cx)).copied())
        .or_else(|| positional().next().copied());
    match msg {
        Some(m) => {
            let (message, holes) = M.message_of(m, cx);
            let before = cx.facts.sites.len();
            cx.push(site, message, holes, n);
            if let Some(tuple) = args_tuple(&class, &args, m, cx) {
                attach(cx, before, tuple);
            }
        }
        None if args.iter().any(|a| a.kind().ends_with("splat")) => {
            // `raise InvalidURL(*e.args)`: the message is a run-time value.
            let spread = args.iter().map(|a| cx.text(*a).to_string()).collect();
            cx.push(site, vec![MsgPart::Hole], spread, n);
        }
        None => {
            // `raise KeyError()` prints the class name alone.
            let name = last_name(&class).to_string();
            cx.push(site, vec![text_part(name)], Vec::new(), n);
        }
    }
}

/// `new_e = ProtocolError("Connection aborted.", e)`, `return
/// ValueError(…)`, `errors.append(KeyError(…))`: an exception built
/// outside a `raise` is raised or printed elsewhere, with the text it was
/// built with. True when the call was such a site.
pub(super) fn built_exception(n: Node<'_>, callee: &str, cx: &mut Cx<'_>) -> bool {
    if !is_exception_class(last_name(callee)) || raised_directly(n) || warned(n, cx) {
        return false;
    }
    exception_call(n, n, cx);
    true
}

/// A name Python code gives an exception class: `…Error`, `…Exception`,
/// `…Warning`, capitalised.
pub(super) fn is_exception_class(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && ["Error", "Exception", "Warning"]
            .iter()
            .any(|s| name.ends_with(s))
}

/// `raise X(…)`, `raise X(…) from e`, `raise X(…).with_traceback(tb)`:
/// the `raise` is the site.
fn raised_directly(call: Node<'_>) -> bool {
    let Some(p) = call.parent() else {
        return false;
    };
    if p.kind() == "raise_statement" {
        return true;
    }
    p.kind() == "attribute"
        && p.parent().is_some_and(|c| {
            c.kind() == "call" && c.parent().is_some_and(|r| r.kind() == "raise_statement")
        })
}

/// `warnings.warn(DeprecationWarning("…"))`: the warning is the site.
fn warned(call: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(outer) = call.parent().and_then(|a| a.parent()) else {
        return false;
    };
    outer.kind() == "call"
        && outer
            .child_by_field_name("function")
            .is_some_and(|f| last_name(cx.text(f)) == "warn")
}

/// The arguments tuple around `msg` when `class` is built with several
/// positional arguments and nothing else: `('` and the arguments before
/// it, `', ` and those after it, `)`, each as `repr` writes it.
fn args_tuple(class: &str, args: &[Node<'_>], msg: Node<'_>, cx: &Cx<'_>) -> Option<ArgsTuple> {
    if args.iter().any(is_keyword) || args.len() < 2 {
        return None;
    }
    let at = args.iter().position(|a| a.id() == msg.id())?;
    let quote = repr_quote(&M.message_of(msg, cx).0);
    let mut tuple = ArgsTuple {
        class: class.to_string(),
        before: vec![text_part("(")],
        before_args: Vec::new(),
        after: vec![text_part(quote)],
        after_args: Vec::new(),
        quote,
    };
    for a in &args[..at] {
        repr_into(*a, &mut tuple.before, &mut tuple.before_args, cx);
        tuple.before.push(text_part(", "));
    }
    tuple.before.push(text_part(quote));
    for a in &args[at + 1..] {
        tuple.after.push(text_part(", "));
        repr_into(*a, &mut tuple.after, &mut tuple.after_args, cx);
    }
    tuple.after.push(text_part(")"));
    Some(tuple)
}

/// How `repr` writes an argument: a string in quotes, a number or a
/// constant as written, anything else a hole.
fn repr_into(a: Node<'_>, message: &mut Message, holes: &mut Vec<String>, cx: &Cx<'_>) {
    if is_text(a, cx) {
        let (text, values) = M.message_of(a, cx);
        let quote = repr_quote(&text);
        message.push(text_part(quote));
        message.extend(repr_message(text, quote));
        message.push(text_part(quote));
        holes.extend(values);
    } else if matches!(a.kind(), "integer" | "float" | "none" | "true" | "false") {
        message.push(text_part(cx.text(a)));
    } else {
        message.push(MsgPart::Hole);
        holes.push(cx.text(a).to_string());
    }
}

/// `repr` quotes a string in `'` unless it holds a `'` and no `"`.
fn repr_quote(text: &Message) -> char {
    let has = |c: char| {
        text.iter()
            .any(|p| matches!(p, MsgPart::Text { text, .. } if text.contains(c)))
    };
    if has('\'') && !has('"') {
        '"'
    } else {
        '\''
    }
}

/// Gives the sites pushed since `before` the tuple their class may print.
fn attach(cx: &mut Cx<'_>, before: usize, tuple: ArgsTuple) {
    for s in cx.facts.sites.iter_mut().skip(before) {
        s.args_tuple = Some(Box::new(tuple.clone()));
    }
}

/// `arg = f"Connection broken: {e!r}"` then `raise ProtocolError(arg,
/// e)`: the tuple the text kept at `n` under `target` is printed in,
/// given to the sites pushed since `before`.
pub(super) fn attach_raised_tuple(n: Node<'_>, target: &str, before: usize, cx: &mut Cx<'_>) {
    if cx.facts.sites.len() == before {
        return;
    }
    let Some(function) = enclosing_function(n) else {
        return;
    };
    let Some((call, arg)) = exception_call_with(function, n.end_byte(), target, cx) else {
        return;
    };
    let Some(f) = call.child_by_field_name("function") else {
        return;
    };
    let args = arguments(call.child_by_field_name("arguments"));
    if let Some(tuple) = args_tuple(cx.text(f), &args, arg, cx) {
        attach(cx, before, tuple);
    }
}

/// The function definition `n` is in.
pub(super) fn enclosing_function(n: Node<'_>) -> Option<Node<'_>> {
    let mut p = n.parent();
    while let Some(q) = p.filter(|q| q.kind() != "function_definition") {
        p = q.parent();
    }
    p
}

/// The first call of an exception class after byte `from` in `scope`
/// that has the name `target` among its arguments, and that argument.
fn exception_call_with<'t>(
    scope: Node<'t>,
    from: usize,
    target: &str,
    cx: &Cx<'_>,
) -> Option<(Node<'t>, Node<'t>)> {
    let mut stack = vec![scope];
    let mut found: Option<(Node<'t>, Node<'t>)> = None;
    while let Some(n) = stack.pop() {
        if n.end_byte() <= from || found.is_some_and(|(c, _)| n.start_byte() >= c.start_byte()) {
            continue;
        }
        if n.kind() == "call" && n.start_byte() >= from {
            let class = n.child_by_field_name("function").map(|f| cx.text(f));
            let args = arguments(n.child_by_field_name("arguments"));
            let arg = args
                .iter()
                .find(|a| a.kind() == "identifier" && cx.text(**a) == target);
            if let (Some(class), Some(arg)) = (class, arg) {
                if is_exception_class(last_name(class)) {
                    found = Some((n, *arg));
                    continue;
                }
            }
        }
        let mut cur = n.walk();
        stack.extend(n.named_children(&mut cur));
    }
    found
}

/// `class ProtocolError(HTTPError):`: the class, its bases and whether it
/// writes its own text, for [`crate::exception_classes`].
pub(super) fn class_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(name) = n
        .child_by_field_name("name")
        .map(|x| cx.text(x).to_string())
    else {
        return;
    };
    let bases = arguments(n.child_by_field_name("superclasses"))
        .into_iter()
        .filter(|b| !is_keyword(b))
        .map(|b| cx.text(b).to_string())
        .collect();
    let mut prints_own = false;
    if let Some(body) = n.child_by_field_name("body") {
        let mut cur = body.walk();
        for member in body.named_children(&mut cur) {
            let def = match member.kind() {
                "decorated_definition" => member.child_by_field_name("definition"),
                "function_definition" => Some(member),
                _ => None,
            };
            prints_own |= def.is_some_and(|d| writes_own_text(d, cx));
        }
    }
    cx.facts.classes.push(ClassDef {
        name,
        bases,
        prints_own,
    });
}

/// `__str__`, or an `__init__` that does not hand its positional
/// arguments on unchanged (`super().__init__(*args, **kwargs)`).
fn writes_own_text(def: Node<'_>, cx: &Cx<'_>) -> bool {
    match def.child_by_field_name("name").map(|x| cx.text(x)) {
        Some("__str__") => true,
        Some("__init__") => {
            let body = def.child_by_field_name("body").map_or("", |b| cx.text(b));
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            !(compact.contains("__init__(*args") || compact.contains("__init__(self,*args"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
