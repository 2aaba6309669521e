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

mod http;
mod kept;
mod literal_functions;
mod messages;

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

/// `new X(…)`: a site when X is an error class (`…Error`, `…Exception`,
/// `…Warning`, node's `ERR_…`) or when the object is thrown or rejected.
fn new_expression(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(ctor) = n.child_by_field_name("constructor") else {
        return;
    };
    let args = arguments(n.child_by_field_name("arguments"));
    let thrown = used_as_error(n, cx);
    error_object(n, ctor, &args, thrown, cx);
}

/// The severity an error class's name implies, if it names one.
fn error_class_severity(name: &str) -> Option<Severity> {
    if name.ends_with("Warning") {
        Some(Severity::Warning)
    } else if name.ends_with("Error") || name.ends_with("Exception") || is_node_code(name) {
        Some(Severity::Error)
    } else {
        None
    }
}

/// Node's internal error classes are named by their code: `ERR_INVALID_ARG_TYPE`.
fn is_node_code(name: &str) -> bool {
    name.starts_with("ERR_")
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// A site for an error object made at `n` by `ctor(args)`; `thrown`
/// says it is thrown or rejected, so that any class counts.
fn error_object(n: Node<'_>, ctor: Node<'_>, args: &[Node<'_>], thrown: bool, cx: &mut Cx<'_>) {
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
struct Prop<'t> {
    key: String,
    value: Node<'t>,
}

/// Properties set on the error object made at `n`: the object of an
/// `Object.assign(new Error(m), {…})`, and `err.code = …` statements that
/// follow `const err = new Error(m)` in the same block.
fn attached_properties<'t>(n: Node<'t>, cx: &Cx<'_>) -> Vec<Vec<Prop<'t>>> {
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
fn assign_target_call<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let list = n.parent().filter(|p| p.kind() == "arguments")?;
    let call = list.parent()?;
    let f = call.child_by_field_name("function")?;
    (cx.text(f) == "Object.assign" && list.named_child(0).is_some_and(|a| a.id() == n.id()))
        .then_some(call)
}

fn apply_property(site: &mut errdex_model::RawSite, props: &[Prop<'_>], cx: &Cx<'_>) {
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
fn binding<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<(String, Node<'t>)> {
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
fn following_statements(stmt: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(stmt.next_named_sibling(), |s| s.next_named_sibling())
        .take(12)
        .filter(|s| s.byte_range().len() <= 4000)
}

/// Whether the object made at `n` is thrown (`throw new X`, or stored and
/// thrown a few statements later) or rejected (`reject(new X)`,
/// `Promise.reject(new X)`).
fn used_as_error(n: Node<'_>, cx: &Cx<'_>) -> bool {
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
fn class_message(n: Node<'_>, msg: Node<'_>, callee: &str, cx: &mut Cx<'_>) {
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
fn constructor_call(
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
fn assigned_name<'s>(function: Node<'_>, cx: &Cx<'s>) -> Option<&'s str> {
    let parent = function.parent()?;
    let name = match parent.kind() {
        "variable_declarator" => parent.child_by_field_name("name")?,
        "assignment_expression" => parent.child_by_field_name("left")?,
        _ => return None,
    };
    Some(last_name(cx.text(name)))
}

/// `this.message = "…"` in an error class.
fn this_message(n: Node<'_>, cx: &mut Cx<'_>) {
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
