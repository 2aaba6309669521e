//! C#: `throw new X(…)` and `?? throw new X(…)` (literals, `$"…{x:N2}"`
//! interpolation in every verbatim form, `+` concatenation,
//! `string.Format`), the messages .NET writes for `ArgumentNullException`
//! and friends, `ILogger` message templates (`LogError("… {Name} …", x)`,
//! also Serilog, NLog and log4net), `Console.Error.WriteLine`,
//! `Environment.FailFast`, ASP.NET answers (`BadRequest("…")`), and the
//! project's own message functions (`void Fail(string format, params
//! object[] args)`).

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, join, Join, Messages, Read};
use crate::formats::{self, Piece};
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

mod exceptions;

/// The C# language module.
pub static CSHARP: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::C,
    extensions: Lang::CSharp.extensions(),
};

/// What the callers scan and the analyser know of C#.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if (e is {class}) {\n    {note}\n    throw;\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "try\n{\n    {function}();\n}\ncatch ({class} e)\n{\n    {note}\n    throw;\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Modifiers,
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "throw_statement" | "throw_expression" => exceptions::throw(n, cx),
        "object_creation_expression" => exceptions::built(n, cx),
        "invocation_expression" => call(n, cx),
        "method_declaration" | "local_function_statement" => wrapper_def(n, cx),
        "constructor_initializer" => base_message(n, cx),
        _ => {}
    }
}

/// `: base($"Unknown command {name}")` on a constructor of an exception
/// class: the message every `throw new ThatException(…)` carries.
fn base_message(n: Node<'_>, cx: &mut Cx<'_>) {
    if !cx
        .text(n)
        .trim_start_matches(':')
        .trim_start()
        .starts_with("base")
    {
        return;
    }
    let mut cur = n.walk();
    let list = n.children(&mut cur).find(|c| c.kind() == "argument_list");
    let args = arguments(list);
    let Some(first) = positional(&args).first().copied().filter(|m| is_text(*m)) else {
        return;
    };
    let Some(class) = tree::enclosing_class(n, cx) else {
        return;
    };
    if !crate::jvm::shared::exception_name(&class) {
        return;
    }
    let mut site = cx.site(n, "base", ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    let (message, holes) = M.message_of(first, cx);
    cx.push(site, message, holes, n);
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::CSharp,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
    functions: &[
        "method_declaration",
        "constructor_declaration",
        "local_function_statement",
        "operator_declaration",
        "lambda_expression",
    ],
    classes: &[
        "class_declaration",
        "struct_declaration",
        "record_declaration",
        "interface_declaration",
    ],
    loops: &[
        "for_statement",
        "foreach_statement",
        "while_statement",
        "do_statement",
    ],
    conditionals: &["if_statement", "while_statement", "conditional_expression"],
    returns: &["return_statement", "throw_statement", "throw_expression"],
    catches: &["catch_clause"],
    comments: &["comment"],
    locals: None,
};

/// `HttpException(404, "…")`, `HttpResponseException(HttpStatusCode.NotFound)`.
fn http_exception_status(class: &str, args: &[Node<'_>], cx: &Cx<'_>) -> Option<u16> {
    if !class.contains("Http") {
        return None;
    }
    let v = tree::named_argument(args, &["statusCode"], cx)
        .or_else(|| positional(args).first().copied())?;
    status_code(cx.text(v))
}

/// `404`, `(int)HttpStatusCode.NotFound`, `StatusCodes.Status404NotFound`.
fn status_code(t: &str) -> Option<u16> {
    if let Ok(n) = t.parse::<u16>() {
        return Some(n);
    }
    if let Some(rest) = t.rsplit('.').next().and_then(|r| r.strip_prefix("Status")) {
        return rest.get(..3)?.parse().ok();
    }
    let name = t.rsplit('.').next()?;
    Some(match name {
        "BadRequest" => 400,
        "Unauthorized" => 401,
        "Forbidden" => 403,
        "NotFound" => 404,
        "Conflict" => 409,
        "UnprocessableEntity" => 422,
        "TooManyRequests" => 429,
        "InternalServerError" => 500,
        "NotImplemented" => 501,
        "BadGateway" => 502,
        "ServiceUnavailable" => 503,
        "GatewayTimeout" => 504,
        _ => return None,
    })
}

/// Logging, stderr, fail-fast, ASP.NET answers and calls of message
/// functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((f, callee)) = tree::callee(n, cx, 80) else {
        return;
    };
    let name = last_name(callee.split('<').next().unwrap_or(callee));
    let receiver = callee.rsplit_once('.').map(|(r, _)| r).unwrap_or("");
    let args = arguments(n.child_by_field_name("arguments"));
    let pos = positional(&args);
    if f.kind() == "member_access_expression" {
        if let Some(sev) = logger_level(receiver, name, cx) {
            // `LogError(ex, "…")`, `LogError(eventId, ex, "…")`: the
            // message is the first text argument, its values follow.
            if let Some(i) = pos.iter().position(|a| is_text(*a)) {
                let site = cx.site(n, callee, ErrorType::Log, sev);
                let brace = name.ends_with("Format");
                let (message, holes) = if brace {
                    composite_message(pos[i], &pos[i + 1..], cx)
                } else {
                    template_message(pos[i], &pos[i + 1..], cx)
                };
                cx.push(site, message, holes, n);
            }
            return;
        }
    }
    match callee {
        "Console.Error.WriteLine"
        | "Console.Error.Write"
        | "Trace.TraceError"
        | "Trace.TraceWarning" => {
            if let Some(m) = pos.first() {
                let sev = if name == "TraceWarning" {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                let site = cx.site(n, callee, ErrorType::Log, sev);
                let (message, holes) = composite_message(*m, &pos[1..], cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "Environment.FailFast" => {
            if let Some(m) = pos.first() {
                let site = cx.site(n, callee, ErrorType::Exit, Severity::Critical);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        _ => {}
    }
    // ASP.NET controllers: `return BadRequest("…")`, `StatusCode(500, "…")`.
    if f.kind() == "identifier" || receiver == "this" {
        let answer = match name {
            "StatusCode" => pos
                .first()
                .and_then(|s| status_code(cx.text(*s)))
                .map(|s| (s, pos.get(1).copied())),
            _ => status_code(name).map(|s| (s, pos.first().copied())),
        };
        if let Some((status, Some(m))) = answer {
            if is_text(m) {
                let mut site =
                    cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
                site.http_status = Some(status);
                let (message, holes) = M.message_of(m, cx);
                cx.push(site, message, holes, n);
                return;
            }
        }
    }
    // A call of a project message function: `Fail("bad {0}", x)`.
    if crate::level_from_name(name).is_some() && (f.kind() == "identifier" || receiver == "this") {
        if let Some((i, fmt)) = pos.iter().enumerate().find(|(_, a)| is_literal(**a)) {
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            let (message, holes) = composite_message(*fmt, &pos[i + 1..], cx);
            cx.wrapper_call(name, i, site, message, holes, n);
        }
    }
}

/// The level of a logging call: `ILogger` (`LogError`), Serilog
/// (`Log.Error`, `Fatal`), NLog and log4net (`Error`, `ErrorFormat`).
fn logger_level(receiver: &str, method: &str, cx: &Cx<'_>) -> Option<Severity> {
    let r = receiver.to_ascii_lowercase();
    if !(r.contains("log") || method.starts_with("Log")) {
        return None;
    }
    let level = method.strip_prefix("Log").unwrap_or(method);
    let level = level.strip_suffix("Format").unwrap_or(level);
    Some(match level {
        "Error" => Severity::Error,
        "Critical" | "Fatal" => Severity::Critical,
        "Warning" | "Warn" => Severity::Warning,
        "Information" | "Info" if cx.opts.all_levels => Severity::Info,
        "Debug" | "Trace" | "Verbose" if cx.opts.all_levels => Severity::Debug,
        _ => return None,
    })
}

/// `void Fail(string format, params object[] args)`: a message function
/// whose calls are sites (its format is a composite `{0}` format).
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_param_list(n) else {
        return;
    };
    // The grammar puts `params T[] name` straight into the list, after the
    // `parameter` nodes.
    let mut cur = params.walk();
    let children: Vec<Node<'_>> = params.children(&mut cur).collect();
    let Some(p) = children.iter().position(|c| c.kind() == "params") else {
        return;
    };
    let before: Vec<Node<'_>> = children[..p]
        .iter()
        .copied()
        .filter(|c| c.kind() == "parameter")
        .collect();
    let Some(fmt) = before.last() else {
        return;
    };
    let is_string = fmt
        .child_by_field_name("type")
        .is_some_and(|t| matches!(cx.text(t), "string" | "String" | "string?"));
    let fmt_name = fmt
        .child_by_field_name("name")
        .map(|n| cx.text(n).to_ascii_lowercase())
        .unwrap_or_default();
    if !is_string || !["format", "fmt", "message", "msg", "template"].contains(&fmt_name.as_str()) {
        return;
    }
    // An extension method's `this` parameter is the receiver, not an
    // argument.
    let offset = usize::from(
        before
            .first()
            .is_some_and(|p| cx.text(*p).starts_with("this ")),
    );
    let returns_error = n
        .child_by_field_name("returns")
        .or_else(|| n.child_by_field_name("type"))
        .is_some_and(|t| cx.text(t).ends_with("Exception"))
        || cx.text(n).contains("throw ");
    let name = cx.text(name).to_string();
    cx.wrapper_def(&name, before.len() - 1 - offset, returns_error);
}

/// Arguments without a `name:`.
fn positional<'t>(args: &[Node<'t>]) -> Vec<Node<'t>> {
    args.iter()
        .filter(|a| a.child_by_field_name("name").is_none())
        .filter_map(|a| a.named_child(0))
        .collect()
}

/// A string literal of any form without interpolation.
fn is_literal(n: Node<'_>) -> bool {
    matches!(
        n.kind(),
        "string_literal" | "verbatim_string_literal" | "raw_string_literal"
    )
}

/// An expression that evaluates to text with some literal part.
fn is_text(n: Node<'_>) -> bool {
    match n.kind() {
        "interpolated_string_expression" => true,
        "binary_expression" | "parenthesized_expression" => n
            .child_by_field_name("left")
            .or_else(|| n.named_child(0))
            .is_some_and(is_text),
        "invocation_expression" => n
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .and_then(|a| a.named_child(0))
            .is_some_and(is_text),
        _ => is_literal(n),
    }
}

/// The text of a string literal without interpolation.
fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match n.kind() {
        "string_literal" => {
            let mut out = String::new();
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                match c.kind() {
                    "string_literal_content" => out.push_str(cx.text(c)),
                    "escape_sequence" => out.push_str(&tree::decode_c_escapes(cx.text(c))),
                    _ => {}
                }
            }
            Some(out)
        }
        // `@"C:\dir ""quoted"""`: no escapes but the doubled quote.
        "verbatim_string_literal" => {
            let t = cx.text(n);
            let inner = t.strip_prefix("@\"")?.strip_suffix('"')?;
            Some(inner.replace("\"\"", "\""))
        }
        "raw_string_literal" => {
            let mut cur = n.walk();
            let content: String = n
                .named_children(&mut cur)
                .filter(|c| c.kind() == "raw_string_content")
                .map(|c| cx.text(c))
                .collect();
            Some(raw_content(&content))
        }
        "parenthesized_expression" => literal(n.named_child(0)?, cx),
        _ => None,
    }
}

/// A multi-line raw string drops its first and last line breaks and the
/// closing line's indentation.
fn raw_content(s: &str) -> String {
    if !s.starts_with('\n') && !s.starts_with("\r\n") {
        return s.to_string();
    }
    let body = s.trim_start_matches(['\r', '\n']);
    let (body, indent) = match body.rfind('\n') {
        Some(p) if body[p + 1..].trim().is_empty() => (&body[..p], &body[p + 1..]),
        _ => (body, ""),
    };
    body.trim_end_matches('\r')
        .lines()
        .map(|l| l.strip_prefix(indent).unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `$"…{x:N2}…"`, `$@"…"`, `@$"…"`, `$"""…"""`.
fn interpolation_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let start = n
        .named_child(0)
        .filter(|c| c.kind() == "interpolation_start")
        .map(|c| cx.text(c))
        .unwrap_or("$");
    let verbatim = start.contains('@');
    let raw = cx.text(n).contains("\"\"\"");
    let mut pieces = Vec::new();
    let mut cur = n.walk();
    for c in n.named_children(&mut cur) {
        match c.kind() {
            "string_content" => {
                let t = cx.text(c);
                let t = if raw {
                    t.to_string()
                } else {
                    t.replace("{{", "{").replace("}}", "}")
                };
                pieces.push(Piece::Text(if verbatim {
                    t.replace("\"\"", "\"")
                } else {
                    t
                }));
            }
            "escape_sequence" => pieces.push(Piece::Text(tree::decode_c_escapes(cx.text(c)))),
            "interpolation" => {
                let mut ic = c.walk();
                let mut expr = "";
                let mut spec = "";
                for part in c.named_children(&mut ic) {
                    match part.kind() {
                        "interpolation_brace" | "interpolation_alignment_clause" => {}
                        "interpolation_format_clause" => {
                            spec = cx.text(part).trim_start_matches(':');
                        }
                        _ if expr.is_empty() => expr = cx.text(part),
                        _ => {}
                    }
                }
                pieces.push(Piece::Expr(expr, csharp_spec(spec)));
            }
            _ => {}
        }
    }
    pieces
}

/// .NET numeric format strings (`X8`, `N2`, `F3`, `D4`) in the letters
/// [`formats::interpolated`] reads: hex stays hex, `D` is an integer,
/// `F`/`E` a float, the rest (`N2` prints group separators) any text.
fn csharp_spec(spec: &str) -> &'static str {
    match spec.chars().next() {
        Some('x' | 'X') => "x",
        Some('D' | 'd') if spec[1..].bytes().all(|b| b.is_ascii_digit()) => "d",
        Some('F' | 'f' | 'E' | 'e') if spec[1..].bytes().all(|b| b.is_ascii_digit()) => "f",
        _ => "",
    }
}

/// A composite format (`string.Format`, `Console.Error.WriteLine`,
/// log4net `ErrorFormat`): `{0}` placeholders take the values by index.
fn composite_message(fmt: Node<'_>, rest: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    match literal(fmt, cx) {
        Some(text) if !rest.is_empty() => {
            let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
            let (m, h) = formats::brace_message(&escape_specs(&text), &values, true);
            (m, h)
        }
        _ => M.message_of(fmt, cx),
    }
}

/// A message template (`ILogger`, Serilog, NLog): named placeholders
/// (`{UserId}`, `{@Order}`, `{Elapsed:N2}`) take the values in the order
/// they appear, whatever their names; numbered ones (`{0}`) by index.
fn template_message(fmt: Node<'_>, rest: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(text) = literal(fmt, cx) else {
        return M.message_of(fmt, cx);
    };
    // Renumber the placeholders and let brace_message place the values.
    let mut out = String::with_capacity(text.len());
    let mut next = 0usize;
    let mut rest_text = text.as_str();
    while let Some(p) = rest_text.find(['{', '}']) {
        out.push_str(&rest_text[..p]);
        let tail = &rest_text[p..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..2]);
            rest_text = &tail[2..];
            continue;
        }
        if tail.starts_with('{') {
            if let Some(close) = tail.find('}') {
                let inner = &tail[1..close];
                let inner = inner.trim_start_matches(['@', '$']);
                let (name, spec) = match inner.find([':', ',']) {
                    Some(i) => (&inner[..i], &inner[i..]),
                    None => (inner, ""),
                };
                if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    let index = match name.parse::<usize>() {
                        Ok(i) => i,
                        Err(_) => {
                            next += 1;
                            next - 1
                        }
                    };
                    out.push_str(&format!("{{{index}{}}}", escape_spec(spec)));
                    rest_text = &tail[close + 1..];
                    continue;
                }
            }
        }
        // A lone brace is literal text.
        out.push_str(if tail.starts_with('{') { "{{" } else { "}}" });
        rest_text = &tail[1..];
    }
    out.push_str(rest_text);
    let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
    formats::brace_message(&out, &values, true)
}

/// Rewrites the .NET format specs of a composite format into the letters
/// [`formats::brace_message`] reads (`{0:X8}` → `{0:x}`, `{0:N2}` → `{0}`).
fn escape_specs(fmt: &str) -> String {
    let mut out = String::with_capacity(fmt.len());
    let mut rest = fmt;
    while let Some(p) = rest.find('{') {
        out.push_str(&rest[..p]);
        let tail = &rest[p..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push_str("{{");
            rest = after;
            continue;
        }
        match tail.find('}') {
            Some(close) => {
                let inner = &tail[1..close];
                match inner.find([':', ',']) {
                    Some(i) => {
                        out.push('{');
                        out.push_str(&inner[..i]);
                        out.push_str(&escape_spec(&inner[i..]));
                        out.push('}');
                    }
                    None => out.push_str(&tail[..=close]),
                }
                rest = &tail[close + 1..];
            }
            None => {
                out.push_str(tail);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `,10:X8` → `:x`; alignment dropped, the format letter translated.
fn escape_spec(spec: &str) -> String {
    let f = spec.split_once(':').map(|(_, f)| f).unwrap_or("");
    match csharp_spec(f) {
        "" => String::new(),
        l => format!(":{l}"),
    }
}

/// How C# expressions make messages.
static M: Messages = Messages {
    strings: &[
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
    ],
    read_own,
    plain: Some(literal),
    parens: &["parenthesized_expression"],
    binaries: &["binary_expression"],
    ..expr::NOTHING
};

/// C#'s own message forms.
fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    match n.kind() {
        "interpolated_string_expression" => {
            Some(formats::interpolated(interpolation_pieces(n, cx)))
        }
        "invocation_expression" => Some(invocation_message(n, cx).unwrap_or_else(|| hole(n, cx))),
        _ => None,
    }
}

/// `nameof(x)`, `string.Format`, `string.Concat` and translations.
fn invocation_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let callee = cx.text(n.child_by_field_name("function")?);
    let args = arguments(n.child_by_field_name("arguments"));
    let pos = positional(&args);
    match callee {
        // `nameof(x)` is the constant "x".
        "nameof" => Some((
            vec![text_part(last_name(cx.text(*pos.first()?)))],
            Vec::new(),
        )),
        "string.Format" | "String.Format" | "System.String.Format" => {
            // An IFormatProvider may come first.
            let i = pos.iter().position(|a| is_text(*a))?;
            Some(composite_message(pos[i], &pos[i + 1..], cx))
        }
        "string.Concat" | "String.Concat" => {
            Some(pos.iter().fold((Vec::new(), Vec::new()), |acc, a| {
                join(Join::Append, acc, M.message_of(*a, cx))
            }))
        }
        _ if formats::is_translation(callee) => Some(M.message_of(*pos.first()?, cx)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::pattern_column;
    use crate::test_support::patterns_of;

    #[test]
    fn base_of_an_exception_constructor_is_its_message() {
        let s = patterns_of(
            "src/Errors.cs",
            r#"
class UnknownCommandException : Exception {
    public UnknownCommandException(string name) : base($"Unknown command {name}") {}
    public UnknownCommandException(int n) : this($"command {n}") {}
}
class Widget : Base {
    public Widget(string name) : base($"not an error {name}") {}
}
"#,
        );
        assert_eq!(
            s,
            [(
                "base".to_string(),
                "Unknown command %v".to_string(),
                vec!["name".to_string()]
            )]
        );
    }

    #[test]
    fn an_exception_built_outside_a_throw_is_a_site() {
        let s = patterns_of(
            "src/Queue.cs",
            r#"
class Queue {
    Exception Closed(string name) {
        var e = new InvalidOperationException($"queue {name} is closed");
        listener.Failed(e);
        var w = new Widget("not an exception");
        throw new IOException("disk is gone");
    }
}
"#,
        );
        assert_eq!(pattern_column(&s), ["queue %v is closed", "disk is gone"]);
    }

    #[test]
    fn throw_with_every_csharp_string_form() {
        let s = patterns_of(
            "src/App.cs",
            r#"
class A {
  void F(string path, int n, Exception e, object y) {
    throw new IOException($"read {n:X} of {path,10}: {e.Message}");
    throw new X(@$"a {path} ""q""" + "c\t" + n);
    throw new X($@"v{{x}} 100%");
    throw new Y(string.Format("{0} bad {1:D3}", path, n));
    var x = y ?? throw new ArgumentNullException(nameof(y));
    throw new ArgumentException("bad size", nameof(n));
    throw new InvalidOperationException();
    throw;
  }
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(
            got,
            vec![
                "read %x of %v: %v",
                "a %v \"q\"c\t%v",
                "v{x} 100%%",
                "%v bad %d",
                "Value cannot be null. (Parameter 'y')",
                "bad size (Parameter 'n')",
                "InvalidOperationException",
            ]
        );
        assert_eq!(s[0].2, vec!["n", "path", "e.Message"]);
    }

    #[test]
    fn logger_templates_fill_by_position() {
        let s = patterns_of(
            "src/App.cs",
            r#"
class A {
  void F() {
    _logger.LogError(ex, "User {UserId} failed {Count:N2} times ({@Req})", id, count, req);
    Log.Fatal("{0} then {1}", a, b);
    _logger.LogInformation("fine");
  }
}
"#,
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].1, "User %v failed %v times (%v)");
        assert_eq!(s[0].2, vec!["id", "count", "req"]);
        assert_eq!(s[1].1, "%v then %v");
    }
}
