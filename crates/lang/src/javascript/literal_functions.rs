//! Functions whose whole body returns one literal (`function usage() {
//! return 'usage: tool <cmd>'; }`, `helpText() { return "…"; }`,
//! `const hint = () => "…"`): that text wherever they are called without
//! arguments (`throw new Error(usage())`, `this.helpText()`).

use super::literal;
use crate::message::Message;
use crate::tree::{arguments, Cx};
use tree_sitter::Node;

/// Collects the file's literal functions among its constants (under
/// [`crate::expr::returned_by`]), before the walk reaches the calls,
/// which may come first in the file.
pub(super) fn collect(root: Node<'_>, cx: &mut Cx<'_>) {
    crate::expr::collect_returned_literals(root, cx, literal_function);
}

/// A function's name and the literal its whole body returns.
fn literal_function(n: Node<'_>, cx: &Cx<'_>) -> Option<(String, String)> {
    let (name, f) = match n.kind() {
        "function_declaration" | "method_definition" => (n.child_by_field_name("name")?, n),
        "variable_declarator" => {
            let f = n.child_by_field_name("value")?;
            if !matches!(f.kind(), "arrow_function" | "function_expression") {
                return None;
            }
            (n.child_by_field_name("name")?, f)
        }
        _ => return None,
    };
    let no_parameters = f
        .child_by_field_name("parameters")
        .is_none_or(|p| p.named_child_count() == 0);
    if !no_parameters || f.child_by_field_name("parameter").is_some() {
        return None;
    }
    let body = f.child_by_field_name("body")?;
    let value = if body.kind() == "statement_block" {
        let only = crate::expr::only_statement(body)?;
        if only.kind() != "return_statement" {
            return None;
        }
        only.named_child(0)?
    } else {
        body
    };
    Some((cx.text(name).to_string(), literal(value, cx)?))
}

/// The text a call of a literal function gives: `usage()` or
/// `this.helpText()` without arguments.
pub(super) fn call<'c>(n: Node<'_>, cx: &'c Cx<'_>) -> Option<&'c Message> {
    if n.kind() != "call_expression" || !arguments(n.child_by_field_name("arguments")).is_empty() {
        return None;
    }
    let f = n.child_by_field_name("function")?;
    let name = match f.kind() {
        "identifier" => f,
        "member_expression"
            if f.child_by_field_name("object")
                .is_some_and(|o| o.kind() == "this") =>
        {
            f.child_by_field_name("property")?
        }
        _ => return None,
    };
    crate::expr::returned_text(cx, cx.text(name))
}

#[cfg(test)]
mod tests {
    use crate::test_support::{pattern_column, patterns_of};

    #[test]
    fn a_function_whose_whole_body_returns_a_literal_is_that_text_where_called() {
        for path in ["lib/cli.js", "src/cli.ts"] {
            let s = patterns_of(
                path,
                r#"
class Cli {
  run(name) {
    if (!name) throw new UsageError(this.helpText());
    throw new Error(name + ": " + usage());
  }
  helpText() { return "See https://guides.example.org/cli for help"; }
  busy(x) { return `not a constant ${x}`; }
}
function usage() {
  // One line.
  return 'usage: cli run <name>';
}
const hint = () => "try cli --help";
function fail() { throw new Error(hint()); }
"#,
            );
            assert_eq!(
                pattern_column(&s),
                [
                    "See https://guides.example.org/cli for help",
                    "%v: usage: cli run <name>",
                    "try cli --help",
                ],
                "{path}"
            );
        }
    }
}
