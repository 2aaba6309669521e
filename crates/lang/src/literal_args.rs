//! String literals handed to a format's plain verb are text the program
//! prints: `fmt.Fprintf(w, "%s %s\n\n", "Incorrect Usage.", err)` prints
//! `Incorrect Usage. <err>`, so its pattern is `Incorrect Usage. %v`,
//! found by those words, not `%s %v`, which no search or trace finds.

use crate::message::{Message, MsgPart};
use errdex_model::Lang;

/// Replaces each plain `%s`/`%v` whose value is a string literal by the
/// literal's text, and drops that value from `args`. Left as it is when
/// the verbs cannot be paired with the values one by one (a constant of
/// format text, `*` widths, explicit argument indexes, a count that
/// differs).
pub(crate) fn fold(message: &mut Message, args: &mut Vec<String>, lang: Lang) {
    let Some(verbs) = verbs(message, lang) else {
        return;
    };
    if verbs.len() != args.len() {
        return;
    }
    let literals: Vec<Option<String>> = verbs
        .iter()
        .zip(args.iter())
        .map(|(v, a)| v.plain.then(|| literal_text(a, lang)).flatten())
        .collect();
    if literals.iter().all(Option::is_none) {
        return;
    }
    rewrite(message, &verbs, &literals);
    let mut k = 0;
    args.retain(|_| {
        k += 1;
        literals[k - 1].is_none()
    });
}

/// One value-taking verb: where it is (part, byte range in that part's
/// text; a [`MsgPart::Hole`] has no range) and whether it prints a string
/// as it is.
struct Verb {
    part: usize,
    range: Option<(usize, usize)>,
    plain: bool,
}

/// The value-taking verbs of a message in order, or `None` when they
/// cannot be paired with values one by one.
fn verbs(message: &Message, lang: Lang) -> Option<Vec<Verb>> {
    let mut out = Vec::new();
    for (part, p) in message.iter().enumerate() {
        match p {
            MsgPart::Hole => out.push(Verb {
                part,
                range: None,
                plain: false,
            }),
            MsgPart::Const { format: true, .. } => return None,
            MsgPart::Const { .. } | MsgPart::Text { format: false, .. } => {}
            MsgPart::Text { text, format: true } => {
                for (s, e) in format_verbs(text, lang)? {
                    let spec = &text[s..e];
                    out.push(Verb {
                        part,
                        range: Some((s, e)),
                        plain: spec == "%s" || spec == "%v",
                    });
                }
            }
        }
    }
    Some(out)
}

/// The byte ranges of a printf format's value-taking verbs, or `None`
/// for a `*` width or an explicit argument (`%[2]s`, `%2$s`, `%(k)s`).
pub(crate) fn format_verbs(fmt: &str, lang: Lang) -> Option<Vec<(usize, usize)>> {
    let b = fmt.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if b.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while i < b.len() && b"+-# 0'123456789.hlLqjzt".contains(&b[i]) {
            i += 1;
        }
        match b.get(i) {
            None => return Some(out),
            Some(b'*' | b'[' | b'$' | b'(') => return None,
            // glibc's `%m` takes no value.
            Some(b'm') if matches!(lang, Lang::C | Lang::Cpp) => {}
            Some(_) => out.push((start, i + 1)),
        }
        i += 1;
    }
    Some(out)
}

/// Writes each literal in place of its verb, escaped as format text.
fn rewrite(message: &mut Message, verbs: &[Verb], literals: &[Option<String>]) {
    // From the end, so the earlier ranges of a part stay valid.
    for (v, lit) in verbs.iter().zip(literals).rev() {
        let (Some(lit), Some((s, e))) = (lit, v.range) else {
            continue;
        };
        if let Some(MsgPart::Text { text, .. }) = message.get_mut(v.part) {
            text.replace_range(s..e, &lit.replace('%', "%%"));
        }
    }
}

/// The text of a plain string literal as the language writes it, with
/// the common escapes decoded; `None` for anything else (an
/// interpolating string, an unusual escape, a prefixed Python string).
fn literal_text(src: &str, lang: Lang) -> Option<String> {
    let s = src.trim();
    let quote = s.chars().next()?;
    let quotes: &[char] = match lang {
        Lang::Go => &['"', '`'],
        Lang::Python | Lang::JavaScript | Lang::TypeScript | Lang::Ruby | Lang::Php => &['"', '\''],
        _ => &['"'],
    };
    if !quotes.contains(&quote) || s.len() < 2 || !s.ends_with(quote) {
        return None;
    }
    let body = &s[1..s.len() - 1];
    if quote == '`' {
        return (!body.contains('`')).then(|| body.to_string());
    }
    let interpolates = match lang {
        Lang::Ruby => quote == '"' && body.contains("#{"),
        Lang::Php => quote == '"' && body.contains('$'),
        _ => false,
    };
    if interpolates {
        return None;
    }
    unescape(body, quote)
}

/// Decodes `\\`, `\n`, `\t` and escaped quotes; an unescaped closing
/// quote (two literals joined) or any other escape gives `None`.
fn unescape(body: &str, quote: char) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == quote {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            e @ ('\\' | '"' | '\'') => out.push(e),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(s: &str) -> MsgPart {
        MsgPart::Text {
            text: s.into(),
            format: true,
        }
    }

    fn folded(message: Message, args: &[&str], lang: Lang) -> (Message, Vec<String>) {
        let mut m = message;
        let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        fold(&mut m, &mut a, lang);
        (m, a)
    }

    #[test]
    fn a_literal_value_of_a_plain_verb_becomes_text() {
        let (m, a) = folded(
            vec![format("%s %s\n\n")],
            &["\"Incorrect Usage.\"", "err.Error()"],
            Lang::Go,
        );
        assert_eq!(m, vec![format("Incorrect Usage. %s\n\n")]);
        assert_eq!(a, ["err.Error()"]);
    }

    #[test]
    fn every_language_writes_its_own_literals() {
        for (lang, lit) in [
            (Lang::C, "\"disk full\""),
            (Lang::Python, "'disk full'"),
            (Lang::Java, "\"disk full\""),
            (Lang::JavaScript, "'disk full'"),
            (Lang::Ruby, "'disk full'"),
            (Lang::Php, "'disk full'"),
            (Lang::Rust, "\"disk full\""),
            (Lang::Go, "`disk full`"),
        ] {
            let (m, a) = folded(vec![format("%s: %d%%")], &[lit, "n"], lang);
            assert_eq!(m, vec![format("disk full: %d%%")], "{lang:?}");
            assert_eq!(a, ["n"], "{lang:?}");
        }
    }

    #[test]
    fn a_percent_in_the_literal_stays_text() {
        let (m, _) = folded(vec![format("%s")], &["\"100% done\""], Lang::C);
        assert_eq!(m, vec![format("100%% done")]);
    }

    #[test]
    fn values_that_are_not_plain_literals_stay_holes() {
        for (args, lang) in [
            (["name", "\"x\""], Lang::Go),
            (["\"a\" \"b\"", "n"], Lang::C),
            (["\"#{x}\"", "n"], Lang::Ruby),
            (["\"$x\"", "n"], Lang::Php),
            (["f'{x}'", "n"], Lang::Python),
            (["\"\\x41\"", "n"], Lang::C),
        ] {
            let fmt = if args[1] == "\"x\"" { "%s %q" } else { "%s %d" };
            let (m, a) = folded(vec![format(fmt)], &args, lang);
            assert_eq!(m, vec![format(fmt)], "{args:?}");
            assert_eq!(a.len(), 2, "{args:?}");
        }
    }

    #[test]
    fn verbs_that_cannot_be_paired_leave_the_message_alone() {
        for fmt in ["%*s %s", "%[2]s %[1]s", "%2$s %1$s"] {
            let (m, a) = folded(vec![format(fmt)], &["\"a\"", "\"b\""], Lang::C);
            assert_eq!(m, vec![format(fmt)], "{fmt}");
            assert_eq!(a.len(), 2);
        }
        // More values than verbs: the pairing is unknown.
        let (m, _) = folded(vec![format("%s")], &["\"a\"", "b"], Lang::Go);
        assert_eq!(m, vec![format("%s")]);
    }

    #[test]
    fn holes_and_glibc_m_are_counted_in_order() {
        let (m, a) = folded(
            vec![format("%m: %s, "), MsgPart::Hole, format(" %s")],
            &["\"open\"", "x", "\"done\""],
            Lang::C,
        );
        assert_eq!(
            m,
            vec![format("%m: open, "), MsgPart::Hole, format(" done")]
        );
        assert_eq!(a, ["x"]);
    }
}
