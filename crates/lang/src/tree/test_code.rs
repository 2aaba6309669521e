//! Code that is not the product's: test files by the conventions most
//! languages share, and C code compiled only into test or developer
//! builds (`#if TESTING`).

/// Whether a path is under a test folder or named like a test, by the
/// conventions most languages share (`tests/`, `test_x.py`, `x_test.rb`,
/// `x.test.ts`, `XTest.java`, `x_spec.rb`).
pub(crate) fn common_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let dirs = lower.split('/').collect::<Vec<_>>();
    let (file, dirs) = dirs.split_last().unwrap_or((&"", &[]));
    let stem = file.split('.').next().unwrap_or(file);
    dirs.iter().any(|d| {
        matches!(
            *d,
            "test"
                | "tests"
                | "testing"
                | "__tests__"
                | "spec"
                | "specs"
                | "testdata"
                | "fixtures"
                // Example programs ship with a library but are not its
                // code: their `eprintln!("Error: {}")` is no user's error.
                | "examples"
                | "example"
                | "_examples"
                // Sample programs and plugins (OpenVPN's `sample/`)
                // show how to use the code; users run the product.
                | "sample"
                | "samples"
        )
    }) || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || stem.ends_with("tests") && path.rsplit('/').next().is_some_and(|f| f.contains("Tests"))
        || file.contains(".test.")
        || file.contains(".spec.")
        || path.rsplit('/').next().is_some_and(|f| {
            f.split('.')
                .next()
                .is_some_and(|s| s.ends_with("Test") || s.ends_with("Tests") || s.ends_with("Spec"))
        })
}

/// A `#if` condition that holds in no build users run: `0`, or one that
/// asks only whether a test build's macro is defined or set (`TESTING`,
/// `defined TESTING`,
/// `defined(DEBUG_MALLOC) || defined(TESTING)` counts: a test build holds
/// it whichever part is true, and the debug-malloc part is a developer's
/// build too).
pub(crate) fn off_in_product_builds(condition: &str) -> bool {
    let c = condition.trim();
    if c == "0" {
        return true;
    }
    let parts: Vec<&str> = c.split("||").map(str::trim).collect();
    let macro_of = |part: &str| -> Option<String> {
        let rest = part.strip_prefix("defined").unwrap_or(part).trim();
        let name = rest.trim_start_matches('(').trim_end_matches(')').trim();
        (!name.is_empty() && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
            .then(|| name.to_string())
    };
    let names: Option<Vec<String>> = parts.iter().map(|p| macro_of(p)).collect();
    names.is_some_and(|names| {
        names.iter().any(|n| test_build_macro(n))
            && names
                .iter()
                .all(|n| test_build_macro(n) || developer_build_macro(n))
    })
}

/// A macro that only a test build defines: one of its words says test
/// (`TESTING`, `UNIT_TEST`, `REDIS_TEST`, `CONFIG_TESTING_OPTIONS`) and
/// none says the opposite (`NO_TEST`).
pub(crate) fn test_build_macro(name: &str) -> bool {
    let words: Vec<String> = name.split('_').map(str::to_ascii_lowercase).collect();
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "test" | "tests" | "testing" | "unittest" | "unittests" | "selftest"
        )
    }) && !words
        .iter()
        .any(|w| matches!(w.as_str(), "no" | "not" | "without" | "disable"))
}

/// A macro of a developer's debugging build (`DEBUG_MALLOC`).
fn developer_build_macro(name: &str) -> bool {
    name.split('_').any(|w| w.eq_ignore_ascii_case("debug"))
}
