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
        .filter(|tip| !(tip.contains("configuration files") && from_the_network(&cx.literal)))
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
    // A piece handed to another function is printed the way that one
    // prints: logged, warned or raised.
    if out.is_empty() && only_logged(cx) && cx.f.fills.is_none() {
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

/// Words of data another program sent (`failed to unmarshal the
/// response body`): no configuration file of the user's is read there,
/// and checking one in CI prevents nothing. A message that also names a
/// file or configuration keeps that tip.
fn from_the_network(literal: &str) -> bool {
    let words = crate::family::words(literal);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    has(&[
        "response", "request", "reply", "body", "peer", "server", "payload",
    ]) && !has(&["config", "configuration", "file", "conf", "settings"])
}

/// Every site logs the message below the fatal level: no error value
/// carries it to a caller (the function may still exit or fail later).
fn only_logged(cx: &Cx<'_>) -> bool {
    cx.r.error_type == ErrorType::Log
        && cx.r.severity > errdex_model::Severity::Critical
        && cx.r.sites.iter().all(|s| s.error_type == ErrorType::Log)
}

#[cfg(test)]
mod tests {
    use super::from_the_network;

    #[test]
    fn data_another_program_sent_is_no_configuration_file() {
        assert!(from_the_network(
            "failed to unmarshal the response body got from the peer"
        ));
        assert!(from_the_network("could not unmarshal cluster response: %v"));
        assert!(!from_the_network("failed to parse config file %s: %v"));
        assert!(!from_the_network(
            "invalid character in the server's configuration"
        ));
        assert!(!from_the_network("yaml: unmarshal errors"));
    }
}
