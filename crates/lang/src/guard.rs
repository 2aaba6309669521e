//! The guards every parse goes through, so that one hostile file costs a
//! warning, never the run.
//!
//! - Time: tree-sitter's error recovery on text that is no code (random
//!   printable bytes named `.js`) can take minutes; a parse that runs past
//!   [`parse_budget`] (ten times a real file's) is cancelled and the file
//!   refused.
//! - Depth: the walkers that read a message or the facts around a site
//!   recurse once per level of the tree (a concatenation of 1,000 strings
//!   is 1,000 levels deep) and walk up to the root from a node; a file
//!   nested deeper than [`MAX_NESTING`] is refused before any walker
//!   starts, and callers run the walkers on threads with [`PARSE_STACK`]
//!   bytes of stack, which every level up to the limit fits in.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use tree_sitter::{Node, ParseOptions, Parser, Tree};

/// Nesting deeper than this is generated or hostile code (the deepest
/// file of the Go, Python, JavaScript, C and Java corpora is a generated
/// Go table 947 levels deep; hand-written code stays under 200): such a
/// file is skipped with a warning rather than walked.
pub const MAX_NESTING: usize = 1_500;

/// The stack a thread that extracts needs for a tree [`MAX_NESTING`]
/// levels deep (it is reserved, not used: pages are touched only as deep
/// as a file goes).
pub const PARSE_STACK: usize = 64 * 1024 * 1024;

/// How long parsing `bytes` of source may take. Code parses at several
/// MB/s (a 3 MB minified bundle in 1 s here), so this is ten times any
/// real file's time, and a loaded machine gives the same result; text
/// that is no code (1 MB of random printable bytes named `.js`: 32 s) is
/// cut off. tree-sitter's own count of operations does not tell the two
/// apart (error recovery is costly per operation), so this is time.
pub(crate) fn parse_budget(bytes: usize) -> Duration {
    Duration::from_secs(5) + Duration::from_millis(2 * bytes as u64 / 1024)
}

/// Parses `source` with the parser's language and included ranges; `Err`
/// says why a parse that ran past [`parse_budget`] was cancelled. `Ok(None)`
/// is tree-sitter's own failure (no language).
pub(crate) fn parse(p: &mut Parser, source: &str) -> Result<Option<Tree>, String> {
    parse_from(p, source, None)
}

/// [`parse`] starting from `old`, an earlier text's tree edited to stand
/// for `source` ([`crate::kept_trees`]).
pub(crate) fn parse_from(
    p: &mut Parser,
    source: &str,
    old: Option<&Tree>,
) -> Result<Option<Tree>, String> {
    let budget = parse_budget(source.len());
    let deadline = Instant::now() + budget;
    let mut late = false;
    let mut check = |_: &tree_sitter::ParseState| {
        late = Instant::now() > deadline;
        if late {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let bytes = source.as_bytes();
    let tree = p.parse_with_options(
        &mut |i, _| bytes.get(i..).unwrap_or_default(),
        old,
        Some(ParseOptions::new().progress_callback(&mut check)),
    );
    if late {
        // A cancelled parse resumes on the next call unless reset.
        p.reset();
        return Err(format!(
            "parsing took longer than {} s (text that is no code?); the file was skipped",
            budget.as_secs()
        ));
    }
    Ok(tree)
}

/// Why a tree is refused: the line (from 1) of the first node nested
/// deeper than [`MAX_NESTING`], found without recursion.
pub(crate) fn too_deep(root: Node<'_>) -> Option<String> {
    let mut cursor = root.walk();
    let mut depth = 0usize;
    'walk: loop {
        if depth > MAX_NESTING {
            let line = cursor.node().start_position().row + 1;
            return Some(format!(
                "nested more than {MAX_NESTING} levels deep at line {line} \
                 (generated code?); the file was skipped"
            ));
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                return None;
            }
            depth -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python_tree(source: &str) -> tree_sitter::Tree {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        p.parse(source, None).unwrap()
    }

    #[test]
    fn a_tree_deeper_than_the_limit_is_refused_with_its_line() {
        let deep = format!(
            "x = 1\ny = {}1{}\n",
            "(".repeat(MAX_NESTING),
            ")".repeat(MAX_NESTING)
        );
        let why = too_deep(python_tree(&deep).root_node()).expect("refused");
        assert!(why.contains("at line 2"), "{why}");
        let shallow = format!("y = {}1{}\n", "(".repeat(100), ")".repeat(100));
        assert_eq!(too_deep(python_tree(&shallow).root_node()), None);
    }
}
