//! Code fields for the languages with exceptions (and Rust's `Result`, C's
//! return codes): catch the error's class around a call of the function
//! that raises it, or recognise it by type in a handler. Each snippet is
//! a complete fragment that parses in its language (tests check it with
//! the language's grammar). Nothing is written where the facts do not name
//! the class or the function.

use crate::Cx;
use errdex_model::{ErrorType, Lang};

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
fn comment(lang: Lang, text: &str) -> String {
    let one: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "* /");
    let one: String = one.chars().take(100).collect();
    match lang {
        Lang::Python | Lang::Ruby => format!("# {one}"),
        _ => format!("// {one}"),
    }
}

fn catchable(cx: &Cx<'_>) -> bool {
    matches!(cx.r.error_type, ErrorType::Exception | ErrorType::Http)
}

/// Code that recognises the error in a handler by its class.
pub(crate) fn type_guard(cx: &Cx<'_>) -> Option<String> {
    if !catchable(cx) {
        return None;
    }
    let (class, _) = parts(cx)?;
    let lang = cx.r.language;
    let note = comment(lang, &format!("{}: {}", class, cx.r.error_message));
    Some(match lang {
        Lang::Python => format!("if isinstance(exc, {class}):\n    {note}\n    raise"),
        Lang::JavaScript | Lang::TypeScript => {
            format!("if (err instanceof {class}) {{\n  {note}\n  throw err;\n}}")
        }
        Lang::Java => format!("if (e instanceof {class}) {{\n    {note}\n    throw e;\n}}"),
        Lang::Kotlin => format!("if (e is {class}) {{\n    {note}\n    throw e\n}}"),
        Lang::Scala => format!("e match {{\n  case err: {class} =>\n    {note}\n    throw err\n  case other => throw other\n}}"),
        Lang::CSharp => format!("if (e is {class}) {{\n    {note}\n    throw;\n}}"),
        Lang::Ruby => format!("if e.is_a?({class})\n  {note}\n  raise\nend"),
        Lang::Php => format!("<?php\nif ($e instanceof {class}) {{\n    {note}\n    throw $e;\n}}"),
        Lang::Cpp => format!(
            "void handle(const std::exception& e) {{\n    if (dynamic_cast<const {class}*>(&e)) {{\n        {note}\n    }}\n}}"
        ),
        Lang::Rust => {
            let pattern = if class.contains("::") {
                format!("{class} {{ .. }}")
            } else {
                format!("{class}(..)")
            };
            format!(
                "fn handle(err: &Error) {{\n    if matches!(err, {pattern}) {{\n        {note}\n    }}\n}}"
            )
        }
        Lang::C | Lang::Go => return None,
    })
}

/// Code that handles the error where the function is called.
pub(crate) fn try_catch(cx: &Cx<'_>) -> Option<String> {
    if !catchable(cx) {
        return None;
    }
    let (class, f) = parts(cx)?;
    let lang = cx.r.language;
    let note = comment(lang, &cx.r.error_message);
    let retry = cx.family.transient;
    Some(match lang {
        Lang::Python => {
            let then = if retry { "# Usually transient: retry with backoff.\n    raise" } else { "raise" };
            format!("try:\n    {f}(...)\nexcept {class} as exc:\n    {note}\n    {then}")
        }
        Lang::JavaScript | Lang::TypeScript => format!(
            "try {{\n  {f}();\n}} catch (err) {{\n  if (err instanceof {class}) {{\n    {note}\n  }}\n  throw err;\n}}"
        ),
        Lang::Java => format!(
            "try {{\n    {f}();\n}} catch ({class} e) {{\n    {note}\n    throw e;\n}}"
        ),
        Lang::Kotlin => format!(
            "try {{\n    {f}()\n}} catch (e: {class}) {{\n    {note}\n    throw e\n}}"
        ),
        Lang::Scala => format!(
            "try {{\n  {f}()\n}} catch {{\n  case e: {class} =>\n    {note}\n    throw e\n}}"
        ),
        Lang::CSharp => format!(
            "try\n{{\n    {f}();\n}}\ncatch ({class} e)\n{{\n    {note}\n    throw;\n}}"
        ),
        Lang::Ruby => format!("begin\n  {f}\nrescue {class} => e\n  {note}\n  raise\nend"),
        Lang::Php => format!(
            "<?php\ntry {{\n    {f}();\n}} catch ({class} $e) {{\n    {note}\n    throw $e;\n}}"
        ),
        Lang::Cpp => format!(
            "void caller() {{\n    try {{\n        {f}();\n    }} catch (const {class}& e) {{\n        {note}\n        throw;\n    }}\n}}"
        ),
        Lang::Rust => format!(
            "fn caller() -> Result<(), Box<dyn std::error::Error>> {{\n    if let Err(err) = {f}() {{\n        {note}\n        return Err(err.into());\n    }}\n    Ok(())\n}}"
        ),
        Lang::C | Lang::Go => return None,
    })
}

/// Validation snippets need the guard's language-level meaning; only Go's
/// writer has it so far.
pub(crate) fn validation(_cx: &Cx<'_>) -> Option<String> {
    None
}
