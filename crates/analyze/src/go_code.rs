//! The code fields, in Go (the only language extracted so far; a language
//! added later brings its own module). Every snippet is a sequence of Go
//! statements or declarations that parses on its own, names only what the
//! facts name (the function, its parameters, the sentinel, the message),
//! and is checked with the tree-sitter grammar in the tests.

use crate::Cx;
use errdex_model::ErrorType;

/// A Go string literal for `s`.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What a signature says about calling the function.
#[derive(Debug, PartialEq)]
pub(crate) struct Call {
    /// `c.run(ctx, name)`.
    pub expr: String,
    /// Values returned.
    pub results: usize,
    /// Whether the last result is an `error`.
    pub returns_error: bool,
}

/// Splits at commas outside brackets.
pub(crate) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    let last = s[from..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// The text inside the bracket group that starts `s` (with `open`), and
/// the rest after it.
pub(crate) fn group(s: &str, open: char, close: char) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if !s.starts_with(open) {
        return None;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some((&s[1..i], &s[i + 1..]));
            }
        }
    }
    None
}

/// Reads `func (c *T) name[T any](a int, b ...string) (int, error)` into a
/// call of the function with its own parameter names. None when the
/// parameters are unnamed (no call can be written without inventing
/// values).
pub(crate) fn call_of(signature: &str) -> Option<Call> {
    let rest = signature.strip_prefix("func")?.trim_start();
    let (receiver, rest) = match group(rest, '(', ')') {
        Some((recv, rest)) => {
            let parts: Vec<&str> = recv.split_whitespace().collect();
            let name = match parts.as_slice() {
                [name, _] => name.to_string(),
                [ty] => {
                    let t = ty.trim_start_matches('*');
                    let t = t.rsplit('.').next().unwrap_or(t);
                    t.chars().next()?.to_lowercase().collect()
                }
                _ => return None,
            };
            (Some(name), rest.trim_start())
        }
        None => (None, rest),
    };
    let name_end = rest.find(['(', '['])?;
    let name = rest[..name_end].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut rest = &rest[name_end..];
    if rest.starts_with('[') {
        rest = group(rest, '[', ']')?.1;
    }
    let (params, results) = group(rest, '(', ')')?;
    let pieces = split_top(params);
    let named = pieces.iter().any(|p| p.split_whitespace().count() >= 2);
    if !pieces.is_empty() && !named {
        return None;
    }
    let mut args = Vec::new();
    for p in &pieces {
        let mut words = p.split_whitespace();
        let arg = words.next()?;
        if arg == "_" {
            return None;
        }
        let variadic = words.next().is_some_and(|t| t.starts_with("..."));
        args.push(if variadic {
            format!("{arg}...")
        } else {
            arg.to_string()
        });
    }
    let results = results.trim();
    let (count, returns_error) = if results.is_empty() {
        (0, false)
    } else if let Some((inner, _)) = group(results, '(', ')') {
        let parts = split_top(inner);
        let last_error = parts
            .last()
            .is_some_and(|l| l.split_whitespace().last() == Some("error"));
        (parts.len(), last_error)
    } else {
        (1, results == "error")
    };
    let callee = match receiver {
        Some(r) => format!("{r}.{name}"),
        None => name.to_string(),
    };
    Some(Call {
        expr: format!("{callee}({})", args.join(", ")),
        results: count,
        returns_error,
    })
}

/// The call of the site's function, when it returns an error.
fn error_call(cx: &Cx<'_>) -> Option<Call> {
    let call = call_of(cx.f.signature.as_deref()?)?;
    call.returns_error.then_some(call)
}

/// `err := f(x)` or `_, err := f(x)`.
fn assign_err(call: &Call) -> String {
    let blanks = "_, ".repeat(call.results.saturating_sub(1));
    format!("{blanks}err := {}", call.expr)
}

/// The message's text for a comment: no newlines, bounded.
fn comment_text(s: &str) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one.len() > 80 {
        let mut cut = 80;
        while !one.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}…", &one[..cut])
    } else {
        one
    }
}

/// The sentinel as a caller names it (`pkg.ErrX`), when the record has one.
fn qualified_sentinel(cx: &Cx<'_>) -> Option<String> {
    let s = cx.sentinel()?;
    if s.contains('.') {
        return Some(s.to_string());
    }
    Some(match &cx.f.package {
        Some(p) if s.starts_with(char::is_uppercase) && p != "main" => format!("{p}.{s}"),
        _ => s.to_string(),
    })
}

/// The sentinel made from this one that the repository's checks test,
/// as `checked_at` names it (`clientv3/retry_interceptor.go:155 ==
/// (ErrAuthOldRevision)`).
fn alias_checked<'a>(cx: &Cx<'a>) -> Option<&'a str> {
    cx.f.checked_at.iter().find_map(|c| {
        let alias = c.strip_suffix(')')?.rsplit_once(" (")?.1;
        alias
            .starts_with(|c: char| c.is_alphabetic())
            .then_some(alias)
    })
}

/// A message with no holes created and returned inside a function: a
/// caller can only recognise it by its text.
pub(crate) fn wants_sentinel(cx: &Cx<'_>) -> bool {
    cx.r.error_class.is_none()
        && cx.returned()
        && cx.r.sites[0].args.is_empty()
        && matches!(cx.r.sites[0].callee.as_str(), "fmt.Errorf" | "errors.New")
}

/// Code that recognises the error in a caller.
pub(crate) fn type_guard(cx: &Cx<'_>) -> Option<String> {
    let what = if cx.is_expected() {
        format!(
            "\t// {}: a clean stop, not a failure.\n\treturn nil",
            comment_text(&cx.r.error_message)
        )
    } else {
        format!(
            "\t// {}\n\treturn err",
            comment_text(&format!("handle: {}", cx.r.error_message))
        )
    };
    // Callers test a sentinel made from this one (`rpctypes.Error(err) ==
    // rpctypes.ErrAuthOldRevision`): that is the value they hold.
    if let Some(alias) = alias_checked(cx) {
        let pkg =
            cx.f.package
                .as_deref()
                .map_or(String::new(), |p| format!("{p}."));
        return Some(format!(
            "if errors.Is(err, {pkg}{alias}) {{\n\t// callers in this repository see it as {pkg}{alias}\n{what}\n}}"
        ));
    }
    // A gRPC status crosses the wire as a new value: what a client holds
    // depends on its library, so no test is offered.
    if cx.r.sites[0].callee.starts_with("status.") {
        return None;
    }
    if let Some(s) = qualified_sentinel(cx) {
        return Some(format!("if errors.Is(err, {s}) {{\n{what}\n}}"));
    }
    if let Some(t) = cx.error_type_name() {
        let t = match &cx.f.package {
            Some(p) if !t.contains('.') && t.starts_with(char::is_uppercase) && p != "main" => {
                format!("{p}.{t}")
            }
            _ => t.to_string(),
        };
        let how =
            cx.f.checked_at
                .iter()
                .find(|c| c.ends_with("errors.As"))
                .map(|c| format!("\t// The repository checks it the same way at {c}.\n"))
                .unwrap_or_default();
        return Some(format!(
            "var target *{t}\nif errors.As(err, &target) {{\n{how}{what}\n}}"
        ));
    }
    if wants_sentinel(cx) && (cx.is_expected() || cx.f.checked_at.is_empty()) {
        // No sentinel to test: the text is all a caller has.
        return Some(format!(
            "if err != nil && err.Error() == {} {{\n{what}\n}}",
            go_quote(&cx.r.error_message)
        ));
    }
    None
}

/// Code that handles the error where the function is called.
pub(crate) fn try_catch(cx: &Cx<'_>) -> Option<String> {
    // A panic is a bug or a broken invariant: recovering it (possibly on
    // another goroutine, possibly with a lock held) is not advice the
    // facts can back, so panics get no handling snippet.
    match cx.r.error_type {
        ErrorType::Exception if cx.returned() => {
            let call = error_call(cx)?;
            let fname = cx.fname?;
            let context = crate::family::identifier_words(fname);
            // An unexported function is called only from its own package.
            let inside = match &cx.f.package {
                Some(p) if p != "main" && fname.starts_with(|c: char| c.is_ascii_lowercase()) => {
                    format!("// In package {p}: {fname} is not exported.\n")
                }
                _ => String::new(),
            };
            let retry = if cx.advice().is_some_and(|f| f.transient) {
                "\t// Usually transient: retry with backoff before giving up.\n"
            } else {
                ""
            };
            Some(if call.results == 1 {
                format!(
                    "{inside}if err := {}; err != nil {{\n{retry}\treturn fmt.Errorf({}, err)\n}}",
                    call.expr,
                    go_quote(&format!("{context}: %w"))
                )
            } else {
                format!(
                    "{inside}{}\nif err != nil {{\n{retry}\treturn fmt.Errorf({}, err)\n}}",
                    assign_err(&call),
                    go_quote(&format!("{context}: %w"))
                )
            })
        }
        _ => None,
    }
}

/// Identifiers in a Go expression.
fn identifiers(expr: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' || b[i] == b'`' || b[i] == b'\'' {
            let q = b[i];
            i += 1;
            while i < b.len() && b[i] != q {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // A field or method after `.` belongs to what precedes it.
            if s == 0 || b[s - 1] != b'.' {
                out.push(&expr[s..i]);
            }
            continue;
        }
        i += 1;
    }
    out
}

const GO_WORDS: &[&str] = &[
    "nil", "true", "false", "len", "cap", "string", "int", "int64", "uint64", "byte",
];

/// A check a caller can make before calling: a guard of the site that
/// reads only the function's parameters.
pub(crate) fn validation(cx: &Cx<'_>) -> Option<String> {
    let sig = cx.f.signature.as_deref()?;
    let call = call_of(sig)?;
    let params: Vec<&str> = call
        .expr
        .split_once('(')?
        .1
        .trim_end_matches(')')
        .split(", ")
        .map(|a| a.trim_end_matches("..."))
        .filter(|a| !a.is_empty())
        .collect();
    // Every guard of the site, all on the parameters: a check that left
    // one out would reject input the function accepts.
    let site = &cx.r.sites[0];
    let guards: Vec<&str> = crate::causes(&cx.f.guards, &site.callee).collect();
    let on_params = |g: &&str| {
        let ids = identifiers(g);
        ids.iter().any(|i| params.contains(i))
            && ids
                .iter()
                .all(|i| params.contains(i) || GO_WORDS.contains(i))
    };
    if guards.is_empty() || !guards.iter().all(on_params) {
        return None;
    }
    // A bare flag around a log line (`if logerr {`) picks whether it is
    // logged: no argument makes the call fail.
    let logged = cx.r.error_type == errdex_model::ErrorType::Log;
    if logged && guards.iter().any(|g| crate::is_mode_flag(g)) {
        return None;
    }
    let guard = match &guards[..] {
        [one] => one.to_string(),
        all => all
            .iter()
            .map(|g| format!("({g})"))
            .collect::<Vec<_>>()
            .join(" && "),
    };
    Some(format!(
        "// Before calling {}: with these arguments it would fail with {}.\nif {guard} {{\n\treturn fmt.Errorf(\"invalid input for {}\")\n}}",
        cx.fname?,
        comment_text(&go_quote(&cx.r.error_message)),
        cx.fname?
    ))
}

/// A before/after change to the site itself, when the facts show one:
/// `%v` of an error that `%w` would keep testable, or a text-only error a
/// sentinel would make recognisable.
pub(crate) fn example_fix(cx: &Cx<'_>) -> Option<String> {
    let site = &cx.r.sites[0];
    if site.callee != "fmt.Errorf" && site.callee != "errors.New"
        || crate::is_generated(&site.file_path)
    {
        return None;
    }
    let args: String = site.args.iter().map(|a| format!(", {a}")).collect();
    let before = format!("{}({}{args})", site.callee, go_quote(&cx.r.message_pattern));
    let keyword = if cx.f.returned { "return " } else { "err = " };
    if let Some((hole, _)) = &cx.chain {
        if hole.verb.starts_with('%') && !hole.verb.ends_with('w') && site.callee == "fmt.Errorf" {
            let fixed = cx.r.message_pattern.replacen(&hole.verb, "%w", 1);
            return Some(format!(
                "// Before: the cause is flattened to text.\n{keyword}{before}\n\n// After: %w keeps it testable with errors.Is and errors.As.\n{keyword}fmt.Errorf({}{args})",
                go_quote(&fixed)
            ));
        }
    }
    if wants_sentinel(cx) && cx.f.package.is_some() {
        let name = sentinel_name(&cx.r.error_message);
        return Some(format!(
            "// Before: callers can only compare the text.\nreturn {before}\n\n// After: one sentinel, declared at package level, that callers test\n// with errors.Is(err, {name}).\nvar {name} = errors.New({})\n\nreturn {name}",
            go_quote(&cx.r.error_message)
        ));
    }
    None
}

/// `errStopRequested` for "stop requested".
fn sentinel_name(message: &str) -> String {
    let mut name = String::from("err");
    for w in crate::family::words(message).iter().take(4) {
        let mut c = w.chars().filter(|c| c.is_ascii_alphanumeric());
        if let Some(first) = c.next() {
            name.extend(first.to_uppercase());
            name.extend(c);
        }
    }
    if name == "err" {
        name.push_str("Sentinel");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_become_calls() {
        let c = call_of("func runApplyChannelLoop(ctx context.Context, out io.Writer, options *ApplyChannelOptions, args []string) error").unwrap();
        assert_eq!(c.expr, "runApplyChannelLoop(ctx, out, options, args)");
        assert_eq!((c.results, c.returns_error), (1, true));
        let c = call_of("func (c *DNSController) runWatcher(stopCh <-chan struct{}, a, b int, rest ...string) (n int, err error)").unwrap();
        assert_eq!(c.expr, "c.runWatcher(stopCh, a, b, rest...)");
        assert_eq!((c.results, c.returns_error), (2, true));
        let c = call_of("func (*Server) Map[K comparable](m map[K]int)").unwrap();
        assert_eq!(c.expr, "s.Map(m)");
        assert_eq!((c.results, c.returns_error), (0, false));
        assert_eq!(call_of("func f(int, string) error"), None);
        assert_eq!(call_of("func f(_ int) error"), None);
    }

    #[test]
    fn quoting_and_names() {
        assert_eq!(go_quote("a \"b\"\n\\"), r#""a \"b\"\n\\""#);
        assert_eq!(sentinel_name("stop requested"), "errStopRequested");
        assert_eq!(
            identifiers(r#"len(name) == 0 && opts.Dir != "x""#),
            vec!["len", "name", "opts"]
        );
    }
}
