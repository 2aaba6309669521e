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

/// The conditions of earlier `if` statements in the block of the site's
/// innermost guard that leave it when they hold: `if e, ok :=
/// err.(*v2error.Error); ok { if e.ErrorCode == EcodeKeyNotFound { return
/// false } }` before `plog.Errorf("failed to detect auth settings (%s)",
/// err)` inside `if err != nil { … }`. The site runs only when each is
/// false. Preconditions above the guard's block (`if x == nil { return }`
/// at the top of the function) are not this error's conditions. An `if`
/// counts when its body ends by leaving (`return`, `break`, `continue`,
/// `goto`, an exit) or holds only such an `if`; at most four, nearest
/// first.
pub(crate) fn passed(chain: &[Node<'_>], src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        if super::facts::is_function(p.kind()) {
            break;
        }
        if holds_statements(p.kind()) {
            let mut prev = child.prev_named_sibling();
            while let Some(s) = prev {
                out.extend(
                    (s.kind() == "if_statement")
                        .then(|| leaves_when(s, src))
                        .flatten(),
                );
                prev = s.prev_named_sibling();
            }
        }
        // The guard's own block ends the search; an `if` that only picks
        // a logger (`if lg != nil { lg.Warn(…) } else { plog.Errorf(…) }`)
        // is no guard of the error.
        let guard = match p.kind() {
            "if_statement" => !picks_logger(p, src),
            k => matches!(k, "expression_case" | "default_case" | "type_case"),
        };
        if guard {
            break;
        }
    }
    out.truncate(4);
    out
}

/// The condition under which `if` statement `s` (with no `else`) leaves
/// its block.
fn leaves_when(s: Node<'_>, src: &[u8]) -> Option<String> {
    if s.child_by_field_name("alternative").is_some() {
        return None;
    }
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or_default();
    let cond = text(s.child_by_field_name("condition")?);
    let head = match s.child_by_field_name("initializer") {
        Some(init) => format!("{}; {cond}", text(init)),
        None => cond.to_string(),
    };
    let body = statements(s.child_by_field_name("consequence")?);
    match &body[..] {
        [.., last] if leaves(*last, src) => Some(head),
        [only] if only.kind() == "if_statement" => {
            Some(format!("{head} && {}", leaves_when(*only, src)?))
        }
        _ => None,
    }
}

/// Whether `if` statement `s` tests a logger against `nil` (`lg != nil`,
/// `s.logger == nil`).
fn picks_logger(s: Node<'_>, src: &[u8]) -> bool {
    let Some(cond) = s.child_by_field_name("condition") else {
        return false;
    };
    let cond = cond.utf8_text(src).unwrap_or_default();
    let Some(x) = (cond.strip_suffix("!= nil"))
        .or_else(|| cond.strip_suffix("== nil"))
        .map(str::trim)
    else {
        return false;
    };
    crate::is_logger_name(x)
}

/// The statements of a block, comments aside.
fn statements(block: Node<'_>) -> Vec<Node<'_>> {
    let mut cur = block.walk();
    let children: Vec<Node<'_>> = block.named_children(&mut cur).collect();
    let list = match &children[..] {
        [one] if one.kind() == "statement_list" => {
            let mut cur = one.walk();
            one.named_children(&mut cur).collect()
        }
        _ => children,
    };
    list.into_iter().filter(|n| n.kind() != "comment").collect()
}

/// Whether statement `s` leaves its block for good.
fn leaves(s: Node<'_>, src: &[u8]) -> bool {
    matches!(
        s.kind(),
        "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
    ) || (s.kind() == "expression_statement" && ends_program(s, src))
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

    /// Each message of `src` (a file of package `p`) and its facts.
    fn facts(src: &str) -> Vec<(String, errdex_model::SiteFacts)> {
        let f = crate::go::Go.extract("p/a.go", src, &ExtractOptions::default());
        crate::resolve_package(vec![f])
            .0
            .into_iter()
            .map(|s| (s.message_pattern, s.facts))
            .collect()
    }

    /// Each message of `src` and what ends the program after it.
    fn exits(src: &str) -> Vec<(String, Option<String>)> {
        facts(src)
            .into_iter()
            .map(|(m, f)| (m, f.exits_after))
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

    /// Each message of `src` and the conditions that leave before it.
    fn passed(src: &str) -> Vec<(String, Vec<String>)> {
        facts(src).into_iter().map(|(m, f)| (m, f.passed)).collect()
    }

    #[test]
    fn an_earlier_if_that_leaves_the_guards_block_is_a_passed_condition() {
        let src = r#"package p

func detect(s *store) bool {
	if s == nil {
		return false
	}
	_, err := s.get("/enabled")
	if err != nil {
		if e, ok := err.(*Error); ok {
			if e.Code == NotFound {
				return false
			}
		}
		// A plain check first.
		if isClosed(err) {
			return false
		}
		if verbose {
			log.Printf("checking")
		}
		if s.lg != nil {
			s.lg.Warn("failed to detect auth settings")
		} else {
			plog.Errorf("failed to detect auth settings (%s)", err)
		}
		return false
	}
	return true
}
"#;
        let got = passed(src);
        let of = |m: &str| got.iter().find(|(p, _)| p == m).unwrap().1.clone();
        let want = [
            "isClosed(err)",
            "e, ok := err.(*Error); ok && e.Code == NotFound",
        ];
        // Through the logger's choice, not past the guard's block.
        assert_eq!(of("failed to detect auth settings (%s)"), want);
        assert_eq!(of("failed to detect auth settings"), want);
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
