//! Prevention tips: what keeps a record's error from happening again,
//! from the construct's idiom, the family, how the message wraps its
//! cause and how the program goes on after it.

use crate::prose::code;
use crate::Cx;
use errdex_model::ErrorType;

/// The record's prevention tips, at most five.
pub(crate) fn prevention(cx: &Cx<'_>) -> Vec<String> {
    let f = cx.f;
    if let Some(d) = &cx.idiom {
        return d.prevention.clone();
    }
    let mut out: Vec<String> = cx
        .advice()
        .map_or(&[][..], |f| f.prevention)
        .iter()
        .map(|s| s.to_string())
        .collect();
    if let Some((hole, _)) = &cx.chain {
        if !hole.verb.ends_with('w') && cx.r.sites[0].callee == "fmt.Errorf" {
            out.push(format!(
                "Wrap the cause with `%w` instead of {} so callers can test it with `errors.Is`.",
                code(&hole.verb)
            ));
        }
    }
    if crate::go_code::wants_sentinel(cx) && !crate::is_generated(&cx.r.sites[0].file_path) {
        out.push("Declare the error once as a package-level sentinel (`var errX = errors.New(…)`) so callers can recognise it with `errors.Is` instead of comparing text.".to_string());
    }
    if f.in_loop && !f.returned && cx.advice().is_some_and(|f| f.transient) {
        out.push(
            "Back off between attempts in the loop so a lasting failure does not spin.".to_string(),
        );
    }
    if let Some(exit) = cx.exit_after().filter(|_| out.is_empty()) {
        out.push(format!(
            "The program exits after this message ({}): prevent it by removing the condition it reports.",
            code(exit)
        ));
    }
    if out.is_empty() && cx.is_warning() {
        let category = cx.r.error_class.as_deref().unwrap_or("Warning");
        out.push(format!(
            "This is a Python warning, not an error returned to a caller: prevent it by removing the condition it reports; {} turns it into an exception while you look for where it comes from.",
            code(&format!("warnings.simplefilter(\"error\", {category})"))
        ));
    }
    if out.is_empty() && only_logged(cx) {
        // No caller gets this message as an error to handle.
        out.push(
            "This message is logged, not returned to a caller: prevent it by removing the condition it reports."
                .to_string(),
        );
    }
    if out.is_empty() {
        out.extend(
            crate::family::FALLBACK
                .prevention
                .iter()
                .map(|s| s.to_string()),
        );
    }
    out.truncate(5);
    out
}

/// Every site logs the message below the fatal level: no error value
/// carries it to a caller (the function may still exit or fail later).
fn only_logged(cx: &Cx<'_>) -> bool {
    cx.r.error_type == ErrorType::Log
        && cx.r.severity > errdex_model::Severity::Critical
        && cx.r.sites.iter().all(|s| s.error_type == ErrorType::Log)
}
