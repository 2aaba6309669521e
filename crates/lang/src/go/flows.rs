//! Go's error flow ([`crate::flows`]): a whole-file parse, read once per
//! file the cause pass reaches.

use super::parse::new_parser;
use crate::flows::{CallFlow, FileFlows, FunctionFlow};
use std::cell::RefCell;
use tree_sitter::{Node, Parser};

/// Reads the flows of a Go file.
pub(super) fn flows(source: &str) -> FileFlows {
    thread_local! {
        static PARSER: RefCell<Parser> = RefCell::new(new_parser());
    }
    let text = super::with_new_of_values(source);
    let Ok(Some(tree)) = PARSER.with(|p| crate::guard::parse(&mut p.borrow_mut(), &text)) else {
        return FileFlows::default();
    };
    if crate::guard::too_deep(tree.root_node()).is_some() {
        return FileFlows::default();
    }
    let src = source.as_bytes();
    let mut out = FileFlows::default();
    let root = tree.root_node();
    let mut cur = root.walk();
    for decl in root.named_children(&mut cur) {
        match decl.kind() {
            "import_declaration" => imports(decl, src, &mut out.imports),
            "const_declaration" => constants(decl, src, &mut out.constants),
            "type_declaration" => super::types::types(decl, src, &mut out.types),
            "function_declaration" | "method_declaration" => {
                let f = function(decl, src, &out.imports);
                out.functions.push(f);
            }
            _ => {}
        }
    }
    out
}

fn text<'a>(n: Node<'_>, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

fn line(n: Node<'_>) -> u32 {
    n.start_position().row as u32 + 1
}

fn imports(decl: Node<'_>, src: &[u8], out: &mut Vec<(String, String)>) {
    visit(decl, &mut |n| {
        if n.kind() != "import_spec" {
            return true;
        }
        let Some(path) = n.child_by_field_name("path") else {
            return false;
        };
        let path = text(path, src).trim_matches(['"', '`']).to_string();
        let local = match n.child_by_field_name("name") {
            Some(name) if name.kind() == "package_identifier" => text(name, src).to_string(),
            Some(_) => return false,
            None => super::default_import_name(&path).to_string(),
        };
        out.push((local, path));
        false
    });
}

fn constants(decl: Node<'_>, src: &[u8], out: &mut Vec<(String, String)>) {
    visit(decl, &mut |n| {
        if n.kind() != "const_spec" {
            return true;
        }
        let (Some(name), Some(value)) = (
            n.child_by_field_name("name"),
            n.child_by_field_name("value"),
        ) else {
            return false;
        };
        let mut c = value.walk();
        if let Some(v) = value.named_children(&mut c).next() {
            out.push((text(name, src).to_string(), text(v, src).to_string()));
        }
        false
    });
}

fn function(decl: Node<'_>, src: &[u8], imports: &[(String, String)]) -> FunctionFlow {
    let mut f = FunctionFlow {
        name: decl
            .child_by_field_name("name")
            .map(|n| text(n, src).to_string())
            .unwrap_or_default(),
        line: line(decl),
        ..FunctionFlow::default()
    };
    if let Some(recv) = decl.child_by_field_name("receiver") {
        visit(recv, &mut |n| {
            if n.kind() != "parameter_declaration" {
                return true;
            }
            f.receiver_name = n
                .child_by_field_name("name")
                .map(|x| text(x, src).to_string());
            f.receiver = n.child_by_field_name("type").map(|t| {
                let t = text(t, src).trim_start_matches('*');
                t.split('[').next().unwrap_or(t).to_string()
            });
            false
        });
    }
    if let Some(params) = decl.child_by_field_name("parameters") {
        let mut c = params.walk();
        for p in params.named_children(&mut c) {
            let mut pc = p.walk();
            for name in p.children_by_field_name("name", &mut pc) {
                f.params.push(text(name, src).to_string());
            }
        }
    }
    if let Some(body) = decl.child_by_field_name("body") {
        body_flows(body, src, imports, &mut f);
        let returns_error = decl
            .child_by_field_name("result")
            .is_some_and(|r| last_result_is_error(text(r, src)));
        f.never_fails = returns_error && every_return_is_nil(body, src);
    }
    f
}

/// `error`, `(int, error)`, `(n int, err error)`: the last result is an
/// `error`.
fn last_result_is_error(result: &str) -> bool {
    let r = result.trim().trim_start_matches('(').trim_end_matches(')');
    let last = r.rsplit(',').next().unwrap_or(r).trim();
    last == "error" || last.ends_with(" error")
}

/// Whether the body has a `return` and every one (not a closure's) gives
/// a literal `nil` as its last value; a bare `return` (named results)
/// may return anything.
fn every_return_is_nil(body: Node<'_>, src: &[u8]) -> bool {
    let (mut any, mut all_nil) = (false, true);
    visit(body, &mut |n| match n.kind() {
        "func_literal" => false,
        "return_statement" => {
            any = true;
            let mut c = n.walk();
            let last = n.named_children(&mut c).last().map(|v| {
                if v.kind() == "expression_list" {
                    let mut vc = v.walk();
                    v.named_children(&mut vc).last().map(|x| text(x, src))
                } else {
                    Some(text(v, src))
                }
            });
            all_nil &= matches!(last, Some(Some("nil")));
            false
        }
        _ => true,
    });
    any && all_nil
}

/// Whether a name holds an error (`err`, `readErr`, `errRead`).
fn is_error_name(name: &str) -> bool {
    name == "err" || name.ends_with("Err") || name.starts_with("err")
}

fn call_of(n: Node<'_>, src: &[u8]) -> Option<CallFlow> {
    if n.kind() != "call_expression" {
        return None;
    }
    let callee = text(n.child_by_field_name("function")?, src).to_string();
    let mut args = Vec::new();
    if let Some(list) = n.child_by_field_name("arguments") {
        let mut c = list.walk();
        args = list
            .named_children(&mut c)
            .map(|a| text(a, src).to_string())
            .collect();
    }
    Some(CallFlow {
        callee,
        args,
        line: line(n),
        only: None,
    })
}

/// Reads assignments and returns of a body in source order: a call given
/// to an error variable is remembered until a bare `return …, err` hands
/// it up.
fn body_flows(body: Node<'_>, src: &[u8], imports: &[(String, String)], f: &mut FunctionFlow) {
    let mut last: Vec<(String, CallFlow)> = Vec::new();
    visit(body, &mut |n| match n.kind() {
        // A closure's returns are its own.
        "func_literal" => false,
        "short_var_declaration" | "assignment_statement" => {
            assignment(n, src, f, &mut last);
            true
        }
        "return_statement" => {
            returned(n, src, imports, f, &last);
            false
        }
        _ => true,
    });
}

fn assignment(n: Node<'_>, src: &[u8], f: &mut FunctionFlow, last: &mut Vec<(String, CallFlow)>) {
    let (Some(left), Some(right)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    let mut lc = left.walk();
    let names: Vec<&str> = left.named_children(&mut lc).map(|x| text(x, src)).collect();
    let mut rc = right.walk();
    let values: Vec<Node> = right.named_children(&mut rc).collect();
    if let [value] = values[..] {
        if let Some(call) = call_of(value, src) {
            if let Some(err) = names.iter().find(|x| is_error_name(x)) {
                f.error_calls.push(call.clone());
                last.retain(|(name, _)| name != err);
                last.push((err.to_string(), call));
            }
        }
    }
    if n.kind() == "short_var_declaration" && names.len() == values.len() {
        for (name, value) in names.iter().zip(&values) {
            if *name != "_" && f.local(name).is_none() {
                f.locals
                    .push((name.to_string(), text(*value, src).to_string()));
            }
        }
    }
}

fn returned(
    n: Node<'_>,
    src: &[u8],
    imports: &[(String, String)],
    f: &mut FunctionFlow,
    last: &[(String, CallFlow)],
) {
    let mut c = n.walk();
    let Some(value) = n.named_children(&mut c).last() else {
        return;
    };
    let value = if value.kind() == "expression_list" {
        let mut vc = value.walk();
        let Some(v) = value.named_children(&mut vc).last() else {
            return;
        };
        v
    } else {
        value
    };
    if let Some(call) = call_of(value, src) {
        // `return nil, fmt.Errorf(…)` makes an error: a site, not a call
        // whose error is handed up.
        if !makes_an_error(&call.callee, imports) {
            f.passes.push(call);
        }
    } else if value.kind() == "identifier" {
        let name = text(value, src);
        if let Some((_, call)) = last.iter().rev().find(|(n, _)| n == name) {
            let call = CallFlow {
                only: only_sentinel(n, name, src),
                ..call.clone()
            };
            pass(f, call);
        }
    }
}

/// Adds a call handed up; handed up whole, it replaces the same call
/// handed up for one sentinel only.
fn pass(f: &mut FunctionFlow, call: CallFlow) {
    let same = |c: &CallFlow| c.callee == call.callee && c.line == call.line;
    if f.passes.iter().any(|c| same(c) && c.only.is_none()) || f.passes.contains(&call) {
        return;
    }
    if call.only.is_none() {
        f.passes.retain(|c| !same(c));
    }
    f.passes.push(call);
}

/// The sentinel a `return …, err` hands up only: the innermost `if`
/// around it tests `err == X` or `errors.Is(err, X)` (its last name,
/// `ErrCompacted` of `raft.ErrCompacted`).
fn only_sentinel(ret: Node<'_>, err: &str, src: &[u8]) -> Option<String> {
    let mut cur = ret.parent()?;
    while cur.kind() != "if_statement" {
        if matches!(
            cur.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            return None;
        }
        cur = cur.parent()?;
    }
    // In the `else`, the test says what the error is not.
    let then = cur.child_by_field_name("consequence")?;
    if !(then.start_byte() <= ret.start_byte() && ret.end_byte() <= then.end_byte()) {
        return None;
    }
    let cond = text(cur.child_by_field_name("condition")?, src).trim();
    let sentinel = cond
        .strip_prefix(&format!("{err} == "))
        .or_else(|| {
            cond.strip_prefix(&format!("errors.Is({err}, "))
                .and_then(|r| r.strip_suffix(')'))
        })?
        .trim();
    let last = sentinel.rsplit('.').next().unwrap_or(sentinel);
    let name = |c: char| c.is_alphanumeric() || c == '_';
    (!last.is_empty() && sentinel.chars().all(|c| name(c) || c == '.')).then(|| last.to_string())
}

/// Whether a callee is one of the constructors the extractor reads as a
/// site (`fmt.Errorf`, `errors.Wrap`).
fn makes_an_error(callee: &str, imports: &[(String, String)]) -> bool {
    let Some((pkg, func)) = callee.split_once('.') else {
        return false;
    };
    imports
        .iter()
        .find(|(local, _)| local == pkg)
        .is_some_and(|(_, path)| super::specs::spec(path, func).is_some())
}

/// Visits `n` and its descendants depth first, in source order, with an
/// explicit stack (deep code must not overflow the thread's); `go(n)`
/// says whether to enter `n`'s children.
fn visit<'t>(n: Node<'t>, go: &mut impl FnMut(Node<'t>) -> bool) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if go(n) {
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package cmd

import (
	"fmt"
	"net"
	kp "example.com/pkg/ports"
)

const port = 8080

func serve(ctx context.Context) (*S, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(kp.Health))
	return serveOn(ctx, addr)
}

func serveOn(ctx context.Context, addr string) (*S, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	go func() error { return other() }()
	return &S{l}, nil
}

func (s *Store) get(k string) error {
	v, err := s.db.Read(k)
	if err != nil {
		return err
	}
	_ = v
	return nil
}
"#;

    #[test]
    fn a_function_whose_every_return_gives_nil_never_fails() {
        let src = r#"package p

func (c *Client) dialSetupOpts(creds string) (opts []string, err error) {
	if creds != "" {
		opts = append(opts, creds)
	}
	f := func() error { return errors.New("closure's own") }
	_ = f
	return opts, nil
}

func open(path string) (int, error) {
	if path == "" {
		return 0, errors.New("no path")
	}
	return 1, nil
}

func named() (err error) {
	return
}

func count() int {
	return 0
}
"#;
        let f = flows(src);
        let never: Vec<(&str, bool)> = f
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.never_fails))
            .collect();
        assert_eq!(
            never,
            [
                ("dialSetupOpts", true),
                ("open", false),
                ("named", false),
                ("count", false)
            ]
        );
    }

    #[test]
    fn functions_hand_up_calls_they_return_or_whose_error_they_return() {
        let f = flows(SRC);
        assert_eq!(
            f.imports,
            vec![
                ("fmt".to_string(), "fmt".to_string()),
                ("net".to_string(), "net".to_string()),
                ("kp".to_string(), "example.com/pkg/ports".to_string())
            ]
        );
        assert_eq!(f.constants, vec![("port".to_string(), "8080".to_string())]);
        let [serve, serve_on, get] = &f.functions[..] else {
            panic!("{:?}", f.functions)
        };
        assert_eq!(serve.passes[0].callee, "serveOn");
        assert_eq!(serve.passes[0].args, ["ctx", "addr"]);
        assert_eq!(
            serve.local("addr"),
            Some(r#"net.JoinHostPort("127.0.0.1", strconv.Itoa(kp.Health))"#)
        );
        assert_eq!(serve_on.params, ["ctx", "addr"]);
        // Wrapped, not handed up as it is; the closure's return is its own.
        assert!(serve_on.passes.is_empty(), "{:?}", serve_on.passes);
        let listen = serve_on.wrapped("net.Listen", 19).unwrap();
        assert_eq!(listen.args, [r#""tcp""#, "addr"]);
        assert_eq!(
            (get.receiver.as_deref(), get.receiver_name.as_deref()),
            (Some("Store"), Some("s"))
        );
        assert_eq!(get.passes[0].callee, "s.db.Read");
    }

    #[test]
    fn an_error_handed_up_for_one_sentinel_says_which() {
        let src = r#"package p

func only(s Storage) error {
	_, err := s.Entries()
	if err == ErrCompacted {
		return err
	}
	return nil
}

func is(s Storage) error {
	_, err := s.Entries()
	if errors.Is(err, raft.ErrCompacted) {
		return err
	}
	return nil
}

func notIt(s Storage) error {
	_, err := s.Entries()
	if err == ErrCompacted {
		log.Print("compacted")
	} else {
		return err
	}
	return nil
}

func both(s Storage) error {
	_, err := s.Entries()
	if err == ErrCompacted {
		return err
	}
	return err
}
"#;
        let f = flows(src);
        let only: Vec<Option<&str>> = f
            .functions
            .iter()
            .map(|f| f.passes[0].only.as_deref())
            .collect();
        assert_eq!(
            only,
            [Some("ErrCompacted"), Some("ErrCompacted"), None, None]
        );
        assert_eq!(f.functions[3].passes.len(), 1);
    }
}

/// The value of a Go expression known without running the code: string
/// and integer literals, `+`, `net.JoinHostPort`, `strconv.Itoa`,
/// `fmt.Sprintf` with plain verbs; names (`addr`, `ports.Health`) are
/// asked of `lookup`.
pub(super) fn eval(expr: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    // Most expressions the cause graph asks about are a name: asked of
    // `lookup` as the parse below would, without parsing.
    if is_plain_name(expr) {
        return lookup(expr);
    }
    thread_local! {
        static PARSER: RefCell<Parser> = RefCell::new(new_parser());
    }
    let source = format!("package p\nvar _ = {expr}\n");
    let tree = PARSER.with(|p| p.borrow_mut().parse(&source, None))?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let spec = root.named_child(1)?.named_child(0)?;
    let value = spec.child_by_field_name("value")?.named_child(0)?;
    value_of(value, source.as_bytes(), lookup, 0)
}

/// `addr` or `ports.Health`: names tree-sitter reads as an identifier or
/// a selector; Go's keywords and its predeclared `nil`, `true`, `false`
/// and `iota` are not.
fn is_plain_name(expr: &str) -> bool {
    const NOT_NAMES: &[&str] = &[
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
        "nil",
        "true",
        "false",
        "iota",
    ];
    // One selector at most: `a.b.c` goes through the parse.
    let (first, rest) = expr
        .split_once('.')
        .map_or((expr, None), |(a, b)| (a, Some(b)));
    std::iter::once(first)
        .chain(rest)
        .all(|p| crate::is_identifier(p) && !NOT_NAMES.contains(&p))
}

fn value_of(
    n: Node<'_>,
    src: &[u8],
    lookup: &dyn Fn(&str) -> Option<String>,
    depth: u32,
) -> Option<String> {
    if depth > 16 {
        return None;
    }
    let v = |n| value_of(n, src, lookup, depth + 1);
    match n.kind() {
        "interpreted_string_literal" => {
            let t = text(n, src);
            Some(t[1..t.len().saturating_sub(1).max(1)].replace("\\\"", "\""))
        }
        "raw_string_literal" => Some(text(n, src).trim_matches('`').to_string()),
        "int_literal" => Some(text(n, src).replace('_', "")),
        "identifier" | "selector_expression" => lookup(text(n, src)),
        "parenthesized_expression" => v(n.named_child(0)?),
        "binary_expression"
            if n.child_by_field_name("operator").map(|o| text(o, src)) == Some("+") =>
        {
            let (a, b) = (
                v(n.child_by_field_name("left")?)?,
                v(n.child_by_field_name("right")?)?,
            );
            match (a.parse::<i64>(), b.parse::<i64>()) {
                (Ok(x), Ok(y)) if !is_string(n, src) => Some((x + y).to_string()),
                _ => Some(a + &b),
            }
        }
        "call_expression" => call_value(n, src, lookup, depth + 1),
        _ => None,
    }
}

/// Whether a `+` joins strings: one side is a string literal.
fn is_string(n: Node<'_>, src: &[u8]) -> bool {
    ["left", "right"].iter().any(|f| {
        n.child_by_field_name(f)
            .is_some_and(|x| text(x, src).starts_with(['"', '`']))
    })
}

fn call_value(
    n: Node<'_>,
    src: &[u8],
    lookup: &dyn Fn(&str) -> Option<String>,
    depth: u32,
) -> Option<String> {
    let v = |n| value_of(n, src, lookup, depth);
    let callee = text(n.child_by_field_name("function")?, src);
    let list = n.child_by_field_name("arguments")?;
    let mut c = list.walk();
    let args: Vec<Node> = list.named_children(&mut c).collect();
    match (callee, &args[..]) {
        ("strconv.Itoa" | "fmt.Sprint" | "string", [x]) => v(*x),
        ("strconv.FormatInt" | "strconv.FormatUint", [x, base]) if text(*base, src) == "10" => {
            v(*x)
        }
        ("net.JoinHostPort", [host, port]) => {
            let (h, p) = (v(*host)?, v(*port)?);
            Some(match h.contains(':') {
                true => format!("[{h}]:{p}"),
                false => format!("{h}:{p}"),
            })
        }
        ("fmt.Sprintf", [format, rest @ ..]) => {
            let values: Option<Vec<String>> = rest.iter().map(|a| v(*a)).collect();
            sprintf(&v(*format)?, &values?)
        }
        _ => None,
    }
}

/// `fmt.Sprintf` with `%s`, `%d`, `%v` and `%%` only.
fn sprintf(format: &str, values: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut values = values.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            's' | 'd' | 'v' => out.push_str(values.next()?),
            _ => return None,
        }
    }
    values.next().is_none().then_some(out)
}

#[cfg(test)]
mod eval_tests {
    use super::*;

    #[test]
    fn values_known_without_running_the_code() {
        let lookup = |name: &str| match name {
            "ports.Health" => Some("3986".to_string()),
            "host" => Some("10.0.0.1".to_string()),
            _ => None,
        };
        let e = |x| eval(x, &lookup);
        assert_eq!(
            e(r#"net.JoinHostPort("127.0.0.1", strconv.Itoa(ports.Health))"#).as_deref(),
            Some("127.0.0.1:3986")
        );
        assert_eq!(
            e(r#"fmt.Sprintf("%s:%d", host, 5432)"#).as_deref(),
            Some("10.0.0.1:5432")
        );
        assert_eq!(e(r#""/etc/" + "x.conf""#).as_deref(), Some("/etc/x.conf"));
        assert_eq!(e("ports.Health + 1").as_deref(), Some("3987"));
        assert_eq!(e("unknown"), None);
        assert_eq!(e(r#"fmt.Sprintf("%s", host, 1)"#), None);
    }

    #[test]
    fn a_plain_name_is_asked_as_the_parse_would_ask_it() {
        let asked = std::cell::RefCell::new(Vec::new());
        let lookup = |name: &str| {
            asked.borrow_mut().push(name.to_string());
            Some("v".to_string())
        };
        for expr in [
            "addr",
            "ports.Health",
            "_x1",
            "Über",
            "nil",
            "true",
            "iota",
            "a.b.c",
            "1x",
            "map",
        ] {
            let fast = eval(expr, &lookup);
            let fast_asked = asked.take();
            // The same expression inside parentheses always goes through
            // the parse.
            let parsed = eval(&format!("({expr})"), &lookup);
            assert_eq!((fast, fast_asked), (parsed, asked.take()), "{expr}");
        }
    }
}
