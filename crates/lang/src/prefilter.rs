//! Parsing only what can matter. Most of a large file (generated
//! marshalling code, long helpers) holds no error site; tree-sitter can be
//! told to parse only some byte ranges, keeping every position as in the
//! whole file. A language splits its source into top-level declarations
//! with a small lexer; declarations that mention none of the language's
//! trigger words are left out. Callers re-parse the whole file whenever the
//! partial parse reports a syntax error, so a wrong split never loses sites.

use tree_sitter::{Point, Range};

/// Below this many bytes a file is parsed whole: splitting it saves
/// nothing measurable.
const MIN_SPLIT_BYTES: usize = 1024;
/// When more than this share of a file is kept, parse it whole.
const MAX_KEPT_SHARE: f64 = 0.95;

/// A top-level declaration found by a language's splitter.
pub(crate) struct Decl {
    /// Byte offset where it starts (always a line start).
    pub start: usize,
    /// Its line (0-based).
    pub row: usize,
    /// Always kept (package clause, imports, constants).
    pub always: bool,
}

/// Each declaration's text, up to the next one.
pub(crate) fn decl_texts<'a>(src: &'a [u8], decls: &'a [Decl]) -> impl Iterator<Item = &'a [u8]> {
    decls.iter().enumerate().map(move |(i, d)| {
        let end = decls.get(i + 1).map_or(src.len(), |n| n.start);
        &src[d.start..end]
    })
}

/// The ranges to parse, or `None` to parse the whole file.
pub(crate) fn ranges(
    src: &[u8],
    decls: &[Decl],
    mentions_trigger: impl Fn(&[u8]) -> bool,
) -> Option<Vec<Range>> {
    if src.len() < MIN_SPLIT_BYTES || decls.is_empty() {
        return None;
    }
    let end_row = src.iter().filter(|&&b| b == b'\n').count();
    let end_col = src.len() - src.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let mut out: Vec<Range> = Vec::new();
    let mut kept = 0usize;
    for (i, d) in decls.iter().enumerate() {
        let (end, end_point) = match decls.get(i + 1) {
            Some(n) => (n.start, Point::new(n.row, 0)),
            None => (src.len(), Point::new(end_row, end_col)),
        };
        if !(d.always || mentions_trigger(&src[d.start..end])) {
            continue;
        }
        kept += end - d.start;
        match out.last_mut() {
            Some(last) if last.end_byte == d.start => {
                last.end_byte = end;
                last.end_point = end_point;
            }
            _ => out.push(Range {
                start_byte: d.start,
                end_byte: end,
                start_point: Point::new(d.row, 0),
                end_point,
            }),
        }
    }
    if out.is_empty() || kept as f64 > MAX_KEPT_SHARE * src.len() as f64 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::AhoCorasick;

    #[test]
    fn small_files_and_mostly_kept_files_are_parsed_whole() {
        let ac = AhoCorasick::new(["Error"]).unwrap();
        let d = [Decl {
            start: 0,
            row: 0,
            always: false,
        }];
        assert!(ranges(b"func a() {}", &d, |t| ac.is_match(t)).is_none());
        let big = "func a() { Error() }\n".repeat(1000);
        assert!(ranges(big.as_bytes(), &d, |t| ac.is_match(t)).is_none());
    }

    #[test]
    fn untriggered_declarations_are_left_out_and_neighbours_merge() {
        let ac = AhoCorasick::new(["Error"]).unwrap();
        let filler = "// x\n".repeat(2000);
        let src = format!(
            "package p\nfunc a() {{ Error() }}\nfunc b() {{\n{filler}}}\nfunc c() {{ Error() }}\n"
        );
        let starts: Vec<usize> = ["package", "func a", "func b", "func c"]
            .iter()
            .map(|k| src.find(k).unwrap())
            .collect();
        let rows = [0, 1, 2, 2003];
        let decls: Vec<Decl> = starts
            .iter()
            .zip(rows)
            .enumerate()
            .map(|(i, (&start, row))| Decl {
                start,
                row,
                always: i == 0,
            })
            .collect();
        let r = ranges(src.as_bytes(), &decls, |t| ac.is_match(t)).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].start_byte, r[0].end_byte), (0, starts[2]));
        assert_eq!(r[1].start_byte, starts[3]);
        assert_eq!(r[1].start_point, Point::new(2003, 0));
        assert_eq!(r[1].end_byte, src.len());
    }
}
