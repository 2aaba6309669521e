//! Messages kept under a local name and handed to an error or a log
//! later in the function: grpc's `errStr = "latest balancer error: " +
//! lastPickErr.Error()` … `status.Error(codes.DeadlineExceeded, errStr)`.
//! The site is the assignment, which holds the message's text; the call
//! that hands the name on holds none.

use super::facts::is_function;
use super::{call_args, method_spec, spec, Callee, FileCx};
use crate::flow;
use crate::message::MsgPart;
use errdex_model::{ErrorType, Severity};
use tree_sitter::Node;

impl FileCx<'_> {
    /// `name = <text>` or `name := <text>` (one name, one value holding a
    /// string literal) whose name a later output of the function names.
    pub(super) fn kept_message(&mut self, n: Node<'_>) {
        // `+=` adds to a message kept elsewhere.
        if n.child_by_field_name("operator")
            .is_some_and(|o| self.text(o) != "=")
        {
            return;
        }
        let (Some(left), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            return;
        };
        let (Some(name), Some(value)) = (only_child(left), only_child(right)) else {
            return;
        };
        // Most assignments hold no text: told from their source before
        // the value is read.
        let source = self.text(value);
        if name.kind() != "identifier" || !source.contains(['"', '`']) {
            return;
        }
        let message = self.message_of(value, false);
        let words = flow::words(&message);
        let with_hole = message.iter().any(|p| match p {
            MsgPart::Text { text, format } => *format && text.contains('%'),
            _ => true,
        });
        if words < 2 && !(words == 1 && with_hole) {
            return;
        }
        let Some(function) =
            std::iter::successors(n.parent(), |p| p.parent()).find(|p| is_function(p.kind()))
        else {
            return;
        };
        let name = self.text(name);
        let after = self
            .src
            .get(n.end_byte()..function.end_byte())
            .unwrap_or_default();
        let named_after = std::str::from_utf8(after).is_ok_and(|a| flow::mentions(a, name));
        if !named_after {
            return;
        }
        // A piece of one word and a hole (`"error:%v"`) only where it is
        // seen filling a hole.
        let fills = self.filled_by(function, n.end_byte(), name);
        if fills.is_none() && (words < 2 || !self.handed_on(function, n.end_byte(), name)) {
            return;
        }
        let mut site = self.site(n, "=".into(), ErrorType::Exception, Severity::Error);
        site.args = self.hole_exprs(value);
        site.facts.fills = fills;
        site.facts.kept = true;
        self.push(site, message, source.to_string());
    }

    /// Whether a call of `function` after byte `from` hands `name` to an
    /// error constructor, a logger or `panic` as its message or one of the
    /// values after it (`fmt.Errorf("%s: %w", msg, err)`).
    fn handed_on(&self, function: Node<'_>, from: usize, name: &str) -> bool {
        let mut found = false;
        crate::tree::preorder(function, |n| {
            if found || n.start_byte() < from || n.kind() != "call_expression" {
                return;
            }
            let Some(msg) = self.message_index(n) else {
                return;
            };
            found = call_args(n)
                .get(msg..)
                .unwrap_or_default()
                .iter()
                .any(|a| a.kind() == "identifier" && self.text(*a) == name);
        });
        found
    }

    /// The index of the message among a call's arguments, when it is an
    /// error constructor, a logger or `panic` (`x.Error()` and other
    /// methods of no logger are not).
    pub(super) fn message_index(&self, call: Node<'_>) -> Option<usize> {
        match self.callee(call) {
            Callee::Panic => Some(0),
            Callee::Pkg { path, func } => self
                .stderr_print(call, path, func)
                .or_else(|| spec(path, func))
                .map(|s| s.msg),
            Callee::Method { recv, func } => self
                .logger_first(call, func)
                .or_else(|| method_spec(recv, func, false))
                .map(|s| s.msg),
            Callee::KlogVerbose { .. } | Callee::Other => None,
        }
    }
}

/// The one named child of an expression list (`a` of `a := …`), or the
/// node itself when it is no list.
pub(super) fn only_child(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind() != "expression_list" {
        return Some(n);
    }
    (n.named_child_count() == 1)
        .then(|| n.named_child(0))
        .flatten()
}

impl FileCx<'_> {
    /// `func usage() string { return "usage: tool <cmd>" }`: a function
    /// without parameters whose whole body returns one literal is that
    /// text where it is called (`errors.New(usage())`), across the
    /// package, as its constants are.
    pub(super) fn literal_function(&mut self, f: Node<'_>) {
        if f.kind() != "function_declaration"
            || f.child_by_field_name("parameters")
                .is_none_or(|p| p.named_child_count() > 0)
        {
            return;
        }
        let (Some(name), Some(body)) =
            (f.child_by_field_name("name"), f.child_by_field_name("body"))
        else {
            return;
        };
        // The grammar puts a block's statements in a `statement_list`.
        let body = match super::named_children(body).as_slice() {
            [list] if list.kind() == "statement_list" => *list,
            _ => body,
        };
        let Some(only) = crate::expr::only_statement(body) else {
            return;
        };
        let value = match only.named_child(0) {
            Some(list) if only.kind() == "return_statement" => super::named_children(list),
            _ => return,
        };
        let [value] = value.as_slice() else {
            return;
        };
        let Some(text) = super::string_literal(*value, self.src) else {
            return;
        };
        let key = crate::expr::returned_by(self.text(name));
        self.facts
            .constants
            .insert(key, vec![crate::tree::text_part(text)]);
    }

    /// `fmt.Fprint(os.Stderr, "tool: ")` then `fmt.Fprintln(os.Stderr,
    /// err)`: text written to a stream without a line break, when the next
    /// statement writes a value to the same stream, makes one line with
    /// it; gives the value's text, the line's hole.
    pub(super) fn continued(
        &self,
        call: Node<'_>,
        callee: &str,
        message: &[MsgPart],
        args: &[Node<'_>],
    ) -> Option<String> {
        let open_line = match message.last() {
            Some(MsgPart::Text { text, .. }) => !text.ends_with('\n'),
            _ => false,
        };
        let written = matches!(callee, "fmt.Fprint" | "fmt.Fprintf")
            && message.iter().all(|p| matches!(p, MsgPart::Text { .. }))
            && open_line;
        let stream = args.first().filter(|_| written && args.len() == 2)?;
        let statement = call
            .parent()
            .filter(|p| p.kind() == "expression_statement")?;
        let next = crate::tree::next_statement(statement)?
            .named_child(0)
            .filter(|c| c.kind() == "call_expression")?;
        let next_callee = self.text(next.child_by_field_name("function")?);
        let next_args = call_args(next);
        let same_stream = next_args
            .first()
            .is_some_and(|s| self.text(*s) == self.text(*stream));
        if !next_callee.starts_with("fmt.Fprint") || !same_stream || next_args.len() < 2 {
            return None;
        }
        let values: Vec<&str> = next_args[1..].iter().map(|a| self.text(*a)).collect();
        Some(values.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use crate::go::tests::sites;

    #[test]
    fn a_message_kept_under_a_name_and_handed_to_an_error_is_a_site() {
        let src = r#"package p

import (
	"fmt"

	"google.golang.org/grpc/status"
)

func pick(ctx context.Context) error {
	var errStr string
	if lastErr != nil {
		errStr = "latest balancer error: " + lastErr.Error()
	} else {
		errStr = ctx.Err().Error()
	}
	note := fmt.Sprintf("picked %d of %d", a, b)
	log.Warn(note)
	label := "a label of two words"
	use(label)
	other := "not an error either"
	fmt.Println(other, err.Error())
	short := "x"
	errStr += " and more words"
	return status.Error(codes.DeadlineExceeded, errStr)
}
"#;
        let got: Vec<(String, u32)> = sites(src)
            .into_iter()
            .filter(|s| s.callee == "=")
            .map(|s| (s.message_pattern, s.line_number))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0], ("latest balancer error: %v".into(), 12));
        assert_eq!(got[1], ("picked %d of %d".into(), 16));
    }

    #[test]
    fn a_function_whose_whole_body_returns_a_literal_is_that_text_where_called() {
        let src = r#"package p

import "errors"

func run(name string) error {
	if name == "" {
		return errors.New(usage())
	}
	return fmt.Errorf("%s: %s", name, hint())
}

func usage() string {
	// One line.
	return "usage: cli run <name>"
}

func hint() string { return "try cli --help" }

func busy(x int) string { return "not a constant" }
"#;
        let got: Vec<String> = sites(src).into_iter().map(|s| s.message_pattern).collect();
        assert_eq!(got, ["usage: cli run <name>", "%s: %s"]);
    }

    #[test]
    fn text_then_a_value_written_to_one_stream_is_one_line() {
        let src = r#"package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprint(os.Stderr, "tool: ")
		// The cause.
		fmt.Fprintln(os.Stderr, err)
		fmt.Fprint(os.Stderr, "usage: tool FILE\n")
		fmt.Fprint(os.Stderr, "warning: ")
		fmt.Fprintln(os.Stdout, err)
		os.Exit(1)
	}
}
"#;
        let got: Vec<String> = sites(src).into_iter().map(|s| s.message_pattern).collect();
        assert_eq!(got, ["tool: %v", "usage: tool FILE", "warning: "]);
    }
}
