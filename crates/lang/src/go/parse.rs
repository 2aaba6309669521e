//! Which parts of a Go file are parsed: only the top-level declarations
//! that mention a word some site's callee contains (see
//! [`crate::prefilter`]), the whole file when that partial parse is not
//! clean.

use crate::prefilter::{self, Decl};
use crate::ExtractOptions;
use aho_corasick::AhoCorasick;
use std::sync::OnceLock;
use tree_sitter::{Parser, Tree};

/// Words without which a top-level declaration holds no site: every callee
/// the extractor knows contains one of them.
pub(super) fn triggers(all_levels: bool) -> &'static AhoCorasick {
    const DEFAULT: &[&str] = &[
        "Error",
        "New(",
        "Newf(",
        "Wrap",
        "WithMessage",
        "Fatal",
        "Warn",
        "Exit",
        "Panic",
        "panic",
        "InfoS",
        "Critical",
        // `fmt.Fprintln(os.Stderr, …)`, `cmd.ErrOrStderr()`, `ErrWriter`.
        "Stderr",
        "ErrWriter",
        // Printf wrapper definitions; their calls are found in a second
        // pass over the files that mention them (errdex-extract).
        "...interface{}",
        "...any",
    ];
    static T: OnceLock<AhoCorasick> = OnceLock::new();
    static ALL: OnceLock<AhoCorasick> = OnceLock::new();
    if all_levels {
        ALL.get_or_init(|| {
            let mut words = DEFAULT.to_vec();
            words.extend(["Info", "Print", "Debug", "Notice", "Trace"]);
            AhoCorasick::new(words).expect("static patterns")
        })
    } else {
        T.get_or_init(|| AhoCorasick::new(DEFAULT).expect("static patterns"))
    }
}

/// Whether `text` holds a trigger word that can start a site. Test files
/// are full of `t.Fatalf(` and `require.Error(t, err)`, and most code of
/// `err.Error()`; none of those is a site, and skipping declarations that
/// have nothing else saves most of the parsing of tests.
pub(super) fn mentions_trigger(text: &[u8], triggers: &AhoCorasick) -> bool {
    triggers.find_iter(text).any(|m| {
        let (before, after) = (&text[..m.start()], &text[m.end()..]);
        let Some(before) = before.strip_suffix(b".") else {
            return true;
        };
        if &text[m.start()..m.end()] == b"Error" && after.starts_with(b"()") {
            return false; // err.Error()
        }
        let recv_start = before
            .iter()
            .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .map_or(0, |p| p + 1);
        let recv = &before[recv_start..];
        let receiver_is_a_value = recv_start == 0 || before[recv_start - 1] != b'.';
        !(receiver_is_a_value && TEST_VALUE_NAMES.iter().any(|n| n.as_bytes() == recv))
    })
}

/// Values whose `Errorf`, `Fatal`, `Error` fail a test: `testing.T` and
/// friends, testify's `require` and `assert`.
const TEST_VALUE_NAMES: &[&str] = &["t", "b", "tb", "f", "require", "assert"];

/// Parses only the declarations that can hold a site (see
/// [`crate::prefilter`]); falls back to the whole file when the partial
/// parse is not clean. Says whether the tree covers only part of the file.
pub(super) fn parse(
    p: &mut Parser,
    source: &str,
    opts: &ExtractOptions,
) -> Result<Option<(Tree, bool)>, String> {
    let src = source.as_bytes();
    let parsed = with_new_of_values(source);
    let source = &*parsed;
    if !opts.whole_file {
        let triggers = triggers(opts.all_levels);
        // A package imported under one of those short names (`f "fmt"`)
        // would make `f.Errorf` a site after all.
        let shadowed = TEST_VALUE_NAMES.iter().any(|n| {
            [format!("\t{n} \""), format!("import {n} \"")]
                .iter()
                .any(|p| memchr::memmem::find(src, p.as_bytes()).is_some())
        });
        let mentions = |text: &[u8]| {
            if shadowed {
                triggers.is_match(text)
            } else {
                mentions_trigger(text, triggers)
            }
        };
        let decls = go_decls(src);
        let callers = callers_of_printers(src, &decls, &mentions);
        let keep =
            |text: &[u8]| mentions(text) || callers.as_ref().is_some_and(|c| c.is_match(text));
        if let Some(ranges) = prefilter::ranges(src, &decls, keep) {
            if p.set_included_ranges(&ranges).is_ok() {
                let tree = crate::guard::parse(p, source);
                p.set_included_ranges(&[])
                    .expect("an empty range list is valid");
                if let Some(t) = tree?.filter(|t| !t.root_node().has_error()) {
                    return Ok(Some((t, true)));
                }
            }
        }
    }
    Ok(crate::guard::parse(p, source)?.map(|t| (t, false)))
}

/// Go 1.26 lets `new` take a value (`new(v + 1)`, `new(int64(5))`),
/// which the grammar reads only as a type: such a file would not parse.
/// The text handed to the parser has those calls as plain calls (`nex(`,
/// the same length, so every node's bytes are the source's; node text
/// is read from the source itself). An argument that only a type can
/// start (`[]int`, `map[…]`, `chan`, `func(`, `struct{`, `interface{`)
/// keeps `new`, which the grammar reads as it always has.
pub(crate) fn with_new_of_values(source: &str) -> std::borrow::Cow<'_, str> {
    const TYPE_ONLY: &[&str] = &[
        "[",
        "map[",
        "chan",
        "<-chan",
        "func(",
        "func (",
        "struct",
        "interface",
    ];
    let b = source.as_bytes();
    let at: Vec<usize> = memchr::memmem::find_iter(b, b"new(")
        .filter(|&i| {
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'.'))
        })
        .filter(|&i| {
            let arg = source[i + 4..].trim_start();
            !TYPE_ONLY.iter().any(|t| arg.starts_with(t))
        })
        .collect();
    if at.is_empty() {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out = source.as_bytes().to_vec();
    for i in at {
        out[i + 2] = b'x';
    }
    std::borrow::Cow::Owned(String::from_utf8(out).expect("an ASCII letter for an ASCII letter"))
}

/// Calls of the file's own functions that hold a site and take text
/// (`func warnSlow(prefix string, resp string)` printing both): their
/// callers fill those parameters (`warnSlow("read-only range ", resp)`,
/// with `resp = fmt.Sprintf(…)` above), so the callers are parsed too,
/// though they name no trigger word.
fn callers_of_printers(
    src: &[u8],
    decls: &[prefilter::Decl],
    mentions: &impl Fn(&[u8]) -> bool,
) -> Option<AhoCorasick> {
    let names: Vec<Vec<u8>> = prefilter::decl_texts(src, decls)
        .filter(|text| mentions(text))
        .filter_map(text_taking_func)
        .collect();
    (!names.is_empty())
        .then(|| AhoCorasick::new(&names).ok())
        .flatten()
}

/// `name(` of a function or method declaration with a `string`
/// parameter; names shorter than three letters match too much text.
fn text_taking_func(decl: &[u8]) -> Option<Vec<u8>> {
    let mut rest = decl.strip_prefix(b"func ")?;
    if rest.starts_with(b"(") {
        let close = rest.iter().position(|&b| b == b')')?;
        rest = rest[close + 1..].trim_ascii_start();
    }
    let open = rest.iter().position(|&b| b == b'(')?;
    let name = &rest[..open];
    let close = open + rest[open..].iter().position(|&b| b == b')')?;
    let params = &rest[open..close];
    let takes_text = params
        .split(|&b| b == b',')
        .any(|p| p.trim_ascii().ends_with(b" string") || p.trim_ascii() == b"string");
    let plain = name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    (takes_text && plain && name.len() >= 3).then(|| [name, b"("].concat())
}

/// Top-level declarations of a Go file: lines that start, at column 0 and
/// outside comments and strings, with a declaration keyword.
pub(super) fn go_decls(src: &[u8]) -> Vec<Decl> {
    #[derive(PartialEq)]
    enum St {
        Code,
        LineComment,
        BlockComment,
        Str,
        Rune,
        Raw,
    }
    let mut st = St::Code;
    let mut decls = Vec::new();
    let mut row = 0usize;
    let mut i = 0usize;
    let mut line_start = true;
    // The `//` lines right above a declaration are its doc comment and
    // belong to its range: (offset, row) of the first of them.
    let mut doc: Option<(usize, usize)> = None;
    while i < src.len() {
        let b = src[i];
        if line_start && st == St::Code {
            let rest = &src[i..];
            let kw = |k: &[u8]| {
                rest.starts_with(k)
                    && rest
                        .get(k.len())
                        .is_some_and(|c| *c == b' ' || *c == b'(' || *c == b'\t')
            };
            let always = kw(b"package") || kw(b"import") || kw(b"const");
            if always || kw(b"func") || kw(b"var") || kw(b"type") {
                let (start, start_row) = doc.take().unwrap_or((i, row));
                decls.push(Decl {
                    start,
                    row: start_row,
                    always,
                });
            } else if rest.starts_with(b"//") {
                doc.get_or_insert((i, row));
            } else {
                doc = None;
            }
        }
        line_start = false;
        match st {
            St::Code => match b {
                b'/' if src.get(i + 1) == Some(&b'/') => {
                    st = St::LineComment;
                    i += 1;
                }
                b'/' if src.get(i + 1) == Some(&b'*') => {
                    st = St::BlockComment;
                    i += 1;
                }
                b'"' => st = St::Str,
                b'\'' => st = St::Rune,
                b'`' => st = St::Raw,
                _ => {}
            },
            St::LineComment => {
                if b == b'\n' {
                    st = St::Code;
                }
            }
            St::BlockComment => {
                if b == b'*' && src.get(i + 1) == Some(&b'/') {
                    st = St::Code;
                    i += 1;
                }
            }
            St::Str | St::Rune => {
                let close = if st == St::Str { b'"' } else { b'\'' };
                if b == b'\\' {
                    i += 1;
                } else if b == close || b == b'\n' {
                    st = St::Code;
                }
            }
            St::Raw => {
                if b == b'`' {
                    st = St::Code;
                }
            }
        }
        if src.get(i) == Some(&b'\n') {
            row += 1;
            line_start = true;
        }
        i += 1;
    }
    decls
}

pub(super) fn new_parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_go::LANGUAGE.into())
        .expect("the bundled Go grammar matches the tree-sitter version");
    p
}
