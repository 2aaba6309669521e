//! Java extraction on constructs written for each rule.

use crate::test_support::classed_patterns_of;
use crate::test_support::{pattern_column, patterns_of};
use crate::{language_for_path, resolve_package, ExtractOptions};

#[test]
fn a_method_whose_whole_body_returns_a_literal_is_that_text_where_called() {
    let s = patterns_of(
        "src/main/java/Cli.java",
        r#"
class Cli {
    void run(String name) {
        if (name == null) throw new UsageException(this.helpText());
        throw new IllegalArgumentException(name + ": " + usage());
    }
    private String helpText() { return "See https://guides.example.org/cli for help"; }
    private static String usage() {
        // One line.
        return "usage: cli run <name>";
    }
    private String busy(int x) { return "not a constant " + x; }
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "See https://guides.example.org/cli for help",
            "%v: usage: cli run <name>",
        ]
    );
}

#[test]
fn messages_in_every_string_form() {
    let s = classed_patterns_of(
        "src/main/java/A.java",
        r#"
class A {
    static final String MISSING = "missing ";
    void f(String path, int n, Exception e) {
        throw new IllegalArgumentException("plain 100% \"q\"\tx");
        throw new IOException("read " + n + " bytes from " + path, e);
        throw new IllegalStateException(String.format("bad %s at %d", path, n));
        throw new IllegalStateException("bad %s".formatted(path));
        throw new X(MessageFormat.format("can''t read {0}", path));
        throw new UnsupportedOperationException();
        throw new Y(MISSING + path);
        log.error("user {} failed", path, e);
        Objects.requireNonNull(path, "path");
        Preconditions.checkArgument(n > 0, "n %s must be 100%", n);
    }
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "plain 100%% \"q\"\tx",
            "read %v bytes from %v",
            "bad %s at %d",
            "bad %s",
            "can't read %v",
            "UnsupportedOperationException",
            "missing %v",
            "user %v failed",
            "path",
            "n %v must be 100%%",
        ]
    );
    assert_eq!(s[7].2, vec!["path"]);
    assert_eq!(s[8].3.as_deref(), Some("NullPointerException"));
}

#[test]
fn info_and_debug_logs_only_with_all_levels() {
    let src = r#"
class A {
    void f(String id) {
        log.info("loaded {}", id);
        LOGGER.debug("cache hit for " + id);
        Log.e(TAG, "android failure");
        logger.atError().log("fluent {}", id);
    }
}
"#;
    let java = language_for_path("A.java").unwrap();
    let count = |all_levels| {
        let opts = ExtractOptions {
            all_levels,
            ..Default::default()
        };
        resolve_package(vec![java.extract("A.java", src, &opts)])
            .0
            .len()
    };
    assert_eq!(count(false), 2);
    assert_eq!(count(true), 4);
}

#[test]
fn texts_a_message_method_returns_are_sites() {
    let s = crate::test_support::patterns_of(
        "src/KeeperException.java",
        r#"
public class KeeperException extends Exception {
    static String getCodeMessage(Code code) {
        switch (code) {
        case CONNECTIONLOSS:
            return "ConnectionLoss";
        }
        return "Unknown error " + code;
    }
    @Override
    public String getMessage() {
        return "KeeperErrorCode = " + getCodeMessage(code) + " for " + path;
    }
    public String toString() { return "KeeperException of " + code; }
    public int messageCount() { return 3; }
    public String getMessageType() { return type; }
}
class Point { public String toString() { return "Point at " + x; } }
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "ConnectionLoss",
            "Unknown error %v",
            "KeeperErrorCode = %v for %v",
            "KeeperException of %v"
        ]
    );
}

#[test]
fn text_blocks_lose_their_indentation() {
    assert_eq!(
        super::text_block("\n        a\n          b\n        "),
        "a\n  b\n"
    );
    assert_eq!(super::decode_java(r"a\sb\n"), "a b\n");
}

/// Extracts the commons-lang3 sources (`-- --ignored --nocapture`);
/// prints one `SITE` line per site for reading by hand.
#[test]
#[ignore]
fn corpus() {
    let files = crate::test_support::files_under(
        &["/var/tmp/errdex-corpora/debsrc/libcommons-lang3-java/src/main"],
        &[".java"],
    );
    crate::test_support::run("java", &files, &ExtractOptions::default(), false);
}

#[test]
fn test_paths() {
    for p in [
        "src/test/java/A.java",
        "a/FooTest.java",
        "a/FooTests.kt",
        "a/FooSpec.scala",
        "a/FooIT.java",
        "sample/plugins/Auth.java",
        "samples/Demo.java",
    ] {
        assert!(super::is_test_path(p), "{p}");
    }
    assert!(!super::is_test_path("src/main/java/Latest.java"));
}
