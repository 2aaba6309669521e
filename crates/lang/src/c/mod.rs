//! C: `fprintf(stderr, …)`, `perror`, `err`/`warn` and their `x`
//! variants, `syslog`, nginx's `ngx_log_error` family (its own verbs
//! rewritten to printf's), glib's `g_warning` family, postgres's `elog`
//! and `ereport(…, errmsg(…))`, and the project's own message functions:
//! printf-style functions (`void fatal(const char *fmt, ...)`, in a
//! definition or a header prototype) and variadic macros
//! (`#define error(...) sshlog(…, __VA_ARGS__)`), whose calls become
//! sites at the level their name implies. Adjacent literals, `PRIu64`
//! macros, file-local `#define`d strings and `_("…")` are seen through.
//!
//! C++ reuses all of this (see `cpp.rs`): the helpers it shares are
//! `pub(crate)`.

mod directives;
mod kept;
mod messages;
mod projects;

pub(crate) use messages::*;
use projects::*;

use kept::{
    error_code_written_ahead, message_assignment, message_buffer, protocol_error_reply,
    table_return, value_written_next,
};

use crate::conventions::{Conventions, FunctionHeads, Handling};
use crate::formats;
use crate::message::{trim_newline, Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Names, Syntax, TreeLanguage};
pub(crate) use directives::preprocessed;
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The C language module.
pub static C: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: is_test_path,
    printf: formats::Printf::C,
    extensions: Lang::C.extensions(),
};

/// What the callers scan and the analyser know of C: errors are return
/// codes, so no handler code is written.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::Unwritten,
    throw_verb: None,
    heads: FunctionHeads::ColumnZero,
};

static SYNTAX: Syntax = Syntax {
    lang: Lang::C,
    prepare: preprocessed,
    visit,
    names: Names {
        function: function_name,
        ..tree::NAME_FIELDS
    },
    grammar: || tree_sitter_c::LANGUAGE.into(),
    functions: &["function_definition"],
    classes: &[],
    loops: &["for_statement", "while_statement", "do_statement"],
    conditionals: &["if_statement", "while_statement"],
    returns: &["return_statement"],
    catches: &[],
    comments: &["comment"],
    locals: None,
};

/// The node kinds C and C++ share: calls, message-function definitions
/// and prototypes, variadic macros and string macros.
pub(crate) fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "call_expression" => call(n, cx),
        "function_definition" => function_wrapper(n, cx),
        "declaration" => {
            function_wrapper(n, cx);
            log_format(n, cx);
        }
        "preproc_function_def" => macro_wrapper(n, cx),
        "preproc_def" => string_macro(n, cx),
        "assignment_expression" => message_assignment(n, cx),
        "return_statement" => table_return(n, cx),
        "string_literal" => {
            protocol_error_reply(n, cx);
            error_code_written_ahead(n, cx)
        }
        // Macros come from headers anywhere in the repository: one scope
        // for all C and C++ files lets a format use a macro of another
        // file (`ngx_close_file_n " %s failed"`).
        "translation_unit" => cx.facts.scope = SCOPE.to_string(),
        _ => {}
    }
}

/// The constant scope every C and C++ file shares.
const SCOPE: &str = "c-family";

/// Test code by the common conventions, plus OpenSSH's `regress/`.
pub(crate) fn is_test_path(path: &str) -> bool {
    tree::common_test_path(path) || path.split('/').any(|d| d == "regress" || d == "unittests")
}

/// A function's name from its declarator, which C wraps around it
/// (`char *(*name)(int)`, `static int name(void)`, `Foo::bar()`).
pub(crate) fn function_name(f: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let mut d = f.child_by_field_name("declarator")?;
    loop {
        match d.kind() {
            "identifier"
            | "field_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "template_function" => return Some(cx.text(d).to_string()),
            _ => {
                d = d
                    .child_by_field_name("declarator")
                    .or_else(|| d.named_child(0))?;
            }
        }
    }
}

/// The innermost function declarator of a definition or declaration.
fn function_declarator<'t>(n: Node<'t>) -> Option<Node<'t>> {
    let mut d = n.child_by_field_name("declarator")?;
    for _ in 0..8 {
        if d.kind() == "function_declarator" {
            return Some(d);
        }
        d = d
            .child_by_field_name("declarator")
            .or_else(|| d.named_child(0))?;
    }
    None
}

/// Names of functions that format into a buffer, not a log: a project's
/// own `snprintf` replacement is no message function.
fn formats_into_buffer(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["sprintf", "snprintf", "asprintf", "slprintf", "strprintf"]
        .iter()
        .any(|s| n.ends_with(s))
        || matches!(n.as_str(), "printf" | "fprintf" | "dprintf" | "vprintf")
}

/// `void fatal(const char *fmt, ...)`, defined or declared: a message
/// function whose calls are sites. In C++ one that throws returns an
/// error rather than logging one.
fn function_wrapper(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(d) = function_declarator(n) else {
        return;
    };
    let Some(list) = d.child_by_field_name("parameters") else {
        return;
    };
    // C names the `...` (`variadic_parameter`); C++ leaves it a token.
    let mut cur = list.walk();
    let params: Vec<Node<'_>> = list
        .children(&mut cur)
        .filter(|p| p.is_named() && !p.kind().contains("comment") || p.kind() == "...")
        .collect();
    if !params
        .last()
        .is_some_and(|p| matches!(p.kind(), "variadic_parameter" | "..."))
    {
        message_parameter_function(n, &params, cx);
        return;
    }
    if params.len() < 2 {
        return;
    }
    let fmt = cx.text(params[params.len() - 2]);
    if !fmt.contains("char") || !(fmt.contains('*') || fmt.contains('[')) {
        return;
    }
    let Some(name) = function_name(n, cx) else {
        return;
    };
    let name = last_name(&name).to_string();
    if formats_into_buffer(&name) {
        return;
    }
    let throws = n.kind() == "function_definition" && cx.text(n).contains("throw ");
    cx.wrapper_def(&name, params.len() - 2, throws);
    if crate::level_from_name(&name).is_none() && n.kind() == "function_definition" {
        cx.wrapper_def_level(body_level(cx.text(n)));
    }
}

/// `static ngx_str_t ngx_http_combined_fmt = ngx_string("$remote_addr -
/// …");`: a log format held as data, under a name that says so
/// (`*_fmt`, `*_format`, `log_format`, `template`), its placeholders
/// named variables; the trace-only tier, at the literal's line.
fn log_format(n: Node<'_>, cx: &mut Cx<'_>) {
    if !wanted(Severity::Info, cx) {
        return;
    }
    let mut cur = n.walk();
    let inits: Vec<Node<'_>> = n
        .named_children(&mut cur)
        .filter(|d| d.kind() == "init_declarator")
        .collect();
    for d in inits {
        let (Some(name), Some(mut value)) = (
            d.child_by_field_name("declarator"),
            d.child_by_field_name("value"),
        ) else {
            continue;
        };
        let name = cx.text(name).trim_start_matches('*');
        let name = name.split('[').next().unwrap_or(name).to_ascii_lowercase();
        let named = name.ends_with("_fmt")
            || name.ends_with("_format")
            || name.ends_with("log_format")
            || name.ends_with("template");
        if !named {
            continue;
        }
        // `ngx_string("…")`: the literal inside a macro call.
        if value.kind() == "call_expression" {
            match value
                .child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
            {
                Some(a) => value = a,
                None => continue,
            }
        }
        if !matches!(value.kind(), "string_literal" | "concatenated_string") {
            continue;
        }
        let Some(text) = crate::expr::as_literal(&plain_message(value, cx)) else {
            continue;
        };
        if let Some((m, h)) = formats::named_placeholders(&text) {
            let site = cx.site(value, &name, ErrorType::Log, Severity::Info);
            push(cx, site, m, h, value);
        }
    }
}

/// `void addReplyError(client *c, const char *err)`: a function named
/// for a level that takes its message as a plain string parameter (no
/// format); its calls with a literal there are sites, the literal's text
/// as written.
fn message_parameter_function(n: Node<'_>, params: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(name) = function_name(n, cx) else {
        return;
    };
    let name = last_name(&name).to_string();
    if crate::level_from_name(&name).is_none() || formats_into_buffer(&name) {
        return;
    }
    let message = params.iter().position(|p| {
        let t = cx.text(*p);
        let param = t.rsplit(['*', ' ']).next().unwrap_or("");
        t.contains("char") && t.contains('*') && crate::is_message_name(param)
    });
    if let Some(i) = message {
        cx.wrapper_def(&name, i, false);
    }
}

/// The level of a message function whose name implies none: an error
/// when its body hands the format to `vfprintf` on an error stream
/// (curl's `helpf(errors, fmt, …)`).
fn body_level(body: &str) -> Option<Severity> {
    body.match_indices("vfprintf(")
        .filter_map(|(i, _)| body[i + 9..].split(',').next())
        .any(crate::is_error_stream)
        .then_some(Severity::Error)
}

/// `#define error(...) sshlog(…, __VA_ARGS__)`: a message function whose
/// format is the first variadic argument (`#define error_fr(r, ...)`
/// takes it at 1).
fn macro_wrapper(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, params)) = tree::name_and_param_list(n) else {
        return;
    };
    let value = n.child_by_field_name("value").map_or("", |v| cx.text(v));
    let mut cur = params.walk();
    let params: Vec<&str> = params
        .children(&mut cur)
        .filter(|c| c.kind() == "identifier" || c.kind() == "...")
        .map(|c| cx.text(c))
        .collect();
    let name = cx.text(name).to_string();
    if formats_into_buffer(&name) {
        return;
    }
    if value.contains("__VA_ARGS__") {
        if let Some(index) = params.iter().position(|p| *p == "...") {
            cx.wrapper_def(&name, index, false);
        }
    } else if let Some(index) = kept_parameter(value, &params) {
        cx.wrapper_def(&name, index, true);
    }
}

/// `#define GLOBERROR(string, column, code) glob->error = string, …`: the
/// parameter a macro keeps under a message name (`->error`, `errmsg`),
/// for a caller to print; the macro's calls hand back that message.
fn kept_parameter(value: &str, params: &[&str]) -> Option<usize> {
    value.split([',', ';']).find_map(|part| {
        let (target, assigned) = part.split_once('=')?;
        let assigned = assigned.trim().trim_matches(['(', ')']);
        let target = target.trim();
        let plain = !target.ends_with(['!', '<', '>', '=']) && !assigned.starts_with('=');
        let index = params.iter().position(|p| *p == assigned)?;
        (plain && crate::is_message_name(target)).then_some(index)
    })
}

/// `#define PROGNAME "sshd"`: a string the file's messages may use,
/// kept among the file's constants and substituted where it is used.
fn string_macro(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(name), Some(value)) = (
        n.child_by_field_name("name"),
        n.child_by_field_name("value"),
    ) else {
        return;
    };
    let v = cx.text(value).trim();
    // `"a"`, or literals side by side (`"a\n" \⏎ "b"`); `"a" X` is left
    // alone.
    let Some(text) = adjacent_literals(v) else {
        if let Some(target) = v
            .split_whitespace()
            .next()
            .filter(|t| is_identifier(t) && *t == v)
        {
            // `#define failf Curl_failf`: an alias of a message function.
            cx.facts
                .aliases
                .push((cx.text(name).to_string(), target.to_string()));
        }
        return;
    };
    // Under `#if` a macro may be defined once per platform: the first
    // branch is usually the main one.
    let name = cx.text(name).to_string();
    cx.facts
        .constants
        .entry(name)
        .or_insert_with(|| vec![text_part(text)]);
}

fn is_identifier(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && t.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The text of string literals standing side by side in a macro's value
/// (line continuations between them), decoded; `None` for anything else.
fn adjacent_literals(v: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = v;
    let mut any = false;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\\');
        if rest.is_empty() {
            return any.then_some(out);
        }
        let body = rest.strip_prefix('"')?;
        let b = body.as_bytes();
        let mut i = 0;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        out.push_str(&tree::decode_c_escapes(body.get(..i)?));
        rest = body.get(i + 1..)?;
        any = true;
    }
}

/// Calls whose names say what they print; the rest, if their name
/// implies a level and they take a literal, may call a message function.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((f, callee)) = tree::callee(n, cx, 80) else {
        return;
    };
    // `std::fprintf` and `::perror` in C++ are the C functions.
    let name = match f.kind() {
        "identifier" => callee,
        "qualified_identifier" if callee.starts_with("std::") || callee.starts_with("::") => {
            last_name(callee)
        }
        _ => return,
    };
    let args = arguments(n.child_by_field_name("arguments"));
    let arg_text = |i: usize| args.get(i).map(|a| cx.text(*a)).unwrap_or("");
    match name {
        "fprintf" | "fprintf_unlocked" if crate::is_error_stream(arg_text(0)) => {
            if let Some(fmt) = args.get(1) {
                let (mut m, mut h) = format_message(*fmt, &args[2..], cx, Verbs::Libc);
                let next = value_written_next(n, arg_text(0), cx);
                if let Some(value) = next.filter(|_| h.is_empty() && args.len() == 2) {
                    m.push(MsgPart::Hole);
                    h.push(value);
                }
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                push(cx, site, m, h, n);
            }
        }
        "dprintf" if matches!(arg_text(0), "STDERR_FILENO" | "2") => {
            if let Some(fmt) = args.get(1) {
                let (m, h) = format_message(*fmt, &args[2..], cx, Verbs::Libc);
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                push(cx, site, m, h, n);
            }
        }
        "fputs" | "fputs_unlocked" if crate::is_error_stream(arg_text(1)) => {
            let (mut m, mut h) = plain_message(args[0], cx);
            if let Some(value) = value_written_next(n, arg_text(1), cx).filter(|_| h.is_empty()) {
                m.push(MsgPart::Hole);
                h.push(value);
            }
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            push(cx, site, m, h, n);
        }
        // A password prompt the terminal shows (`getpass("Enter PEM pass
        // phrase:")`): kept at the info level, for tracing a terminal.
        "getpass" | "getpass_r" | "readpassphrase" => {
            if let Some(a) = args.first().filter(|a| is_text(**a, cx)) {
                let (m, h) = plain_message(*a, cx);
                let site = cx.site(n, callee, ErrorType::Log, Severity::Info);
                push(cx, site, m, h, n);
            }
        }
        "perror" => {
            // `perror(s)` prints "s: strerror(errno)"; `perror(NULL)` only
            // the error text.
            let Some(a) = args.first().filter(|a| cx.text(**a) != "NULL") else {
                return;
            };
            if !is_text(*a, cx) {
                // `perror(path)`: nothing literal, a dynamic site.
                let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
                cx.push(site, vec![MsgPart::Hole], vec![cx.text(*a).to_string()], n);
                return;
            }
            let (mut m, mut h) = plain_message(*a, cx);
            with_errno(&mut m, &mut h, "strerror(errno)");
            let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
            push(cx, site, m, h, n);
        }
        "err" | "errx" | "errc" | "warn" | "warnx" | "warnc" => bsd_err(n, name, &args, cx),
        // `syslog(LOG_ERR, fmt, …)`, postgres's `elog(ERROR, fmt, …)`.
        "syslog" | "elog" => {
            let Some(fmt) = args.get(1) else {
                return;
            };
            let sev = level_of(arg_text(0)).unwrap_or(Severity::Error);
            if !wanted(sev, cx) {
                return;
            }
            let (m, h) = format_message(*fmt, &args[2..], cx, Verbs::Libc);
            let site = cx.site(n, callee, ErrorType::Log, sev);
            push(cx, site, m, h, n);
        }
        "ngx_log_error" | "ngx_conf_log_error" | "ngx_ssl_error" | "ngx_log_debug" => {
            nginx(n, name, &args, cx)
        }
        _ if name.starts_with("ngx_log_debug")
            && name["ngx_log_debug".len()..]
                .bytes()
                .all(|b| b.is_ascii_digit()) =>
        {
            nginx(n, name, &args, cx)
        }
        "ngx_log_stderr" | "ngx_log_abort" => {
            // `(err, fmt, ...)`: to stderr, with the errno text appended.
            let Some(fmt) = args.get(1) else {
                return;
            };
            let (mut m, mut h) = format_message(*fmt, &args[2..], cx, Verbs::Nginx);
            ngx_errno(&mut m, &mut h, arg_text(0));
            let (ty, sev) = if name == "ngx_log_abort" {
                (ErrorType::Exit, Severity::Critical)
            } else {
                (ErrorType::Log, Severity::Error)
            };
            let site = cx.site(n, callee, ty, sev);
            push(cx, site, m, h, n);
        }
        "g_error" | "g_critical" | "g_warning" | "g_message" | "g_info" | "g_debug"
        | "g_printerr" => {
            let sev = match name {
                "g_error" => Severity::Critical,
                "g_critical" | "g_printerr" => Severity::Error,
                "g_warning" => Severity::Warning,
                "g_debug" => Severity::Debug,
                _ => Severity::Info,
            };
            let (Some(fmt), true) = (args.first(), wanted(sev, cx)) else {
                return;
            };
            let (m, h) = format_message(*fmt, &args[1..], cx, Verbs::Libc);
            let site = cx.site(n, callee, ErrorType::Log, sev);
            push(cx, site, m, h, n);
        }
        "ereport" | "ereport_domain" => ereport(n, name, &args, cx),
        "do_log2" | "do_log2_f" | "do_log2_r" | "do_log2_fr" => openssh_do_log2(n, name, &args, cx),
        // The parts of an `ereport`, read there; never sites themselves.
        _ if is_ereport_part(name) => {}
        _ if formats_into_buffer(name) => message_buffer(n, &args, cx),
        _ => message_function_call(n, name, &args, cx),
    }
}

/// Whether a level shows at the options' levels.
pub(crate) fn wanted(sev: Severity, cx: &Cx<'_>) -> bool {
    cx.opts.all_levels || !matches!(sev, Severity::Info | Severity::Debug)
}

/// Records a site; a trailing newline (which the log line ends on, not
/// part of the message) is dropped.
pub(crate) fn push(
    cx: &mut Cx<'_>,
    site: errdex_model::RawSite,
    mut message: Message,
    holes: Vec<String>,
    n: Node<'_>,
) {
    trim_newline(&mut message);
    cx.push(site, message, holes, n);
}

/// Appends ": " and the error text (`perror`, `err`, `warn`).
fn with_errno(m: &mut Message, h: &mut Vec<String>, error: &str) {
    m.push(text_part(": "));
    m.push(MsgPart::Hole);
    h.push(error.to_string());
}

/// The severity a level argument names: syslog's `LOG_ERR`, nginx's
/// `NGX_LOG_CRIT`, postgres's `WARNING`, OpenSSH's `SYSLOG_LEVEL_ERROR`.
/// An expression that may take several (`c ? NGX_LOG_INFO : NGX_LOG_ERR`)
/// takes the most severe.
pub(crate) fn level_of(expr: &str) -> Option<Severity> {
    // `NGX_LOG_ERR`, `SYSLOG_LEVEL_ERROR`, `LOG_ERR`, Redis's `LL_WARNING`:
    // the level is the word itself or its last part.
    let level = |w: &str| {
        Some(match w {
            "EMERG" | "ALERT" | "CRIT" | "FATAL" | "PANIC" => Severity::Critical,
            "ERR" | "ERROR" => Severity::Error,
            "WARN" | "WARNING" => Severity::Warning,
            "NOTICE" | "INFO" | "LOG" | "VERBOSE" | "LOG_SERVER_ONLY" => Severity::Info,
            _ if w.starts_with("DEBUG") => Severity::Debug,
            _ => return None,
        })
    };
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter_map(|w| level(w).or_else(|| level(w.rsplit('_').next()?)))
        .min()
}

/// The severity of a level argument; a variable (`level`) by the
/// levels assigned to it in the enclosing function
/// (`level = (err == NGX_EINTR) ? NGX_LOG_INFO : NGX_LOG_ALERT;`).
fn level_of_arg(arg: Node<'_>, cx: &Cx<'_>) -> Option<Severity> {
    let text = cx.text(arg);
    if let Some(sev) = level_of(text) {
        return Some(sev);
    }
    if arg.kind() != "identifier" {
        return None;
    }
    let func = std::iter::successors(arg.parent(), |p| p.parent())
        .find(|p| p.kind() == "function_definition")?;
    let body = cx.text(func);
    let mut found = None;
    for (i, _) in body.match_indices(text) {
        let before = body[..i].chars().next_back();
        let after = body[i + text.len()..].trim_start();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '>' || c == '.') {
            continue;
        }
        if let Some(value) = after.strip_prefix('=').filter(|v| !v.starts_with('=')) {
            let value = value.split(';').next().unwrap_or("");
            found = found.into_iter().chain(level_of(value)).min();
        }
    }
    found
}

/// Whose verbs a format uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verbs {
    /// printf's.
    Libc,
    /// nginx's `ngx_vslprintf` (`%V`, `%ui`, `%O`…), stored as printf's.
    Nginx,
}

#[cfg(test)]
mod tests;
