//! A site after which the program ends on every path: etcd logs `member
//! %q has previously registered …` in one case of a `switch`, and the
//! statement after the `switch` is `os.Exit(1)`. The program does not go
//! on from such a message, whatever its level.

use tree_sitter::Node;

/// The statement that ends the program after the site whose ancestors
/// are `chain` (the site first), when every path from the site reaches
/// it in the same function: each statement list around the site is read
/// past the statement that holds it. A `return`, `break`, `continue`,
/// `goto` or `fallthrough` first, a loop's body or the function's end
/// ends the search with none.
pub(crate) fn exit_after(chain: &[Node<'_>], src: &[u8]) -> Option<String> {
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        if super::facts::is_function(p.kind()) || p.kind() == "for_statement" {
            return None;
        }
        if !holds_statements(p.kind()) {
            continue;
        }
        let mut next = child.next_named_sibling();
        while let Some(s) = next {
            match s.kind() {
                "return_statement"
                | "break_statement"
                | "continue_statement"
                | "goto_statement"
                | "fallthrough_statement" => return None,
                "expression_statement" if ends_program(s, src) => {
                    return Some(s.utf8_text(src).unwrap_or_default().to_string());
                }
                _ => {}
            }
            next = s.next_named_sibling();
        }
    }
    None
}

/// Nodes whose named children after the first statement are statements
/// that run in order.
fn holds_statements(kind: &str) -> bool {
    matches!(
        kind,
        "statement_list"
            | "block"
            | "expression_case"
            | "default_case"
            | "type_case"
            | "communication_case"
    )
}

/// `os.Exit(1)`, `log.Fatal(…)`, `lg.Fatalf(…)`, `klog.Exitf(…)`,
/// `panic(…)`.
fn ends_program(stmt: Node<'_>, src: &[u8]) -> bool {
    let Some(call) = stmt
        .named_child(0)
        .filter(|c| c.kind() == "call_expression")
    else {
        return false;
    };
    let Some(function) = call.child_by_field_name("function") else {
        return false;
    };
    let name = function.utf8_text(src).unwrap_or_default();
    let method = name.rsplit('.').next().unwrap_or(name);
    name == "os.Exit"
        || name == "panic"
        || (name.contains('.')
            && matches!(method, "Fatal" | "Fatalf" | "Fatalln" | "Exit" | "Exitf"))
}

#[cfg(test)]
mod tests {
    use crate::{ExtractOptions, LanguageSupport};

    /// Each message of `src` (a file of package `p`) and what ends the
    /// program after it.
    fn exits(src: &str) -> Vec<(String, Option<String>)> {
        let f = crate::go::Go.extract("p/a.go", src, &ExtractOptions::default());
        crate::resolve_package(vec![f])
            .0
            .into_iter()
            .map(|s| (s.message_pattern, s.facts.exits_after))
            .collect()
    }

    #[test]
    fn a_log_before_an_exit_on_every_path_ends_the_program() {
        let src = r#"package p

func start(err error, lg *zap.Logger) {
	if err != nil {
		switch err {
		case errDup:
			lg.Warn("member has already registered")
		default:
			lg.Warn("failed to bootstrap")
		}
		os.Exit(1)
	}
	lg.Info("started")
}

func serve(lg *zap.Logger) {
	lg.Error("listener closed")
	klog.Fatalf("cannot go on")
}
"#;
        let got = exits(src);
        let of = |m: &str| got.iter().find(|(p, _)| p == m).unwrap().1.clone();
        assert_eq!(
            of("member has already registered").as_deref(),
            Some("os.Exit(1)")
        );
        assert_eq!(of("failed to bootstrap").as_deref(), Some("os.Exit(1)"));
        assert_eq!(
            of("listener closed").as_deref(),
            Some("klog.Fatalf(\"cannot go on\")")
        );
    }

    #[test]
    fn a_path_that_leaves_first_does_not_end_the_program() {
        let src = r#"package p

func start(err error, lg *zap.Logger, names []string) error {
	if err != nil {
		lg.Warn("retrying after an error")
		return err
	}
	if len(names) == 0 {
		lg.Warn("no names given")
	} else {
		os.Exit(2)
	}
	return nil
}

func loop(lg *zap.Logger, names []string) {
	for _, n := range names {
		if n == "" {
			lg.Warn("skipping a name")
			continue
		}
		lg.Warn("one more name")
	}
	go func() {
		lg.Warn("in a goroutine")
	}()
	os.Exit(3)
}
"#;
        let got = exits(src);
        assert_eq!(got.len(), 5, "{got:?}");
        for (message, exit) in &got {
            assert_eq!(exit, &None, "{message}");
        }
    }
}
