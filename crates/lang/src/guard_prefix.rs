//! Text a guard proves a hole starts with. Under `if (strpos($callable,
//! '@composer ') === 0)` a message's `%s` of `$callable` prints
//! `@composer …`: the prefix is literal text of that message, which tells
//! it from the same message in the other branch.

use crate::message::{Message, MsgPart};
use crate::tree::text_part;

/// Writes, before each hole whose value a guard proves to start with a
/// literal, that literal. `guards` are the conditions that hold at the
/// site, as written; a negated one (`not (…)`) proves nothing.
pub(crate) fn write_known_prefixes(guards: &[String], message: &mut Message, args: &[String]) {
    let known: Vec<(String, String)> = guards
        .iter()
        .filter(|g| !g.trim_start().starts_with("not "))
        .flat_map(|g| g.split("&&").filter_map(prefix_test).collect::<Vec<_>>())
        .collect();
    if known.is_empty() {
        return;
    }
    let prefix_of = |hole: usize| {
        let value = args.get(hole).map(|a| a.trim());
        known
            .iter()
            .find(|(name, _)| Some(name.as_str()) == value)
            .map(|(_, p)| p.clone())
    };
    let mut hole = 0;
    let mut i = 0;
    while i < message.len() {
        match &mut message[i] {
            MsgPart::Hole => {
                if let Some(prefix) = prefix_of(hole) {
                    message.insert(i, text_part(prefix));
                    i += 1;
                }
                hole += 1;
            }
            MsgPart::Text { text, format: true } => {
                *text = with_prefixes(text, &mut hole, &prefix_of);
            }
            _ => {}
        }
        i += 1;
    }
}

/// A printf format with each verb's proven prefix written before it
/// (`%` doubled); `hole` counts the verbs read so far.
fn with_prefixes(
    format: &str,
    hole: &mut usize,
    prefix_of: &dyn Fn(usize) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(format.len());
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push_str("%%");
            continue;
        }
        if let Some(prefix) = prefix_of(*hole) {
            out.push_str(&prefix.replace('%', "%%"));
        }
        *hole += 1;
        // The verb's flags, width and letter follow as they come.
        out.push('%');
    }
    out
}

/// `(name, prefix)` of one test that a value starts with a literal:
/// `strpos($x, 'lit') === 0`, `str_starts_with($x, 'lit')`,
/// `x.startswith("lit")`, `x.startsWith("lit")`, `x.start_with?("lit")`,
/// `x.starts_with("lit")`, `strings.HasPrefix(x, "lit")`.
fn prefix_test(condition: &str) -> Option<(String, String)> {
    let c = condition
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let c = c.trim_start_matches("0 === ").trim_end_matches(" === 0");
    let two_args = |rest: &str| -> Option<(String, String)> {
        let (name, lit) = rest.split_once(',')?;
        Some((
            name.trim().to_string(),
            literal(lit.trim().trim_end_matches(')'))?,
        ))
    };
    for call in ["strpos(", "str_starts_with(", "strings.HasPrefix("] {
        if let Some(rest) = c.strip_prefix(call) {
            if call == "strpos(" && !condition.contains("=== 0") && !condition.contains("0 ===") {
                return None;
            }
            return two_args(rest);
        }
    }
    for method in [
        ".startswith(",
        ".startsWith(",
        ".start_with?(",
        ".starts_with(",
    ] {
        if let Some((name, rest)) = c.split_once(method) {
            let plain = name
                .chars()
                .all(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '$' | '.' | '>' | '-'));
            return plain
                .then(|| Some((name.to_string(), literal(rest.trim_end_matches(')'))?)))
                .flatten();
        }
    }
    None
}

/// The text of a quoted literal without escapes (`'@composer '`).
fn literal(s: &str) -> Option<String> {
    let s = s.trim();
    let q = s.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let inner = s.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.is_empty() && !inner.contains(['\\', q])).then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{pattern_column, patterns_of};

    #[test]
    fn a_prefix_a_guard_proves_is_text_of_the_message() {
        let s = patterns_of(
            "src/Dispatcher.php",
            r#"<?php
function run($callable, $event, $code) {
    if (strpos($callable, '@composer ') === 0) {
        throw new \RuntimeException(sprintf('Script %s handling the %s event returned %d', $callable, $event, $code));
    } else {
        throw new \RuntimeException(sprintf('Script %s handling the %s event returned %d', $callable, $event, $code));
    }
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "Script @composer %s handling the %s event returned %d",
                "Script %s handling the %s event returned %d",
            ]
        );
    }

    #[test]
    fn each_languages_prefix_test_names_its_value() {
        for (condition, want) in [
            (
                "(strpos($x, '@composer ') === 0)",
                Some(("$x", "@composer ")),
            ),
            ("0 === strpos($x, 'a')", Some(("$x", "a"))),
            ("strpos($x, 'a') !== false", None),
            ("name.startswith('plugin:')", Some(("name", "plugin:"))),
            (
                "strings.HasPrefix(addr, \"unix:\")",
                Some(("addr", "unix:")),
            ),
            ("url.startsWith(\"http\")", Some(("url", "http"))),
            ("x.starts_with(\"-\")", Some(("x", "-"))),
        ] {
            let got = prefix_test(condition);
            let got = got.as_ref().map(|(a, b)| (a.as_str(), b.as_str()));
            assert_eq!(got, want, "{condition}");
        }
    }
}
