//! The prose fields. Each sentence comes from one fact; none guesses.

use crate::Cx;
use errdex_model::ErrorType;

/// `text` quoted as code.
pub(crate) fn code(text: &str) -> String {
    let ticks = if text.contains('`') { "``" } else { "`" };
    format!("{ticks}{text}{ticks}")
}

/// The first sentences of a comment, at most `max` bytes, cut at a word.
fn excerpt(text: &str, max: usize) -> String {
    let text = text.trim();
    // Up to the end of the second sentence.
    let mut end = text.len();
    let mut sentences = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?')
            && text[i + 1..].starts_with(' ')
            && !text[..i].ends_with("e.g")
            && !text[..i].ends_with("i.e")
        {
            sentences += 1;
            if sentences == 2 {
                end = i + 1;
                break;
            }
        }
    }
    let mut s = &text[..end];
    if s.len() > max {
        let mut cut = max;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s = s[..cut].rsplit_once(' ').map_or(&s[..cut], |(a, _)| a);
        return format!("{s}…");
    }
    s.to_string()
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How a guard reads as a condition: `!(x)` is "`x` is false".
fn condition(g: &str) -> String {
    if g.starts_with("<-") || g.contains("= <-") {
        return format!("{} receives a value", code(g));
    }
    match g.strip_prefix("!(").and_then(|g| g.strip_suffix(')')) {
        Some(inner) => format!("{} is false", code(inner)),
        None => format!("{} holds", code(g)),
    }
}

/// A guard that says a value is none of several (`!(m == "a" || m == "b")`,
/// `not (m == "a")`): the `else` or `default` branch after the branches
/// that handle them. Its subject and those values.
fn none_of(g: &str) -> Option<(&str, Vec<&str>)> {
    let inner = g
        .strip_prefix("!(")
        .or_else(|| g.strip_prefix("not ("))?
        .strip_suffix(')')?;
    let mut subject = None;
    let mut values = Vec::new();
    for part in inner.split(" || ").flat_map(|p| p.split(" or ")) {
        let (lhs, rhs) = part.split_once(" == ")?;
        let (lhs, rhs) = (lhs.trim(), rhs.trim());
        if subject.is_some_and(|s| s != lhs) || lhs.contains(['(', ' ']) {
            return None;
        }
        subject = Some(lhs);
        values.push(rhs);
    }
    Some((subject?, values))
}

/// A value written into the code: a literal (`"http"`, `304`, `None`)
/// or a named constant (`ConfChangeAddNode`, `State.DATA`). A value read
/// from state (`self.suggested.endpoint`) is another comparison, not one
/// of the values the code handles.
fn is_fixed_value(v: &str) -> bool {
    let v = v.trim();
    if v.starts_with(['"', '\'', '`']) || v.parse::<f64>().is_ok() {
        return true;
    }
    let root = v.split('.').next().unwrap_or(v);
    let last = v.rsplit('.').next().unwrap_or(v);
    // A plain name (`tokenTypeSimple`) is taken for a constant; a field
    // chain only when it ends in a capital (`State.DATA`).
    v.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        && !matches!(root, "self" | "this" | "cls")
        && (!v.contains('.') || last.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The values a subject is none of, over all `guards`, with the guards
/// that say so.
fn handled_values<'g>(guards: &[&'g str]) -> Option<(&'g str, Vec<&'g str>)> {
    let mut out: Option<(&str, Vec<&str>)> = None;
    for (subject, values) in guards.iter().filter_map(|g| none_of(g)) {
        match &mut out {
            None => out = Some((subject, values)),
            Some((s, all)) if *s == subject => all.extend(values),
            Some(_) => {}
        }
    }
    out
}

/// The guards as conditions, the ones that say a value is none of
/// several merged into one (`` `m` is none of `"a"`, `"b"` ``).
fn conditions(guards: &[&str]) -> Vec<String> {
    let handled = handled_values(guards);
    let mut out = Vec::new();
    let mut merged = false;
    for g in guards {
        match (&handled, none_of(g)) {
            (Some((subject, values)), Some((s, _))) if *subject == s => {
                if !merged {
                    let values: Vec<String> = values.iter().map(|v| code(v)).collect();
                    out.push(format!(
                        "{} is none of {}",
                        code(subject),
                        values.join(", ")
                    ));
                    merged = true;
                }
            }
            _ => out.push(condition(g)),
        }
    }
    out
}

/// The conditions an earlier `if` of the guard's block leaves under
/// ([`errdex_model::SiteFacts::passed`]), the nearest two, as code:
/// `` `a` or `b` ``.
fn passed_clause(passed: &[String]) -> Option<String> {
    let shown: Vec<String> = passed.iter().take(2).map(|p| code(p)).collect();
    (!shown.is_empty()).then(|| shown.join(" or "))
}

pub(crate) fn documentation(cx: &Cx<'_>) -> String {
    let r = cx.r;
    let f = cx.f;
    let mut out: Vec<String> = Vec::new();
    let who = match (cx.function, &f.package) {
        (Some(func), Some(p)) => format!("{} (package {})", code(func), code(p)),
        (Some(func), None) => code(func),
        (None, Some(p)) => format!("Package {}", code(p)),
        (None, None) => "The code".to_string(),
    };
    let error_method = cx.is_text_method();
    // A piece handed to a function that prints it inside its own message
    // (`check_type("wsgi.error.write()", s, str)`): that function says how
    // it is printed, not this call.
    let handed = f.fills.as_ref().filter(|_| r.error_type == ErrorType::Log);
    let what = match r.error_type {
        _ if handed.is_some() => handed.map_or_else(String::new, |fill| {
            format!(
                "hands this text to {} as its {}, which prints it as part of its own message",
                code(&fill.function),
                code(&fill.arg)
            )
        }),
        ErrorType::Exception if r.sites[0].callee == "=" => {
            "keeps this text in a value, which it raises or prints later".to_string()
        }
        ErrorType::Exception if error_method => format!(
            "formats this message: it is the text of the error type {}",
            code(f.receiver.as_deref().unwrap_or_default())
        ),
        ErrorType::Exception if cx.function.is_none() => match &r.error_class {
            Some(c) => format!("declares this error as {}", code(c)),
            None => "declares this error".to_string(),
        },
        ErrorType::Exception if cx.returned() => {
            // Languages with exceptions hand the error up by throwing it.
            let verb = errdex_lang::language(r.language).conventions().throw_verb;
            match (verb, &r.error_class) {
                (Some(v), Some(c)) => format!("{v} {} with this message", code(c)),
                (Some(v), None) => format!("{v} this error"),
                (None, _) => "returns this error".to_string(),
            }
        }
        ErrorType::Exception => "creates this error".to_string(),
        ErrorType::Panic => "panics with this message".to_string(),
        ErrorType::Log if cx.is_warning() => match &r.error_class {
            Some(c) => format!(
                "issues this warning (`warnings.warn`, category {})",
                code(c)
            ),
            None => "issues this warning (`warnings.warn`)".to_string(),
        },
        ErrorType::Log if r.severity == errdex_model::Severity::Critical => {
            "logs this message at fatal level".to_string()
        }
        ErrorType::Log => format!("logs this message at {} level", r.severity),
        ErrorType::Exit => "prints this message and exits the program".to_string(),
        ErrorType::Http => match r.http_status {
            Some(s) => format!("answers the HTTP request with status {s} and this message"),
            None => "answers the HTTP request with this message".to_string(),
        },
    };
    let mut first = format!("{who} {what}");
    if let Some(call) = &f.wrapped_call {
        first.push_str(&format!(" when {} fails", code(call)));
    }
    // The first site's own guards: other sites' are alternatives, which
    // "When it happens" lists.
    let guards: Vec<&str> = crate::causes(&f.guards, &r.sites[0].callee).collect();
    if !guards.is_empty() {
        let mut conds = conditions(&guards);
        conds.truncate(2);
        first.push_str(&format!(
            "{} when {}",
            if f.wrapped_call.is_some() {
                ", and"
            } else {
                ""
            },
            join_and(&conds)
        ));
    }
    if let Some(passed) = passed_clause(&f.passed) {
        first.push_str(&format!(", except when {passed}, where it leaves first"));
    }
    if r.error_type == ErrorType::Log && r.severity == errdex_model::Severity::Critical {
        first.push_str(", and the program exits");
    }
    out.push(first + ".");
    out.extend(crate::returns::documentation(cx));
    if let Some(stop) = f
        .callers_stop
        .as_deref()
        .filter(|_| cx.stopped_by_callers())
    {
        let (at, statement) = stop.split_once(' ').unwrap_or((stop, ""));
        out.push(format!(
            "Its callers stop the program with it ({} at {at}): users meet a panic or an exit, not this error returned.",
            code(statement)
        ));
    }

    if let Some((hole, prefix)) = &cx.chain {
        let cause = match (&f.wrapped_call, &hole.arg) {
            (Some(call), _) => format!("the error {} returned", code(call)),
            (None, Some(arg)) => format!("the error {}", code(arg)),
            (None, None) => "the underlying error".to_string(),
        };
        let after = if prefix.trim().is_empty() {
            "The message carries".to_string()
        } else {
            format!("The text after {} is", code(prefix.trim_end()))
        };
        if !matches!(cx.handling(), errdex_lang::Handling::ErrorValues)
            || r.error_type != ErrorType::Exception
        {
            // Exceptions keep their cause (`__context__`, `getCause()`),
            // and a logged or printed text reaches no caller: only the
            // text is said here.
            out.push(format!("{after} {cause}."));
        } else if hole.verb.ends_with('w') {
            out.push(format!(
                "{after} {cause}, wrapped with {}, so {} and {} still reach it.",
                code(&hole.verb),
                code("errors.Is"),
                code("errors.As")
            ));
        } else {
            out.push(format!(
                "{after} {cause}, flattened to text with {}: callers can no longer test the cause with {}.",
                code(&hole.verb),
                code("errors.Is")
            ));
        }
    }
    out.extend(
        crate::translated::meaning(&r.causes)
            .or_else(|| crate::leaves::meaning(&r.causes, cx.chain.is_some())),
    );
    out.extend(cx.idiom.as_ref().map(|d| d.meaning.clone()));
    if let Some(family) = cx.advice() {
        out.push(format!(
            "Its wording puts it in the {} family: {}",
            code(family.slug),
            lower_first(family.meaning)
        ));
    }
    if !f.prints_next.is_empty() {
        out.push(format!(
            "Right after it the program prints {}.",
            crate::printed::quoted(&f.prints_next)
        ));
    }
    if let Some(exit) = cx.exit_after() {
        out.push(format!(
            "After it the program exits ({}): it does not go on.",
            code(exit)
        ));
    }
    if let Some(s) = crate::skipped::sentence(cx) {
        out.push(s);
    } else if let Some(fname) = cx.fname {
        if f.in_loop {
            out.push(format!("It is produced inside a loop of {}.", code(fname)));
        } else if cx.returned() && f.loop_follows {
            let verb = errdex_lang::language(r.language).conventions().throw_verb;
            out.push(format!(
                "{} {} it before the loop that follows starts: the failure ends the function at once and is not retried there.",
                code(fname),
                verb.unwrap_or("returns")
            ));
        }
    }
    match (&f.wrapped_call, &f.wrapped_call_comment, &f.comment) {
        (Some(call), Some(c), _) => out.push(format!(
            "The comment above the {} call says why it is made: “{}”",
            code(call),
            excerpt(c, 400)
        )),
        (_, _, Some(c)) => out.push(format!(
            "The comment above the site says: “{}”",
            excerpt(c, 300)
        )),
        _ => {}
    }
    if let (Some(fname), Some(doc)) = (cx.fname, &f.doc) {
        out.push(format!(
            "{} is documented as: “{}”",
            code(fname),
            excerpt(doc, 300)
        ));
    }
    if let (Some(class), Some(doc)) = (&f.receiver, &f.class_doc) {
        out.push(format!(
            "{} is documented as: “{}”",
            code(class),
            excerpt(doc, 300)
        ));
    }
    if f.http_handler {
        if let Some(fname) = cx.fname {
            out.push(format!(
                "{} is an HTTP handler (it takes an {}).",
                code(fname),
                code("http.ResponseWriter")
            ));
        }
    }
    if f.in_main {
        out.push(format!(
            "The site is in the program's {} function.",
            code("main")
        ));
    }
    if !f.checked_at.is_empty() {
        out.push(format!(
            "Code in this repository checks for it (at least {} place{}, for example {}), so callers rely on recognising it.",
            f.checked_at.len(),
            if f.checked_at.len() == 1 { "" } else { "s" },
            code(&f.checked_at[0])
        ));
    }
    if r.sites.len() > 1 {
        out.push(format!(
            "{} sites emit this message; the first one is shown.",
            r.sites.len()
        ));
    }
    out.join(" ")
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

pub(crate) fn triggers(cx: &Cx<'_>) -> String {
    let mut when: Vec<String> = Vec::new();
    for s in &cx.r.sites {
        let f = &s.facts;
        let mut conds: Vec<String> = Vec::new();
        if let Some(call) = &f.wrapped_call {
            conds.push(format!("{} returns an error", code(call)));
        }
        let guards: Vec<&str> = crate::causes(&f.guards, &s.callee).collect();
        conds.extend(conditions(&guards));
        if let Some(passed) = passed_clause(&f.passed) {
            conds.push(format!("not {passed}"));
        }
        if conds.is_empty() && f.guards.iter().any(|g| crate::is_err_check(g)) {
            conds.push("an earlier call returns an error".to_string());
        }
        let error_method = s.function.as_deref().is_some_and(crate::is_text_method);
        let clause = match (&s.function, conds.is_empty()) {
            (Some(_), true) if error_method => format!(
                "whenever an error of type {} is printed",
                code(f.receiver.as_deref().unwrap_or_default())
            ),
            // A handed piece is printed when the function it is handed
            // to prints, which its own conditions decide.
            (Some(func), true) if f.fills.is_some() => format!(
                "when {} prints its message with the text {} hands it (written at {}:{})",
                code(f.fills.as_ref().map_or("", |fill| fill.function.as_str())),
                code(func),
                s.file_path,
                s.line_number
            ),
            (Some(func), true) => format!(
                "whenever {} reaches {}:{}",
                code(func),
                s.file_path,
                s.line_number
            ),
            (None, _) if !f.returned_at.is_empty() => {
                when.extend(crate::returns::triggers(f));
                continue;
            }
            (None, _) => format!(
                "wherever the value declared at {}:{} is returned",
                s.file_path, s.line_number
            ),
            (Some(func), false) => format!("when {} in {}", join_and(&conds), code(func)),
        };
        if !when.contains(&clause) {
            when.push(clause);
        }
        if when.len() >= 3 {
            break;
        }
    }
    let more = when.len() > 3;
    when.truncate(3);
    let mut out = format!("This {} is produced {}.", cx.noun(), when.join("; or "));
    if more {
        out.push_str(" (It is returned elsewhere too.)");
    }
    if cx.r.sites.len() > 3 {
        out.push_str(&format!(" ({} more sites.)", cx.r.sites.len() - 3));
    }
    let leaf =
        crate::translated::trigger(&cx.r.causes).or_else(|| crate::leaves::trigger(&cx.r.causes));
    for sentence in leaf.iter().chain(cx.idiom.as_ref().map(|d| &d.trigger)) {
        out.push(' ');
        out.push_str(sentence);
    }
    if let Some(family) = cx.advice() {
        out.push(' ');
        out.push_str(family.situations);
    }
    out
}

pub(crate) fn situations(cx: &Cx<'_>) -> String {
    let f = cx.f;
    let mut out: Vec<String> = Vec::new();
    out.extend(crate::leaves::situation(&cx.r.causes));
    out.extend(cx.idiom.as_ref().map(|d| d.situation.clone()));
    if let Some(family) = cx.advice() {
        out.push(family.situations.to_string());
    }
    if cx.is_text_method() {
        let ty = code(f.receiver.as_deref().unwrap_or_default());
        out.push(format!(
            "Wherever an error of type {ty} is returned and then printed (logged, wrapped into another message, or shown to a user)."
        ));
        if !f.callers.is_empty() {
            let made: Vec<String> = f.callers.iter().take(3).map(|c| code(c)).collect();
            out.push(format!(
                "The repository creates {ty} at {}{}.",
                join_and(&made),
                if f.callers.len() > 3 {
                    " and others"
                } else {
                    ""
                }
            ));
        }
    } else if let Some(fname) = cx.fname.filter(|_| !f.in_main && !f.http_handler) {
        if f.callers.is_empty() && errdex_model::TOO_COMMON_NAMES.contains(&fname) {
            // The index does not look for them: saying none were found
            // would be false.
            out.push(format!(
                "Whenever {} fails this way. Its callers are not listed: its name is too common to find them by name alone.",
                code(fname)
            ));
        } else if f.callers.is_empty() {
            out.push(format!(
                "Whenever {} fails this way. Its callers could not be told by name (it may be called through an interface, a function value, a method name several types share, or from another module).",
                code(fname)
            ));
        } else {
            let callers: Vec<String> = f.callers.iter().take(3).map(|c| code(c)).collect();
            out.push(format!(
                "{} is called at {}{} in this repository.",
                code(fname),
                join_and(&callers),
                if f.callers.len() > 3 {
                    " and others"
                } else {
                    ""
                }
            ));
        }
    }
    if cx.function.is_none() {
        let pkg = f.package.as_deref().unwrap_or("its package");
        out.push(format!(
            "It is a package-level value of package {}: it reaches users wherever code returns it, {}{}.",
            code(pkg),
            match crate::returns::first(f) {
                Some(returner) => format!("such as {returner}"),
                None => "here or in a package that imports it".to_string(),
            },
            if f.checked_at.is_empty() {
                String::new()
            } else {
                format!(", and callers test for it (for example at {})", code(&f.checked_at[0]))
            }
        ));
    }
    if f.in_main {
        out.push("It happens while the program itself runs its `main` function, typically at start-up or from the command line.".to_string());
    }
    if f.http_handler {
        out.push("It happens while serving an HTTP request.".to_string());
    }
    out.join(" ")
}

pub(crate) fn solutions(cx: &Cx<'_>) -> Vec<String> {
    let f = cx.f;
    if let Some(d) = &cx.idiom {
        // The guards (`wireType == 4`) restate what the idiom's meaning
        // already says, and its family's advice is the idiom's own.
        return d.solutions.clone();
    }
    let mut out: Vec<String> = Vec::new();
    if cx.is_expected() {
        out.extend(cx.family.solutions.iter().map(|s| s.to_string()));
    }
    out.extend(crate::printed::advice_printed_next(f));
    let asked = crate::asks::solutions(cx);
    out.extend(asked.iter().cloned());
    let runtime = crate::leaves::solutions(&cx.r.causes);
    let runtime_known = !runtime.is_empty();
    out.extend(runtime);
    out.extend(crate::translated::solution(&cx.r.causes));
    if let Some((_, prefix)) = &cx.chain {
        let whose = match &f.wrapped_call {
            Some(call) => format!("the error from {}", code(call)),
            None => "the wrapped error".to_string(),
        };
        let after = if prefix.trim().is_empty() {
            "Read the rest of the log line".to_string()
        } else {
            format!(
                "Read the text after {} in the log line",
                code(prefix.trim_end())
            )
        };
        out.push(format!(
            "{after}: it is {whose} and names the actual cause (`errdex explain` traces it further)."
        ));
    }
    out.extend(crate::skipped::step(cx));
    out.extend(crate::formats::step(cx));
    let from_guards = guard_solutions(cx, asked.is_empty(), runtime_known);
    // A flag a guard's step already speaks of needs no step of its own.
    for flag in flags(&cx.literal).into_iter().take(2) {
        if !from_guards.iter().any(|s| s.contains(&code(&flag))) {
            out.push(format!(
                "Check the value given to {} (the message names it).",
                code(&flag)
            ));
        }
    }
    if from_guards.is_empty() && asked.is_empty() {
        out.extend(crate::given::passed_step(cx));
    }
    out.extend(from_guards);
    out.extend(stands_for_step(cx));
    out.extend(crate::returns::solutions(cx));
    out.extend(created_step(cx));
    if let Some(family) = cx.advice().filter(|_| !cx.is_expected()) {
        out.extend(family.solutions.iter().map(|s| s.to_string()));
    }
    if let Some(at) = f.checked_at.first() {
        out.push(format!(
            "Handle it the way the repository's own code does at {}.",
            code(at)
        ));
    }
    let s = &cx.r.sites[0];
    out.push(format!(
        "Read the code at {}:{}{} to see what it was doing when it failed.",
        s.file_path,
        s.line_number,
        match &s.function {
            Some(func) => format!(" ({})", code(func)),
            None => String::new(),
        }
    ));
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out.truncate(6);
    out
}

/// For a sentinel returned in place of a call's error (`if _, err :=
/// check(); err != nil { return ErrIncompatible }`): the call and the
/// repository's errors it fails with, from the cause graph.
fn stands_for_step(cx: &Cx<'_>) -> Option<String> {
    if cx.function.is_some() || cx.r.causes.iter().any(|c| c.translated_at.is_some()) {
        return None;
    }
    let call =
        cx.r.causes
            .iter()
            .find(|c| c.record_id.is_some())?
            .path
            .first()?;
    let with = crate::leaves::failing_with(&cx.r.causes, call)?;
    Some(format!(
        "Find out why {} fails: this error is returned in place of its error, and it fails {with}.",
        code(call)
    ))
}

/// For the method that gives an error type its text: the place the
/// repository creates the error, where the reason lies.
fn created_step(cx: &Cx<'_>) -> Option<String> {
    let first = cx.f.callers.first().filter(|_| cx.is_text_method())?;
    let ty = code(cx.f.receiver.as_deref().unwrap_or_default());
    Some(match first.split_once(' ') {
        Some((at, function)) => format!(
            "This text is part of {ty}'s message: find out why {} creates it ({at}).",
            code(function)
        ),
        None => {
            format!("This text is part of {ty}'s message: find out why it is created at {first}.")
        }
    })
}

/// Solutions from the sites' guards: the values the code handles, when
/// the site is their `else` or `default`; else an action for each guard
/// of a known form, or (when `look_into`) the condition to look into.
/// With the knowledge base's remedies for the runtime's reasons
/// (`runtime_known`), the failed call needs no step of its own.
fn guard_solutions(cx: &Cx<'_>, look_into: bool, runtime_known: bool) -> Vec<String> {
    let f = cx.f;
    let mut out = Vec::new();
    // The site itself is the `else` or `default` of the values the code
    // handles, and reports an error: another value is the cause.
    let innermost: Vec<&str> = crate::causes(&f.guards, &cx.r.sites[0].callee).collect();
    let in_else = innermost.first().is_some_and(|g| none_of(g).is_some())
        && cx.r.severity <= errdex_model::Severity::Warning;
    let fixed = |(_, values): &(&str, Vec<&str>)| values.iter().all(|v| is_fixed_value(v));
    if let Some((subject, values)) = handled_values(&innermost).filter(|_| in_else).filter(fixed) {
        // A constant is shown with the text a person writes.
        let shown = |v: &str| match f.guard_constants.iter().find(|c| c.name == v) {
            Some(c) => format!("{} (`{:?}`)", code(v), c.value),
            None => code(v),
        };
        let values: Vec<String> = values.iter().map(|v| shown(v)).collect();
        out.push(format!(
            "Give {} one of the values the code handles: {}.",
            code(subject),
            values.join(", ")
        ));
    }
    // A site that reports a call's failure happens because the call
    // failed: the other guards say where the call runs, not why it fails.
    let failed = f
        .wrapped_call
        .as_deref()
        .filter(|_| f.guards.iter().any(|g| crate::is_err_check(g)));
    if let Some(step) = failed
        .filter(|_| look_into && !runtime_known)
        .and_then(|call| crate::printed::failed_call_step(cx, call))
    {
        out.push(step);
    }
    let params = crate::asks::parameters(f.signature.as_deref().unwrap_or_default());
    let named_flags = crate::flagged::Flags::of(&cx.literal, &f.flag_vars);
    let flag_step = |g: &str| crate::flagged::step(&named_flags, g);
    for g in cx
        .guards()
        .into_iter()
        .filter(|g| (!crate::is_mode_flag(g) || flag_step(g).is_some()) && none_of(g).is_none())
        .take(2)
    {
        // A guard with no action is only worth looking into when the
        // message asks for nothing itself.
        let look = || {
            // In a text method a guard picks which words the text has.
            let picks_words = cx.is_text_method();
            (look_into && failed.is_none() && !is_presence(g) && !picks_words).then(|| {
                format!(
                    "Find out why {} when the code runs: that condition leads to this {}.{}{}",
                    condition(g),
                    cx.noun(),
                    given_by(cx, g, &params),
                    crate::settings::keys_sentence(cx, g)
                )
            })
        };
        out.extend(
            flag_step(g)
                .or_else(|| crate::given::field_step(cx, g))
                .or_else(|| crate::settings::option_step(cx, g))
                .or_else(|| crate::settings::conflict_step(cx, g))
                .or_else(|| crate::lookups::step(cx, g))
                .or_else(|| crate::asks::action(g, &cx.literal, &params))
                .or_else(look),
        );
    }
    out
}

/// A test that a value is there (`value is not None`, `conn != nil`,
/// `opts !== undefined`): the path where a caller gave it, not a cause
/// to look into. An error's test is the failure itself.
fn is_presence(g: &str) -> bool {
    let g = crate::asks::without_double_negation(g.trim());
    let absent = [
        " is not None",
        " != None",
        " != null",
        " !== null",
        " !== undefined",
    ];
    absent.iter().any(|s| g.ends_with(s))
        || g.ends_with(" != nil") && !crate::is_err_check(&g) && !g.contains(['&', '|'])
}

/// Who gives the value guard `g` of the primary site reads, when it is
/// a local computed from a parameter: ` \`n\` is set from the parameter
/// \`p\` by \`n = p.split()\`.`
fn given_by(cx: &Cx<'_>, g: &str, params: &[&str]) -> String {
    if !cx.f.guards.iter().any(|own| own == g) {
        return String::new();
    }
    let names = crate::asks::names(g).filter(|n| !n.contains('.'));
    let mut origins = names.filter_map(|n| cx.origin_of(n, params));
    match origins.next() {
        Some(o) => format!(
            " {} is set from the parameter {} by {}.",
            code(o.local),
            code(o.param),
            o.shown()
        ),
        None => String::new(),
    }
}

/// Command-line flags the message names (`--auth-token`, `-w`).
pub(crate) fn flags(literal: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in literal.split(|c: char| c.is_whitespace() || "\"'`,()[]".contains(c)) {
        let w = w
            .split('=')
            .next()
            .unwrap_or(w)
            .trim_end_matches([':', '.']);
        let name = w.trim_start_matches('-');
        let dashes = w.len() - name.len();
        if (dashes == 2 && name.len() >= 2 || dashes == 1 && name.len() == 1)
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !out.iter().any(|f| f == w)
        {
            out.push(w.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests;
