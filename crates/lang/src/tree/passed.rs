//! Conditions that leave before a site, for the languages read through a
//! [`Syntax`]: `if value in self.items: return str(value)` above `raise
//! ValueError(f"'{value}' is not one of …")` says the error is raised
//! only when the value is not one of the items. Earlier `if`s of the
//! site's block, and of each block around it up to the function, count
//! when they have no `else` and their body ends by leaving (`return`,
//! `raise`, `throw`, `break`, `continue`): Werkzeug's `if
//! self.is_sequence: … return` above `if self.direct_passthrough: raise
//! RuntimeError(…)` means a list body never raises. Go reads the
//! nearest block only (`go/exits.rs`).

use super::{Cx, Syntax};
use tree_sitter::Node;

/// Conditions kept, nearest first.
const MAX_PASSED: usize = 4;

/// The conditions under which an earlier `if` leaves before the site
/// whose ancestors are `chain` (the site first).
pub(super) fn passed(chain: &[Node<'_>], cx: &Cx<'_>) -> Vec<String> {
    let syntax = cx.syntax;
    let mut out = Vec::new();
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        if syntax.functions.contains(&p.kind()) {
            break;
        }
        // The clauses of one `if` (`elif`, `else`) are branches, not
        // statements run in turn: their conditions are the guards'.
        if syntax.conditionals.contains(&p.kind()) || is_clause(p.kind()) {
            continue;
        }
        let mut prev = child.prev_named_sibling();
        while let Some(s) = prev {
            out.extend(leaves_when(s, syntax, cx));
            prev = s.prev_named_sibling();
        }
    }
    out.truncate(MAX_PASSED);
    out
}

/// Branches of a conditional or a `try`, whose siblings are other
/// branches.
fn is_clause(kind: &str) -> bool {
    kind.ends_with("_clause") || matches!(kind, "else" | "elsif" | "when" | "rescue" | "ensure")
}

/// The condition of `s` when it is an `if` with no `else` whose body
/// ends by leaving.
fn leaves_when(s: Node<'_>, syntax: &Syntax, cx: &Cx<'_>) -> Option<String> {
    if !syntax.conditionals.contains(&s.kind()) || syntax.loops.contains(&s.kind()) {
        return None;
    }
    if s.child_by_field_name("alternative").is_some() {
        return None;
    }
    let cond = s.child_by_field_name("condition")?;
    let body = s.child_by_field_name("consequence")?;
    let last = last_statement(body)?;
    let leaves = syntax.returns.contains(&last.kind())
        || matches!(
            last.kind(),
            "break_statement" | "continue_statement" | "break" | "next"
        );
    let text = cx.text(cond).trim();
    let text = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    (leaves && !text.contains('\n')).then(|| text.to_string())
}

/// The last statement of a body (a block, or a single statement).
fn last_statement(body: Node<'_>) -> Option<Node<'_>> {
    // A statement that is itself the body (`if (x) return;`).
    let count = body.named_child_count();
    if count == 0 || !body.kind().contains("block") && body.kind() != "then" {
        return Some(body);
    }
    let last = body.named_child(count as u32 - 1)?;
    if last.kind().contains("comment") {
        return None;
    }
    Some(last)
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;

    /// The conditions passed before each site of `src`, by pattern.
    fn passed(path: &str, src: &str) -> Vec<(String, Vec<String>)> {
        sites_of(path, src)
            .into_iter()
            .map(|s| (s.message_pattern, s.facts.passed))
            .collect()
    }

    #[test]
    fn an_if_that_returns_first_is_a_condition_of_the_raise_after_it() {
        let py = "class C:\n    def to_url(self, value):\n        if value in self.items:\n            return str(value)\n        if value is None:\n            print('none')\n        raise ValueError(f'{value} is not one of the items')\n";
        assert_eq!(
            passed("a.py", py),
            [(
                "%v is not one of the items".to_string(),
                vec!["value in self.items".to_string()]
            )]
        );
        let js = "function f(v) {\n  if (ok(v)) return v;\n  if (v === 0) {\n    throw new Error('zero');\n  }\n  throw new Error('bad value');\n}\n";
        let all = passed("a.js", js);
        assert_eq!(
            all[1],
            (
                "bad value".to_string(),
                vec!["v === 0".to_string(), "ok(v)".to_string()]
            )
        );
        // Inside a guard, the conditions that leave above it still do.
        assert_eq!(all[0], ("zero".to_string(), vec!["ok(v)".to_string()]));
        let java = "class A {\n  void f(String v) {\n    if (v.isEmpty()) {\n      return;\n    } else {\n      log(v);\n    }\n    throw new IllegalStateException(\"bad state\");\n  }\n}\n";
        // An `if` with an `else` does not leave on every path.
        assert_eq!(passed("A.java", java)[0].1, Vec::<String>::new());
        let elif = "def f(v):\n    if v == 1:\n        return 1\n    elif v == 2:\n        return 2\n    else:\n        raise ValueError('not one or two')\n";
        // The branches before an `else` are its guards, not conditions
        // passed.
        assert_eq!(passed("b.py", elif)[0].1, Vec::<String>::new());
        let rb = "def f(v)\n  if v.nil?\n    return\n  end\n  raise ArgumentError, 'bad v'\nend\n";
        assert_eq!(passed("a.rb", rb)[0].1, ["v.nil?"]);
    }
}
