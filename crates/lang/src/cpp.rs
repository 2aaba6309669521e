//! C++: everything C has (see `c.rs`, whose helpers this reuses), and
//! `throw X(…)` (the class is the site's class; `std::system_error`
//! appends the error text), `std::cerr << … << x` and glog's
//! `LOG(ERROR) << …` (operands concatenated), spdlog's `spdlog::error`,
//! and messages built with `std::format`, `std::string(…) + x`,
//! `absl::StrCat`. A printf-style message function that throws makes
//! exception sites.

use crate::c::{self, is_text, plain_message, push};
use crate::conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use crate::formats;
use crate::message::{Message, MsgPart};
use crate::tree::{self, arguments, last_name, text_part, Cx, Names, Syntax, TreeLanguage};
use errdex_model::{ErrorType, Lang, Severity};
use tree_sitter::Node;

/// The C++ language module.
pub static CPP: TreeLanguage = TreeLanguage {
    conventions: &CONVENTIONS,
    syntax: &SYNTAX,
    is_test: c::is_test_path,
    printf: formats::Printf::C,
    extensions: Lang::Cpp.extensions(),
};

/// What the callers scan and the analyser know of C++.
pub(crate) static CONVENTIONS: Conventions = Conventions {
    handling: Handling::ByClass(HandlerCode {
        type_guard: "void handle(const std::exception& e) {\n    if (dynamic_cast<const {class}*>(&e)) {\n        {note}\n    }\n}",
        comment: "// ",
        type_guard_path: None,
        try_catch: "void caller() {\n    try {\n        {function}();\n    } catch (const {class}& e) {\n        {note}\n        throw;\n    }\n}",
        try_catch_transient: None,
    }),
    throw_verb: Some("throws"),
    heads: FunctionHeads::ColumnZero,
};

/// C++'s own forms, then everything C reads.
fn visit(n: Node<'_>, cx: &mut Cx<'_>) {
    match n.kind() {
        "throw_statement" => throw(n, cx),
        "binary_expression" => stream(n, cx),
        "call_expression" if spdlog(n, cx) => {}
        _ => c::visit(n, cx),
    }
}

static SYNTAX: Syntax = Syntax {
    lang: Lang::Cpp,
    prepare: c::preprocessed,
    visit,
    names: Names {
        function: c::function_name,
        ..tree::NAME_FIELDS
    },
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
    functions: &["function_definition", "lambda_expression"],
    classes: &["class_specifier", "struct_specifier"],
    loops: &[
        "for_statement",
        "for_range_loop",
        "while_statement",
        "do_statement",
    ],
    conditionals: &["if_statement", "while_statement"],
    returns: &["return_statement", "throw_statement"],
    catches: &["catch_clause"],
    comments: &["comment"],
    locals: None,
};

/// `throw std::runtime_error("…")`, `throw Error{"…"}`, `throw new E(…)`;
/// `throw;` and `throw e;` hand on an error that exists already.
fn throw(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(e) = n.named_child(0).filter(|e| e.kind() != "comment") else {
        return;
    };
    let (class, args) = match e.kind() {
        "call_expression" => (
            e.child_by_field_name("function"),
            arguments(e.child_by_field_name("arguments")),
        ),
        "compound_literal_expression" => (
            e.child_by_field_name("type"),
            arguments(e.child_by_field_name("value")),
        ),
        "new_expression" => (
            e.child_by_field_name("type"),
            arguments(e.child_by_field_name("arguments")),
        ),
        // `throw "text"` throws the pointer itself.
        _ if is_text(e, cx) => (None, vec![e]),
        _ => return,
    };
    let class = class.map(|c| cx.text(c).split_whitespace().collect::<String>());
    let callee = class.clone().unwrap_or_else(|| "throw".into());
    let mut site = cx.site(n, &callee, ErrorType::Exception, Severity::Error);
    site.error_class = class.clone();
    let short = class
        .as_deref()
        .map(|c| last_name(c.split('<').next().unwrap_or(c)));
    let (message, holes) = if short == Some("system_error") {
        system_error(&args, cx)
    } else {
        // The message is the first argument with text in it (custom
        // errors often take a code first), else the first argument.
        let with_text = args.iter().enumerate().find_map(|(i, a)| {
            if let Some(mh) = c::printf_argument(*a, &args[i + 1..], cx) {
                return Some(mh);
            }
            let (m, h) = plain_message(*a, cx);
            m.iter()
                .any(|p| matches!(p, MsgPart::Text { text, .. } if !text.is_empty()))
                .then_some((m, h))
        });
        match (with_text, args.first()) {
            (Some(mh), _) => mh,
            (None, Some(a)) => plain_message(*a, cx),
            // `throw std::bad_alloc()`: what the class says of itself.
            (None, None) => (vec![text_part(short.unwrap_or("exception"))], Vec::new()),
        }
    };
    push(cx, site, message, holes, n);
}

/// `std::system_error(errno, std::generic_category(), "open")`: its
/// `what()` is "open: " and the error's text.
fn system_error(args: &[Node<'_>], cx: &Cx<'_>) -> (Message, Vec<String>) {
    let code = args.first().map(|a| cx.text(*a)).unwrap_or("errno");
    let error = format!("strerror({code})");
    // `(code, category, what)` or `(error_code, what)`; no `what`, no text.
    match args.last().filter(|_| args.len() >= 2) {
        Some(w) if !cx.text(*w).contains("category") => {
            let (mut m, mut h) = plain_message(*w, cx);
            m.push(text_part(": "));
            m.push(MsgPart::Hole);
            h.push(error);
            (m, h)
        }
        _ => (vec![MsgPart::Hole], vec![error]),
    }
}

/// `std::cerr << "bad " << x << std::endl` and glog's `LOG(ERROR) << …`:
/// one site at the outermost `<<`, its operands concatenated.
fn stream(n: Node<'_>, cx: &mut Cx<'_>) {
    let is_shift = |b: Node<'_>| {
        b.kind() == "binary_expression"
            && b.child_by_field_name("operator").map(|o| cx.text(o)) == Some("<<")
    };
    if !is_shift(n) || n.parent().is_some_and(is_shift) {
        return;
    }
    let mut operands = Vec::new();
    let mut left = n;
    while is_shift(left) {
        if let Some(r) = left.child_by_field_name("right") {
            operands.push(r);
        }
        let Some(l) = left.child_by_field_name("left") else {
            return;
        };
        left = l;
    }
    operands.reverse();
    let sink = cx.text(left);
    let (ty, sev, errno) = match sink {
        "std::cerr" | "cerr" => (ErrorType::Log, Severity::Error, false),
        _ => match glog_level(left, cx) {
            Some(level) => level,
            None => return,
        },
    };
    if !c::wanted(sev, cx) {
        return;
    }
    let mut message = Vec::new();
    let mut holes = Vec::new();
    for o in operands {
        if is_manipulator(o, cx) {
            if matches!(last_name(cx.text(o)), "endl") {
                message.push(text_part("\n"));
            }
            continue;
        }
        let (m, h) = plain_message(o, cx);
        message.extend(m);
        holes.extend(h);
    }
    if errno {
        message.push(text_part(": "));
        message.push(MsgPart::Hole);
        holes.push("strerror(errno)".into());
    }
    let site = cx.site(n, sink, ty, sev);
    push(cx, site, message, holes, n);
}

/// `LOG(ERROR)`, `LOG_IF(WARNING, c)`, `PLOG(FATAL)` (which appends the
/// errno text): the type, severity and whether errno follows.
fn glog_level(n: Node<'_>, cx: &Cx<'_>) -> Option<(ErrorType, Severity, bool)> {
    if n.kind() != "call_expression" {
        return None;
    }
    let f = cx.text(n.child_by_field_name("function")?);
    if !matches!(
        f,
        "LOG" | "PLOG" | "LOG_IF" | "PLOG_IF" | "LOG_EVERY_N" | "LOG_FIRST_N" | "DLOG"
    ) {
        return None;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    let level = cx.text(*args.first()?);
    let (ty, sev) = match level.trim_start_matches("google::GLOG_") {
        "FATAL" => (ErrorType::Log, Severity::Critical),
        "DFATAL" | "ERROR" => (ErrorType::Log, Severity::Error),
        "WARNING" => (ErrorType::Log, Severity::Warning),
        "INFO" => (ErrorType::Log, Severity::Info),
        _ => return None,
    };
    Some((ty, sev, f.starts_with('P')))
}

/// Stream manipulators print no text (`std::endl` a newline).
fn is_manipulator(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let t = match n.kind() {
        "identifier" | "qualified_identifier" => cx.text(n),
        "call_expression" => n
            .child_by_field_name("function")
            .map(|f| cx.text(f))
            .unwrap_or(""),
        _ => return false,
    };
    matches!(
        last_name(t),
        "endl"
            | "flush"
            | "ends"
            | "hex"
            | "dec"
            | "oct"
            | "fixed"
            | "scientific"
            | "boolalpha"
            | "noboolalpha"
            | "setw"
            | "setfill"
            | "setprecision"
            | "left"
            | "right"
            | "showbase"
    )
}

/// `spdlog::error("…{}", x)` and `logger->error(…)` on a spdlog logger:
/// brace formats. Returns whether the call was one.
fn spdlog(n: Node<'_>, cx: &mut Cx<'_>) -> bool {
    let Some(f) = n.child_by_field_name("function") else {
        return false;
    };
    let callee = cx.text(f);
    let Some(level) = callee.strip_prefix("spdlog::") else {
        return false;
    };
    let sev = match level {
        "critical" => Severity::Critical,
        "error" => Severity::Error,
        "warn" => Severity::Warning,
        "info" => Severity::Info,
        "debug" | "trace" => Severity::Debug,
        _ => return false,
    };
    if !c::wanted(sev, cx) {
        return true;
    }
    let args = arguments(n.child_by_field_name("arguments"));
    if args.is_empty() {
        return true;
    }
    let (m, h) = c::brace_format(&args, cx);
    let site = cx.site(n, callee, ErrorType::Log, sev);
    push(cx, site, m, h, n);
    true
}

#[cfg(test)]
mod tests {
    use crate::test_support::pattern_column;
    use crate::{language_for_path, resolve_package, ExtractOptions};

    fn sites(src: &str) -> Vec<(String, String, Option<String>, Vec<String>)> {
        let l = language_for_path("src/app.cpp").unwrap();
        let mut files = vec![l.extract("src/app.cpp", src, &ExtractOptions::default())];
        crate::apply_wrappers(&mut files, false);
        let (sites, _) = resolve_package(files);
        sites
            .into_iter()
            .map(|s| (s.callee, s.message_pattern, s.error_class, s.args))
            .collect()
    }

    #[test]
    fn throws_streams_and_formats() {
        let s = sites(
            r#"
void f(const std::string& path, int n) {
    throw std::runtime_error("cannot open " + path + ": 100%");
    throw std::invalid_argument(std::format("bad count {} of {:x}", n, n));
    throw std::system_error(errno, std::generic_category(), "open");
    std::cerr << "read " << n << " bytes" << std::endl;
    throw;
}
"#,
        );
        let got = pattern_column(&s);
        assert_eq!(
            got,
            vec![
                "cannot open %v: 100%%",
                "bad count %v of %x",
                "open: %v",
                "read %v bytes"
            ]
        );
        assert_eq!(s[0].2.as_deref(), Some("std::runtime_error"));
        assert_eq!(s[2].3, vec!["strerror(errno)"]);
    }

    /// A class that formats its message (mpd's `FormatRuntimeError`,
    /// a project's `FormatError`) takes a printf format and its values:
    /// the literal is a format when the values after it are exactly as
    /// many as it takes; a literal with a `%` and nothing after it is text.
    #[test]
    fn exception_classes_that_format_take_a_printf_format() {
        let s = sites(
            r#"
void f(const char *prefix, const char *path) {
    throw FormatRuntimeError("%s: %s", prefix, GetMessage());
    throw MyError(3, "cannot read %s", path);
    throw std::runtime_error("100% done");
    throw Odd("%s and %s", path);
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec!["%s: %s", "cannot read %s", "100%% done", "%%s and %%s"]
        );
        assert_eq!(s[0].3, vec!["prefix", "GetMessage()"]);
        assert_eq!(s[1].3, vec!["path"]);
    }
}
