//! What the analysis says of a record's causes (`causes[]`, the cause
//! graph's): the site the wrapped error comes from, the standard-library
//! call that fails at the end, its reasons from the knowledge base with
//! the values the code fixes, and the commands that check each. Every
//! sentence names a cause the graph found; none guesses.

use crate::prose::code;
use errdex_model::Cause;

/// Runtime causes considered, most likely first.
const MAX_LEAVES: usize = 3;

/// The record's runtime causes with their entries, most likely first.
fn leaves(causes: &[Cause]) -> Vec<(&Cause, &'static errdex_kb::Entry)> {
    causes
        .iter()
        .filter_map(|c| Some((c, errdex_kb::get(c.knowledge.as_deref()?)?)))
        .take(MAX_LEAVES)
        .collect()
}

/// The topic words of a runtime cause's failing call (`port`, `bind`).
fn topic(c: &Cause) -> &'static [String] {
    c.path
        .last()
        .map_or(&[], |name| errdex_kb::topic("go", name))
}

/// The failing call of a runtime cause (`net.Listen`), with its known
/// values (`on 127.0.0.1:3986`).
fn failing_call(c: &Cause) -> String {
    let call = c.path.last().map_or(String::new(), |p| code(p));
    let values: Vec<&str> = c
        .values
        .iter()
        .map(|v| v.split_once(" = ").map_or(v.as_str(), |(_, x)| x))
        .collect();
    match values[..] {
        [] => call,
        _ => format!("{call} on {}", values.join(", ")),
    }
}

/// The function a cause's call is made in: the last but one of its path.
fn caller(c: &Cause) -> Option<&str> {
    let n = c.path.len();
    (n >= 2).then(|| c.path[n - 2].as_str())
}

/// The repository's sites the wrapped error comes from at the nearest
/// depth (at most three): the sites the wrapped call itself returns.
fn nearest_sites(causes: &[Cause]) -> Vec<&Cause> {
    nearest(causes.iter())
}

/// The repository's sites among `causes` at the nearest depth (at most
/// three).
fn nearest<'c>(causes: impl Iterator<Item = &'c Cause> + Clone) -> Vec<&'c Cause> {
    let sites = causes.filter(|c| c.record_id.is_some());
    let Some(depth) = sites.clone().map(|c| c.path.len()).min() else {
        return Vec::new();
    };
    sites.filter(|c| c.path.len() == depth).take(3).collect()
}

/// Whether the repository's own checks are among the nearest causes: a
/// site that does not carry another error (`URL scheme must be …`, not
/// `listening on %s: %w`) fails on its own, beside the runtime call.
fn own_checks(causes: &[Cause]) -> bool {
    nearest_sites(causes).iter().any(|c| {
        let p = &c.message_pattern;
        !(p.contains("%w") || p.ends_with(": %v"))
    })
}

/// The texts the failing call of `first` fails with, among `leaves`
/// (another call's texts belong to another sentence).
fn reasons_of(leaves: &[(&Cause, &errdex_kb::Entry)], first: &Cause) -> Vec<String> {
    leaves
        .iter()
        .filter(|(c, _)| c.path == first.path && c.line_number == first.line_number)
        .map(|(c, _)| code(&c.message_pattern))
        .collect()
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A sentence for "What it means": where the wrapped error comes from and
/// why, in the end, it happens. A message that does not carry the error
/// (`carried` false) reports the failure in its own words.
pub(crate) fn meaning(causes: &[Cause], carried: bool) -> Option<String> {
    let leaves = leaves(causes);
    let sites = nearest_sites(causes);
    let what = if carried {
        "The error it wraps"
    } else {
        "The failure it reports"
    };
    let mut out = match &sites[..] {
        [s] => format!(
            "{what} comes from {}, reached through {}",
            site_text(s),
            code(&s.path.join(" → "))
        ),
        [] if leaves.is_empty() => return None,
        [] => format!("{what} comes from the standard library"),
        more => {
            let texts: Vec<String> = more.iter().map(|s| site_text(s)).collect();
            // The calls every one is reached through: the paths part
            // where the errors come from different calls.
            let shared = more[0]
                .path
                .iter()
                .enumerate()
                .take_while(|(i, p)| more.iter().all(|s| s.path.get(*i) == Some(*p)))
                .count()
                .max(1);
            format!(
                "The errors {} returns include {}",
                code(&more[0].path[..shared].join(" → ")),
                join_or(&texts)
            )
        }
    };
    if let Some((c, first)) = leaves.first() {
        let reasons = reasons_of(&leaves, c);
        // With the repository's own checks among the causes, the runtime
        // call is one way it fails, and which is likelier is unknown.
        let own = own_checks(causes);
        let likely = if !own {
            ", which fails when"
        } else {
            "; or it fails when"
        };
        out.push_str(&format!(
            "{likely} {}{} fails: {} {} ({}: {})",
            failing_call(c),
            caller(c).map_or(String::new(), |f| format!(" in {}", code(f))),
            if own { "with" } else { "most likely" },
            code(&c.message_pattern),
            first.key,
            as_clause(first.cause_for(topic(c)).unwrap_or(first.meaning.as_str())),
        ));
        if reasons.len() > 1 {
            out.push_str(&format!(", else {}", join_or(&reasons[1..])));
        }
    }
    out.push('.');
    for s in sites.iter().filter(|s| s.comment.is_some()).take(2) {
        let comment = s
            .comment
            .as_deref()
            .unwrap_or_default()
            .trim_end_matches('.');
        out.push_str(&format!(
            " The code says of {}: “{comment}.”",
            code(&s.message_pattern)
        ));
    }
    Some(out)
}

/// A site cause as a sentence names it: `` `no such entry`
/// (store/store.go:40, when `key == ""`)``.
fn site_text(s: &Cause) -> String {
    let when = match &s.when {
        Some(w) => format!(", when {}", code(w)),
        None => String::new(),
    };
    format!(
        "{} ({}:{}{when})",
        code(&s.message_pattern),
        s.file_path,
        s.line_number
    )
}

/// The repository's errors the failed call `call` is known to end in,
/// for a step that looks into it: `` with `no such entry`
/// (store/store.go:40)``. A record of several sites pools their causes:
/// only those reached through `call` are its.
pub(crate) fn failing_with(causes: &[Cause], call: &str) -> Option<String> {
    let through = causes
        .iter()
        .filter(|c| c.path.first().is_some_and(|p| p == call));
    let texts: Vec<String> = nearest(through).iter().map(|s| site_text(s)).collect();
    (!texts.is_empty()).then(|| format!("with {}", join_or(&texts)))
}

/// A sentence as a clause inside another: its stop dropped, its first
/// letter lowered unless it starts an acronym or a name (`TCP`).
fn as_clause(s: &str) -> String {
    let s = s.trim_end_matches('.');
    let mut c = s.chars();
    match c.next() {
        // An acronym or a name in capitals stays (`TCP`, `SELinux`).
        Some(_) if c.clone().next().is_some_and(|n| n.is_uppercase()) => s.to_string(),
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A clause for "When it happens": the failing call at the end.
pub(crate) fn trigger(causes: &[Cause]) -> Option<String> {
    let leaves = leaves(causes);
    let (c, _) = leaves.first()?;
    let reasons = reasons_of(&leaves, c);
    let how = if !own_checks(causes) {
        "In the end it is"
    } else {
        "Besides the repository's own checks, it can be"
    };
    Some(format!(
        "{how} {} at {}:{} that fails, with {}.",
        failing_call(c),
        c.file_path,
        c.line_number,
        join_or(&reasons)
    ))
}

/// A sentence for "Common situations": the most likely cause's typical
/// situation, from the knowledge base.
pub(crate) fn situation(causes: &[Cause]) -> Option<String> {
    if own_checks(causes) {
        return None; // the repository's checks may well come first
    }
    let (c, e) = leaves(causes).into_iter().next()?;
    let cause = e.cause_for(topic(c))?;
    Some(format!(
        "Most often {} fails with {} because: {}",
        failing_call(c),
        code(&c.message_pattern),
        as_clause(cause) + "."
    ))
}

/// Solutions, most likely cause first, each with the knowledge base's
/// command filled with the known values.
pub(crate) fn solutions(causes: &[Cause]) -> Vec<String> {
    leaves(causes)
        .into_iter()
        .filter_map(|(c, e)| {
            let remedy = e.remedy_for(topic(c))?;
            let mut s = format!(
                "If the log says {} ({}): {}",
                code(&c.message_pattern),
                e.key,
                remedy.action
            );
            if let Some(run) = &remedy.run {
                s.push_str(&format!(" {}", code(&errdex_kb::fill(run, &c.values))));
            }
            Some(s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_checks_beside_a_runtime_call_make_it_one_way_among_others() {
        let own = Cause {
            message_pattern: "URL scheme must be http or https: %s".into(),
            record_id: Some("r1".into()),
            knowledge: None,
            file_path: "types/urls.go".into(),
            line_number: 40,
            path: vec!["types.NewURLs".into()],
            values: vec![],
            when: None,
            comment: None,
            translated_at: None,
        };
        let parse = Cause {
            message_pattern: "missing protocol scheme".into(),
            knowledge: Some("go/url.missing-scheme".into()),
            path: vec!["types.NewURLs".into(), "url.Parse".into()],
            record_id: None,
            file_path: "types/urls.go".into(),
            line_number: 35,
            values: vec![],
            when: None,
            comment: None,
            translated_at: None,
        };
        let port = Cause {
            message_pattern: "address {addr}: missing port in address".into(),
            knowledge: Some("go/net.AddrError.missing-port".into()),
            path: vec!["types.NewURLs".into(), "net.SplitHostPort".into()],
            line_number: 43,
            ..parse.clone()
        };
        let causes = [own.clone(), parse, port];
        assert!(own_checks(&causes));
        assert!(situation(&causes).is_none());
        let t = trigger(&causes).unwrap();
        assert!(!t.contains("In the end"), "{t}");
        // Each failing call with its own texts.
        assert!(
            t.contains(
                "`url.Parse` at types/urls.go:35 that fails, with `missing protocol scheme`."
            ),
            "{t}"
        );
        assert!(!meaning(&causes, true).unwrap().contains("missing port"));
        // A site that carries the runtime error wraps it: no alternative.
        let wraps = Cause {
            message_pattern: "listening on %s: %w".into(),
            ..own
        };
        assert!(!own_checks(&[wraps, errdex_testkit::listen_cause()]));
    }

    #[test]
    fn a_runtime_cause_is_named_with_its_values_and_command() {
        let causes = vec![errdex_testkit::listen_cause()];
        let meaning = meaning(&causes, true).unwrap();
        assert!(
            meaning.contains("`net.Listen` on 127.0.0.1:3986 in `serveReadinessOnAddr` fails"),
            "{meaning}"
        );
        assert!(
            meaning.contains(
                "most likely `address already in use` (errno/EADDRINUSE: another process"
            ),
            "{meaning}"
        );
        let s = solutions(&causes);
        assert!(s[0].contains("ss -ltnp 'sport = :3986'"), "{s:?}");
        assert!(trigger(&causes)
            .unwrap()
            .contains("channels/pkg/cmd/readiness.go:67"));
    }
}
