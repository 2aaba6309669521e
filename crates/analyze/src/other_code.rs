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
fn parts<'a>(cx: &Cx<'a>) -> Option<(&'a str, String)> {
    let class = cx.r.error_class.as_deref()?;
    let f = call_of(cx.function?)?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_.:\\".contains(&c))
    };
    (ok(class) && ok(&f)).then_some((class, f))
}

/// How a caller calls the site's function: a plain function by its name;
/// a method on a value of its type (`Client.open` → `client.open`); a
/// Python constructor by its class (`Client.__init__` → `Client`). Other
/// special methods (`__str__`) are called by the language, not by name:
/// none.
fn call_of(function: &str) -> Option<String> {
    if function.contains("<locals>") {
        return None; // a nested function: only its outer function calls it
    }
    let Some((owner, method)) = function.rsplit_once('.') else {
        return Some(function.to_string());
    };
    let owner = owner.rsplit('.').next().unwrap_or(owner);
    if method == "__init__" {
        return Some(owner.to_string());
    }
    if method.starts_with("__") {
        return None;
    }
    // A private type's value is named without the underscore.
    Some(format!(
        "{}.{method}",
        lower_first(owner.trim_start_matches('_'))
    ))
}

/// A value's name from its type's: the leading capitals lowered, all but
/// the one that starts the next word (`Client` → `client`, `HTTPClient` →
/// `httpClient`, `URL` → `url`).
fn lower_first(name: &str) -> String {
    let caps = name.chars().take_while(|c| c.is_uppercase()).count();
    let lower = match caps {
        0 => return name.to_string(),
        n if n == name.chars().count() => n,
        1 => 1,
        n => n - 1,
    };
    name.chars()
        .enumerate()
        .map(|(i, c)| if i < lower { c.to_ascii_lowercase() } else { c })
        .collect()
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

/// Raised or answered with its own class; a text kept in a value
/// (`msg = "…"`) may end in a log as well as an exception.
fn catchable(cx: &Cx<'_>) -> bool {
    matches!(cx.r.error_type, ErrorType::Exception | ErrorType::Http) && cx.r.sites[0].callee != "="
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
    if lazy(cx.f.signature.as_deref().unwrap_or_default()) {
        return None;
    }
    let (class, function) = parts(cx)?;
    let note = comment(code, &cx.r.error_message);
    let snippet = code.try_catch(
        class,
        &function,
        &note,
        cx.advice().is_some_and(|f| f.transient),
    );
    // A property's setter runs on assignment (`builder.base_url = …`).
    Some(if cx.f.setter {
        snippet.replace(&format!("{function}(...)"), &format!("{function} = ..."))
    } else {
        snippet
    })
}

/// A function that returns an iterator or generator (by its annotation,
/// `-> t.Iterator[str]`): a generator raises when it is iterated, not when
/// it is called, so a `try` around the call alone would catch nothing.
fn lazy(signature: &str) -> bool {
    signature.rsplit_once("->").is_some_and(|(_, ret)| {
        ["Iterator", "Generator", "Iterable"]
            .iter()
            .any(|t| ret.contains(t))
    })
}

/// Validation snippets need the guard's language-level meaning; only Go's
/// writer has it so far.
pub(crate) fn validation(_cx: &Cx<'_>) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generator_is_not_wrapped_at_its_call() {
        assert!(lazy(
            "def find_modules(import_path: str) -> t.Iterator[str]:"
        ));
        assert!(lazy("def walk(self) -> Generator[int, None, None]:"));
        assert!(!lazy("def parse(self, text: str) -> Rule:"));
        assert!(!lazy("def f(items: Iterable[str]) -> int:"));
    }

    #[test]
    fn a_method_is_called_on_a_value_of_its_type() {
        assert_eq!(call_of("parse").as_deref(), Some("parse"));
        assert_eq!(call_of("Client.open").as_deref(), Some("client.open"));
        assert_eq!(
            call_of("HTTPClient.send").as_deref(),
            Some("httpClient.send")
        );
        assert_eq!(call_of("Map.__init__").as_deref(), Some("Map"));
        assert_eq!(call_of("Rule.__str__"), None);
        assert_eq!(
            call_of("_Accessor.lookup").as_deref(),
            Some("accessor.lookup")
        );
        assert_eq!(lower_first("URL"), "url");
    }
}
