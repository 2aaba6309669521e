//! JavaScript and TypeScript (one visitor, three grammars): error objects
//! (`throw new X(…)`, `throw X(…)`, `reject(new X(…))`, `new XError(…)`
//! handed anywhere, `throw "…"`), their codes (`err.code = 'ERR_X'`,
//! `Object.assign(new Error(m), {code})`, `new ERR_X()`, `AxiosError`'s
//! second argument, `{ code: 'ERR_X', message: '…' }`), messages set by
//! error classes (`super('…')`, `this.message = '…'`), console and logger
//! calls with node's `util.format` rules, HTTP answers (`res.status(404)
//! .send('…')`, `res.sendStatus(404)`, `createError(404, '…')`), and the
//! project's own message functions (`function fail(msg, ...args)`).
//! Template literals and `+` concatenations become `%v` holes; format
//! strings of `util.format` stay printf.

mod errors;
mod http;
mod kept;
mod literal_functions;
mod messages;

use errors::*;
use http::*;
use messages::*;

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::formats::{self, Piece};
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Names, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The JavaScript language module (JSX included: the grammar reads it).
pub static JAVASCRIPT: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &JS_SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::C,
    extensions: Lang::JavaScript.extensions(),
};

/// The TypeScript language module. Declaration files (`.d.ts`) hold no
/// code: they count as skipped, and extract nothing if asked anyway.
pub static TYPESCRIPT: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &TS_SYNTAX,
    is_test: ts_skipped_path,
    printf: formats::Printf::C,
    extensions: &[".ts", ".mts", ".cts"],
};

/// TypeScript with JSX, whose grammar differs (`<T>x` casts are tags).
pub static TSX: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &TSX_SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::C,
    extensions: &[".tsx"],
};

/// What the callers scan and the analyser know of JavaScript and TypeScript.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if (err instanceof {class}) {\n  {note}\n  throw err;\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "try {\n  {function}();\n} catch (err) {\n  if (err instanceof {class}) {\n    {note}\n  }\n  throw err;\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Keyword(&["function ", "function* "]),
};

const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "method_definition",
    "arrow_function",
];
const LOOPS: &[&str] = &[
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
];
// `for_statement` has a `condition` too, but a site in its body is not
// guarded by it in the sense of an `if`.
const CONDITIONALS: &[&str] = &["if_statement", "while_statement", "ternary_expression"];
const RETURNS: &[&str] = &["return_statement", "throw_statement"];

static JS_SYNTAX: Syntax = Syntax {
    lang: Lang::JavaScript,
    prepare: tree::as_written,
    visit,
    names: Names {
        function: function_name,
        ..tree::NAME_FIELDS
    },
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    functions: FUNCTIONS,
    classes: &["class_declaration", "class"],
    loops: LOOPS,
    conditionals: CONDITIONALS,
    returns: RETURNS,
    catches: &["catch_clause"],
    comments: &["comment"],
    locals: None,
};

static TS_SYNTAX: Syntax = Syntax {
    lang: Lang::TypeScript,
    prepare: tree::as_written,
    visit,
    names: Names {
        function: function_name,
        ..tree::NAME_FIELDS
    },
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    functions: FUNCTIONS,
    classes: &[
        "class_declaration",
        "class",
        "abstract_class_declaration",
        "internal_module",
    ],
    loops: LOOPS,
    conditionals: CONDITIONALS,
    returns: RETURNS,
    catches: &["catch_clause"],
    comments: &["comment"],
    locals: None,
};

static TSX_SYNTAX: Syntax = Syntax {
    lang: Lang::TypeScript,
    prepare: tree::as_written,
    grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
    ..TS_SYNTAX
};

/// `x.d.ts`, `x.d.mts`, `x.d.cts`: type declarations, no statements.
fn is_declaration_file(path: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|e| path.ends_with(e))
}

fn ts_skipped_path(path: &str) -> bool {
    is_declaration_file(path) || tree::common_test_path(path)
}

/// The nodes that make JavaScript's and TypeScript's sites.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    if cx.lang() == Lang::TypeScript && is_declaration_file(cx.path) {
        return;
    }
    match n.kind() {
        "program" => literal_functions::collect(n, cx),
        "throw_statement" => throw(n, cx),
        "new_expression" => new_expression(n, cx),
        "call_expression" => {
            if let Some(f) = n.child_by_field_name("function") {
                kept::pushed(n, f, cx);
            }
            call(n, cx)
        }
        "return_statement" => kept::returned(n, cx),
        "object" => code_object(n, cx),
        "assignment_expression" => this_message(n, cx),
        "augmented_assignment_expression" => kept::appended(n, cx),
        "variable_declarator" => {
            kept::declared(n, cx);
            constant(n, cx)
        }
        k if FUNCTIONS.contains(&k) => {
            kept::arrow_returned(n, cx);
            wrapper_def(n, cx)
        }
        _ => {}
    }
}

/// A function's name; anonymous functions take the name they are bound
/// to: `const f = () => …`, `{ f: function () … }`, `exports.f = …`.
fn function_name(f: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    if let Some(name) = f.child_by_field_name("name") {
        return Some(cx.text(name).to_string());
    }
    let p = f.parent()?;
    let name = match p.kind() {
        "variable_declarator" => p.child_by_field_name("name"),
        "pair" => p.child_by_field_name("key"),
        "assignment_expression" => p.child_by_field_name("left"),
        "field_definition" => p.child_by_field_name("property"),
        "public_field_definition" => p.child_by_field_name("name"),
        _ => None,
    }?;
    let t = cx.text(name);
    (t.len() <= 80).then(|| last_name(t).trim_matches(['"', '\'']).to_string())
}

/// `throw "…"`, `` throw `…` ``, `throw Error("…")`. `throw new X(…)` is a
/// `new` expression's site, and `throw err` throws a value made elsewhere.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| e.kind() != "comment") else {
        return;
    };
    let e = unwrap(e);
    match e.kind() {
        "call_expression" => {
            let Some(f) = e.child_by_field_name("function") else {
                return;
            };
            let callee = cx.text(f);
            // `Error("…")` makes an error as `new` does; lowercase calls are
            // factories (`createError`) or message functions seen elsewhere.
            if f.kind() != "identifier" && f.kind() != "member_expression"
                || !last_name(callee).starts_with(|c: char| c.is_ascii_uppercase())
            {
                return;
            }
            let args = arguments(e.child_by_field_name("arguments"));
            error_object(e, f, &args, true, cx);
        }
        "string" | "template_string" | "binary_expression" => {
            if !is_text(e, cx) {
                return;
            }
            let site = cx.site(n, "throw", ErrorType::Exception, Severity::Error);
            let (message, holes) = message_of(e, cx);
            cx.push(site, message, holes, n);
        }
        _ => {}
    }
}

/// Calls: `super("…")`, loggers, HTTP answers, `createError`, rejects,
/// warnings, and calls of message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(f) = n.child_by_field_name("function") else {
        return;
    };
    let args = arguments(
        n.child_by_field_name("arguments")
            .filter(|a| a.kind() == "arguments"),
    );
    if f.kind() == "super" {
        if let Some(m) = args.first() {
            class_message(n, *m, "super", cx);
        }
        return;
    }
    let callee = cx.text(f);
    if callee.len() > 80 || callee.contains('\n') {
        return;
    }
    if let Some(parent) = callee.strip_suffix(".call") {
        constructor_call(n, (callee, parent), &args, cx);
        return;
    }
    let name = last_name(callee);
    let receiver = callee.rsplit_once('.').map(|(r, _)| r).unwrap_or("");
    if f.kind() == "member_expression"
        && (logger_call(n, callee, &args, cx) || http_answer(n, f, name, &args, cx))
    {
        return;
    }
    match callee {
        "createError" | "createHttpError" | "httpErrors" | "HttpErrors" | "ctx.throw"
        | "this.throw" => {
            http_error(n, callee, &args, cx);
            return;
        }
        "Promise.reject" | "reject" => {
            if let Some(m) = args.first().filter(|m| is_text(**m, cx)) {
                let site = cx.site(n, callee, ErrorType::Exception, Severity::Error);
                let (message, holes) = message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "process.emitWarning" => {
            if let Some(m) = args.first().filter(|m| is_text(**m, cx)) {
                let mut site = cx.site(n, callee, ErrorType::Log, Severity::Warning);
                site.error_class = args.get(1).and_then(|c| string_value(*c, cx));
                site.error_code = args.get(2).and_then(|c| string_value(*c, cx));
                let (message, holes) = message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // depd's `deprecate("…")` and node's `util.deprecate(fn, "…",
        // "DEP0001")` print a deprecation warning once.
        "deprecate" | "depd" | "deprecate.function" | "deprecate.property" | "util.deprecate" => {
            let i = match callee {
                "deprecate.property" => 2,
                "deprecate.function" | "util.deprecate" => 1,
                _ => 0,
            };
            if args.get(i).is_some_and(|a| is_text(*a, cx)) {
                let mut site = cx.site(n, callee, ErrorType::Log, Severity::Warning);
                site.error_class = Some("DeprecationWarning".into());
                if callee == "util.deprecate" {
                    site.error_code = args.get(2).and_then(|c| string_value(*c, cx));
                }
                let (message, holes) = message_of(args[i], cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "process.stderr.write" => {
            if let Some(m) = args.first() {
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                let (mut message, holes) = message_of(*m, cx);
                // A log line is read without its line break.
                if let Some(MsgPart::Text { text, .. }) = message.last_mut() {
                    let trimmed = text.trim_end_matches(['\n', '\r']).len();
                    text.truncate(trimmed);
                }
                cx.push(site, message, holes, n);
            }
            return;
        }
        _ => {}
    }
    // A call of a project message function: `fail("bad %s", x)`.
    let plain = f.kind() == "identifier" || receiver == "this";
    if plain && crate::level_from_name(name).is_some() {
        if let Some(i) = args.iter().position(|a| is_text(*a, cx)) {
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            let (message, holes) = format_message(&args[i..], cx);
            cx.wrapper_call(name, i, site, message, holes, n);
        }
    }
}

/// Whether a receiver is a logger: `console`, `logger`, `this.log`,
/// `infrastructureLogger`, `winston`, `pino`.
fn is_logger(receiver: &str) -> bool {
    let last = last_name(receiver)
        .trim_start_matches(['_', '#'])
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "console" | "log" | "logging" | "winston" | "pino" | "bunyan" | "consola" | "signale"
    ) || last.ends_with("logger")
        || last.ends_with("_log")
}

/// The level a logger method logs at; info and debug only when all
/// levels are wanted.
fn log_level(method: &str, all_levels: bool) -> Option<Severity> {
    match method {
        "error" => Some(Severity::Error),
        "fatal" | "critical" | "crit" | "emerg" | "alert" => Some(Severity::Critical),
        "warn" | "warning" => Some(Severity::Warning),
        "info" | "log" | "notice" if all_levels => Some(Severity::Info),
        "debug" | "trace" | "verbose" | "silly" if all_levels => Some(Severity::Debug),
        _ => None,
    }
}

/// `console.error("…%s", x)`, `logger.warn(…)`, pino's `log.error({err},
/// "…")`, winston's `logger.log("error", "…")`.
fn logger_call(n: Node<'_>, callee: &str, args: &[Node<'_>], cx: &mut Cx<'_>) -> bool {
    let name = last_name(callee);
    let receiver = callee.rsplit_once('.').map(|(r, _)| r).unwrap_or("");
    if !is_logger(receiver) {
        return false;
    }
    let mut args = args;
    let mut level = log_level(name, cx.opts.all_levels);
    if name == "log" && receiver != "console" {
        // winston: `logger.log("error", msg, …)`.
        if let Some(l) = args.first().and_then(|a| string_value(*a, cx)) {
            level = log_level(&l, cx.opts.all_levels);
            args = &args[1..];
        }
    }
    let Some(sev) = level else {
        return true;
    };
    // pino and bunyan take a merging object first.
    if args.len() > 1 && args[0].kind() == "object" && is_text(args[1], cx) {
        args = &args[1..];
    }
    if args.is_empty() {
        return true;
    }
    let site = cx.site(n, callee, ErrorType::Log, sev);
    let (message, holes) = format_message(args, cx);
    cx.push(site, message, holes, n);
    true
}

/// `function fail(msg, ...args)`, `const fail = (fmt, ...args) => …`,
/// methods alike: a message function whose calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(params) = n.child_by_field_name("parameters") else {
        return;
    };
    let mut params = arguments(Some(params));
    // TypeScript's `this: T` parameter is not passed by callers.
    if params.first().is_some_and(|p| param_name(*p, cx) == "this") {
        params.remove(0);
    }
    let Some(rest) = params.last() else {
        return;
    };
    let is_rest = rest.kind() == "rest_pattern" || {
        let mut cur = rest.walk();
        let r = rest
            .named_children(&mut cur)
            .any(|c| c.kind() == "rest_pattern");
        r
    };
    if !is_rest || params.len() < 2 {
        return;
    }
    let fmt = param_name(params[params.len() - 2], cx);
    if !matches!(
        fmt,
        "msg" | "fmt" | "format" | "message" | "template" | "text" | "formatString"
    ) {
        return;
    }
    let Some(name) = function_name(n, cx) else {
        return;
    };
    let body = n
        .child_by_field_name("body")
        .map(|b| cx.text(b))
        .unwrap_or("");
    let raises = body.contains("throw ") || body.contains("return new ");
    cx.wrapper_def(&name, params.len() - 2, raises);
}

/// A parameter's name, without type, default or `?`.
fn param_name<'a>(p: Node<'_>, cx: &Cx<'a>) -> &'a str {
    let p = p
        .child_by_field_name("pattern")
        .or_else(|| p.child_by_field_name("left"))
        .unwrap_or(p);
    cx.text(p)
        .split([':', '=', '?'])
        .next()
        .unwrap_or("")
        .trim()
}

/// `module`-level `const MSG = "…"`: a message named once, used by name.
fn constant(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(decl) = n.parent().filter(|d| {
        d.kind() == "lexical_declaration" && d.child(0).is_some_and(|k| k.kind() == "const")
    }) else {
        return;
    };
    let top = decl
        .parent()
        .is_some_and(|p| p.kind() == "program" || p.kind() == "export_statement");
    let (Some(name), Some(value)) = (
        n.child_by_field_name("name"),
        n.child_by_field_name("value"),
    ) else {
        return;
    };
    if !top || name.kind() != "identifier" {
        return;
    }
    if let Some(text) = literal(value, cx) {
        let name = cx.text(name).to_string();
        cx.facts.constants.insert(name, vec![text_part(text)]);
    }
}

/// TypeScript's type wrappers around an expression (`x as T`, `x!`,
/// `<T>x`, `x satisfies T`) and parentheses.
fn is_wrapper(kind: &str) -> bool {
    matches!(
        kind,
        "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "type_assertion"
    )
}

/// The expression inside type wrappers and parentheses.
fn unwrap(mut n: Node<'_>) -> Node<'_> {
    while is_wrapper(n.kind()) {
        let inner = if n.kind() == "type_assertion" {
            n.named_child(n.named_child_count().saturating_sub(1) as u32)
        } else {
            n.named_child(0)
        };
        match inner.filter(|i| i.kind() != "sequence_expression") {
            Some(i) => n = i,
            None => break,
        }
    }
    n
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod corpus {
    /// Extracts every file of the JS corpora; prints counts and times
    /// (`ERRDEX_CORPUS_OUT` writes the sites for reading by hand).
    #[test]
    #[ignore]
    fn real_corpus() {
        for name in ["express", "axios", "webpack", "typescript"] {
            let root = format!("/var/tmp/errdex-corpora/js/{name}");
            let files =
                crate::test_support::files_under(&[&root], &[".js", ".mjs", ".cjs", ".ts", ".tsx"]);
            crate::test_support::run(name, &files, &Default::default(), false);
        }
    }
}
