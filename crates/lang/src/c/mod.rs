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
        "string_literal" => protocol_error_reply(n, cx),
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
    if !n
        .child_by_field_name("value")
        .is_some_and(|v| cx.text(v).contains("__VA_ARGS__"))
    {
        return;
    }
    let mut cur = params.walk();
    let Some(index) = params
        .children(&mut cur)
        .filter(|c| c.kind() == "identifier" || c.kind() == "...")
        .position(|c| c.kind() == "...")
    else {
        return;
    };
    let name = cx.text(name).to_string();
    if !formats_into_buffer(&name) {
        cx.wrapper_def(&name, index, false);
    }
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

/// `sdsnew("-WRONGTYPE Operation against a key holding the wrong kind of
/// value\r\n")`: an error reply of a line protocol (Redis's RESP), an
/// error code in capitals after a `-`, ended by CRLF, handed to whatever
/// builds the reply. A client prints it without its framing
/// (`WRONGTYPE Operation against …`), so that is the message.
fn protocol_error_reply(n: Node<'_>, cx: &mut Cx<'_>) {
    if n.parent().is_none_or(|p| p.kind() != "argument_list") {
        return;
    }
    let Some(text) = adjacent_literals(cx.text(n)) else {
        return;
    };
    let Some(reply) = text.strip_prefix('-').and_then(|t| t.strip_suffix("\r\n")) else {
        return;
    };
    let code = reply.split(' ').next().unwrap_or_default();
    let is_code = code.len() >= 2 && code.bytes().all(|c| c.is_ascii_uppercase() || c == b'_');
    if !is_code || reply.len() == code.len() || reply.contains('%') {
        return;
    }
    cx.push_kept_message(n, "reply", vec![text_part(reply.to_string())], Vec::new());
}

/// `u->err = "invalid port";`, `*err = "BIO_new_file() failed";`: a
/// message kept in a variable that a caller prints. Also a copy of a
/// literal (`*error_msg = sdsnew("Memory overcommit must be enabled! …")`,
/// `strdup`), whose pieces may stand in `#if` branches: all are taken.
fn message_assignment(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(left), Some(right)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    if !crate::is_message_name(cx.text(left)) {
        return;
    }
    if right.kind() == "call_expression" {
        if let Some(text) = copied_literal(right, cx) {
            let mut m = vec![text_part(text)];
            trim_newline(&mut m);
            cx.push_kept_message(n, "=", m, Vec::new());
        }
        return;
    }
    if !matches!(right.kind(), "string_literal" | "concatenated_string") {
        return;
    }
    let (mut m, h) = plain_message(right, cx);
    trim_newline(&mut m);
    cx.push_kept_message(n, "=", m, h);
}

/// The text of `strdup("…")`, `sdsnew("…")` and the like: a copy of the
/// literals given, preprocessor lines between them left out.
fn copied_literal(call: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    let name = cx.text(call.child_by_field_name("function")?);
    if !matches!(
        name,
        "strdup" | "xstrdup" | "estrdup" | "g_strdup" | "sdsnew" | "pstrdup"
    ) {
        return None;
    }
    let args = cx.text(call.child_by_field_name("arguments")?);
    let inner = args.strip_prefix('(')?.strip_suffix(')')?;
    let code: Vec<&str> = inner
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    adjacent_literals(&code.join("\n")).filter(|t| !t.is_empty())
}

/// `case CURLE_COULDNT_CONNECT: return "Couldn't connect to server";` in
/// a function returning text: a message table (a `strerror`). Or, outside
/// a `case`, in a function that returns text only when something is wrong
/// (another of its returns is `NULL` or an `…_OK` constant: nginx's
/// directive handlers `return "invalid value";` or `NGX_CONF_OK`).
fn table_return(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(value) = n.named_child(0) else {
        return;
    };
    if !matches!(value.kind(), "string_literal" | "concatenated_string") {
        return;
    }
    let mut in_case = false;
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            "case_statement" => in_case = true,
            "function_definition" => break,
            _ => {}
        }
        cur = p.parent();
    }
    let Some(func) = cur else {
        return;
    };
    let body = func.child_by_field_name("body");
    let head = body.map_or("", |b| &cx.text(func)[..b.start_byte() - func.start_byte()]);
    if !head.contains("char") || !head.contains('*') {
        return;
    }
    if !in_case && !body.is_some_and(|b| returns_nothing_wrong(cx.text(b))) {
        return;
    }
    let (mut m, h) = plain_message(value, cx);
    trim_newline(&mut m);
    cx.push_kept_message(n, "return", m, h);
}

/// Whether a function body also returns `NULL` or an `…_OK` constant (its
/// text results are then errors).
fn returns_nothing_wrong(body: &str) -> bool {
    body.match_indices("return").any(|(i, _)| {
        let value = body[i + 6..].trim_start();
        let value = value.split(';').next().unwrap_or_default().trim();
        value == "NULL" || value.ends_with("_OK")
    })
}

/// `fputs("curl: ", errors);` then `vfprintf(errors, fmt, ap);`: when the
/// statement after a write of text writes a value to the same stream
/// (`vfprintf(s, v, …)`, `fputs(v, s)` of no literal, `fprintf(s, fmt,
/// …)` of a format with holes), directly or first thing in the branch of
/// an `if` (redis-cli's `Could not connect to Redis at ` and then the
/// host or the socket), the two make one line, and the value's text is
/// given as its hole.
fn value_written_next(n: Node<'_>, stream: &str, cx: &Cx<'_>) -> Option<String> {
    let statement = n.parent().filter(|p| p.kind() == "expression_statement")?;
    let mut next = tree::next_statement(statement)?;
    if next.kind() == "if_statement" {
        let branch = next.child_by_field_name("consequence")?;
        next = match branch.kind() {
            "compound_statement" => tree::first_statement(branch)?,
            _ => branch,
        };
    }
    let call = next
        .named_child(0)
        .filter(|c| next.kind() == "expression_statement" && c.kind() == "call_expression")?;
    let name = cx.text(call.child_by_field_name("function")?);
    let args = arguments(call.child_by_field_name("arguments"));
    let (to, value) = match name {
        "vfprintf" => (args.first()?, cx.text(*args.get(1)?).to_string()),
        "fputs" | "fputs_unlocked" => {
            let value = args.first().filter(|v| !is_text(**v, cx))?;
            (args.get(1)?, cx.text(*value).to_string())
        }
        "fprintf" if args.len() > 2 => {
            let values: Vec<&str> = args[2..].iter().map(|a| cx.text(*a)).collect();
            (args.first()?, values.join(", "))
        }
        _ => return None,
    };
    (cx.text(*to) == stream).then_some(value)
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

/// `snprintf(msg, sizeof(msg), "Internal error in RDB reading offset
/// %llu, …", …)`, `msnprintf(error_buffer, …, "SSL certificate problem:
/// %s", …)`: a message formatted into a buffer named for one, which the
/// function then logs or hands on. The format is the first literal after
/// the buffer (and its size).
fn message_buffer(n: Node<'_>, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(buffer) = args.first() else {
        return;
    };
    if !is_message_buffer(cx.text(*buffer)) {
        return;
    }
    let Some(i) = (1..args.len().min(3)).find(|&i| is_text(args[i], cx)) else {
        return;
    };
    let (mut m, mut h) = format_message(args[i], &args[i + 1..], cx, Verbs::Libc);
    if let Some((next, holes)) = buffer_written_next(n, cx.text(*buffer), cx) {
        m.extend(next);
        h.extend(holes);
    }
    trim_newline(&mut m);
    cx.push_kept_message(n, last_name(cx.text(*buffer)), m, h);
}

/// `len = snprintf(msg, …, "Internal error … -> ", …);` then (after a
/// `va_start`) `vsnprintf(msg+len, …, reason, ap);`: a format written
/// on at the end of the same buffer by the next statement continues the
/// message. Gives what it adds: its format's text, or a hole for a
/// format handed in.
fn buffer_written_next(n: Node<'_>, buffer: &str, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    let statement = std::iter::successors(n.parent(), |p| p.parent())
        .take_while(|p| p.kind() != "compound_statement")
        .find(|p| matches!(p.kind(), "expression_statement" | "declaration"))?;
    let mut next = tree::next_statement(statement)?;
    while cx.text(next).starts_with("va_start") {
        next = tree::next_statement(next)?;
    }
    let mut call = None;
    tree::preorder(next, |c| {
        if call.is_none() && c.kind() == "call_expression" {
            call = Some(c);
        }
    });
    let call = call.filter(|_| next.kind() == "expression_statement")?;
    let name = cx.text(call.child_by_field_name("function")?);
    let args = arguments(call.child_by_field_name("arguments"));
    let target = args.first().map(|a| cx.text(*a))?;
    let on_end = target
        .strip_prefix(buffer)
        .is_some_and(|rest| rest.trim_start().starts_with('+'));
    if !formats_into_buffer(name) || !on_end {
        return None;
    }
    let at = if name.ends_with("nprintf") { 2 } else { 1 };
    let fmt = *args.get(at)?;
    if is_text(fmt, cx) {
        let values = args.get(at + 1..).unwrap_or_default();
        return Some(format_message(fmt, values, cx, Verbs::Libc));
    }
    Some((vec![MsgPart::Hole], vec![cx.text(fmt).to_string()]))
}

/// A buffer named for a message: `msg`, `errbuf`, `error_buffer`,
/// `errmsg`, `msgbuf` (after any `&`, `->` or `.`).
fn is_message_buffer(target: &str) -> bool {
    let name = target
        .trim_start_matches('&')
        .rsplit(['.', '>'])
        .next()
        .unwrap_or(target)
        .to_ascii_lowercase();
    crate::is_message_name(&name)
        || name
            .split('_')
            .any(|w| matches!(w, "err" | "error" | "errbuf" | "msg" | "msgbuf" | "errmsg"))
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

/// BSD `err(code, fmt, …)`, `errx`, `errc(code, error, fmt, …)` exit;
/// `warn(fmt, …)`, `warnx`, `warnc(error, fmt, …)` log. The variants
/// without `x` append ": " and the error text.
fn bsd_err(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let exits = name.starts_with("err");
    let fmt_at = usize::from(exits) + usize::from(name.ends_with('c'));
    let Some(fmt) = args.get(fmt_at) else {
        return;
    };
    // `err(1, NULL)` prints the error text alone.
    let (mut m, mut h) = if cx.text(*fmt) == "NULL" {
        (Vec::new(), Vec::new())
    } else {
        format_message(*fmt, &args[fmt_at + 1..], cx, Verbs::Libc)
    };
    if !name.ends_with('x') {
        let error = if name.ends_with('c') {
            format!("strerror({})", cx.text(args[fmt_at - 1]))
        } else {
            "strerror(errno)".to_string()
        };
        if m.is_empty() {
            m.push(MsgPart::Hole);
            h.push(error);
        } else if m.iter().all(|p| matches!(p, MsgPart::Hole)) {
            // A format only known at run time: nothing literal to add.
        } else {
            with_errno(&mut m, &mut h, &error);
        }
    }
    let (ty, sev) = if exits {
        (ErrorType::Exit, Severity::Critical)
    } else {
        (ErrorType::Log, Severity::Warning)
    };
    let site = cx.site(
        n,
        cx.text(n.child_by_field_name("function").unwrap_or(n)),
        ty,
        sev,
    );
    push(cx, site, m, h, n);
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

/// nginx: `ngx_log_error(level, log, err, fmt, …)` and its kin. A
/// nonzero `err` appends " (errno: strerror)"; `ngx_conf_log_error`
/// appends where in the configuration file.
fn nginx(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(fmt) = args.get(3) else {
        return;
    };
    let sev = if name.starts_with("ngx_log_debug") {
        Severity::Debug
    } else {
        level_of_arg(args[0], cx).unwrap_or(Severity::Error)
    };
    if !wanted(sev, cx) {
        return;
    }
    let (mut m, mut h) = format_message(*fmt, &args[4..], cx, Verbs::Nginx);
    if !m.iter().all(|p| matches!(p, MsgPart::Hole)) {
        ngx_errno(&mut m, &mut h, cx.text(args[2]));
        if name == "ngx_conf_log_error" {
            m.push(MsgPart::Text {
                text: " in %s:%d".into(),
                format: true,
            });
            h.push("cf->conf_file->file.name.data".into());
            h.push("cf->conf_file->line".into());
        }
    }
    let callee = cx.text(n.child_by_field_name("function").unwrap_or(n));
    let site = cx.site(n, callee, ErrorType::Log, sev);
    push(cx, site, m, h, n);
}

/// nginx's " (%d: %s)" after a message whose `err` is not 0.
fn ngx_errno(m: &mut Message, h: &mut Vec<String>, err: &str) {
    if err == "0" || m.iter().all(|p| matches!(p, MsgPart::Hole)) {
        return;
    }
    trim_newline(m);
    m.push(text_part(" ("));
    m.push(MsgPart::Text {
        text: "%d".into(),
        format: true,
    });
    m.push(text_part(": "));
    m.push(MsgPart::Hole);
    m.push(text_part(")"));
    h.push(err.to_string());
    h.push(format!("strerror({err})"));
}

/// Postgres's message parts, inside an `ereport`.
fn is_ereport_part(name: &str) -> bool {
    name.starts_with("errmsg")
        || name.starts_with("errdetail")
        || name.starts_with("errhint")
        || name.starts_with("errcontext")
        || matches!(
            name,
            "errcode" | "errcode_for_file_access" | "errcode_for_socket_access"
        )
}

/// Postgres: `ereport(ERROR, (errcode(ERRCODE_X), errmsg("…", …)))`,
/// the inner parentheses optional. The code is the site's code.
fn ereport(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let level_at = usize::from(name == "ereport_domain");
    let Some(level) = args.get(level_at) else {
        return;
    };
    let sev = level_of(cx.text(*level)).unwrap_or(Severity::Error);
    if !wanted(sev, cx) {
        return;
    }
    let mut msg: Option<Node<'_>> = None;
    let mut code: Option<String> = None;
    let mut stack: Vec<Node<'_>> = args[level_at + 1..].to_vec();
    while let Some(a) = stack.pop() {
        if a.kind() == "call_expression" {
            let f = a.child_by_field_name("function").map(|f| cx.text(f));
            match f {
                Some(m) if m.starts_with("errmsg") => msg = Some(a),
                Some("errcode") => {
                    code = arguments(a.child_by_field_name("arguments"))
                        .first()
                        .map(|c| cx.text(*c).to_string());
                }
                _ => {}
            }
            continue;
        }
        let mut cur = a.walk();
        stack.extend(a.named_children(&mut cur));
    }
    let Some(msg) = msg else {
        return;
    };
    let margs = arguments(msg.child_by_field_name("arguments"));
    // `errmsg_plural(singular, plural, n, …)`: the singular form.
    let rest = if cx.text(msg).starts_with("errmsg_plural") {
        margs.get(3..).unwrap_or(&[])
    } else {
        margs.get(1..).unwrap_or(&[])
    };
    let Some(fmt) = margs.first() else {
        return;
    };
    let (m, h) = format_message(*fmt, rest, cx, Verbs::Libc);
    let callee = cx.text(n.child_by_field_name("function").unwrap_or(n));
    let mut site = cx.site(n, callee, ErrorType::Log, sev);
    site.error_code = code;
    push(cx, site, m, h, n);
}

/// A call of a name that implies a level, with a literal argument: a
/// site if the project defines a message function of that name whose
/// format sits there. OpenSSH's `_f` variants print the function's name
/// first, and its `_r`/`_fr` ones append ": " and `ssh_err(r)`.
fn message_function_call(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    // Names in printf's style (`helpf`, `notef`) may print at a level
    // their body tells.
    let printf_named = name.len() > 3 && name.ends_with('f');
    if crate::level_from_name(name).is_none() && !printf_named || formats_into_buffer(name) {
        return;
    }
    let Some(i) = args.iter().position(|a| is_text(*a, cx)) else {
        return;
    };
    let (mut m, mut h) = format_message(args[i], &args[i + 1..], cx, Verbs::Libc);
    let site = cx.site(n, name, ErrorType::Log, Severity::Error);
    if name.ends_with("_f") || name.ends_with("_fr") {
        if let Some(func) = &site.function {
            m.insert(0, text_part(format!("{func}: ")));
        }
    }
    if (name.ends_with("_r") || name.ends_with("_fr")) && i == 1 {
        trim_newline(&mut m);
        let error = format!("ssh_err({})", cx.text(args[0]));
        with_errno(&mut m, &mut h, &error);
    }
    trim_newline(&mut m);
    // `serverLog(LL_WARNING, fmt, …)`: a level argument before the format
    // sets the level, whatever the name implies.
    let level = args[..i].iter().find_map(|a| level_of(cx.text(*a)));
    cx.wrapper_call(name, i, site, m, h, n);
    cx.wrapper_call_level(level);
}

/// OpenSSH's `do_log2(level, fmt, …)` (`do_log2_r(r, level, fmt, …)`):
/// `sshlog` at a level passed in, often a variable
/// (`loglevel = SYSLOG_LEVEL_ERROR`), read as nginx's levels are. The
/// `_f` and `_r` variants decorate as `error_f` and `error_r` do.
fn openssh_do_log2(n: Node<'_>, name: &str, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let with_r = name.ends_with("_r") || name.ends_with("_fr");
    let level_at = usize::from(with_r);
    let (Some(level), Some(fmt)) = (args.get(level_at), args.get(level_at + 1)) else {
        return;
    };
    let sev = level_of_arg(*level, cx).unwrap_or(Severity::Error);
    if !wanted(sev, cx) {
        return;
    }
    let (mut m, mut h) = format_message(*fmt, &args[level_at + 2..], cx, Verbs::Libc);
    let site = cx.site(n, name, ErrorType::Log, sev);
    if name.ends_with("_f") || name.ends_with("_fr") {
        if let Some(func) = &site.function {
            m.insert(0, text_part(format!("{func}: ")));
        }
    }
    if with_r {
        trim_newline(&mut m);
        let error = format!("ssh_err({})", cx.text(args[0]));
        with_errno(&mut m, &mut h, &error);
    }
    push(cx, site, m, h, n);
}

/// Whose verbs a format uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verbs {
    /// printf's.
    Libc,
    /// nginx's `ngx_vslprintf` (`%V`, `%ui`, `%O`…), stored as printf's.
    Nginx,
}

/// One piece of a literal message expression.
enum Piece {
    /// Literal text.
    Text(String),
    /// A macro whose value is unknown here: perhaps a string `#define`d
    /// in another file, resolved with the repository's constants.
    Macro(String),
}

/// Whether an expression is literal text (a string, a concatenation of
/// them, a known `#define`, or a translation of one).
pub(crate) fn is_text(n: Node<'_>, cx: &Cx<'_>) -> bool {
    match n.kind() {
        "string_literal" | "concatenated_string" | "raw_string_literal" => true,
        "identifier" => known_macro(n, cx).is_some(),
        "parenthesized_expression" => n.named_child(0).is_some_and(|i| is_text(i, cx)),
        "call_expression" => translated(n, cx).is_some_and(|i| is_text(i, cx)),
        _ => false,
    }
}

/// The text of a `#define`d string of this file.
fn known_macro(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match cx.facts.constants.get(cx.text(n))?.as_slice() {
        [MsgPart::Text { text, .. }] => Some(text.clone()),
        _ => None,
    }
}

/// The message inside `_("…")`, `gettext("…")`, `dgettext(domain, "…")`.
fn translated<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let f = cx.text(n.child_by_field_name("function")?);
    if !formats::is_translation(f) && !matches!(f, "dcgettext" | "gettext_noop") {
        return None;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    let at = usize::from(matches!(f, "dgettext" | "dcgettext"));
    args.get(at).copied()
}

/// The pieces of a literal message expression, or None when it is not
/// one. `PRIu64` and kin in a concatenation are their conversion letter.
fn pieces(n: Node<'_>, cx: &Cx<'_>, out: &mut Vec<Piece>) -> Option<()> {
    match n.kind() {
        "string_literal" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                match c.kind() {
                    "string_content" => out.push(Piece::Text(cx.text(c).to_string())),
                    "escape_sequence" => out.push(Piece::Text(tree::decode_c_escapes(cx.text(c)))),
                    _ => {}
                }
            }
        }
        "raw_string_literal" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                if c.kind() == "raw_string_content" {
                    out.push(Piece::Text(cx.text(c).to_string()));
                }
            }
        }
        "concatenated_string" => {
            let mut cur = n.walk();
            for c in n.named_children(&mut cur) {
                if c.kind() == "identifier" {
                    let name = cx.text(c);
                    match inttypes_conversion(name)
                        .map(str::to_string)
                        .or_else(|| known_macro(c, cx))
                    {
                        Some(t) => out.push(Piece::Text(t)),
                        // `"%" CURL_FORMAT_CURL_OFF_T`: the macro ends a
                        // conversion, which by the inttypes convention
                        // prints an integer, whatever its definition.
                        None if ends_open_conversion(out) => out.push(Piece::Text("d".into())),
                        None => out.push(Piece::Macro(name.to_string())),
                    }
                } else {
                    pieces(c, cx, out)?;
                }
            }
        }
        "identifier" => match known_macro(n, cx) {
            Some(t) => out.push(Piece::Text(t)),
            // `fprintf(stderr, USAGE)`: a macro, not a variable.
            None if is_macro_name(cx.text(n)) => out.push(Piece::Macro(cx.text(n).to_string())),
            None => return None,
        },
        "parenthesized_expression" => pieces(n.named_child(0)?, cx, out)?,
        "call_expression" => pieces(translated(n, cx)?, cx, out)?,
        _ => return None,
    }
    Some(())
}

/// Whether the pieces so far end inside a conversion: an unpaired `%`,
/// then only flags, width, precision and length letters (`%`, `%-8`,
/// `%5l`).
fn ends_open_conversion(pieces: &[Piece]) -> bool {
    let Some(Piece::Text(t)) = pieces.last() else {
        return false;
    };
    let spec = t.trim_end_matches(|c: char| c.is_ascii_digit() || "-+ #.*lhjztqL".contains(c));
    let percents = spec.len() - spec.trim_end_matches('%').len();
    percents % 2 == 1
}

/// `USAGE`, `SSH_VERSION`: a name in capitals.
fn is_macro_name(name: &str) -> bool {
    name.len() > 1
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// `PRIu64` → `u`, `PRIx32` → `x`, `PRIdMAX` → `d`; glib's
/// `G_GUINT64_FORMAT` → `u`.
fn inttypes_conversion(name: &str) -> Option<&'static str> {
    if let Some(rest) = name.strip_prefix("PRI") {
        return match rest.chars().next()? {
            'd' => Some("d"),
            'i' => Some("i"),
            'o' => Some("o"),
            'u' => Some("u"),
            'x' => Some("x"),
            'X' => Some("X"),
            _ => None,
        };
    }
    let g = name.strip_prefix("G_G")?.strip_suffix("_FORMAT")?;
    Some(if g.starts_with('U') || g == "SIZE" {
        "u"
    } else {
        "d"
    })
}

/// A printf-family call's message: the format, kept as written (nginx's
/// verbs rewritten), and the values after it. A macro from another file
/// inside the format stays a constant to resolve across the repository:
/// text, which takes no value.
pub(crate) fn format_message(
    fmt: Node<'_>,
    rest: &[Node<'_>],
    cx: &Cx<'_>,
    verbs: Verbs,
) -> (Message, Vec<String>) {
    let mut ps = Vec::new();
    if pieces(fmt, cx, &mut ps).is_none() {
        return (vec![MsgPart::Hole], vec![cx.text(fmt).to_string()]);
    }
    let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
    let mut message = Vec::new();
    let mut holes = Vec::new();
    let mut next = 0usize;
    let mut buf = String::new();
    let mut flush =
        |buf: &mut String, message: &mut Message, holes: &mut Vec<String>, all: bool| {
            if !buf.is_empty() {
                let text = match verbs {
                    Verbs::Libc => std::mem::take(buf),
                    Verbs::Nginx => nginx_format(&std::mem::take(buf)),
                };
                let k = if all {
                    values.len().saturating_sub(next)
                } else {
                    values_taken(&text)
                };
                let end = (next + k).min(values.len());
                holes.extend(values[next.min(end)..end].iter().cloned());
                next = end;
                message.push(MsgPart::Text { text, format: true });
            }
        };
    for p in ps {
        match p {
            Piece::Text(t) => buf.push_str(&t),
            Piece::Macro(name) => {
                // Text, once resolved: it takes no value.
                flush(&mut buf, &mut message, &mut holes, false);
                message.push(MsgPart::Const { name, format: true });
            }
        }
    }
    flush(&mut buf, &mut message, &mut holes, true);
    (message, holes)
}

/// How many values a printf format takes (`*` widths count, `%%` and
/// `%m` take none).
fn values_taken(fmt: &str) -> usize {
    let b = fmt.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < b.len() && b"+-# 0'123456789.$*hlLqjzt".contains(&b[i]) {
            n += usize::from(b[i] == b'*');
            i += 1;
        }
        if i < b.len() && b[i] != b'%' && b[i] != b'm' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// nginx's verbs as printf's: `%V`/`%v` (an `ngx_str_t`) → `%s`, the
/// integer types (`%ui`, `%uz`, `%O`, `%T`, `%M`, `%D`, `%L`, `%A`) →
/// `%d`, with `x`/`X` → `%x`/`%X`; `%N` is a newline, `%Z` a NUL (dropped).
fn nginx_format(fmt: &str) -> String {
    let mut out = String::with_capacity(fmt.len());
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        let mut hex = None;
        while let Some(&d) = chars.peek() {
            match d {
                '0'..='9' | '*' | '.' => spec.push(d),
                'x' | 'X' => hex = Some(d),
                'u' | 'm' => {}
                _ => break,
            }
            chars.next();
        }
        let Some(verb) = chars.next() else {
            out.push_str("%%");
            break;
        };
        let int = hex.unwrap_or('d');
        // A precision only means something to `%f`.
        let width = |spec: &str| spec.split('.').next().unwrap_or("").to_string();
        match verb {
            'V' | 'v' | 's' => {
                let v = hex.unwrap_or('s');
                out.push_str(&format!("%{}{v}", width(&spec)));
            }
            'O' | 'P' | 'T' | 'M' | 'z' | 'i' | 'd' | 'l' | 'D' | 'L' | 'A' | 'r' => {
                out.push_str(&format!("%{}{int}", width(&spec)));
            }
            'f' => out.push_str(&format!("%{spec}f")),
            'p' | 'c' => out.push_str(&format!("%{}{verb}", width(&spec))),
            'N' => out.push('\n'),
            'Z' => {}
            '%' => out.push_str("%%"),
            other => {
                // Not a verb nginx knows: printed as is.
                out.push_str("%%");
                out.push_str(&spec);
                out.push(other);
            }
        }
    }
    out
}

/// A message expression that is no format: literals, `"a" + b` (C++
/// strings), `std::string(…)`, `….c_str()`, translations; the rest are
/// run-time values.
pub(crate) fn plain_message(n: Node<'_>, cx: &Cx<'_>) -> (Message, Vec<String>) {
    let hole = || (vec![MsgPart::Hole], vec![cx.text(n).to_string()]);
    match n.kind() {
        "string_literal" | "concatenated_string" | "raw_string_literal" | "identifier" => {
            let mut ps = Vec::new();
            if pieces(n, cx, &mut ps).is_none() {
                return hole();
            }
            let mut m = Vec::new();
            let h = Vec::new();
            for p in ps {
                match p {
                    Piece::Text(t) => match m.last_mut() {
                        Some(MsgPart::Text { text, .. }) => text.push_str(&t),
                        _ => m.push(text_part(t)),
                    },
                    Piece::Macro(name) => m.push(MsgPart::Const {
                        name,
                        format: false,
                    }),
                }
            }
            (m, h)
        }
        "char_literal" => {
            let t = cx.text(n);
            let inner = t.get(t.find('\'').map_or(0, |i| i + 1)..t.len() - 1);
            match inner {
                Some(i) => (vec![text_part(tree::decode_c_escapes(i))], Vec::new()),
                None => hole(),
            }
        }
        "user_defined_literal" => match n.named_child(0) {
            Some(s) if s.kind().ends_with("string_literal") => plain_message(s, cx),
            _ => hole(),
        },
        "parenthesized_expression" => match n.named_child(0) {
            Some(i) => plain_message(i, cx),
            None => hole(),
        },
        "binary_expression"
            if n.child_by_field_name("operator").map(|o| cx.text(o)) == Some("+") =>
        {
            let (Some(l), Some(r)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return hole();
            };
            // `"abc" + 1` in C is pointer arithmetic, not text.
            if r.kind() == "number_literal" {
                return hole();
            }
            let (mut m, mut h) = plain_message(l, cx);
            let (m2, h2) = plain_message(r, cx);
            m.extend(m2);
            h.extend(h2);
            (m, h)
        }
        "call_expression" => call_message(n, cx).unwrap_or_else(hole),
        _ => hole(),
    }
}

/// Calls that build a message: translations, `std::string("…")`,
/// `s.c_str()`, `std::format`/`fmt::format` (braces), `absl::StrFormat`
/// (printf), `absl::StrCat` (concatenation).
fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    if let Some(inner) = translated(n, cx) {
        return Some(plain_message(inner, cx));
    }
    let f = n.child_by_field_name("function")?;
    let args = arguments(n.child_by_field_name("arguments"));
    if f.kind() == "field_expression" {
        let field = f.child_by_field_name("field").map(|x| cx.text(x));
        if matches!(field, Some("c_str" | "data" | "str")) && args.is_empty() {
            return Some(plain_message(f.child_by_field_name("argument")?, cx));
        }
        return None;
    }
    let callee = cx.text(f);
    let callee = callee.split('<').next().unwrap_or(callee);
    match callee {
        "std::string" | "string" | "std::string_view" | "std::wstring" if args.len() == 1 => {
            Some(plain_message(args[0], cx))
        }
        "std::format" | "fmt::format" | "std::vformat" | "fmt::sprintf" => {
            if callee == "fmt::sprintf" {
                return Some(format_message(*args.first()?, &args[1..], cx, Verbs::Libc));
            }
            Some(brace_format(&args, cx))
        }
        "absl::StrFormat" | "base::StringPrintf" | "StringPrintf" | "string_format" => {
            Some(format_message(*args.first()?, &args[1..], cx, Verbs::Libc))
        }
        "absl::StrCat" | "StrCat" => {
            let mut m = Vec::new();
            let mut h = Vec::new();
            for a in &args {
                let (m2, h2) = plain_message(*a, cx);
                m.extend(m2);
                h.extend(h2);
            }
            Some((m, h))
        }
        _ => None,
    }
}

/// `std::format("…{}…", a, b)`: the first argument as a brace format.
pub(crate) fn brace_format(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(fmt) = args.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut ps = Vec::new();
    if pieces(*fmt, cx, &mut ps).is_none() || ps.iter().any(|p| matches!(p, Piece::Macro(_))) {
        return (vec![MsgPart::Hole], vec![cx.text(*fmt).to_string()]);
    }
    let text: String = ps
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t,
            Piece::Macro(_) => String::new(),
        })
        .collect();
    let values: Vec<String> = args[1..].iter().map(|a| cx.text(*a).to_string()).collect();
    formats::brace_message(&text, &values, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{all_level_patterns_of, pattern_column};

    #[test]
    fn a_message_formatted_into_a_buffer_named_for_one_is_a_message() {
        let s = crate::test_support::patterns_of(
            "src/rdb.c",
            r#"
void rdbReportError(int linenum, char *reason, ...) {
    char msg[1024];
    int len = snprintf(msg, sizeof(msg),
        "Internal error in RDB reading offset %llu, function at rdb.c:%d -> ",
        (unsigned long long)loaded, linenum);
    msnprintf(backend->error_buffer, sizeof(backend->error_buffer),
              "SSL certificate problem: %s", X509_verify_cert_error_string(lerr));
    snprintf(path, sizeof(path), "%s/%s.rdb", dir, name);
    snprintf(buf, sizeof(buf), "not a message %d", n);
    serverLog(LL_WARNING, "%s", msg);
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "Internal error in RDB reading offset %llu, function at rdb.c:%d -> ",
                "SSL certificate problem: %s"
            ]
        );
    }

    #[test]
    fn a_format_written_on_at_the_end_of_the_buffer_continues_the_message() {
        let s = crate::test_support::patterns_of(
            "src/report.c",
            r#"
void reportFailure(int line, const char *reason, ...) {
    va_list ap;
    char errmsg[512];
    int len = snprintf(errmsg, sizeof(errmsg), "failure at line %d: ", line);
    va_start(ap, reason);
    vsnprintf(errmsg + len, sizeof(errmsg) - len, reason, ap);
    va_end(ap);
    len = snprintf(msg, sizeof(msg), "cannot load %s", name);
    sprintf(msg + len, " (%d retries)", tries);
    snprintf(msg, sizeof(msg), "stands alone %d", n);
    snprintf(other, sizeof(other), "x");
    serverLog(LL_WARNING, "%s", errmsg);
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "failure at line %d: %v",
                "cannot load %s (%d retries)",
                "stands alone %d"
            ]
        );
    }

    #[test]
    fn a_text_returned_where_success_returns_null_is_a_message() {
        let s = crate::test_support::patterns_of(
            "src/core/nginx.c",
            r#"
static char *
ngx_set_worker_processes(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    if (ccf->worker_processes == NGX_ERROR) {
        return "invalid value";
    }
    return NGX_CONF_OK;
}
static const char *state_name(int s)
{
    if (s) {
        return "running";
    }
    return "stopped";
}
"#,
        );
        assert_eq!(pattern_column(&s), ["invalid value"]);
    }

    #[test]
    fn an_error_reply_of_a_line_protocol_is_a_message_without_its_framing() {
        let s = crate::test_support::patterns_of(
            "src/server.c",
            r#"
void createSharedObjects(void) {
    shared.wrongtypeerr = createObject(OBJ_STRING,sdsnew(
        "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
    shared.err = createObject(OBJ_STRING,sdsnew("-ERR\r\n"));
    shared.crlf = createObject(OBJ_STRING,sdsnew("\r\n"));
    addReplyProto(c, "-ERR bad %s\r\n", 9);
    puts("- not a reply\r\n");
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            ["WRONGTYPE Operation against a key holding the wrong kind of value"]
        );
    }

    #[test]
    fn a_log_format_held_as_data_is_a_template() {
        let s = all_level_patterns_of(
            "src/http/modules/ngx_http_log_module.c",
            r#"
static ngx_str_t  ngx_http_combined_fmt =
    ngx_string("$remote_addr - $remote_user [$time_local] "
               "\"$request\" $status");
static const char *access_format = "${host} %(status)s";
static const char *greeting = "$a and $b";
static const char *one_fmt = "only $one here";
"#,
        );
        assert_eq!(pattern_column(&s), ["%v - %v [%v] \"%v\" %v", "%v %v"]);
        assert_eq!(
            s[0].2,
            [
                "remote_addr",
                "remote_user",
                "time_local",
                "request",
                "status"
            ]
        );
    }

    #[test]
    fn a_level_named_function_of_a_message_parameter_makes_its_calls_sites() {
        let s = all_level_patterns_of(
            "src/networking.c",
            r#"
void addReplyError(client *c, const char *err) {
    addReplyErrorLength(c, err, strlen(err));
}
void addReplyErrorObject(client *c, robj *err) {
    addReply(c, err);
}
void setName(client *c, const char *name) {
    c->name = name;
}
void get(client *c) {
    addReplyError(c, "value is not an integer or out of range");
    setName(c, "error-free name");
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            ["value is not an integer or out of range"]
        );
    }

    #[test]
    fn text_then_a_value_written_to_one_stream_is_one_line() {
        let s = all_level_patterns_of(
            "src/msgs.c",
            r#"
void show(FILE *errors, const char *reason, const char *name)
{
  fprintf(stderr, "Could not connect to tool at ");
  if (name == NULL) {
    fprintf(stderr, "%s:%d: %s\n", host, port, reason);
  } else {
    fprintf(stderr, "%s: %s\n", name, reason);
  }
  fputs("tool: ", errors);
  /* the reason follows */
  fputs(reason, errors);
  fputs("usage: tool FILE", stderr);
  fputs("\n", stderr);
  fputs("warning: ", stderr);
  fputs(name, errors);
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "Could not connect to tool at %v",
                "%s:%d: %s",
                "%s: %s",
                "tool: %v",
                "usage: tool FILE",
                "warning: "
            ]
        );
    }

    #[test]
    fn a_printf_named_function_prints_at_its_streams_level() {
        let s = all_level_patterns_of(
            "src/tool_msgs.c",
            r#"
void helpf(FILE *errors, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("curl: ", errors);
  vfprintf(errors, fmt, ap);
  va_end(ap);
}
void notef(struct cfg *c, const char *fmt, ...)
{
  vsnprintf(c->buf, sizeof(c->buf), fmt, ap);
}
int parse(const char *opt, const char *reason)
{
  helpf(global->errors, "option %s: %s\n", opt, reason);
  notef(global, "noted %s here", opt);
  return 1;
}
"#,
        );
        // The prefix and the format written after it make one line.
        assert_eq!(pattern_column(&s), ["curl: %v", "option %s: %s"]);
        assert_eq!(s[1].0, "helpf");
    }
    use crate::{language_for_path, resolve_package, ExtractOptions};

    fn sites(src: &str) -> Vec<(String, String, String, Vec<String>)> {
        let c = language_for_path("src/app.c").unwrap();
        let mut files = vec![c.extract("src/app.c", src, &ExtractOptions::default())];
        crate::apply_wrappers(&mut files, false);
        let (sites, _) = resolve_package(files);
        sites
            .into_iter()
            .map(|s| {
                (
                    s.callee,
                    s.message_pattern,
                    s.severity.as_str().to_string(),
                    s.args,
                )
            })
            .collect()
    }

    #[test]
    fn aliases_and_adjacent_literals_in_macros() {
        let s = sites(
            r#"
void Curl_failf(struct Curl_easy *, const char *fmt, ...);
#define failf Curl_failf
#define CA_MSG                                  \
  "More details here: https://x/sslcerts\n\n" \
  "curl failed to verify\n"
void connect_it(struct Curl_easy *data, int port) {
    failf(data, "Failed to connect to port %d", port);
    fputs(CA_MSG, stderr);
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec![
                "More details here: https://x/sslcerts\n\ncurl failed to verify",
                "Failed to connect to port %d"
            ]
        );
    }

    #[test]
    fn messages_kept_in_variables_and_tables_are_sites() {
        let s = sites(
            r#"
const char *curl_easy_strerror(CURLcode error) {
    switch(error) {
    case CURLE_OK:
        return "No error";
    case CURLE_COULDNT_CONNECT:
        return "Couldn't connect to server";
    case CURLE_TIMEOUT:
        return "Connection timed out";
    default:
        break;
    }
    return "Unknown error";
}
static char *parse(ngx_url_t *u, char **err, int n) {
    if (n > 65535) {
        u->err = "invalid port";
        return NULL;
    }
    *err = "BIO_new_file() failed";
    path = "/etc/x";
    *error_msg = sdsnew(
        "Overcommit must be enabled! "
#if defined(USE_JEMALLOC)
        "Being disabled, it fails. "
#endif
        "To fix this, set it.");
    name = strdup("not a message");
    return NULL;
}
int count(int x) {
    switch (x) { case 1: return 2; }
    return 0;
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec![
                "No error",
                "Couldn't connect to server",
                "invalid port",
                "BIO_new_file() failed",
                "Overcommit must be enabled! Being disabled, it fails. To fix this, set it."
            ]
        );
    }

    #[test]
    fn a_logger_macro_takes_its_level_from_the_call() {
        let s = sites(
            r#"
void _serverLog(int level, const char *fmt, ...);
#define serverLog(level, ...) do {\
        if (((level)&0xff) < server.verbosity) break;\
        _serverLog(level, __VA_ARGS__);\
    } while(0)
void listen(int port) {
    serverLog(LL_WARNING, "Failed listening on port %u (TCP), aborting.", port);
    serverLog(LL_NOTICE, "Ready to accept connections");
    serverLog(LL_DEBUG, "tick");
}
"#,
        );
        let got: Vec<(&str, &str)> = s.iter().map(|s| (s.1.as_str(), s.2.as_str())).collect();
        assert_eq!(
            got,
            [("Failed listening on port %u (TCP), aborting.", "warning")]
        );
    }

    #[test]
    fn nginx_verbs_become_printf_verbs() {
        assert_eq!(
            nginx_format("%V %ui %uz %O %T %M %xi %08Xd %*s %.3f %p %d%% %N%Z"),
            "%s %d %d %d %d %d %x %08X %*s %.3f %p %d%% \n"
        );
    }

    #[test]
    fn values_taken_counts_stars_not_percent() {
        assert_eq!(values_taken("%d %*s %% %m %.*s %lu"), 6);
    }

    #[test]
    fn levels_take_the_most_severe() {
        assert_eq!(level_of("LOG_ERR|LOG_DAEMON"), Some(Severity::Error));
        assert_eq!(
            level_of("c ? NGX_LOG_INFO : NGX_LOG_CRIT"),
            Some(Severity::Critical)
        );
        assert_eq!(level_of("DEBUG2"), Some(Severity::Debug));
        assert_eq!(level_of("level"), None);
    }

    #[test]
    fn a_level_variable_takes_its_assignments() {
        let s = sites(
            r#"
void f(ngx_err_t err) {
    ngx_uint_t level;
    level = (err == NGX_EINTR) ? NGX_LOG_INFO : NGX_LOG_ALERT;
    ngx_log_error(level, log, err, "select() failed");
}
"#,
        );
        assert_eq!(s[0].1, "select() failed (%d: %v)");
        assert_eq!(s[0].2, "critical");
    }

    #[test]
    fn openssh_do_log2_takes_its_level_argument() {
        let s = sites(
            r#"
static struct addrinfo *resolve_host(const char *name, int logerr) {
    LogLevel loglevel = SYSLOG_LEVEL_DEBUG1;
    if (logerr)
        loglevel = SYSLOG_LEVEL_ERROR;
    do_log2(loglevel, "%s: Could not resolve hostname %.100s: %s",
        __progname, name, ssh_gai_strerror(gaierr));
    do_log2(SYSLOG_LEVEL_INFO, "quiet at error level");
    do_log2_fr(r, SYSLOG_LEVEL_FATAL, "load %s", path);
    return NULL;
}
"#,
        );
        let got: Vec<(&str, &str)> = s.iter().map(|x| (x.1.as_str(), x.2.as_str())).collect();
        assert_eq!(
            got,
            vec![
                ("%s: Could not resolve hostname %.100s: %s", "error"),
                ("resolve_host: load %s: %v", "critical"),
            ]
        );
        assert_eq!(s[1].3, vec!["path", "ssh_err(r)"]);
    }

    #[test]
    fn stderr_perror_err_and_pri_macros() {
        let s = sites(
            r#"
#define PROG "tool"
int f(const char *path, uint64_t n) {
    fprintf(stderr, PROG ": cannot read %s (%" PRIu64 " bytes)\n", path, n);
    perror("open");
    err(1, "open %s", path);
    warnx("odd size %zu", n);
    fprintf(stdout, "not an error\n");
    fprintf(global->errors, "curl: (%d) %s\n", result, msg);
    fputs("try --help\n", cfg->errors);
    abort();
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(
            got,
            vec![
                "tool: cannot read %s (%u bytes)",
                "open: %v",
                "open %s: %v",
                "odd size %zu",
                "curl: (%d) %s",
                "try --help",
            ]
        );
        assert_eq!(s[2].2, "critical");
        assert_eq!(s[2].3, vec!["path", "strerror(errno)"]);
    }

    #[test]
    fn a_macro_that_ends_a_conversion_is_an_integer_hole() {
        let s = sites(
            r#"
int f(long ms, long n) {
    fprintf(stderr, "took %" MY_FORMAT_TIME " ms, %-8" MY_OFF_T " bytes: %s\n", ms, n, why);
    fprintf(stderr, "100%%" MY_SUFFIX "\n");
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(got[0], "took %d ms, %-8d bytes: %s");
        assert_eq!(s[0].3, vec!["ms", "n", "why"]);
        // An escaped percent leaves the macro a constant to resolve.
        assert!(!got[1].contains("%d"), "{:?}", got[1]);
    }

    /// Extracts the C corpora (`ERRDEX_C_SAMPLE=N` prints N sites at
    /// random for reading by hand, `ERRDEX_C_FILE=path` one file's sites,
    /// `ERRDEX_C_ALL=1` every level).
    #[test]
    #[ignore]
    fn corpora() {
        let opts = ExtractOptions {
            all_levels: std::env::var_os("ERRDEX_C_ALL").is_some(),
            whole_file: true,
            ..Default::default()
        };
        for name in ["openssh", "nginx"] {
            let root = format!("/var/tmp/errdex-corpora/debsrc/{name}");
            let files = crate::test_support::files_under(&[&root], &[".c", ".h"]);
            crate::test_support::run(name, &files, &opts, false);
        }
    }
}
