//! Syntax trees kept between parses of one path in a process. A history
//! run reads the releases of a repository in order, and most files that
//! change between two releases change in a few lines: the next release's
//! text is parsed from the last one's tree, told where the two texts
//! differ, and tree-sitter parses again only around that edit. The tree is
//! the one a parse from nothing gives.

use std::collections::HashMap;
use std::sync::Mutex;
use tree_sitter::{InputEdit, Point, Tree};

/// The most source text whose trees are kept at once; past it, no more
/// trees are kept until [`forget`].
const MAX_KEPT_BYTES: usize = 256 << 20;

/// Which parse a kept tree belongs to: the grammar's syntax (by address)
/// and the file's path.
pub(crate) type Key = (usize, String);

#[derive(Default)]
struct Kept {
    trees: HashMap<Key, (String, Tree)>,
    bytes: usize,
}

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

fn kept() -> std::sync::MutexGuard<'static, Option<Kept>> {
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The tree kept for `key`, edited to stand for `source`: what a parse of
/// `source` can start from. Taken out: a parse keeps its own tree again.
pub(crate) fn take_for(key: &Key, source: &str) -> Option<Tree> {
    let (old, mut tree) = {
        let mut guard = kept();
        let store = guard.as_mut()?;
        let (old, tree) = store.trees.remove(key)?;
        store.bytes -= old.len();
        (old, tree)
    };
    tree.edit(&edit_between(&old, source));
    Some(tree)
}

/// Keeps `tree`, parsed from `source`, for the next parse of `key`.
pub(crate) fn keep(key: Key, source: &str, tree: Tree) {
    let mut guard = kept();
    let store = guard.get_or_insert_with(Kept::default);
    if store.bytes + source.len() > MAX_KEPT_BYTES {
        return;
    }
    store.bytes += source.len();
    if let Some((old, _)) = store.trees.insert(key, (source.to_string(), tree)) {
        store.bytes -= old.len();
    }
}

/// Drops every kept tree (a history run is over), on a thread of its
/// own: freeing thousands of trees takes a while, and the run goes on.
pub fn forget() {
    if let Some(old) = kept().take() {
        std::thread::spawn(move || drop(old));
    }
}

/// The one edit that turns `old` into `new`: the bytes between their
/// common beginning and their common end, widened to whole characters
/// (two texts that differ in `é` and `è` share that character's first
/// byte, and the lexer reads characters).
pub(crate) fn edit_between(old: &str, new: &str) -> InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(start) {
        start -= 1;
    }
    let most = a.len().min(b.len()) - start;
    let mut end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    while !(old.is_char_boundary(a.len() - end) && new.is_char_boundary(b.len() - end)) {
        end -= 1;
    }
    InputEdit {
        start_byte: start,
        old_end_byte: a.len() - end,
        new_end_byte: b.len() - end,
        start_position: point_at(a, start),
        old_end_position: point_at(a, a.len() - end),
        new_end_position: point_at(b, b.len() - end),
    }
}

/// The row and byte column of byte `at` of `text`.
fn point_at(text: &[u8], at: usize) -> Point {
    let head = &text[..at];
    let row = memchr::memchr_iter(b'\n', head).count();
    let column = at - memchr::memrchr(b'\n', head).map_or(0, |p| p + 1);
    Point::new(row, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(source: &str, old: Option<&Tree>) -> Tree {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .expect("the Python grammar loads");
        p.parse(source, old).expect("a tree")
    }

    #[test]
    fn the_edit_spans_what_differs() {
        let e = edit_between("a = 1\nb = 2\n", "a = 1\nb = 22\nc = 3\n");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (11, 11, 18));
        assert_eq!(e.start_position, Point::new(1, 5));
        assert_eq!(e.new_end_position, Point::new(2, 5));
        let same = edit_between("abc", "abc");
        assert_eq!(
            (same.start_byte, same.old_end_byte, same.new_end_byte),
            (3, 3, 3)
        );
        // A text that only grows at its start shares its whole end.
        let grown = edit_between("x\n", "y\nx\n");
        assert_eq!(
            (grown.start_byte, grown.old_end_byte, grown.new_end_byte),
            (0, 0, 2)
        );
        // `é` and `è` share their first byte, `é` and `ĩ` their last: the
        // edit holds the whole character.
        let span = |e: InputEdit| (e.start_byte, e.old_end_byte, e.new_end_byte);
        assert_eq!(span(edit_between("s = 'é'", "s = 'è'")), (5, 7, 7));
        assert_eq!(span(edit_between("s = 'é'", "s = 'ĩ'")), (5, 7, 7));
    }

    /// The next release of a file, parsed from the last one's tree, gives
    /// the tree a parse from nothing gives.
    #[test]
    fn a_kept_tree_parses_the_next_text_as_a_fresh_parse_does() {
        let old = "def f(x):\n    if x:\n        raise ValueError('bad x')\n    return x\n";
        let new = "def f(x, y):\n    if x:\n        raise ValueError(f'bad x {y}')\n    return x\n\nclass C:\n    pass\n";
        let key: Key = (1, "m.py".into());
        keep(key.clone(), old, parse(old, None));
        let start = take_for(&key, new).expect("the tree was kept");
        let incremental = parse(new, Some(&start));
        let fresh = parse(new, None);
        assert_eq!(
            incremental.root_node().to_sexp(),
            fresh.root_node().to_sexp()
        );
        assert!(take_for(&key, new).is_none(), "a tree is taken once");
    }
}
