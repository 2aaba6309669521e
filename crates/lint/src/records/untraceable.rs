//! `untraceable-message`: errors made with too little text of their own.

use super::*;

/// A message with too little text of its own, where an error is made or
/// the program stops (errors, exceptions, panics, exits). Not reported:
/// logs and prints (their "messages" are often field values, progress or
/// listings); a hole that hands on an error (`Error: %v`, `%s: %w`) or
/// text written elsewhere (`%s` of `msg`), since the log line then holds
/// that text; an error type's own `Error()`/`__str__`, which formats
/// fields set where the error is made; sentinels, which are wrapped with
/// context where they are returned; and strings the index only saw
/// assigned (`name := fmt.Sprintf(…)`). Messages built wholly at run time
/// (`errors.New(msg)`) are listed by `errdex list --dynamic`: their text
/// comes from elsewhere, which a linter cannot see.
pub(super) fn untraceable(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    let t = template(r, sites[0]);
    if !too_little_text(&literal(&t)) || hands_on_an_error(&t) {
        return;
    }
    for s in sites.iter().filter(|s| makes_an_error(s)) {
        out.push(finding(
            "untraceable-message",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` has too little text of its own to be found in a log; say what failed (the operation and its object), with the variable parts in holes",
                r.message_pattern
            ),
        ));
    }
}

/// A site that makes an error or stops the program, as a statement of its
/// own: not a log, an assignment, a string a function returns (C's
/// `return "UNKNOWN";` in a formatter), a sentinel, an error type's method
/// that renders it, or an argument check named by its parameter
/// (`Validate.notNull(cls, "cls")`: the stack says where).
fn makes_an_error(s: &Site) -> bool {
    const ARGUMENT_CHECKS: &[&str] = &[
        "notNull",
        "requireNonNull",
        "notEmpty",
        "notBlank",
        "checkNotNull",
        "noNullElements",
        "checkArgument",
        "isTrue",
    ];
    let call = s.callee.rsplit(['.', ':']).next().unwrap_or(&s.callee);
    if s.callee == "return" || ARGUMENT_CHECKS.contains(&call) {
        return false;
    }
    if debug_only(s) || control_flow(s) {
        return false;
    }
    const RENDERERS: &[&str] = &[
        "Error",
        "String",
        "__str__",
        "__repr__",
        "toString",
        "to_string",
        "fmt",
        "what",
        "Message",
        "message",
        "GoString",
    ];
    let method = s
        .function
        .as_deref()
        .map(|f| f.rsplit(['.', ':']).next().unwrap_or(f));
    let log = matches!(s.error_type, ErrorType::Log);
    let assigned = s.callee == "=";
    let sentinel = s.function.is_none() && s.error_class.is_some();
    let renders = method.is_some_and(|m| RENDERERS.contains(&m));
    !(log || assigned || sentinel || renders)
}

/// An assertion under a debug switch (`if debugAsserts { panic(…) }`,
/// `if false {…}`): compiled out, or seen by the code's developers only.
fn debug_only(s: &Site) -> bool {
    s.facts.guards.iter().any(|g| {
        let g = g.trim().trim_start_matches('(').trim_end_matches(')');
        g == "false" || g.starts_with("false &&") || g.to_lowercase().contains("debug")
    })
}

/// An exception class that does not call itself an error
/// (`raise RequestPath(path)`): control flow, caught by the code.
fn control_flow(s: &Site) -> bool {
    const ERROR_NAMES: &[&str] = &[
        "Error",
        "Exception",
        "Err",
        "Failure",
        "Fault",
        "Abort",
        "Exit",
        "Warning",
        "Denied",
        "NotFound",
        "Invalid",
        "Timeout",
        "Panic",
        "Fatal",
    ];
    let Some(class) = s.error_class.as_deref() else {
        return false;
    };
    let name = class.rsplit(['.', ':']).next().unwrap_or(class);
    s.function.is_some()
        && !name.starts_with("Err")
        && !name.starts_with("err")
        && !ERROR_NAMES.iter().any(|e| name.contains(e))
        && !name.starts_with("Http")
}

/// Any hole filled by an error (`%w`, `%v` of `err`, `{e}`) or by text
/// written elsewhere (`%s` of `msg`).
fn hands_on_an_error(t: &Template) -> bool {
    t.segments.iter().any(|seg| match seg {
        Segment::Hole(h) => {
            h.chain
                || h.arg
                    .as_deref()
                    .is_some_and(|a| mentions_an_error(a) || text_from_elsewhere(a))
        }
        Segment::Lit(_) => false,
    })
}

/// Names in an expression (`e.args` → e, args).
fn names(expr: &str) -> impl Iterator<Item = &str> {
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// An expression built from an error or a list of them (`str(e)`,
/// `e.args`, `err.stack`, `strings.Join(errs, "; ")`).
fn mentions_an_error(expr: &str) -> bool {
    names(expr).any(|w| {
        matches!(
            w,
            "e" | "ex" | "exc" | "err" | "errs" | "error" | "errors" | "exception" | "cause"
        ) || is_error_name(w)
            || w.ends_with("Errs")
            || w.ends_with("Errors")
            || sentinel_name(w)
    })
}

/// `ErrNotFound`, `errInvalidKeyName`: a sentinel error's name.
fn sentinel_name(w: &str) -> bool {
    ["Err", "err"].iter().any(|p| {
        w.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase()))
    })
}

/// Names that hold text written elsewhere: a constant (`REASON_BAD_REFERER`),
/// the caller's format and arguments (a logger's own code), a message
/// looked up or returned by a method (`get_violation_error_message()`);
/// and paths (`filepath.Join`), which are no messages.
fn text_from_elsewhere(expr: &str) -> bool {
    const ELSEWHERE: &[&str] = &[
        "message",
        "messages",
        "msg",
        "text",
        "reason",
        "description",
        "detail",
        "details",
        "format",
        "fmt",
        "args",
        "arguments",
        "template",
    ];
    expr.contains("...")
        || [
            "filepath.Join",
            "path.Join",
            "os.path.join",
            "path.join",
            "path.resolve",
        ]
        .iter()
        .any(|p| expr.contains(p))
        || names(expr).any(|w| {
            let constant = w.len() >= 3
                && w.chars()
                    .all(|c| c.is_uppercase() || c == '_' || c.is_ascii_digit());
            constant
                || identifier_words(w)
                    .iter()
                    .any(|p| ELSEWHERE.contains(&p.as_str()))
        })
}
