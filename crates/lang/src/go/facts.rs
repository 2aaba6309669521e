//! Facts about the code around a Go site, read from the syntax tree: the
//! analysis explains an error from these and from nothing else.

use errdex_model::SiteFacts;
use tree_sitter::Node;

/// The enclosing function (`Type.method` for methods) and the facts of
/// the site whose call (or declaration) is `n`.
pub(crate) fn site_facts(n: Node<'_>, src: &[u8], package: &str) -> (Option<String>, SiteFacts) {
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or_default().to_string();
    let mut f = SiteFacts {
        package: (!package.is_empty()).then(|| package.to_string()),
        ..SiteFacts::default()
    };
    // `parent()` searches down from the root each time: walk up once and
    // keep the chain, `n` first.
    let chain: Vec<Node<'_>> = std::iter::successors(Some(n), |c| c.parent()).collect();
    let mut function = None;
    if let Some(func) = chain
        .iter()
        .find(|a| matches!(a.kind(), "function_declaration" | "method_declaration"))
    {
        f.doc = comment_above(*func, src);
        f.receiver = func
            .child_by_field_name("receiver")
            .and_then(|r| super::find_kind(r, "type_identifier"))
            .map(text);
        let name = func.child_by_field_name("name").map(text);
        f.signature = func.child_by_field_name("body").map(|body| {
            let head = &src[func.start_byte()..body.start_byte()];
            String::from_utf8_lossy(head)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        });
        f.loop_follows = func
            .child_by_field_name("body")
            .is_some_and(|body| loop_after(body, n));
        f.in_main = func.kind() == "function_declaration"
            && name.as_deref() == Some("main")
            && package == "main";
        f.http_handler = func
            .child_by_field_name("parameters")
            .is_some_and(|p| text(p).contains("http.ResponseWriter"));
        function = name.map(|name| match &f.receiver {
            Some(r) => format!("{r}.{name}"),
            None => name,
        });
    }
    // Guards and loops up to the function (or closure) around the site.
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        match p.kind() {
            k if is_function(k) => break,
            "for_statement" => f.in_loop = true,
            "return_statement" => f.returned = true,
            // A `switch` or `select` branch is a condition like an `if`.
            "expression_case" => {
                let values = p
                    .child_by_field_name("value")
                    .map(|v| {
                        let mut cur = v.walk();
                        v.named_children(&mut cur).map(text).collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                let conds = case_conditions(p.parent(), &values, src);
                if !conds.is_empty() {
                    f.guards.push(conds.join(" || "));
                }
            }
            // The default branch runs when no case matched.
            "default_case" => {
                let mut values = Vec::new();
                if let Some(sw) = p.parent() {
                    let mut cur = sw.walk();
                    for case in sw.named_children(&mut cur) {
                        if case.kind() != "expression_case" {
                            continue;
                        }
                        if let Some(v) = case.child_by_field_name("value") {
                            let mut cur = v.walk();
                            values.extend(v.named_children(&mut cur).map(text));
                        }
                    }
                }
                let conds = case_conditions(p.parent(), &values, src);
                if !conds.is_empty() {
                    f.guards.push(format!("!({})", conds.join(" || ")));
                }
            }
            "communication_case" => {
                if let Some(c) = p.child_by_field_name("communication") {
                    f.guards.push(text(c));
                }
            }
            "if_statement" => {
                if let Some(cond) = p.child_by_field_name("condition") {
                    let branch = |field: &str| {
                        p.child_by_field_name(field)
                            .is_some_and(|b| b.id() == child.id())
                    };
                    if branch("consequence") {
                        f.guards.push(text(cond));
                    } else if branch("alternative") {
                        f.guards.push(format!("!({})", text(cond)));
                    }
                }
            }
            _ => {}
        }
    }
    // The statement holding the site: the first node of the chain whose
    // parent is a statement list.
    let statement = chain.windows(2).find_map(|pair| {
        (is_statement_parent(pair[1]) && pair[0].kind() != "comment").then_some(pair[0])
    });
    if let Some(stmt) = statement {
        f.comment = comment_above(stmt, src);
    }
    f.exits_after = super::exits::exit_after(&chain, src);
    f.prints_next = crate::prints_next::prints_next(n, src);
    if f.in_loop {
        f.skips_item = crate::skips::skipped_loop(&chain, &["for_statement"], &is_function, src);
    }
    f.passed = super::exits::passed(&chain, src);
    if let Some((call, stmt)) = wrapped_call(&chain, src).or_else(|| failed_call(&chain, src)) {
        f.wrapped_call = call
            .child_by_field_name("function")
            .map(text)
            .or_else(|| Some(text(call)));
        f.wrapped_call_comment = comment_above(stmt, src);
    }
    (function, f)
}

/// What each case value of the `switch` statement `sw` tests: `tag == v`,
/// or the value itself in a `switch` without a tag.
fn case_conditions(sw: Option<Node<'_>>, values: &[String], src: &[u8]) -> Vec<String> {
    let tag = sw
        .and_then(|sw| sw.child_by_field_name("value"))
        .map(|t| t.utf8_text(src).unwrap_or_default());
    values
        .iter()
        .map(|v| match tag {
            Some(t) => format!("{t} == {v}"),
            None => v.clone(),
        })
        .collect()
}

/// Whether a `for` statement can run after the site `n` in the function
/// body `body`: in a statement after `n`'s statement, or after a
/// statement around it, up to the body. A `for` in another `case` of the
/// same `switch`, or in the `else` of the `if` around `n`, never runs
/// after it; one inside a closure is not this function's.
fn loop_after(body: Node<'_>, n: Node<'_>) -> bool {
    let mut cur = n;
    while let Some(p) = cur.parent() {
        if p.kind() == "func_literal" {
            return false;
        }
        if is_statement_parent(p) {
            let mut sib = cur.next_named_sibling();
            while let Some(s) = sib {
                if holds_loop(s) {
                    return true;
                }
                sib = s.next_named_sibling();
            }
        }
        if p.id() == body.id() {
            break;
        }
        cur = p;
    }
    false
}

/// Whether `n` is or holds a `for` statement outside a closure.
fn holds_loop(n: Node<'_>) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "for_statement" => return true,
            "func_literal" => continue,
            _ => {}
        }
        let mut cur = n.walk();
        stack.extend(n.named_children(&mut cur));
    }
    false
}

/// Whether children of `p` are statements.
fn is_statement_parent(p: Node<'_>) -> bool {
    matches!(p.kind(), "statement_list" | "block" | "source_file")
}

/// The comment lines ending on the line just above `n`, markers removed.
fn comment_above(n: Node<'_>, src: &[u8]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut row = n.start_position().row;
    let mut prev = n.prev_sibling();
    // A block's first statement: comments above it sit beside the
    // block's statement list, not inside it.
    if prev.is_none() && n.parent().is_some_and(|p| p.kind() == "statement_list") {
        prev = n.parent().and_then(|p| p.prev_sibling());
    }
    while let Some(c) = prev {
        if c.kind() != "comment" || c.end_position().row + 1 != row {
            break;
        }
        let t = c.utf8_text(src).unwrap_or_default();
        let body = t
            .strip_prefix("//")
            .map(|b| b.trim().to_string())
            .or_else(|| {
                t.strip_prefix("/*")
                    .and_then(|b| b.strip_suffix("*/"))
                    .map(|b| b.trim().to_string())
            })
            .unwrap_or_default();
        lines.push(body);
        row = c.start_position().row;
        prev = c.prev_sibling();
    }
    lines.reverse();
    let joined = lines.join(" ").trim().to_string();
    (!joined.is_empty()).then_some(joined)
}

/// Whether a node kind is a function: a declaration, a method or a
/// literal (`func() { … }`).
pub(super) fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration" | "method_declaration" | "func_literal"
    )
}

/// The call whose error value the site (`chain[0]`, then its ancestors)
/// passes on, with the statement that makes it: for each error-looking
/// identifier among the site's arguments, the nearest assignment to it
/// from a call before the site, in the same function (an `if` initializer
/// counts).
fn wrapped_call<'t>(chain: &[Node<'t>], src: &[u8]) -> Option<(Node<'t>, Node<'t>)> {
    let args = chain.first()?.child_by_field_name("arguments")?;
    let mut names: Vec<&str> = Vec::new();
    let mut cur = args.walk();
    for a in args.named_children(&mut cur) {
        if a.kind() == "identifier" {
            let t = a.utf8_text(src).unwrap_or_default();
            if super::is_error_value(t) {
                names.push(t);
            }
        }
    }
    if names.is_empty() {
        return None;
    }
    assigning_call(chain, &names, src)
}

/// The call whose failure leads to the site when the message does not
/// carry the error: the innermost `if err != nil` around the site, and
/// the call that assigned that `err` (`if err := f.Sync(); err != nil {
/// log("failed to sync") }` → `f.Sync`).
fn failed_call<'t>(chain: &[Node<'t>], src: &[u8]) -> Option<(Node<'t>, Node<'t>)> {
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or_default();
    let at = chain.windows(2).position(|pair| {
        let (child, p) = (pair[0], pair[1]);
        p.kind() == "if_statement"
            && p.child_by_field_name("consequence")
                .is_some_and(|c| c.id() == child.id())
            && p.child_by_field_name("condition")
                .and_then(|c| text(c).strip_suffix("!= nil"))
                .is_some_and(|name| super::is_error_value(name.trim()))
    })?;
    if chain[..=at].iter().any(|n| is_function(n.kind())) {
        return None;
    }
    let cond = chain[at + 1].child_by_field_name("condition")?;
    let name = text(cond).trim_end_matches("!= nil").trim();
    assigning_call(&chain[at..], &[name], src)
}

/// The nearest call before `chain[0]` (in its function) that assigns one
/// of `names`, and its statement.
fn assigning_call<'t>(
    chain: &[Node<'t>],
    names: &[&str],
    src: &[u8],
) -> Option<(Node<'t>, Node<'t>)> {
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        if is_function(p.kind()) {
            break;
        }
        if p.kind() == "if_statement" {
            if let Some(init) = p.child_by_field_name("initializer") {
                if init.id() != child.id() {
                    if let Some(call) = assigned_call(init, names, src) {
                        return Some((call, p));
                    }
                }
            }
        }
        if is_statement_parent(p) {
            let mut prev = child.prev_named_sibling();
            while let Some(s) = prev {
                if let Some(call) = assigned_call(s, names, src) {
                    return Some((call, s));
                }
                // Assigned inside a block in between (`if p { err =
                // startProxy() }`): which call it was depends on the run.
                if assigns_within(s, names, src) {
                    return None;
                }
                prev = s.prev_named_sibling();
            }
        }
    }
    None
}

/// Whether a statement nested in `stmt` (not in a closure) assigns one of
/// `names`.
fn assigns_within(stmt: Node<'_>, names: &[&str], src: &[u8]) -> bool {
    let mut cur = stmt.walk();
    let mut stack: Vec<Node<'_>> = stmt.named_children(&mut cur).collect();
    while let Some(n) = stack.pop() {
        if n.kind() == "func_literal" {
            continue;
        }
        if matches!(n.kind(), "short_var_declaration" | "assignment_statement") {
            let left = n.child_by_field_name("left");
            let mut cur = n.walk();
            let assigns = left.is_some_and(|l| {
                l.named_children(&mut cur)
                    .chain(std::iter::once(l))
                    .any(|id| names.contains(&id.utf8_text(src).unwrap_or_default()))
            });
            if assigns {
                return true;
            }
        }
        let mut cur = n.walk();
        stack.extend(n.named_children(&mut cur));
    }
    false
}

/// The call on the right of `stmt` when `stmt` assigns one of `names`
/// (`x, err := f()`, `err = f()`, `var err = f()`).
fn assigned_call<'t>(stmt: Node<'t>, names: &[&str], src: &[u8]) -> Option<Node<'t>> {
    let (left, right) = match stmt.kind() {
        "short_var_declaration" | "assignment_statement" => (
            stmt.child_by_field_name("left")?,
            stmt.child_by_field_name("right")?,
        ),
        "var_declaration" => {
            let spec = super::find_kind(stmt, "var_spec")?;
            (spec, spec.child_by_field_name("value")?)
        }
        _ => return None,
    };
    let mut cur = left.walk();
    let assigns = left
        .named_children(&mut cur)
        .chain(std::iter::once(left))
        .any(|id| {
            id.kind() == "identifier" && names.contains(&id.utf8_text(src).unwrap_or_default())
        });
    if !assigns {
        return None;
    }
    let mut cur = right.walk();
    let first = if right.kind() == "call_expression" {
        Some(right)
    } else {
        right.named_children(&mut cur).next()
    };
    first.filter(|c| c.kind() == "call_expression")
}

#[cfg(test)]
mod tests {
    use crate::{ExtractOptions, LanguageSupport};
    use errdex_model::SiteFacts;

    fn facts(src: &str) -> Vec<(String, SiteFacts)> {
        let f = crate::go::Go.extract("p/a.go", src, &ExtractOptions::default());
        crate::resolve_package(vec![f])
            .0
            .into_iter()
            .map(|s| (s.message_pattern, s.facts))
            .collect()
    }

    #[test]
    fn wrapped_call_guards_and_comments() {
        let src = r#"package cmd

import (
	"fmt"
	"net/http"
)

// runLoop reconciles until ctx is cancelled.
func runLoop(ctx context.Context) error {
	// Serve a readiness probe so a persistent failure surfaces as NotReady.
	readiness, err := serveReadiness(ctx)
	if err != nil {
		return fmt.Errorf("serving readiness probe: %w", err)
	}
	for {
		if c.StopRequested() {
			return fmt.Errorf("stop requested")
		} else {
			// keep going
			if err := apply(x); err != nil {
				return fmt.Errorf("apply failed: %v", err)
			}
		}
	}
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "bad request", http.StatusBadRequest)
}

func main() {
	panic("no config")
}

func pick(mode string, ctx context.Context) error {
	switch mode {
	case "a", "b":
		return fmt.Errorf("mode %s unsupported", mode)
	}
	switch {
	case len(mode) > 9:
		return fmt.Errorf("mode too long")
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("pick cancelled")
	}
	switch mode {
	case "x":
	case "y", "z":
	default:
		return fmt.Errorf("unknown mode")
	}
}

func sync(f *os.File, ok bool) error {
	if ok {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("failed to sync")
		}
	}
	err := f.Close()
	if err != nil {
		panic("failed to close")
	}
	if ok {
		err = f.Sync()
	}
	if err != nil {
		panic("failed to close or sync")
	}
	return nil
}

func logging(kind string, outs []string) error {
	switch kind {
	case "capnslog":
		if len(outs) != 1 {
			return fmt.Errorf("only one output")
		}
	case "zap":
		for _, o := range outs {
			_ = o
		}
	}
	return nil
}
"#;
        let got = facts(src);
        let by = |p: &str| got.iter().find(|(m, _)| m == p).unwrap().1.clone();

        let probe = by("serving readiness probe: %w");
        assert_eq!(probe.package.as_deref(), Some("cmd"));
        assert_eq!(
            probe.doc.as_deref(),
            Some("runLoop reconciles until ctx is cancelled.")
        );
        assert_eq!(probe.guards, vec!["err != nil"]);
        assert_eq!(probe.wrapped_call.as_deref(), Some("serveReadiness"));
        assert_eq!(
            probe.wrapped_call_comment.as_deref(),
            Some("Serve a readiness probe so a persistent failure surfaces as NotReady.")
        );
        assert!(!probe.in_loop);
        assert!(probe.returned && probe.loop_follows);
        assert_eq!(
            probe.signature.as_deref(),
            Some("func runLoop(ctx context.Context) error")
        );

        let stop = by("stop requested");
        assert_eq!(stop.guards, vec!["c.StopRequested()"]);
        assert!(stop.in_loop);
        assert_eq!(stop.wrapped_call, None);
        assert!(stop.returned && !stop.loop_follows);
        // A loop in another case of the switch never runs after the site.
        let one = by("only one output");
        assert!(one.returned && !one.loop_follows);

        let apply = by("apply failed: %v");
        assert_eq!(apply.guards, vec!["err != nil", "!(c.StopRequested())"]);
        assert_eq!(apply.wrapped_call.as_deref(), Some("apply"));

        let bad = by("bad request");
        assert!(bad.http_handler);
        assert_eq!(bad.receiver.as_deref(), Some("Server"));
        assert!(!bad.in_main && !bad.returned);
        assert_eq!(
            bad.signature.as_deref(),
            Some("func (s *Server) handle(w http.ResponseWriter, r *http.Request)")
        );

        assert_eq!(
            by("mode %s unsupported").guards,
            vec![r#"mode == "a" || mode == "b""#]
        );
        assert_eq!(by("mode too long").guards, vec!["len(mode) > 9"]);
        assert_eq!(by("pick cancelled").guards, vec!["<-ctx.Done()"]);
        assert_eq!(
            by("unknown mode").guards,
            vec![r#"!(mode == "x" || mode == "y" || mode == "z")"#]
        );

        // A call whose failure the message does not carry is still the
        // call that failed.
        let sync = by("failed to sync");
        assert_eq!(sync.guards, vec!["err != nil", "ok"]);
        assert_eq!(sync.wrapped_call.as_deref(), Some("f.Sync"));
        assert_eq!(
            by("failed to close").wrapped_call.as_deref(),
            Some("f.Close")
        );
        // Assigned in a block in between: no one call is the one.
        assert_eq!(by("failed to close or sync").wrapped_call, None);

        // `func main` outside package main is no program's entry point.
        assert!(!by("no config").in_main);
        let main = facts("package main\n\nfunc main() {\n\tpanic(\"no config\")\n}\n");
        assert!(main[0].1.in_main);
    }
}
