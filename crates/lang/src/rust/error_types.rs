//! Error types' own messages in Rust: thiserror's `#[error("…")]` on a
//! type or variant, with its fields named in the format, and the old
//! `description()` method of `std::error::Error`.

use super::*;

/// A field of an error type, as thiserror sees it.
pub(super) struct Field {
    /// `0` for a tuple field, else its name.
    name: String,
    /// `#[from]`, `#[source]`, named `source`, or of an error type: its
    /// text is another error's.
    source: bool,
}

impl Field {
    /// The hole argument: a name `looks_like_error` takes for a chain
    /// point when the field is a source.
    fn arg(&self) -> String {
        let named = !self.name.starts_with(|c: char| c.is_ascii_digit());
        match (self.source, named) {
            (true, true) if formats::looks_like_error(&self.name) => self.name.clone(),
            (true, _) => "source".to_string(),
            (false, true) => self.name.clone(),
            (false, false) => format!(".{}", self.name),
        }
    }
}

/// The fields of a struct or variant body, with their attributes.
pub(super) fn fields(body: Option<Node<'_>>, cx: &Cx<'_>) -> Vec<Field> {
    let Some(body) = body else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut attrs: Vec<&str> = Vec::new();
    let mut cur = body.walk();
    for c in body.named_children(&mut cur) {
        let (name, ty) = match c.kind() {
            "attribute_item" => {
                attrs.push(cx.text(c));
                continue;
            }
            "visibility_modifier" | "line_comment" | "block_comment" => continue,
            "field_declaration" => (
                c.child_by_field_name("name")
                    .map_or(String::new(), |x| cx.text(x).to_string()),
                c.child_by_field_name("type").map_or("", |t| cx.text(t)),
            ),
            _ => (out.len().to_string(), cx.text(c)),
        };
        let marked = attrs.iter().any(|a| {
            let a: String = a.chars().filter(|c| !c.is_whitespace()).collect();
            a == "#[from]" || a == "#[source]"
        });
        let error_type = ty
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .any(|w| w.ends_with("Error") && w != "ErrorKind");
        out.push(Field {
            source: marked || name == "source" || error_type,
            name,
        });
        attrs.clear();
    }
    out
}

/// thiserror's `#[error("…")]` on an enum variant, a struct or an enum:
/// the `Display` text of that error.
pub(super) fn error_attribute(n: Node<'_>, cx: &mut Cx<'_>) {
    let Some(attr) = n.named_child(0) else {
        return;
    };
    let is_error = attr.named_child(0).is_some_and(|p| cx.text(p) == "error");
    let Some(tt) = attr.child_by_field_name("arguments").filter(|_| is_error) else {
        return;
    };
    let args = macro_args(tt);
    let Some(fmt) = args.first().and_then(|a| a.literal(cx)) else {
        return; // `#[error(transparent)]` forwards the source's text
    };
    let mut target = n.next_named_sibling();
    while let Some(t) = target.filter(|t| {
        matches!(
            t.kind(),
            "attribute_item" | "line_comment" | "block_comment"
        )
    }) {
        target = t.next_named_sibling();
    }
    let Some(target) = target else {
        return;
    };
    let (class, fields) = match target.kind() {
        "enum_variant" => {
            let enum_name = n
                .parent()
                .and_then(|l| l.parent())
                .filter(|e| e.kind() == "enum_item")
                .and_then(|e| e.child_by_field_name("name"))
                .map(|x| cx.text(x))
                .unwrap_or("");
            let variant = target
                .child_by_field_name("name")
                .map(|x| cx.text(x))
                .unwrap_or("");
            (
                format!("{enum_name}::{variant}"),
                fields(target.child_by_field_name("body"), cx),
            )
        }
        "struct_item" | "enum_item" => (
            target
                .child_by_field_name("name")
                .map(|x| cx.text(x).to_string())
                .unwrap_or_default(),
            fields(target.child_by_field_name("body"), cx),
        ),
        _ => return,
    };
    if in_test_code(target, cx) {
        return;
    }
    // `{0}` and `{name}` are fields; extra arguments (`.0`, `.len()`) are
    // expressions over them.
    let values: Vec<String> = if args.len() > 1 {
        args[1..].iter().map(|a| one_line(a.text(cx))).collect()
    } else {
        (0..fields.len()).map(|i| i.to_string()).collect()
    };
    let (m, holes) = formats::brace_message(&fmt, &values, true);
    let holes = holes
        .into_iter()
        .map(|h| {
            let key = h.strip_prefix('.').unwrap_or(&h);
            fields
                .iter()
                .find(|f| f.name == key)
                .map_or(h.clone(), Field::arg)
        })
        .collect();
    let mut site = cx.site(n, "#[error]", ErrorType::Exception, Severity::Error);
    site.error_class = Some(class);
    push(cx, site, m, holes, n);
}

/// `fn description(&self) -> &str { match self.kind { Kind::Io => "…" } }`
/// in an error type's impl: each arm's text is the message of one kind
/// (hyper builds its `Display` from it).
pub(super) fn description(n: Node<'_>, cx: &mut Cx<'_>) {
    let named = n
        .child_by_field_name("name")
        .is_some_and(|x| cx.text(x) == "description");
    let gives_str = n
        .child_by_field_name("return_type")
        .is_some_and(|t| cx.text(t).contains("str"));
    if !named || !gives_str {
        return;
    }
    let Some(imp) = std::iter::successors(n.parent(), |c| c.parent())
        .find(|a| a.kind() == "impl_item")
        .and_then(|imp| class_name(imp, cx))
        .filter(|ty| ty.contains("Error"))
    else {
        return;
    };
    let Some(body) = n.child_by_field_name("body") else {
        return;
    };
    if in_test_code(n, cx) {
        return;
    }
    let mut stack = vec![body];
    let mut arms = Vec::new();
    while let Some(x) = stack.pop() {
        if x.kind() == "match_arm" {
            arms.push(x);
        }
        let mut cur = x.walk();
        stack.extend(x.named_children(&mut cur));
    }
    arms.sort_by_key(|a| a.start_byte());
    for arm in arms {
        let (Some(pattern), Some(value)) = (
            arm.child_by_field_name("pattern"),
            arm.child_by_field_name("value"),
        ) else {
            continue;
        };
        // rustfmt puts a long arm's text in a block: `X => { "…" }`.
        let value = match value.kind() {
            "block" if value.named_child_count() == 1 => value.named_child(0).unwrap_or(value),
            _ => value,
        };
        let Some(text) = string_value(value, cx) else {
            continue;
        };
        // The innermost path names the kind: `Kind::Parse(Parse::Uri)` →
        // `Parse::Uri`.
        let p = cx.text(pattern);
        let class = p
            .split(['(', ')', '{', '}', ' ', '|', ','])
            .rfind(|w| w.contains("::"))
            .map_or(imp.clone(), |w| w.replace("Self::", &format!("{imp}::")));
        let mut site = cx.site(value, "description", ErrorType::Exception, Severity::Error);
        site.error_class = Some(class);
        push(cx, site, vec![text_part(text)], Vec::new(), value);
    }
}
