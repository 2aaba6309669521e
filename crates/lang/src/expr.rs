//! The one message builder: the message an expression evaluates to, and
//! the source text of the values that fill its holes.
//!
//! What the languages share is read here, from the node kinds each grammar
//! names in its [`Messages`]: literals that print as written, parentheses,
//! concatenation, runs of adjacent strings, and names of the file's
//! constants. What only one language has (its string literals and their
//! escapes and interpolations, its format and translation calls, Python's
//! and Ruby's `%`, Java's lambdas) it reads itself in
//! [`Messages::read_own`], asked first.
//!
//! Where the languages' rules really differ the table says so:
//! [`Messages::gated`] (the JVM languages read parentheses and `+` only
//! around literal text, since `a + b` of two values is as often
//! arithmetic) and [`Messages::join`] (whether the texts on both sides of
//! a concatenation merge). Go keeps its own walk (`go/mod.rs`): its
//! messages are built from `fmt` verbs and package constants across files,
//! with its own rules for `+` of constants. C keeps its own too (`c.rs`):
//! adjacent literals and macros (`"a" PRIx64 "b"`) make one format string,
//! which is no concatenation of messages (C++ shares C's). Rust reads its
//! messages out of macro token trees (`format!`'s arguments are tokens,
//! not expressions). JavaScript reads through parentheses everywhere and
//! follows local variables to their values, so it keeps its reader beside
//! its other rules.

use crate::formats::Piece;
use crate::message::{Message, MsgPart};
use crate::tree::{text_part, Cx};
use tree_sitter::Node;

/// A message and the source text of the values that fill its holes.
pub(crate) type Read = (Message, Vec<String>);

/// How a name expression names a constant of the file.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Name {
    /// The node's own text (`MSG`).
    Itself,
    /// The text of one field (`Owner.MSG`: its `field`).
    Field(&'static str),
    /// The text of its last named child (Kotlin's `Owner.MSG`).
    LastChild,
}

/// How the two sides of a concatenation join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Join {
    /// Parts appended as they are.
    Append,
    /// Plain text merged into the plain text before it.
    Merge,
}

/// How one grammar's expressions make messages: the node kinds of the
/// shared forms, and the language's reader of its own.
pub(crate) struct Messages {
    /// Reads the forms only this language has (its string literals,
    /// format and translation calls); `None` leaves `n` to the shared
    /// rules.
    pub read_own: fn(Node<'_>, &Cx<'_>) -> Option<Read>,
    /// Whether such a form has literal text (for gated languages); `None`
    /// leaves it to the shared rules.
    pub own_has_text: fn(Node<'_>, &Cx<'_>) -> Option<bool>,
    /// The text of a plain literal (no interpolation), where the language
    /// reads one as text before anything else.
    pub plain: Option<fn(Node<'_>, &Cx<'_>) -> Option<String>>,
    /// String literal kinds (read by [`Messages::read_own`]); with
    /// [`Messages::gated`] they count as text.
    pub strings: &'static [&'static str],
    /// Literals that print as written (numbers, booleans).
    pub scalars: &'static [&'static str],
    /// Parentheses around one expression.
    pub parens: &'static [&'static str],
    /// Binary expressions (fields `left`, `operator`, `right`).
    pub binaries: &'static [&'static str],
    /// The operator of [`Messages::binaries`] that concatenates text.
    pub concat: &'static str,
    /// Runs of adjacent string literals (`"a" "b"`): their named children
    /// joined.
    pub chains: &'static [&'static str],
    /// Names that may be constants of the file, and which part names it.
    pub names: &'static [(&'static str, Name)],
    /// Whether parentheses and concatenation are read only when literal
    /// text is inside ([`Messages::has_text`]); otherwise the whole is one
    /// hole.
    pub gated: bool,
    /// How concatenated parts join.
    pub join: Join,
}

/// For languages whose own forms need no text test.
pub(crate) fn shared_has_text(_: Node<'_>, _: &Cx<'_>) -> Option<bool> {
    None
}

/// No form of its own and none of the shared ones: each language names
/// what it has and takes the rest from here.
pub(crate) const NOTHING: Messages = Messages {
    read_own: |_, _| None,
    own_has_text: shared_has_text,
    plain: None,
    strings: &[],
    scalars: &[],
    parens: &[],
    binaries: &[],
    concat: "+",
    chains: &[],
    names: &[],
    gated: false,
    join: Join::Append,
};

/// `n` as one run-time value.
pub(crate) fn hole(n: Node<'_>, cx: &Cx<'_>) -> Read {
    (vec![MsgPart::Hole], vec![cx.text(n).to_string()])
}

impl Messages {
    /// The message `n` evaluates to and the source of its holes.
    pub(crate) fn message_of(&self, n: Node<'_>, cx: &Cx<'_>) -> Read {
        if let Some(text) = self.plain.and_then(|plain| plain(n, cx)) {
            return (vec![text_part(text)], Vec::new());
        }
        if let Some(read) = (self.read_own)(n, cx) {
            return read;
        }
        let kind = n.kind();
        let gate = |n| !self.gated || self.has_text(n, cx);
        if self.scalars.contains(&kind) {
            (vec![text_part(cx.text(n))], Vec::new())
        } else if self.parens.contains(&kind) && gate(n) {
            match n.named_child(0) {
                Some(inner) => self.message_of(inner, cx),
                None => hole(n, cx),
            }
        } else if self.binaries.contains(&kind) && gate(n) {
            match operands(n, cx) {
                Some((op, l, r)) if op == self.concat => {
                    join(self.join, self.message_of(l, cx), self.message_of(r, cx))
                }
                _ => hole(n, cx),
            }
        } else if self.chains.contains(&kind) {
            let mut cur = n.walk();
            let children: Vec<Node<'_>> = n.named_children(&mut cur).collect();
            children
                .into_iter()
                .fold((Vec::new(), Vec::new()), |acc, s| {
                    join(self.join, acc, self.message_of(s, cx))
                })
        } else if let Some(name) = self.name_of(n) {
            match name.and_then(|name| cx.facts.constants.get(cx.text(name))) {
                Some(m) => (m.clone(), Vec::new()),
                None => hole(n, cx),
            }
        } else {
            hole(n, cx)
        }
    }

    /// For a name expression, the node that names the constant
    /// (`Some(None)` when its form has no such part); `None` for any other
    /// expression.
    fn name_of<'t>(&self, n: Node<'t>) -> Option<Option<Node<'t>>> {
        let (_, how) = self.names.iter().find(|(kind, _)| *kind == n.kind())?;
        Some(match how {
            Name::Itself => Some(n),
            Name::Field(f) => n.child_by_field_name(f),
            Name::LastChild => n
                .named_child_count()
                .checked_sub(1)
                .and_then(|last| n.named_child(last as u32)),
        })
    }

    /// Whether `n` evaluates to a message with literal text: a string, a
    /// concatenation with one, a known constant, or what the language says
    /// of its own forms.
    pub(crate) fn has_text(&self, n: Node<'_>, cx: &Cx<'_>) -> bool {
        cx.remembered_text(n, || self.find_text(n, cx))
    }

    fn find_text(&self, n: Node<'_>, cx: &Cx<'_>) -> bool {
        if let Some(b) = (self.own_has_text)(n, cx) {
            return b;
        }
        let kind = n.kind();
        if self.strings.contains(&kind) {
            true
        } else if self.parens.contains(&kind) {
            n.named_child(0).is_some_and(|i| self.has_text(i, cx))
        } else if self.binaries.contains(&kind) {
            n.child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == self.concat)
                && [
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ]
                .into_iter()
                .flatten()
                .any(|s| self.has_text(s, cx))
        } else if let Some(name) = self.name_of(n) {
            name.is_some_and(|name| cx.facts.constants.contains_key(cx.text(name)))
        } else {
            false
        }
    }

    /// The plain text of a string, a concatenation of strings, or a
    /// constant (no holes, no format syntax); `None` for anything else.
    pub(crate) fn literal(&self, n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
        let kind = n.kind();
        let textual = self.strings.contains(&kind)
            || self.parens.contains(&kind)
            || self.binaries.contains(&kind)
            || self.names.iter().any(|(name, _)| *name == kind);
        if textual {
            as_literal(&self.message_of(n, cx))
        } else {
            None
        }
    }
}

/// The text of a message that is plain text only (no holes, no format).
pub(crate) fn as_literal((m, h): &Read) -> Option<String> {
    if !h.is_empty() {
        return None;
    }
    let mut out = String::new();
    for p in m {
        match p {
            MsgPart::Text {
                text,
                format: false,
            } => out.push_str(text),
            _ => return None,
        }
    }
    Some(out)
}

/// A binary expression's operator and its left and right operands.
pub(crate) fn operands<'t, 'a>(n: Node<'t>, cx: &Cx<'a>) -> Option<(&'a str, Node<'t>, Node<'t>)> {
    Some((
        cx.text(n.child_by_field_name("operator")?),
        n.child_by_field_name("left")?,
        n.child_by_field_name("right")?,
    ))
}

/// `a + b` of two messages.
pub(crate) fn join(how: Join, (mut m, mut h): Read, (m2, h2): Read) -> Read {
    match how {
        Join::Append => m.extend(m2),
        Join::Merge => {
            for p in m2 {
                match p {
                    MsgPart::Text {
                        text,
                        format: false,
                    } => push_text(&mut m, &text),
                    p => m.push(p),
                }
            }
        }
    }
    h.extend(h2);
    (m, h)
}

/// Appends plain text, merged into the plain text before it.
pub(crate) fn push_text(parts: &mut Message, t: &str) {
    if t.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some(MsgPart::Text {
            text,
            format: false,
        }) => text.push_str(t),
        _ => parts.push(text_part(t)),
    }
}

/// The text of a run of adjacent literals (`"a" "b"`), each read by
/// `text`; `None` when one of them is no plain literal.
pub(crate) fn chain_text<'t>(
    n: Node<'t>,
    text: impl FnMut(Node<'t>) -> Option<String>,
) -> Option<String> {
    let mut cur = n.walk();
    let parts: Vec<Node<'t>> = n.named_children(&mut cur).collect();
    parts.into_iter().map(text).collect()
}

/// A string literal's pieces: each named child (its text, escapes and
/// interpolations) read by `read`; those it gives nothing for
/// (delimiters, comments) are left out.
pub(crate) fn pieces_of<'a>(
    n: Node<'_>,
    read: impl FnMut(Node<'_>) -> Option<Piece<'a>>,
) -> Vec<Piece<'a>> {
    let mut cur = n.walk();
    let children: Vec<Node<'_>> = n.named_children(&mut cur).collect();
    children.into_iter().filter_map(read).collect()
}

/// The source text of each value.
pub(crate) fn texts(args: &[Node<'_>], cx: &Cx<'_>) -> Vec<String> {
    args.iter().map(|a| cx.text(*a).to_string()).collect()
}

/// The key under which a function whose whole body returns one literal
/// keeps that text among a file's constants: its name and `()`, apart from
/// constants of the same name.
pub(crate) fn returned_by(function: &str) -> String {
    format!("{function}()")
}

/// The text a function of `name` returns when its whole body is one
/// literal ([`collect_returned_literals`]).
pub(crate) fn returned_text<'c>(cx: &'c Cx<'_>, name: &str) -> Option<&'c Message> {
    cx.facts.constants.get(&returned_by(name))
}

/// Keeps among the file's constants (under [`returned_by`]) the text of
/// each function below `root` that `literal_function` reads as one
/// returning a single literal (its name and that text). Run before the
/// walk reaches the calls, which may come first in the file.
pub(crate) fn collect_returned_literals(
    root: Node<'_>,
    cx: &mut Cx<'_>,
    literal_function: impl Fn(Node<'_>, &Cx<'_>) -> Option<(String, String)>,
) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if let Some((name, text)) = literal_function(n, cx) {
            let key = returned_by(&name);
            cx.facts.constants.insert(key, vec![text_part(text)]);
        }
        let mut cur = n.walk();
        stack.extend(n.named_children(&mut cur));
    }
}

/// The one statement of a block, comments aside; `None` for a block of
/// none or several.
pub(crate) fn only_statement(block: Node<'_>) -> Option<Node<'_>> {
    let mut cur = block.walk();
    let mut statements = block
        .named_children(&mut cur)
        .filter(|c| !c.kind().ends_with("comment"));
    match (statements.next(), statements.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}
