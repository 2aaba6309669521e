//! Kotlin: `throw X(…)` (and exceptions built elsewhere with a message),
//! string templates (`"…$x…${y}"`), concatenation, `"…".format(x)` and
//! `String.format`, the stdlib's `error`, `require`, `check`,
//! `requireNotNull`, `checkNotNull` and `TODO`, SLF4J/Log4j and
//! kotlin-logging calls (`logger.error { "…" }`), the Java precondition
//! helpers, `System.err.println`, and printf-style message functions of
//! the project (`fun failf(format: String, vararg args: Any?)`). Shared
//! JVM helpers come from `shared.rs`.

use super::shared::{self, as_literal, Maker};
use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, texts, Join, Messages, Name, Read};
use crate::formats::{self, Piece, Printf};
use crate::message::{Message, MsgPart};
use crate::tree::{self, text_part, Cx, Names, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The Kotlin language module.
pub static KOTLIN: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: shared::is_test_path,
    printf: Printf::Java,
    extensions: Lang::Kotlin.extensions(),
};

/// What the callers scan and the analyser know of Kotlin.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if (e is {class}) {\n    {note}\n    throw e\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "try {\n    {function}()\n} catch (e: {class}) {\n    {note}\n    throw e\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Keyword(&["fun "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "source_file" => constants(n, cx),
        "throw_expression" => throw(n, cx),
        "call_expression" => call(n, cx),
        "function_declaration" => wrapper_def(n, cx),
        "constructor_invocation" => delegated_message(n, cx),
        _ => {}
    }
}

/// `class UnknownCommandException(name: String) : Exception("Unknown
/// command $name")`: the message an error class hands the class it
/// extends, which every `throw UnknownCommandException(…)` carries.
fn delegated_message(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(class) = std::iter::successors(n.parent(), |p| p.parent())
        .take(3)
        .find(|p| p.kind() == "class_declaration")
    else {
        return;
    };
    let name = class
        .child_by_field_name("name")
        .map(|c| cx.text(c).to_string());
    let parent = n.named_child(0).map(|t| cx.text(t));
    let args: Vec<Node<'_>> = tree::arguments(child_of_kind(n, "value_arguments"))
        .into_iter()
        .filter_map(|a| a.named_child(a.named_child_count().checked_sub(1)? as u32))
        .collect();
    shared::delegated_message(n, (name, parent), &args, &M, cx);
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Kotlin,
    prepare: tree::as_written,
    visit,
    names: Names {
        function: function_name,
        class: class_name,
    },
    grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
    // Lambdas are left out: `require(x) { "…" }` and `list.map { … }`
    // belong to the function around them.
    functions: &["function_declaration", "secondary_constructor"],
    classes: &[
        "class_declaration",
        "object_declaration",
        "companion_object",
    ],
    loops: &["for_statement", "while_statement", "do_while_statement"],
    conditionals: &["if_expression", "while_statement"],
    returns: &["return_expression", "throw_expression"],
    catches: &["catch_block"],
    comments: &["line_comment", "block_comment"],
    locals: None,
};

fn function_name(f: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match f.child_by_field_name("name") {
        Some(n) => Some(cx.text(n).to_string()),
        None => Some("constructor".to_string()),
    }
}

/// A `companion object` without a name belongs to its class.
fn class_name(c: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    std::iter::successors(Some(c), |p| p.parent())
        .filter(|p| SYNTAX.classes.contains(&p.kind()))
        .find_map(|p| p.child_by_field_name("name"))
        .map(|n| cx.text(n).to_string())
}

/// A call with its trailing lambda: `require(x) { "…" }` parses as a
/// call of the call `require(x)` with the lambda.
struct Call<'t> {
    /// What is called (`require`, `log.error`, `IOException`).
    callee: Node<'t>,
    /// The value of each argument in parentheses.
    args: Vec<Node<'t>>,
    /// The trailing lambda's body.
    lambda: Option<Node<'t>>,
}

fn child_of_kind<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cur = n.walk();
    let found = n.named_children(&mut cur).find(|c| c.kind() == kind);
    found
}

fn parse_call(n: Node<'_>) -> Option<Call<'_>> {
    let first = n.named_child(0)?;
    let lambda =
        child_of_kind(n, "annotated_lambda").and_then(|a| child_of_kind(a, "lambda_literal"));
    let (callee, list) = match child_of_kind(n, "value_arguments") {
        Some(list) => (first, Some(list)),
        None if first.kind() == "call_expression" && lambda.is_some() => (
            first.named_child(0)?,
            child_of_kind(first, "value_arguments"),
        ),
        None => (first, None),
    };
    let args = tree::arguments(list)
        .into_iter()
        .filter_map(|a| a.named_child(a.named_child_count().checked_sub(1)? as u32))
        .collect();
    Some(Call {
        callee,
        args,
        lambda,
    })
}

/// Whether this call is the `require(x)` inside `require(x) { … }`: its
/// parent is the whole call.
fn is_inner_call(n: Node<'_>) -> bool {
    n.parent().is_some_and(|p| {
        p.kind() == "call_expression"
            && p.named_child(0).is_some_and(|f| f.id() == n.id())
            && child_of_kind(p, "value_arguments").is_none()
            && child_of_kind(p, "annotated_lambda").is_some()
    })
}

/// The receiver text and member name of `a.b.c` (`a.b`, `c`).
fn navigation<'a>(n: Node<'_>, cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    if n.kind() != "navigation_expression" {
        return None;
    }
    let receiver = n.named_child(0)?;
    let member = n.named_child(n.named_child_count().checked_sub(1)? as u32)?;
    Some((cx.text(receiver), cx.text(member)))
}

/// The message a lambda evaluates to: its last statement.
fn lambda_message(l: Node<'_>, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    let mut cur = l.walk();
    let last = l
        .named_children(&mut cur)
        .filter(|c| c.kind() != "lambda_parameters" && !c.kind().contains("comment"))
        .last()?;
    Some(M.message_of(last, cx))
}

/// `throw X("…")`, `throw X()`, `throw errors.bad("…")`.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| e.kind() == "call_expression") else {
        return; // `throw e` hands on an existing value
    };
    let Some(c) = parse_call(e) else {
        return;
    };
    let class = cx.text(c.callee).to_string();
    if class.len() > 120 {
        return;
    }
    let simple = shared::simple_class(&class);
    let is_class = simple.starts_with(|ch: char| ch.is_ascii_uppercase());
    creation(&c, n, &class, is_class, true, cx);
}

/// A site for an exception made by `class(args)` at `site_node`.
fn creation(
    c: &Call<'_>,
    site_node: Node<'_>,
    class: &str,
    is_class: bool,
    thrown: bool,
    cx: &mut Cx<'_>,
) {
    let msg = c.args.iter().copied().find(|a| M.has_text(*a, cx));
    if msg.is_none() && (!thrown || !is_class) {
        return;
    }
    let simple = shared::simple_class(class);
    let mut site = cx.site(site_node, class, ErrorType::Exception, Severity::Error);
    if is_class {
        site.error_class = Some(simple.clone());
    }
    let texts: Vec<&str> = c.args.iter().map(|a| cx.text(*a)).collect();
    if let Some(status) = shared::http_status(class, &texts) {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = shared::severity_of_status(status);
    }
    site.error_code = texts.iter().find_map(|a| shared::error_code(a));
    let (message, holes) = match (msg, c.args.first()) {
        (Some(m), _) => M.message_of(m, cx),
        (None, Some(first)) => M.message_of(*first, cx),
        (None, None) => (vec![text_part(simple)], Vec::new()),
    };
    cx.push(site, message, holes, site_node);
}

/// The stdlib's failing functions, logging, preconditions, stderr and
/// calls of message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    if is_inner_call(n) || n.parent().is_some_and(|p| p.kind() == "throw_expression") {
        return;
    }
    let Some(c) = parse_call(n) else {
        return;
    };
    let callee = cx.text(c.callee);
    if callee.len() > 120 {
        return;
    }
    match c.callee.kind() {
        "identifier" => plain_call(n, &c, callee, cx),
        "navigation_expression" => {
            if let Some((receiver, member)) = navigation(c.callee, cx) {
                member_call(n, &c, callee, receiver, member, cx);
            }
        }
        _ => {}
    }
}

/// `error("…")`, `require(x) { "…" }`, `TODO("…")`, `IOException("…")`
/// built without a throw, Guava's static `checkArgument`, message
/// functions.
fn plain_call(n: Node<'_>, c: &Call<'_>, name: &str, cx: &mut Cx<'_>) {
    let stdlib = match name {
        "error" => Some(("IllegalStateException", None, "")),
        "require" => Some(("IllegalArgumentException", Some("Failed requirement."), "")),
        "requireNotNull" => Some((
            "IllegalArgumentException",
            Some("Required value was null."),
            "",
        )),
        "check" => Some(("IllegalStateException", Some("Check failed."), "")),
        "checkNotNull" => Some((
            "IllegalStateException",
            Some("Required value was null."),
            "",
        )),
        "TODO" => Some((
            "NotImplementedError",
            Some("An operation is not implemented."),
            "An operation is not implemented: ",
        )),
        _ => None,
    };
    if let Some((class, default, prefix)) = stdlib {
        // `error(msg)` and `TODO(reason)` take the message in parentheses,
        // the rest in a lambda.
        let msg = if matches!(name, "error" | "TODO") {
            c.args.first().map(|m| M.message_of(*m, cx))
        } else {
            c.lambda.and_then(|l| lambda_message(l, cx))
        };
        let (message, holes) = match (msg, default) {
            (Some(m), _) => shared::prefixed(prefix, m),
            (None, Some(d)) => (vec![text_part(d)], Vec::new()),
            (None, None) => return,
        };
        let mut site = cx.site(n, name, ErrorType::Exception, Severity::Error);
        site.error_class = Some(class.to_string());
        cx.push(site, message, holes, n);
        return;
    }
    if let Some(check) = shared::precondition("", name) {
        shared::checked(n, name, check, &c.args, &M, cx);
        return;
    }
    if shared::exception_name(name) {
        creation(c, n, name, true, false, cx);
        return;
    }
    // A call of a project message function: `failf("bad %s", x)`.
    if crate::level_from_name(name).is_some() {
        if let Some(i) = c.args.iter().position(|a| M.literal(*a, cx).is_some()) {
            let format = M.literal(c.args[i], cx).unwrap_or_default();
            shared::project_function_call(n, name, name, &c.args, i, format, cx);
        }
    }
}

/// `log.error("…{}", x, e)`, `logger.warn { "…$x" }`,
/// `Objects.requireNonNull(x, "…")`, `System.err.println("…")`,
/// `java.io.IOException("…")` built without a throw.
fn member_call(
    n: Node<'_>,
    c: &Call<'_>,
    callee: &str,
    receiver: &str,
    member: &str,
    cx: &mut Cx<'_>,
) {
    let all = cx.opts.all_levels;
    let level = if member == "log" && shared::fluent_level(receiver, true).is_some() {
        shared::fluent_level(receiver, all)
    } else if shared::is_logger(receiver) && member.len() > 1 {
        shared::logger_level(member, all).map(|s| (s, false))
    } else {
        None
    };
    if let Some((sev, printf)) = level {
        let site = cx.site(n, callee, ErrorType::Log, sev);
        // kotlin-logging: `logger.error(e) { "…" }`.
        let (message, holes) = if let Some(m) = c.lambda.and_then(|l| lambda_message(l, cx)) {
            m
        } else if let Some(fmt) = c.args.first() {
            let msg = M.message_of(*fmt, cx);
            let rest = texts(&c.args[1..], cx);
            match as_literal(&msg) {
                Some(text) if printf => shared::printf_message(text, rest),
                Some(text) => shared::log_format(&text, &rest),
                None => msg,
            }
        } else {
            return;
        };
        cx.push(site, message, holes, n);
        return;
    }
    if shared::is_logger(receiver) {
        return;
    }
    if let Some(check) = shared::precondition(receiver, member) {
        shared::checked(n, callee, check, &c.args, &M, cx);
        return;
    }
    if receiver == "System.err" && matches!(member, "println" | "print") {
        if let Some(first) = c.args.first() {
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            let (message, holes) = M.message_of(*first, cx);
            cx.push(site, message, holes, n);
        }
        return;
    }
    if shared::exception_name(member) && receiver.starts_with(|ch: char| ch.is_ascii_lowercase()) {
        // `java.io.IOException("…")`: a qualified class.
        creation(c, n, callee, true, false, cx);
    }
}

/// `fun failf(format: String, vararg args: Any?)`: a message function
/// whose calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(name), Some(params)) = (
        n.child_by_field_name("name"),
        child_of_kind(n, "function_value_parameters"),
    ) else {
        return;
    };
    let mut cur = params.walk();
    let kids: Vec<Node<'_>> = params.named_children(&mut cur).collect();
    let params_only: Vec<Node<'_>> = kids
        .iter()
        .copied()
        .filter(|k| k.kind() == "parameter")
        .collect();
    let Some(last) = params_only.last() else {
        return;
    };
    // `vararg` is a sibling right before its parameter.
    let vararg = last
        .prev_named_sibling()
        .is_some_and(|m| m.kind() == "parameter_modifiers" && cx.text(m).contains("vararg"));
    if !vararg || params_only.len() < 2 {
        return;
    }
    let fmt = params_only[params_only.len() - 2];
    let fmt_name = fmt.named_child(0).map(|x| cx.text(x)).unwrap_or("");
    let fmt_type = fmt.named_child(1).map(|x| cx.text(x)).unwrap_or("");
    if fmt_type != "String" || !shared::format_param(fmt_name) {
        return;
    }
    let returns = child_of_kind(n, "user_type").is_some_and(|t| shared::exception_name(cx.text(t)));
    let throws = child_of_kind(n, "function_body").is_some_and(|b| cx.text(b).contains("throw "));
    let name = cx.text(name).to_string();
    cx.wrapper_def(&name, params_only.len() - 2, returns || throws);
}

/// `const val MSG = "…"` and plain `val` strings of files, classes and
/// objects: messages by name.
fn constants(root: Node<'_>, cx: &mut Cx<'_>) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "property_declaration" => {
                if !cx.text(n).trim_start().starts_with("val")
                    && !n
                        .named_child(0)
                        .is_some_and(|m| m.kind() == "modifiers" && !cx.text(m).contains("var"))
                {
                    continue;
                }
                let name = child_of_kind(n, "variable_declaration")
                    .and_then(|v| v.named_child(0))
                    .map(|v| cx.text(v).to_string());
                let value = n.named_child(n.named_child_count().saturating_sub(1) as u32);
                if let (Some(name), Some(v)) = (name, value) {
                    if let Some(text) = M.literal(v, cx) {
                        cx.facts.constants.insert(name, vec![text_part(text)]);
                    }
                }
            }
            "source_file" | "class_declaration" | "object_declaration" | "companion_object"
            | "class_body" => {
                let mut cur = n.walk();
                stack.extend(n.named_children(&mut cur));
            }
            _ => {}
        }
    }
}

/// How Kotlin expressions make messages.
static M: Messages = Messages {
    strings: &["string_literal", "multiline_string_literal"],
    read_own,
    own_has_text,
    scalars: &["number_literal", "boolean_literal"],
    parens: &["parenthesized_expression"],
    binaries: &["binary_expression"],
    names: &[
        ("identifier", Name::Itself),
        ("navigation_expression", Name::LastChild),
    ],
    gated: true,
    join: Join::Merge,
    ..expr::NOTHING
};

/// Kotlin's own message forms.
fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    match n.kind() {
        "string_literal" | "multiline_string_literal" => {
            Some(formats::interpolated(string_pieces(n, cx)))
        }
        "call_expression" => Some(call_message(n, cx).unwrap_or_else(|| hole(n, cx))),
        _ => None,
    }
}

/// Whether Kotlin's own forms have literal text.
fn own_has_text(n: Node<'_>, cx: &Cx<'_>) -> Option<bool> {
    (n.kind() == "call_expression").then(|| format_kind(n, cx).is_some())
}

fn format_kind<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Maker<'t>> {
    let c = parse_call(n)?;
    if c.callee.kind() == "identifier" {
        return Maker::translation(c.callee, &c.args, &M, cx);
    }
    let receiver = c.callee.named_child(0)?;
    let (_, member) = navigation(c.callee, cx)?;
    match member {
        "trimIndent" | "trimMargin" | "trim" | "toString" if M.has_text(receiver, cx) => {
            Some(Maker::Same(receiver))
        }
        _ => Maker::format(receiver, member, &c.args, &["format"], &M, cx),
    }
}

/// The message a format, translation or trimming call makes.
fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let maker = format_kind(n, cx)?;
    let trims = matches!(maker, Maker::Same(_))
        && cx
            .text(n)
            .rsplit('.')
            .next()
            .is_some_and(|t| t.starts_with("trimIndent"));
    let (m, h) = maker.message(&M, cx);
    Some((if trims { trim_indent(m) } else { m }, h))
}

/// `trimIndent()` of a message's text parts, line by line (the holes'
/// indentation cannot be known, so text is trimmed at line starts).
fn trim_indent(m: Message) -> Message {
    m.into_iter()
        .map(|p| match p {
            MsgPart::Text {
                text,
                format: false,
            } => {
                let lines: Vec<&str> = text.split('\n').map(|l| l.trim_start()).collect();
                text_part(lines.join("\n").trim_matches('\n').to_string())
            }
            p => p,
        })
        .collect()
}

/// A string template as text and holes. The grammar leaves `$name` in
/// one-line strings as text, so templates are read from the source
/// between `${…}` interpolations.
fn string_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let raw = n.kind() == "multiline_string_literal";
    let q = if raw { 3 } else { 1 };
    let (start, end) = (n.start_byte() + q, n.end_byte().saturating_sub(q));
    let mut pieces = Vec::new();
    let mut at = start;
    let mut cur = n.walk();
    for c in n.named_children(&mut cur) {
        if c.kind() != "interpolation" {
            continue;
        }
        gap_pieces(cx, at, c.start_byte(), raw, &mut pieces);
        let expr = c.named_child(0).map(|e| cx.text(e)).unwrap_or("");
        pieces.push(Piece::Expr(expr, ""));
        at = c.end_byte();
    }
    gap_pieces(cx, at, end.max(at), raw, &mut pieces);
    pieces
}

/// Text between interpolations: escapes decoded (not in raw strings),
/// `$name` a hole.
fn gap_pieces<'a>(cx: &Cx<'a>, start: usize, end: usize, raw: bool, out: &mut Vec<Piece<'a>>) {
    let src: &'a [u8] = cx.src;
    let Ok(gap) = std::str::from_utf8(&src[start..end]) else {
        return;
    };
    let b = gap.as_bytes();
    let mut text = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' && !raw && i + 1 < b.len() {
            let len = if b[i + 1] == b'u' { 6 } else { 2 };
            let esc = gap.get(i..(i + len).min(b.len())).unwrap_or("");
            text.push_str(&tree::decode_c_escapes(esc));
            i += esc.len().max(1);
            continue;
        }
        if c == b'$'
            && b.get(i + 1)
                .is_some_and(|d| d.is_ascii_alphabetic() || *d == b'_')
        {
            let len = b[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_alphanumeric() || **d == b'_')
                .count();
            out.push(Piece::Text(std::mem::take(&mut text)));
            out.push(Piece::Expr(&gap[i + 1..i + 1 + len], ""));
            i += 1 + len;
            continue;
        }
        let ch = gap[i..].chars().next().unwrap_or('\u{fffd}');
        text.push(ch);
        i += ch.len_utf8();
    }
    out.push(Piece::Text(text));
}

#[cfg(test)]
mod tests {
    use crate::test_support::classed_patterns_of;
    use crate::test_support::pattern_column;

    #[test]
    fn an_error_class_delegating_its_message_is_a_site() {
        let s = classed_patterns_of(
            "src/Errors.kt",
            r#"
class UnknownCommandException(name: String) : Exception("Unknown command $name")
class Widget(name: String) : Base("not an error $name")
"#,
        );
        assert_eq!(pattern_column(&s), ["Unknown command %v"]);
        assert_eq!(s[0].3.as_deref(), Some("UnknownCommandException"));
    }

    #[test]
    fn templates_and_stdlib_failures() {
        let s = classed_patterns_of(
            "src/main/kotlin/A.kt",
            r#"
const val PREFIX = "bad input: "
fun f(path: String, n: Int, e: Exception) {
    throw IllegalArgumentException("cannot read $path: ${e.message} (100%) \$x \u0041")
    error("state " + n)
    require(n > 0) { "n must be positive, was $n" }
    check(n < 10)
    val p = requireNotNull(path) { PREFIX + path }
    log.error("failed {} times", n, e)
    throw IOException("read %d bytes".format(n))
    logger.warn { "slow $path" }
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(
            got,
            vec![
                "cannot read %v: %v (100%%) $x A",
                "state %v",
                "n must be positive, was %v",
                "Check failed.",
                "bad input: %v",
                "failed %v times",
                "read %d bytes",
                "slow %v",
            ]
        );
        assert_eq!(s[0].2, vec!["path", "e.message"]);
        assert_eq!(s[2].3.as_deref(), Some("IllegalArgumentException"));
    }
}
