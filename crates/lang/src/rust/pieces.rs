//! Error text built piece by piece into a buffer: `write!(styled, "…")`,
//! `styled.push_str("…")` in a function that formats an error or a usage
//! line (clap's `RichFormatter`, `start_error`, `try_help`). Each piece is
//! a site of its own; one that does not end a line is followed by what
//! the next pieces write: by the next statement's piece when that writes
//! to the same buffer (directly or first thing in an `if`), else by a
//! hole.
//!
//! anstyle's style spans (`{style}text{style:#}`, `{}` of `.render()`)
//! print escape codes or nothing, so they are no part of the text.

use super::{one_line, push, Arg};
use crate::formats;
use crate::is_identifier;
use crate::message::{Message, MsgPart};
use crate::tree::{last_name, text_part, Cx};
use errdex_model::{ErrorType, Severity};
use tree_sitter::Node;

/// `write!(buf, fmt, …)` / `writeln!` outside a `Display` impl.
pub(super) fn write_piece(n: Node<'_>, callee: &str, args: &[Arg<'_>], cx: &mut Cx<'_>) {
    let Some(fmt) = args.get(1).and_then(|a| a.literal(cx)) else {
        return;
    };
    let fmt = if callee.ends_with("writeln") {
        format!("{fmt}\n")
    } else {
        fmt
    };
    let (fmt, m, h) = written(&fmt, &args[2..], cx);
    let buffer = args.first().map_or("", |b| b.text(cx));
    record(n, callee, buffer, &fmt, m, h, cx);
}

/// A format and its values as a message, anstyle spans left out.
fn written(fmt: &str, args: &[Arg<'_>], cx: &Cx<'_>) -> (String, Message, Vec<String>) {
    let values: Vec<String> = args.iter().map(|a| one_line(a.text(cx))).collect();
    let (fmt, values) = without_style_spans(fmt, values);
    let (m, h) = formats::brace_message(&fmt, &values, true);
    (fmt, m, h)
}

/// `buf.push_str("…")`: a literal piece, at the method's name.
pub(super) fn push_piece(at: Node<'_>, buffer: &str, arg: Node<'_>, cx: &mut Cx<'_>) {
    let Some(text) = super::string_value(arg, cx) else {
        return;
    };
    record(
        at,
        ".push_str",
        buffer,
        &text,
        vec![text_part(&text)],
        Vec::new(),
        cx,
    );
}

fn record(
    n: Node<'_>,
    callee: &str,
    buffer: &str,
    text: &str,
    mut m: Message,
    mut h: Vec<String>,
    cx: &mut Cx<'_>,
) {
    // The cheap test first: most pieces in any crate are punctuation.
    let has_words = text
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.chars().count() >= 3);
    if !has_words || !in_error_formatter(n, cx) || super::in_test_code(n, cx) {
        return;
    }
    if !text.ends_with('\n') {
        match written_next(n, buffer, cx) {
            Some((next, next_holes)) => {
                m.extend(next);
                h.extend(next_holes);
            }
            None => {
                m.push(MsgPart::Hole);
                h.push(formats::CONTINUED.into());
            }
        }
    }
    let site = cx.site(n, callee, ErrorType::Log, Severity::Error);
    push(cx, site, m, h, n);
}

/// `write!(styled, "invalid value '{v}'")` then `if let Some(source) = …
/// { write!(styled, ": {source}"); }`: when the statement after a piece
/// writes to the same buffer, directly or first thing in the branch of an
/// `if`, what it writes continues the piece's line. Gives that piece's
/// message (and holes); one that leaves the line open ends in a hole.
fn written_next(n: Node<'_>, buffer: &str, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    let statement = std::iter::successors(n.parent(), |p| p.parent())
        .take_while(|p| p.kind() != "block")
        .find(|p| matches!(p.kind(), "let_declaration" | "expression_statement"))?;
    let mut next = crate::tree::next_statement(statement)?;
    if let Some(branch) = next
        .named_child(0)
        .filter(|e| e.kind() == "if_expression")
        .and_then(|e| e.child_by_field_name("consequence"))
    {
        next = crate::tree::first_statement(branch)?;
    }
    let piece = match next.kind() {
        "let_declaration" => next.child_by_field_name("value")?,
        "expression_statement" => next.named_child(0)?,
        _ => return None,
    };
    let (text, mut m, mut h) = next_piece(piece, buffer, cx)?;
    if !text.ends_with('\n') && !matches!(m.last(), Some(MsgPart::Hole)) {
        m.push(MsgPart::Hole);
        h.push(formats::CONTINUED.into());
    }
    Some((m, h))
}

/// The text `piece` writes to `buffer`: `write!(buffer, fmt, …)` or
/// `buffer.push_str("…")`.
fn next_piece(
    piece: Node<'_>,
    buffer: &str,
    cx: &Cx<'_>,
) -> Option<(String, Message, Vec<String>)> {
    match piece.kind() {
        "macro_invocation" => {
            let (_, name) = super::macro_name(piece, cx)?;
            let args = super::macro_args(super::token_tree(piece)?);
            let same = args.first().is_some_and(|b| b.text(cx) == buffer);
            if !matches!(name, "write" | "writeln") || !same {
                return None;
            }
            let mut fmt = args.get(1)?.literal(cx)?;
            if name == "writeln" {
                fmt.push('\n');
            }
            Some(written(&fmt, &args[2..], cx))
        }
        "call_expression" => {
            let f = piece.child_by_field_name("function")?;
            let method = cx.text(f.child_by_field_name("field")?);
            let same = f
                .child_by_field_name("value")
                .is_some_and(|b| cx.text(b) == buffer);
            if method != "push_str" || !same {
                return None;
            }
            let args = piece.child_by_field_name("arguments")?;
            let text = super::string_value(args.named_child(0)?, cx)?;
            Some((text.clone(), vec![text_part(&text)], Vec::new()))
        }
        _ => None,
    }
}

/// Whether `n` sits where error or usage text is composed: a function
/// named for it (`start_error`, `create_usage`), one given an error
/// (`error: &Error`), an impl of an error type or formatter
/// (`impl ErrorFormatter for RichFormatter`), or a file of an `error`
/// module (`error/format.rs`, `errors.rs`).
fn in_error_formatter(n: Node<'_>, cx: &Cx<'_>) -> bool {
    if cx
        .path
        .split('/')
        .any(|c| matches!(c.trim_end_matches(".rs"), "error" | "errors"))
    {
        return true;
    }
    std::iter::successors(n.parent(), |p| p.parent()).any(|a| match a.kind() {
        "function_item" => {
            let named = a
                .child_by_field_name("name")
                .map(|x| cx.text(x))
                .is_some_and(|name| {
                    name.split('_')
                        .any(|w| matches!(w, "error" | "err" | "usage"))
                });
            let given_error = a
                .child_by_field_name("parameters")
                .is_some_and(|p| cx.text(p).split([':', ',', '(', ')']).any(is_error_type));
            named || given_error
        }
        "impl_item" => ["type", "trait"].iter().any(|f| {
            a.child_by_field_name(f).is_some_and(|t| {
                last_name(cx.text(t).split('<').next().unwrap_or("")).contains("Error")
            })
        }),
        _ => false,
    })
}

/// `&crate::error::Error<F>`, `&mut ParseError`: a type named an error.
fn is_error_type(t: &str) -> bool {
    let t = t
        .trim()
        .trim_start_matches('&')
        .trim_start_matches("mut ")
        .trim();
    let base = t.split('<').next().unwrap_or("");
    !base.is_empty() && last_name(base).ends_with("Error")
}

/// The format and values without anstyle spans: a `{x}` whose `{x:#}`
/// (the reset) is in the same format, and `{}` whose value is
/// `….render()` or `….render_reset()`.
fn without_style_spans(fmt: &str, values: Vec<String>) -> (String, Vec<String>) {
    let mut out = String::with_capacity(fmt.len());
    let mut kept = Vec::with_capacity(values.len());
    let mut next = 0usize;
    let mut rest = fmt;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..2]);
            rest = &tail[2..];
            continue;
        }
        let Some(close) = tail.find('}').filter(|_| tail.starts_with('{')) else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
            continue;
        };
        let inner = &tail[1..close];
        let name = inner.split(':').next().unwrap_or("").trim();
        let style = if name.is_empty() {
            let v = values.get(next).cloned();
            next += 1;
            let style = v
                .as_deref()
                .is_some_and(|v| v.ends_with(".render()") || v.ends_with(".render_reset()"));
            if !style {
                kept.extend(v);
            }
            style
        } else {
            is_identifier(name) && fmt.contains(&format!("{{{name}:#}}"))
        };
        if !style {
            out.push_str(&tail[..=close]);
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    // Named and explicitly indexed values pass through untouched.
    kept.extend(values.into_iter().skip(next));
    (out, kept)
}

#[cfg(test)]
mod tests {
    use super::without_style_spans;
    use crate::test_support::{pattern_column, patterns_of};

    #[test]
    fn style_spans_are_dropped_and_other_values_kept() {
        let (f, v) = without_style_spans(
            "invalid value '{invalid}{v}{invalid:#}' for '{}{}{}' {{x}}",
            vec!["s.render()".into(), "arg".into(), "s.render_reset()".into()],
        );
        assert_eq!(f, "invalid value '{v}' for '{}' {{x}}");
        assert_eq!(v, vec!["arg".to_string()]);
    }

    #[test]
    fn pieces_of_an_error_formatter_are_sites() {
        let s = patterns_of(
            "src/report.rs",
            r#"
fn start_error(styled: &mut StyledStr, styles: &Styles) {
    let error = &styles.get_error();
    let _ = write!(styled, "{error}failure:{error:#} ");
}
fn write_context(styled: &mut StyledStr, error: &crate::error::Error<F>) {
    styled.push_str("the following flags were never given:");
    let _ = write!(styled, "\n  {valid}{v}{valid:#}");
    let _ = writeln!(styled, "unknown flag '{invalid}{arg}{invalid:#}' seen");
}
fn render_listing(out: &mut String, n: usize) {
    let _ = write!(out, "listing {n} entries");
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec![
                "failure: %v",
                "the following flags were never given:\n  %v",
                "unknown flag '%v' seen\n",
            ]
        );
    }

    #[test]
    fn every_piece_in_an_error_module_is_a_site() {
        let s = patterns_of(
            "src/error/format.rs",
            r#"
fn try_help(styled: &mut StyledStr, help: &str) {
    let _ = write!(styled, "\n\nFor more details, run '{}{help}{}'.\n", s.render(), s.render_reset());
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec!["\n\nFor more details, run '%v'.\n"]
        );
    }

    #[test]
    fn a_piece_continued_by_the_next_write_to_its_buffer_is_one_line() {
        let s = patterns_of(
            "src/error/format.rs",
            r#"
fn write_dynamic_context(styled: &mut StyledStr, error: &Error) -> bool {
    let _ = write!(styled, "rejected value '{invalid}{value}{invalid:#}' for '{arg}'");
    if let Some(source) = error.source.as_deref() {
        let _ = write!(styled, ": {source}");
    }
    styled.push_str("cannot read the journal");
    styled.push_str(" at offset ");
    let _ = write!(other, "unrelated piece");
    let _ = write!(styled, "the last piece");
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec![
                "rejected value '%v' for '%v': %v",
                "cannot read the journal at offset %v",
                " at offset %v",
                "unrelated piece%v",
                "the last piece%v",
            ]
        );
    }
}
