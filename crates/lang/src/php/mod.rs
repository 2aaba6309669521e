//! PHP: `throw new X(…)` (single-quoted literals, `"…$x…{$y->z}…"`
//! interpolation, heredocs, `.` concatenation, `sprintf`/`vsprintf` kept
//! as printf), `trigger_error` at the level it names, PSR-3 logger calls
//! (`$this->logger->error('…{key}…', ['key' => $v])`, `Log::error`),
//! `error_log`, `exit("…")`/`die("…")`, HTTP answers (`abort(404, '…')`,
//! `HttpException(404, '…')`), translations (`__('…')`) seen through, and
//! the project's own message functions (`function fail(string $format,
//! ...$args)`).

mod console;
mod messages;

use messages::*;

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, Messages, Read};
use crate::formats::{self, Piece};
use crate::message::{Message, MsgPart};
use crate::tree::{self, last_name, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The PHP language module.
pub static PHP: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::C,
    extensions: Lang::Php.extensions(),
};

/// What the callers scan and the analyser know of PHP.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "<?php\nif ($e instanceof {class}) {\n    {note}\n    throw $e;\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch:
            "<?php\ntry {\n    {function}();\n} catch ({class} $e) {\n    {note}\n    throw $e;\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::Keyword(&["function ", "function* "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "throw_expression" => throw(n, cx),
        "assignment_expression" => console::kept(n, cx),
        "object_creation_expression" => built_exception(n, cx),
        "augmented_assignment_expression"
            if n.child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == ".=") =>
        {
            console::kept(n, cx)
        }
        "function_call_expression" => function_call(n, cx),
        "member_call_expression" | "nullsafe_member_call_expression" => {
            method_call(n, "object", cx)
        }
        "scoped_call_expression" => method_call(n, "scope", cx),
        "exit_statement" => exit(n, cx),
        "function_definition" | "method_declaration" => wrapper_def(n, cx),
        "return_statement" => returned_pieces(n, cx),
        _ => {}
    }
}

/// `return [$msg, 'could not be found in any version.'];` in a function
/// whose callers in the file join what it returns (`implode(self::
/// reason(…))`): the pieces are one message, joined by the glue. Composer
/// returns its problem texts this way.
fn returned_pieces(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(array) = n
        .named_child(0)
        .filter(|a| a.kind() == "array_creation_expression")
    else {
        return;
    };
    let mut cur = array.walk();
    let values: Vec<Node<'_>> = array
        .named_children(&mut cur)
        .filter_map(|e| {
            (e.named_child_count() == 1)
                .then(|| e.named_child(0))
                .flatten()
        })
        .collect();
    // A piece held in a variable (`[$msg, '…']`) is a layer of its own
    // where it is assigned; only pieces written here are joined.
    if values.len() < 2 || !values.iter().all(|v| is_text(*v)) {
        return;
    }
    let Some(glue) = enclosing_function_name(n, cx).and_then(|f| joined_by(cx.source(), &f)) else {
        return;
    };
    let (mut message, mut holes) = (Vec::new(), Vec::new());
    for (i, v) in values.iter().enumerate() {
        if i > 0 && !glue.is_empty() {
            message.push(tree::text_part(glue.clone()));
        }
        let (m, h) = M.message_of(*v, cx);
        message.extend(m);
        holes.extend(h);
    }
    cx.push_kept_message(n, "return", message, holes);
}

/// The name of the function or method around `n`.
fn enclosing_function_name(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut f = n.parent();
    while let Some(q) = f.filter(|q| !cx.is_function(*q)) {
        f = q.parent();
    }
    cx.function_name(f?)
}

/// The glue of an `implode(…)` or `join(…)` in `source` whose last
/// argument is a call of `function` (`implode(self::f(…))` → `""`,
/// `implode(', ', $this->f(…))` → `", "`); `None` when the file joins no
/// call of it.
fn joined_by(source: &str, function: &str) -> Option<String> {
    let call = format!("{function}(");
    ["implode(", "join("].iter().find_map(|joiner| {
        source.match_indices(joiner).find_map(|(at, _)| {
            let args = &source[at + joiner.len()..];
            let args = &args[..args.find(';').unwrap_or(args.len())];
            let (glue, rest) = match args.strip_prefix(['\'', '"']) {
                Some(quoted) => {
                    let close = quoted.find(['\'', '"'])?;
                    let rest = quoted[close + 1..].trim_start().strip_prefix(',')?;
                    (quoted[..close].to_string(), rest.trim_start())
                }
                None => (String::new(), args),
            };
            let callee = rest.split('(').next()?;
            let named = callee.rsplit(['>', ':', '\\', ' ']).next()? == function;
            (named && rest.contains(&call)).then_some(glue)
        })
    })
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Php,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
    functions: &[
        "function_definition",
        "method_declaration",
        "anonymous_function",
        "arrow_function",
    ],
    classes: &[
        "class_declaration",
        "interface_declaration",
        "trait_declaration",
        "enum_declaration",
    ],
    loops: &[
        "for_statement",
        "foreach_statement",
        "while_statement",
        "do_statement",
    ],
    conditionals: &["if_statement", "else_if_clause", "while_statement"],
    returns: &["return_statement", "throw_expression"],
    catches: &["catch_clause"],
    comments: &["comment"],
    locals: Some(&LOCALS),
};

/// `throw new X('…', $code, $previous)`; `throw $e` re-throws.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n
        .named_child(0)
        .filter(|e| e.kind() == "object_creation_expression")
    else {
        return;
    };
    exception(n, e, cx);
}

/// `$ex = new \RuntimeException(…)` (Guzzle's `Utils::tryFopen` builds
/// it in an error handler and throws it later), `return new X(…)`,
/// `$this->fail(new X(…))`: an exception built outside a `throw` is thrown
/// or reported elsewhere, and PHP reports the line of the `new`, so that
/// is the site.
fn built_exception(e: Node<'_>, cx: &mut Cx<'_>) {
    if e.parent().is_some_and(|p| p.kind() == "throw_expression") {
        return;
    }
    let Some(ty) = created_class(e) else {
        return;
    };
    let class = cx.text(ty);
    if class.ends_with("Exception") || class.ends_with("Error") {
        exception(e, e, cx);
    }
}

/// The class a `new` expression names.
fn created_class(e: Node<'_>) -> Option<Node<'_>> {
    let mut cur = e.walk();
    let ty = e
        .named_children(&mut cur)
        .find(|c| matches!(c.kind(), "name" | "qualified_name" | "relative_name"));
    ty
}

/// A site for the exception `e` creates, at `n`.
fn exception(n: Node<'_>, e: Node<'_>, cx: &mut Cx<'_>) {
    let Some(ty) = created_class(e) else {
        return;
    };
    let class = cx.text(ty).trim_start_matches('\\').to_string();
    let name = last_name(&class.replace('\\', ".")).to_string();
    let mut cur = e.walk();
    let list = e.named_children(&mut cur).find(|c| c.kind() == "arguments");
    let args = arguments(list);
    let pos = positional(&args);
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(name.clone());
    let status = http_exception_status(&name, &pos, cx);
    if let Some(status) = status {
        site.http_status = Some(status);
        site.error_type = ErrorType::Http;
        site.severity = tree::severity_of_status(status);
    }
    // `HttpException($status, $message)` puts the status first.
    let msg_at = usize::from(name == "HttpException");
    let msg = tree::named_argument(&args, &["message"], cx).or_else(|| pos.get(msg_at).copied());
    // `new X($message, 42)`: a literal code.
    if let Some(code) = tree::named_argument(&args, &["code"], cx)
        .or_else(|| pos.get(msg_at + 1).copied())
        .filter(|c| c.kind() == "integer" || c.kind() == "class_constant_access_expression")
    {
        site.error_code = Some(cx.text(code).to_string());
    }
    let (message, holes) = match msg {
        Some(m) => M.message_of(m, cx),
        None => (vec![text_part(name)], Vec::new()),
    };
    cx.push(site, message, holes, n);
}

/// Symfony's HTTP exceptions: `HttpException(404, …)` and the classes
/// named for a status (`NotFoundHttpException`).
fn http_exception_status(class: &str, pos: &[Node<'_>], cx: &Cx<'_>) -> Option<u16> {
    Some(match class {
        "HttpException" => cx.text(*pos.first()?).parse().ok()?,
        "BadRequestHttpException" => 400,
        "UnauthorizedHttpException" => 401,
        "AccessDeniedHttpException" => 403,
        "NotFoundHttpException" => 404,
        "MethodNotAllowedHttpException" => 405,
        "ConflictHttpException" => 409,
        "GoneHttpException" => 410,
        "UnprocessableEntityHttpException" => 422,
        "TooManyRequestsHttpException" => 429,
        "ServiceUnavailableHttpException" => 503,
        _ => return None,
    })
}

/// `trigger_error`, `error_log`, Laravel's `abort`, and calls of message
/// functions.
fn function_call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(f) = n.child_by_field_name("function") else {
        return;
    };
    if !matches!(f.kind(), "name" | "qualified_name") {
        return;
    }
    let callee = cx.text(f).trim_start_matches('\\');
    let args = arguments(n.child_by_field_name("arguments"));
    let pos = positional(&args);
    match callee {
        "trigger_error" | "user_error" => {
            let level = pos.get(1).map(|l| cx.text(*l)).unwrap_or("E_USER_NOTICE");
            let sev = match last_name(level) {
                "E_USER_ERROR" => Severity::Error,
                "E_USER_WARNING" | "E_USER_DEPRECATED" => Severity::Warning,
                _ if cx.opts.all_levels => Severity::Info,
                _ => return,
            };
            if let Some(m) = pos.first() {
                let mut site = cx.site(n, callee, ErrorType::Log, sev);
                site.error_class = Some(last_name(level).to_string());
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
        }
        "die" | "exit" => {
            if let Some(m) = pos.first().filter(|m| is_text(**m)) {
                let site = cx.site(n, callee, ErrorType::Exit, Severity::Critical);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
        }
        // `fwrite(STDERR, '…')`, `fprintf(STDERR, '%s…', $x)`.
        "fwrite" | "fputs" | "fprintf"
            if pos.first().is_some_and(|s| cx.text(*s).ends_with("STDERR")) =>
        {
            if let Some(m) = pos.get(1) {
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                let (message, holes) = if callee == "fprintf" {
                    printf_message(*m, &pos[2..], cx)
                } else {
                    M.message_of(*m, cx)
                };
                cx.push(site, message, holes, n);
            }
        }
        "error_log" => {
            if let Some(m) = pos.first() {
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
        }
        // Laravel: `abort(404, 'Order not found')`.
        "abort" => {
            if let (Some(status), Some(m)) = (
                pos.first().and_then(|s| cx.text(*s).parse::<u16>().ok()),
                pos.get(1),
            ) {
                let mut site =
                    cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
                site.http_status = Some(status);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
        }
        _ => {
            let name = last_name(callee);
            wrapper_call(n, name, &pos, cx);
        }
    }
}

/// PSR-3 logger calls (`$this->logger->error(…)`, `Log::error(…)`,
/// `$logger->log('error', …)`) and `$this->fail(…)`/`self::fail(…)`.
fn method_call(n: Node<'_>, object_field: &str, cx: &mut Cx<'_>) {
    let (Some(obj), Some(m)) = (
        n.child_by_field_name(object_field),
        n.child_by_field_name("name"),
    ) else {
        return;
    };
    let object = cx.text(obj);
    let method = cx.text(m);
    let args = arguments(n.child_by_field_name("arguments"));
    let mut pos = positional(&args);
    if object == "parent" && method == "__construct" {
        parent_construct(n, &pos, cx);
        return;
    }
    if matches!(object, "$this" | "self" | "static") {
        if object == "$this" && self_log(n, method, &pos, cx) {
            return;
        }
        wrapper_call(n, method, &pos, cx);
        return;
    }
    if console::printer(n, object, method, &pos, cx) {
        return;
    }
    if !object.to_ascii_lowercase().contains("log") {
        return;
    }
    let mut level = method.to_ascii_lowercase();
    if level == "log" {
        // `->log(LogLevel::ERROR, '…')`, `->log('error', '…')`.
        let Some(l) = pos.first() else {
            return;
        };
        level = last_name(cx.text(*l))
            .trim_matches(['\'', '"'])
            .to_ascii_lowercase();
        pos.remove(0);
    }
    let Some(sev) = psr3_severity(&level, cx) else {
        return;
    };
    let Some(msg) = pos.first().copied() else {
        return;
    };
    let callee = format!("{object}->{method}");
    let site = cx.site(n, &callee, ErrorType::Log, sev);
    let (message, holes) = psr3_message(msg, pos.get(1).copied(), cx);
    cx.push(site, message, holes, n);
}

/// `parent::__construct("Unknown command $name")` in the constructor of
/// an exception class: the message every `throw new ThatException(…)`
/// carries.
fn parent_construct(n: Node<'_>, pos: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(first) = pos.first().copied().filter(|m| is_text(*m)) else {
        return;
    };
    let Some(class) =
        std::iter::successors(n.parent(), |p| p.parent()).find(|p| p.kind() == "class_declaration")
    else {
        return;
    };
    let name = class.child_by_field_name("name").map(|c| cx.text(c));
    let mut cur = class.walk();
    let parent = class
        .children(&mut cur)
        .find(|c| c.kind() == "base_clause")
        .map(|b| cx.text(b).trim_start_matches("extends").trim());
    let is_error = [name, parent]
        .into_iter()
        .flatten()
        .any(crate::jvm::shared::exception_name);
    if !is_error {
        return;
    }
    let mut site = cx.site(
        n,
        "parent::__construct",
        ErrorType::Exception,
        Severity::Error,
    );
    site.error_class = name.map(str::to_string);
    let (message, holes) = M.message_of(first, cx);
    cx.push(site, message, holes, n);
}

/// The eight PSR-3 level methods.
const PSR3_LEVELS: &[&str] = &[
    "emergency",
    "alert",
    "critical",
    "error",
    "warning",
    "notice",
    "info",
    "debug",
];

/// The severity of a PSR-3 level; notice, info and debug only with
/// `all_levels`.
fn psr3_severity(level: &str, cx: &Cx<'_>) -> Option<Severity> {
    Some(match level {
        "emergency" | "alert" | "critical" => Severity::Critical,
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "notice" | "info" if cx.opts.all_levels => Severity::Info,
        "debug" if cx.opts.all_levels => Severity::Debug,
        _ => return None,
    })
}

/// `$this->warning('…', $context)` inside a logger class, one that
/// declares that level method itself (not as a `...$args` message
/// function), implements `LoggerInterface` or uses `LoggerTrait`: Monolog's
/// `Logger` logs through itself. True when the call was such a call (a
/// site or, below the levels asked for, none).
fn self_log(n: Node<'_>, method: &str, pos: &[Node<'_>], cx: &mut Cx<'_>) -> bool {
    let level = method.to_ascii_lowercase();
    if !PSR3_LEVELS.contains(&level.as_str()) {
        return false;
    }
    let Some(msg) = pos.first().copied().filter(|m| is_text(*m)) else {
        return false;
    };
    // `$this` is the innermost class around the call.
    let mut class = n.parent();
    while let Some(c) = class {
        if matches!(
            c.kind(),
            "class_declaration" | "anonymous_class" | "trait_declaration"
        ) {
            break;
        }
        class = c.parent();
    }
    let Some(class) = class else {
        return false;
    };
    if !is_logger_class(class, &level, cx) {
        return false;
    }
    if let Some(sev) = psr3_severity(&level, cx) {
        let site = cx.site(n, &format!("$this->{method}"), ErrorType::Log, sev);
        let (message, holes) = psr3_message(msg, pos.get(1).copied(), cx);
        cx.push(site, message, holes, n);
    }
    true
}

/// Whether `class` implements `LoggerInterface`, uses `LoggerTrait` or
/// declares a PSR-3 style `level` method (one without `...$args`).
fn is_logger_class(class: Node<'_>, level: &str, cx: &Cx<'_>) -> bool {
    let base = |t: &str| t.rsplit('\\').next().unwrap_or(t).to_string();
    let names = |c: Node<'_>| -> Vec<String> {
        let mut cur = c.walk();
        let v = c
            .named_children(&mut cur)
            .filter(|x| matches!(x.kind(), "name" | "qualified_name" | "relative_name"))
            .map(|x| base(cx.text(x)))
            .collect();
        v
    };
    let mut cur = class.walk();
    let implements = class
        .named_children(&mut cur)
        .filter(|c| c.kind() == "class_interface_clause")
        .any(|c| names(c).iter().any(|i| i == "LoggerInterface"));
    if implements {
        return true;
    }
    let Some(body) = class.child_by_field_name("body") else {
        return false;
    };
    let mut cur = body.walk();
    let found = body.named_children(&mut cur).any(|d| match d.kind() {
        "use_declaration" => names(d).iter().any(|t| t == "LoggerTrait"),
        "method_declaration" => {
            d.child_by_field_name("name")
                .is_some_and(|m| cx.text(m).eq_ignore_ascii_case(level))
                && d.child_by_field_name("parameters").is_some_and(|p| {
                    let mut pc = p.walk();
                    let variadic = p
                        .named_children(&mut pc)
                        .any(|x| x.kind() == "variadic_parameter");
                    !variadic
                })
        }
        _ => false,
    });
    found
}

/// A PSR-3 message: `{key}` placeholders are filled from the context
/// array (`['key' => $value]`); a key the call does not list stays a
/// hole named by its key.
fn psr3_message(msg: Node<'_>, context: Option<Node<'_>>, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(text) = literal(msg, cx) else {
        return M.message_of(msg, cx);
    };
    if !text.contains('{') {
        return (vec![text_part(text)], Vec::new());
    }
    let mut values = Vec::new();
    if let Some(ctx) = context.filter(|c| c.kind() == "array_creation_expression") {
        let mut cur = ctx.walk();
        for el in ctx.named_children(&mut cur) {
            let mut ec = el.walk();
            let kv: Vec<Node<'_>> = el
                .named_children(&mut ec)
                .filter(|c| c.kind() != "comment")
                .collect();
            if let [k, v] = kv[..] {
                if let Some(key) = literal(k, cx) {
                    values.push(format!("{key}={}", cx.text(v)));
                }
            }
        }
    }
    formats::brace_message(&text, &values, false)
}

/// `exit("…")` and `die("…")` print their string and stop.
fn exit(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(m) = n
        .named_child(0)
        .filter(|m| m.kind() != "integer" && m.kind() != "comment")
    else {
        return;
    };
    if !is_text(m) {
        return;
    }
    let verb = if cx.text(n).starts_with("die") {
        "die"
    } else {
        "exit"
    };
    let site = cx.site(n, verb, ErrorType::Exit, Severity::Critical);
    let (message, holes) = M.message_of(m, cx);
    cx.push(site, message, holes, n);
}

/// A call of a plain name (or `$this->`, `self::` method) with a literal
/// argument, which a project message function of that name makes a site.
fn wrapper_call(n: Node<'_>, name: &str, pos: &[Node<'_>], cx: &mut Cx<'_>) {
    if crate::level_from_name(name).is_none() {
        return;
    }
    if let Some((i, fmt)) = pos.iter().enumerate().find(|(_, a)| is_literal(**a)) {
        let site = cx.site(n, name, ErrorType::Log, Severity::Error);
        let (message, holes) = printf_message(*fmt, &pos[i + 1..], cx);
        cx.wrapper_call(name, i, site, message, holes, n);
    }
}

/// `function fail(string $format, ...$args)`: a message function whose
/// calls are sites (its format goes to `sprintf`).
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_params(n) else {
        return;
    };
    let Some(splat) = params.iter().position(|p| p.kind() == "variadic_parameter") else {
        return;
    };
    if splat == 0 {
        return;
    }
    let fmt = params[splat - 1]
        .child_by_field_name("name")
        .map(|v| cx.text(v).trim_start_matches('$').to_ascii_lowercase())
        .unwrap_or_default();
    if !matches!(
        fmt.as_str(),
        "msg" | "fmt" | "format" | "message" | "template" | "text"
    ) {
        return;
    }
    let name = cx.text(name).to_string();
    let throws = cx.text(n).contains("throw ");
    cx.wrapper_def(&name, splat - 1, throws);
}

#[cfg(test)]
mod tests;
