//! Python: `raise X(…)` (literals, f-strings, `%`, `.format`, bare
//! `raise X`), `logging` calls, `warnings.warn`, `sys.exit("…")`,
//! `print(…, file=sys.stderr)`, web answers (`abort(404)`,
//! `HTTPException(status_code=…)`), translations seen through, and
//! printf-style message functions of the project (`def fail(msg, *args)`).

mod messages;
mod raised;

use messages::*;

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, Messages, Read};
use crate::flow;
use crate::formats::{self, Piece};
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The Python language module.
pub static PYTHON: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::Python,
    extensions: Lang::Python.extensions(),
};

/// What the callers scan and the analyser know of Python.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if isinstance(exc, {class}):\n    {note}\n    raise",
        comment: "# ",
        type_guard_path: None,
        try_catch: "try:\n    {function}(...)\nexcept {class} as exc:\n    {note}\n    raise",
        try_catch_transient: Some("try:\n    {function}(...)\nexcept {class} as exc:\n    {note}\n    # Usually transient: retry with backoff.\n    raise"),
    }),
    throw_verb: Some("raises"),
    heads: FunctionHeads::Keyword(&["def "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "module" => literal_functions(n, cx),
        "raise_statement" => raise(n, cx),
        "call" if !exception_init(n, cx) => call(n, cx),
        "assignment" | "return_statement" => exception_message(n, cx),
        "augmented_assignment" => {
            appended_piece(n, cx);
        }
        "function_definition" => wrapper_def(n, cx),
        "class_definition" => raised::class_def(n, cx),
        _ => {}
    }
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Python,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_python::LANGUAGE.into(),
    functions: &["function_definition", "lambda"],
    classes: &["class_definition"],
    loops: &["for_statement", "while_statement"],
    conditionals: &["if_statement", "elif_clause", "while_statement"],
    returns: &["return_statement", "raise_statement"],
    catches: &["except_clause"],
    comments: &["comment"],
    locals: Some(&LOCALS),
};

/// `name = <text>` in a function: the text a hole printing `name` holds.
static LOCALS: crate::locals::LocalTexts = crate::locals::LocalTexts {
    assignments: &[("assignment", "left", "right")],
    read: |v, cx| is_text(v, cx).then(|| M.message_of(v, cx)),
};

/// `raise X("…")`, `raise X`, `raise X(…) from e`.
fn raise(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| e.kind() != "comment") else {
        return; // a bare `raise` re-raises: no new message
    };
    // `raise X(…).with_traceback(tb)` raises X(…).
    let e = match e.child_by_field_name("function") {
        Some(f)
            if e.kind() == "call"
                && f.kind() == "attribute"
                && f.child_by_field_name("attribute")
                    .is_some_and(|a| cx.text(a) == "with_traceback") =>
        {
            match f.child_by_field_name("object") {
                Some(o) => o,
                None => return,
            }
        }
        _ => e,
    };
    match e.kind() {
        "call" => raised::exception_call(n, e, cx),
        "identifier" | "attribute" => {
            let class = cx.text(e).to_string();
            let name = last_name(&class);
            // `raise exc` re-raises a value; `raise ValueError` a class.
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                return;
            }
            let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
            site.error_class = Some(name.to_string());
            let name = name.to_string();
            cx.push(site, vec![text_part(name)], Vec::new(), n);
        }
        _ => {}
    }
}

/// Logging, warnings, exits, stderr prints, web aborts and calls of
/// message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((f, callee)) = tree::callee(n, cx, 80) else {
        return;
    };
    let name = last_name(callee);
    let receiver = callee.rsplit_once('.').map(|(r, _)| r).unwrap_or("");
    let args = arguments(n.child_by_field_name("arguments"));
    let positional: Vec<Node<'_>> = args.iter().copied().filter(|a| !is_keyword(a)).collect();
    // Logging: `logger.error("…%s", x)`, `logging.exception(…)`, `log.warn`.
    let looks_like_logger = {
        let r = receiver.to_ascii_lowercase();
        r.contains("log") || r == "self.log" || r.ends_with("logger")
    };
    if f.kind() == "attribute" && looks_like_logger {
        let level = match name {
            "error" | "exception" => Some(Severity::Error),
            "critical" | "fatal" => Some(Severity::Critical),
            "warning" | "warn" => Some(Severity::Warning),
            "info" if cx.opts.all_levels => Some(Severity::Info),
            "debug" if cx.opts.all_levels => Some(Severity::Debug),
            _ => None,
        };
        if let (Some(sev), Some(fmt)) = (level, positional.first()) {
            let site = cx.site(n, callee, ErrorType::Log, sev);
            let (message, holes) = format_message(*fmt, &positional[1..], cx);
            cx.push(site, message, holes, n);
            return;
        }
    }
    if name == "append" && f.kind() == "attribute" {
        flowing_message(n, receiver, positional.first().copied(), cx);
        return;
    }
    match callee {
        "warnings.warn" | "warn" => {
            if let Some(m) = positional.first() {
                let mut site = cx.site(n, callee, ErrorType::Log, Severity::Warning);
                site.error_class = positional
                    .get(1)
                    .map(|c| cx.text(*c).to_string())
                    .or_else(|| keyword(&args, &["category"], cx).map(|c| cx.text(c).to_string()))
                    .map(|c| last_name(&c).to_string());
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "sys.exit" | "exit" | "SystemExit" => {
            // `sys.exit("msg")` prints msg and exits 1; a number prints nothing.
            if let Some(m) = positional.first().filter(|m| is_text(**m, cx)) {
                let site = cx.site(n, callee, ErrorType::Exit, Severity::Critical);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // Prints to stdout are the trace-only tier: a server's banner
        // (`click.echo(f" * Serving Flask app '{path}'")`).
        "print" | "echo" | "secho" | "click.echo" | "click.secho" => {
            let sev = if writes_to_stderr(n, &args, cx) {
                Severity::Error
            } else if cx.opts.all_levels && positional.first().is_some_and(|p| is_text(*p, cx)) {
                Severity::Info
            } else {
                return;
            };
            if !positional.is_empty() {
                let site = cx.site(n, callee, ErrorType::Log, sev);
                let (message, holes) = joined(&positional, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // A password prompt the terminal shows (`getpass.getpass("Enter
        // the vault password: ")`): the trace-only tier, like stdout.
        "getpass" | "getpass.getpass" => {
            if let Some(m) = positional
                .first()
                .filter(|m| cx.opts.all_levels && is_text(**m, cx))
            {
                let site = cx.site(n, callee, ErrorType::Log, Severity::Info);
                let (message, holes) = M.message_of(*m, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "sys.stderr.write" => {
            if let Some(m) = positional.first() {
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                let (mut message, mut holes) = M.message_of(*m, cx);
                if let Some(value) = written_next(n, &message, cx) {
                    message.push(MsgPart::Hole);
                    holes.push(value);
                }
                crate::message::trim_newline(&mut message);
                cx.push(site, message, holes, n);
            }
            return;
        }
        "abort" | "flask.abort" | "web.abort" => {
            if let Some(status) = positional
                .first()
                .and_then(|s| cx.text(*s).parse::<u16>().ok())
            {
                let mut site =
                    cx.site(n, callee, ErrorType::Http, tree::severity_of_status(status));
                site.http_status = Some(status);
                let msg =
                    keyword(&args, &["description"], cx).or_else(|| positional.get(1).copied());
                let (message, holes) = match msg {
                    Some(m) => M.message_of(m, cx),
                    None => (vec![text_part(status_line(status))], Vec::new()),
                };
                cx.push(site, message, holes, n);
            }
            return;
        }
        _ => {}
    }
    if raised::built_exception(n, callee, cx) {
        return;
    }
    // A call of a project message function: `fail("bad %s", x)`.
    if crate::level_from_name(name).is_some() && (f.kind() == "identifier" || receiver == "self") {
        // `_log("info", "…%s", x)`: a leading level name is the level.
        let level = positional.first().and_then(|l| level_named(*l, cx));
        let skip = usize::from(level.is_some() && positional.len() > 1);
        if let Some((i, fmt)) = positional
            .iter()
            .enumerate()
            .skip(skip)
            .find(|(_, a)| is_text(**a, cx))
        {
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            let (message, holes) = format_message(*fmt, &positional[i + 1..], cx);
            cx.wrapper_call(name, i, site, message, holes, n);
            if skip == 1 {
                cx.wrapper_call_level(level);
            }
        }
    }
}

/// The level a string literal names (`"info"`, `'error'`).
fn level_named(n: Node<'_>, cx: &Cx<'_>) -> Option<Severity> {
    if n.kind() != "string" {
        return None;
    }
    Some(match cx.text(n).trim_matches(['"', '\'']) {
        "critical" | "fatal" => Severity::Critical,
        "error" | "exception" => Severity::Error,
        "warning" | "warn" => Severity::Warning,
        "info" => Severity::Info,
        "debug" => Severity::Debug,
        _ => return None,
    })
}

/// Whether a `print`/`echo` call writes to the error stream: `err=True`
/// (click), or `file=` naming stderr, directly or through a name the
/// enclosing function binds to it (`file = get_text_stderr()`).
fn writes_to_stderr(n: Node<'_>, args: &[Node<'_>], cx: &Cx<'_>) -> bool {
    if keyword(args, &["err"], cx).is_some_and(|e| cx.text(e) == "True") {
        return true;
    }
    let Some(file) = keyword(args, &["file"], cx) else {
        return false;
    };
    let stream = cx.text(file);
    if crate::is_error_stream(stream) {
        return true;
    }
    if file.kind() != "identifier" {
        return false;
    }
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == "function_definition" {
            let bound = format!("{stream} = ");
            return cx.text(p).lines().any(|l| {
                l.trim_start()
                    .strip_prefix(bound.as_str())
                    .is_some_and(|v| v.contains("stderr"))
            });
        }
        cur = p.parent();
    }
    false
}

/// The exception class whose `__init__` or `__str__` encloses `n`, when
/// the class looks like an exception (its name or a base says Error,
/// Exception or Warning).
fn enclosing_exception_class(n: Node<'_>, methods: &[&str], cx: &Cx<'_>) -> Option<String> {
    let mut cur = n.parent();
    let mut method = None;
    while let Some(p) = cur {
        match p.kind() {
            "function_definition" if method.is_none() => {
                let name = p.child_by_field_name("name").map(|x| cx.text(x))?;
                if !methods.contains(&name) {
                    return None;
                }
                method = Some(name);
            }
            "class_definition" => {
                method?;
                let name = cx.text(p.child_by_field_name("name")?);
                let bases = p
                    .child_by_field_name("superclasses")
                    .map(|b| cx.text(b))
                    .unwrap_or("");
                let looks = |t: &str| {
                    t.contains("Error") || t.contains("Exception") || t.contains("Warning")
                };
                return (looks(name) || looks(bases)).then(|| name.to_string());
            }
            _ => {}
        }
        cur = p.parent();
    }
    None
}

/// `super().__init__(f"{pool}: {message}")` in an exception class: the
/// text its instances print. True when the call was such a site.
fn exception_init(n: Node<'_>, cx: &mut Cx<'_>) -> bool {
    let Some(f) = n.child_by_field_name("function") else {
        return false;
    };
    let callee = cx.text(f);
    if !callee.ends_with(".__init__") {
        return false;
    }
    let Some(class) = enclosing_exception_class(n, &["__init__"], cx) else {
        return false;
    };
    let args = arguments(n.child_by_field_name("arguments"));
    let Some(m) = args.iter().find(|a| is_text(**a, cx)) else {
        return true;
    };
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    let (message, holes) = M.message_of(*m, cx);
    cx.push(site, message, holes, n);
    true
}

/// `message = f"Max retries exceeded …"` in an exception's `__init__`, or
/// `return f"…"` from its `__str__` or `__repr__`.
fn exception_message(n: Node<'_>, cx: &mut Cx<'_>) {
    let value = if n.kind() == "assignment" {
        let target = n
            .child_by_field_name("left")
            .map(|l| cx.text(l))
            .unwrap_or("");
        if target != "self.args" && !crate::is_message_name(target) {
            flowing_message(n, target, n.child_by_field_name("right"), cx);
            return;
        }
        n.child_by_field_name("right")
    } else {
        n.named_child(0)
    };
    if n.kind() == "assignment" && appended_piece(n, cx) {
        return;
    }
    // `message = [f"Could not build url for endpoint {e!r}"]`, joined later.
    if let Some(list) = value.filter(|v| v.kind() == "list" && n.kind() == "assignment") {
        let mut cur = list.walk();
        let items: Vec<Node<'_>> = list
            .named_children(&mut cur)
            .filter(|i| is_text(*i, cx))
            .collect();
        for item in items {
            let (message, holes) = M.message_of(item, cx);
            cx.push_kept_message(item, "=", message, holes);
        }
        return;
    }
    // `msg = f"no match for {x}" if found else "nothing given"`: each
    // branch is a message.
    if let Some(choice) = value.filter(|v| v.kind() == "conditional_expression") {
        for branch in [choice.named_child(0), choice.named_child(2)]
            .into_iter()
            .flatten()
        {
            if is_text(branch, cx) && n.kind() == "assignment" {
                kept_message(n, branch, cx);
            }
        }
        return;
    }
    let Some(value) = value.filter(|v| is_text(*v, cx)) else {
        return;
    };
    // `__repr__` is what a message holding the exception prints (`{e!r}`,
    // an arguments tuple).
    let methods = [
        "__init__",
        "__str__",
        "__repr__",
        "format_message",
        "message",
    ];
    let Some(class) = enclosing_exception_class(n, &methods, cx) else {
        kept_message(n, value, cx);
        return;
    };
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    let (message, holes) = M.message_of(value, cx);
    cx.push(site, message, holes, n);
}

/// `message = message + f" in {path}"` or `msg += " (while reading)"`:
/// text appended to a message kept under a name is a piece of it (the
/// trace finds it after the message, or in its last hole). Whether the
/// assignment appended to a message.
fn appended_piece(n: Node<'_>, cx: &mut Cx<'_>) -> bool {
    let kinds = ("augmented_assignment", "binary_operator");
    let Some(piece) = tree::appended_to_message(n, kinds, cx) else {
        return false;
    };
    if is_text(piece, cx) {
        let target = n.child_by_field_name("left").map_or("", |l| cx.text(l));
        let (message, holes) = M.message_of(piece, cx);
        cx.push_kept_message_as(n, "+=", message, holes, target);
    }
    true
}

/// `msg = f"cannot open {path}"` (later `raise X(msg)`), `e.strerror =
/// f"Unable to load configuration file ({e.strerror})"`: a message kept
/// under a name and raised or printed elsewhere, outside an exception
/// class.
fn kept_message(n: Node<'_>, value: Node<'_>, cx: &mut Cx<'_>) {
    let target = n.child_by_field_name("left").map_or("", |l| cx.text(l));
    let kept = if n.kind() == "assignment" {
        crate::is_message_name(target)
    } else {
        in_message_function(n, cx)
    };
    if kept {
        let op = if n.kind() == "assignment" {
            "="
        } else {
            "return"
        };
        let (mut message, mut holes) = M.message_of(value, cx);
        if let Some(error) = target.strip_suffix(".strerror") {
            (message, holes) = as_os_error(message, holes, error);
        }
        if let Some(format) = format_constant(target, value, cx) {
            (message, holes) = formats::brace_message(&format, &[], true);
        }
        let before = cx.facts.sites.len();
        cx.push_kept_message_as(n, op, message, holes, target);
        raised::attach_raised_tuple(n, target, before, cx);
    }
}

/// A constant named for a message that holds a plain string with named
/// `{placeholders}` is a `str.format` template, filled where it is used
/// (urllib3's `SPECIFIC_ERROR = "too many {status_code} error
/// responses"`, later `.format(status_code=…)`): its text, to read as
/// one.
fn format_constant(target: &str, value: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let constant = crate::is_constant_case(target);
    let text = literal(value, cx).filter(|_| constant && value.kind() == "string")?;
    let named = text.split('{').skip(1).any(|p| {
        p.find('}').is_some_and(|end| {
            end > 0
                && p[..end]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
    });
    named.then_some(text)
}

/// `e.strerror = f"Unable to load configuration file ({e.strerror})"`
/// then `raise`: an `OSError` prints its text as `[Errno 2] text:
/// 'filename'`, the form of the errors of calls given a path.
fn as_os_error(message: Message, holes: Vec<String>, error: &str) -> (Message, Vec<String>) {
    let mut m = vec![text_part("[Errno "), MsgPart::Hole, text_part("] ")];
    m.extend(message);
    m.extend([text_part(": '"), MsgPart::Hole, text_part("'")]);
    let mut h = vec![format!("{error}.errno")];
    h.extend(holes);
    h.push(format!("{error}.filename"));
    (m, h)
}

/// Whether the function `n` is directly in is named for a message
/// (jinja2's `_undefined_message` returns the text `UndefinedError`
/// prints).
fn in_message_function(n: Node<'_>, cx: &Cx<'_>) -> bool {
    raised::enclosing_function(n)
        .and_then(|f| f.child_by_field_name("name"))
        .is_some_and(|name| {
            let name = cx.text(name).to_ascii_lowercase();
            name.contains("message") || name.contains("msg")
        })
}

/// What a Python function prints or raises: a name one of these names is
/// a message.
const OUTPUTS: flow::Outputs = flow::Outputs {
    starts: &["raise "],
    calls: &[
        "print",
        "echo",
        "secho",
        "write",
        "error",
        "exception",
        "critical",
        "fatal",
        "warning",
        "warn",
        "info",
        "debug",
        "log",
        "_log",
        "fail",
        "abort",
        "exit",
    ],
    unless: &[],
};

/// What an exception's `__str__` hands back is what it prints.
const RETURNS: flow::Outputs = flow::Outputs {
    starts: &["return "],
    calls: &[],
    unless: &[],
};

/// `hint = _("Try '{command}' for help.").format(…)` then `echo(…{hint}…)`,
/// `messages.append(f" * Running on {url}")` then `_log("info",
/// "\n".join(messages))`: text kept under a local name that the function
/// later prints, logs or raises.
fn flowing_message(n: Node<'_>, target: &str, value: Option<Node<'_>>, cx: &mut Cx<'_>) {
    let Some(value) = value.filter(|v| is_text(*v, cx)) else {
        return;
    };
    if target.is_empty() || !target.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return;
    }
    let Some(after) = cx.function_text_after(n) else {
        return;
    };
    // An exception's `__str__` prints what it returns.
    let returns_print = enclosing_exception_class(n, &["__str__", "__init__", "message"], cx)
        .is_some()
        && flow::reaches_output(after, target, &RETURNS);
    let output = flow::output_of(after, target, &OUTPUTS);
    if !returns_print && output.is_none() {
        return;
    }
    // Logged below warning (a start-up banner's `_log("info", …)`): no
    // error, and a message only for an atlas of every level.
    let level = output.filter(|_| !returns_print).and_then(log_level);
    if level.is_some_and(|l| l > Severity::Warning) && !cx.opts.all_levels {
        return;
    }
    let (message, holes) = M.message_of(value, cx);
    // Words a local name brings count (`usage = f"{prefix}{prog} "` after
    // `prefix = "Usage: "`): the messages with its texts are kept, not
    // the glue.
    let before = cx.facts.sites.len();
    if flow::words(&message) >= 2 {
        match level {
            Some(level) => cx.push_kept_message_at(n, "=", message, holes, ErrorType::Log, level),
            None => cx.push_kept_message(n, "=", message, holes),
        }
    } else {
        cx.push_kept_variants(n, "=", message, holes);
    }
    raised::attach_raised_tuple(n, target, before, cx);
}

/// The level an output statement logs at: `logger.info(…)`,
/// `log.warning(…)`, `_log("info", …)`, `logging.log(logging.DEBUG, …)`;
/// `None` for a raise, a print or a call whose level is not written.
fn log_level(statement: &str) -> Option<Severity> {
    let by_name = |name: &str| match name.to_ascii_lowercase().as_str() {
        "debug" => Some(Severity::Debug),
        "info" => Some(Severity::Info),
        "warning" | "warn" => Some(Severity::Warning),
        "error" | "exception" => Some(Severity::Error),
        "critical" | "fatal" => Some(Severity::Critical),
        _ => None,
    };
    let (callee, args) = statement.split_once('(')?;
    let callee = callee.trim();
    let method = callee.rsplit('.').next().unwrap_or(callee);
    let receiver = callee
        .rsplit_once('.')
        .map_or("", |(r, _)| r)
        .to_ascii_lowercase();
    if receiver.contains("log") {
        if let Some(level) = by_name(method) {
            return Some(level);
        }
    }
    if matches!(method, "log" | "_log") {
        let first = args.split(',').next()?.trim();
        let first = first.trim_matches(['"', '\'']);
        return by_name(first.rsplit('.').next().unwrap_or(first));
    }
    None
}

/// `def fail(msg, *args)`, or `def fail(self, message, param=None)` whose
/// body raises with `message` (click's `self.fail(…)`): a message function
/// whose calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_params(n) else {
        return;
    };
    let names: Vec<&str> = params
        .iter()
        .map(|p| cx.text(*p).split([':', '=']).next().unwrap_or("").trim())
        .collect();
    let is_message = |p: &str| {
        matches!(
            p,
            "msg" | "fmt" | "format" | "message" | "template" | "text"
        )
    };
    // `*args` or, annotated, `*args: t.Any` (a typed parameter).
    let splat = params.iter().position(|p| {
        let t = cx.text(*p);
        p.kind() == "list_splat_pattern" || t.starts_with('*') && !t.starts_with("**")
    });
    if splat.is_none() && !names.iter().any(|p| is_message(p)) {
        return;
    }
    let body = n
        .child_by_field_name("body")
        .map(|b| cx.text(b))
        .unwrap_or("");
    let index = match splat {
        Some(i) if i > 0 && is_message(names[i - 1]) => i - 1,
        _ => {
            // No varargs: the message parameter must reach a `raise`.
            let Some(i) = names.iter().position(|p| is_message(p)) else {
                return;
            };
            let raises_it = body.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("raise ") && l.contains(&format!("({}", names[i]))
            });
            if !raises_it {
                return;
            }
            i
        }
    };
    // Methods count `self` among their parameters but not in their calls.
    let offset = usize::from(matches!(names.first(), Some(&"self") | Some(&"cls")));
    if index < offset {
        return;
    }
    let name = cx.text(name).to_string();
    let raises = body.contains("raise ");
    cx.wrapper_def(&name, index - offset, raises);
}

#[cfg(test)]
mod tests;
