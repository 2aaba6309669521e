//! Error objects: `new X(…)` of an error class, the properties set on
//! one after it is made (`err.code = …`), classes whose constructor
//! passes a message to `super(…)`, and `this.message = …`.

use super::*;

/// `new X(…)`: a site when X is an error class (`…Error`, `…Exception`,
/// `…Warning`, node's `ERR_…`) or when the object is thrown or rejected.
pub(super) fn new_expression(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(ctor) = n.child_by_field_name("constructor") else {
        return;
    };
    let args = arguments(n.child_by_field_name("arguments"));
    let thrown = used_as_error(n, cx);
    error_object(n, ctor, &args, thrown, cx);
}

/// The severity an error class's name implies, if it names one.
pub(super) fn error_class_severity(name: &str) -> Option<Severity> {
    if name.ends_with("Warning") {
        Some(Severity::Warning)
    } else if name.ends_with("Error") || name.ends_with("Exception") || is_node_code(name) {
        Some(Severity::Error)
    } else {
        None
    }
}

/// Node's internal error classes are named by their code: `ERR_INVALID_ARG_TYPE`.
pub(super) fn is_node_code(name: &str) -> bool {
    name.starts_with("ERR_")
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// A site for an error object made at `n` by `ctor(args)`; `thrown`
/// says it is thrown or rejected, so that any class counts.
pub(super) fn error_object(
    n: Node<'_>,
    ctor: Node<'_>,
    args: &[Node<'_>],
    thrown: bool,
    cx: &mut Cx<'_>,
) {
    let class = cx.text(ctor);
    if class.len() > 80 || class.contains(['\n', '(']) {
        return;
    }
    let name = last_name(class).to_string();
    let sev = match error_class_severity(&name) {
        Some(sev) => sev,
        None if thrown => Severity::Error,
        None => return,
    };
    // `new Error()` says nothing; an error class without arguments makes
    // its message in its own constructor, a site of its own.
    if args.is_empty() {
        return;
    }
    let mut site = cx.site(n, class, ErrorType::Exception, sev);
    site.error_class = Some(name.clone());
    // Thrown later (`throw err`) or rejected: handed to the caller.
    site.facts.returned |= thrown;
    if is_node_code(&name) {
        // Node's internal errors build their message from a table the
        // arguments only fill; what a log shows for sure is the code.
        site.error_code = Some(name.clone());
        cx.push(site, vec![text_part(name)], Vec::new(), n);
        return;
    }
    let msg = match name.as_str() {
        "AxiosError" => {
            site.error_code = args.get(1).and_then(|c| code_value(*c, cx));
            args.first().copied()
        }
        "AggregateError" => args.get(1).copied(),
        // By convention the message comes first (after an HTTP status);
        // a class taking other values first builds its message in its own
        // constructor, whose `super(…)` is the site, and a word among
        // them (`new NodeStuffInWebError(loc, "global", …)`) is no message.
        _ => args.iter().copied().find(|a| unwrap(*a).kind() != "number"),
    };
    if name.contains("Http") || name.contains("HTTP") {
        if let Some(status) = args.iter().find_map(|a| status_of(*a, cx)) {
            site.http_status = Some(status);
            site.error_type = ErrorType::Http;
            site.severity = tree::severity_of_status(status);
        }
    }
    for props in attached_properties(n, cx) {
        apply_property(&mut site, &props, cx);
    }
    let Some(msg) = msg else {
        return;
    };
    let (message, holes) = message_of(msg, cx);
    cx.push(site, message, holes, n);
}

/// A property set on a new error: `code`, `status`, `name`.
pub(super) struct Prop<'t> {
    pub(super) key: String,
    pub(super) value: Node<'t>,
}

/// Properties set on the error object made at `n`: the object of an
/// `Object.assign(new Error(m), {…})`, and `err.code = …` statements that
/// follow `const err = new Error(m)` in the same block.
pub(super) fn attached_properties<'t>(n: Node<'t>, cx: &Cx<'_>) -> Vec<Vec<Prop<'t>>> {
    let mut out = Vec::new();
    if let Some(call) = assign_target_call(n, cx) {
        for obj in arguments(call.child_by_field_name("arguments"))
            .iter()
            .skip(1)
        {
            if obj.kind() == "object" {
                out.push(pairs(*obj, cx));
            }
        }
    }
    if let Some((name, stmt)) = binding(n, cx) {
        let mut props = Vec::new();
        for s in following_statements(stmt) {
            let Some(a) = s.named_child(0).filter(|a| {
                s.kind() == "expression_statement" && a.kind() == "assignment_expression"
            }) else {
                continue;
            };
            let (Some(l), Some(r)) = (
                a.child_by_field_name("left"),
                a.child_by_field_name("right"),
            ) else {
                continue;
            };
            if l.kind() == "member_expression"
                && l.child_by_field_name("object")
                    .is_some_and(|o| cx.text(o) == name)
            {
                if let Some(p) = l.child_by_field_name("property") {
                    props.push(Prop {
                        key: cx.text(p).to_string(),
                        value: r,
                    });
                }
            }
        }
        out.push(props);
    }
    out
}

/// The `Object.assign(…)` call whose first argument is `n`.
pub(super) fn assign_target_call<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let list = n.parent().filter(|p| p.kind() == "arguments")?;
    let call = list.parent()?;
    let f = call.child_by_field_name("function")?;
    (cx.text(f) == "Object.assign" && list.named_child(0).is_some_and(|a| a.id() == n.id()))
        .then_some(call)
}

pub(super) fn apply_property(site: &mut errdex_model::RawSite, props: &[Prop<'_>], cx: &Cx<'_>) {
    for p in props {
        match p.key.as_str() {
            "code" => {
                if let Some(c) = code_value(p.value, cx) {
                    site.error_code = Some(c);
                }
            }
            "status" | "statusCode" => {
                if let Some(s) = status_of(p.value, cx) {
                    site.http_status = Some(s);
                }
            }
            "name" => {
                if let Some(s) = string_value(p.value, cx) {
                    site.error_class = Some(s);
                }
            }
            _ => {}
        }
    }
}

/// The variable a new object is stored in (`const err = new X()`,
/// `err = new X()`) and the statement that stores it.
pub(super) fn binding<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<(String, Node<'t>)> {
    let p = n.parent()?;
    match p.kind() {
        "variable_declarator" => {
            let name = p.child_by_field_name("name")?;
            let stmt = p.parent()?;
            (name.kind() == "identifier").then(|| (cx.text(name).to_string(), stmt))
        }
        "assignment_expression" => {
            let name = p.child_by_field_name("left")?;
            let stmt = p.parent().filter(|s| s.kind() == "expression_statement")?;
            (name.kind() == "identifier").then(|| (cx.text(name).to_string(), stmt))
        }
        _ => None,
    }
}

/// Statements after `stmt` in its block, a few and small ones only: a
/// bundle's top level must not make each binding read the whole file.
pub(super) fn following_statements(stmt: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(stmt.next_named_sibling(), |s| s.next_named_sibling())
        .take(12)
        .filter(|s| s.byte_range().len() <= 4000)
}

/// Whether the object made at `n` is thrown (`throw new X`, or stored and
/// thrown a few statements later) or rejected (`reject(new X)`,
/// `Promise.reject(new X)`).
pub(super) fn used_as_error(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let mut p = n.parent();
    while let Some(x) = p.filter(|x| is_wrapper(x.kind()) || x.kind() == "await_expression") {
        p = x.parent();
    }
    let Some(p) = p else {
        return false;
    };
    match p.kind() {
        "throw_statement" => true,
        "arguments" => p
            .parent()
            .and_then(|c| c.child_by_field_name("function"))
            .is_some_and(|f| last_name(cx.text(f)) == "reject"),
        _ => binding(n, cx).is_some_and(|(name, stmt)| {
            following_statements(stmt).any(|s| {
                let t = cx.text(s);
                ["throw ", "reject("].iter().any(|w| {
                    t.match_indices(w).any(|(i, _)| {
                        let rest = &t[i + w.len()..];
                        rest.starts_with(name.as_str())
                            && !rest[name.len()..]
                                .starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
                    })
                })
            })
        }),
    }
}

/// `super("…")` and `this.message = "…"` inside an error class: the
/// class makes its message itself.
pub(super) fn class_message(n: Node<'_>, msg: Node<'_>, callee: &str, cx: &mut Cx<'_>) {
    let Some(class) = std::iter::successors(n.parent(), |p| p.parent()).find(|p| {
        matches!(
            p.kind(),
            "class_declaration" | "class" | "abstract_class_declaration"
        )
    }) else {
        return;
    };
    let name = class.child_by_field_name("name").map(|c| cx.text(c));
    let heritage = {
        let mut cur = class.walk();
        let h = class
            .children(&mut cur)
            .find(|c| c.kind() == "class_heritage")
            .map(|h| cx.text(h));
        h
    };
    let sev = name
        .and_then(error_class_severity)
        .or_else(|| {
            heritage.and_then(|h| {
                error_class_severity(h.split('{').next()?.trim_end().trim_end_matches(')'))
            })
        })
        .or_else(|| {
            heritage
                .filter(|h| h.contains("Error"))
                .map(|_| Severity::Error)
        });
    let Some(sev) = sev else {
        return;
    };
    if !is_text(msg, cx) {
        // `super(message)` passes on what the caller built: no new text.
        return;
    }
    let mut site = cx.site(n, callee, ErrorType::Exception, sev);
    site.error_class = name.map(str::to_string);
    let (message, holes) = message_of(msg, cx);
    cx.push(site, message, holes, n);
}

/// `AxiosError.call(this, message == null ? 'canceled' : message, …)`
/// in `function CanceledError(message, …)`: an error constructor written
/// as a function calls its parent's as `super(…)` does in a class; the
/// text it passes (each text branch of a `?:`) is its message.
pub(super) fn constructor_call(
    n: Node<'_>,
    (callee, parent): (&str, &str),
    args: &[Node<'_>],
    cx: &mut Cx<'_>,
) {
    let (Some(this), Some(msg)) = (args.first(), args.get(1)) else {
        return;
    };
    if cx.text(*this) != "this" || error_class_severity(last_name(parent)).is_none() {
        return;
    }
    let Some(function) = std::iter::successors(n.parent(), |p| p.parent()).find(|p| {
        matches!(
            p.kind(),
            "function_declaration" | "function_expression" | "function"
        )
    }) else {
        return;
    };
    let name = function
        .child_by_field_name("name")
        .map(|c| cx.text(c))
        .or_else(|| assigned_name(function, cx));
    let Some((name, sev)) = name.and_then(|c| Some((c.to_string(), error_class_severity(c)?)))
    else {
        return;
    };
    let branches: Vec<Node<'_>> = match msg.kind() {
        "ternary_expression" => ["consequence", "alternative"]
            .into_iter()
            .filter_map(|b| msg.child_by_field_name(b))
            .collect(),
        _ => vec![*msg],
    };
    let texts: Vec<Node<'_>> = branches.into_iter().filter(|b| is_text(*b, cx)).collect();
    for text in texts {
        let mut site = cx.site(text, callee, ErrorType::Exception, sev);
        site.error_class = Some(name.clone());
        let (message, holes) = message_of(text, cx);
        cx.push(site, message, holes, text);
    }
}

/// The name a function expression is assigned to (`const CanceledError =
/// function (…) {…}`).
pub(super) fn assigned_name<'s>(function: Node<'_>, cx: &Cx<'s>) -> Option<&'s str> {
    let parent = function.parent()?;
    let name = match parent.kind() {
        "variable_declarator" => parent.child_by_field_name("name")?,
        "assignment_expression" => parent.child_by_field_name("left")?,
        _ => return None,
    };
    Some(last_name(cx.text(name)))
}

/// `this.message = "…"` in an error class.
pub(super) fn this_message(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(l), Some(r)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    if cx.text(l) == "this.message" {
        class_message(n, r, "this.message", cx);
    } else {
        kept::message_set(n, l, r, cx);
    }
}
