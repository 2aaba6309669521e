//! A hole filled by a local name that its function assigns text to prints
//! that text: `missing = _("Missing argument")` … `return
//! f"{missing}{hint}.{msg}"`, `prefix = f"{_('Usage:')} "` … `usage =
//! f"{prefix}{prog} "`. The message is one message per text assigned,
//! with the text in the hole, sited at the text: its words are what a
//! reader of a log looks for, and where they are written. A glue-only
//! message (`%v%v.%v`) becomes messages a line can be traced to.
//!
//! When the name may also hold something else (a parameter of the
//! function, or an assignment of a value that is no text) the message
//! with the hole stays beside them.

use crate::expr::Read;
use crate::message::{Message, MsgPart};
use crate::tree::{self, Cx};
use tree_sitter::Node;

/// How one grammar assigns a local name, and reads a value as text.
pub(crate) struct LocalTexts {
    /// Assignment node kinds, each with its target and value fields.
    pub assignments: &'static [(&'static str, &'static str, &'static str)],
    /// The message a value makes, when it is text.
    pub read: fn(Node<'_>, &Cx<'_>) -> Option<Read>,
}

/// One message a hole's name makes of a message.
pub(crate) struct Variant<'t> {
    pub message: Message,
    pub args: Vec<String>,
    /// The assigned text: the variant's site.
    pub at: Node<'t>,
}

/// The messages `message` (built at `n`, its holes filled by `args` one
/// to one) stands for when the first hole whose name `n`'s function
/// assigns text to holds each of those texts; and whether the message
/// with the hole stays too. `None` when no hole is filled so.
pub(crate) fn variants<'t>(
    n: Node<'t>,
    cx: &Cx<'_>,
    message: &Message,
    args: &[String],
    locals: &LocalTexts,
) -> Option<(Vec<Variant<'t>>, bool)> {
    let holes = crate::message::paired_holes(message, args)?;
    let function = enclosing_function(n, cx)?;
    args.iter().enumerate().find_map(|(k, name)| {
        // A look at the function's text first: most names are never
        // assigned there, and the tree walk is the cost.
        if !is_local_name(name) || !assigns(cx.text(function), name) {
            return None;
        }
        let (texts, other) = assigned(function, n, name, cx, locals);
        if texts.is_empty() {
            return None;
        }
        let keep = other || is_parameter(function, name, cx);
        let variants = texts
            .into_iter()
            .map(|(at, (m, a))| Variant {
                message: spliced(message, holes[k], m),
                args: [&args[..k], &a[..], &args[k + 1..]].concat(),
                at,
            })
            .collect();
        Some((variants, keep))
    })
}

/// The function `n` is in.
fn enclosing_function<'t>(n: Node<'t>, cx: &Cx<'_>) -> Option<Node<'t>> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if cx.is_function(p) {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}

/// A plain local name (`missing`, `$prefix`), not the receiver.
fn is_local_name(arg: &str) -> bool {
    let name = arg.trim_start_matches('$');
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !matches!(name, "self" | "this" | "cls")
}

/// Whether `text` holds `name` as a whole word followed by `=` (blanks
/// between allowed), not `==`: an assignment may be there.
fn assigns(text: &str, name: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    text.match_indices(name).any(|(at, _)| {
        let end = at + name.len();
        let rest = text[end..].trim_start_matches([' ', '\t']).as_bytes();
        (at == 0 || !word(b[at - 1])) && rest.first() == Some(&b'=') && rest.get(1) != Some(&b'=')
    })
}

/// Assigned text is a message piece when it has a word of its own, three
/// letters or more that start a token (`Missing file`, `Usage:`); a path
/// or a name built around values (`$dir . '/' . $id . '.json'`) is a value.
fn has_own_text(m: &Message) -> bool {
    m.iter().any(|p| match p {
        MsgPart::Text { text, .. } => text.split_whitespace().any(|w| {
            w.starts_with(|c: char| c.is_alphabetic())
                && w.chars().filter(|c| c.is_alphabetic()).count() >= 3
        }),
        _ => false,
    })
}

/// The texts `function` assigns to `name` before `n` (each with its
/// value node), and whether it also assigns it something else; a value
/// built from the name itself is neither.
fn assigned<'t>(
    function: Node<'t>,
    n: Node<'_>,
    name: &str,
    cx: &Cx<'_>,
    locals: &LocalTexts,
) -> (Vec<(Node<'t>, Read)>, bool) {
    let mut texts = Vec::new();
    let mut other = false;
    tree::preorder(function, |a| {
        if a.end_byte() > n.start_byte() {
            return;
        }
        let Some((_, target, value)) = locals.assignments.iter().find(|(k, _, _)| *k == a.kind())
        else {
            return;
        };
        let target = a.child_by_field_name(target).map(|t| cx.text(t));
        let Some(value) = a
            .child_by_field_name(value)
            .filter(|_| target == Some(name))
        else {
            return;
        };
        match (locals.read)(value, cx) {
            // `hint = f"{hint}\n"` adds to the text the name holds.
            Some((_, a)) if a.iter().any(|a| a == name) => {}
            Some(read) if has_own_text(&read.0) => texts.push((value, read)),
            _ => other = true,
        }
    });
    (texts, other)
}

/// Whether `name` is one of `function`'s parameters.
fn is_parameter(function: Node<'_>, name: &str, cx: &Cx<'_>) -> bool {
    let Some(params) = function.child_by_field_name("parameters") else {
        return false;
    };
    let name = name.trim_start_matches('$');
    let mut found = false;
    tree::preorder(params, |p| {
        found |= p.child_count() == 0 && cx.text(p).trim_start_matches('$') == name;
    });
    found
}

/// `message` with its part at `hole` replaced by `inner`'s parts, runs of
/// plain text merged.
fn spliced(message: &Message, hole: usize, inner: Message) -> Message {
    let parts = message[..hole]
        .iter()
        .cloned()
        .chain(inner)
        .chain(message[hole + 1..].iter().cloned());
    let mut out: Message = Vec::new();
    for part in parts {
        match (out.last_mut(), part) {
            (
                Some(MsgPart::Text {
                    text,
                    format: false,
                }),
                MsgPart::Text {
                    text: more,
                    format: false,
                },
            ) => text.push_str(&more),
            (_, part) => out.push(part),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;

    /// (pattern, line) of each site with literal text.
    fn patterns(path: &str, src: &str) -> Vec<(String, u32)> {
        let mut out: Vec<(String, u32)> = sites_of(path, src)
            .into_iter()
            .map(|s| (s.message_pattern, s.line_number))
            .collect();
        out.sort();
        out
    }

    fn want(pattern: &str, line: u32) -> (String, u32) {
        (pattern.to_string(), line)
    }

    #[test]
    fn python_a_name_assigned_texts_in_branches_prints_each_text() {
        let src = r#"
class MissingThing(Exception):
    def format_message(self):
        if self.kind == "file":
            what = _("Missing file")
        elif self.kind == "dir":
            what = "Missing directory"
        else:
            what = _("Missing {kind}").format(kind=self.kind)
        return f"{what}{self.hint}."
"#;
        assert_eq!(
            patterns("pkg/errors.py", src),
            [
                want("Missing %v%v.", 9),
                want("Missing directory%v.", 7),
                want("Missing file%v.", 5),
            ]
        );
    }

    #[test]
    fn python_a_parameter_given_a_default_text_prints_it() {
        // The text is sited where it is written. The parameter may hold
        // another text, but the message with the hole has too few words
        // of its own to be kept (a text kept under a name needs two).
        let src = r#"
def show_usage(out, prog, prefix=None):
    if prefix is None:
        prefix = f"{_('Usage:')} "
    line = f"{prefix}{prog} [ARGS]"
    out.write(line)
"#;
        assert_eq!(patterns("cli/usage.py", src), [want("Usage: %v [ARGS]", 4)]);
    }

    #[test]
    fn python_a_name_assigned_a_value_too_keeps_the_message_with_the_hole() {
        let src = r#"
def fail(err):
    what = "full"
    if err:
        what = str(err)
    raise RuntimeError(f"write failed: {what}")
"#;
        assert_eq!(
            patterns("pkg/w.py", src),
            [want("write failed: %v", 6), want("write failed: full", 3)]
        );
    }

    #[test]
    fn python_a_text_kept_as_a_message_is_traced_on_its_own_line() {
        // `msg` is a message of its own where it is written; the raise
        // that prints it adds nothing to trace by.
        let src = r#"
def fail(path):
    msg = "cannot parse " + path
    raise ValueError(msg)
"#;
        assert_eq!(patterns("pkg/w.py", src), [want("cannot parse %v", 3)]);
    }

    #[test]
    fn an_assignment_is_looked_for_in_the_text_first() {
        assert!(super::assigns("    what = \"x\"", "what"));
        assert!(super::assigns("what=1", "what"));
        assert!(!super::assigns("if what == 1:", "what"));
        assert!(!super::assigns("somewhat = 1", "what"));
        assert!(!super::assigns("f(what)", "what"));
    }

    #[test]
    fn python_glue_around_a_kept_text_is_no_message() {
        // `hint` is kept where its text is written; `f"{hint}\n"` adds a
        // line end, no words, and is no message of its own.
        let src = r#"
def show(self, file=None):
    hint = ""
    if self.ctx is not None:
        hint = _("Try '{command}' for help.").format(command=self.path)
        hint = f"{hint}\n"
    echo(f"{self.usage}\n{hint}", file=sys.stderr)
"#;
        assert_eq!(
            patterns("cli/errors.py", src),
            [want("%v\n%v", 7), want("Try '%v' for help.", 5)]
        );
    }

    #[test]
    fn python_a_name_never_assigned_text_is_a_hole() {
        let src = r#"
def fail(err):
    what = str(err)
    raise RuntimeError(f"write failed: {what}")

def other():
    what = "not this function's"
"#;
        assert_eq!(patterns("pkg/w.py", src), [want("write failed: %v", 4)]);
    }

    #[test]
    fn ruby_php_and_java_names_assigned_texts_print_each_text() {
        let rb = r##"
class Loader
  def fail_missing(kind)
    if kind == :file
      what = "Missing file"
    else
      what = "Missing directory"
    end
    raise ArgumentError, "#{what} for loader"
  end
end
"##;
        assert_eq!(
            patterns("lib/loader.rb", rb),
            [
                want("Missing directory for loader", 7),
                want("Missing file for loader", 5)
            ]
        );
        let php = r#"<?php
function failMissing($kind) {
    if ($kind === 'file') {
        $what = 'Missing file';
    } else {
        $what = 'Missing directory';
    }
    throw new RuntimeException("$what for loader");
}
"#;
        // PHP keeps a text that flows to a `throw` as a message where it
        // is written (and links it to the hole it fills): the throw is
        // not repeated with it.
        assert_eq!(
            patterns("src/Loader.php", php),
            [
                want("%v for loader", 8),
                want("Missing directory", 6),
                want("Missing file", 4),
            ]
        );
        let java = r#"
class Loader {
    void failMissing(boolean file) {
        String what = "Missing directory";
        if (file) {
            what = "Missing file";
        }
        throw new IllegalStateException(what + " for loader");
    }
}
"#;
        assert_eq!(
            patterns("src/main/java/Loader.java", java),
            [
                want("Missing directory for loader", 4),
                want("Missing file for loader", 6)
            ]
        );
    }
}
