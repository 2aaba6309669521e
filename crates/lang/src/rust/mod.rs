//! Rust: panics (`panic!`, `unreachable!`, `todo!`, `unimplemented!`,
//! `assert!`/`assert_eq!`, `.expect("…")`), error values (`Err(format!(…))`,
//! `Err("…".into())`, `Error::new(ErrorKind::X, "…")`, `T::custom(…)`,
//! anyhow's `bail!`/`anyhow!`/`ensure!` and `.context("…")`), thiserror's
//! `#[error("…")]` on variants and structs, `log`/`tracing` macros,
//! `eprintln!`, and the project's own `macro_rules!` message macros.
//!
//! Macro arguments are token trees to the grammar: the format string is
//! the first string literal token and the arguments are the tokens between
//! top-level commas. Items inside item-position macros (`cfg_rt! { … }`)
//! are tokens too, so they are parsed again on their own.

mod error_types;
mod macros;
mod pieces;

use error_types::*;
use macros::*;

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::formats;
use crate::message::{Message, MsgPart};
use crate::tree::{self, last_name, text_part, Cx, Names, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, RawSite, Severity};
use std::cell::RefCell;
use tree_sitter::{Node, Parser, Tree};

/// The Rust language module.
pub static RUST: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: is_test_path,
    printf: formats::Printf::C,
    extensions: Lang::Rust.extensions(),
};

/// What the callers scan and the analyser know of Rust.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "fn handle(err: &Error) {\n    if matches!(err, {class}(..)) {\n        {note}\n    }\n}",
        comment: "// ",
        type_guard_path: Some("fn handle(err: &Error) {\n    if matches!(err, {class} { .. }) {\n        {note}\n    }\n}"),
        try_catch: "fn caller() -> Result<(), Box<dyn std::error::Error>> {\n    if let Err(err) = {function}() {\n        {note}\n        return Err(err.into());\n    }\n    Ok(())\n}",
        try_catch_transient: None,
    }),
    throw_verb: None,
    heads: FunctionHeads::Keyword(&["fn "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "macro_invocation" => macro_call(n, cx),
        "call_expression" => call(n, cx),
        "attribute_item" => error_attribute(n, cx),
        "macro_definition" => wrapper_def(n, cx),
        "const_item" | "static_item" => constant(n, cx),
        "function_item" => description(n, cx),
        "field_initializer" => message_field(n, cx),
        _ => {}
    }
}

/// `Error { message: format!("{} Found argument '{}' …", …), kind, … }`
/// (clap 2): a message kept in a struct's field and shown later.
fn message_field(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(field), Some(value)) = (
        n.child_by_field_name("field"),
        n.child_by_field_name("value"),
    ) else {
        return;
    };
    if !crate::is_message_name(cx.text(field)) || in_test_code(n, cx) {
        return;
    }
    if let Some((m, h)) = message_of(value, cx) {
        cx.push_kept_message(n, "message:", m, h);
    }
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Rust,
    prepare: tree::as_written,
    visit,
    names: Names {
        class: class_name,
        ..tree::NAME_FIELDS
    },
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    // Closures are left out: a site in `map_err(|e| …)` belongs to the
    // function around it.
    functions: &["function_item"],
    classes: &["impl_item", "trait_item", "enum_item", "struct_item"],
    loops: &["for_expression", "while_expression", "loop_expression"],
    conditionals: &["if_expression", "while_expression"],
    returns: &["return_expression"],
    catches: &[],
    comments: &["line_comment", "block_comment"],
    locals: None,
};

/// Test folders, benches, and `tests.rs` module files.
fn is_test_path(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    tree::common_test_path(path)
        || path.split('/').any(|d| d == "benches")
        || file == "tests.rs"
        || file == "test.rs"
}

/// `impl<T> Display for Wrapper<T>` → `Wrapper`.
fn class_name(c: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let t = c
        .child_by_field_name("name")
        .or_else(|| c.child_by_field_name("type"))?;
    let t = cx.text(t);
    let t = t.split('<').next().unwrap_or(t).trim();
    Some(last_name(t).to_string())
}

/// One macro argument: the tokens between two top-level commas.
struct Arg<'t> {
    nodes: Vec<Node<'t>>,
}

impl<'t> Arg<'t> {
    fn text<'a>(&self, cx: &Cx<'a>) -> &'a str {
        match (self.nodes.first(), self.nodes.last()) {
            (Some(a), Some(b)) => {
                std::str::from_utf8(&cx.src[a.start_byte()..b.end_byte()]).unwrap_or_default()
            }
            _ => "",
        }
    }

    /// The string, when the argument is one string literal.
    fn literal(&self, cx: &Cx<'_>) -> Option<String> {
        match self.nodes.as_slice() {
            [one] => string_value(*one, cx),
            _ => None,
        }
    }
}

/// The arguments of a macro call: its token tree split on top-level
/// commas (and semicolons, which `log`'s key-values use).
fn macro_args<'t>(tt: Node<'t>) -> Vec<Arg<'t>> {
    let mut args = Vec::new();
    let mut cur = Arg { nodes: Vec::new() };
    let count = tt.child_count();
    for i in 0..count {
        let Some(c) = tt.child(i) else {
            continue;
        };
        // The delimiters of the tree itself.
        if (i == 0 || i + 1 == count) && !c.is_named() {
            continue;
        }
        if c.kind().contains("comment") {
            continue;
        }
        if !c.is_named() && matches!(c.kind(), "," | ";") {
            args.push(std::mem::replace(&mut cur, Arg { nodes: Vec::new() }));
            continue;
        }
        cur.nodes.push(c);
    }
    if !cur.nodes.is_empty() {
        args.push(cur);
    }
    args
}

/// A string literal's value (escapes decoded; raw strings as written).
fn string_value(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let t = cx.text(n);
    match n.kind() {
        "string_literal" => {
            let inner = t.strip_prefix('"')?.strip_suffix('"')?;
            Some(decode_escapes(inner))
        }
        "raw_string_literal" => {
            let t = t.strip_prefix('r')?;
            let hashes = t.len() - t.trim_start_matches('#').len();
            let t = t.get(hashes..t.len().checked_sub(hashes)?)?;
            Some(t.strip_prefix('"')?.strip_suffix('"')?.to_string())
        }
        _ => None,
    }
}

/// Rust string escapes: the C ones, plus `\` at a line end, which skips
/// the newline and the next line's indentation.
fn decode_escapes(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('\\') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        let Some(e) = after.chars().next() else {
            out.push('\\');
            rest = "";
            break;
        };
        match e {
            '\n' | '\r' => {
                rest = after.trim_start();
            }
            // `\0` is NUL; it is never the start of an octal escape.
            '0' => {
                out.push('\0');
                rest = &after[1..];
            }
            'x' => {
                let hex = after.get(1..3).unwrap_or("");
                out.push_str(&tree::decode_c_escapes(&format!("\\x{hex}")));
                rest = after.get(1 + hex.len()..).unwrap_or("");
            }
            'u' => {
                let end = after.find('}').map_or(1, |e| e + 1);
                out.push_str(&tree::decode_c_escapes(&format!("\\{}", &after[..end])));
                rest = &after[end..];
            }
            _ => {
                out.push_str(&tree::decode_c_escapes(&format!("\\{e}")));
                rest = &after[e.len_utf8()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A format call's message: `fmt` with the arguments after it.
fn format_message(fmt: &str, rest: &[Arg<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let values: Vec<String> = rest.iter().map(|a| one_line(a.text(cx))).collect();
    formats::brace_message(fmt, &values, true)
}

/// The message of format arguments that start at `args[0]`: a literal
/// format, or one value printed as it is (`panic!(msg)`).
fn format_args_message(args: &[Arg<'_>], cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    let first = args.first()?;
    Some(match first.literal(cx) {
        Some(fmt) => format_message(&fmt, &args[1..], cx),
        None => (vec![MsgPart::Hole], vec![one_line(first.text(cx))]),
    })
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn prefixed(prefix: &str, (mut m, h): (Message, Vec<String>)) -> (Message, Vec<String>) {
    m.insert(0, text_part(prefix));
    (m, h)
}

/// Whether a node sits in test code: a `#[cfg(test)]` module or item, or a
/// `#[test]` function.
fn in_test_code(n: Node<'_>, cx: &Cx<'_>) -> bool {
    std::iter::successors(Some(n), |c| c.parent()).any(|a| {
        matches!(
            a.kind(),
            "mod_item" | "function_item" | "impl_item" | "macro_invocation"
        ) && attributes(a)
            .iter()
            .any(|attr| is_test_attribute(cx.text(*attr)))
    })
}

fn is_test_attribute(t: &str) -> bool {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    t == "#[test]"
        || t.ends_with("::test]")
        || t.ends_with("::test(flavor=\"multi_thread\")]")
        || t.starts_with("#[cfg(")
            && (t.contains("(test)") || t.contains("(test,"))
            && !t.contains("not(test")
}

/// The attribute items right before an item.
fn attributes(n: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut prev = n.prev_named_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => out.push(p),
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        prev = p.prev_named_sibling();
    }
    out
}

/// `const MSG: &str = "…";`: a constant messages may name.
fn constant(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(name), Some(v)) = (
        n.child_by_field_name("name"),
        n.child_by_field_name("value"),
    ) else {
        return;
    };
    if let Some(s) = string_value(v, cx) {
        let name = cx.text(name).to_string();
        cx.facts.constants.insert(name, vec![text_part(s)]);
    }
}

/// The message an expression makes when it is one: a literal, `format!`,
/// a constant's name, or one of them turned into a `String` or an error
/// (`.into()`, `.to_string()`, `String::from`). `None` for other values.
fn message_of(n: Node<'_>, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    match n.kind() {
        "string_literal" | "raw_string_literal" => {
            Some((vec![text_part(string_value(n, cx)?)], Vec::new()))
        }
        "macro_invocation" => {
            let (_, name) = macro_name(n, cx)?;
            // `format_args!` is left out on purpose: serde's
            // `Error::custom(format_args!(…))` texts would then win over
            // serde_json's `… at line %v column %v` around them and hide that
            // layer (see docs/reviews/languages.md).
            if name != "format" {
                return None;
            }
            let args = macro_args(token_tree(n)?);
            let fmt = args.first()?.literal(cx)?;
            Some(format_message(&fmt, &args[1..], cx))
        }
        "identifier" => {
            let t = cx.text(n);
            let constant = t.len() > 1
                && t.bytes()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
            constant.then(|| {
                (
                    vec![MsgPart::Const {
                        name: t.to_string(),
                        format: false,
                    }],
                    Vec::new(),
                )
            })
        }
        "reference_expression" | "parenthesized_expression" => {
            message_of(n.child_by_field_name("value").or(n.named_child(0))?, cx)
        }
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            let args = tree::arguments(n.child_by_field_name("arguments"));
            match f.kind() {
                "field_expression" => {
                    let method = f.child_by_field_name("field").map(|x| cx.text(x))?;
                    matches!(method, "into" | "to_string" | "to_owned" | "into_boxed_str")
                        .then_some(())?;
                    if !args.is_empty() {
                        return None;
                    }
                    message_of(f.child_by_field_name("value")?, cx)
                }
                "scoped_identifier" => {
                    let callee = cx.text(f);
                    matches!(
                        callee,
                        "String::from" | "Box::from" | "Cow::from" | "Cow::Borrowed" | "Into::into"
                    )
                    .then_some(())?;
                    message_of(*args.first()?, cx)
                }
                // An optional message: reqwest's `Error::new(kind, Some("…"))`.
                "identifier" if cx.text(f) == "Some" && args.len() == 1 => message_of(args[0], cx),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value a closure gives (`|| format!(…)`, `|e| { "…".into() }`).
fn closure_value(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind() != "closure_expression" {
        return Some(n);
    }
    let body = n.child_by_field_name("body")?;
    if body.kind() == "block" {
        let last = body.named_child(body.named_child_count().checked_sub(1)? as u32)?;
        return (!last.kind().ends_with("statement") && last.kind() != "let_declaration")
            .then_some(last);
    }
    Some(body)
}

/// `Err(…)`, error constructors, `.expect(…)`, `.context(…)`, `ok_or(…)`.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(f) = n.child_by_field_name("function") else {
        return;
    };
    let args = tree::arguments(n.child_by_field_name("arguments"));
    match f.kind() {
        "identifier" | "scoped_identifier" if matches!(cx.text(f), "Err" | "Result::Err") => {
            let Some((m, h)) = args.first().and_then(|a| message_of(*a, cx)) else {
                return;
            };
            if in_test_code(n, cx) {
                return;
            }
            let mut site = cx.site(n, "Err", ErrorType::Exception, Severity::Error);
            site.facts.returned = true;
            push(cx, site, m, h, n);
        }
        "scoped_identifier" => constructor(n, f, &args, cx),
        "field_expression" => {
            let Some(method) = f.child_by_field_name("field").map(|x| cx.text(x)) else {
                return;
            };
            if method == "fmt" {
                literal_fmt(n, f, cx);
                return;
            }
            if method == "push_str" {
                if let (Some(at), Some(arg)) = (f.child_by_field_name("field"), args.first()) {
                    let buffer = f.child_by_field_name("value").map_or("", |b| cx.text(b));
                    pieces::push_piece(at, buffer, *arg, cx);
                }
                return;
            }
            let value = args.first().copied().and_then(closure_value);
            let Some((mut m, mut h)) = value.and_then(|v| message_of(v, cx)) else {
                return;
            };
            // A chain's site is where its method is named (a panic's
            // location points there too), not where the chain starts.
            let at = f.child_by_field_name("field").unwrap_or(n);
            let site = match method {
                // `Result::expect` prints `msg: {err:?}`; `Option::expect`
                // prints `msg` alone. A constant's text is left alone, so
                // that one defined elsewhere makes no `%v: %v` pattern.
                "expect" => {
                    let constant = matches!(m.as_slice(), [MsgPart::Const { .. }]);
                    let option = f
                        .child_by_field_name("value")
                        .is_some_and(|r| gives_option(r, cx));
                    if !constant && !option {
                        m.push(text_part(": "));
                        m.push(MsgPart::Hole);
                        h.push("err".into());
                    }
                    cx.site(at, ".expect", ErrorType::Panic, Severity::Critical)
                }
                "write_str" | "pad" => match display_impl(n, cx) {
                    Some(class) => {
                        let mut site = cx.site(
                            at,
                            &format!(".{method}"),
                            ErrorType::Exception,
                            Severity::Error,
                        );
                        site.error_class = Some(class);
                        site
                    }
                    None => return,
                },
                "context" | "with_context" | "wrap_err" | "wrap_err_with" | "ok_or"
                | "ok_or_else" | "map_err" => cx.site(
                    at,
                    &format!(".{method}"),
                    ErrorType::Exception,
                    Severity::Error,
                ),
                _ => return,
            };
            if in_test_code(n, cx) {
                return;
            }
            push(cx, site, m, h, n);
        }
        _ => {}
    }
}

/// `"deadline has elapsed".fmt(f)` in `impl Display for Elapsed`: a
/// literal that formats itself is the error's text, as `f.write_str` is.
fn literal_fmt(n: Node<'_>, f: Node<'_>, cx: &mut Cx<'_>) {
    let Some(lit) = f
        .child_by_field_name("value")
        .filter(|v| v.kind() == "string_literal")
    else {
        return;
    };
    let Some(class) = display_impl(n, cx) else {
        return;
    };
    let Some((m, h)) = message_of(lit, cx) else {
        return;
    };
    if in_test_code(n, cx) {
        return;
    }
    let at = f.child_by_field_name("field").unwrap_or(n);
    let mut site = cx.site(at, ".fmt", ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    push(cx, site, m, h, n);
}

/// Whether a receiver is a call that gives an `Option` (`.take()`,
/// `.get(i)`, `.checked_add(n)`), whose `expect` prints the message alone.
fn gives_option(r: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(method) = r
        .child_by_field_name("function")
        .filter(|f| f.kind() == "field_expression")
        .and_then(|f| f.child_by_field_name("field"))
        .map(|m| cx.text(m))
    else {
        return false;
    };
    method.starts_with("checked_")
        || method.starts_with("take_")
        || matches!(
            method,
            "take"
                | "get"
                | "get_mut"
                | "first"
                | "last"
                | "next"
                | "next_back"
                | "nth"
                | "peek"
                | "pop"
                | "pop_front"
                | "pop_back"
                | "find"
                | "find_map"
                | "position"
                | "max"
                | "min"
                | "ok"
                | "err"
                | "parent"
                | "file_name"
                | "file_stem"
                | "extension"
                | "to_str"
                | "upgrade"
                | "as_deref"
                | "as_deref_mut"
                | "strip_prefix"
                | "strip_suffix"
                | "split_once"
                | "rsplit_once"
                | "to_digit"
                | "from_u32"
                | "get_one"
                | "get_many"
                | "get_raw"
        )
}

/// The error a `write!(f, …)` describes when it sits in `impl Display
/// for T` of an error type: `T`, or `T::Variant` under a match arm on
/// `Self::Variant`/`T::Variant`.
fn display_impl(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let chain: Vec<Node<'_>> = std::iter::successors(n.parent(), |c| c.parent()).collect();
    let imp = chain.iter().find(|a| a.kind() == "impl_item")?;
    let tr = imp.child_by_field_name("trait").map(|t| cx.text(t))?;
    if last_name(tr) != "Display" {
        return None;
    }
    let ty = class_name(*imp, cx)?;
    let src = std::str::from_utf8(cx.src).unwrap_or_default();
    if !ty.contains("Error") && !src.contains(&format!("Error for {ty}")) {
        return None;
    }
    let arm = chain
        .iter()
        .take_while(|a| a.id() != imp.id())
        .filter(|a| a.kind() == "match_arm")
        .find_map(|a| {
            let p = cx.text(a.child_by_field_name("pattern")?);
            let path = p.split(['(', '{', ' ', '|']).next()?.trim();
            path.contains("::")
                .then(|| match path.strip_prefix("Self::") {
                    Some(v) => format!("{ty}::{v}"),
                    None => path.to_string(),
                })
        });
    Some(arm.unwrap_or(ty))
}

/// `io::Error::new(ErrorKind::NotFound, "…")`, `io::Error::other(…)`,
/// `Error::custom(format!(…))`: an error type's constructor given a
/// message; or any other of its functions given a `format!`.
fn constructor(n: Node<'_>, f: Node<'_>, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let callee = cx.text(f);
    let Some((ty, func)) = callee.rsplit_once("::") else {
        return;
    };
    let type_name = last_name(ty);
    // `crate::error::builder("…")`: a function of an error module.
    let error_module = ty.split("::").any(|m| m == "error" || m == "errors");
    let error_type = type_name.ends_with("Error") && type_name != "ErrorKind";
    let plain = matches!(
        func,
        "new" | "other" | "custom" | "msg" | "from" | "with_message" | "new_with_message"
    );
    if !error_type && !error_module {
        return;
    }
    // Another constructor of an error type (clap's `Error::value_validation(arg,
    // value, format!("{} is not in {}", …).into())`) takes other text too
    // (names, values): only a `format!` argument is its message.
    let message = |a: &Node<'_>| {
        let formatted = error_module || plain || is_format_call(*a, cx);
        formatted.then(|| message_of(*a, cx)).flatten()
    };
    let Some((m, h)) = args.iter().find_map(message) else {
        return;
    };
    if in_test_code(n, cx) {
        return;
    }
    let mut site = cx.site(n, callee, ErrorType::Exception, Severity::Error);
    site.error_class = (error_type && plain).then(|| ty.trim_start_matches("std::").to_string());
    site.error_code = error_kind(func, args, cx);
    push(cx, site, m, h, n);
}

/// `format!(…)`, or `format!(…).into()` / `.to_string()`.
fn is_format_call(n: Node<'_>, cx: &Cx<'_>) -> bool {
    match n.kind() {
        "macro_invocation" => macro_name(n, cx).is_some_and(|(_, name)| name == "format"),
        "call_expression" => n
            .child_by_field_name("function")
            .filter(|f| f.kind() == "field_expression")
            .and_then(|f| f.child_by_field_name("value"))
            .is_some_and(|v| is_format_call(v, cx)),
        _ => false,
    }
}

/// The `ErrorKind` an io error is made with.
fn error_kind(func: &str, args: &[Node<'_>], cx: &Cx<'_>) -> Option<String> {
    if func == "other" {
        return Some("Other".into());
    }
    let first = cx.text(*args.first()?);
    first
        .contains("ErrorKind::")
        .then(|| last_name(first).to_string())
}

#[cfg(test)]
mod tests;
