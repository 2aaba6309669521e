//! Conditional directives inside an expression: curl's
//!
//! ```c
//! fprintf(errors, "curl: try 'curl --help' "
//! #ifdef USE_MANUAL
//!         "or 'curl --manual' "
//! #endif
//!         "for more information\n");
//! ```
//!
//! is one call to the compiler, but the grammar cannot parse a directive
//! between arguments. Inside parentheses the directive lines are blanked,
//! and so is every `#else`/`#elif` branch (the first branch is the one
//! read), keeping the source's length and lines.

/// The source with the conditional directives inside parentheses (and
/// their later branches) blanked; `None` when it has none.
pub(crate) fn preprocessed(source: &str) -> Option<String> {
    if !source.contains('#') {
        return None;
    }
    let mut out = source.as_bytes().to_vec();
    let mut changed = false;
    let mut scan = Scan::default();
    let mut skipping: Option<usize> = None;
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let end = start + line.len();
        let directive = directive(line);
        match (skipping, directive) {
            (Some(depth), Some(d)) => {
                skipping = match d {
                    "if" | "ifdef" | "ifndef" => Some(depth + 1),
                    "endif" if depth == 0 => None,
                    "endif" => Some(depth - 1),
                    _ => Some(depth),
                };
                blank(&mut out[start..end]);
            }
            (Some(_), None) => blank(&mut out[start..end]),
            (None, Some(d)) if scan.depth > 0 => {
                if matches!(d, "else" | "elif") {
                    skipping = Some(0);
                }
                blank(&mut out[start..end]);
                changed = true;
            }
            (None, _) => scan.feed(line),
        }
        start = end;
    }
    changed.then(|| String::from_utf8(out).unwrap_or_else(|_| source.to_string()))
}

/// The conditional directive a line holds (`ifdef`, `else`, `endif`…).
fn directive(line: &str) -> Option<&'static str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    ["ifdef", "ifndef", "if", "elif", "else", "endif"]
        .into_iter()
        .find(|d| {
            rest.strip_prefix(d)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
}

/// Blanks a line, keeping its line break.
fn blank(line: &mut [u8]) {
    for b in line.iter_mut().filter(|b| **b != b'\n') {
        *b = b' ';
    }
}

/// Parenthesis depth across lines, outside strings, characters and
/// comments.
#[derive(Default)]
struct Scan {
    depth: usize,
    in_block_comment: bool,
    /// The quote of a string continued on the next line (a backslash
    /// before the line break: `_("\` then the text).
    in_string: Option<u8>,
}

impl Scan {
    fn feed(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        if let Some(q) = self.in_string.take() {
            i = self.skip_string(b, 0, q);
        }
        while i < b.len() {
            if self.in_block_comment {
                if b[i..].starts_with(b"*/") {
                    self.in_block_comment = false;
                    i += 1;
                }
                i += 1;
                continue;
            }
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => return,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    self.in_block_comment = true;
                    i += 1;
                }
                q @ (b'"' | b'\'') => i = self.skip_string(b, i + 1, q) - 1,
                b'(' => self.depth += 1,
                b')' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
    }

    /// From `i` inside a string quoted by `q`: the offset after its
    /// closing quote, or the line's end, noting a string the line break
    /// continues.
    fn skip_string(&mut self, b: &[u8], mut i: usize, q: u8) -> usize {
        while i < b.len() && b[i] != q && b[i] != b'\n' {
            if b[i] == b'\\' && matches!(b.get(i + 1), Some(b'\n') | Some(b'\r')) {
                self.in_string = Some(q);
                return b.len();
            }
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        (i + 1).min(b.len())
    }
}

#[cfg(test)]
mod tests {
    use super::preprocessed;

    #[test]
    fn a_directive_between_arguments_is_blanked() {
        let src = "f(x, \"a \"\n#ifdef M\n  \"b \"\n#else\n  \"c \"\n#endif\n  \"d\");\n#ifdef T\nint y;\n#endif\n";
        let out = preprocessed(src).unwrap();
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(
            words,
            ["f(x,", "\"a", "\"", "\"b", "\"", "\"d\");", "#ifdef", "T", "int", "y;", "#endif"]
        );
    }

    #[test]
    fn a_string_continued_on_the_next_line_keeps_its_parentheses() {
        let src = "void f(void) {\n  fprintf(stderr, _(\"\\\n%s: warning (%d)\\n\"), a, b);\n}\n#ifdef TESTING\nint y;\n#endif\n";
        assert!(preprocessed(src).is_none(), "{src}");
    }

    #[test]
    fn top_level_directives_are_left_alone() {
        let src = "#ifdef X\nint f(void) { return g(\")\"); }\n#endif\n/* ( */\n#if Y\n#endif\n";
        assert!(preprocessed(src).is_none());
    }
}
