//! Java: `throw new X(…)` (and exceptions built elsewhere with a message,
//! `super("…")` in exception classes), string concatenation,
//! `String.format`, `"…".formatted`, `MessageFormat.format`, SLF4J/Log4j
//! and `java.util.logging` calls, precondition helpers (`Objects`,
//! commons-lang3 `Validate`, Guava `Preconditions`, Spring `Assert`),
//! `System.err.println`, and printf-style message functions of the project
//! (`void fail(String format, Object... args)`).

use super::shared::{
    as_literal, check_message, decode_java, default_check_message, error_code, exception_name,
    fluent_level, format_param, http_status, is_logger, is_test_path, level_argument, log_format,
    logger_level, precondition, printf_message, project_function_call, severity_of_status,
    simple_class, Check,
};
use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, texts, Join, Messages, Name, Read};
use crate::formats::{self, Printf};
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The Java language module.
pub static JAVA: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: is_test_path,
    printf: Printf::Java,
    extensions: Lang::Java.extensions(),
};

/// What the callers scan and the analyser know of Java.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if (e instanceof {class}) {\n    {note}\n    throw e;\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "try {\n    {function}();\n} catch ({class} e) {\n    {note}\n    throw e;\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Modifiers,
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "program" => constants(n, cx),
        "throw_statement" => throw(n, cx),
        // `orElseThrow(() -> new X("…"))`, `return new X("…")`.
        "object_creation_expression"
            if n.parent().is_none_or(|p| p.kind() != "throw_statement")
                && exception_name(&class_name(n, cx)) =>
        {
            creation(n, n, false, cx);
        }
        "explicit_constructor_invocation" => super_call(n, cx),
        "method_invocation" => call(n, cx),
        "method_declaration" => wrapper_def(n, cx),
        "return_statement" => message_return(n, cx),
        _ => {}
    }
}

/// `return "KeeperErrorCode = " + getCodeMessage(code) + " for " + path;`
/// in a `String` method named for a message (`getMessage`,
/// `getCodeMessage`, `errorMsg`) or an exception's `toString`: a message
/// kept and shown by whoever prints the exception.
fn message_return(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(value) = n.named_child(0).filter(|v| M.has_text(*v, cx)) else {
        return;
    };
    let Some(method) = std::iter::successors(n.parent(), |p| p.parent())
        .take_while(|p| p.kind() != "lambda_expression" && p.kind() != "class_body")
        .find(|p| p.kind() == "method_declaration")
    else {
        return;
    };
    let returns_string = method
        .child_by_field_name("type")
        .is_some_and(|t| cx.text(t) == "String");
    let name = method
        .child_by_field_name("name")
        .map(|m| cx.text(m))
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let named = lower.contains("message") || lower.contains("msg");
    let exception_text = name == "toString" && enclosing_class(n, cx).is_some_and(exception_name);
    if returns_string && (named || exception_text) {
        let (message, holes) = M.message_of(value, cx);
        cx.push_kept_message(n, "return", message, holes);
    }
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Java,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_java::LANGUAGE.into(),
    // Lambdas are left out: a site in `orElseThrow(() -> …)` belongs to
    // the method around it.
    functions: &[
        "method_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
    ],
    classes: &[
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
    ],
    loops: &[
        "for_statement",
        "enhanced_for_statement",
        "while_statement",
        "do_statement",
    ],
    conditionals: &["if_statement", "while_statement", "ternary_expression"],
    returns: &["return_statement", "throw_statement"],
    catches: &["catch_clause"],
    comments: &["line_comment", "block_comment"],
    locals: Some(&LOCALS),
};

/// `throw new X(…)`; `throw factory("…")` with a literal message.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| !e.kind().contains("comment")) else {
        return;
    };
    match e.kind() {
        "object_creation_expression" => creation(e, n, true, cx),
        "method_invocation" => {
            // `throw Errors.badRequest("…")`: the factory's message.
            let args = arguments(e.child_by_field_name("arguments"));
            let Some(m) = args.iter().find(|a| M.has_text(**a, cx)) else {
                return;
            };
            let callee = callee_text(e, cx);
            let site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
            let (message, holes) = M.message_of(*m, cx);
            cx.push(site, message, holes, n);
        }
        _ => {} // `throw e` hands on an existing value
    }
}

fn class_name(creation: Node<'_>, cx: &Cx<'_>) -> String {
    creation
        .child_by_field_name("type")
        .map(|t| cx.text(t).to_string())
        .unwrap_or_default()
}

/// An exception object `new X(args)` made at `site_node`. A thrown one
/// without a message prints its class name; one built elsewhere is a
/// site only with a literal message.
fn creation(e: Node<'_>, site_node: Node<'_>, thrown: bool, cx: &mut Cx<'_>) {
    let class = class_name(e, cx);
    let args = arguments(e.child_by_field_name("arguments"));
    let msg = args.iter().copied().find(|a| M.has_text(*a, cx));
    if !thrown && msg.is_none() {
        return;
    }
    let simple = simple_class(&class);
    let mut site = cx.site(site_node, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(simple.clone());
    let texts: Vec<&str> = args.iter().map(|a| cx.text(*a)).collect();
    if let Some(status) = http_status(&class, &texts) {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = severity_of_status(status);
    }
    site.error_code = texts.iter().find_map(|a| error_code(a));
    let (message, holes) = match (msg, args.first()) {
        (Some(m), _) => M.message_of(m, cx),
        // The JDK's `new StringIndexOutOfBoundsException(index)`.
        (None, Some(first)) if args.len() == 1 && index_message(&simple).is_some() => {
            let prefix = index_message(&simple).unwrap_or_default();
            (
                vec![text_part(prefix), MsgPart::Hole],
                vec![cx.text(*first).to_string()],
            )
        }
        // `new X(cause)` prints the cause: a dynamic site.
        (None, Some(first)) => M.message_of(*first, cx),
        (None, None) => (vec![text_part(simple)], Vec::new()),
    };
    cx.push(site, message, holes, site_node);
}

/// What the JDK's index exceptions print before the index they are
/// built from.
fn index_message(class: &str) -> Option<&'static str> {
    Some(match class {
        "StringIndexOutOfBoundsException" => "String index out of range: ",
        "ArrayIndexOutOfBoundsException" => "Array index out of range: ",
        "IndexOutOfBoundsException" => "Index out of range: ",
        _ => return None,
    })
}

/// The name of the class a node is in.
fn enclosing_class<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c str> {
    std::iter::successors(n.parent(), |p| p.parent())
        .find(|p| p.kind() == "class_declaration")
        .and_then(|c| c.child_by_field_name("name"))
        .map(|c| cx.text(c))
}

/// `super("…")` in a constructor of an exception class: the message every
/// `throw new ThatException(…)` prints.
fn super_call(n: Node<'_>, cx: &mut Cx<'_>) {
    let is_super = n
        .child_by_field_name("constructor")
        .is_some_and(|c| c.kind() == "super");
    if !is_super {
        return;
    }
    let Some(class) = tree::enclosing_class(n, cx) else {
        return;
    };
    if !exception_name(&class) {
        return;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    let Some(m) = args.iter().copied().find(|a| M.has_text(*a, cx)) else {
        return;
    };
    let mut site = cx.site(n, "super", ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    let (message, holes) = M.message_of(m, cx);
    cx.push(site, message, holes, n);
}

fn callee_text(call: Node<'_>, cx: &Cx<'_>) -> String {
    let name = call
        .child_by_field_name("name")
        .map(|x| cx.text(x))
        .unwrap_or("");
    match call.child_by_field_name("object") {
        Some(o) => format!("{}.{name}", cx.text(o)),
        None => name.to_string(),
    }
}

/// Logging, preconditions, stderr prints and calls of message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(name) = n.child_by_field_name("name").map(|x| cx.text(x)) else {
        return;
    };
    let object = n.child_by_field_name("object");
    let mut receiver = object.map(|o| cx.text(o)).unwrap_or("");
    // commons-lang3's own checks call each other unqualified:
    // `notNull(object, DEFAULT_IS_NULL_EX_MESSAGE)` in `Validate`.
    // (The class is looked up last: it walks every ancestor.)
    if object.is_none()
        && precondition("Validate", name).is_some()
        && enclosing_class(n, cx) == Some("Validate")
    {
        receiver = "Validate";
    }
    if receiver.len() > 120 && !receiver.contains("log") {
        return;
    }
    let callee = callee_text(n, cx);
    let args = arguments(n.child_by_field_name("arguments"));
    if object.is_some() && log_call(n, &callee, receiver, name, &args, cx) {
        return;
    }
    if let Some(check) = precondition(receiver, name) {
        checked(n, &callee, receiver, name, check, &args, cx);
        return;
    }
    if matches!(receiver, "System.err") && matches!(name, "println" | "print" | "printf" | "format")
    {
        if let Some(first) = args.first() {
            let site = cx.site(n, &callee, ErrorType::Log, Severity::Error);
            let (message, holes) = if matches!(name, "printf" | "format") {
                format_call(&args, cx)
            } else {
                M.message_of(*first, cx)
            };
            cx.push(site, message, holes, n);
        }
        return;
    }
    // A call of a project message function: `fail("bad %s", x)`.
    if (object.is_none() || receiver == "this") && crate::level_from_name(name).is_some() {
        if let Some(i) = args.iter().position(|a| a.kind() == "string_literal") {
            let format = M.literal(args[i], cx).unwrap_or_default();
            project_function_call(n, &callee, name, &args, i, format, cx);
        }
    }
}

/// `log.error("…{}", x, e)`, `LOG.log(Level.SEVERE, "…{0}", x)`,
/// `logger.printf(Level.ERROR, "…%s", x)`, `log.atError().log(…)`,
/// Android `Log.e(TAG, "…")`. Returns whether the call was a log call.
fn log_call(
    n: Node<'_>,
    callee: &str,
    receiver: &str,
    name: &str,
    args: &[Node<'_>],
    cx: &mut Cx<'_>,
) -> bool {
    let all = cx.opts.all_levels;
    // (severity, index of the format, printf?)
    let found = if receiver == "Log" {
        // Android: the first argument is the tag.
        logger_level(name, all).map(|s| (s, 1, false))
    } else if name.len() == 1 {
        None
    } else if name == "log" && fluent_level(receiver, true).is_some() {
        fluent_level(receiver, all).map(|(s, p)| (s, 0, p))
    } else if !is_logger(receiver) {
        return false;
    } else if matches!(name, "log" | "logp" | "printf") {
        let at = if name == "logp" { 3 } else { 1 };
        args.first()
            .and_then(|l| level_argument(cx.text(*l), all))
            .map(|s| (s, at, name == "printf"))
    } else {
        logger_level(name, all).map(|s| (s, 0, false))
    };
    let Some((sev, mut at, printf)) = found else {
        return is_logger(receiver);
    };
    // `log.error(MARKER, "…")`: a marker before the message.
    if args.get(at).is_some_and(|a| !M.has_text(*a, cx))
        && args.get(at + 1).is_some_and(|a| M.has_text(*a, cx))
    {
        at += 1;
    }
    let Some(fmt) = args.get(at) else {
        return true;
    };
    let site = cx.site(n, callee, ErrorType::Log, sev);
    let rest = values(&args[at + 1..], cx);
    let msg = M.message_of(*fmt, cx);
    let (message, holes) = match as_literal(&msg) {
        Some(text) if printf => printf_message(text, rest),
        Some(text) => log_format(&text, &rest),
        None => msg,
    };
    cx.push(site, message, holes, n);
    true
}

/// Source text of the values after a format; an array of parameters
/// (`new Object[] {a, b}`, JUL's `log(level, msg, params)`) gives its
/// elements.
fn values(args: &[Node<'_>], cx: &Cx<'_>) -> Vec<String> {
    if let [a] = args {
        if let Some(init) = a
            .child_by_field_name("value")
            .filter(|v| a.kind() == "array_creation_expression" && v.kind() == "array_initializer")
        {
            return arguments(Some(init))
                .iter()
                .map(|e| cx.text(*e).to_string())
                .collect();
        }
    }
    texts(args, cx)
}

/// A precondition helper with a literal message (or commons-lang3's
/// default one).
fn checked(
    n: Node<'_>,
    callee: &str,
    receiver: &str,
    method: &str,
    check: Check,
    args: &[Node<'_>],
    cx: &mut Cx<'_>,
) {
    // The message is the first argument with text after the checked value.
    let found = args
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| M.has_text(**a, cx))
        .map(|(i, _)| i);
    let (class, (message, holes)) = match found {
        Some(i) => check_message(check, M.message_of(args[i], cx), values(&args[i + 1..], cx)),
        None => match default_check_message(receiver, method).filter(|_| args.len() == 1) {
            Some(d) => check_message(check, (vec![text_part(d)], Vec::new()), Vec::new()),
            None => return,
        },
    };
    let mut site = cx.site(n, callee, ErrorType::Exception, Severity::Error);
    site.error_class = Some(class.to_string());
    cx.push(site, message, holes, n);
}

/// `void fail(String format, Object... args)`: a message function whose
/// calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_params(n) else {
        return;
    };
    let Some(last) = params.last() else {
        return;
    };
    if last.kind() != "spread_parameter" || params.len() < 2 {
        return;
    }
    let fmt = params[params.len() - 2];
    let is_string = fmt
        .child_by_field_name("type")
        .is_some_and(|t| matches!(cx.text(t), "String" | "CharSequence"));
    let fmt_name = fmt.child_by_field_name("name").map(|x| cx.text(x));
    if !is_string || !fmt_name.is_some_and(format_param) {
        return;
    }
    let returns = n
        .child_by_field_name("type")
        .is_some_and(|t| exception_name(cx.text(t)));
    let throws = n
        .child_by_field_name("body")
        .is_some_and(|b| cx.text(b).contains("throw "));
    let name = cx.text(name).to_string();
    cx.wrapper_def(&name, params.len() - 2, returns || throws);
}

/// `static final String MSG = "…";` fields: messages by name, so that
/// `throw new X(MSG)` reads the text; and methods without parameters
/// whose whole body returns one literal (`String usage() { return "…"; }`),
/// that text where they are called (`throw new X(usage())`). Collected
/// before the walk reaches the methods that use them.
fn constants(root: Node<'_>, cx: &mut Cx<'_>) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "field_declaration" => {
                let m = n
                    .named_child(0)
                    .filter(|m| m.kind() == "modifiers")
                    .map(|m| cx.text(m))
                    .unwrap_or("");
                if !(m.contains("final") && m.contains("static")) {
                    continue;
                }
                let mut cur = n.walk();
                for d in n.children_by_field_name("declarator", &mut cur) {
                    let (Some(k), Some(v)) = (
                        d.child_by_field_name("name"),
                        d.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    if let Some(text) = M.literal(v, cx) {
                        let k = cx.text(k).to_string();
                        cx.facts.constants.insert(k, vec![text_part(text)]);
                    }
                }
            }
            "method_declaration" => {
                if let Some((name, text)) = literal_method(n, cx) {
                    let key = crate::expr::returned_by(&name);
                    cx.facts.constants.insert(key, vec![text_part(text)]);
                }
            }
            "program"
            | "class_declaration"
            | "class_body"
            | "interface_declaration"
            | "interface_body"
            | "enum_declaration"
            | "enum_body"
            | "enum_body_declarations" => {
                let mut cur = n.walk();
                stack.extend(n.named_children(&mut cur));
            }
            _ => {}
        }
    }
}

/// How Java expressions make messages.
/// `String name = <text>;`, `name = <text>;` in a function: the text a hole printing `name` holds.
static LOCALS: crate::locals::LocalTexts = crate::locals::LocalTexts {
    assignments: &[
        ("variable_declarator", "name", "value"),
        ("assignment_expression", "left", "right"),
    ],
    read: |v, cx| M.has_text(v, cx).then(|| M.message_of(v, cx)),
};

static M: Messages = Messages {
    strings: &["string_literal"],
    read_own,
    own_has_text,
    scalars: &[
        "decimal_integer_literal",
        "decimal_floating_point_literal",
        "true",
        "false",
    ],
    parens: &["parenthesized_expression"],
    binaries: &["binary_expression"],
    names: &[
        ("identifier", Name::Itself),
        ("field_access", Name::Field("field")),
    ],
    gated: true,
    join: Join::Merge,
    ..expr::NOTHING
};

/// Java's own message forms.
fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    Some(match n.kind() {
        "string_literal" => (vec![text_part(string_text(n, cx))], Vec::new()),
        "character_literal" => {
            let t = cx.text(n);
            let inner = t.get(1..t.len().saturating_sub(1)).unwrap_or("");
            (vec![text_part(decode_java(inner))], Vec::new())
        }
        "lambda_expression" => match n.child_by_field_name("body") {
            Some(b) if M.has_text(b, cx) => M.message_of(b, cx),
            _ => hole(n, cx),
        },
        "method_invocation" => match literal_call(n, cx) {
            Some(text) => (text.clone(), Vec::new()),
            None => invocation_message(n, cx).unwrap_or_else(|| hole(n, cx)),
        },
        _ => return None,
    })
}

/// A method's name and the literal its whole body returns.
fn literal_method(n: Node<'_>, cx: &Cx<'_>) -> Option<(String, String)> {
    let name = n.child_by_field_name("name")?;
    if n.child_by_field_name("parameters")?.named_child_count() > 0 {
        return None;
    }
    let only = crate::expr::only_statement(n.child_by_field_name("body")?)?;
    if only.kind() != "return_statement" {
        return None;
    }
    Some((
        cx.text(name).to_string(),
        M.literal(only.named_child(0)?, cx)?,
    ))
}

/// The text a call of a literal method gives: `usage()` or
/// `this.usage()` without arguments.
fn literal_call<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c crate::message::Message> {
    let args = n.child_by_field_name("arguments")?;
    let own = n
        .child_by_field_name("object")
        .is_none_or(|o| o.kind() == "this");
    if args.named_child_count() > 0 || !own {
        return None;
    }
    crate::expr::returned_text(cx, cx.text(n.child_by_field_name("name")?))
}

/// Whether Java's own forms have literal text.
fn own_has_text(n: Node<'_>, cx: &Cx<'_>) -> Option<bool> {
    match n.kind() {
        "method_invocation" => Some(format_kind(n, cx).is_some() || literal_call(n, cx).is_some()),
        "lambda_expression" => Some(
            n.child_by_field_name("body")
                .is_some_and(|b| M.has_text(b, cx)),
        ),
        _ => None,
    }
}

/// How a call formats a message.
enum Maker {
    /// `String.format([locale,] fmt, args)`
    Printf,
    /// `"…".formatted(args)`
    Formatted,
    /// `MessageFormat.format(fmt, args)`
    MessageFormat,
    /// `tr("…")`
    Translation,
}

fn format_kind(n: Node<'_>, cx: &Cx<'_>) -> Option<Maker> {
    let name = cx.text(n.child_by_field_name("name")?);
    let object = n.child_by_field_name("object");
    let receiver = object.map(|o| cx.text(o)).unwrap_or("");
    let args = arguments(n.child_by_field_name("arguments"));
    let literal_at = |i: usize| args.get(i).is_some_and(|a| M.literal(*a, cx).is_some());
    match name {
        "format" if matches!(receiver, "String" | "java.lang.String") => {
            (literal_at(0) || literal_at(1)).then_some(Maker::Printf)
        }
        "formatted" => object
            .is_some_and(|o| M.literal(o, cx).is_some())
            .then_some(Maker::Formatted),
        "format" if last_name(receiver) == "MessageFormat" => {
            literal_at(0).then_some(Maker::MessageFormat)
        }
        _ if formats::is_translation(name) && args.first().is_some_and(|a| M.has_text(*a, cx)) => {
            Some(Maker::Translation)
        }
        _ => None,
    }
}

/// `String.format(fmt, args…)` (or with a leading `Locale`), and
/// `System.err.printf`: the format verbatim, the rest holes.
fn format_call(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(i) = args.iter().position(|a| M.literal(*a, cx).is_some()) else {
        return match args.first() {
            Some(a) => M.message_of(*a, cx),
            None => (Vec::new(), Vec::new()),
        };
    };
    let text = M.literal(args[i], cx).unwrap_or_default();
    (
        vec![MsgPart::Text { text, format: true }],
        texts(&args[i + 1..], cx),
    )
}

/// The message a format or translation call makes.
fn invocation_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let args = arguments(n.child_by_field_name("arguments"));
    let values = |from: usize| -> Vec<String> { texts(args.get(from..).unwrap_or(&[]), cx) };
    Some(match format_kind(n, cx)? {
        Maker::Printf => format_call(&args, cx),
        Maker::Formatted => {
            let text = n
                .child_by_field_name("object")
                .and_then(|o| M.literal(o, cx))
                .unwrap_or_default();
            (vec![MsgPart::Text { text, format: true }], values(0))
        }
        Maker::MessageFormat => {
            let text = M.literal(args[0], cx).unwrap_or_default();
            formats::message_format(&text, &values(1))
        }
        Maker::Translation => M.message_of(args[0], cx),
    })
}

/// A string literal's text: escapes decoded, a text block's incidental
/// indentation removed.
fn string_text(n: Node<'_>, cx: &Cx<'_>) -> String {
    let t = cx.text(n);
    if let Some(body) = t
        .strip_prefix("\"\"\"")
        .and_then(|b| b.strip_suffix("\"\"\""))
    {
        return decode_java(&text_block(body));
    }
    let inner = t.get(1..t.len().saturating_sub(1)).unwrap_or("");
    decode_java(inner)
}

/// A text block's content: the line after the opening quotes on, with
/// the indentation all its lines share (the closing line included)
/// removed and trailing spaces stripped.
fn text_block(body: &str) -> String {
    let body = body.split_once('\n').map(|(_, b)| b).unwrap_or(body);
    let lines: Vec<&str> = body.split('\n').collect();
    let indent = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| !l.trim().is_empty() || *i == lines.len() - 1)
        .map(|(_, l)| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
