//! Rust extraction on constructs written for each rule.

use crate::test_support::pattern_column;
use crate::test_support::patterns_of;
use crate::{language_for_path, resolve_package, ExtractOptions};
use errdex_model::RawSite;

/// Each site's pattern and severity, in order.
fn patterns_and_levels(sites: &[RawSite]) -> Vec<(&str, &str)> {
    sites
        .iter()
        .map(|s| (s.message_pattern.as_str(), s.severity.as_str()))
        .collect()
}

#[test]
fn a_format_handed_to_any_function_of_an_error_type_is_its_message() {
    let s = patterns_of(
        "src/parse.rs",
        r#"
fn check(arg: &str, value: u64, max: u64) -> Result<u64, Error> {
    if value > max {
        return Err(crate::Error::out_of_bounds(
            arg.to_string(),
            format!("{} is above the limit {}", value, max).into(),
        ));
    }
    let _ = Error::with_arg("--port", value);
    let _ = Config::parse(format!("{} is a config", arg));
    Ok(value)
}
"#,
    );
    assert_eq!(pattern_column(&s), ["%v is above the limit %v"]);
}

#[test]
fn panics_and_format_strings() {
    let s = patterns_of(
        "src/lib.rs",
        r#"
fn f(path: &str, n: u32, e: std::io::Error) {
    panic!("cannot open {path}: {e}");
    panic!("read {} of {:08x} bytes, 100% \
            done", n, n);
    todo!();
    unreachable!("state {n:?}");
    panic!(r"raw {}", path);
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "cannot open %v: %v",
            "read %v of %x bytes, 100%% done",
            "not yet implemented",
            "internal error: entered unreachable code: state %v",
            "raw %v",
        ]
    );
    assert_eq!(s[0].2, vec!["path", "e"]);
}

#[test]
fn a_message_field_of_a_struct_literal_is_a_site() {
    let s = patterns_of(
        "src/errors.rs",
        r#"
fn unknown_argument(arg: &str, usage: &str) -> Error {
    Error {
        message: format!("{} Found argument '{}' which wasn't expected\n{}", "error:", arg, usage),
        kind: ErrorKind::UnknownArgument,
        info: Some(vec![arg.to_owned()]),
    }
}
fn other() -> Config {
    Config { name: format!("x {}", 1), message: None }
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec!["%v Found argument '%v' which wasn't expected\n%v"]
    );
}

#[test]
fn test_modules_are_skipped() {
    let s = patterns_of(
        "src/lib.rs",
        r#"
fn f() { panic!("real"); }
#[cfg(test)]
mod tests {
    #[test]
    fn t() { panic!("in a test"); }
}
#[test]
fn t2() { panic!("also a test"); }
"#,
    );
    assert_eq!(s.len(), 1);
}

#[test]
fn items_inside_item_macros() {
    let s = patterns_of(
        "src/lib.rs",
        r#"
cfg_rt! {
    impl Runtime {
        pub fn enter(&self) {
            panic!("no reactor running");
        }
    }
}
"#,
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].1, "no reactor running");
}

#[test]
fn info_and_debug_only_at_all_levels() {
    let src = r#"
fn f(n: u32) {
    log::info!("started {n}");
    tracing::debug!(target: "x", count = n, "tick {}", n);
    trace!("deep");
    error!(%n);
}
"#;
    let rs = language_for_path("src/lib.rs").unwrap();
    let quiet = rs.extract("src/lib.rs", src, &ExtractOptions::default());
    assert!(quiet.sites.is_empty());
    assert_eq!(quiet.dynamic.len(), 1, "error!(%n) has no text");
    let all = ExtractOptions {
        all_levels: true,
        ..Default::default()
    };
    let (sites, _) = resolve_package(vec![rs.extract("src/lib.rs", src, &all)]);
    let got = patterns_and_levels(&sites);
    assert_eq!(
        got,
        vec![
            ("started %v", "info"),
            ("tick %v", "debug"),
            ("deep", "debug")
        ]
    );
}

#[test]
fn message_macros_with_a_leading_argument() {
    let rs = language_for_path("src/lib.rs").unwrap();
    let def = rs.extract(
        "src/macros.rs",
        r#"
macro_rules! report_err {
    ($ctx:expr, $($arg:tt)*) => { $ctx.log(format_args!($($arg)*)) };
}
macro_rules! warn_user {
    ($fmt:literal $(, $a:expr)*) => { eprintln!($fmt $(, $a)*) };
}
"#,
        &ExtractOptions::default(),
    );
    let uses = rs.extract(
        "src/lib.rs",
        r#"
fn f(ctx: &Ctx, path: &str) {
    report_err!(ctx, "cannot open {}", path);
    warn_user!("disk {} is slow", path);
    report_err!("wrong position {}", path);
    other_err!(ctx, "not a message macro");
}
"#,
        &ExtractOptions::default(),
    );
    let mut files = vec![def, uses];
    crate::apply_wrappers(&mut files, false);
    let (sites, _) = resolve_package(files);
    let got = patterns_and_levels(&sites);
    assert_eq!(
        got,
        vec![("cannot open %v", "error"), ("disk %v is slow", "warning")]
    );
}

/// Every file of a few real crates, when the registry has them:
/// `cargo test -p errdex-lang rust_corpus -- --ignored --nocapture`.
#[test]
#[ignore]
fn rust_corpus() {
    let Some(home) = std::env::var_os("HOME") else {
        return;
    };
    let reg = std::path::Path::new(&home).join(".cargo/registry/src");
    let Some(index) = std::fs::read_dir(&reg)
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| e.ok())
    else {
        println!("corpus {} absent: skipped", reg.display());
        return;
    };
    let mut roots = Vec::new();
    for prefix in [
        "tokio-1.",
        "hyper-1.",
        "reqwest-0.12",
        "serde_json-1.",
        "clap_builder-4.",
        "rusqlite-0.32",
    ] {
        let mut versions: Vec<String> = std::fs::read_dir(index.path())
            .unwrap()
            .flatten()
            .map(|e| e.path().to_string_lossy().to_string())
            .filter(|p| p.rsplit('/').next().is_some_and(|n| n.starts_with(prefix)))
            .collect();
        versions.sort();
        roots.extend(versions.pop());
    }
    let roots: Vec<&str> = roots.iter().map(String::as_str).collect();
    let files = crate::test_support::files_under(&roots, &[".rs"]);
    crate::test_support::run("rust", &files, &Default::default(), false);
}
