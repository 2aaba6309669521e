//! A site after which its loop goes on to the next item: a statement
//! after it, in its block or a block around it inside the loop, is a
//! `continue`. A message logged there reports an item the code leaves
//! out; nothing fails.

use tree_sitter::Node;

/// The header of the loop that `chain` (the site's node first, then its
/// parents) skips to the next item of after the site, as one line
/// (`for _, name := range names`): the statement after the site's, or
/// after a block around it that the site's statement ends, is a
/// `continue`. `None` when another statement comes first.
pub(crate) fn skipped_loop(
    chain: &[Node<'_>],
    loops: &[&str],
    is_function: &dyn Fn(&str) -> bool,
    src: &[u8],
) -> Option<String> {
    for pair in chain.windows(2) {
        let (child, p) = (pair[0], pair[1]);
        if loops.contains(&p.kind()) || is_function(p.kind()) {
            return None;
        }
        // The branches of an `if` or a `switch` do not run one after the
        // other: the statement after the whole is the one to look at.
        if is_branching(p.kind()) {
            continue;
        }
        // Only comments may stand between: any other statement (a count
        // of failures, an error kept) makes the item's failure matter
        // later.
        let mut next = child.next_named_sibling();
        while let Some(s) = next.filter(|s| s.kind().contains("comment")) {
            next = s.next_named_sibling();
        }
        match next {
            Some(s) if is_continue(s, src) => return loop_header(chain, loops, src),
            Some(_) => return None,
            None => {}
        }
    }
    None
}

/// A statement whose parts are alternatives (`if`/`else`, a `switch`'s
/// cases, `try`/`except`), not a sequence.
fn is_branching(kind: &str) -> bool {
    let alternatives = [
        "if",
        "switch",
        "select",
        "try",
        "conditional",
        "ternary",
        "unless",
    ];
    let mut words = kind.split('_');
    let last = kind.rsplit('_').next().unwrap_or(kind);
    words.any(|w| alternatives.contains(&w)) && !matches!(last, "case" | "clause")
}

fn is_continue(n: Node<'_>, src: &[u8]) -> bool {
    match n.kind() {
        "continue_statement" | "continue_expression" | "next" => true,
        // Kotlin writes every jump as one kind of node.
        "jump_expression" => n
            .utf8_text(src)
            .is_ok_and(|t| t.trim_start().starts_with("continue")),
        _ => false,
    }
}

/// The first line of the innermost loop around the site, without its
/// opening `{` or `:`.
fn loop_header(chain: &[Node<'_>], loops: &[&str], src: &[u8]) -> Option<String> {
    let l = chain.iter().find(|n| loops.contains(&n.kind()))?;
    let text = l.utf8_text(src).ok()?;
    let line = text.lines().next()?.trim();
    let line = line.trim_end_matches(['{', ':']).trim();
    (!line.is_empty() && line.len() <= 200).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;

    fn skips(path: &str, src: &str) -> Vec<(String, Option<String>)> {
        let mut out: Vec<_> = sites_of(path, src)
            .into_iter()
            .map(|s| (s.message_pattern, s.facts.skips_item))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_message_before_the_loops_continue_skips_an_item_in_every_language() {
        let go = r#"package wal

func names(lg *zap.Logger, names []string) []string {
	var out []string
	for _, name := range names {
		if err := parse(name); err != nil {
			if !strings.HasSuffix(name, ".tmp") {
				if lg != nil {
					lg.Warn("ignored file in the folder", zap.String("path", name))
				} else {
					plog.Warningf("ignored file %v in the folder", name)
				}
			}
			continue
		}
		if name == "" {
			lg.Warn("an empty name ends the scan")
			return out
		}
		out = append(out, name)
	}
	for _, n := range names {
		lg.Warn("a name is seen")
		out = append(out, n)
	}
	failed := 0
	for _, n := range names {
		if n == "bad" {
			lg.Warn("a bad name is counted")
			failed++
			continue
		}
	}
	return out
}
"#;
        assert_eq!(
            skips("wal/util.go", go),
            vec![
                ("a bad name is counted".into(), None),
                ("a name is seen".into(), None),
                ("an empty name ends the scan".into(), None),
                (
                    "ignored file %v in the folder".into(),
                    Some("for _, name := range names".into())
                ),
                (
                    "ignored file in the folder".into(),
                    Some("for _, name := range names".into())
                ),
            ]
        );
        let py = r#"import logging
log = logging.getLogger(__name__)

def load(paths):
    out = []
    for path in paths:
        if not path.endswith(".conf"):
            log.warning("skipping a file that is no configuration")
            continue
        if path == "":
            raise ValueError("an empty path")
        out.append(path)
    return out
"#;
        assert_eq!(
            skips("conf.py", py),
            vec![
                ("an empty path".into(), None),
                (
                    "skipping a file that is no configuration".into(),
                    Some("for path in paths".into())
                ),
            ]
        );
        let js = r#"function load(paths) {
  const out = [];
  for (const p of paths) {
    if (!p.endsWith(".conf")) {
      console.warn("skipping a file that is no configuration");
      continue;
    }
    out.push(p);
  }
  return out;
}
"#;
        assert_eq!(
            skips("conf.js", js),
            vec![(
                "skipping a file that is no configuration".into(),
                Some("for (const p of paths)".into())
            )]
        );
    }
}
