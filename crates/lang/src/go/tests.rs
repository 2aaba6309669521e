//! Go extraction on constructs written for each rule.

use super::literals::decode_escapes;
use super::parse::{go_decls, mentions_trigger, triggers};
use super::*;

pub(super) fn sites(src: &str) -> Vec<RawSite> {
    let facts = Go.extract("p/a.go", src, &ExtractOptions::default());
    crate::resolve_package(vec![facts]).0
}

#[test]
fn test_files_examples_and_integration_test_helpers_are_test_code() {
    for test in [
        "server/server_test.go",
        "examples/route_guide/server.go",
        "test/bufconn/bufconn.go",
        "google.golang.org/grpc/test/bufconn/bufconn.go",
        "tests/framework/e2e/cluster.go",
        "go.uber.org/zap/internal/ztest/writer.go",
        "net/http/httptest/server.go",
        "pkg/testutil/leak.go",
    ] {
        assert!(Go.is_test_path(test), "{test}");
    }
    for code in [
        "server/server.go",
        "internal/testutils.go",
        "latest/test.go",
        "pkg/contest/run.go",
        "api/digest/digest.go",
    ] {
        assert!(!Go.is_test_path(code), "{code}");
    }
}

#[test]
fn callers_that_fill_a_printing_functions_text_are_parsed_with_it() {
    let mut src = String::from(
        r#"package etcdserver

import "fmt"

func warnSlow(prefix string, resp string) {
	plog.Warningf("%srequest with result %q took too long", prefix, resp)
}

func warnSlowRange(n int) {
	var resp string
	resp = fmt.Sprintf("range_response_count:%d", n)
	warnSlow("read-only range ", resp)
}
"#,
    );
    for i in 0..40 {
        src.push_str(&format!("\nfunc pad{i}(x int) int {{ return x + {i} }}\n"));
    }
    let whole = ExtractOptions {
        whole_file: true,
        ..ExtractOptions::default()
    };
    let pattern_set = |opts: &ExtractOptions| {
        let facts = Go.extract("etcdserver/util.go", &src, opts);
        let partial = facts.partial;
        let mut found: Vec<String> = crate::resolve_package(vec![facts])
            .0
            .into_iter()
            .map(|s| s.message_pattern)
            .collect();
        found.sort();
        (found, partial)
    };
    let (in_part, partial) = pattern_set(&ExtractOptions::default());
    let (in_whole, _) = pattern_set(&whole);
    assert!(partial, "the padding is left out");
    assert!(
        in_part.iter().any(|p| p.contains("range_response_count")),
        "{in_part:?}"
    );
    assert_eq!(in_part, in_whole);
}

#[test]
fn test_helpers_and_error_calls_do_not_trigger_a_parse() {
    let t = triggers(false);
    for quiet in [
        "t.Fatalf(\"x\")",
        "\tb.Error(err)",
        "s.Errorf(x)",
        "require.Error(t, err)",
        "log.Print(err.Error())",
    ] {
        let s = quiet.replace("s.Errorf", "tb.Errorf");
        assert!(!mentions_trigger(s.as_bytes(), t), "{s}");
    }
    for loud in [
        "fmt.Errorf(\"x\")",
        "s.t.Fatalf(\"x\")", // a field: kept; the extractor decides
        "func (e *E) Error() string",
        "at.Errorf(\"x\")",
        "x.Error() + y.Errorf(\"z\")",
    ] {
        assert!(mentions_trigger(loud.as_bytes(), t), "{loud}");
    }
}

#[test]
fn a_logger_handed_first_puts_the_message_after_it() {
    let src = "package p\n\nimport \"google.golang.org/grpc/internal/channelz\"\n\nfunc a(id int, name string) {\n\tchannelz.Warningf(logger, id, \"Channel switches to new LB policy %q\", name)\n\tchannelz.Warningf(id, name)\n\tlb.Warningf(logger, \"balancer %s failed\", name)\n}\n";
    let got: Vec<(String, String)> = sites(src)
        .into_iter()
        .map(|s| (s.message_pattern, s.callee))
        .collect();
    assert_eq!(
        got,
        [
            (
                "Channel switches to new LB policy %q".to_string(),
                "channelz.Warningf".to_string()
            ),
            ("balancer %s failed".to_string(), "lb.Warningf".to_string()),
        ]
    );
}

#[test]
fn printing_to_an_error_stream_is_a_site() {
    let src = "package p\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc a(err error) {\n\tfmt.Fprintln(os.Stderr, \"Error:\", err)\n}\n\nfunc b(cmd *C, n int) {\n\tfmt.Fprintf(cmd.ErrOrStderr(), \"bad count %d\\n\", n)\n}\n\nfunc c(n int) {\n\tfmt.Fprintf(os.Stdout, \"count %d\\n\", n)\n\tfmt.Println(\"hello\", n)\n}\n";
    let found = sites(src);
    let got: Vec<(&str, &str, u32)> = found
        .iter()
        .map(|s| (s.message_pattern.as_str(), s.callee.as_str(), s.line_number))
        .collect();
    assert_eq!(
        got,
        [
            ("Error: %v", "fmt.Fprintln", 9),
            ("bad count %d", "fmt.Fprintf", 13)
        ]
    );
    assert_eq!(found[0].args, ["err"]);
}

/// A structured call's fields are kept: the keys its JSON line has.
#[test]
fn a_structured_logger_call_keeps_its_field_keys() {
    let src = "package p\n\nimport (\n\t\"go.uber.org/zap\"\n\t\"k8s.io/klog/v2\"\n)\n\nfunc a(lg *zap.Logger, err error, ips []string) {\n\tlg.Warn(\"rejected connection\", zap.String(\"remote-addr\", a), zap.Strings(\"ip-addresses\", ips), zap.Error(err))\n\tklog.ErrorS(err, \"failed to sync pod\", \"pod\", name, \"uid\", uid)\n}\n";
    let found = sites(src);
    let fields: Vec<&[String]> = found.iter().map(|s| s.facts.fields.as_slice()).collect();
    assert_eq!(
        fields,
        [
            &["remote-addr", "ip-addresses", "error"][..],
            &["pod", "uid"][..]
        ]
    );
}

/// urfave/cli's `fmt.Fprintf(a.Writer, "%s %s\n\n", "Incorrect
/// Usage.", err.Error())`: an error printed to any writer is error
/// output, and the literal operand is its text.
#[test]
fn printing_an_error_to_any_writer_is_a_site() {
    let src = "package p\n\nimport \"fmt\"\n\nfunc a(app *App, err error, n int) {\n\tfmt.Fprintf(app.Writer, \"%s %s\\n\\n\", \"Incorrect Usage.\", err.Error())\n\tfmt.Fprintf(app.Writer, \"%d items\\n\", n)\n}\n";
    let found = sites(src);
    let got: Vec<(&str, u32)> = found
        .iter()
        .map(|s| (s.message_pattern.as_str(), s.line_number))
        .collect();
    assert_eq!(got, [("Incorrect Usage. %s", 6)]);
    assert_eq!(found[0].args, ["err.Error()"]);
}
#[test]
fn a_package_imported_as_f_keeps_its_calls() {
    let src = format!(
        "package p\n\nimport (\n\tf \"fmt\"\n)\n\n{}func g() error {{ return f.Errorf(\"boom %d\", 1) }}\n",
        "func pad() {}\n".repeat(200)
    );
    let found = sites(&src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].message_pattern, "boom %d");
}

#[test]
fn a_declaration_range_starts_at_its_doc_comment() {
    let src = b"package p\n\n// a does\n// things.\nfunc a() {}\n\n// loose\n\nfunc b() {}\n";
    let d = go_decls(src);
    let text = |i: usize| std::str::from_utf8(&src[d[i].start..]).unwrap();
    assert!(text(1).starts_with("// a does"));
    assert_eq!(d[1].row, 2);
    // A blank line parts a comment from the declaration below.
    assert!(text(2).starts_with("func b"));
}

#[test]
fn escapes_decode_like_go() {
    assert_eq!(decode_escapes(r"a\tb\n"), "a\tb\n");
    assert_eq!(decode_escapes(r#"\"q\" \\"#), "\"q\" \\");
    assert_eq!(decode_escapes(r"\x41\101\u00e9\U0001F600"), "AAé😀");
    assert_eq!(decode_escapes(r"100%"), "100%");
}

#[test]
fn import_names() {
    assert_eq!(default_import_name("k8s.io/klog/v2"), "klog");
    assert_eq!(default_import_name("gopkg.in/yaml.v3"), "yaml");
    assert_eq!(default_import_name("github.com/pkg/errors"), "errors");
    assert_eq!(
        default_import_name("github.com/mattn/go-sqlite3"),
        "sqlite3"
    );
    assert_eq!(default_import_name("fmt"), "fmt");
}

#[test]
fn an_error_made_for_a_function_that_exits_is_an_exit() {
    let s = sites(
        "package p\nimport \"errors\"\nfunc f(listen bool) {\n if !listen { ExitWithError(ExitBadArgs, errors.New(\"no proposal argument but -l not set\")) }\n if x { return errors.New(\"returned\") }\n report(errors.New(\"handed on\"))\n}\n",
    );
    let kinds: Vec<(&str, ErrorType, Severity)> = s
        .iter()
        .map(|s| (s.message_pattern.as_str(), s.error_type, s.severity))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "no proposal argument but -l not set",
                ErrorType::Exit,
                Severity::Critical
            ),
            ("returned", ErrorType::Exception, Severity::Error),
            ("handed on", ErrorType::Exception, Severity::Error),
        ]
    );
}

#[test]
fn alias_resolves_and_unknown_package_is_ignored() {
    let s = sites(
        "package p\nimport (\n goerrors \"errors\"\n errors \"example.com/other\"\n)\nfunc f() error {\n if x { return errors.New(\"not ours\") }\n return goerrors.New(\"ours\")\n}\n",
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].message_pattern, "ours");
    assert_eq!(s[0].callee, "errors.New");
    assert_eq!(s[0].line_number, 8);
    assert_eq!(s[0].function.as_deref(), Some("f"));
}

#[test]
fn print_style_joins_operands_like_sprint() {
    let s =
        sites("package p\nimport \"log\"\nfunc f() { log.Fatal(\"cannot start: \", err, code) }\n");
    assert_eq!(s[0].message_pattern, "cannot start: %v %v");
    let s =
        sites("package p\nimport \"log\"\nfunc f() { log.Fatalln(\"cannot\", \"start\", err) }\n");
    assert_eq!(s[0].message_pattern, "cannot start %v");
}

#[test]
fn plain_text_percent_is_escaped() {
    let s = sites("package p\nimport \"errors\"\nvar e = errors.New(\"100% sure\")\n");
    assert_eq!(s[0].message_pattern, "100%% sure");
    assert_eq!(s[0].error_message, "100% sure");
}

/// Go 1.26's `new(expr)` parses, and a site's values keep their text.
#[test]
fn new_of_a_value_parses_and_keeps_its_text() {
    let src = "package p\n\nimport \"fmt\"\n\nfunc f(v int64) error {\n\tp := new(v + 1)\n\tq := new(int64(5))\n\tt := new([]int)\n\treturn fmt.Errorf(\"value %d from %v\", *p, new(fmt.Sprint(v)))\n}\n";
    let f = crate::go::Go.extract("p/a.go", src, &ExtractOptions::default());
    assert_eq!(f.syntax_errors, 0);
    let s = crate::resolve_package(vec![f]).0;
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].message_pattern, "value %d from %v");
    assert_eq!(s[0].args, ["*p", "new(fmt.Sprint(v))"]);
    // Only a call's name changes for the parser: names that end in
    // `new`, and a type argument, are left alone.
    let text =
        super::with_new_of_values("renew(x); a.new(y); new([]int); new(map[string]int); new(3)");
    assert_eq!(
        text,
        "renew(x); a.new(y); new([]int); new(map[string]int); nex(3)"
    );
}
