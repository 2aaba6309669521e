//! Code fields for the languages that catch or match an error by its class
//! (exceptions, and Rust's `Result`): catch the class around a call of the
//! function that raises it, or recognise it by type in a handler, with the
//! language's own writers ([`HandlerCode`]). Each snippet is a complete
//! fragment that parses in its language (tests check it with the
//! language's grammar). Nothing is written where the facts do not name the
//! class or the function.

use crate::Cx;
use errdex_lang::HandlerCode;
use errdex_model::ErrorType;

/// The class as the language names it in a handler, and the call that
/// raises the error.
fn parts<'a>(cx: &Cx<'a>) -> Option<(&'a str, &'a str)> {
    let class = cx.r.error_class.as_deref()?;
    let f = cx.fname?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_.:\\".contains(&c))
    };
    (ok(class) && ok(f)).then_some((class, f))
}

/// A comment line for the message in the language's comment syntax.
fn comment(code: &HandlerCode, text: &str) -> String {
    let one: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "* /");
    let one: String = one.chars().take(100).collect();
    format!("{}{one}", code.comment)
}

fn catchable(cx: &Cx<'_>) -> bool {
    matches!(cx.r.error_type, ErrorType::Exception | ErrorType::Http)
}

/// Code that recognises the error in a handler by its class.
pub(crate) fn type_guard(cx: &Cx<'_>, code: &HandlerCode) -> Option<String> {
    if !catchable(cx) {
        return None;
    }
    let (class, _) = parts(cx)?;
    let note = comment(code, &format!("{}: {}", class, cx.r.error_message));
    Some(code.type_guard(class, &note))
}

/// Code that handles the error where the function is called.
pub(crate) fn try_catch(cx: &Cx<'_>, code: &HandlerCode) -> Option<String> {
    if !catchable(cx) {
        return None;
    }
    let (class, function) = parts(cx)?;
    let note = comment(code, &cx.r.error_message);
    Some(code.try_catch(class, function, &note, cx.family.transient))
}

/// Validation snippets need the guard's language-level meaning; only Go's
/// writer has it so far.
pub(crate) fn validation(_cx: &Cx<'_>) -> Option<String> {
    None
}
