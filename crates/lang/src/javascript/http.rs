//! HTTP answers and coded error objects in JavaScript: Express's
//! `res.status(404).send("…")` and `res.sendStatus(404)`, `createError(404,
//! "…")`, and `{ code: 'ERR_X', message: '…' }` objects with their status.

use super::*;

/// Express answers: `res.status(404).send("…")`, `.json({error: "…"})`,
/// `res.sendStatus(404)`.
pub(super) fn http_answer(
    n: Node<'_>,
    f: Node<'_>,
    name: &str,
    args: &[Node<'_>],
    cx: &mut Cx<'_>,
) -> bool {
    let callee = cx.text(f);
    if name == "sendStatus" {
        let Some(status) = args.first().and_then(|s| status_of(*s, cx)) else {
            return true;
        };
        let mut site = cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
        site.http_status = Some(status);
        cx.push(site, vec![text_part(status_text(status))], Vec::new(), n);
        return true;
    }
    if !matches!(name, "send" | "json" | "jsonp" | "end") {
        return false;
    }
    let Some(status) = f
        .child_by_field_name("object")
        .filter(|o| o.kind() == "call_expression")
        .and_then(|o| {
            let sf = o.child_by_field_name("function")?;
            (sf.kind() == "member_expression"
                && sf
                    .child_by_field_name("property")
                    .is_some_and(|p| cx.text(p) == "status"))
            .then_some(())?;
            let a = arguments(o.child_by_field_name("arguments"));
            status_of(*a.first()?, cx)
        })
    else {
        return false;
    };
    let Some(body) = args.first() else {
        return true;
    };
    let mut site = cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
    site.http_status = Some(status);
    let msg = if body.kind() == "object" {
        let props = pairs(*body, cx);
        if let Some(c) = props.iter().find(|p| p.key == "code") {
            site.error_code = code_value(c.value, cx);
        }
        object_message(&props, cx)
    } else {
        Some(*body)
    };
    let Some(msg) = msg else {
        return true;
    };
    let (message, holes) = message_of(msg, cx);
    cx.push(site, message, holes, n);
    true
}

/// The message of an answer object: its `error`, `message`, `msg`,
/// `detail` key, into nested `{error: {message}}`.
pub(super) fn object_message<'t>(props: &[Prop<'t>], cx: &Cx<'_>) -> Option<Node<'t>> {
    for key in [
        "error",
        "message",
        "msg",
        "detail",
        "error_description",
        "reason",
    ] {
        if let Some(p) = props.iter().find(|p| p.key == key) {
            if p.value.kind() == "object" {
                if let Some(m) = object_message(&pairs(p.value, cx), cx) {
                    return Some(m);
                }
                continue;
            }
            return Some(p.value);
        }
    }
    None
}

/// http-errors: `createError(404, "…")`, `createError(404)`; koa's
/// `ctx.throw(404, "…")`.
pub(super) fn http_error(n: Node<'_>, callee: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(status) = args.first().and_then(|s| status_of(*s, cx)) else {
        return;
    };
    let mut site = cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
    site.http_status = Some(status);
    site.error_class = Some("HttpError".into());
    let (message, holes) = match args.get(1).filter(|a| a.kind() != "object") {
        Some(m) => message_of(*m, cx),
        None => (vec![text_part(status_text(status))], Vec::new()),
    };
    cx.push(site, message, holes, n);
}

/// `{ code: 'ERR_X', message: '…' }`: an error described by a plain
/// object (answers of `.json(…)` are read there instead).
pub(super) fn code_object(n: Node<'_>, cx: &mut Cx<'_>) {
    if n.named_child_count() < 2 || n.named_child_count() > 12 {
        return;
    }
    let props = pairs(n, cx);
    let (Some(code), Some(msg)) = (
        props
            .iter()
            .find(|p| p.key == "code")
            .and_then(|p| string_value(p.value, cx)),
        props.iter().find(|p| p.key == "message").map(|p| p.value),
    ) else {
        return;
    };
    if !looks_like_code(&code) || !is_text(msg, cx) {
        return;
    }
    let in_answer = n
        .parent()
        .filter(|p| p.kind() == "arguments")
        .and_then(|p| p.parent())
        .and_then(|c| c.child_by_field_name("function"))
        .is_some_and(|f| matches!(last_name(cx.text(f)), "json" | "send" | "jsonp"));
    if in_answer {
        return;
    }
    let mut site = cx.site(
        n,
        "{ code, message }",
        ErrorType::Exception,
        Severity::Error,
    );
    site.error_code = Some(code);
    site.error_class = props
        .iter()
        .find(|p| p.key == "name")
        .and_then(|p| string_value(p.value, cx));
    let (message, holes) = message_of(msg, cx);
    cx.push(site, message, holes, n);
}

/// `ERR_X`, `ENOENT`, `E_BAD`: a code, not a word of a sentence.
pub(super) fn looks_like_code(s: &str) -> bool {
    s.len() >= 2
        && s.bytes().any(|c| c.is_ascii_uppercase())
        && s.bytes().all(|c| {
            c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_' || c == b'.' || c == b'-'
        })
}

/// The key/value pairs of an object literal.
pub(super) fn pairs<'t>(obj: Node<'t>, cx: &Cx<'_>) -> Vec<Prop<'t>> {
    let mut cur = obj.walk();
    let props: Vec<Prop<'t>> = obj
        .named_children(&mut cur)
        .filter(|p| p.kind() == "pair")
        .filter_map(|p| {
            let key = cx.text(p.child_by_field_name("key")?);
            Some(Prop {
                key: key.trim_matches(['"', '\'']).to_string(),
                value: p.child_by_field_name("value")?,
            })
        })
        .collect();
    props
}

/// A code: a string (`'ERR_X'`) or the code's constant
/// (`AxiosError.ERR_BAD_REQUEST`, `codes.ENOENT`).
pub(super) fn code_value(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    if let Some(s) = string_value(n, cx) {
        return Some(s);
    }
    let t = cx.text(n);
    let last = last_name(t);
    (n.kind() == "member_expression" && looks_like_code(last) && t.len() <= 80)
        .then(|| last.to_string())
}

/// An HTTP error status written as a number, 400 to 599.
pub(super) fn status_of(n: Node<'_>, cx: &Cx<'_>) -> Option<u16> {
    let n = unwrap(n);
    (n.kind() == "number")
        .then(|| cx.text(n).parse::<u16>().ok())
        .flatten()
        .filter(|s| (400..=599).contains(s))
}

/// The reason phrase Express and http-errors send for a bare status.
pub(super) fn status_text(status: u16) -> String {
    let reason = match status {
        402 => "Payment Required",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Payload Too Large",
        416 => "Range Not Satisfiable",
        _ => match tree::reason_phrase(status) {
            Some(r) => r,
            None => return status.to_string(),
        },
    };
    reason.to_string()
}
