//! `untraceable-message`: errors made with too little text of their own.

use super::*;
use crate::declared::Declared;
use std::collections::HashMap;

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
pub(super) fn untraceable(
    r: &Record,
    sites: &[&Site],
    declared: &crate::declared::Declared,
    raised: &HashMap<String, usize>,
    out: &mut Vec<Finding>,
) {
    if is_output(r) {
        return;
    }
    // Each site fills the holes with its own values: one may hand on an
    // error or print a constant where another prints a name.
    let worded_elsewhere = |s: &Site| {
        s.error_class
            .as_deref()
            .map(last_name)
            .is_some_and(|c| declared.words_own_message(c))
    };
    for s in sites.iter().filter(|s| makes_an_error(s)) {
        let t = template(r, s);
        if !too_little_text(&literal(&t)) || hands_on_an_error(&t) {
            continue;
        }
        // Only then the package's files: constants, the tree's exception
        // classes, the callers' arguments and the function's assignments.
        let params = s
            .facts
            .signature
            .as_deref()
            .zip(s.function.as_deref())
            .map(|(sig, f)| params::parameter_names(sig, f, r.language))
            .unwrap_or_default();
        let own = own_text(&t, |name| {
            declared
                .text_of(&s.file_path, name)
                .or_else(|| fixed_by_callers(s, &params, name, declared))
                .or_else(|| assigned_literal(s, name, declared))
        });
        if !too_little_text(&own)
            || python_protocol(s)
            || names_a_condition(&own)
            || names_a_parameter(&own, &params)
            || a_placeholder(&own)
            || worded_elsewhere(s)
            || not_implemented(s)
            || prints_its_place(s, declared)
            || made_with_its_cause(s, declared)
            || logged_just_before(s, declared)
            || property_absent(s, declared)
            || named_by_its_class(s, declared, raised)
            || hands_on_a_reply(s, &t, declared)
        {
            continue;
        }
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

/// The text a parameter always holds: every caller of the site's function
/// passes it a string literal (`ensure_dict(obj, 'JWS')` and
/// `ensure_dict(obj, 'JWE')`) or a formatted one with text of its own
/// (`f"tool.setuptools.dynamic.{field}"`), so the message prints that
/// text; the shortest stands for all. Callers past the listed few may pass
/// anything.
fn fixed_by_callers(
    s: &Site,
    params: &[String],
    name: &str,
    declared: &Declared,
) -> Option<String> {
    let index = params.iter().position(|p| p == name)?;
    let callers = &s.facts.callers;
    if callers.is_empty() || callers.len() >= errdex_model::MAX_CHECKS {
        return None;
    }
    let function = last_name(s.function.as_deref()?);
    let mut texts = Vec::new();
    for c in callers {
        let place = c.split(' ').next()?;
        let (file, line) = place.rsplit_once(':')?;
        let statement = declared.lines(file, line.parse().ok()?, 8)?;
        let args = params::call_arguments(&statement, function)?;
        texts.push(params::string_literal(&params::argument_for(
            &args, index, name,
        )?)?);
    }
    texts.into_iter().min_by_key(String::len)
}

/// The text of the literal a name was last assigned in the lines above the
/// site (`s = "Failed to load application: %s" % e`, then
/// `sys.exit("\n" + s + "\n")`): the message prints it. Only a value that
/// starts with a literal counts, and only the quoted pieces of its first
/// line.
fn assigned_literal(s: &Site, name: &str, declared: &Declared) -> Option<String> {
    let value = declared.assigned_value(&s.file_path, s.line_number, name)?;
    // A literal, maybe formatted (`f"…"`, `"…" % x`, `"…".format(x)`), not
    // a lookup that quotes a key (`result["result"]`).
    let body = value.trim_start_matches(['f', 'r', 'b', 'u', 'F', 'R', 'B', 'U', '(']);
    if !body.starts_with(['"', '\'']) {
        return None;
    }
    let quoted: Vec<&str> = value
        .split(['"', '\''])
        .skip(1)
        .step_by(2)
        .filter(|q| !q.is_empty())
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" "))
}

/// Python's data model signals with exceptions: `AttributeError(name)` in
/// `__getattr__` is how `hasattr` and `getattr(x, n, default)` learn
/// there is no such attribute, `KeyError`/`IndexError` in `__getitem__`
/// end lookups and old-style iteration, `StopIteration` in `__next__` ends
/// a loop. The caller handles them; no user reads their text.
fn python_protocol(s: &Site) -> bool {
    let method = s.function.as_deref().map(last_name).unwrap_or_default();
    let class = s.error_class.as_deref().map(last_name).unwrap_or_default();
    match method {
        "__getattr__" | "__getattribute__" | "__delattr__" => class == "AttributeError",
        "__getitem__" | "__delitem__" | "__missing__" => {
            matches!(class, "KeyError" | "IndexError")
        }
        "__next__" | "__anext__" => matches!(class, "StopIteration" | "StopAsyncIteration"),
        _ => false,
    }
}

/// An argument check named by the parameter it checks (`panic("bad n")` in
/// a function that takes `n`): past generic words, the message names only
/// parameters of its function, and the stack says which function.
fn names_a_parameter(text: &str, params: &[String]) -> bool {
    let named: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !GENERIC_WORDS.contains(&w.to_lowercase().as_str()))
        .collect();
    !named.is_empty() && named.iter().all(|w| params.iter().any(|p| p == w))
}

/// An operation left unimplemented or unsupported on purpose
/// (`throw new UnsupportedOperationException("mark")`, `raise
/// NotImplementedError, "gets"`, `unimplemented!("seek")`): the class or
/// macro says what happened and the message names the operation, which is
/// how these are written in every language that has them.
fn not_implemented(s: &Site) -> bool {
    const CLASSES: &[&str] = &[
        "NotImplementedError",
        "NotImplementedException",
        "UnsupportedOperationException",
        "NotSupportedException",
        "NotSupportedError",
    ];
    let class = s.error_class.as_deref().map(last_name);
    let macro_name = last_name(&s.callee).trim_end_matches('!');
    class.is_some_and(|c| CLASSES.contains(&c)) || matches!(macro_name, "unimplemented" | "todo")
}

/// Names a handler gives the error it caught.
const CAUGHT_NAMES: &[&str] = &["e", "ex", "exc", "err", "error", "cause", "exception"];

/// An error made with the caught one as an argument (`raise
/// AnsibleParserError("Role '%s'" % role, orig_exc=e)`, `new
/// ConfigException("read", e)`, `new Error("read", { cause: e })`): the
/// trace or the class's own text carries the cause's words too.
fn made_with_its_cause(s: &Site, declared: &Declared) -> bool {
    let Some(statement) = declared.lines(&s.file_path, s.line_number, 6) else {
        return false;
    };
    let Some(open) = statement.find('(') else {
        return false;
    };
    let args = params::split_level(&statement[open + 1..]).unwrap_or_default();
    args.iter().skip(1).any(|a| {
        let value = a
            .trim()
            .trim_matches(['{', '}'])
            .rsplit(['=', ':'])
            .next()
            .unwrap_or_default()
            .trim();
        CAUGHT_NAMES.contains(&value)
    })
}

/// A log call in the three lines above that words what failed
/// (`grpclog.Infof("Failed to extract ServerMetadata from context")`, then
/// `http.Error(w, "unexpected error", 500)`): the log holds the text an
/// operator traces.
fn logged_just_before(s: &Site, declared: &Declared) -> bool {
    let from = s.line_number.saturating_sub(3).max(1);
    let Some(above) = declared.lines(&s.file_path, from, (s.line_number - from) as usize) else {
        return false;
    };
    above.lines().any(|l| {
        // `log.Printf`, `grpclog.Infof`, `logger.warning`, `self.log`.
        let callee = l.trim().split('(').next().unwrap_or_default();
        let logs = !callee.contains([' ', '=']) && callee.to_lowercase().contains("log");
        let quoted: Vec<&str> = l.split(['"', '\'']).skip(1).step_by(2).collect();
        logs && quoted.iter().any(|q| !too_little_text(q))
    })
}

/// Python's attribute protocol through a property: an `AttributeError`
/// raised by a `@property` getter tells `hasattr`, `getattr(x, n,
/// default)` and the class's `__getattr__` that the attribute is absent;
/// the caller handles it.
fn property_absent(s: &Site, declared: &Declared) -> bool {
    if s.error_class.as_deref().map(class_name) != Some("AttributeError") {
        return false;
    }
    let from = s.line_number.saturating_sub(40).max(1);
    let Some(above) = declared.lines(&s.file_path, from, (s.line_number - from) as usize) else {
        return false;
    };
    let lines: Vec<&str> = above.lines().collect();
    let Some(def) = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("def "))
    else {
        return false;
    };
    def > 0 && {
        let decorator = lines[def - 1].trim();
        decorator == "@property"
            || decorator.ends_with(".getter")
            || decorator.ends_with("cached_property")
    }
}

/// A panic says where it happened: Go's runtime prints the goroutine's
/// stack, each frame with its file and line, and Rust's hook prints
/// `panicked at src/x.rs:12:5`; that place finds the statement whatever
/// its words (`panic("STUB")`, `unreachable!()`). A Go package that calls
/// `recover()` outside its tests and prints no stack there may turn the
/// panic into an error with no place: its panics are still read.
fn prints_its_place(s: &Site, declared: &Declared) -> bool {
    match site_language(s) {
        Some(Lang::Go) => s.callee == "panic" && !declared.recovers_panics(&s.file_path),
        Some(Lang::Rust) => s.error_type == ErrorType::Panic,
        _ => false,
    }
}

/// A site's language, by its file's ending: a record gathers one text
/// from sites in several.
fn site_language(s: &Site) -> Option<Lang> {
    errdex_lang::language_for_path(&s.file_path).map(|l| l.lang())
}

/// An exception class of the tree's own, named in several words and
/// raised at this one site (`raise NonAsciiHeaderError(key, ': ', value)`):
/// the runtime prints the class's name with the message, and that name
/// finds the statement. A class raised at several sites, or one of the
/// runtime's (`ValueError`), does not tell them apart.
fn named_by_its_class(s: &Site, declared: &Declared, raised: &HashMap<String, usize>) -> bool {
    let Some(class) = s.error_class.as_deref().map(class_name) else {
        return false;
    };
    let own_words = identifier_words(class)
        .iter()
        .filter(|w| !matches!(w.as_str(), "error" | "exception"))
        .count();
    site_language(s).is_some_and(crate::declared::prints_class_names)
        && own_words >= 2
        && raised.get(class) == Some(&1)
        && declared.declares_class(class)
}

/// A class's own name, without its module or namespace (`exc.NoSuchTable`,
/// `Gem::FetchError`, `\App\Http\Failed`).
fn class_name(class: &str) -> &str {
    let name = last_name(class);
    name.rsplit('\\').next().unwrap_or(name)
}

/// How many distinct sites raise each exception class (by its own name).
pub(super) fn sites_by_class(ds: &RepoDataset) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for r in &ds.records {
        for s in distinct_sites(r) {
            if let Some(class) = s.error_class.as_deref() {
                *out.entry(class_name(class).to_string()).or_insert(0) += 1;
            }
        }
    }
    out
}

/// A marker for code not written yet (`throw new Error("TODO")`,
/// `raise Exception("not implemented")`, `STUB`): left unimplemented on
/// purpose, as an `UnsupportedOperationException` is.
fn a_placeholder(text: &str) -> bool {
    let words: String = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    matches!(
        words.as_str(),
        "todo"
            | "fixme"
            | "xxx"
            | "stub"
            | "tbd"
            | "unimplemented"
            | "not implemented"
            | "not yet implemented"
            | "implement me"
    )
}

/// A hole that hands on what another program answered: an HTTP response's
/// body or status, a server's reply to a command, a child's output
/// (`fmt.Errorf("unknown error: %s", string(b))` after `b, err :=
/// io.ReadAll(resp.Body)`; `f"{name} invalid: {info}"` after `info =
/// result["result"]` and `result = self.command(cmd)`). That text is the
/// other program's own words, as a wrapped error's is. Followed through
/// two assignments above the site.
fn hands_on_a_reply(s: &Site, t: &Template, declared: &Declared) -> bool {
    let holes = t.segments.iter().filter_map(|seg| match seg {
        Segment::Hole(h) => h.arg.as_deref(),
        Segment::Lit(_) => None,
    });
    let mut values: Vec<String> = holes.map(str::to_string).collect();
    for _ in 0..=2 {
        if values.iter().any(|v| reads_a_reply(v)) {
            return true;
        }
        values = values
            .iter()
            .flat_map(|v| names(v).map(str::to_string).collect::<Vec<_>>())
            .filter_map(|n| declared.assigned_value(&s.file_path, s.line_number, &n))
            .collect();
    }
    false
}

/// An expression that reads another program's answer (`resp.Body`,
/// `response.text`, `reply`, `proc.stdout`, `self.command(cmd)`).
fn reads_a_reply(expr: &str) -> bool {
    const REPLY_WORDS: &[&str] = &[
        "resp", "response", "reply", "body", "stdout", "stderr", "output", "command",
    ];
    names(expr).any(|n| {
        identifier_words(n)
            .iter()
            .any(|w| REPLY_WORDS.contains(&w.as_str()))
    })
}

/// An assertion that spells out the condition it checks (`d.nx != 0`,
/// `bits (%d) > 64`), or an error that spells out the operation that
/// failed as code (`ZeroDivisionError('%s / 0')`, `'0**0'`): that code
/// text finds it.
fn names_a_condition(text: &str) -> bool {
    // Comparisons read the same without spaces (`%v!=%v`); `<` and `>`
    // only with them, since they also quote (`<nil>`), and so do `/` and
    // `%` (paths, percentages).
    [
        "!=", "==", ">=", "<=", " > ", " < ", "&&", "||", "**", " / ", " % ", " // ",
    ]
    .iter()
    .any(|op| text.contains(op))
}

/// A site that makes an error or stops the program, as a statement of its
/// own: not a log, text kept under a name or in a buffer for a later
/// print (`msg = f"…"`, `snprintf(errbuf, …)`, C's `return "UNKNOWN";` in
/// a formatter), a sentinel, an error type's method that renders it, or
/// an argument check named by its parameter (`Validate.notNull(cls,
/// "cls")`: the stack says where).
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
    let call = last_name(&s.callee);
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
    let method = s.function.as_deref().map(last_name);
    let log = matches!(s.error_type, ErrorType::Log);
    let kept = s.facts.kept;
    let sentinel = s.function.is_none() && s.error_class.is_some();
    let renders = method.is_some_and(|m| RENDERERS.contains(&m));
    !(log || kept || sentinel || renders)
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
    let name = last_name(class);
    s.function.is_some()
        && !name.starts_with("Err")
        && !name.starts_with("err")
        && !ERROR_NAMES.iter().any(|e| name.contains(e))
        && !name.starts_with("Http")
}

/// Text a program writes as output, not an error: a line that starts
/// with a carriage return redraws itself on a terminal (curl's `\r%3d %s
/// %3d %s …` meter); a comment (`/* nil */`) is a placeholder rendered
/// into generated text.
fn is_output(r: &Record) -> bool {
    let p = r.message_pattern.trim();
    r.message_pattern.starts_with('\r')
        || (p.starts_with("/*") && p.ends_with("*/"))
        || (p.starts_with("<!--") && p.ends_with("-->"))
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
/// `e.args`, `err.stack`, `strings.Join(errs, "; ")`), or the operating
/// system's text for an error number (`strerror(errno)`,
/// `os.strerror(code)`), or a stack trace (`debug.Stack()`,
/// `traceback.format_exc()`), which says where it was made.
fn mentions_an_error(expr: &str) -> bool {
    // Ruby's exception being handled: `$!`, `$ERROR_INFO`.
    if expr.contains("$!") || expr.contains("$ERROR_INFO") {
        return true;
    }
    names(expr).any(|w| {
        matches!(
            w,
            "e" | "ex"
                | "exc"
                | "err"
                | "errs"
                | "error"
                | "errors"
                | "exception"
                | "cause"
                | "strerror"
                | "strerror_r"
                | "gai_strerror"
                | "Stack"
                | "format_exc"
                | "format_exception"
                | "getStackTrace"
                // Python's exception being handled: `sys.exc_info()`.
                | "exc_info"
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
/// the caller's format and arguments (a logger's own code) or its words
/// around the message (a prefix, a label, a command's usage), a message
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
        // A caller's words around the message: `'Invalid ' + label`,
        // `${prefix}${this.usage}`, `"%s: %s", prefix, …`.
        "prefix",
        "label",
        "usage",
        // A warning handed in by the caller (`self.log('[WARNING] %s' %
        // warning)`).
        "warning",
        "warnings",
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
