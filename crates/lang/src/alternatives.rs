//! A hole filled by a choice of two texts (`${error ? red("ERROR") :
//! yellow("WARNING")} in ${where}`, `f"{'error' if failed else 'warning'}:
//! {msg}"`) prints one text or the other, never a value: the message is
//! two messages, one with each text in place of the hole. A line is then
//! traced by the words the choice prints, which the hole alone would hide.
//!
//! Read from the hole's source text, for the grammars of the common walk
//! whose messages hold their holes as values (interpolated strings,
//! concatenations): `c ? A : B` (JavaScript, PHP, Ruby, Java, C#), `A if
//! c else B` (Python). A branch is a plain string literal, or a call of one
//! plain string literal (`red("ERROR")`, `_("Usage:")`), whose text it
//! prints.

use crate::message::{Message, MsgPart};
use errdex_model::Lang;

/// The messages `message` stands for when one of its holes, filled by
/// `args` one to one, is a choice of two texts: each with that hole
/// replaced by a text, and the hole's argument left out. `None` when no
/// hole is such a choice, or when holes and arguments do not pair up (a
/// printf format counts its own).
pub(crate) fn alternatives(
    lang: Lang,
    message: &Message,
    args: &[String],
) -> Option<[(Message, Vec<String>); 2]> {
    let holes = crate::message::paired_holes(message, args)?;
    let (k, texts) = args
        .iter()
        .enumerate()
        .find_map(|(k, a)| choice(lang, a).map(|t| (k, t)))?;
    let one = |text: String| {
        let mut m = message.clone();
        m[holes[k]] = MsgPart::Text {
            text,
            format: false,
        };
        let mut rest = args.to_vec();
        rest.remove(k);
        (m, rest)
    };
    let [a, b] = texts;
    Some([one(a), one(b)])
}

/// The two texts a hole's source `arg` chooses between, when it is a
/// choice of two texts in `lang`.
fn choice(lang: Lang, arg: &str) -> Option<[String; 2]> {
    let arg = arg.trim();
    let (a, b) = if lang == Lang::Python {
        let (a, rest) = split_top(arg, " if ")?;
        let (_, b) = split_top(rest, " else ")?;
        (a, b)
    } else {
        let (_, rest) = split_top(arg, "?")?;
        split_top(rest, ":")?
    };
    Some([text_of(a.trim())?, text_of(b.trim())?])
}

/// `arg` cut at the first `sep` outside quotes, parentheses, brackets and
/// braces.
fn split_top<'a>(arg: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    let b = arg.as_bytes();
    let (mut depth, mut quote) = (0usize, None::<u8>);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' | b'`' => quote = Some(c),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ if depth == 0 && arg[i..].starts_with(sep) => {
                    return Some((&arg[..i], &arg[i + sep.len()..]));
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// The text a branch prints: a plain string literal, or a call of one.
fn text_of(branch: &str) -> Option<String> {
    if let Some(open) = branch.find('(').filter(|_| branch.ends_with(')')) {
        let callee = &branch[..open];
        let plain_name = !callee.is_empty()
            && callee
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_.$".contains(&c));
        return plain_name
            .then(|| string_literal(branch[open + 1..branch.len() - 1].trim()))
            .flatten();
    }
    string_literal(branch)
}

/// The text of a quoted literal without interpolation or escapes.
fn string_literal(s: &str) -> Option<String> {
    let q = *s.as_bytes().first()?;
    if !matches!(q, b'"' | b'\'') || s.len() < 2 || s.as_bytes()[s.len() - 1] != q {
        return None;
    }
    let inner = &s[1..s.len() - 1];
    // Interpolated (`${…}`, `#{…}`, PHP's `"$x"`) or escaped text is no
    // plain literal.
    let interpolated = inner.contains(q as char)
        || inner.contains('\\')
        || inner.contains("${")
        || inner.contains("#{")
        || q == b'"' && inner.contains('$');
    (!interpolated).then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> MsgPart {
        MsgPart::Text {
            text: t.into(),
            format: false,
        }
    }

    fn texts(m: &Message) -> String {
        m.iter()
            .map(|p| match p {
                MsgPart::Text { text, .. } => text.as_str(),
                _ => "%v",
            })
            .collect()
    }

    #[test]
    fn a_hole_that_chooses_between_two_texts_is_two_messages() {
        let m = vec![MsgPart::Hole, text(" in "), MsgPart::Hole];
        let args = [
            "error ? red(\"ERROR\") : yellow(\"WARNING\")".to_string(),
            "where".into(),
        ];
        let [a, b] = alternatives(Lang::JavaScript, &m, &args).expect("a choice");
        assert_eq!(
            (texts(&a.0), a.1),
            ("ERROR in %v".into(), vec!["where".to_string()])
        );
        assert_eq!(texts(&b.0), "WARNING in %v");
        let py = ["'error' if failed else 'warning'".to_string(), "msg".into()];
        let [a, b] = alternatives(Lang::Python, &m, &py).expect("a choice");
        assert_eq!(
            (texts(&a.0), texts(&b.0)),
            ("error in %v".into(), "warning in %v".into())
        );
    }

    #[test]
    fn each_text_of_a_choice_in_a_printed_message_is_a_pattern() {
        use crate::test_support::{pattern_column, patterns_of};
        let js = patterns_of(
            "lib/printer.js",
            r#"
function joinError(error, items) {
  console.error(`${error ? red("ERROR") : yellow("WARNING")} in ${items.join("")}`);
}
"#,
        );
        assert_eq!(pattern_column(&js), ["ERROR in %v", "WARNING in %v"]);
        let py = patterns_of(
            "app/report.py",
            r#"
def report(failed, msg):
    raise ValueError(f"{'build failed' if failed else 'build skipped'}: {msg}")
"#,
        );
        assert_eq!(
            pattern_column(&py),
            ["build failed: %v", "build skipped: %v"]
        );
    }

    #[test]
    fn values_and_interpolated_branches_are_no_choice() {
        let m = vec![text("failed: "), MsgPart::Hole];
        for arg in [
            "a ? b : c",
            "ok ? `done ${n}` : 'failed'",
            "ok ? format(\"%d\", n) : 'x'",
            "x ? \"y\" : \"$z\"",
            "'a' if b",
            "err.message",
        ] {
            assert!(
                alternatives(Lang::JavaScript, &m, &[arg.into()]).is_none(),
                "{arg}"
            );
        }
        // A ternary inside a call's arguments is not the hole's choice.
        assert!(alternatives(Lang::JavaScript, &m, &["f(a ? 'b' : 'c')".into()]).is_none());
        // A printf format pairs holes with arguments of its own.
        let printf = vec![MsgPart::Text {
            text: "%s in %s".into(),
            format: true,
        }];
        assert!(
            alternatives(Lang::C, &printf, &["e ? \"E\" : \"W\"".into(), "w".into()]).is_none()
        );
    }
}
