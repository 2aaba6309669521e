//! How a Go call's arguments read as a message: a format and its
//! values, `Sprint`-style operands joined, the holes' expressions, and
//! the structured fields, status codes and error values beside them.

use super::*;

impl<'a> FileCx<'a> {
    /// The message made by a call's arguments from `from` on.
    pub(super) fn args_message(&self, args: &[Node<'_>], from: usize, style: Style) -> Message {
        match style {
            Style::Format => args
                .get(from)
                .map(|a| self.message_of(*a, true))
                .unwrap_or_else(|| vec![MsgPart::Hole]),
            Style::Plain => args
                .get(from)
                .map(|a| self.message_of(*a, false))
                .unwrap_or_else(|| vec![MsgPart::Hole]),
            Style::Print | Style::Println => {
                let mut out = Vec::new();
                let operands = args.get(from..).unwrap_or(&[]);
                let mut prev_string = true;
                for (i, a) in operands.iter().enumerate() {
                    let part = self.message_of(*a, false);
                    // Only literal text is known to be a string; a name may
                    // be a constant or any value.
                    let is_string = part.iter().any(|p| matches!(p, MsgPart::Text { .. }));
                    // Sprint separates operands only when neither is a string;
                    // Sprintln always does.
                    let space = i > 0
                        && match style {
                            Style::Println => true,
                            _ => !is_string && !prev_string,
                        };
                    if space {
                        out.push(MsgPart::Text {
                            text: " ".into(),
                            format: false,
                        });
                    }
                    out.extend(part);
                    prev_string = is_string;
                }
                if out.is_empty() {
                    out.push(MsgPart::Hole);
                }
                out
            }
        }
    }

    /// The message an expression evaluates to: literals and concatenations
    /// are text, identifiers may be package constants, `fmt.Sprintf` and
    /// friends are followed, everything else is a hole.
    pub(super) fn message_of(&self, e: Node<'_>, format: bool) -> Message {
        match e.kind() {
            "interpreted_string_literal" | "raw_string_literal" => vec![MsgPart::Text {
                text: string_literal(e, self.src).unwrap_or_default(),
                format,
            }],
            "parenthesized_expression" => match e.named_child(0) {
                Some(inner) => self.message_of(inner, format),
                None => vec![MsgPart::Hole],
            },
            "binary_expression"
                if e.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "+") =>
            {
                let (Some(l), Some(r)) = (
                    e.child_by_field_name("left"),
                    e.child_by_field_name("right"),
                ) else {
                    return vec![MsgPart::Hole];
                };
                let mut m = self.message_of(l, format);
                m.extend(self.message_of(r, format));
                m
            }
            "identifier" => vec![MsgPart::Const {
                name: self.text(e).to_string(),
                format,
            }],
            // `usage()`: a function of the package whose body may be one
            // literal (`FileCx::literal_function`), known once the
            // package's files are read.
            "call_expression"
                if e.child_by_field_name("function")
                    .is_some_and(|f| f.kind() == "identifier")
                    && call_args(e).is_empty() =>
            {
                let name = e
                    .child_by_field_name("function")
                    .map_or("", |f| self.text(f));
                vec![MsgPart::Const {
                    name: crate::expr::returned_by(name),
                    format,
                }]
            }
            "call_expression" => match self.callee(e) {
                Callee::Pkg { path: "fmt", func } => {
                    let args = call_args(e);
                    let Some(style) = sprint_style(func) else {
                        return vec![MsgPart::Hole];
                    };
                    // Sprintf's verbs are spent by the time its result is
                    // used, but for matching the output its format is the
                    // pattern; Sprint/Sprintln text is plain and escaped.
                    self.args_message(&args, 0, style)
                }
                _ => vec![MsgPart::Hole],
            },
            _ => vec![MsgPart::Hole],
        }
    }

    /// Source text of the values filling a call's holes, in pattern order.
    pub(super) fn args_holes(&self, args: &[Node<'_>], from: usize, style: Style) -> Vec<String> {
        match style {
            Style::Format => args
                .iter()
                .skip(from + 1)
                .map(|a| self.text(*a).to_string())
                .collect(),
            Style::Plain => args
                .get(from)
                .map(|a| self.hole_exprs(*a))
                .unwrap_or_default(),
            Style::Print | Style::Println => args
                .iter()
                .skip(from)
                .flat_map(|a| self.hole_exprs(*a))
                .collect(),
        }
    }

    /// The non-literal operands of a message expression, in order: what
    /// [`Self::message_of`] turns into holes.
    pub(super) fn hole_exprs(&self, e: Node<'_>) -> Vec<String> {
        match e.kind() {
            "interpreted_string_literal" | "raw_string_literal" => Vec::new(),
            "parenthesized_expression" => e
                .named_child(0)
                .map(|i| self.hole_exprs(i))
                .unwrap_or_default(),
            "binary_expression" => {
                let (Some(l), Some(r)) = (
                    e.child_by_field_name("left"),
                    e.child_by_field_name("right"),
                ) else {
                    return vec![self.text(e).to_string()];
                };
                let mut v = self.hole_exprs(l);
                v.extend(self.hole_exprs(r));
                v
            }
            "call_expression" => match self.callee(e) {
                Callee::Pkg { path: "fmt", func }
                    if matches!(func, "Sprintf" | "Sprint" | "Sprintln") =>
                {
                    let args = call_args(e);
                    let style = sprint_style(func).unwrap_or(Style::Println);
                    self.args_holes(&args, 0, style)
                }
                _ => vec![self.text(e).to_string()],
            },
            _ => vec![self.text(e).to_string()],
        }
    }

    /// Whether structured key/value arguments carry an error (`"err", err`).
    pub(super) fn carries_error(&self, args: &[Node<'_>]) -> bool {
        args.iter().any(|a| match a.kind() {
            "interpreted_string_literal" | "raw_string_literal" => {
                matches!(
                    string_literal(*a, self.src).as_deref(),
                    Some("err" | "error")
                )
            }
            "identifier" => {
                let t = self.text(*a);
                t == "err" || t.ends_with("Err") || t.ends_with("Error")
            }
            _ => false,
        })
    }

    /// The keys a structured logging call's values set: zap's and slog's
    /// field constructors (`zap.String("remote-addr", a)`; `zap.Error(err)`
    /// is `error`) and key-value pairs (`klog.InfoS(msg, "pod", name)`).
    pub(super) fn structured_fields(&self, values: &[Node<'_>]) -> Vec<String> {
        let literal = |n: Node<'_>| {
            matches!(
                n.kind(),
                "interpreted_string_literal" | "raw_string_literal"
            )
            .then(|| string_literal(n, self.src))
            .flatten()
        };
        let mut keys = Vec::new();
        let mut i = 0;
        while i < values.len() {
            let v = values[i];
            if let Some(key) = literal(v) {
                // A key, then its value.
                keys.push(key);
                i += 2;
                continue;
            }
            if v.kind() == "call_expression" {
                let callee = v
                    .child_by_field_name("function")
                    .map_or("", |f| self.text(f));
                let first = call_args(v).first().copied();
                match first.and_then(literal) {
                    Some(key) => keys.push(key),
                    None if callee.ends_with(".Error") => keys.push("error".to_string()),
                    None => {}
                }
            }
            i += 1;
        }
        keys
    }

    /// `codes.NotFound` → `NotFound`.
    pub(super) fn code_name(&self, a: Node<'_>) -> Option<String> {
        (a.kind() == "selector_expression")
            .then(|| a.child_by_field_name("field"))
            .flatten()
            .map(|f| self.text(f).to_string())
    }

    pub(super) fn http_status(&self, a: Node<'_>) -> Option<u16> {
        match a.kind() {
            "int_literal" => self.text(a).parse().ok(),
            "selector_expression" => {
                let field = self.text(a.child_by_field_name("field")?);
                http_status_code(field)
            }
            _ => None,
        }
    }
}
