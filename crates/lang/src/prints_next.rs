//! What the program prints right after a site: the statements that
//! follow the site's statement and call the same logger, or the same
//! print function. etcd logs `member %q has previously registered with
//! discovery service token (%s).`, then "But etcd could not find valid
//! cluster configuration in the given data dir (%s).", "Please check the
//! given data dir path if the previous bootstrap succeeded" and "or use a
//! new discovery token if the previous bootstrap failed.": the authors'
//! own reason and remedy, which a reader of the first line needs.
//!
//! Read from the syntax tree of any language: a statement is a named
//! child of a block, a call's callee is its text up to the arguments,
//! and the printed text is the call's first string literal.

use tree_sitter::Node;

/// Lines kept per site.
const MAX_LINES: usize = 3;
/// Characters kept per line.
const MAX_CHARS: usize = 240;

/// The texts printed by the statements right after the one holding the
/// site call `site`, while each calls the site's logger (the same
/// receiver: `plog.Errorf` then `plog.Infof`) or the same print function
/// (`print`, `fmt.Println`). The first other statement ends them.
pub(crate) fn prints_next(site: Node<'_>, src: &[u8]) -> Vec<String> {
    let Some(printer) = callee(site, src).filter(|c| !ends_program(c)) else {
        return Vec::new();
    };
    // Only a call that is its statement prints: `err := fmt.Errorf(…)`
    // followed by `fmt.Println(…)` prints nothing of the site.
    let Some(stmt) = statement_of(site).filter(|s| call_of(*s) == Some(site)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut next = stmt.next_named_sibling();
    while let Some(s) = next {
        next = s.next_named_sibling();
        if s.kind().contains("comment") {
            continue;
        }
        let Some(call) = call_of(s) else { break };
        let Some(other) = callee(call, src) else {
            break;
        };
        if !same_printer(&printer, &other) {
            break;
        }
        let Some(text) = first_string(call, src) else {
            break;
        };
        out.push(text);
        if out.len() == MAX_LINES {
            break;
        }
    }
    out
}

/// A call after which nothing runs: `log.Fatalf`, `klog.Exitf`, `panic`,
/// `sys.exit`, `die`, `abort`.
fn ends_program(callee: &str) -> bool {
    let name = callee.rsplit(['.', ':', '>']).next().unwrap_or(callee);
    let name = name.to_ascii_lowercase();
    name.starts_with("fatal")
        || name.starts_with("exit")
        || matches!(name.as_str(), "panic" | "die" | "abort" | "panicf")
}

/// Nodes whose named children are statements run in order.
fn is_block(kind: &str) -> bool {
    matches!(
        kind,
        "block"
            | "module"
            | "program"
            | "source_file"
            | "statement_block"
            | "statement_list"
            | "compound_statement"
            | "body_statement"
            | "then"
            | "else"
            | "do_block"
            | "begin"
            | "switch_block_statement_group"
            | "switch_section"
            | "expression_case"
            | "default_case"
            | "switch_case"
            | "switch_default"
            | "case_statement"
            | "default_statement"
    )
}

/// The statement holding `n`: its nearest ancestor (or itself) whose
/// parent is a block.
fn statement_of(n: Node<'_>) -> Option<Node<'_>> {
    let mut cur = n;
    loop {
        let parent = cur.parent()?;
        if is_block(parent.kind()) {
            return Some(cur);
        }
        cur = parent;
    }
}

/// The call a statement makes: the statement itself, or its only named
/// child (an expression statement).
fn call_of(s: Node<'_>) -> Option<Node<'_>> {
    let is_call = |n: Node<'_>| {
        let k = n.kind();
        k.contains("call") || k == "method_invocation" || k.ends_with("_invocation")
    };
    if is_call(s) {
        return Some(s);
    }
    let inner = s.named_child(0).filter(|_| s.named_child_count() == 1)?;
    is_call(inner).then_some(inner)
}

/// A call's callee as written: its text up to the arguments
/// (`plog.Infof`, `logger.warning`, `System.err.println`).
fn callee(call: Node<'_>, src: &[u8]) -> Option<String> {
    let text = call.utf8_text(src).ok()?;
    let end = text.find(['(', ' ', '\n'])?;
    let head = text[..end].trim();
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | ':' | '>' | '-');
    (!head.is_empty() && head.chars().all(word)).then(|| head.to_string())
}

/// Whether `b` prints as `a` does: the same receiver (a logger's other
/// level), or the same function.
fn same_printer(a: &str, b: &str) -> bool {
    let receiver = |c: &str| {
        c.rsplit_once(['.', ':', '>'])
            .map(|(r, _)| r.trim_end_matches([':', '-']).to_string())
    };
    a == b || (receiver(a).is_some_and(|r| !r.is_empty()) && receiver(a) == receiver(b))
}

/// The first string literal among a call's arguments, its quotes and
/// prefixes removed.
fn first_string(call: Node<'_>, src: &[u8]) -> Option<String> {
    let args = call
        .child_by_field_name("arguments")
        .or_else(|| {
            let mut cur = call.walk();
            let found = call
                .named_children(&mut cur)
                .find(|c| c.kind().contains("argument"));
            found
        })
        .unwrap_or(call);
    let mut cur = args.walk();
    let found = args
        .named_children(&mut cur)
        .find(|c| c.kind().contains("string"));
    let raw = found?.utf8_text(src).ok()?;
    let inner = raw
        .trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '@')
        .trim_matches(['"', '\'', '`']);
    // A line end written as an escape (`"…\\n"`) is no part of the text.
    let mut inner = inner.trim_end();
    while let Some(rest) = inner.strip_suffix("\\n") {
        inner = rest.trim_end();
    }
    let text: String = inner.chars().take(MAX_CHARS).collect();
    (!text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use crate::test_support::sites_of;

    /// What each site of `src` prints next, by pattern.
    fn next(path: &str, src: &str) -> Vec<(String, Vec<String>)> {
        sites_of(path, src)
            .into_iter()
            .map(|s| (s.message_pattern, s.facts.prints_next))
            .collect()
    }

    fn of<'a>(all: &'a [(String, Vec<String>)], pattern: &str) -> &'a [String] {
        &all.iter()
            .find(|(p, _)| p == pattern)
            .unwrap_or_else(|| panic!("no site {pattern}: {all:?}"))
            .1
    }

    #[test]
    fn go_lines_by_the_same_logger_follow_the_message() {
        let src = r#"package p

func start(dir string, err error) {
	if err != nil {
		plog.Errorf("member %q is registered", dir)
		// The data dir may be new.
		plog.Infof("Please check the data dir %s", dir)
		plog.Infof("or use a new token.\n\n")
		cleanup(dir)
		plog.Infof("never read: another statement came first")
	}
	plog.Warningf("disk %s is full", dir)
	log.Fatalf("cannot go on: %v", err)
	log.Printf("never printed")
	fmt.Println("unrelated")
	e := fmt.Errorf("bad value %q", dir)
	fmt.Println("printed, but not the error's text")
	use(e)
}
"#;
        let all = next("p/a.go", src);
        assert_eq!(
            of(&all, "member %q is registered"),
            ["Please check the data dir %s", "or use a new token."]
        );
        // Another printer (`fmt` is not `plog`) ends the lines.
        assert!(of(&all, "disk %s is full").is_empty());
        // Nothing runs after a fatal log.
        assert!(of(&all, "cannot go on: %v").is_empty());
        // An error that is kept, not printed, prints nothing next.
        assert!(of(&all, "bad value %q").is_empty());
    }

    #[test]
    fn python_javascript_java_and_ruby_read_the_same_way() {
        let py = "def f(path):\n    logger.error(\"cannot open %s\", path)\n    logger.info(\"Check that the file exists.\")\n    raise ValueError(\"bad path\")\n";
        assert_eq!(
            of(&next("a.py", py), "cannot open %s"),
            ["Check that the file exists."]
        );
        assert!(of(&next("a.py", py), "bad path").is_empty());
        let js = "function f(p) {\n  console.error('cannot open ' + p);\n  console.error('Run npm install first.');\n}\n";
        assert_eq!(
            of(&next("a.js", js), "cannot open %v"),
            ["Run npm install first."]
        );
        let java = "class A {\n  void f(String p) {\n    log.error(\"cannot open {}\", p);\n    log.info(\"Check the permissions of the folder.\");\n  }\n}\n";
        assert_eq!(
            of(&next("A.java", java), "cannot open %v"),
            ["Check the permissions of the folder."]
        );
        let rb = "def f(p)\n  logger.error \"cannot open #{p}\"\n  logger.warn \"Run bundle install first.\"\nend\n";
        assert_eq!(
            of(&next("a.rb", rb), "cannot open %v"),
            ["Run bundle install first."]
        );
    }
}
