//! Messages a function builds for an error and hands back, printed by its
//! caller: in a function named for an error message (`errorMessage`,
//! `exitErrorMessage`, `formatErrMsg`), each text it returns and each text
//! it pushes onto a list of lines (npm's `summary.push(['404', msg])`,
//! `detail.push([code, ['…', '…'].join('\n')])`); a `let` message
//! grown with `+=` that the function then throws or hands to `super`
//! (webpack's `ModuleNotFoundError`), each text a kept message; and a
//! text thrown through a helper (`const msg = '…'; throw
//! this.usageError(msg)`); each branch of a `?:` a thrown name is
//! declared with; and a text put into an error's `message`.

use super::{is_text, message_of, unwrap, FUNCTIONS};
use crate::message::Message;
use crate::tree::{arguments, Cx};
use tree_sitter::Node;

/// `return <text>` in an error-message function, and the texts of a
/// returned object's values and a returned list's items (npm's `return {
/// exitCode: 1, standard: [\`Unknown command: "${cmd}"\`, '…'] }`).
pub(super) fn returned(n: Node<'_>, cx: &mut Cx<'_>) {
    if let Some(v) = n.named_child(0).filter(|v| v.kind() != "comment") {
        if in_message_function(n, cx) {
            keep_each(n, unwrap(v), cx);
        }
    }
}

/// `const makeParsedError = (msg, parsing) => ({ message: \`${msg} while
/// parsing ${parsing}\` })`: an arrow function's expression body is what
/// it returns, read as [`returned`] reads a `return`.
pub(super) fn arrow_returned(f: Node<'_>, cx: &mut Cx<'_>) {
    let Some(body) = f.child_by_field_name("body") else {
        return;
    };
    if f.kind() == "arrow_function"
        && body.kind() != "statement_block"
        && in_message_function(body, cx)
    {
        keep_each(body, unwrap(body), cx);
    }
}

/// Keeps `v` when it is text, and the texts in it when it is an object or
/// list literal (one level of each: `{ summary: [[code, text]] }`).
fn keep_each(at: Node<'_>, v: Node<'_>, cx: &mut Cx<'_>) {
    let mut cur = v.walk();
    let items: Vec<Node<'_>> = match v.kind() {
        "object" => v
            .named_children(&mut cur)
            .filter(|p| p.kind() == "pair")
            .filter_map(|p| p.child_by_field_name("value"))
            .collect(),
        "array" => v.named_children(&mut cur).collect(),
        _ => return keep(at, v, ".return", cx),
    };
    for item in items {
        let item = unwrap(item);
        if matches!(item.kind(), "object" | "array") && v.kind() == "object" {
            keep_each(item, item, cx);
        } else {
            keep(item, item, ".return", cx);
        }
    }
}

/// `lines.push(text, …)` / `lines.push([title, text])` in an
/// error-message function: each text argument or element.
pub(super) fn pushed(n: Node<'_>, f: Node<'_>, cx: &mut Cx<'_>) {
    if f.kind() != "member_expression"
        || f.child_by_field_name("property").map(|p| cx.text(p)) != Some("push")
        || !in_message_function(n, cx)
    {
        return;
    }
    for a in arguments(n.child_by_field_name("arguments")) {
        let a = unwrap(a);
        if a.kind() == "array" {
            let mut cur = a.walk();
            let items: Vec<Node<'_>> = a.named_children(&mut cur).collect();
            for item in items {
                keep(item, item, ".push", cx);
            }
        } else {
            keep(a, a, ".push", cx);
        }
    }
}

/// What a JavaScript function does with a message it built: throws it,
/// hands it to its error class's `super`, rejects or logs with it.
const OUTPUTS: crate::flow::Outputs = crate::flow::Outputs {
    starts: &["throw ", "super(", "reject("],
    // `var err = new Error('… in views ' + dirs)`: a name inside an
    // error's construction is part of its message, wherever it goes next.
    calls: &["error", "warn", "fail", "Error"],
    unless: &[],
};

/// `let message = \`Module not found: ${err}\`` whose name the function
/// later grows with `+=` (the reader follows no such name) and throws.
pub(super) fn declared(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(name), Some(value)) = (
        n.child_by_field_name("name"),
        n.child_by_field_name("value"),
    ) else {
        return;
    };
    let name = cx.text(name);
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    {
        return;
    }
    if grown_and_output(n, name, cx) || thrown_through_a_helper(n, name, cx) {
        keep(n, value, "=", cx);
        return;
    }
    // `const msg = forbidden ? \`Could not download …\` : \`No matching
    // version found for ${pckg}.\``: each branch is a message, which the
    // reader cannot follow the name into.
    if value.kind() == "ternary_expression" && reaches_output(n, name, cx) {
        for branch in ["consequence", "alternative"] {
            if let Some(b) = value.child_by_field_name(branch) {
                keep_as(b, unwrap(b), name, cx);
            }
        }
    }
}

/// `err.message = \`Could not read package.json: ${err}\``: an error's
/// message rewritten before it is thrown again or handed on (`this.message`
/// in an error class is the class's own message, read elsewhere).
pub(super) fn message_set(n: Node<'_>, left: Node<'_>, value: Node<'_>, cx: &mut Cx<'_>) {
    let is_message = left.kind() == "member_expression"
        && left
            .child_by_field_name("property")
            .is_some_and(|p| cx.text(p) == "message")
        && left
            .child_by_field_name("object")
            .is_some_and(|o| o.kind() != "this");
    if is_message {
        keep(n, value, ".message =", cx);
    }
}

/// A throw that builds its error through a helper, not `new`: `throw
/// this.usageError(msg)`, `throw usage(msg)` (the reader follows a name
/// only into `new Error(msg)`).
const THROWN: crate::flow::Outputs = crate::flow::Outputs {
    starts: &["throw "],
    calls: &[],
    unless: &["new "],
};

/// Whether the function around `n` throws `name` through a helper.
fn thrown_through_a_helper(n: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    cx.function_text_after(n)
        .is_some_and(|after| crate::flow::reaches_output(after, name, &THROWN))
}

/// `message += "\n\nBREAKING CHANGE: " + …` on a name the function throws.
pub(super) fn appended(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(left), Some(value)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    let is_append = n
        .child_by_field_name("operator")
        .is_some_and(|o| cx.text(o) == "+=");
    let name = cx.text(left);
    if is_append && left.kind() == "identifier" && reaches_output(n, name, cx) {
        keep(n, value, "+=", cx);
    }
}

/// Whether the function around `n` grows `name` with `+=` after `n` and
/// outputs it.
fn grown_and_output(n: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    cx.function_text_after(n).is_some_and(|after| {
        after.contains(&format!("{name} +=")) && crate::flow::reaches_output(after, name, &OUTPUTS)
    })
}

/// Whether the function around `n` outputs `name` after `n`.
fn reaches_output(n: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    cx.function_text_after(n)
        .is_some_and(|after| crate::flow::reaches_output(after, name, &OUTPUTS))
}

/// Records `value` as a kept message when it is text of two words or
/// more, apart by spaces, or of a word and a value (`'directory "' +
/// root + '"'`); a bare code such as `'E404'` or `'JSON.parse'` is a
/// title.
fn keep(at: Node<'_>, value: Node<'_>, callee: &str, cx: &mut Cx<'_>) {
    if let Some((m, h)) = worth_keeping(value, cx) {
        cx.push_kept_message(at, callee, m, h);
    }
}

/// [`keep`] for a text assigned to the local `name`.
fn keep_as(at: Node<'_>, value: Node<'_>, name: &str, cx: &mut Cx<'_>) {
    if let Some((m, h)) = worth_keeping(value, cx) {
        cx.push_kept_message_as(at, "=", m, h, name);
    }
}

fn worth_keeping(value: Node<'_>, cx: &Cx<'_>) -> Option<(Message, Vec<String>)> {
    if !is_text(value, cx) {
        return None;
    }
    let (m, h) = message_of(value, cx);
    (crate::flow::words(&m) + h.len().min(1) >= 2).then_some((m, h))
}

/// Whether the function that `n` is directly in is named for an error
/// message: its name holds `error` or `err` and `message` or `msg`.
fn in_message_function(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let Some(mut f) =
        std::iter::successors(n.parent(), |p| p.parent()).find(|p| FUNCTIONS.contains(&p.kind()))
    else {
        return false;
    };
    // A curried arrow (`const joinError = error => (items, ctx) => …`)
    // takes the name of the arrow it is the body of.
    while let Some(outer) = f
        .parent()
        .filter(|p| p.kind() == "arrow_function" && p.child_by_field_name("body") == Some(f))
    {
        f = outer;
    }
    let Some(name) = super::function_name(f, cx) else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    lower.contains("err") && (lower.contains("message") || lower.contains("msg"))
        || makes_an_error(&name)
}

/// Whether a function name says it makes the error it returns: its first
/// word a maker's verb and its last `Error` (`getError`, `format_error`,
/// `makeParsedError`, webpack's `joinError`), not `handleError` or
/// `isError`, which take one.
fn makes_an_error(name: &str) -> bool {
    const MAKERS: &[&str] = &[
        "get", "format", "build", "describe", "create", "make", "render", "explain", "join",
        "compose",
    ];
    let name = name.trim_matches('_');
    let first_end = name
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_uppercase() || *c == '_')
        .map_or(name.len(), |(i, _)| i);
    let verb = name[..first_end].to_ascii_lowercase();
    let last = name.to_ascii_lowercase();
    MAKERS.contains(&verb.as_str()) && last.ends_with("error") && last.len() > verb.len()
}

#[cfg(test)]
mod tests {
    use crate::test_support::{pattern_column, patterns_of};

    #[test]
    fn texts_an_error_message_function_returns_or_lists_are_sites() {
        let s = patterns_of(
            "lib/report.js",
            r#"
class Tool {
  exitErrorMessage () {
    if (this.logFiles.length) {
      return `The full log is in: ${this.logFiles}`
    }
    return 'E1'
  }
}
function errorMessage (er) {
  const summary = []
  const detail = []
  summary.push(['E404', 'Not found anywhere'])
  detail.push(['JSON.parse', [
    'Could not parse the data.',
    'Note: the file must be JSON.',
  ].join('\n')])
  return { summary, detail }
}
function unknownCommandErrorMessage (cmd) {
  return {
    exitCode: 1,
    standard: [
      `Unknown command: "${cmd}"`,
      'To see a list of supported commands, run:',
      'help',
    ],
  }
}
function render (rows) {
  rows.push('not an error message')
  return 'nor is this one'
}
function getError (err) {
  return { standard: ['Missing script name, run with a script:', `  run ${err.script}`] }
}
function handleError (err) {
  return 'handled quietly and returned'
}
const makeParsedError = (msg, parsing, position = 0) => ({
  message: `${msg} while parsing ${parsing}`,
  position,
})
const makeLabel = (name) => ({ label: `a label for ${name}` })
const joinError = error => (items, { red, yellow }) =>
  `${error ? red("ERROR") : yellow("WARNING")} in ${items.join("")}`
const handleError2 = (err) => `handled quietly ${err}`
"#,
        );
        assert_eq!(
            pattern_column(&s),
            vec![
                "The full log is in: %v",
                "Not found anywhere",
                "Could not parse the data.\nNote: the file must be JSON.",
                "Unknown command: \"%v\"",
                "To see a list of supported commands, run:",
                "Missing script name, run with a script:",
                "  run %v",
                "%v while parsing %v",
                "ERROR in %v",
                "WARNING in %v",
            ]
        );
    }

    #[test]
    fn a_choice_kept_under_a_name_fills_the_hole_that_prints_the_name() {
        let sites = crate::test_support::sites_of(
            "lib/view.js",
            r#"
function lookup (name, roots) {
  var dirs = roots.length > 1
    ? 'directories "' + roots.join('", "') + '"'
    : 'directory "' + roots[0] + '"'
  var err = new Error('Failed to lookup view "' + name + '" in views ' + dirs)
  return done(err)
}
function other (roots) {
  const where = roots.length ? 'somewhere in "' + roots + '"' : 'nowhere at all'
  throw new Error('Not found ' + roots)
}
"#,
        );
        let fills: Vec<(&str, Option<(&str, &str)>)> = sites
            .iter()
            .map(|s| {
                let fill = s.facts.fills.as_ref();
                (
                    s.message_pattern.as_str(),
                    fill.map(|f| (f.function.as_str(), f.arg.as_str())),
                )
            })
            .collect();
        assert!(
            fills.contains(&("directory \"%v\"", Some(("lookup", "dirs")))),
            "{fills:?}"
        );
        assert!(
            fills.contains(&("directories \"%v\"", Some(("lookup", "dirs")))),
            "{fills:?}"
        );
        // A name the function's messages do not print fills nothing.
        assert!(
            fills
                .iter()
                .all(|(p, f)| !p.starts_with("somewhere") || f.is_none()),
            "{fills:?}"
        );
    }

    #[test]
    fn an_errors_new_message_and_both_branches_of_a_thrown_choice_are_sites() {
        let s = patterns_of(
            "lib/read.js",
            r#"
async function read (filename, spec, forbidden) {
  try {
    return await readFile(filename)
  } catch (err) {
    err.message = `Could not read package.json: ${err}`
    throw err
  }
}
function pick (spec, forbidden) {
  const msg = !forbidden ? `No matching version found for ${spec}.`
    : `Could not download ${spec} due to policy`
  throw Object.assign(new Error(msg), { code: 'ETARGET' })
}
function label (on) {
  const text = on ? 'switched on now' : 'switched off now'
  row.message = text
  return text
}
"#,
        );
        let got = pattern_column(&s);
        for want in [
            "Could not read package.json: %v",
            "No matching version found for %v.",
            "Could not download %v due to policy",
        ] {
            assert!(got.contains(&want), "{want} not in {got:?}");
        }
        // A choice of texts that is never output is no message.
        assert!(!got.iter().any(|g| g.starts_with("switched")), "{got:?}");
    }
}
