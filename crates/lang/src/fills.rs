//! Literal texts handed to a function of the file as a parameter that a
//! message of the function prints in a hole: `def warn_slow(prefix, took):
//! log.warning("%srequest took %s", prefix, took)` called as
//! `warn_slow("read-only range ", t)`. The literal is a layer of the
//! logged line: a site that names the hole it fills
//! ([`errdex_model::Fill`]), so that tracing looks for it there, however
//! short it is beside the hole's value. For every language read by the
//! common walk ([`crate::tree::extract`]); Go has its own, which also
//! follows local names (`go/fills.rs`).

use crate::tree::{self, last_name, Cx};
use errdex_model::{ErrorType, Fill, Severity};
use std::collections::HashMap;
use tree_sitter::Node;

/// Calls, in the grammars of the common walk.
const CALLS: &[&str] = &[
    "call",
    "call_expression",
    "method_invocation",
    "invocation_expression",
    "function_call_expression",
    "member_call_expression",
    "scoped_call_expression",
];

/// String literals without interpolation, in those grammars.
const STRINGS: &[&str] = &["string", "string_literal", "encapsed_string"];

/// Receivers a method's first parameter names in Python (`self.f(x)`
/// hands `x` as the second).
const RECEIVERS: &[&str] = &["self", "cls"];

/// Adds a site for each literal handed to a function of the file as a
/// parameter its messages print.
pub(crate) fn handed_pieces(root: Node<'_>, cx: &mut Cx<'_>) {
    let printed = printed_names(cx);
    if printed.is_empty() {
        return;
    }
    // Each printing function's parameters, by position.
    let mut params: HashMap<String, Vec<String>> = HashMap::new();
    let mut calls = Vec::new();
    tree::preorder(root, |n| {
        if CALLS.contains(&n.kind()) {
            calls.push(n);
        } else if cx.is_function(n) {
            let name = cx.function_name(n).map(|f| last_name(&f).to_string());
            if let Some(name) = name.filter(|f| printed.contains_key(f)) {
                params.insert(name, parameter_names(n, cx));
            }
        }
    });
    for call in calls {
        pieces_of_call(call, &printed, &params, cx);
    }
}

/// Per function of the file (by last name): the plain names its
/// messages print in their holes.
fn printed_names(cx: &Cx<'_>) -> HashMap<String, Vec<String>> {
    let mut printed: HashMap<String, Vec<String>> = HashMap::new();
    for p in &cx.facts.sites {
        let Some(function) = p.site.function.as_deref() else {
            continue;
        };
        let plain = p.site.args.iter().filter(|a| is_plain_name(a));
        let names = printed.entry(last_name(function).to_string()).or_default();
        names.extend(plain.cloned());
    }
    printed.retain(|_, names| !names.is_empty());
    printed
}

fn pieces_of_call(
    call: Node<'_>,
    printed: &HashMap<String, Vec<String>>,
    params: &HashMap<String, Vec<String>>,
    cx: &mut Cx<'_>,
) {
    let Some(f) = ["function", "name", "method"]
        .iter()
        .find_map(|field| call.child_by_field_name(field))
    else {
        return;
    };
    let callee = last_name(cx.text(f));
    let (Some(names), Some(given)) = (printed.get(callee), params.get(callee)) else {
        return;
    };
    let args = tree::arguments(call.child_by_field_name("arguments"));
    // `self.f(x)` of `def f(self, x)`: `x` is the second parameter.
    let shift = usize::from(
        given
            .first()
            .is_some_and(|p| RECEIVERS.contains(&p.as_str())),
    );
    let callee = callee.to_string();
    for (i, arg) in args.iter().enumerate() {
        let (param, value) = match arg.child_by_field_name("name") {
            Some(key) if arg.kind() == "keyword_argument" => {
                (cx.text(key).to_string(), arg.child_by_field_name("value"))
            }
            _ => (
                given.get(i + shift).cloned().unwrap_or_default(),
                Some(*arg),
            ),
        };
        let Some(text) = value.and_then(|v| literal_text(v, cx)) else {
            continue;
        };
        if !names.contains(&param) || !is_text_of_its_own(&text) {
            continue;
        }
        let mut site = cx.site(*arg, &callee, ErrorType::Log, Severity::Warning);
        site.facts.fills = Some(Fill {
            function: callee.clone(),
            arg: param,
        });
        cx.push(site, vec![tree::text_part(text)], Vec::new(), *arg);
    }
}

/// The names of a function's parameters, in order: each parameter's
/// first identifier (`prefix`, `prefix=None`, `prefix: str`, `const char
/// *prefix`'s last).
fn parameter_names(f: Node<'_>, cx: &Cx<'_>) -> Vec<String> {
    let Some(list) = parameter_list(f) else {
        return Vec::new();
    };
    tree::arguments(Some(list))
        .into_iter()
        .map(|p| {
            let mut names = Vec::new();
            tree::preorder(p, |n| {
                if n.kind() == "identifier" {
                    names.push(cx.text(n));
                }
            });
            // C declares the name last (`const char *prefix`), the others
            // first (`prefix: str = None`).
            let c_like = p.kind() == "parameter_declaration";
            let name = if c_like { names.last() } else { names.first() };
            name.copied().unwrap_or_default().to_string()
        })
        .collect()
}

/// A definition's parameter list: its `parameters` field, or its
/// declarator's (C).
fn parameter_list(f: Node<'_>) -> Option<Node<'_>> {
    let mut cur = f;
    for _ in 0..4 {
        if let Some(list) = cur.child_by_field_name("parameters") {
            return Some(list);
        }
        cur = cur.child_by_field_name("declarator")?;
    }
    None
}

/// A plain string literal's text: quoted, without escapes or
/// interpolation.
fn literal_text(n: Node<'_>, cx: &Cx<'_>) -> Option<String> {
    if !STRINGS.contains(&n.kind()) {
        return None;
    }
    let raw = cx.text(n);
    let quote = raw.chars().next().filter(|q| matches!(q, '"' | '\''))?;
    let inner = raw.strip_prefix(quote)?.strip_suffix(quote)?;
    let plain = !inner.contains(['\\', quote, '{', '$', '#']);
    plain.then(|| inner.to_string())
}

/// Whether a handed literal reads as a piece of a message (`read-only
/// range `, `write()`) rather than a name or a key (`status`,
/// `package.json`), which would be an atlas entry of no meaning.
pub(crate) fn is_text_of_its_own(text: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    text.chars().any(char::is_alphanumeric) && !text.trim().chars().all(word)
}

/// A name alone: `prefix`, `$prefix`.
fn is_plain_name(arg: &str) -> bool {
    let name = arg.trim_start_matches('$');
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;

    /// (pattern, line, filled function and value) of the pieces.
    fn pieces(path: &str, src: &str) -> Vec<(String, u32, String, String)> {
        sites_of(path, src)
            .into_iter()
            .filter_map(|s| {
                let f = s.facts.fills?;
                Some((s.message_pattern, s.line_number, f.function, f.arg))
            })
            .collect()
    }

    fn want(text: &str, line: u32, function: &str, arg: &str) -> (String, u32, String, String) {
        (text.into(), line, function.into(), arg.into())
    }

    #[test]
    fn python_literals_handed_as_a_printed_parameter_fill_its_hole() {
        let src = r#"
import logging
log = logging.getLogger(__name__)

class Server:
    def warn_slow(self, prefix, took, quiet=False):
        log.warning("%srequest took %s", prefix, took)

    def serve(self):
        self.warn_slow("read-only range ", 3)
        self.warn_slow(prefix="slow write ", took=4)
        self.warn_slow(f"{x} ", 5)
        other("not handed", 6)
        self.warn_slow("status", 7)
"#;
        assert_eq!(
            pieces("app/server.py", src),
            [
                want("read-only range ", 10, "warn_slow", "prefix"),
                want("slow write ", 11, "warn_slow", "prefix"),
            ]
        );
    }

    #[test]
    fn javascript_java_and_c_literals_fill_the_hole_they_are_handed_to() {
        let js = r#"
function warnSlow(prefix, took) {
  console.error(`${prefix}request took ${took}`);
}
function serve() {
  warnSlow("read-only range ", 3);
  warnSlow(name, 3);
}
"#;
        assert_eq!(
            pieces("lib/serve.js", js),
            [want("read-only range ", 6, "warnSlow", "prefix")]
        );
        let java = r#"
class Server {
    private void warnSlow(String prefix, long took) {
        LOG.warn("{}request took {}", prefix, took);
    }
    void serve() {
        warnSlow("read-only range ", 3);
    }
}
"#;
        assert_eq!(
            pieces("src/main/java/Server.java", java),
            [want("read-only range ", 7, "warnSlow", "prefix")]
        );
        let c = r#"
static void warn_slow(const char *prefix, long took) {
    fprintf(stderr, "%srequest took %ld\n", prefix, took);
}
void serve(void) {
    warn_slow("read-only range ", 3);
}
"#;
        assert_eq!(
            pieces("src/serve.c", c),
            [want("read-only range ", 6, "warn_slow", "prefix")]
        );
    }

    #[test]
    fn ruby_literals_fill_the_hole_they_are_handed_to() {
        let rb = r##"
class Server
  def warn_slow(prefix, took)
    raise ArgumentError, "#{prefix}request took #{took}"
  end

  def serve
    warn_slow("read-only range ", 3)
  end
end
"##;
        assert_eq!(
            pieces("lib/server.rb", rb),
            [want("read-only range ", 8, "warn_slow", "prefix")]
        );
    }
}
