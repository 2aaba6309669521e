//! What the JVM languages share: where their tests live, logger names
//! and levels, SLF4J, Guava and `MessageFormat` messages, exception names,
//! HTTP statuses and error codes, precondition helpers (`Objects`,
//! `Validate`, `Preconditions`, `Assert`) and Java's string escapes.

pub(crate) use crate::expr::as_literal;
use crate::expr::{join, push_text, texts, Join, Messages, Read};
use crate::formats;
use crate::message::{Message, MsgPart};
pub(crate) use crate::tree::severity_of_status;
use crate::tree::{self, last_name, text_part, Cx};
use errdex_model::{ErrorType, Severity};
use tree_sitter::Node;

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

/// A call of a project message function (`failf("bad %s", x)`): its
/// literal at `i` is a printf format filled by the arguments after it, and
/// the call is a site of the wrapper `name`.
pub(crate) fn project_function_call(
    n: Node<'_>,
    site_callee: &str,
    name: &str,
    args: &[Node<'_>],
    i: usize,
    format: String,
    cx: &mut Cx<'_>,
) {
    let site = cx.site(n, site_callee, ErrorType::Log, Severity::Error);
    let (message, holes) = printf_message(format, texts(&args[i + 1..], cx));
    cx.wrapper_call(name, i, site, message, holes, n);
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

/// A message prefixed with fixed text (Scala's `require` adds
/// `requirement failed: `).
pub(crate) fn prefixed(prefix: &str, msg: (Message, Vec<String>)) -> (Message, Vec<String>) {
    join(Join::Merge, (vec![text_part(prefix)], Vec::new()), msg)
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

/// A Java precondition helper called from Kotlin or Scala: the message is
/// the first argument with text after the checked value.
pub(crate) fn checked(
    n: Node<'_>,
    callee: &str,
    check: Check,
    args: &[Node<'_>],
    m: &Messages,
    cx: &mut Cx<'_>,
) {
    let Some(i) = args
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| m.has_text(**a, cx))
        .map(|(i, _)| i)
    else {
        return;
    };
    let (class, (message, holes)) =
        check_message(check, m.message_of(args[i], cx), texts(&args[i + 1..], cx));
    let mut site = cx.site(n, callee, ErrorType::Exception, Severity::Error);
    site.error_class = Some(class.to_string());
    cx.push(site, message, holes, n);
}

/// How a Kotlin or Scala call makes a message.
pub(crate) enum Maker<'t> {
    /// `"…".format(args)`, `String.format(fmt, args)`: printf.
    Printf(Node<'t>, Vec<Node<'t>>),
    /// `MessageFormat.format(fmt, args)`.
    MessageFormat(Node<'t>, Vec<Node<'t>>),
    /// `"…".trimIndent()`, `tr("…")`: the string itself.
    Same(Node<'t>),
}

impl<'t> Maker<'t> {
    /// `tr("…")`: a translation of a message.
    pub(crate) fn translation(
        callee: Node<'t>,
        args: &[Node<'t>],
        m: &Messages,
        cx: &Cx<'_>,
    ) -> Option<Maker<'t>> {
        let first = *args.first()?;
        (formats::is_translation(cx.text(callee)) && m.has_text(first, cx))
            .then_some(Maker::Same(first))
    }

    /// `receiver.member(args)` when it formats: `String.format([locale,]
    /// fmt, …)`, `"…".format(…)` (any of `printf_members` on a literal),
    /// `MessageFormat.format(fmt, …)`.
    pub(crate) fn format(
        receiver: Node<'t>,
        member: &str,
        args: &[Node<'t>],
        printf_members: &[&str],
        m: &Messages,
        cx: &Cx<'_>,
    ) -> Option<Maker<'t>> {
        let r = cx.text(receiver);
        let literal_at = |i: usize| args.get(i).is_some_and(|a| m.literal(*a, cx).is_some());
        if member == "format" && matches!(r, "String" | "java.lang.String") {
            let i = (0..2).find(|&i| literal_at(i))?;
            Some(Maker::Printf(args[i], args[i + 1..].to_vec()))
        } else if printf_members.contains(&member) && m.literal(receiver, cx).is_some() {
            Some(Maker::Printf(receiver, args.to_vec()))
        } else if member == "format" && tree::last_name(r) == "MessageFormat" && literal_at(0) {
            Some(Maker::MessageFormat(args[0], args[1..].to_vec()))
        } else {
            None
        }
    }

    /// The message it makes.
    pub(crate) fn message(self, m: &Messages, cx: &Cx<'_>) -> Read {
        match self {
            Maker::Printf(fmt, args) => {
                let text = m.literal(fmt, cx).unwrap_or_default();
                (vec![MsgPart::Text { text, format: true }], texts(&args, cx))
            }
            Maker::MessageFormat(fmt, args) => {
                let text = m.literal(fmt, cx).unwrap_or_default();
                formats::message_format(&text, &texts(&args, cx))
            }
            Maker::Same(s) => m.message_of(s, cx),
        }
    }
}

/// The message an error class hands the class it extends (Kotlin's `:
/// Exception("…")`, Scala's `extends Exception(s"…")`): a site of the
/// class `name`, when it or `parent` is named like an error, at `n`.
pub(crate) fn delegated_message(
    n: Node<'_>,
    (name, parent): (Option<String>, Option<&str>),
    args: &[Node<'_>],
    m: &Messages,
    cx: &mut Cx<'_>,
) {
    let is_error = name
        .iter()
        .map(String::as_str)
        .chain(parent)
        .any(exception_name);
    let Some(msg) = args
        .iter()
        .copied()
        .find(|a| m.has_text(*a, cx))
        .filter(|_| is_error)
    else {
        return;
    };
    let mut site = cx.site(
        n,
        parent.unwrap_or("super"),
        ErrorType::Exception,
        Severity::Error,
    );
    site.error_class = name;
    let (message, holes) = m.message_of(msg, cx);
    cx.push(site, message, holes, n);
}
