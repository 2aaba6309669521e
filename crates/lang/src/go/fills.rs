//! Pieces of text that flow into a hole of a log or error of their file.
//! etcd's `warnOfExpensiveGenericRequest` logs `"%srequest %q with result
//! %q took too long (%v) to execute"` with its parameter `prefix` and a
//! local `result` (`fmt.Sprintf("error:%v", err)`, or its parameter
//! `resp`); its callers hand it `"read-only range "` and a `resp` of
//! their own (`fmt.Sprintf("range_response_count:%d size:%d", …)`). Each
//! of those texts is a layer of the logged line: a site that names the
//! hole it fills ([`errdex_model::Fill`]), so that tracing looks for it
//! there, however short it is beside the hole's value.

use super::kept::only_child;
use super::{call_args, named_children, FileCx};
use crate::message::MsgPart;
use errdex_model::{ErrorType, Fill, Severity};
use std::collections::HashMap;
use tree_sitter::Node;

/// Per function of a file (by name): the holes of its messages that its
/// parameters fill, as (the parameter's position, the hole's value).
pub(super) type Printed = HashMap<String, Vec<(usize, String)>>;

impl<'a> FileCx<'a> {
    /// The holes of `functions`' messages filled by their parameters,
    /// directly (`prefix`) or through one local name given the parameter
    /// (`result = resp`).
    pub(super) fn printed_parameters(&self, functions: &[Node<'_>]) -> Printed {
        let mut printed = Printed::new();
        for f in functions {
            let (Some(name), Some(body)) =
                (f.child_by_field_name("name"), f.child_by_field_name("body"))
            else {
                continue;
            };
            let params = self.parameter_names(*f);
            if params.is_empty() {
                continue;
            }
            let (values, assigned) = self.values_and_assignments(body);
            let given = |p: &str| params.iter().position(|x| x == p);
            let mut holes: Vec<(usize, String)> = values
                .iter()
                .filter_map(|value| {
                    let mut sources = assigned.iter().filter(|(name, _)| name == value);
                    let from = given(value).or_else(|| sources.find_map(|(_, src)| given(src)))?;
                    Some((from, value.to_string()))
                })
                .collect();
            if !holes.is_empty() {
                holes.sort_unstable();
                holes.dedup();
                printed.insert(self.text(name).to_string(), holes);
            }
        }
        printed
    }

    /// `f(…, "read-only range ", …)` where `f` prints that parameter: the
    /// literal (or formatted) text handed is a site that fills the hole.
    pub(super) fn handed_pieces(&mut self, calls: &[Node<'_>]) {
        let printed = std::mem::take(&mut self.printed);
        for call in calls {
            let Some(callee) = self.local_callee(*call) else {
                continue;
            };
            let Some(holes) = printed.get(callee) else {
                continue;
            };
            let args = call_args(*call);
            for (i, hole) in holes {
                let Some(arg) = args.get(*i).filter(|a| a.kind() != "identifier") else {
                    continue;
                };
                let source = self.text(*arg);
                let message = self.message_of(*arg, false);
                let text: String = message
                    .iter()
                    .map(|p| match p {
                        MsgPart::Text { text, .. } => text.as_str(),
                        _ => "%v",
                    })
                    .collect();
                if !source.contains(['"', '`']) || !crate::fills::is_text_of_its_own(&text) {
                    continue;
                }
                let mut site =
                    self.site(*arg, callee.to_string(), ErrorType::Log, Severity::Warning);
                site.args = self.hole_exprs(*arg);
                site.facts.fills = Some(Fill {
                    function: callee.to_string(),
                    arg: hole.clone(),
                });
                self.push(site, message, source.to_string());
            }
        }
        self.printed = printed;
    }

    /// The hole a text kept under `name` (assigned at byte `from` of
    /// `function`) fills: a value of a message of the function after it,
    /// or a parameter, printed so, of a function of the file it is handed
    /// to.
    pub(super) fn filled_by(&self, function: Node<'_>, from: usize, name: &str) -> Option<Fill> {
        let own = function
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string())?;
        let body = function.child_by_field_name("body")?;
        // One walk: a hole of the function's own message wins over a
        // parameter of another function it is handed to.
        let (mut printed_here, mut handed) = (false, None);
        crate::tree::preorder(body, |n| {
            if printed_here || n.start_byte() < from || n.kind() != "call_expression" {
                return;
            }
            printed_here = self.printed_names(n).contains(&name);
            if handed.is_none() {
                handed = self.handed_as(n, name);
            }
        });
        if printed_here {
            return Some(Fill {
                function: own,
                arg: name.to_string(),
            });
        }
        handed
    }

    /// The hole `name` fills when `call` hands it to a function of the
    /// file as a parameter that function prints.
    fn handed_as(&self, call: Node<'_>, name: &str) -> Option<Fill> {
        let callee = self.local_callee(call)?;
        let holes = self.printed.get(callee)?;
        let args = call_args(call);
        holes.iter().find_map(|(i, hole)| {
            let handed = args.get(*i).is_some_and(|a| self.text(*a) == name);
            handed.then(|| Fill {
                function: callee.to_string(),
                arg: hole.clone(),
            })
        })
    }

    /// The names a function's parameters give, in order (`a, b string`
    /// counts two; `_` and unnamed ones keep their place).
    fn parameter_names(&self, f: Node<'_>) -> Vec<String> {
        let Some(params) = f.child_by_field_name("parameters") else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for d in named_children(params) {
            let mut cur = d.walk();
            let given: Vec<String> = d
                .children_by_field_name("name", &mut cur)
                .map(|n| self.text(n).to_string())
                .collect();
            if given.is_empty() {
                names.push(String::new());
            }
            names.extend(given);
        }
        names
    }

    /// The plain names a function's messages print in their holes (the
    /// values after a log's or error's format), and the plain names given
    /// plain names (`name = other`, `name := other`), in one walk.
    fn values_and_assignments(&self, body: Node<'_>) -> (Vec<&'a str>, Vec<(&'a str, &'a str)>) {
        let (mut values, mut assigned) = (Vec::new(), Vec::new());
        crate::tree::preorder(body, |n| match n.kind() {
            "call_expression" => values.extend(self.printed_names(n)),
            "assignment_statement" | "short_var_declaration" => {
                let one = |field: &str| {
                    only_child(n.child_by_field_name(field)?)
                        .filter(|c| c.kind() == "identifier")
                        .map(|c| self.text(c))
                };
                if let (Some(name), Some(source)) = (one("left"), one("right")) {
                    assigned.push((name, source));
                }
            }
            _ => {}
        });
        (values, assigned)
    }

    /// The plain names a call of a log or error prints in its holes.
    fn printed_names(&self, call: Node<'_>) -> Vec<&'a str> {
        let Some(msg) = self.message_index(call) else {
            return Vec::new();
        };
        let args = call_args(call);
        let plain = args.get(msg + 1..).unwrap_or_default().iter();
        plain
            .filter(|a| a.kind() == "identifier")
            .map(|a| self.text(*a))
            .collect()
    }

    /// The name of a function of the package (or a method) a call calls:
    /// `f(…)`, `s.f(…)`.
    fn local_callee(&self, call: Node<'_>) -> Option<&'a str> {
        let f = call.child_by_field_name("function")?;
        match f.kind() {
            "identifier" => Some(self.text(f)),
            // Not a function of an imported package (`strings.Join`).
            "selector_expression" => {
                let operand = f.child_by_field_name("operand")?;
                if self.imports.contains_key(self.text(operand)) {
                    return None;
                }
                Some(self.text(f.child_by_field_name("field")?))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::go::tests::sites;

    #[test]
    fn texts_that_flow_into_a_hole_of_a_log_of_the_file_fill_it() {
        let src = r#"package p

import (
	"fmt"
	"strings"

	log "github.com/sirupsen/logrus"
)

func warnSlow(prefix string, resp string, err error) {
	var result string
	if err != nil {
		result = fmt.Sprintf("failure:%v", err)
	} else {
		result = resp
	}
	log.Warnf("%srequest with result %q took too long", prefix, result)
}

func warnRead(n int) {
	var resp string
	resp = fmt.Sprintf("count:%d", n)
	warnSlow("read-only range ", resp, nil)
	label := fmt.Sprintf("node-%d", n)
	use(label)
	warnSlow(strings.Repeat("x", n), resp, nil)
}
"#;
        type Site = (String, u32, Option<(String, String)>);
        let got: Vec<Site> = sites(src)
            .into_iter()
            .map(|s| {
                let fills = s.facts.fills.map(|f| (f.function, f.arg));
                (s.message_pattern, s.line_number, fills)
            })
            .collect();
        let fill = |f: &str, a: &str| Some((f.to_string(), a.to_string()));
        assert_eq!(
            got,
            [
                ("read-only range ".into(), 23, fill("warnSlow", "prefix")),
                ("%srequest with result %q took too long".into(), 17, None),
                ("failure:%v".into(), 13, fill("warnSlow", "result")),
                ("count:%d".into(), 22, fill("warnSlow", "result")),
            ]
        );
    }
}
