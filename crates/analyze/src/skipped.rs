//! A message after which its loop goes on to the next item (a
//! `continue` follows it): the code reports an item it leaves out and
//! does not stop. Users want to know that only that item is lost, and
//! how to make the message stop. Whether losing the item matters is the
//! program's business, so the text does not say it is harmless.

use crate::prose::code;
use crate::Cx;
use errdex_model::{ErrorType, Severity};

/// What the loop goes over, read from its first line: `names` of
/// `for _, name := range names`, `for name in names`, `for (const n of
/// names)` and `for (String n : names)`.
fn collection(header: &str) -> Option<&str> {
    let h = header.trim().trim_end_matches(['{', ':']).trim();
    let h = h.strip_suffix(')').unwrap_or(h);
    let at = [" range ", " in ", " of ", " : "]
        .iter()
        .filter_map(|sep| h.rfind(sep).map(|i| i + sep.len()))
        .max()?;
    let c = h[at..].trim();
    (!c.is_empty() && !c.contains(['(', ' '])).then_some(c)
}

/// The header of the primary site's loop and what it goes over, when
/// every site is a log line after which a loop over a collection goes
/// on to its next item. A retry loop (`for {`) tries again rather than
/// leaving an item out, an error made there is kept for later, and a
/// fatal log stops the program: none of them is an item skipped.
fn skipped<'a>(cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    let r = cx.r;
    let logged = r.error_type == ErrorType::Log && r.severity != Severity::Critical;
    let every = r.sites.iter().all(|s| s.facts.skips_item.is_some());
    let header = cx.f.skips_item.as_deref().filter(|_| logged && every)?;
    Some((header, collection(header)?))
}

/// The documentation's sentence: the loop goes on.
pub(crate) fn sentence(cx: &Cx<'_>) -> Option<String> {
    let (header, over) = skipped(cx)?;
    Some(format!(
        "After it the loop goes on to the next item of {} ({}): {} leaves this one out and does not stop.",
        code(over),
        code(header),
        function(cx)
    ))
}

/// The step: the run goes on without the item; fix it, or take it out.
pub(crate) fn step(cx: &Cx<'_>) -> Option<String> {
    let (_, over) = skipped(cx)?;
    let over = code(over);
    Some(format!(
        "The run goes on: {} leaves out the item the message reports and carries on with the rest of {over}; only that item is lost. If it belongs there, fix what the message says about it; if not, take it out of {over} to stop the message.",
        function(cx)
    ))
}

fn function(cx: &Cx<'_>) -> String {
    cx.fname.map(code).unwrap_or_else(|| "the code".into())
}

#[cfg(test)]
mod tests {
    use super::collection;

    #[test]
    fn the_collection_is_read_from_each_languages_loop() {
        assert_eq!(collection("for _, name := range names"), Some("names"));
        assert_eq!(collection("for name in names"), Some("names"));
        assert_eq!(collection("for (const p of paths)"), Some("paths"));
        assert_eq!(collection("for (String s : c.items)"), Some("c.items"));
        assert_eq!(collection("for i := 0; i < n; i++"), None);
        assert_eq!(collection("for k, v in sorted(d.items())"), None);
    }
}
