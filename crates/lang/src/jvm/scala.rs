//! Scala: `throw new X(…)` and `throw X(…)` (and exceptions built
//! elsewhere with a message), the `s`, `f` and `raw` interpolators,
//! concatenation, `"…".format(x)`, Predef's `require`/`assert`/`assume`
//! (with their `requirement failed: ` prefixes), `sys.error`, SLF4J,
//! scala-logging and Akka log calls, the Java precondition helpers,
//! `System.err`/`Console.err` prints, and printf-style message functions
//! of the project (`def failf(format: String, args: Any*)`). Shared JVM
//! helpers come from `shared.rs`.

use super::shared::{self, as_literal, Maker};
use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, texts, Join, Messages, Name, Read};
use crate::formats::{self, Piece, Printf};
use crate::tree::{self, arguments, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The Scala language module.
pub static SCALA: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: shared::is_test_path,
    printf: Printf::Java,
    extensions: Lang::Scala.extensions(),
};

/// What the callers scan and the analyser know of Scala.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "e match {\n  case err: {class} =>\n    {note}\n    throw err\n  case other => throw other\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "try {\n  {function}()\n} catch {\n  case e: {class} =>\n    {note}\n    throw e\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Keyword(&["def "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "compilation_unit" => constants(n, cx),
        "throw_expression" => throw(n, cx),
        "instance_expression" if !thrown(n) => {
            // `Failure(new X("…"))`, `Left(new X("…"))`.
            if let Some(class) = instance_class(n, cx) {
                if shared::exception_name(&class) {
                    let args = arguments(n.child_by_field_name("arguments"));
                    creation(&class, &args, n, false, cx);
                }
            }
        }
        "call_expression" if !thrown(n) => call(n, cx),
        "function_definition" => wrapper_def(n, cx),
        "extends_clause" => delegated_message(n, cx),
        _ => {}
    }
}

/// `class BadCount(n: Int) extends Exception(s"bad count $n")`: the
/// message an error class hands the class it extends, which every `throw
/// new BadCount(…)` carries.
fn delegated_message(n: Node<'_>, cx: &mut Cx<'_>) {
    let name = n
        .parent()
        .filter(|p| p.kind() == "class_definition")
        .and_then(|c| c.child_by_field_name("name"))
        .map(|c| cx.text(c).to_string());
    let parent = n.child_by_field_name("type").map(|t| cx.text(t));
    let args = arguments(n.child_by_field_name("arguments"));
    shared::delegated_message(n, (name, parent), &args, &M, cx);
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Scala,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_scala::LANGUAGE.into(),
    functions: &["function_definition"],
    classes: &[
        "class_definition",
        "object_definition",
        "trait_definition",
        "enum_definition",
    ],
    loops: &["for_expression", "while_expression", "do_while_expression"],
    conditionals: &["if_expression", "while_expression"],
    returns: &["return_expression", "throw_expression"],
    catches: &["catch_clause"],
    comments: &["comment", "block_comment"],
    locals: None,
};

fn thrown(n: Node<'_>) -> bool {
    n.parent().is_some_and(|p| p.kind() == "throw_expression")
}

/// The class of `new X(…)`.
fn instance_class(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut cur = n.walk();
    let t = n.named_children(&mut cur).find(|c| {
        !matches!(c.kind(), "arguments" | "template_body") && !c.kind().contains("comment")
    })?;
    Some(cx.text(t).to_string())
}

/// `throw new X("…")`, `throw X("…")` (a case class), `throw new X`.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0) else {
        return;
    };
    match e.kind() {
        "instance_expression" => {
            if let Some(class) = instance_class(e, cx) {
                let args = arguments(e.child_by_field_name("arguments"));
                creation(&class, &args, n, true, cx);
            }
        }
        "call_expression" => {
            let Some(f) = e.child_by_field_name("function") else {
                return;
            };
            let class = cx.text(f).to_string();
            let args = arguments(e.child_by_field_name("arguments"));
            if shared::simple_class(&class).starts_with(|c: char| c.is_ascii_uppercase()) {
                creation(&class, &args, n, true, cx);
            } else if let Some(m) = args.iter().find(|a| M.has_text(**a, cx)) {
                // `throw errors.badRequest("…")`: the factory's message.
                let site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
        }
        _ => {} // `throw e` hands on an existing value
    }
}

/// An exception `class(args)` made at `site_node`.
fn creation(class: &str, args: &[Node<'_>], site_node: Node<'_>, thrown: bool, cx: &mut Cx<'_>) {
    let msg = args.iter().copied().find(|a| M.has_text(*a, cx));
    if !thrown && msg.is_none() {
        return;
    }
    let simple = shared::simple_class(class);
    let mut site = cx.site(site_node, class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(simple.clone());
    let texts: Vec<&str> = args.iter().map(|a| cx.text(*a)).collect();
    if let Some(status) = shared::http_status(class, &texts) {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = shared::severity_of_status(status);
    }
    site.error_code = texts.iter().find_map(|a| shared::error_code(a));
    let (message, holes) = match (msg, args.first()) {
        (Some(m), _) => M.message_of(m, cx),
        (None, Some(first)) => M.message_of(*first, cx),
        (None, None) => (vec![text_part(simple)], Vec::new()),
    };
    cx.push(site, message, holes, site_node);
}

/// Predef's checks, `sys.error`, logging, preconditions, stderr, `X("…")`
/// built without a throw, and calls of message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((f, callee)) = tree::callee(n, cx, 120) else {
        return;
    };
    let args = arguments(n.child_by_field_name("arguments"));
    let (receiver, name) = match f.kind() {
        "identifier" => ("", callee),
        "field_expression" => match (
            f.child_by_field_name("value"),
            f.child_by_field_name("field"),
        ) {
            (Some(v), Some(m)) => (cx.text(v), cx.text(m)),
            _ => return,
        },
        _ => return,
    };
    if receiver.is_empty() {
        plain_call(n, callee, &args, cx);
        return;
    }
    if (receiver, name) == ("sys", "error") {
        if let Some(m) = args.first() {
            let mut site = cx.site(n, callee, ErrorType::Exception, Severity::Error);
            site.error_class = Some("RuntimeException".into());
            let (message, holes) = M.message_of(*m, cx);
            cx.push(site, message, holes, n);
        }
        return;
    }
    if log_call(n, callee, receiver, name, &args, cx) {
        return;
    }
    if let Some(check) = shared::precondition(receiver, name) {
        shared::checked(n, callee, check, &args, &M, cx);
        return;
    }
    if matches!(receiver, "System.err" | "Console.err") && matches!(name, "println" | "print") {
        if let Some(first) = args.first() {
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            let (message, holes) = M.message_of(*first, cx);
            cx.push(site, message, holes, n);
        }
    }
}

/// `require(cond, "…")`, `assert(cond, "…")`, `MyError("…")` built
/// without a throw, Guava's static `checkArgument`, message functions.
fn plain_call(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let predef = match name {
        "require" => Some(("IllegalArgumentException", "requirement failed")),
        "assert" => Some(("AssertionError", "assertion failed")),
        "assume" => Some(("AssertionError", "assumption failed")),
        _ => None,
    };
    if let Some((class, prefix)) = predef {
        let (message, holes) = match args.get(1) {
            Some(m) => shared::prefixed(&format!("{prefix}: "), M.message_of(*m, cx)),
            None => (vec![text_part(prefix)], Vec::new()),
        };
        let mut site = cx.site(n, name, ErrorType::Exception, Severity::Error);
        site.error_class = Some(class.to_string());
        cx.push(site, message, holes, n);
        return;
    }
    if let Some(check) = shared::precondition("", name) {
        shared::checked(n, name, check, args, &M, cx);
        return;
    }
    if shared::exception_name(name) {
        creation(name, args, n, false, cx);
        return;
    }
    // A call of a project message function: `failf("bad %s", x)`.
    if crate::level_from_name(name).is_some() {
        if let Some(i) = args.iter().position(|a| a.kind() == "string") {
            let format = M.literal(args[i], cx).unwrap_or_default();
            shared::project_function_call(n, name, name, args, i, format, cx);
        }
    }
}

/// `log.error("…{}", x)`, `logger.warn(s"…$x")`, Akka's
/// `log.error(cause, "…{}", x)`. Returns whether the call was a log call.
fn log_call(
    n: Node<'_>,
    callee: &str,
    receiver: &str,
    name: &str,
    args: &[Node<'_>],
    cx: &mut Cx<'_>,
) -> bool {
    if !shared::is_logger(receiver) {
        return false;
    }
    let Some(sev) = shared::logger_level(name, cx.opts.all_levels).filter(|_| name.len() > 1)
    else {
        return true;
    };
    // A cause or marker before the message.
    let at = usize::from(
        args.first().is_some_and(|a| !M.has_text(*a, cx))
            && args.get(1).is_some_and(|a| M.has_text(*a, cx)),
    );
    let Some(fmt) = args.get(at) else {
        return true;
    };
    let site = cx.site(n, callee, ErrorType::Log, sev);
    let msg = M.message_of(*fmt, cx);
    let (message, holes) = match as_literal(&msg) {
        Some(text) => shared::log_format(&text, &texts(&args[at + 1..], cx)),
        None => msg,
    };
    cx.push(site, message, holes, n);
    true
}

/// `def failf(format: String, args: Any*)`: a message function whose
/// calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_params(n) else {
        return;
    };
    fn ty<'t>(p: &Node<'t>) -> Option<Node<'t>> {
        p.child_by_field_name("type")
    }
    let Some(last) = params.last() else {
        return;
    };
    if params.len() < 2 || ty(last).is_none_or(|t| t.kind() != "repeated_parameter_type") {
        return;
    }
    let fmt = params[params.len() - 2];
    let is_string = ty(&fmt).is_some_and(|t| cx.text(t) == "String");
    let fmt_name = fmt
        .child_by_field_name("name")
        .map(|x| cx.text(x))
        .unwrap_or("");
    if !is_string || !shared::format_param(fmt_name) {
        return;
    }
    let returns = n
        .child_by_field_name("return_type")
        .is_some_and(|t| shared::exception_name(cx.text(t)));
    let throws = n
        .child_by_field_name("body")
        .is_some_and(|b| cx.text(b).contains("throw "));
    let name = cx.text(name).to_string();
    cx.wrapper_def(&name, params.len() - 2, returns || throws);
}

/// `val Msg = "…"` of objects, classes and files: messages by name.
fn constants(root: Node<'_>, cx: &mut Cx<'_>) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "val_definition" => {
                let (Some(k), Some(v)) = (
                    n.child_by_field_name("pattern")
                        .filter(|p| p.kind() == "identifier"),
                    n.child_by_field_name("value"),
                ) else {
                    continue;
                };
                if let Some(text) = M.literal(v, cx) {
                    let k = cx.text(k).to_string();
                    cx.facts.constants.insert(k, vec![text_part(text)]);
                }
            }
            "compilation_unit" | "class_definition" | "object_definition" | "trait_definition"
            | "template_body" | "package_clause" => {
                let mut cur = n.walk();
                stack.extend(n.named_children(&mut cur));
            }
            _ => {}
        }
    }
}

/// How Scala expressions make messages.
static M: Messages = Messages {
    strings: &["string", "interpolated_string_expression"],
    read_own,
    own_has_text,
    scalars: &[
        "integer_literal",
        "floating_point_literal",
        "boolean_literal",
    ],
    parens: &["parenthesized_expression"],
    binaries: &["infix_expression"],
    names: &[
        ("identifier", Name::Itself),
        ("field_expression", Name::Field("field")),
    ],
    gated: true,
    join: Join::Merge,
    ..expr::NOTHING
};

/// Scala's own message forms.
fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    Some(match n.kind() {
        "string" => (vec![text_part(string_text(cx.text(n)))], Vec::new()),
        "interpolated_string_expression" => match (interpolator(n, cx), n.named_child(1)) {
            (Some(i), Some(s)) => formats::interpolated(interpolated_pieces(s, i, cx)),
            _ => hole(n, cx),
        },
        "call_expression" => call_message(n, cx).unwrap_or_else(|| hole(n, cx)),
        _ => return None,
    })
}

/// Whether Scala's own forms have literal text.
fn own_has_text(n: Node<'_>, cx: &Cx<'_>) -> Option<bool> {
    match n.kind() {
        "interpolated_string_expression" => Some(interpolator(n, cx).is_some()),
        "call_expression" => Some(format_kind(n, cx).is_some()),
        _ => None,
    }
}

/// The string interpolators whose output is known: `s`, `f`, `raw`.
fn interpolator<'a>(n: Node<'_>, cx: &Cx<'a>) -> Option<&'a str> {
    let i = cx.text(n.child_by_field_name("interpolator")?);
    matches!(i, "s" | "f" | "raw").then_some(i)
}

fn format_kind<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Maker<'t>> {
    let f = n.child_by_field_name("function")?;
    let args = arguments(n.child_by_field_name("arguments"));
    match f.kind() {
        "identifier" => Maker::translation(f, &args, &M, cx),
        "field_expression" => {
            let receiver = f.child_by_field_name("value")?;
            let member = cx.text(f.child_by_field_name("field")?);
            Maker::format(receiver, member, &args, &["format", "formatted"], &M, cx)
        }
        _ => None,
    }
}

/// The message a format or translation call makes.
fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    Some(format_kind(n, cx)?.message(&M, cx))
}

/// A plain string literal's text: escapes decoded, triple-quoted strings
/// as written.
fn string_text(t: &str) -> String {
    if let Some(raw) = t
        .strip_prefix("\"\"\"")
        .and_then(|r| r.strip_suffix("\"\"\""))
    {
        return raw.to_string();
    }
    shared::decode_java(t.get(1..t.len().saturating_sub(1)).unwrap_or(""))
}

/// An interpolated string as text and holes. Text lies between the
/// interpolations; with `f` a format spec right after an interpolation
/// (`$n%5d`) types its hole.
fn interpolated_pieces<'a>(s: Node<'_>, interp: &str, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let src: &'a [u8] = cx.src;
    let t = cx.text(s);
    let q = if t.starts_with("\"\"\"") { 3 } else { 1 };
    let (start, end) = (s.start_byte() + q, s.end_byte().saturating_sub(q));
    let raw = interp == "raw" || q == 3;
    let printf = interp == "f";
    let mut pieces = Vec::new();
    let mut at = start;
    let mut cur = s.walk();
    let mut after_hole = false;
    for c in s.named_children(&mut cur) {
        if c.kind() != "interpolation" {
            continue;
        }
        gap(
            src,
            at,
            c.start_byte(),
            raw,
            printf,
            after_hole,
            &mut pieces,
        );
        let expr = c
            .named_child(0)
            .map(|e| {
                cx.text(e)
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .trim()
            })
            .unwrap_or("");
        pieces.push(Piece::Expr(expr, ""));
        at = c.end_byte();
        after_hole = true;
    }
    gap(src, at, end.max(at), raw, printf, after_hole, &mut pieces);
    pieces
}

/// Text between interpolations: `$$` is `$`; escapes decoded unless raw;
/// with `f`, `%%` is `%`, `%n` a newline, and a spec right after a hole
/// moves onto it.
fn gap<'a>(
    src: &'a [u8],
    start: usize,
    end: usize,
    raw: bool,
    printf: bool,
    after_hole: bool,
    out: &mut Vec<Piece<'a>>,
) {
    let Ok(mut g) = std::str::from_utf8(&src[start..end]) else {
        return;
    };
    if printf && after_hole && g.starts_with('%') {
        let spec_len = 1 + g[1..]
            .bytes()
            .take_while(|c| b"-#+ 0,(.".contains(c) || c.is_ascii_digit())
            .count();
        if let Some(verb) = g[spec_len..]
            .chars()
            .next()
            .filter(|c| c.is_ascii_alphabetic())
        {
            let spec = &g[1..spec_len + verb.len_utf8()];
            if let Some(Piece::Expr(e, _)) = out.pop() {
                out.push(Piece::Expr(e, spec));
            }
            g = &g[spec_len + verb.len_utf8()..];
        }
    }
    let mut text = g.replace("$$", "$");
    if !raw {
        text = shared::decode_java(&text);
    }
    if printf {
        text = text.replace("%%", "%").replace("%n", "\n");
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
            "src/Errors.scala",
            r#"
class BadCount(n: Int) extends Exception(s"bad count $n")
class Widget(n: Int) extends Base(s"not an error $n")
"#,
        );
        assert_eq!(pattern_column(&s), ["bad count %v"]);
        assert_eq!(s[0].3.as_deref(), Some("BadCount"));
    }

    #[test]
    fn interpolators_and_predef_checks() {
        let s = classed_patterns_of(
            "src/main/scala/A.scala",
            r#"
object A {
  val Prefix = "bad input: "
  def f(path: String, n: Int, e: Exception): Unit = {
    throw new IllegalArgumentException(s"cannot read $path: ${e.getMessage} (100%) $$x\t")
    require(n > 0, "n must be positive, was " + n)
    require(path.nonEmpty)
    sys.error(f"read $n%5d of ${path.length}%x bytes, 100%% done")
    assert(n < 10, raw"raw\n$n")
    log.error("failed {} times", n, e)
    throw new IOException("read %d bytes".format(n))
    throw MyError(Prefix + path)
  }
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(
            got,
            vec![
                "cannot read %v: %v (100%%) $x\t",
                "requirement failed: n must be positive, was %v",
                "requirement failed",
                "read %d of %x bytes, 100%% done",
                "assertion failed: raw\\n%v",
                "failed %v times",
                "read %d bytes",
                "bad input: %v",
            ]
        );
        assert_eq!(s[0].2, vec!["path", "e.getMessage"]);
        assert_eq!(s[3].3.as_deref(), Some("RuntimeException"));
    }
}
