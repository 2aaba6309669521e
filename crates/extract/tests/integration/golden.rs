//! Golden output for a fixture with every Go construct the extractor
//! knows. Refresh with `ERRDEX_BLESS=1 cargo test -p errdex-extract golden`
//! and review the diff.

use crate::*;
use errdex_model::{ErrorType, Severity};
use serde_json::{json, Value};

const REPO: &str = "example/constructs";
const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

fn index_constructs(include: bool) -> Indexed {
    let dir = copy_fixture("constructs");
    let mut o = opts(dir.path());
    o.repo = Some(REPO.into());
    o.commit = Some(SHA.into());
    o.include_tests = include;
    o.include_vendor = include;
    run(&o)
}

#[test]
fn golden_constructs() {
    let out = index_constructs(false);
    let ds = &out.dataset;
    let mut stats = serde_json::to_value(&ds.stats).unwrap();
    stats["seconds"] = json!(null);
    let got = json!({
        "records": ds.records,
        "dynamicSites": ds.dynamic_sites,
        "stats": stats,
        "warnings": out.warnings.iter().map(|w| format!("{}: {}", w.path, w.message)).collect::<Vec<_>>(),
    });
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/constructs.json");
    let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
    if std::env::var_os("ERRDEX_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want =
        std::fs::read_to_string(&path).expect("golden file exists; create it with ERRDEX_BLESS=1");
    if want != text {
        let want: Value = serde_json::from_str(&want).unwrap();
        for (i, (w, g)) in want["records"]
            .as_array()
            .unwrap()
            .iter()
            .zip(got["records"].as_array().unwrap())
            .enumerate()
        {
            assert_eq!(w, g, "record {i} differs");
        }
        assert_eq!(
            want, got,
            "golden output differs; rerun with ERRDEX_BLESS=1 if intended"
        );
    }
}

fn pattern<'a>(out: &'a Indexed, p: &str) -> &'a errdex_model::Record {
    out.dataset
        .records
        .iter()
        .find(|r| r.message_pattern == p)
        .unwrap_or_else(|| {
            panic!(
                "no record {p:?}; have {:#?}",
                out.dataset
                    .records
                    .iter()
                    .map(|r| &r.message_pattern)
                    .collect::<Vec<_>>()
            )
        })
}

fn absent(out: &Indexed, p: &str) {
    assert!(
        out.dataset.records.iter().all(|r| r.message_pattern != p),
        "{p:?} should not be a record"
    );
}

#[test]
fn every_construct_is_understood() {
    let out = index_constructs(false);
    // Aliases and sentinels.
    let r = pattern(&out, "store: key not found");
    assert_eq!(r.error_class.as_deref(), Some("ErrNotFound"));
    assert_eq!(r.sites[0].callee, "errors.New");
    assert_eq!(
        pattern(&out, "store: read-only (%s)")
            .error_class
            .as_deref(),
        Some("ErrReadOnly")
    );
    assert_eq!(
        pattern(&out, "LOUD").error_class.as_deref(),
        Some("errLoud")
    );
    // Identical messages in two files: one record, both sites, path order.
    let closed = pattern(&out, "store: closed");
    assert_eq!(closed.sites.len(), 2);
    assert_eq!(closed.sites[0].file_path, "pkg/store/dup.go");
    assert_eq!(closed.error_class.as_deref(), Some("ErrClosed"));
    // Constants from another file of the package, concatenation, escapes.
    pattern(&out, "bad key %q");
    pattern(&out, "store: key too long");
    pattern(&out, "tab\there \"quoted\" é A");
    pattern(&out, "raw x\\n stays");
    pattern(&out, "multi line concatenation: %v");
    pattern(&out, "reading %q: %w");
    pattern(&out, "100%% of %s failed");
    // pkg/errors.
    for p in [
        "opening the store",
        "opening %s",
        "with message",
        "with message %d",
        "pkg new",
        "pkg errorf %v",
    ] {
        assert_eq!(
            pattern(&out, p).sites[0].callee.split('.').next(),
            Some("errors"),
            "{p}"
        );
    }
    // gRPC codes.
    assert_eq!(
        pattern(&out, "id is required").error_code.as_deref(),
        Some("InvalidArgument")
    );
    assert_eq!(
        pattern(&out, "id %q is too long").error_code.as_deref(),
        Some("OutOfRange")
    );
    assert_eq!(
        pattern(&out, "no access").error_code.as_deref(),
        Some("PermissionDenied")
    );
    assert_eq!(
        pattern(&out, "no such id %s").error_code.as_deref(),
        Some("NotFound")
    );
    // HTTP.
    let h = pattern(&out, "method not allowed");
    assert_eq!((h.error_type, h.http_status), (ErrorType::Http, Some(405)));
    assert_eq!(pattern(&out, "try again later").http_status, Some(503));
    // Logging.
    let sev = |p: &str| (pattern(&out, p).error_type, pattern(&out, p).severity);
    assert_eq!(
        sev("sync failed after %d attempts: %v"),
        (ErrorType::Log, Severity::Error)
    );
    assert_eq!(sev("sync failed: %v"), (ErrorType::Log, Severity::Error));
    assert_eq!(sev("sync failed %v"), (ErrorType::Log, Severity::Error));
    assert_eq!(sev("deep failure"), (ErrorType::Log, Severity::Error));
    assert_eq!(sev("slow sync: %dms"), (ErrorType::Log, Severity::Warning));
    assert_eq!(sev("disk almost full"), (ErrorType::Log, Severity::Warning));
    assert_eq!(
        sev("cannot continue: %v"),
        (ErrorType::Log, Severity::Critical)
    );
    assert_eq!(sev("exiting: %v"), (ErrorType::Log, Severity::Critical));
    assert_eq!(
        sev("Failed to update lease"),
        (ErrorType::Log, Severity::Error)
    );
    pattern(&out, "Lease update failed, retrying");
    absent(&out, "Lease updated");
    absent(&out, "verbose %d");
    pattern(&out, "verbose error");
    pattern(&out, "glog error %v");
    assert_eq!(sev("log fatal: %v"), (ErrorType::Log, Severity::Critical));
    assert_eq!(sev("log panic: %v"), (ErrorType::Panic, Severity::Critical));
    pattern(&out, "log fatal plain");
    absent(&out, "not an error %d");
    // Panics.
    assert_eq!(
        sev("negative value"),
        (ErrorType::Panic, Severity::Critical)
    );
    assert_eq!(
        sev("zero is not allowed (got %d)"),
        (ErrorType::Panic, Severity::Critical)
    );
    assert_eq!(
        sev("one is special"),
        (ErrorType::Panic, Severity::Critical)
    );
    assert_eq!(sev("two: %w"), (ErrorType::Panic, Severity::Critical));
    assert_eq!(sev("tool %s: %v"), (ErrorType::Panic, Severity::Critical));
    assert_eq!(
        pattern(&out, "inside a func literal").sites[0]
            .function
            .as_deref(),
        Some("literal")
    );
    // Error() methods.
    let k = pattern(&out, "key error");
    assert_eq!(
        (k.error_class.as_deref(), k.sites[0].function.as_deref()),
        (Some("KeyError"), Some("KeyError.Error"))
    );
    assert_eq!(
        pattern(&out, "key %q failed with code %d")
            .error_class
            .as_deref(),
        Some("KeyError")
    );
    absent(&out, "not a site");
    // Loggers known by method name: capnslog, zap, logrus; not tests, not
    // calls without a literal message, not info by default.
    assert_eq!(
        sev("capnslog fatal: %v"),
        (ErrorType::Log, Severity::Critical)
    );
    assert_eq!(
        sev("capnslog warning %d"),
        (ErrorType::Log, Severity::Warning)
    );
    assert_eq!(sev("zap warning"), (ErrorType::Log, Severity::Warning));
    assert_eq!(
        pattern(&out, "logrus error").sites[0].callee,
        "WithError(…).Error"
    );
    for p in [
        "test helper %d",
        "capnslog info %d",
        "zap info",
        "zap debug",
        "not klog %d",
    ] {
        absent(&out, p);
    }
    // Printf wrappers defined in the repository, by signature.
    assert_eq!(
        sev("error via wrapper x"),
        (ErrorType::Log, Severity::Error)
    );
    assert_eq!(
        pattern(&out, "error via wrapper x").sites[0].callee,
        "errorf"
    );
    assert_eq!(
        sev("fatal via wrapper: %v"),
        (ErrorType::Log, Severity::Critical)
    );
    assert_eq!(
        pattern(&out, "fatal via wrapper: %v").sites[0].args,
        vec!["err"]
    );
    for p in [
        "info via wrapper %d",
        "no such wrapper %d",
        "plain call",
        "snapshotter label %s",
    ] {
        absent(&out, p);
    }
    // An error-building wrapper needs no level in its name.
    assert_eq!(
        sev("snapshotter not loaded: %s: %w"),
        (ErrorType::Exception, Severity::Error)
    );
    assert_eq!(
        pattern(&out, "snapshotter not loaded: %s: %w").sites[0].callee,
        "toStatusf"
    );
    // Format arguments are kept for chain detection.
    assert_eq!(
        pattern(&out, "capnslog fatal: %v").sites[0].args,
        vec!["err"]
    );
    // Syntax errors: the file is still used.
    pattern(&out, "after the syntax error");
    // Dynamic sites are listed, not recorded.
    let dynamic: Vec<(&str, &str)> = out
        .dataset
        .dynamic_sites
        .iter()
        .map(|d| (d.callee.as_str(), d.expression.as_str()))
        .collect();
    for want in [
        ("errors.New", "msg"),
        ("panic", "err"),
        ("http.Error", "err.Error()"),
        ("Error()", "o.msg"),
    ] {
        assert!(dynamic.contains(&want), "{want:?} in {dynamic:?}");
    }
    // `msg + "%v"`: only verbs, no text to search for.
    absent(&out, "%v%v");
    assert!(
        dynamic.contains(&("fmt.Errorf", "msg+\"%v\"")),
        "{dynamic:?}"
    );
    // Skipped by default.
    for p in [
        "vendored error",
        "testdata error",
        "only in tests",
        "ignored by .gitignore",
    ] {
        absent(&out, p);
    }
    // Unique slugs.
    let mut slugs: Vec<_> = out
        .dataset
        .records
        .iter()
        .map(|r| r.slug.as_str())
        .collect();
    slugs.sort();
    let n = slugs.len();
    slugs.dedup();
    assert_eq!(slugs.len(), n);
}

#[test]
fn every_level_on_request() {
    let dir = copy_fixture("constructs");
    let mut o = opts(dir.path());
    o.all_levels = true;
    let out = run(&o);
    let sev = |p: &str| pattern(&out, p).severity;
    assert_eq!(sev("capnslog info %d"), Severity::Info);
    assert_eq!(sev("zap info"), Severity::Info);
    assert_eq!(sev("zap debug"), Severity::Debug);
    assert_eq!(sev("Lease updated"), Severity::Info);
    assert_eq!(sev("verbose %d"), Severity::Debug);
    assert_eq!(sev("not an error %d"), Severity::Info);
    assert_eq!(sev("info via wrapper %d"), Severity::Info);
    // Errors stay what they were.
    assert_eq!(sev("capnslog fatal: %v"), Severity::Critical);
}

#[test]
fn vendor_and_tests_on_request() {
    let out = index_constructs(true);
    assert_eq!(
        pattern(&out, "vendored error").file_path,
        "vendor/github.com/x/y/y.go"
    );
    pattern(&out, "testdata error");
    pattern(&out, "only in tests");
    absent(&out, "ignored by .gitignore");
}
