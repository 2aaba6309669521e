//! Code fields in the record's own language, by how the language handles
//! errors (its [`Handling`]): Go's writer knows sentinels, wrapping and
//! `errors.As`; the exception languages share one writer that catches the
//! error's class around the call that raises it.

use crate::{go_code, other_code, Cx};
use errdex_lang::Handling;

/// A corrected version of the site, where the facts show a fix.
pub(crate) fn example_fix(cx: &Cx<'_>) -> Option<String> {
    if cx.cannot_happen() {
        return None;
    }
    match cx.handling() {
        Handling::ErrorValues => go_code::example_fix(cx),
        Handling::ByClass(_) | Handling::Unwritten => None,
    }
}

/// Code that checks the input before the call, where a guard shows how.
pub(crate) fn validation(cx: &Cx<'_>) -> Option<String> {
    if cx.cannot_happen() {
        return None;
    }
    match cx.handling() {
        Handling::ErrorValues => go_code::validation(cx),
        Handling::ByClass(_) | Handling::Unwritten => other_code::validation(cx),
    }
}

/// Code that recognises the error in a caller.
pub(crate) fn type_guard(cx: &Cx<'_>) -> Option<String> {
    if cx.cannot_happen() || cx.stopped_by_callers() {
        return None;
    }
    match cx.handling() {
        Handling::ErrorValues => go_code::type_guard(cx),
        Handling::ByClass(code) => other_code::type_guard(cx, &code),
        Handling::Unwritten => None,
    }
}

/// Code that handles the error where the function is called.
pub(crate) fn try_catch(cx: &Cx<'_>) -> Option<String> {
    if cx.cannot_happen() || cx.stopped_by_callers() {
        return None;
    }
    match cx.handling() {
        Handling::ErrorValues => go_code::try_catch(cx),
        Handling::ByClass(code) => other_code::try_catch(cx, &code),
        Handling::Unwritten => None,
    }
}
