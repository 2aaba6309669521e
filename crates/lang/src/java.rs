//! Java: `throw new X(…)` (and exceptions built elsewhere with a message,
//! `super("…")` in exception classes), string concatenation,
//! `String.format`, `"…".formatted`, `MessageFormat.format`, SLF4J/Log4j
//! and `java.util.logging` calls, precondition helpers (`Objects`,
//! commons-lang3 `Validate`, Guava `Preconditions`, Spring `Assert`),
//! `System.err.println`, and printf-style message functions of the project
//! (`void fail(String format, Object... args)`).
//!
//! The helpers every JVM language shares (logger levels, SLF4J and Guava
//! formats, exception names, HTTP statuses) live here as `pub(crate)` and
//! are reused by `kotlin.rs` and `scala.rs`.

use crate::formats::{self, Printf};
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Syntax, TreeLanguage, Visitor};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The Java language module.
pub static JAVA: TreeLanguage = TreeLanguage {
    visitor: &JavaVisitor,
    extensions: &[".java"],
    is_test: is_test_path,
    printf: Printf::Java,
};

static SYNTAX: Syntax = Syntax {
    lang: Lang::Java,
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
};

/// Test sources of every JVM build: Maven/Gradle `src/test/` (and
/// `src/it/`, `src/androidTest/`), `FooTest.java`, `FooTests.kt`,
/// `FooSpec.scala`, `FooIT.java`.
pub(crate) fn is_test_path(path: &str) -> bool {
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .split('.')
        .next()
        .unwrap_or("");
    tree::common_test_path(path)
        || [
            "src/test/",
            "src/it/",
            "src/androidTest/",
            "src/testFixtures/",
        ]
        .iter()
        .any(|d| path.contains(d))
        || stem.ends_with("IT")
        || stem.ends_with("Suite")
}

struct JavaVisitor;

impl Visitor for JavaVisitor {
    fn syntax(&self) -> &'static Syntax {
        &SYNTAX
    }

    fn visit(&self, n: Node<'_>, cx: &mut Cx<'_>) {
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
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------
// Shared by the JVM languages.
// ---------------------------------------------------------------------

/// Whether a receiver is a logger: `log`, `LOG`, `logger`, `this.log`,
/// `getLogger()`, `LoggerFactory.getLogger(X.class)`.
pub(crate) fn is_logger(receiver: &str) -> bool {
    let r = receiver.to_ascii_lowercase();
    let last = last_name(&r);
    last.contains("log") && !last.contains("dialog") && !last.contains("catalog")
        || r.contains("getlogger(")
}

/// The severity of a logger method: `error`, `fatal`, `warn`, JUL's
/// `severe`/`warning`; info and debug levels only with `all_levels`.
pub(crate) fn logger_level(method: &str, all_levels: bool) -> Option<Severity> {
    Some(match method {
        "error" | "severe" | "e" => Severity::Error,
        "fatal" | "wtf" => Severity::Critical,
        "warn" | "warning" | "w" => Severity::Warning,
        "info" | "config" | "i" if all_levels => Severity::Info,
        "debug" | "trace" | "fine" | "finer" | "finest" | "d" | "v" if all_levels => {
            Severity::Debug
        }
        _ => return None,
    })
}

/// The severity a `Level.X` argument names (`log(Level.SEVERE, …)`).
pub(crate) fn level_argument(level: &str, all_levels: bool) -> Option<Severity> {
    let l = last_name(level).to_ascii_lowercase();
    if l.len() < 4 {
        return None; // not Android's one-letter methods
    }
    logger_level(&l, all_levels)
}

/// Fluent logger chains: SLF4J 2 `log.atError().log("…{}", x)` and
/// Flogger `logger.atSevere().withCause(e).log("…%s", x)`. Returns the
/// level and whether the format is printf (Flogger).
pub(crate) fn fluent_level(receiver: &str, all_levels: bool) -> Option<(Severity, bool)> {
    let (at, printf) = [
        ("atError()", false),
        ("atWarn()", false),
        ("atInfo()", false),
        ("atDebug()", false),
        ("atTrace()", false),
        ("atSevere()", true),
        ("atWarning()", true),
        ("atFine()", true),
        ("atConfig()", true),
    ]
    .into_iter()
    .find(|(at, _)| receiver.contains(at))?;
    let level = at.trim_start_matches("at").trim_end_matches("()");
    logger_level(&level.to_ascii_lowercase(), all_levels).map(|s| (s, printf))
}

/// A log call's message from its format text: SLF4J/Log4j `{}`, or
/// `MessageFormat` `{0}` (`java.util.logging`). Arguments beyond the
/// placeholders (a trailing `Throwable`) are the cause, not holes.
pub(crate) fn log_format(text: &str, args: &[String]) -> (Message, Vec<String>) {
    if !text.contains("{}") && text.contains("{0") {
        formats::message_format(text, args)
    } else {
        formats::slf4j_message(text, args)
    }
}

/// A printf format string kept verbatim with its arguments as holes; plain
/// text without arguments (`Validate.isTrue(x, "100%")` prints as is).
pub(crate) fn printf_message(text: String, args: Vec<String>) -> (Message, Vec<String>) {
    if args.is_empty() {
        return (vec![text_part(text)], args);
    }
    (vec![MsgPart::Text { text, format: true }], args)
}

/// Guava's `lenientFormat`: only `%s` is a placeholder, any other `%` is
/// text; arguments beyond the placeholders are appended in brackets.
pub(crate) fn guava_message(text: &str, args: &[String]) -> (Message, Vec<String>) {
    let mut parts = Vec::new();
    let mut holes = Vec::new();
    let mut pieces = text.split("%s");
    if let Some(first) = pieces.next() {
        push_text(&mut parts, first);
    }
    for (i, piece) in pieces.enumerate() {
        match args.get(i) {
            Some(a) => {
                parts.push(MsgPart::Hole);
                holes.push(a.clone());
            }
            None => push_text(&mut parts, "%s"),
        }
        push_text(&mut parts, piece);
    }
    (parts, holes)
}

fn push_text(parts: &mut Message, t: &str) {
    if t.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some(MsgPart::Text {
            text,
            format: false,
        }) => text.push_str(t),
        _ => parts.push(text_part(t)),
    }
}

/// `a + b` of two messages.
pub(crate) fn concat(
    (mut m, mut h): (Message, Vec<String>),
    (m2, h2): (Message, Vec<String>),
) -> (Message, Vec<String>) {
    for p in m2 {
        match p {
            MsgPart::Text {
                text,
                format: false,
            } => push_text(&mut m, &text),
            p => m.push(p),
        }
    }
    h.extend(h2);
    (m, h)
}

/// A message prefixed with fixed text (Scala's `require` adds
/// `requirement failed: `).
pub(crate) fn prefixed(prefix: &str, msg: (Message, Vec<String>)) -> (Message, Vec<String>) {
    concat((vec![text_part(prefix)], Vec::new()), msg)
}

/// The text of a message that is plain text only (no holes, no format).
pub(crate) fn as_literal((m, h): &(Message, Vec<String>)) -> Option<String> {
    if !h.is_empty() {
        return None;
    }
    let mut out = String::new();
    for p in m {
        match p {
            MsgPart::Text {
                text,
                format: false,
            } => out.push_str(text),
            _ => return None,
        }
    }
    Some(out)
}

/// Whether a class name is an exception or error type
/// (`IOException`, `AssertionError`, `Throwable`).
pub(crate) fn exception_name(class: &str) -> bool {
    let c = last_name(class);
    c.starts_with(|ch: char| ch.is_ascii_uppercase())
        && (c.ends_with("Exception") || c.ends_with("Error") || c == "Throwable")
}

/// A type's simple name: `java.io.IOException` → `IOException`,
/// `Foo<Bar>` → `Foo`.
pub(crate) fn simple_class(type_text: &str) -> String {
    let base = type_text.split('<').next().unwrap_or(type_text);
    last_name(base.trim()).to_string()
}

/// The status an HTTP exception carries: an integer literal when the
/// class is an HTTP one (`new HttpException(404, …)`), or a named status
/// (`HttpStatus.NOT_FOUND`, Ktor `HttpStatusCode.NotFound`,
/// `Response.Status.CONFLICT`).
pub(crate) fn http_status(class: &str, args: &[&str]) -> Option<u16> {
    let c = class.to_ascii_lowercase();
    let http_class = c.contains("http") || c.contains("status") || c.contains("webapplication");
    args.iter().find_map(|a| {
        let a = a.trim();
        if let Ok(n) = a.parse::<u16>() {
            return (http_class && (100..600).contains(&n)).then_some(n);
        }
        let (owner, name) = a.rsplit_once('.')?;
        if !last_name(owner).contains("Status") {
            return None;
        }
        let name: String = name
            .chars()
            .filter(|c| *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        Some(match name.as_str() {
            "badrequest" => 400,
            "unauthorized" => 401,
            "forbidden" => 403,
            "notfound" => 404,
            "methodnotallowed" => 405,
            "notacceptable" => 406,
            "conflict" => 409,
            "gone" => 410,
            "preconditionfailed" => 412,
            "payloadtoolarge" => 413,
            "unsupportedmediatype" => 415,
            "unprocessableentity" => 422,
            "toomanyrequests" => 429,
            "internalservererror" => 500,
            "notimplemented" => 501,
            "badgateway" => 502,
            "serviceunavailable" => 503,
            "gatewaytimeout" => 504,
            _ => return None,
        })
    })
}

/// Warning for client errors, error for server errors.
pub(crate) fn severity_of_status(status: u16) -> Severity {
    if status >= 500 {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// An error code passed beside the message: `ErrorCode.NOT_FOUND`,
/// `Errors.BAD_INPUT` (a constant of a class named like codes or errors).
pub(crate) fn error_code(arg: &str) -> Option<String> {
    let (owner, name) = arg.rsplit_once('.')?;
    let owner = last_name(owner);
    let coded = owner.ends_with("Code") || owner.ends_with("Codes") || owner.ends_with("Errors");
    let constant = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    (coded && constant).then(|| name.to_string())
}

/// The exception a precondition helper throws and the index of its
/// message argument. `None` for calls that are no precondition.
pub(crate) enum Check {
    /// commons-lang3 `Validate`: the message is a `String.format` format.
    Printf(&'static str),
    /// Guava `Preconditions`/`Verify`: `%s` placeholders only.
    Guava(&'static str),
    /// A plain message (`Objects.requireNonNull`, Spring `Assert`).
    Plain(&'static str),
}

/// Precondition helpers of the Java libraries, by receiver and method.
pub(crate) fn precondition(receiver: &str, method: &str) -> Option<Check> {
    let r = last_name(receiver);
    Some(match (r, method) {
        ("Objects", "requireNonNull") => Check::Plain("NullPointerException"),
        ("Validate", "notNull") => Check::Printf("NullPointerException"),
        ("Validate", "validIndex") => Check::Printf("IndexOutOfBoundsException"),
        ("Validate", "validState") => Check::Printf("IllegalStateException"),
        (
            "Validate",
            "isTrue" | "notEmpty" | "notBlank" | "noNullElements" | "matchesPattern"
            | "inclusiveBetween" | "exclusiveBetween" | "finite" | "notNaN" | "isInstanceOf"
            | "isAssignableFrom",
        ) => Check::Printf("IllegalArgumentException"),
        ("Preconditions" | "", "checkArgument") => Check::Guava("IllegalArgumentException"),
        ("Preconditions" | "", "checkState") => Check::Guava("IllegalStateException"),
        ("Preconditions" | "", "checkNotNull") => Check::Guava("NullPointerException"),
        ("Verify", "verify" | "verifyNotNull") => Check::Guava("VerifyException"),
        ("Assert", "state") => Check::Plain("IllegalStateException"),
        (
            "Assert",
            "notNull" | "isTrue" | "hasText" | "hasLength" | "notEmpty" | "isNull"
            | "noNullElements" | "doesNotContain",
        ) => Check::Plain("IllegalArgumentException"),
        _ => return None,
    })
}

/// The message a commons-lang3 `Validate` check prints when called with
/// the checked value alone (`Validate.notNull(x)`).
pub(crate) fn default_check_message(receiver: &str, method: &str) -> Option<&'static str> {
    if last_name(receiver) != "Validate" {
        return None;
    }
    Some(match method {
        "notNull" => "The validated object is null",
        "isTrue" => "The validated expression is false",
        "validState" => "The validated state is false",
        "notBlank" => "The validated character sequence is blank",
        "notNaN" => "The validated value is not a number",
        _ => return None,
    })
}

/// The class and message of a precondition site, given its message
/// argument and the values after it.
pub(crate) fn check_message(
    check: Check,
    msg: (Message, Vec<String>),
    rest: Vec<String>,
) -> (&'static str, (Message, Vec<String>)) {
    match check {
        Check::Printf(c) => match as_literal(&msg) {
            Some(t) => (c, printf_message(t, rest)),
            None => (c, msg),
        },
        Check::Guava(c) => match as_literal(&msg) {
            Some(t) => (c, guava_message(&t, &rest)),
            None => (c, msg),
        },
        Check::Plain(c) => (c, msg),
    }
}

/// Whether a parameter name says it holds a format string.
pub(crate) fn format_param(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["format", "fmt", "msg", "message", "pattern", "template"]
        .iter()
        .any(|w| n.contains(w))
}

// ---------------------------------------------------------------------
// Java.
// ---------------------------------------------------------------------

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
            let Some(m) = args.iter().find(|a| has_text(**a, cx)) else {
                return;
            };
            let callee = callee_text(e, cx);
            let site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
            let (message, holes) = message_of(*m, cx);
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
    let msg = args.iter().copied().find(|a| has_text(*a, cx));
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
        (Some(m), _) => message_of(m, cx),
        // The JDK's `new StringIndexOutOfBoundsException(index)`.
        (None, Some(first)) if args.len() == 1 && index_message(&simple).is_some() => {
            let prefix = index_message(&simple).unwrap_or_default();
            (
                vec![text_part(prefix), MsgPart::Hole],
                vec![cx.text(*first).to_string()],
            )
        }
        // `new X(cause)` prints the cause: a dynamic site.
        (None, Some(first)) => message_of(*first, cx),
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
    let Some(class) = std::iter::successors(n.parent(), |p| p.parent())
        .find(|p| p.kind() == "class_declaration")
        .and_then(|c| c.child_by_field_name("name"))
        .map(|c| cx.text(c).to_string())
    else {
        return;
    };
    if !exception_name(&class) {
        return;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    let Some(m) = args.iter().copied().find(|a| has_text(*a, cx)) else {
        return;
    };
    let mut site = cx.site(n, "super", ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    let (message, holes) = message_of(m, cx);
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
    if object.is_none() && enclosing_class(n, cx) == Some("Validate") {
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
                message_of(*first, cx)
            };
            cx.push(site, message, holes, n);
        }
        return;
    }
    // A call of a project message function: `fail("bad %s", x)`.
    if (object.is_none() || receiver == "this") && crate::level_from_name(name).is_some() {
        if let Some(i) = args.iter().position(|a| a.kind() == "string_literal") {
            let site = cx.site(n, &callee, ErrorType::Log, Severity::Error);
            let text = literal(args[i], cx).unwrap_or_default();
            let rest = args[i + 1..]
                .iter()
                .map(|a| cx.text(*a).to_string())
                .collect();
            let (message, holes) = printf_message(text, rest);
            cx.wrapper_call(name, i, site, message, holes, n);
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
    if args.get(at).is_some_and(|a| !has_text(*a, cx))
        && args.get(at + 1).is_some_and(|a| has_text(*a, cx))
    {
        at += 1;
    }
    let Some(fmt) = args.get(at) else {
        return true;
    };
    let site = cx.site(n, callee, ErrorType::Log, sev);
    let rest = values(&args[at + 1..], cx);
    let msg = message_of(*fmt, cx);
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
    args.iter().map(|a| cx.text(*a).to_string()).collect()
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
        .find(|(_, a)| has_text(**a, cx))
        .map(|(i, _)| i);
    let (class, (message, holes)) = match found {
        Some(i) => check_message(check, message_of(args[i], cx), values(&args[i + 1..], cx)),
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
    let (Some(name), Some(params)) = (
        n.child_by_field_name("name"),
        n.child_by_field_name("parameters"),
    ) else {
        return;
    };
    let params = arguments(Some(params));
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
/// `throw new X(MSG)` reads the text. Collected before the walk reaches
/// the methods that use them.
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
                    if let Some(text) = literal(v, cx) {
                        let k = cx.text(k).to_string();
                        cx.facts.constants.insert(k, vec![text_part(text)]);
                    }
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

/// Whether an expression evaluates to a message with literal text: a
/// string, a concatenation with one, a format call, a known constant.
fn has_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    match n.kind() {
        "string_literal" => true,
        "parenthesized_expression" => n.named_child(0).is_some_and(|i| has_text(i, cx)),
        "binary_expression" => {
            n.child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == "+")
                && [
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ]
                .into_iter()
                .flatten()
                .any(|s| has_text(s, cx))
        }
        "identifier" | "field_access" => constant(n, cx).is_some(),
        "method_invocation" => format_kind(n, cx).is_some(),
        "lambda_expression" => n
            .child_by_field_name("body")
            .is_some_and(|b| has_text(b, cx)),
        _ => false,
    }
}

/// A constant of this file named by `NAME` or `Owner.NAME`.
fn constant<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c Message> {
    let name = match n.kind() {
        "field_access" => n.child_by_field_name("field")?,
        _ => n,
    };
    cx.facts.constants.get(cx.text(name))
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
    let literal_at = |i: usize| args.get(i).is_some_and(|a| literal(*a, cx).is_some());
    match name {
        "format" if matches!(receiver, "String" | "java.lang.String") => {
            (literal_at(0) || literal_at(1)).then_some(Maker::Printf)
        }
        "formatted" => object
            .is_some_and(|o| literal(o, cx).is_some())
            .then_some(Maker::Formatted),
        "format" if last_name(receiver) == "MessageFormat" => {
            literal_at(0).then_some(Maker::MessageFormat)
        }
        _ if formats::is_translation(name) && args.first().is_some_and(|a| has_text(*a, cx)) => {
            Some(Maker::Translation)
        }
        _ => None,
    }
}

/// `String.format(fmt, args…)` (or with a leading `Locale`), and
/// `System.err.printf`: the format verbatim, the rest holes.
fn format_call(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(i) = args.iter().position(|a| literal(*a, cx).is_some()) else {
        return match args.first() {
            Some(a) => message_of(*a, cx),
            None => (Vec::new(), Vec::new()),
        };
    };
    let text = literal(args[i], cx).unwrap_or_default();
    let rest = args[i + 1..]
        .iter()
        .map(|a| cx.text(*a).to_string())
        .collect();
    (vec![MsgPart::Text { text, format: true }], rest)
}

/// The text of a literal string, a concatenation of them, or a constant.
fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match n.kind() {
        "string_literal"
        | "parenthesized_expression"
        | "binary_expression"
        | "identifier"
        | "field_access" => as_literal(&message_of(n, cx)),
        _ => None,
    }
}

/// The message an expression evaluates to and the source of its holes.
pub(crate) fn message_of(n: Node<'_>, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let hole = || (vec![MsgPart::Hole], vec![cx.text(n).to_string()]);
    match n.kind() {
        "string_literal" => (vec![text_part(string_text(n, cx))], Vec::new()),
        "character_literal" => {
            let t = cx.text(n);
            let inner = t.get(1..t.len().saturating_sub(1)).unwrap_or("");
            (vec![text_part(decode_java(inner))], Vec::new())
        }
        "decimal_integer_literal" | "decimal_floating_point_literal" | "true" | "false" => {
            (vec![text_part(cx.text(n))], Vec::new())
        }
        "parenthesized_expression" if has_text(n, cx) => match n.named_child(0) {
            Some(inner) => message_of(inner, cx),
            None => hole(),
        },
        "binary_expression" if has_text(n, cx) => {
            let (Some(l), Some(r)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return hole();
            };
            concat(message_of(l, cx), message_of(r, cx))
        }
        "identifier" | "field_access" => match constant(n, cx) {
            Some(m) => (m.clone(), Vec::new()),
            None => hole(),
        },
        "lambda_expression" => match n.child_by_field_name("body") {
            Some(b) if has_text(b, cx) => message_of(b, cx),
            _ => hole(),
        },
        "method_invocation" => {
            let args = arguments(n.child_by_field_name("arguments"));
            let values = |from: usize| -> Vec<String> {
                args.iter()
                    .skip(from)
                    .map(|a| cx.text(*a).to_string())
                    .collect()
            };
            match format_kind(n, cx) {
                Some(Maker::Printf) => format_call(&args, cx),
                Some(Maker::Formatted) => {
                    let text = n
                        .child_by_field_name("object")
                        .and_then(|o| literal(o, cx))
                        .unwrap_or_default();
                    (vec![MsgPart::Text { text, format: true }], values(0))
                }
                Some(Maker::MessageFormat) => {
                    let text = literal(args[0], cx).unwrap_or_default();
                    formats::message_format(&text, &values(1))
                }
                Some(Maker::Translation) => message_of(args[0], cx),
                None => hole(),
            }
        }
        _ => hole(),
    }
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

/// Java escapes: C's, plus `\s` (a space).
pub(crate) fn decode_java(s: &str) -> String {
    if !s.contains("\\s") {
        return tree::decode_c_escapes(s);
    }
    let mut out = String::new();
    let mut chunk = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            chunk.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => {
                out.push_str(&tree::decode_c_escapes(&std::mem::take(&mut chunk)));
                out.push(' ');
            }
            Some(d) => {
                chunk.push('\\');
                chunk.push(d);
            }
            None => chunk.push('\\'),
        }
    }
    out.push_str(&tree::decode_c_escapes(&chunk));
    out
}

#[cfg(test)]
mod tests {
    use crate::{language_for_path, resolve_package, ExtractOptions};

    fn sites(src: &str) -> Vec<(String, String, Vec<String>, Option<String>)> {
        crate::test_support::sites_of("src/main/java/A.java", src)
            .into_iter()
            .map(|s| (s.callee, s.message_pattern, s.args, s.error_class))
            .collect()
    }

    #[test]
    fn messages_in_every_string_form() {
        let s = sites(
            r#"
class A {
    static final String MISSING = "missing ";
    void f(String path, int n, Exception e) {
        throw new IllegalArgumentException("plain 100% \"q\"\tx");
        throw new IOException("read " + n + " bytes from " + path, e);
        throw new IllegalStateException(String.format("bad %s at %d", path, n));
        throw new IllegalStateException("bad %s".formatted(path));
        throw new X(MessageFormat.format("can''t read {0}", path));
        throw new UnsupportedOperationException();
        throw new Y(MISSING + path);
        log.error("user {} failed", path, e);
        Objects.requireNonNull(path, "path");
        Preconditions.checkArgument(n > 0, "n %s must be 100%", n);
    }
}
"#,
        );
        let got: Vec<&str> = s.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(
            got,
            vec![
                "plain 100%% \"q\"\tx",
                "read %v bytes from %v",
                "bad %s at %d",
                "bad %s",
                "can't read %v",
                "UnsupportedOperationException",
                "missing %v",
                "user %v failed",
                "path",
                "n %v must be 100%%",
            ]
        );
        assert_eq!(s[7].2, vec!["path"]);
        assert_eq!(s[8].3.as_deref(), Some("NullPointerException"));
    }

    #[test]
    fn info_and_debug_logs_only_with_all_levels() {
        let src = r#"
class A {
    void f(String id) {
        log.info("loaded {}", id);
        LOGGER.debug("cache hit for " + id);
        Log.e(TAG, "android failure");
        logger.atError().log("fluent {}", id);
    }
}
"#;
        let java = language_for_path("A.java").unwrap();
        let count = |all_levels| {
            let opts = ExtractOptions {
                all_levels,
                ..Default::default()
            };
            resolve_package(vec![java.extract("A.java", src, &opts)])
                .0
                .len()
        };
        assert_eq!(count(false), 2);
        assert_eq!(count(true), 4);
    }

    #[test]
    fn text_blocks_lose_their_indentation() {
        assert_eq!(
            super::text_block("\n        a\n          b\n        "),
            "a\n  b\n"
        );
        assert_eq!(super::decode_java(r"a\sb\n"), "a b\n");
    }

    /// Extracts the commons-lang3 sources (`-- --ignored --nocapture`);
    /// prints one `SITE` line per site for reading by hand.
    #[test]
    #[ignore]
    fn corpus() {
        let files = crate::test_support::files_under(
            &["/var/tmp/errdex-corpora/debsrc/libcommons-lang3-java/src/main"],
            &[".java"],
        );
        crate::test_support::run("java", &files, &ExtractOptions::default(), false);
    }

    #[test]
    fn test_paths() {
        for p in [
            "src/test/java/A.java",
            "a/FooTest.java",
            "a/FooTests.kt",
            "a/FooSpec.scala",
            "a/FooIT.java",
        ] {
            assert!(super::is_test_path(p), "{p}");
        }
        assert!(!super::is_test_path("src/main/java/Latest.java"));
    }
}
