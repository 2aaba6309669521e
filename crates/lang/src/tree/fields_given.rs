//! Where a field a guard reads gets its value: `if self.input_stream is
//! not None: raise AttributeError("an input stream is defined")` reads a
//! field that `EnvironBuilder.__init__` sets from its `input_stream`
//! parameter, so the caller decides it when creating the object. Read
//! from the constructor of the site's class (`__init__`, `constructor`,
//! `initialize`, `__construct`, or a method named as the class) in any
//! language read through a [`Syntax`].

use super::Cx;
use errdex_model::FieldGiven;
use tree_sitter::Node;

/// Other assignments kept per field.
const MAX_ALSO: usize = 2;

/// The fields of `guards` that the constructor of `class` (named
/// `class_name`) sets from one of its parameters.
pub(super) fn fields_given(
    class: Node<'_>,
    class_name: &str,
    guards: &[String],
    cx: &Cx<'_>,
) -> Vec<FieldGiven> {
    let fields: Vec<(&str, String)> = guards.iter().flat_map(|g| fields_read(g)).collect();
    if fields.is_empty() {
        return Vec::new();
    }
    let Some(ctor) = constructor(class, class_name, cx) else {
        return Vec::new();
    };
    let params = parameters(ctor, cx);
    let body = cx.text(ctor);
    let mut out: Vec<FieldGiven> = Vec::new();
    for (written, name) in fields {
        if out.iter().any(|f| f.field == written) {
            continue;
        }
        let assigned = assignments(body, &name);
        let Some((param, declared)) = assigned
            .iter()
            .find_map(|v| params.iter().find(|p| p.0 == v.1))
        else {
            continue;
        };
        let also = assigned
            .iter()
            .filter(|v| v.1 != param.as_str())
            .take(MAX_ALSO)
            .map(|v| v.0.to_string())
            .collect();
        out.push(FieldGiven {
            field: written.to_string(),
            class: class_name.to_string(),
            param: param.clone(),
            declared: declared.clone(),
            also,
        });
    }
    out
}

/// The fields a guard reads, as written and by name: `self.x`,
/// `this.x`, `@x`, `$this->x`.
fn fields_read(g: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    for prefix in ["self.", "this.", "$this->", "@"] {
        let mut rest = g;
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().next_back();
            let after = &rest[i + prefix.len()..];
            let len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let starts_word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
            let whole = &rest[i..i + prefix.len() + len];
            // `self.a.b` reads `a`; a call (`self.f()`) is no field.
            let called = after[len..].starts_with('(');
            if len > 0 && starts_word && !called {
                out.push((whole, after[..len].to_string()));
            }
            rest = &after[len..];
        }
    }
    out
}

/// The class's constructor.
fn constructor<'t>(class: Node<'t>, class_name: &str, cx: &Cx<'_>) -> Option<Node<'t>> {
    let syntax = cx.syntax;
    let is_ctor = |n: &str| {
        matches!(n, "__init__" | "constructor" | "initialize" | "__construct") || n == class_name
    };
    let mut stack = vec![class];
    while let Some(n) = stack.pop() {
        let mut cur = n.walk();
        for c in n.named_children(&mut cur) {
            let is_function =
                syntax.functions.contains(&c.kind()) || c.kind() == "constructor_declaration";
            if is_function {
                let name = (syntax.names.function)(c, cx);
                if name.as_deref().is_some_and(is_ctor) {
                    return Some(c);
                }
            } else if !syntax.classes.contains(&c.kind()) {
                stack.push(c);
            }
        }
    }
    None
}

/// A function's parameters: each name, and the parameter as declared.
fn parameters(f: Node<'_>, cx: &Cx<'_>) -> Vec<(String, String)> {
    let Some(list) = f.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cur = list.walk();
    for p in list.named_children(&mut cur) {
        let name = p
            .child_by_field_name("name")
            .or_else(|| p.child_by_field_name("left"))
            .or_else(|| p.child_by_field_name("pattern"))
            .or_else(|| p.kind().contains("identifier").then_some(p))
            .or_else(|| {
                let mut c = p.walk();
                let found = p.named_children(&mut c).find(|x| x.kind() == "identifier");
                found
            });
        if let Some(n) = name {
            let declared = cx.text(p).split_whitespace().collect::<Vec<_>>().join(" ");
            out.push((
                cx.text(n).trim_start_matches(['$', '*', '&']).to_string(),
                declared,
            ));
        }
    }
    out
}

/// Each assignment of field `name` in `body`, as written, with its value
/// when the value is a plain name (`input_stream`, `$path`).
fn assignments<'b>(body: &'b str, name: &str) -> Vec<(&'b str, &'b str)> {
    let mut out = Vec::new();
    for line in body.lines() {
        let t = line.trim().trim_end_matches(';');
        let Some((left, right)) = t.split_once('=') else {
            continue;
        };
        let left = left.trim();
        let right = right.trim();
        let target = ["self.", "this.", "$this->", "@"]
            .iter()
            .any(|p| left.strip_prefix(p) == Some(name));
        if !target || right.starts_with('=') || left.ends_with(['!', '<', '>']) {
            continue;
        }
        let value = right.trim_start_matches('$');
        let plain = value.chars().all(|c| c.is_alphanumeric() || c == '_');
        out.push((t, if plain { value } else { "" }));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;
    use errdex_model::FieldGiven;

    /// The fields given of the site with `pattern` in `src`.
    fn given(path: &str, src: &str, pattern: &str) -> Vec<FieldGiven> {
        sites_of(path, src)
            .into_iter()
            .find(|s| s.message_pattern == pattern)
            .unwrap_or_else(|| panic!("no site {pattern}"))
            .facts
            .fields_given
    }

    #[test]
    fn a_guarded_field_is_traced_to_the_constructor_parameter_that_sets_it() {
        let py = r#"
class Builder:
    def __init__(self, path, input_stream: t.IO[bytes] | None = None, data=None):
        self.path = path.strip()
        self.input_stream = input_stream
        if data:
            self.input_stream = BytesIO(data)

    def form(self):
        if self.input_stream is not None:
            raise AttributeError("an input stream is defined")
        if self.path == "":
            raise ValueError("no path")
"#;
        let g = given("a.py", py, "an input stream is defined");
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(
            (
                g[0].field.as_str(),
                g[0].class.as_str(),
                g[0].param.as_str()
            ),
            ("self.input_stream", "Builder", "input_stream")
        );
        assert_eq!(g[0].also, ["self.input_stream = BytesIO(data)"]);
        assert_eq!(g[0].declared, "input_stream: t.IO[bytes] | None = None");
        // A field computed from a parameter is not the parameter.
        assert!(given("a.py", py, "no path").is_empty());

        let js = "class Client {\n  constructor(timeout) {\n    this.timeout = timeout;\n  }\n  send() {\n    if (this.timeout <= 0) {\n      throw new Error('timeout must be positive');\n    }\n  }\n}\n";
        let g = given("a.js", js, "timeout must be positive");
        assert_eq!(
            (g[0].field.as_str(), g[0].param.as_str()),
            ("this.timeout", "timeout")
        );

        let java = "class Pool {\n  private int size;\n  Pool(int size) {\n    this.size = size;\n  }\n  void take() {\n    if (this.size == 0) {\n      throw new IllegalStateException(\"pool is empty\");\n    }\n  }\n}\n";
        let g = given("Pool.java", java, "pool is empty");
        assert_eq!((g[0].class.as_str(), g[0].param.as_str()), ("Pool", "size"));
    }
}
