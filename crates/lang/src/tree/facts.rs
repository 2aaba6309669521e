//! The facts around a site, read from the node kinds a language names in
//! its [`Syntax`]: the enclosing function and class (a nested Python
//! function as `outer.<locals>.name`), the guards of the branches that
//! lead to it (an `else` negates every earlier condition), loops, the call
//! a `catch` handles, and the comments and docstring above.

use super::{Cx, Syntax};
use errdex_model::{Lang, SiteFacts};
use tree_sitter::Node;

/// The enclosing function (`Class.method` for methods) and the facts of
/// the site at `n`.
pub(super) fn site_facts(n: Node<'_>, cx: &Cx<'_>) -> (Option<String>, SiteFacts) {
    let syntax = cx.syntax;
    let text = |n: Node<'_>| cx.text(n);
    let chain: Vec<Node<'_>> = std::iter::successors(Some(n), |c| c.parent()).collect();
    let mut f = SiteFacts::default();
    let func = chain
        .iter()
        .skip(1)
        .find(|a| syntax.functions.contains(&a.kind()))
        .copied();
    // A Python function nested in another is no method of the class
    // around both: it is named as Python's qualified name does
    // (`run_wsgi.<locals>.start_response`), with no receiver.
    let outer = func
        .filter(|_| syntax.lang == Lang::Python)
        .and_then(|func| {
            chain
                .iter()
                .skip_while(|a| a.id() != func.id())
                .skip(1)
                .take_while(|a| !syntax.classes.contains(&a.kind()))
                .find(|a| syntax.functions.contains(&a.kind()))
                .and_then(|o| (syntax.names.function)(*o, cx))
        });
    let class_node = chain
        .iter()
        .find(|a| syntax.classes.contains(&a.kind()))
        .copied()
        .filter(|_| outer.is_none());
    let class = class_node.and_then(|c| (syntax.names.class)(c, cx));
    f.receiver = class.clone();
    let mut function = None;
    if let Some(func) = func {
        f.setter = is_setter(func, cx);
        let name = (syntax.names.function)(func, cx);
        f.doc = comment_above(func, syntax, cx.src).or_else(|| docstring(func, cx));
        // A class's text method says when the class is raised only
        // through the class's own doc.
        let text_method = name
            .as_deref()
            .is_some_and(|n| matches!(n, "__str__" | "__repr__" | "toString" | "getMessage"));
        if let Some(c) = class_node.filter(|_| text_method) {
            f.class_doc = comment_above(c, syntax, cx.src).or_else(|| docstring(c, cx));
        }
        let body = func
            .child_by_field_name("body")
            .or_else(|| func.named_child(func.named_child_count().saturating_sub(1) as u32));
        if let Some(body) = body {
            let head = text(func).get(..body.start_byte() - func.start_byte());
            f.signature = head
                .map(|h| h.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|h| !h.is_empty() && h.len() <= 1000);
            f.loop_follows = loop_after(body, n.end_byte(), syntax);
        }
        f.in_main = name.as_deref() == Some("main");
        function = name.map(|name| match (&class, &outer) {
            (_, Some(o)) => format!("{o}.<locals>.{name}"),
            (Some(c), None) => format!("{c}.{name}"),
            (None, None) => name,
        });
    }
    // A `raise`/`throw` site is itself the statement that hands it on.
    f.returned = syntax.returns.contains(&n.kind());
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        let k = p.kind();
        if syntax.functions.contains(&k) {
            break;
        }
        if syntax.loops.contains(&k) {
            f.in_loop = true;
        }
        if syntax.returns.contains(&k) {
            f.returned = true;
        }
        if syntax.conditionals.contains(&k) {
            if let Some(cond) = p.child_by_field_name("condition") {
                if cond.id() != child.id() && f.guards.len() < MAX_GUARDS {
                    push_branch(&mut f.guards, branch_guards(p, cond, child, cx));
                }
            }
            if text(p).contains("__name__") && text(p).contains("__main__") {
                f.in_main = true;
            }
        }
        if syntax.catches.contains(&k) && f.wrapped_call.is_none() {
            // The handler's header (`except OSError as e`) is a condition.
            let header = text(p).lines().next().unwrap_or("").trim();
            let header = header.trim_end_matches(['{', ':']).trim();
            if !header.is_empty() && f.guards.len() < MAX_GUARDS {
                f.guards.push(clip_line(header));
            }
            if let Some(call) = p.parent().and_then(|t| first_call_before(t, p, cx)) {
                f.wrapped_call = Some(call);
            }
        }
    }
    f.prints_next = crate::prints_next::prints_next(n, cx.src);
    if f.in_loop {
        let is_function = |k: &str| syntax.functions.contains(&k);
        f.skips_item = crate::skips::skipped_loop(&chain, syntax.loops, &is_function, cx.src);
    }
    f.passed = super::passed::passed(&chain, cx);
    if let (Some(node), Some(name)) = (class_node, f.receiver.as_deref()) {
        f.fields_given = super::fields_given::fields_given(node, name, &f.guards, cx);
    }
    f.comment = chain
        .iter()
        .take_while(|a| !syntax.functions.contains(&a.kind()))
        .find_map(|a| comment_above(*a, syntax, cx.src));
    (function, f)
}

/// The conditions under which `child` of the conditional `p` runs: `p`'s
/// condition in its consequence; in an `else` (or a later `elif`), every
/// earlier condition negated (`not (a)`, `not (b)`).
/// A Python property's setter: a definition decorated `@name.setter`.
fn is_setter(func: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(decorated) = func.parent().filter(|p| p.kind() == "decorated_definition") else {
        return false;
    };
    let mut cur = decorated.walk();
    let found = decorated
        .named_children(&mut cur)
        .filter(|d| d.kind() == "decorator")
        .any(|d| cx.text(d).trim_end().ends_with(".setter"));
    found
}

/// Guards kept per site from the conditionals around it.
const MAX_GUARDS: usize = 4;
/// An `else` negates every earlier branch: up to this many are kept
/// together, past [`MAX_GUARDS`] if need be.
const MAX_ELSE_BRANCHES: usize = 8;

/// Adds one conditional's guards whole or not at all: the negations an
/// `else` stands for are one condition, and a part of them states a
/// weaker one (`else` after five branches is not "none of the first
/// four"). The innermost conditional comes first and is kept up to
/// [`MAX_ELSE_BRANCHES`]; an outer one only when it fits in
/// [`MAX_GUARDS`].
fn push_branch(guards: &mut Vec<String>, branch: Vec<String>) {
    let room = if guards.is_empty() {
        MAX_ELSE_BRANCHES
    } else {
        MAX_GUARDS.saturating_sub(guards.len())
    };
    if branch.len() <= room {
        guards.extend(branch);
    }
}

fn branch_guards(p: Node<'_>, cond: Node<'_>, child: Node<'_>, cx: &Cx<'_>) -> Vec<String> {
    let text = |n: Node<'_>| cx.text(n);
    let after_consequence = p
        .child_by_field_name("consequence")
        .is_some_and(|c| child.start_byte() >= c.end_byte());
    let is_alternative = p
        .child_by_field_name("alternative")
        .is_some_and(|a| a.id() == child.id());
    if !after_consequence && !is_alternative {
        return vec![clip_line(text(cond))];
    }
    let mut out = vec![format!("not ({})", clip_line(text(cond)))];
    let mut cur = p.walk();
    for elif in p.named_children(&mut cur) {
        if elif.kind() == "elif_clause" && elif.start_byte() < child.start_byte() {
            if let Some(c) = elif.child_by_field_name("condition") {
                out.push(format!("not ({})", clip_line(text(c))));
            }
        }
    }
    out
}

fn clip_line(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &one[..i]),
        None => one,
    }
}

/// The callee of the first call in a `try` statement before its handler
/// `handler` (`open(path)` → `open`).
fn first_call_before(try_stmt: Node<'_>, handler: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut stack = vec![try_stmt];
    let mut best: Option<Node<'_>> = None;
    while let Some(n) = stack.pop() {
        if n.start_byte() >= handler.start_byte() {
            continue;
        }
        let k = n.kind();
        if matches!(
            k,
            "call"
                | "call_expression"
                | "method_invocation"
                | "invocation_expression"
                | "function_call_expression"
                | "member_call_expression"
                | "scoped_call_expression"
                | "method_call"
                | "object_creation_expression"
        ) && best.is_none_or(|b| n.start_byte() < b.start_byte())
        {
            best = Some(n);
            continue;
        }
        let mut cur = n.walk();
        stack.extend(n.named_children(&mut cur));
    }
    let call = best?;
    let f = call
        .child_by_field_name("function")
        .or_else(|| call.child_by_field_name("name"))
        .or_else(|| call.child_by_field_name("method"))
        .or_else(|| call.named_child(0))?;
    let t = cx.text(f);
    (t.len() <= 80).then(|| t.split_whitespace().collect())
}

/// Whether a loop starts among the body's statements after `end`.
fn loop_after(body: Node<'_>, end: usize, syntax: &Syntax) -> bool {
    let mut cur = body.walk();
    let found = body
        .named_children(&mut cur)
        .any(|s| s.start_byte() > end && syntax.loops.contains(&s.kind()));
    found
}

/// Comment lines right above `n` (its previous siblings, line after line).
fn comment_above(n: Node<'_>, syntax: &Syntax, src: &[u8]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut row = n.start_position().row;
    let mut prev = n.prev_sibling();
    while let Some(c) = prev {
        if !syntax.comments.contains(&c.kind()) || c.end_position().row + 1 < row {
            break;
        }
        let t = c.utf8_text(src).unwrap_or_default();
        lines.push(strip_comment(t));
        row = c.start_position().row;
        prev = c.prev_sibling();
    }
    lines.reverse();
    let joined = lines.join(" ").trim().to_string();
    (!joined.is_empty()).then_some(joined)
}

/// A Python docstring: the string that opens a function's body.
fn docstring(func: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let body = func.child_by_field_name("body")?;
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let t = cx.text(s).trim_matches(['"', '\'', 'r', 'u']);
    let one = t.split_whitespace().collect::<Vec<_>>().join(" ");
    (!one.is_empty()).then_some(one)
}

/// A comment's text without its markers.
pub(super) fn strip_comment(t: &str) -> String {
    t.lines()
        .map(|l| {
            let l = l.trim();
            let l = l
                .trim_start_matches("///")
                .trim_start_matches("//!")
                .trim_start_matches("//")
                .trim_start_matches("/**")
                .trim_start_matches("/*")
                .trim_end_matches("*/")
                .trim_start_matches('*')
                .trim_start_matches('#')
                .trim_start_matches("--");
            l.trim()
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
