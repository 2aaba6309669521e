//! What the analysis says from what the code prints or fails with around
//! a site, beside its guards: the lines the program prints right after
//! the message (often the authors' own reason and remedy), and the call
//! whose failure the message reports.

use crate::prose::code;
use crate::Cx;

/// Words of a line that tells the reader what to do.
const ADVICE_WORDS: &[&str] = &[
    "please", "check", "try", "use", "ensure", "make", "run", "set", "consider", "remove",
    "delete", "restart", "increase", "verify", "see", "install", "upgrade", "should", "must",
];

/// The authors' own remedy, when the lines printed right after the
/// message give one ("Please check the given data dir path if the
/// previous bootstrap succeeded").
pub(crate) fn advice_printed_next(f: &errdex_model::SiteFacts) -> Option<String> {
    let advice: Vec<String> = f
        .prints_next
        .iter()
        .filter(|line| {
            crate::family::words(line)
                .iter()
                .any(|w| ADVICE_WORDS.contains(&w.as_str()))
        })
        .cloned()
        .collect();
    (!advice.is_empty()).then(|| {
        format!(
            "Do what the program advises right after this message: {}.",
            quoted(&advice)
        )
    })
}

/// Printed lines as quotes: “a” and “b”.
pub(crate) fn quoted(lines: &[String]) -> String {
    let q: Vec<String> = lines
        .iter()
        .map(|l| format!("“{}”", l.trim().trim_end_matches('.')))
        .collect();
    match &q[..] {
        [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// The step that looks into the failed call `call`: the repository's
/// errors it ends in, when the cause graph knows them; for a message
/// that does not carry the call's error, the call itself.
pub(crate) fn failed_call_step(cx: &Cx<'_>, call: &str) -> Option<String> {
    match crate::leaves::failing_with(&cx.r.causes, call) {
        Some(with) => Some(format!(
            "Find out why {} fails there: it fails {with}.",
            code(call)
        )),
        // A structured logger carries the error as a field of the line
        // (`zap.Error(err)` writes `error`), not in the message.
        None if cx.chain.is_none() => Some(match error_field(cx) {
            Some(field) => format!(
                "Find out why {} fails there: the log line's {} field carries the error it returned, which says why.",
                code(call),
                code(field)
            ),
            None => format!(
                "Find out why {} fails there: the text leaves out the error it returned, which says why.",
                code(call)
            ),
        }),
        None => None,
    }
}

/// The field of a structured log line that carries an error, when every
/// site writes one (`zap.Error(err)` as `error`, `"err", err` pairs).
fn error_field<'a>(cx: &Cx<'a>) -> Option<&'a str> {
    let field =
        cx.f.fields
            .iter()
            .find(|f| matches!(f.as_str(), "error" | "err"))?;
    cx.r.sites
        .iter()
        .all(|s| s.facts.fields.contains(field))
        .then_some(field.as_str())
}
