//! Ruby: `raise`/`fail` in all their forms (`raise X, "…"`,
//! `raise X.new("…")`, `raise "…"`, bare `raise X`), `#{}` interpolation,
//! `"…%s" % x`, `format`/`sprintf` (kept as printf), `+` concatenation,
//! `Logger` calls (`logger.error`, `@logger.warn`, `Rails.logger.error`,
//! the block form), `warn "…"`, `abort("…")`, `$stderr.puts`, Sinatra's
//! `halt 500, "…"`, translations (`I18n.t`) seen through, and the project's
//! own message functions (`def fail(msg, *args)`).

use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::expr::{self, hole, Messages, Read};
use crate::formats::{self, Piece};
use crate::message::{Message, MsgPart};
use crate::tree::{self, last_name, text_part, Cx, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

mod kept;

/// The Ruby language module.
pub static RUBY: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: tree::common_test_path,
    printf: formats::Printf::C,
    extensions: Lang::Ruby.extensions(),
};

/// What the callers scan and the analyser know of Ruby.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "if e.is_a?({class})\n  {note}\n  raise\nend",
        comment: "# ",
        type_guard_path: None,
        try_catch: "begin\n  {function}\nrescue {class} => e\n  {note}\n  raise\nend",
        try_catch_transient: None,
    }),
    throw_verb: Some("raises"),
    heads: FunctionHeads::Keyword(&["def "]),
};

/// Hands each node that can make a site to its reader.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "program" => kept::literal_methods(n, cx),
        "call" => call(n, cx),
        "method" | "singleton_method" => {
            wrapper_def(n, cx);
            kept::message_method(n, cx);
        }
        "assignment" => kept::kept_message(n, cx),
        "operator_assignment" => {
            kept::appended_piece(n, cx);
        }
        _ => {}
    }
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Ruby,
    prepare: tree::as_written,
    visit,
    names: tree::NAME_FIELDS,
    grammar: || tree_sitter_ruby::LANGUAGE.into(),
    functions: &["method", "singleton_method", "lambda"],
    classes: &["class", "module", "singleton_class"],
    loops: &["while", "until", "for"],
    // `unless` is left out: the shared walk would record its condition
    // with the wrong polarity.
    conditionals: &["if", "elsif", "if_modifier", "while"],
    returns: &["return"],
    catches: &["rescue"],
    comments: &["comment"],
    locals: Some(&LOCALS),
};

/// Every call: `raise`, loggers, Kernel's `warn`/`abort`, stderr,
/// `halt`, and calls of message functions.
fn call(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(m) = n.child_by_field_name("method") else {
        return;
    };
    let method = cx.text(m);
    let receiver = n.child_by_field_name("receiver").map(|r| cx.text(r));
    let args = arguments(n);
    let plain = matches!(receiver, None | Some("Kernel") | Some("self"));
    match method {
        "raise" | "fail" if plain => return raise(n, &args, cx),
        "new" => return built_exception(n, cx),
        "super" if receiver.is_none() => return super_message(n, &args, cx),
        "warn" if plain => {
            if let Some(first) = args.first() {
                let site = cx.site(n, method, ErrorType::Log, Severity::Warning);
                let (message, holes) = M.message_of(*first, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // `abort("msg")` prints msg to stderr and exits 1.
        "abort" | "exit!" if plain => {
            if let Some(first) = args.first() {
                let site = cx.site(n, method, ErrorType::Exit, Severity::Critical);
                let (message, holes) = M.message_of(*first, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // Prints to stdout are the trace-only tier (RubyGems' `say "Gem
        // '#{name}' is not installed"`).
        "say" | "puts" | "print" if plain && cx.opts.all_levels => {
            if let Some(first) = args.first().filter(|a| is_text(**a)) {
                let site = cx.site(n, method, ErrorType::Log, Severity::Info);
                let (message, holes) = M.message_of(*first, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        // Sinatra: `halt 404, "not found"`, `halt 500, body`.
        "halt" if plain => {
            if let (Some(status), Some(body)) = (
                args.first().and_then(|s| cx.text(*s).parse::<u16>().ok()),
                args.get(1).filter(|b| is_text(**b)),
            ) {
                let sev = if status >= 500 {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                let mut site = cx.site(n, method, ErrorType::Http, sev);
                site.http_status = Some(status);
                let (message, holes) = M.message_of(*body, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        _ => {}
    }
    if let Some(r) = receiver {
        let callee = format!("{r}.{method}");
        if crate::is_error_stream(r) && matches!(method, "puts" | "print" | "write" | "printf") {
            if let Some(first) = args.first() {
                let site = cx.site(n, &callee, ErrorType::Log, Severity::Error);
                let (message, holes) = M.message_of(*first, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        if let Some(sev) = logger_level(r, method, cx) {
            // `logger.error("…")`, or the block form `logger.error { "…" }`
            // that builds the message only when the level is on.
            let msg = args.first().copied().or_else(|| block_value(n));
            if let Some(msg) = msg {
                let site = cx.site(n, &callee, ErrorType::Log, sev);
                let (message, holes) = M.message_of(msg, cx);
                cx.push(site, message, holes, n);
            }
            return;
        }
        return;
    }
    // A call of a project message function: `fail_with("bad %s", x)`.
    if crate::level_from_name(method).is_some() {
        let text = |a: &Node<'_>| is_text(*a) || kept::literal_call(*a, cx).is_some();
        if let Some((i, fmt)) = args.iter().enumerate().find(|(_, a)| text(a)) {
            let site = cx.site(n, method, ErrorType::Log, Severity::Error);
            let (message, holes) = printf_message(*fmt, &args[i + 1..], cx);
            cx.wrapper_call(method, i, site, message, holes, n);
        }
    }
}

/// `super("Unknown command #{name}")` in `initialize` of an error class
/// (`class UnknownCommandError < Gem::Exception`): the message every
/// `raise UnknownCommandError.new(name)` carries.
fn super_message(n: Node<'_>, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(first) = args.first().copied().filter(|a| is_text(*a)) else {
        return;
    };
    let mut around = std::iter::successors(n.parent(), |p| p.parent());
    let in_initialize = around
        .find(|p| p.kind() == "method")
        .and_then(|m| m.child_by_field_name("name"))
        .is_some_and(|name| cx.text(name) == "initialize");
    let Some(class) = around.find(|p| p.kind() == "class") else {
        return;
    };
    let named = |field| {
        class
            .child_by_field_name(field)
            .map(|c| cx.text(c).trim_start_matches('<').trim().to_string())
    };
    let (name, parent) = (named("name"), named("superclass"));
    let is_error = [&name, &parent]
        .into_iter()
        .flatten()
        .any(|c| crate::jvm::shared::exception_name(c));
    if !in_initialize || !is_error {
        return;
    }
    let mut site = cx.site(n, "super", ErrorType::Exception, Severity::Error);
    site.error_class = name.map(|c| last_name(&c).to_string());
    let (message, holes) = M.message_of(first, cx);
    cx.push(site, message, holes, n);
}

/// `raise X, "…"`, `raise X.new("…")`, `raise "…"` (a `RuntimeError`),
/// `raise X` (the class name is the message); `raise` alone and
/// `raise e` re-raise.
fn raise(n: Node<'_>, args: &[Node<'_>], cx: &mut Cx<'_>) {
    let Some(first) = args.first().copied() else {
        return;
    };
    // Kernel's raise takes no number: `fail(404, "Not Found")` is a
    // project method answering HTTP (Rack::Files).
    if first.kind() == "integer" {
        let status = cx.text(first).parse::<u16>().ok();
        if let (Some(status @ 400..=599), Some(body)) = (status, args.get(1)) {
            let sev = if status >= 500 {
                Severity::Error
            } else {
                Severity::Warning
            };
            let callee = n.child_by_field_name("method").map(|m| cx.text(m));
            let mut site = cx.site(n, callee.unwrap_or("fail"), ErrorType::Http, sev);
            site.http_status = Some(status);
            let (message, holes) = M.message_of(*body, cx);
            cx.push(site, message, holes, n);
        }
        return;
    }
    let (class, msg) = if is_class(first) {
        (Some(cx.text(first).to_string()), args.get(1).copied())
    } else if let Some((class, new_args)) = new_call(first, cx) {
        (Some(class), new_args.first().copied())
    } else if is_text(first) {
        (None, Some(first))
    } else if let Some(m) = args.get(1) {
        // `raise error_class, "…"`
        (None, Some(*m))
    } else {
        return;
    };
    let verb = n
        .child_by_field_name("method")
        .map(|m| cx.text(m))
        .unwrap_or("raise");
    let callee = class.clone().unwrap_or_else(|| verb.to_string());
    let mut site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
    // A raise hands the error to the caller, like a `return`.
    site.facts.returned = true;
    let name = class
        .as_deref()
        .map(|c| last_name(c).to_string())
        .or_else(|| is_text(first).then(|| "RuntimeError".to_string()));
    site.error_class = name.clone();
    let (message, holes) = match msg {
        Some(m) => M.message_of(m, cx),
        None => match name {
            Some(name) => (vec![text_part(name)], Vec::new()),
            None => return,
        },
    };
    cx.push(site, message, holes, n);
}

/// `err = ArgumentError.new("…")` then `yield err`, `return
/// Error.new(…)`: an exception built outside a `raise` is raised or
/// reported elsewhere, with the text it was built with.
fn built_exception(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((class, args)) = new_call(n, cx) else {
        return;
    };
    let name = last_name(&class.replace("::", ".")).to_string();
    if !(name.ends_with("Error") || name.ends_with("Exception")) || raised(n, cx) {
        return;
    }
    let mut site = cx.site(n, &class, ErrorType::Exception, Severity::Error);
    site.error_class = Some(name.clone());
    let (message, holes) = match args.first() {
        Some(m) => M.message_of(*m, cx),
        None => (vec![text_part(name)], Vec::new()),
    };
    cx.push(site, message, holes, n);
}

/// Whether a call is what a `raise` or `fail` raises (`raise X.new(…)`).
fn raised(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(call) = n
        .parent()
        .filter(|l| l.kind() == "argument_list")
        .and_then(|l| l.parent())
    else {
        return false;
    };
    call.kind() == "call"
        && call.child_by_field_name("receiver").is_none()
        && call
            .child_by_field_name("method")
            .is_some_and(|m| matches!(cx.text(m), "raise" | "fail"))
}

/// `Foo` or `Foo::Bar`.
fn is_class(n: Node<'_>) -> bool {
    matches!(n.kind(), "constant" | "scope_resolution")
}

/// `X.new(args)`: the class and the arguments.
fn new_call<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<(String, Vec<Node<'t>>)> {
    if n.kind() != "call" {
        return None;
    }
    let m = n.child_by_field_name("method")?;
    let r = n.child_by_field_name("receiver")?;
    if cx.text(m) != "new" || !is_class(r) {
        return None;
    }
    Some((cx.text(r).to_string(), arguments(n)))
}

/// The level of a `Logger` call on a receiver that looks like a logger.
fn logger_level(receiver: &str, method: &str, cx: &Cx<'_>) -> Option<Severity> {
    if !receiver.to_ascii_lowercase().contains("log") {
        return None;
    }
    Some(match method {
        "error" => Severity::Error,
        "fatal" | "unknown" => Severity::Critical,
        "warn" => Severity::Warning,
        "info" if cx.opts.all_levels => Severity::Info,
        "debug" if cx.opts.all_levels => Severity::Debug,
        _ => return None,
    })
}

/// The last expression of a `{ … }` or `do … end` block.
fn block_value(n: Node<'_>) -> Option<Node<'_>> {
    let block = n.child_by_field_name("block")?;
    let body = block.child_by_field_name("body")?;
    body.named_child(body.named_child_count().checked_sub(1)? as u32)
}

/// `def fail(msg, *args)`: a message function whose calls are sites.
fn wrapper_def(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some((name, mut params)) = tree::name_and_params(n) else {
        return;
    };
    params.retain(|p| p.kind() != "block_parameter");
    let Some(splat) = params.iter().position(|p| p.kind() == "splat_parameter") else {
        statement_function(n, name, &params, cx);
        return;
    };
    if splat == 0 || params[splat - 1].kind() != "identifier" {
        return;
    }
    if !matches!(
        cx.text(params[splat - 1]),
        "msg" | "fmt" | "format" | "message" | "template" | "text"
    ) {
        return;
    }
    let name = cx.text(name).to_string();
    let body = cx.text(n);
    let raises = body.contains("raise ") || body.contains("raise(");
    cx.wrapper_def(&name, splat - 1, raises);
}

/// `def error(statement) raise X, statement`, `def alert_error(statement,
/// q = nil) @errs.puts "ERROR:  #{statement}"`: a method named for a level
/// that raises or prints its first parameter; its calls with a literal
/// are sites.
fn statement_function(n: Node<'_>, name: Node<'_>, params: &[Node<'_>], cx: &mut Cx<'_>) {
    let name = cx.text(name);
    let Some(first) = params.first().filter(|p| p.kind() == "identifier") else {
        return;
    };
    if crate::level_from_name(name).is_none() {
        return;
    }
    let p = cx.text(*first);
    let body = cx.text(n);
    let raises = body.contains(&format!(", {p}\n")) && body.contains("raise ");
    let prints = body.contains(&format!("#{{{p}}}"));
    if raises || prints {
        let name = name.to_string();
        cx.wrapper_def(&name, 0, raises);
    }
}

/// Positional arguments of a call (comments, `key: value` pairs and
/// `&block` left out).
fn arguments<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    let Some(list) = call.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut cur = list.walk();
    let args: Vec<Node<'t>> = list
        .named_children(&mut cur)
        .filter(|a| {
            !matches!(
                a.kind(),
                "comment" | "pair" | "block_argument" | "hash_splat_argument"
            )
        })
        .collect();
    args
}

/// An expression that evaluates to text with a literal part.
fn is_text(n: Node<'_>) -> bool {
    match n.kind() {
        "string" | "chained_string" => true,
        "binary" | "parenthesized_statements" => n
            .child_by_field_name("left")
            .or_else(|| n.named_child(0))
            .is_some_and(is_text),
        "call" => {
            n.child_by_field_name("receiver").is_none()
                && n.child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .is_some_and(|a| a.kind() == "string")
        }
        _ => false,
    }
}

/// A single-quoted string (`'…'`, `%q(…)`): no interpolation, and only
/// `\\` and `\'` are escapes.
fn single_quoted(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let t = cx.text(n);
    t.starts_with('\'') || t.starts_with("%q")
}

/// A string literal as text and `#{}` holes.
fn string_pieces<'a>(n: Node<'_>, cx: &Cx<'a>) -> Vec<Piece<'a>> {
    let single = single_quoted(n, cx);
    expr::pieces_of(n, |c| {
        let t = cx.text(c);
        Some(Piece::Text(match c.kind() {
            "string_content" if single => t.replace("\\\\", "\\").replace("\\'", "'"),
            "string_content" => t.to_string(),
            "escape_sequence" if single => t.trim_start_matches('\\').to_string(),
            "escape_sequence" => tree::decode_c_escapes(t),
            "interpolation" => {
                let inner = t
                    .strip_prefix("#{")
                    .and_then(|t| t.strip_suffix('}'))
                    .unwrap_or_else(|| t.trim_start_matches('#'));
                return Some(Piece::Expr(inner, ""));
            }
            _ => return None,
        }))
    })
}

/// The text of a string without interpolation.
fn literal(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    match n.kind() {
        "string" => formats::plain_text(string_pieces(n, cx)),
        "chained_string" => expr::chain_text(n, |s| literal(s, cx)),
        _ => None,
    }
}

/// A printf format and its values: `format("…%s", x)`, `"…%s" % [x]`,
/// a message function's arguments. Ruby's named references (`%{name}`,
/// `%<name>d`) take their value from the hash argument.
fn printf_message(fmt: Node<'_>, rest: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let Some(text) = literal(fmt, cx) else {
        if fmt.kind() == "binary" && is_text(fmt) {
            let (parts, inner) = M.message_of(fmt, cx);
            let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
            return formats::printf_of_parts(parts, inner, &values);
        }
        return M.message_of(fmt, cx);
    };
    if rest.is_empty() && !text.contains('%') {
        return (vec![text_part(text)], Vec::new());
    }
    let values: Vec<String> = rest.iter().map(|a| cx.text(*a).to_string()).collect();
    // `format("%{a}", a: x)` passes its pairs beside the format.
    let mut pairs: Vec<Node<'_>> = rest.to_vec();
    if let Some(list) = fmt.parent() {
        pairs.extend(pairs_of(list, cx));
    }
    let (text, named) = named_references(&text, &pairs, cx);
    let text = inspect_verbs(&text);
    let holes = named.unwrap_or(values);
    (vec![MsgPart::Text { text, format: true }], holes)
}

/// `key: value` pairs of an argument list or hash.
fn pairs_of<'t>(n: Node<'t>, _cx: &Cx<'_>) -> Vec<Node<'t>> {
    let mut cur = n.walk();
    let mut out = Vec::new();
    for c in n.named_children(&mut cur) {
        match c.kind() {
            "pair" => out.push(c),
            "hash" => out.extend(pairs_of(c, _cx)),
            _ => {}
        }
    }
    out
}

/// Rewrites `%{name}` to `%s` and `%<name>d` to `%d`, and returns the
/// values of the names (from `name: value` pairs, else the name) when
/// the format has any.
fn named_references(fmt: &str, pairs: &[Node<'_>], cx: &Cx<'_>) -> (String, Option<Vec<String>>) {
    if !fmt.contains("%{") && !fmt.contains("%<") {
        return (fmt.to_string(), None);
    }
    let mut pair_values: Vec<(String, String)> = Vec::new();
    for p in pairs {
        let nodes: Vec<Node<'_>> = if p.kind() == "hash" {
            pairs_of(*p, cx)
        } else {
            vec![*p]
        };
        for q in nodes.into_iter().filter(|q| q.kind() == "pair") {
            if let (Some(k), Some(v)) =
                (q.child_by_field_name("key"), q.child_by_field_name("value"))
            {
                let key = cx.text(k).trim_matches([':', '"', '\'']).to_string();
                pair_values.push((key, cx.text(v).to_string()));
            }
        }
    }
    let value = |name: &str| {
        pair_values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| name.to_string())
    };
    let mut out = String::new();
    let mut holes = Vec::new();
    let mut rest = fmt;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p]);
        let tail = &rest[p..];
        if let Some(close) = tail.starts_with("%{").then(|| tail.find('}')).flatten() {
            out.push_str("%s");
            holes.push(value(&tail[2..close]));
            rest = &tail[close + 1..];
        } else if let Some(close) = tail.starts_with("%<").then(|| tail.find('>')).flatten() {
            out.push('%');
            holes.push(value(&tail[2..close]));
            rest = &tail[close + 1..];
        } else if let Some(after) = tail.strip_prefix("%%") {
            out.push_str("%%");
            rest = after;
        } else {
            out.push('%');
            holes.push(String::new());
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    (out, Some(holes))
}

/// Rewrites Ruby's `%p` (the value's `inspect`: any text, not a C
/// pointer) to `%s`; `%%p` stays text.
fn inspect_verbs(fmt: &str) -> String {
    if !fmt.contains('p') {
        return fmt.to_string();
    }
    let b = fmt.as_bytes();
    let mut out = String::with_capacity(fmt.len());
    let mut run = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        // Flags, width and precision: `%-10p`, `%.3p`.
        let mut j = i + 1;
        while j < b.len() && b"+-# 0123456789.*".contains(&b[j]) {
            j += 1;
        }
        if b.get(j) == Some(&b'p') {
            out.push_str(&fmt[run..j]);
            out.push('s');
            run = j + 1;
        }
        i = j;
    }
    out.push_str(&fmt[run..]);
    out
}

/// How Ruby expressions make messages.
/// `name = <text>` in a function: the text a hole printing `name` holds.
static LOCALS: crate::locals::LocalTexts = crate::locals::LocalTexts {
    assignments: &[("assignment", "left", "right")],
    read: |v, cx| M.has_text(v, cx).then(|| M.message_of(v, cx)),
};

static M: Messages = Messages {
    strings: &["string"],
    read_own,
    parens: &["parenthesized_statements"],
    binaries: &["binary"],
    chains: &["chained_string"],
    ..expr::NOTHING
};

/// Ruby's own message forms.
fn read_own(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    if let Some(text) = kept::literal_call(n, cx) {
        return Some((text.clone(), Vec::new()));
    }
    match n.kind() {
        "string" => Some(formats::interpolated(string_pieces(n, cx))),
        // `(a; b)` is no message.
        "parenthesized_statements" if n.named_child_count() != 1 => Some(hole(n, cx)),
        "binary" => {
            let Some(("%", l, r)) = expr::operands(n, cx) else {
                return None;
            };
            literal(l, cx)?;
            let values: Vec<Node<'_>> = if r.kind() == "array" {
                let mut cur = r.walk();
                r.named_children(&mut cur)
                    .filter(|c| c.kind() != "comment")
                    .collect()
            } else {
                vec![r]
            };
            Some(printf_message(l, &values, cx))
        }
        "call" => Some(call_message(n, cx).unwrap_or_else(|| hole(n, cx))),
        _ => None,
    }
}

/// `format("…%s", x)`, `sprintf`, and translations (`I18n.t("…")`).
fn call_message(n: Node<'_>, cx: &Cx<'_>) -> Option<Read> {
    let method = cx.text(n.child_by_field_name("method")?);
    let receiver = n.child_by_field_name("receiver").map(|r| cx.text(r));
    let args = arguments(n);
    let callee = match receiver {
        Some(r) => format!("{r}.{method}"),
        None => method.to_string(),
    };
    if matches!(receiver, None | Some("Kernel")) && matches!(method, "format" | "sprintf") {
        if let Some(first) = args.first() {
            return Some(printf_message(*first, &args[1..], cx));
        }
    }
    let translated =
        formats::is_translation(&callee) || callee == "I18n.t" || formats::keeps_words(method);
    args.first()
        .filter(|_| translated)
        .map(|first| M.message_of(*first, cx))
}

#[cfg(test)]
mod tests;
