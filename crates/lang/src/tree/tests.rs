//! The shared walk's helpers on constructs written for each.

use super::*;

#[test]
fn example_programs_are_not_the_library() {
    for p in [
        "examples/persons/main.rs",
        "docs/examples/altsvc.c",
        "pkg/example/a.py",
    ] {
        assert!(common_test_path(p), "{p}");
    }
    for p in ["src/main.rs", "lib/exampler.js", "src/examples.rs"] {
        assert!(!common_test_path(p), "{p}");
    }
}

#[test]
fn c_escapes() {
    assert_eq!(
        decode_c_escapes(r#"a\n\t\"b\\ \x41\101 \u00e9\u{1F600}"#),
        "a\n\t\"b\\ AA é😀"
    );
}

#[test]
fn plain_literals_in_every_quote() {
    assert_eq!(plain_literal(r#""a\tb""#).as_deref(), Some("a\tb"));
    assert_eq!(plain_literal("'x'").as_deref(), Some("x"));
    assert_eq!(plain_literal(r#"r"raw\n""#).as_deref(), Some("raw\\n"));
    assert_eq!(plain_literal("`t ${x}`"), None);
    assert_eq!(plain_literal("msg"), None);
}

#[test]
fn comment_markers() {
    assert_eq!(strip_comment("// hello\n// world"), "hello world");
    assert_eq!(strip_comment("/**\n * Opens it.\n */"), "Opens it.");
    assert_eq!(strip_comment("# why"), "why");
}
