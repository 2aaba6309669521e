//! The prose helpers on guards, flags and values written for them.

use super::*;
use crate::asks::{action, parameters};

#[test]
fn an_else_after_the_handled_values_names_them() {
    // Go's `default:` after `case "x":` and `case "y", "z":`.
    let go = [r#"!(mode == "x" || mode == "y" || mode == "z")"#];
    assert_eq!(
        conditions(&go),
        [r#"`mode` is none of `"x"`, `"y"`, `"z"`"#]
    );
    // Python's `else:` after `if` and `elif`, with another guard.
    let py = [
        r#"not (target.scheme == "http")"#,
        r#"not (target.scheme == "https")"#,
        "strict",
    ];
    assert_eq!(
        conditions(&py),
        [
            r#"`target.scheme` is none of `"http"`, `"https"`"#,
            "`strict` holds"
        ]
    );
    assert_eq!(
        handled_values(&py),
        Some(("target.scheme", vec![r#""http""#, r#""https""#]))
    );
    // Different subjects, or a test that is no comparison, are not
    // merged.
    assert_eq!(none_of("!(a == 1 || b == 2)"), None);
    assert_eq!(none_of("!(ready)"), None);
    assert_eq!(none_of("!(f(x) == 1)"), None);
}

#[test]
fn guards_of_known_forms_become_actions() {
    let params = ["port", "v", "cfg"];
    assert_eq!(
        action(
            "not isinstance(port, int)",
            "port must be an integer",
            &params
        )
        .unwrap(),
        "Pass `port` as `int` (the code checks its type)."
    );
    assert!(action("not isinstance(v, (str, bytes))", "", &params)
        .unwrap()
        .contains("`str` or `bytes`"));
    assert!(action("cfg.CertFile == \"\"", "", &params)
        .unwrap()
        .starts_with("Set `cfg.CertFile`"));
    let redirects = "redirects is not enabled";
    assert!(
        action("not self.allow_subdomain_redirects", redirects, &params)
            .unwrap()
            .contains("`allow_subdomain_redirects`")
    );
    // A flag the message does not call off, a condition of another
    // form, or a value the function computes itself gets no action.
    let off = action(
        "not self.headers_set",
        "returned before it started",
        &params,
    );
    assert_eq!(off, None);
    assert_eq!(action("len(status) != 3", "", &params), None);
    assert_eq!(action("match is None", "", &params), None);
}

#[test]
fn a_negated_test_and_a_fixed_expected_value_give_steps() {
    let params = ["download_name", "environ", "n"];
    // `not (x is not None)` is `x is None`.
    assert_eq!(
        action("not (download_name is not None)", "", &params).as_deref(),
        Some("Set `download_name`: the code needs a value there and has none.")
    );
    assert_eq!(
        action(r#"environ["wsgi.version"] != (1, 0)"#, "", &params).as_deref(),
        Some(
            r#"Give `environ["wsgi.version"]` the value `(1, 0)`: the code expects exactly that."#
        )
    );
    // Only a fixed value, and only one a caller gives.
    assert_eq!(action("n != limit", "", &params), None);
    assert_eq!(action(r#"local != "x""#, "", &params), None);
    assert_eq!(action("not (a is not None and b)", "", &params), None);
}

#[test]
fn parameters_are_read_from_signatures() {
    assert_eq!(
        parameters("def run(host: str, port: int, env: Dict[str, str], *args, reload=False)"),
        ["host", "port", "env", "args", "reload"]
    );
    assert_eq!(
        parameters("func (s *Server) f(ctx context.Context, m map[string]int) error"),
        ["ctx", "m"]
    );
    assert_eq!(
        parameters("public void open(String path, int mode)"),
        ["path", "mode"]
    );
}

#[test]
fn values_the_code_handles_are_written_into_it() {
    for v in [
        "\"http\"",
        "304",
        "None",
        "ConfChangeAddNode",
        "State.DATA",
        "raftpb.EntryNormal",
    ] {
        assert!(is_fixed_value(v), "{v}");
    }
    assert!(is_fixed_value("tokenTypeSimple"));
    for v in ["self.suggested.endpoint", "self.Mode", "cfg.name", "f(x)"] {
        assert!(!is_fixed_value(v), "{v}");
    }
}

#[test]
fn a_test_that_a_value_is_there_is_no_cause() {
    for g in [
        "not (value is None)",
        "match is not None",
        "conn != nil",
        "opts !== undefined",
        "!(p == nil)",
    ] {
        assert!(is_presence(g), "{g}");
    }
    for g in [
        "err != nil",
        "value is None",
        "x != nil && y",
        "s.active",
        "n != 0",
    ] {
        assert!(!is_presence(g), "{g}");
    }
}

#[test]
fn flags_are_read_from_the_message() {
    assert_eq!(
        flags("--initial-advertise-peer-urls has %s but missing from --initial-cluster=%s"),
        ["--initial-advertise-peer-urls", "--initial-cluster"]
    );
}
