//! Code fields in the record's own language: Go's writer knows sentinels,
//! wrapping and `errors.As`; the exception languages share one writer
//! that catches the error's class around the call that raises it.

use crate::{go_code, other_code, Cx};
use errdex_model::Lang;

/// A corrected version of the site, where the facts show a fix.
pub(crate) fn example_fix(cx: &Cx<'_>) -> Option<String> {
    match cx.r.language {
        Lang::Go => go_code::example_fix(cx),
        _ => None,
    }
}

/// Code that checks the input before the call, where a guard shows how.
pub(crate) fn validation(cx: &Cx<'_>) -> Option<String> {
    match cx.r.language {
        Lang::Go => go_code::validation(cx),
        _ => other_code::validation(cx),
    }
}

/// Code that recognises the error in a caller.
pub(crate) fn type_guard(cx: &Cx<'_>) -> Option<String> {
    match cx.r.language {
        Lang::Go => go_code::type_guard(cx),
        _ => other_code::type_guard(cx),
    }
}

/// Code that handles the error where the function is called.
pub(crate) fn try_catch(cx: &Cx<'_>) -> Option<String> {
    match cx.r.language {
        Lang::Go => go_code::try_catch(cx),
        _ => other_code::try_catch(cx),
    }
}
