//! What a PHP command-line program prints on its console: Symfony
//! Console's markup, its output and IO printers (`$output->writeln(…)`,
//! Composer's `$io->writeError(…)`), and messages kept in a variable that
//! the function then throws or prints.

use super::{is_text, M};
use crate::expr::Read;
use crate::flow;
use crate::message::MsgPart;
use crate::tree::{self, Cx};
use errdex_model::{ErrorType, Severity};
use tree_sitter::Node;

/// The printers of Symfony's `OutputInterface` and Composer's
/// `IOInterface`.
const PRINTERS: &[&str] = &[
    "write",
    "writeln",
    "writeError",
    "writeErrorRaw",
    "overwrite",
];

/// Symfony Console's styles: `<info>…</info>` and the like are markup the
/// formatter turns into colours, never printed.
const STYLES: &[&str] = &[
    "info",
    "comment",
    "error",
    "warning",
    "question",
    "highlight",
];

/// `text` without Symfony Console's markup: the named styles, `</>` and
/// inline styles (`<fg=red;options=bold>`, `<href=…>`).
pub(super) fn without_console_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        match tail.find('>').filter(|end| is_style_tag(&tail[1..*end])) {
            Some(end) => rest = &tail[end + 1..],
            None => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `inner` (a tag without its angle brackets) is a Console style.
fn is_style_tag(inner: &str) -> bool {
    let name = inner.strip_prefix('/').unwrap_or(inner);
    name.is_empty() && inner == "/"
        || STYLES.contains(&name)
        || ["fg=", "bg=", "options=", "href="]
            .iter()
            .any(|p| name.starts_with(p) && !name.contains([' ', '<']))
}

/// `$output->writeln('<error>…</error>')`, `$this->io->writeError('…')`:
/// a console printer called on an output or IO object. Its level is the
/// style around the text: `<error>` an error, `<warning>` a warning, the
/// rest the trace-only tier. Returns whether `n` is such a call.
pub(super) fn printer(
    n: Node<'_>,
    object: &str,
    method: &str,
    pos: &[Node<'_>],
    cx: &mut Cx<'_>,
) -> bool {
    let receiver = object
        .rsplit("->")
        .next()
        .unwrap_or(object)
        .to_ascii_lowercase();
    let console =
        matches!(receiver.trim_start_matches('$'), "io" | "getio()") || receiver.contains("output");
    if !PRINTERS.contains(&method) || !console {
        return false;
    }
    let Some(msg) = pos.first().copied().filter(|m| is_text(*m)) else {
        return true;
    };
    let sev = match style_of(cx.text(msg)) {
        Some("error") => Severity::Error,
        Some("warning") => Severity::Warning,
        _ if cx.opts.all_levels => Severity::Info,
        _ => return true,
    };
    let site = cx.site(n, &format!("{object}->{method}"), ErrorType::Log, sev);
    let (message, holes) = M.message_of(msg, cx);
    cx.push(site, message, holes, n);
    true
}

/// The style the source text of a message opens its first string with
/// (`'<error>…'`, `sprintf('<warning>%s…', …)`).
fn style_of(source: &str) -> Option<&str> {
    let quote = source.find(['\'', '"'])?;
    let inner = source[quote + 1..].strip_prefix('<')?;
    let name = &inner[..inner.find('>')?];
    STYLES.contains(&name).then_some(name)
}

/// `$message = sprintf('Command "%s" is not defined.', $name)` or `$text
/// .= "  Problem …"`: text kept in a variable (or appended to it, or to
/// an array, `$hints[] = '…'`) that the function throws or prints — or any
/// such text inside an exception class's methods, which build the
/// message they carry. The site is the assignment.
pub(super) fn kept(n: Node<'_>, cx: &mut Cx<'_>) {
    let (Some(left), Some(value)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    let var = match left.kind() {
        "variable_name" => left,
        "subscript_expression" => match left.named_child(0) {
            Some(v) if v.kind() == "variable_name" => v,
            _ => return,
        },
        _ => return,
    };
    // `$instructions = $fullLoad ? 'To initialize a project, …' : ''`:
    // each branch that is text is a message of its own.
    let texts: Vec<Node<'_>> = if value.kind() == "conditional_expression" {
        ["body", "alternative"]
            .into_iter()
            .filter_map(|f| value.child_by_field_name(f))
            .filter(|b| is_text(*b))
            .collect()
    } else if is_text(value) {
        vec![value]
    } else {
        return;
    };
    let name = cx.text(var);
    let used = !texts.is_empty()
        && (crate::is_message_name(name.trim_start_matches('$'))
            || in_exception_class(n, cx)
            || thrown_or_printed(n, name, cx));
    if !used {
        return;
    }
    let op = if n.kind() == "assignment_expression" {
        "="
    } else {
        ".="
    };
    let next = appended_next(n, name, cx);
    for text in texts {
        let (mut message, mut holes): Read = M.message_of(text, cx);
        if let Some(value) = &next {
            message.push(MsgPart::Hole);
            holes.push(value.clone());
        }
        if flow::words(&message) > 0 {
            cx.push_kept_message_as(n, op, message, holes, name);
        }
    }
}

/// `$errStr .= "Expected: ";` then `$errStr .= implode(', ', $expected);`:
/// a value the next statement appends to the same variable continues the
/// text, as its hole. The value's source, when the next statement is
/// such an append of no text.
fn appended_next(n: Node<'_>, name: &str, cx: &Cx<'_>) -> Option<String> {
    let statement = n.parent().filter(|p| p.kind() == "expression_statement")?;
    let next = tree::next_statement(statement)?;
    let append = next.named_child(0).filter(|a| {
        next.kind() == "expression_statement" && a.kind() == "augmented_assignment_expression"
    })?;
    let is_append = tree::operator_is(append, ".=", cx);
    let same = append
        .child_by_field_name("left")
        .is_some_and(|l| cx.text(l) == name);
    // `implode(', ', $list)` starts with a literal but is a value.
    let joined = |v: Node<'_>| {
        v.kind() == "function_call_expression"
            && v.child_by_field_name("function")
                .is_some_and(|f| matches!(cx.text(f).trim_start_matches('\\'), "implode" | "join"))
    };
    let value = append
        .child_by_field_name("right")
        .filter(|v| !is_text(*v) || joined(*v))?;
    (is_append && same).then(|| cx.text(value).to_string())
}

/// Whether `n` is inside a method of a class named `…Exception` or
/// `…Error`.
fn in_exception_class(n: Node<'_>, cx: &Cx<'_>) -> bool {
    let mut p = n.parent();
    while let Some(q) = p {
        if q.kind() == "class_declaration" {
            return q.child_by_field_name("name").is_some_and(|c| {
                let c = cx.text(c);
                c.ends_with("Exception") || c.ends_with("Error")
            });
        }
        p = q.parent();
    }
    false
}

/// Whether the function around `n` throws `name` or prints it (a
/// `throw` or a console printer call whose text names the variable).
fn thrown_or_printed(n: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    const OUTPUTS: flow::Outputs = flow::Outputs {
        starts: &["throw "],
        calls: PRINTERS,
        unless: &[],
    };
    cx.function_text_after(n)
        .is_some_and(|after| flow::reaches_output(after, name, &OUTPUTS))
}

#[cfg(test)]
mod tests {
    use super::without_console_tags;
    use crate::test_support::{pattern_column, patterns_of};

    #[test]
    fn console_printers_are_sites_at_their_style() {
        let s = patterns_of(
            "src/Command/Run.php",
            r#"<?php
class Run {
    function go($io, $output, $cmd) {
        $this->io->writeError('<error>Script '.$cmd.' returned with error code 3</error>');
        $output->writeln(sprintf('<warning>%s is deprecated</warning>', $cmd));
        $this->getIO()->writeError('<info>Loading packages</info>');
        $ratio->write('<error>not a console</error>');
    }
}
"#,
        );
        // Info printers are the trace-only tier: not indexed by default.
        assert_eq!(
            pattern_column(&s),
            ["Script %v returned with error code 3", "%s is deprecated"]
        );
        assert_eq!(s[0].0, "$this->io->writeError");
    }

    #[test]
    fn a_styled_escaped_line_prints_its_inner_format() {
        let s = patterns_of(
            "src/Application.php",
            r#"<?php
class Application {
    function render($output, $e, $len) {
        $messages = [];
        $messages[] = sprintf('<comment>%s</comment>', OutputFormatter::escape(sprintf('In %s line %s:', basename($e->getFile()), $e->getLine())));
        $messages[] = $emptyLine = sprintf('<error>%s</error>', str_repeat(' ', $len));
        $output->writeln($messages, OutputInterface::VERBOSITY_QUIET);
    }
}
"#,
        );
        assert_eq!(pattern_column(&s), ["In %s line %s:"]);
    }

    #[test]
    fn text_kept_in_a_variable_is_a_site_where_it_is_thrown() {
        let s = patterns_of(
            "src/Application.php",
            r#"<?php
class Application {
    function find($name) {
        $message = sprintf('Command "%s" is not defined.', $name);
        if ($alternatives) {
            $message .= "\n\nDid you mean this?\n    ";
        }
        $label = 'unrelated text that goes nowhere';
        $hint = 'Run the list command to see them';
        $this->io->writeError($hint);
        throw new CommandNotFoundException($message, $alternatives);
    }
}
class SolverProblemsException extends \RuntimeException {
    function pretty($problems) {
        $text = "\n";
        foreach ($problems as $problem) {
            $text .= "  Problem ".($i++).$problem;
        }
        $hints[] = "Potential causes:\n - A typo in the package name";
        return $text;
    }
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "Command \"%s\" is not defined.",
                "\n\nDid you mean this?\n    ",
                "Run the list command to see them",
                "  Problem %v%v",
                "Potential causes:\n - A typo in the package name",
            ]
        );
    }

    #[test]
    fn a_value_appended_next_to_the_same_name_continues_the_text() {
        let s = patterns_of(
            "src/Parser.php",
            r#"<?php
class Parser {
    function fail($expected, $extra) {
        $errStr = 'Parse error on line 3';
        $errStr .= (count($expected) > 1) ? "Expected one of: " : "Expected: ";
        $errStr .= implode(', ', $expected);
        $errStr .= " - It appears you have a trailing comma";
        $errStr .= " and more";
        throw new ParsingException($errStr);
    }
}
"#,
        );
        assert_eq!(
            pattern_column(&s),
            [
                "Parse error on line 3Expected one of: ",
                "Parse error on line 3Expected: ",
                "Expected one of: %v",
                "Expected: %v",
                " - It appears you have a trailing comma",
                " and more"
            ]
        );
    }

    #[test]
    fn each_text_branch_of_a_conditional_kept_in_a_variable_is_a_site() {
        const SOURCE: &str = r#"<?php
class Factory {
    function load($full, $path) {
        $instructions = $full ? 'Create the settings file first, then run again' : '';
        $note = $full ? 'a note that goes nowhere' : 'nor does this one';
        throw new \InvalidArgumentException('Missing '.$path.PHP_EOL.$instructions);
    }
}
"#;
        let s = patterns_of("src/Factory.php", SOURCE);
        assert_eq!(
            pattern_column(&s),
            [
                "Create the settings file first, then run again",
                "Missing %v%v%v"
            ]
        );
        // The thrown message prints the name in a hole: the branch fills it.
        let sites = crate::test_support::sites_of("src/Factory.php", SOURCE);
        let fill = sites[0].facts.fills.as_ref().map(|f| f.arg.as_str());
        assert_eq!(fill, Some("$instructions"));
    }

    #[test]
    fn console_markup_is_no_text() {
        for (src, want) in [
            ("<info>Loading packages</info>", "Loading packages"),
            ("<error>Script %s failed</error>", "Script %s failed"),
            ("<fg=red;options=bold>x</> y", "x y"),
            ("<href=https://x.org>docs</>", "docs"),
            ("a <b> c < d", "a <b> c < d"),
            (
                "see <https://getcomposer.org/doc>",
                "see <https://getcomposer.org/doc>",
            ),
        ] {
            assert_eq!(without_console_tags(src), want, "{src}");
        }
    }
}
