//! C# exceptions: `throw new X(…)`, exceptions built in one place and
//! thrown in another, and the messages .NET writes for
//! `ArgumentNullException` and friends.

use super::*;

/// `throw new X(…)`; a bare `throw;` or `throw e;` hands on an existing
/// exception and says nothing new.
pub(super) fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| e.kind() != "comment") else {
        return;
    };
    if e.kind() == "object_creation_expression" {
        creation(n, e, cx);
    }
}

/// `var e = new IOException("…")`, `return new X(…)`, `Fail(new X(…))`:
/// an exception built outside a `throw` is thrown or reported elsewhere,
/// with the text it was built with.
pub(super) fn built(e: Node<'_>, cx: &mut Cx<'_>) {
    let thrown = e
        .parent()
        .is_some_and(|p| matches!(p.kind(), "throw_statement" | "throw_expression"));
    let named = e
        .child_by_field_name("type")
        .is_some_and(|ty| simple_type_name(cx.text(ty)).ends_with("Exception"));
    if named && !thrown {
        creation(e, e, cx);
    }
}

/// `new X(…)` at `n` (its `throw`, or itself).
fn creation(n: Node<'_>, e: Node<'_>, cx: &mut Cx<'_>) {
    let Some(ty) = e.child_by_field_name("type") else {
        return;
    };
    let class = cx.text(ty).to_string();
    let name = simple_type_name(&class).to_string();
    let args = arguments(e.child_by_field_name("arguments"));
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(name.clone());
    if let Some(status) = http_exception_status(&name, &args, cx) {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = tree::severity_of_status(status);
    }
    let (message, holes) = match framework_message(&name, &args, cx) {
        Some(m) => m,
        None => match tree::named_argument(&args, &["message"], cx)
            .or_else(|| positional(&args).first().copied())
        {
            Some(m) => M.message_of(m, cx),
            // `throw new InvalidOperationException()`: the class says it all.
            None => (vec![text_part(name)], Vec::new()),
        },
    };
    cx.push(site, message, holes, n);
}

/// `System.ArgumentException` → `ArgumentException`, `Error<T>` → `Error`.
fn simple_type_name(class: &str) -> &str {
    last_name(class.split('<').next().unwrap_or(class))
}

/// The message .NET composes for argument exceptions from the parameter
/// name: `ArgumentNullException(nameof(x))` prints "Value cannot be null.
/// (Parameter 'x')". `nameof(x)` is the constant "x".
fn framework_message(
    class: &str,
    args: &[Node<'_>],
    cx: &Cx<'_>,
) -> Option<(Message, Vec<String>)> {
    let pos = positional(args);
    // Which argument is the parameter name, which the message, and the
    // message when there is none.
    let (param, msg, default) = match class {
        "ArgumentNullException" => (
            tree::named_argument(args, &["paramName"], cx).or_else(|| pos.first().copied()),
            tree::named_argument(args, &["message"], cx).or_else(|| pos.get(1).copied()),
            "Value cannot be null.",
        ),
        "ArgumentOutOfRangeException" => (
            tree::named_argument(args, &["paramName"], cx).or_else(|| pos.first().copied()),
            tree::named_argument(args, &["message"], cx)
                .or_else(|| pos.get(if pos.len() > 2 { 2 } else { 1 }).copied()),
            "Specified argument was out of the range of valid values.",
        ),
        "ArgumentException" => (
            tree::named_argument(args, &["paramName"], cx).or_else(|| pos.get(1).copied()),
            tree::named_argument(args, &["message"], cx).or_else(|| pos.first().copied()),
            "Value does not fall within the expected range.",
        ),
        _ => return None,
    };
    // `new ArgumentException(msg, innerException)`: no parameter name.
    let param = param.filter(|p| is_param_name(*p, cx));
    let param = param?;
    let (mut message, mut holes) = match msg {
        Some(m) => M.message_of(m, cx),
        None => (vec![text_part(default)], Vec::new()),
    };
    message.push(text_part(" (Parameter '"));
    let (m, h) = M.message_of(param, cx);
    message.extend(m);
    holes.extend(h);
    message.push(text_part("')"));
    // `ArgumentOutOfRangeException(name, actualValue, message)`.
    if class == "ArgumentOutOfRangeException" && pos.len() > 2 {
        message.push(text_part("\nActual value was "));
        message.push(MsgPart::Hole);
        holes.push(cx.text(pos[1]).to_string());
        message.push(text_part("."));
    }
    Some((message, holes))
}

/// Whether an argument names a parameter: `nameof(x)`, a literal, or a
/// variable called `paramName`.
fn is_param_name(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let t = cx.text(n);
    t.starts_with("nameof(")
        || n.kind() == "string_literal"
        || t.to_ascii_lowercase().contains("param")
        || t.to_ascii_lowercase().ends_with("name")
}
