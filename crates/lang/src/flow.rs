//! Whether text kept under a name reaches an output later in its
//! function: `$message = sprintf(…)` … `throw new X($message)`, `hint =
//! _("Try …")` … `echo(f"{usage}\n{hint}", file=file)`. A check on the
//! function's source text, statement by statement, for the languages
//! whose readers follow no values (PHP, Python): a name that a later
//! `throw`, `raise` or printing call names is a message.

/// What counts as an output in one language.
pub(crate) struct Outputs {
    /// Statements that start so are outputs (`throw `, `raise `).
    pub starts: &'static [&'static str],
    /// Calls whose callee's last name is one of these are outputs.
    pub calls: &'static [&'static str],
    /// Statements holding one of these are not (`new ` where the reader
    /// already follows the name into `throw new Error(msg)`).
    pub unless: &'static [&'static str],
}

/// Whether a statement of `after` (the function's text after the
/// assignment) is an output that names `name`, directly or through
/// another name it is put into (`dev_warning` → `messages =
/// [dev_warning]` → `_log("info", "\n".join(messages))`), two steps at
/// most.
pub(crate) fn reaches_output(after: &str, name: &str, outputs: &Outputs) -> bool {
    output_of(after, name, outputs).is_some()
}

/// The output statement [`reaches_output`] finds (`_log("info",
/// "\n".join(messages))`): its level tells what the text is.
pub(crate) fn output_of<'a>(after: &'a str, name: &str, outputs: &Outputs) -> Option<&'a str> {
    let is_output = |s: &str| {
        (outputs.starts.iter().any(|p| s.starts_with(p))
            || outputs.calls.iter().any(|c| calls(s, c)))
            && !outputs.unless.iter().any(|u| s.contains(u))
    };
    found(after, name, &is_output, 2)
}

/// Whether a statement of `after` that names `name`, directly or through
/// another name it is put into (two steps at most), is one `is_output`
/// accepts: [`reaches_output`] for a language whose outputs are more
/// than callee names (C's `fprintf` counts only on an error stream).
pub(crate) fn reaches_statement(after: &str, name: &str, is_output: &dyn Fn(&str) -> bool) -> bool {
    reaches(after, name, is_output, 2)
}

fn reaches(after: &str, name: &str, is_output: &dyn Fn(&str) -> bool, steps: usize) -> bool {
    found(after, name, is_output, steps).is_some()
}

/// The first statement of `after` that [`reaches`] accepts.
fn found<'a>(
    after: &'a str,
    name: &str,
    is_output: &dyn Fn(&str) -> bool,
    steps: usize,
) -> Option<&'a str> {
    statements(after).find_map(|(at, whole)| {
        let s = whole.trim_start();
        if !mentions(s, name) {
            return None;
        }
        if is_output(s) {
            return Some(s);
        }
        let other = put_into(s).filter(|other| *other != name)?;
        (steps > 0)
            .then(|| found(&after[at + whole.len()..], other, is_output, steps - 1))
            .flatten()
    })
}

/// The name a statement puts its value into: `other = …`, `other += …`,
/// `$other[] = …`, `other.append(…)`.
fn put_into(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len());
    let (target, rest) = s.split_at(end);
    let rest = rest.trim_start();
    let assigns = rest.starts_with(".append(")
        || rest.starts_with("[] =")
        || rest.starts_with("+=")
        || rest.starts_with(".=")
        || rest.starts_with('=') && !rest.starts_with("==");
    (!target.is_empty() && assigns).then_some(target)
}

/// The words of a message's text, apart by spaces and holding a letter
/// or digit:
/// `"."` and `"\n"` kept under a name are no messages, and a lone word
/// (`f"line {n}"`) is too little to trace a name's text by.
pub(crate) fn words(m: &crate::message::Message) -> usize {
    m.iter()
        .map(|p| match p {
            crate::message::MsgPart::Text { text, .. } => text
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count(),
            _ => 0,
        })
        .sum()
}

/// Whether `text` names `name` as a whole word (`$msg` is not `$msgs`).
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(|c| word(c) || (c == '$' && !name.starts_with('$')))
            && !after.is_some_and(word)
    })
}

/// Whether `s` calls a function whose last name is `callee`.
pub(crate) fn calls(s: &str, callee: &str) -> bool {
    s.match_indices(callee).any(|(i, _)| {
        let before = s[..i].chars().next_back();
        s[i + callee.len()..].starts_with('(')
            && !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
    })
}

/// The statements of a function's text with their offsets, near enough:
/// cut at `;`, braces and line breaks outside parentheses and brackets.
fn statements(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' | '{' | '}' | '\n' if depth == 0 => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &text[start..]));
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: Outputs = Outputs {
        starts: &["throw ", "raise "],
        calls: &["echo", "writeError"],
        unless: &[],
    };

    #[test]
    fn a_name_reaches_a_later_throw_or_print() {
        let php = "\n if ($x) {\n  $message .= 'more';\n }\n throw new NotFound($message, $alt);\n";
        assert!(reaches_output(php, "$message", &OUT));
        assert!(!reaches_output(php, "$alt2", &OUT));
        let py = "\n    echo(\n        f\"{usage}\\n{hint}\",\n        file=file,\n    )\n";
        assert!(reaches_output(py, "hint", &OUT));
        assert!(!reaches_output(py, "hin", &OUT));
        // Named, but not by an output.
        assert!(!reaches_output(
            "\n log_it(hint)\n other = hint\n",
            "hint",
            &OUT
        ));
        assert!(!reaches_output("\n $this->reecho($m);\n", "$m", &OUT));
        let through = "\n    messages = [dev_warning]\n    messages.append(x)\n    echo(\"\\n\".join(messages))\n";
        assert!(reaches_output(through, "dev_warning", &OUT));
        assert!(!reaches_output(
            "\n    a = w\n    b = a\n    c = b\n    echo(c)\n",
            "w",
            &OUT
        ));
    }

    #[test]
    fn a_name_is_a_whole_word() {
        assert!(mentions("throw new X($msg)", "$msg"));
        assert!(!mentions("throw new X($msgs)", "$msg"));
        assert!(mentions("f\"{hint}\\n\"", "hint"));
        assert!(!mentions("hints", "hint"));
        assert!(!mentions("$hint", "hint"));
    }
}
