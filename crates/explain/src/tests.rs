use super::*;
use errdex_model::Lang;

#[test]
fn verdict_names_are_the_json_names() {
    for v in [
        Verdict::Traced,
        Verdict::Partial,
        Verdict::Ambiguous,
        Verdict::Unknown,
    ] {
        assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
    }
}

fn row(id: &str, repo: &str, pattern: &str, args: &[&str]) -> TraceRow {
    TraceRow {
        id: id.into(),
        repo: repo.into(),
        slug: id.into(),
        message_pattern: pattern.into(),
        language: Lang::Go,
        documentation: None,
        sites: vec![TraceSite {
            file_path: format!("{id}.go"),
            line_number: 1,
            function: None,
            callee: "fmt.Errorf".into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            github_url: None,
            guards: Vec::new(),
            fills: None,
            fields: Vec::new(),
            closed_holes: Vec::new(),
        }],
        presence: None,
    }
}

#[test]
fn frames_come_from_different_repositories() {
    // A kops message wrapping a vendored AWS SDK message.
    let ex = Explainer::new(vec![
        row(
            "outer",
            "kubernetes/kops",
            "error listing instances: %v",
            &["err"],
        ),
        row(
            "inner",
            "aws/aws-sdk-go",
            "RequestError: send request failed caused by: %v",
            &["origErr"],
        ),
    ]);
    let e = ex.explain("error listing instances: RequestError: send request failed caused by: dial tcp: i/o timeout");
    let layers: Vec<(&str, &str)> = e
        .frames
        .iter()
        .map(|f| (f.candidates[0].repo, f.candidates[0].id))
        .collect();
    // The standard library's tail is the runtime's (the knowledge base).
    assert_eq!(
        layers,
        vec![
            ("kubernetes/kops", "outer"),
            ("aws/aws-sdk-go", "inner"),
            ("kb/go", "kb:go/net.OpError.dial"),
            ("kb/go", "kb:go/os.ErrDeadlineExceeded")
        ]
    );
    assert_eq!(e.frames[2].text, "dial tcp: i/o timeout");
    assert_eq!(e.verdict, Verdict::Traced);
}

#[test]
fn sources_come_before_their_built_copies() {
    let mut r = row(
        "settle",
        "axios/axios",
        "Request failed with status code %v",
        &["status"],
    );
    let site = r.sites[0].clone();
    r.sites = [
        "dist/axios.js",
        "dist/browser/axios.cjs",
        "lib/core/settle.js",
    ]
    .iter()
    .map(|f| TraceSite {
        file_path: f.to_string(),
        ..site.clone()
    })
    .collect();
    let ex = Explainer::new(vec![r]);
    let line = "Request failed with status code 404";
    let e = ex.explain(line);
    assert_eq!(e.frames[0].candidates[0].file_path, "lib/core/settle.js");
    let top = ex.outline(line).top.unwrap();
    assert_eq!(ex.site(top).1.file_path, "lib/core/settle.js");
}

#[test]
fn colour_codes_are_read_past() {
    let ex = Explainer::new(vec![row(
        "quit",
        "pallets/werkzeug",
        "Press CTRL+C to quit",
        &[],
    )]);
    let line = "\x1b[33mPress CTRL+C to quit\x1b[0m";
    let e = ex.explain(line);
    assert_eq!((e.input.as_str(), e.verdict), (line, Verdict::Traced));
    assert_eq!(ex.outline(line).verdict, Verdict::Traced);
    assert_eq!(
        without_colours("a\x1b[1;31mb\x1b[0m\x1b").as_deref(),
        Some("ab")
    );
    assert_eq!(without_colours("plain"), None);
}

#[test]
fn a_line_pasted_as_markdown_is_read_inside_its_marks() {
    let ex = Explainer::new(vec![row(
        "undef",
        "pallets/jinja",
        "%v is undefined",
        &["name"],
    )]);
    for line in [
        "`jinja2.exceptions.UndefinedError: 'my_dict' is undefined`",
        "  **jinja2.exceptions.UndefinedError: 'my_dict' is undefined**",
    ] {
        let e = &ex.explain_block(&[line])[0];
        assert_eq!(
            (e.input.as_str(), e.verdict),
            (line, Verdict::Traced),
            "{line}"
        );
        let f = &e.frames[0];
        assert_eq!(&line[f.start..f.end], "'my_dict' is undefined", "{line}");
        assert!(e.prefix.ends_with("UndefinedError: "), "{}", e.prefix);
    }
    // Marks inside the text are the message's own.
    assert_eq!(markdown_inner("`a` and `b`"), None);
    assert_eq!(markdown_inner("` spaced`"), None);
    assert_eq!(markdown_inner("*** FATAL CONFIG FILE ERROR ***"), None);
}

#[test]
fn a_whole_message_with_more_after_it_is_its_head() {
    let ex = Explainer::new(vec![
        row(
            "bio",
            "redis/redis",
            "Fatal: Can't initialize Background Jobs.",
            &[],
        ),
        row(
            "timeout",
            "axios/axios",
            "timeout of %dms exceeded",
            &["ms"],
        ),
    ]);
    // A sentence a newer version appended.
    let e = ex
        .explain("Fatal: Can't initialize Background Jobs. Error message: Operation not permitted");
    assert_eq!(e.verdict, Verdict::Partial, "{e:?}");
    assert_eq!(e.frames[0].candidates[0].id, "bio");
    assert_eq!(e.unmatched[0].text, " Error message: ");
    // The runtime reads only what the repository's layer leaves.
    let errno = e.frames.last().unwrap().candidates[0].knowledge.unwrap();
    assert_eq!(errno.key, "errno/EPERM");
    // A user's question in another script after the message.
    let e = ex.explain("timeout of 5000ms exceeded 这个错误怎么解决呀");
    assert_eq!(e.frames[0].candidates[0].id, "timeout", "{e:?}");
    // Words of its own after it are the message's, not a tail.
    assert!(ex
        .explain("timeout of 5000ms exceeded while reading")
        .frames
        .is_empty());
}

#[test]
fn a_cli_printer_head_is_read_both_ways() {
    let ex = Explainer::new(vec![
        row("printer", "etcd/etcdctl", "Error: %v", &["err"]),
        row("inner", "etcd/etcdctl", "bad number of arguments", &[]),
        row("other", "acme/app", "disk is full", &[]),
    ]);
    let ids = |e: &Explanation| -> Vec<String> {
        e.frames
            .iter()
            .map(|f| f.candidates[0].id.to_string())
            .collect()
    };
    // The printer explains the head as well as a level marker would.
    let e = ex.explain("Error: bad number of arguments");
    assert_eq!(ids(&e), ["printer", "inner"]);
    assert_eq!((e.prefix.as_str(), e.verdict), ("", Verdict::Traced));
    let o = ex.outline("Error: bad number of arguments");
    assert_eq!(o.verdict, Verdict::Traced);
    assert_eq!(ex.site(o.top.unwrap()).0.id, "printer");
    // Behind a timestamp too; and an unknown inner message keeps the
    // printer, with the rest unmatched.
    let e = ex.explain("2026-12-02T01:00:00Z Error: bad number of arguments");
    assert_eq!(ids(&e), ["printer", "inner"]);
    let e = ex.explain("Error: zzz qqq");
    assert_eq!(
        (ids(&e), e.verdict),
        (vec!["printer".to_string()], Verdict::Partial)
    );
    // A marker that no template starts with stays a level.
    let e = ex.explain("ERROR: disk is full");
    assert_eq!(
        (e.prefix.as_str(), ids(&e)),
        ("ERROR: ", vec!["other".to_string()])
    );
}

#[test]
fn a_padded_printer_head_is_read_both_ways() {
    // rubygems' `@errs.puts "ERROR:  #{statement}"`.
    let ex = Explainer::new(vec![
        row("alert", "rubygems/rubygems", "ERROR:  %v", &["statement"]),
        row(
            "build",
            "rubygems/rubygems",
            "Couldn't find a gemspec file matching %v",
            &["x"],
        ),
    ]);
    let line = "ERROR:  Couldn't find a gemspec file matching 'x.gemspec'";
    let ids: Vec<String> = ex
        .explain(line)
        .frames
        .iter()
        .map(|f| f.candidates[0].id.to_string())
        .collect();
    assert_eq!(ids, ["alert", "build"]);
}

#[test]
fn a_template_of_the_marker_word_alone_is_no_printer() {
    // ripgrep's validator returns the bare word `"error"`: it explains
    // no `error: ` printer in front of clap's message.
    let ex = Explainer::new(vec![
        row("word", "BurntSushi/ripgrep", "error", &[]),
        row("whole", "casbin/casbin", "error: name does not exist", &[]),
    ]);
    let e = ex.explain("error: Found argument '--bogus' which wasn't expected");
    assert_eq!(
        (e.prefix.as_str(), e.verdict),
        ("error: ", Verdict::Unknown)
    );
    let o = ex.outline("error: Found argument '--bogus'");
    assert_eq!(o.verdict, Verdict::Unknown);
    let e = ex.explain("error: name does not exist");
    assert_eq!((e.frames.len(), e.verdict), (1, Verdict::Traced));
}

#[test]
fn a_message_that_starts_with_a_level_word_is_still_found() {
    let ex = Explainer::new(vec![
        row("whole", "casbin/casbin", "error: name does not exist", &[]),
        row("other", "acme/app", "disk is full", &[]),
    ]);
    for (line, prefix) in [
        ("error: name does not exist", ""),
        (
            "2026-12-02T01:00:00Z error: name does not exist",
            "2026-12-02T01:00:00Z ",
        ),
    ] {
        let e = ex.explain(line);
        assert_eq!(e.verdict, Verdict::Traced, "{line}");
        assert_eq!(e.frames[0].candidates[0].id, "whole");
        assert_eq!(e.prefix, prefix);
        assert_eq!(ex.outline(line).verdict, Verdict::Traced, "{line}");
    }
    // A marker that is a level stays stripped.
    let e = ex.explain("ERROR: disk is full");
    assert_eq!((e.prefix.as_str(), e.verdict), ("ERROR: ", Verdict::Traced));
    assert_eq!(
        ex.explain("error: nothing like it").verdict,
        Verdict::Unknown
    );
}

#[test]
fn a_template_that_starts_with_the_marker_beats_a_loose_one_behind_it() {
    // Redis writes `WARNING: ` into its own message; the marker stripped,
    // the rest fits another program's `{} set to {}` as well.
    let ex = Explainer::new(vec![
        row(
            "backlog",
            "redis/redis",
            "WARNING: The TCP backlog setting of %d cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of %d.",
            &[],
        ),
        row("loose", "apache/zookeeper", "%v set to %v", &[]),
    ]);
    let line = "1:M 09 Nov 2024 09:57:17.203 # WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.";
    let e = ex.explain(line);
    assert_eq!(e.frames[0].candidates[0].id, "backlog");
    assert_eq!(e.prefix, "1:M 09 Nov 2024 09:57:17.203 # ");
    assert_eq!(ex.outline(line).verdict, Verdict::Traced);
    // Without the redis template, the marker is a level again.
    let ex = Explainer::new(vec![
        row("loose", "apache/zookeeper", "%v set to %v", &[]),
        row("warn", "acme/app", "WARNING: disk is full", &[]),
    ]);
    let e = ex.explain("WARNING: quota is set to 5");
    assert_eq!(
        (e.prefix.as_str(), e.frames[0].candidates[0].id),
        ("WARNING: ", "loose")
    );
}

#[test]
fn doubled_spaces_of_a_paste_are_read_as_one() {
    let ex = Explainer::new(vec![
        row(
            "insecure",
            "urllib3/urllib3",
            "Unverified HTTPS request is being made to host '%s'. Adding certificate verification is strongly advised.",
            &[],
        ),
        row("two", "etcd-io/etcd", "Error:  context deadline exceeded", &[]),
    ]);
    let line = "InsecureRequestWarning: Unverified HTTPS request is being made to host '...'.  Adding certificate verification is strongly advised.";
    let e = ex.explain(line);
    assert_eq!(
        (e.verdict, e.frames[0].candidates[0].id),
        (Verdict::Traced, "insecure")
    );
    assert_eq!(e.input, line);
    assert_eq!(ex.outline(line).verdict, Verdict::Traced);
    // A template's own two spaces are matched as printed.
    let e = ex.explain("Error:  context deadline exceeded");
    assert_eq!(
        (e.verdict, e.frames[0].candidates[0].id),
        (Verdict::Traced, "two")
    );
    // And text that does not trace with one space stays unknown.
    let e = ex.explain("nothing  like it at all");
    assert_eq!(e.verdict, Verdict::Unknown);
}

#[test]
fn known_prefixes_behind_an_unknown_head_are_stripped() {
    let ex = Explainer::new(vec![row("disk", "acme/app", "disk is full", &[])]);
    for (line, prefix) in [
        (
            "web-1  | 2026-12-02T01:00:00Z ERROR disk is full",
            "web-1  | 2026-12-02T01:00:00Z ERROR ",
        ),
        ("cmd/ctr: level=error msg=\"disk is full\"", "cmd/ctr: "),
    ] {
        let e = ex.explain(line);
        assert_eq!(e.verdict, Verdict::Traced, "{line}");
        assert_eq!(e.prefix, prefix, "{line}");
        assert_eq!(&line[e.frames[0].start..e.frames[0].end], "disk is full");
        assert_eq!(ex.outline(line).verdict, Verdict::Traced, "{line}");
    }
    // Behind prose the unknown layer stays unmatched.
    let e = ex.explain("upstream said no: ERROR disk is full");
    assert_ne!(e.verdict, Verdict::Traced);
}

#[test]
fn trailing_blanks_are_padding() {
    // Symfony Console pads an exception's block to its width.
    let ex = Explainer::new(vec![row(
        "undefined",
        "symfony/console",
        "Command \"%s\" is not defined.",
        &["name"],
    )]);
    for line in [
        "  Command \"frobnicate\" is not defined.  ",
        "Command \"x\" is not defined.\t ",
    ] {
        let e = ex.explain(line);
        assert_eq!(e.verdict, Verdict::Traced, "{line:?}");
        assert!(e.unmatched.is_empty(), "{line:?}: {:?}", e.unmatched);
        assert_eq!(ex.outline(line).verdict, Verdict::Traced, "{line:?}");
    }
}

#[test]
fn a_bulleted_line_of_a_message_of_several_traces() {
    // Composer's hints: a list printed in one string.
    let ex = Explainer::new(vec![row(
        "hints",
        "composer/composer",
        "Potential causes:\n - A typo in the package name\n - It's a private package",
        &[],
    )]);
    for line in [" - A typo in the package name", "* It's a private package"] {
        let e = ex.explain(line);
        assert_eq!(e.verdict, Verdict::Traced, "{line:?}");
        assert_eq!(e.frames[0].candidates[0].id, "hints", "{line:?}");
    }
}

#[test]
fn a_mid_line_match_does_not_hide_an_earlier_layer() {
    // curl's `helpf`: `curl: `, then the call's format, then the reason.
    let ex = Explainer::new(vec![
        row("option", "curl/curl", "option %s: %s", &["opt", "reason"]),
        row("reason", "curl/curl", "is unknown", &[]),
    ]);
    let e = ex.explain("curl: option --bogus: is unknown");
    let ids: Vec<&str> = e.frames.iter().map(|f| f.candidates[0].id).collect();
    assert_eq!(ids, ["option", "reason"], "{e:?}");
    assert!(e.unmatched.is_empty(), "{:?}", e.unmatched);
    assert_eq!(
        ex.outline("curl: option --bogus: is unknown").verdict,
        Verdict::Traced
    );
}

#[test]
fn a_head_that_ends_like_a_prefix_does_not_hide_a_layer() {
    // gRPC's status text after a caller's own words: `desc = ` ends like a
    // prefix, but `rpc error: …` is a layer of its own.
    let ex = Explainer::new(vec![
        row(
            "status",
            "grpc/grpc-go",
            "rpc error: code = %s desc = %s",
            &["code", "msg"],
        ),
        row(
            "max",
            "grpc/grpc-go",
            "grpc: received message larger than max (%d vs. %d)",
            &["n", "max"],
        ),
    ]);
    let line = "could not sync: rpc error: code = ResourceExhausted desc = grpc: received message larger than max (5 vs. 4)";
    let e = ex.explain(line);
    let ids: Vec<&str> = e.frames.iter().map(|f| f.candidates[0].id).collect();
    assert_eq!(ids, ["status", "max"], "{e:?}");
    assert_eq!(e.prefix, "could not sync: ", "{e:?}");
}

#[test]
fn a_message_and_its_line_break_is_its_line() {
    // werkzeug's access line: `f"{address} - - [{date}] {message}\n"`.
    let ex = Explainer::new(vec![row(
        "access",
        "pallets/werkzeug",
        "%v - - [%v] %v\n",
        &["address", "date", "message"],
    )]);
    let e = ex.explain("127.0.0.1 - - [02/Dec/2026 07:59:30] \"GET /boom HTTP/1.1\" 500 -");
    assert_eq!(e.verdict, Verdict::Traced, "{e:?}");
}

/// serde_json's bytes for `e`, with DEL and C1 controls escaped as well.
fn serde_json_terminal_safe(e: &Explanation) -> String {
    String::from_utf8(serde_json::to_vec(e).unwrap())
        .unwrap()
        .chars()
        .map(|c| match u32::from(c) {
            n @ (0x7f..=0x9f) => format!("\\u{n:04x}"),
            _ => c.to_string(),
        })
        .collect()
}

#[test]
fn write_json_gives_serde_json_bytes() {
    let mut quoted = row("quoted", "acme/app", "bad \"name\" <%s>\t%v", &["n", "err"]);
    quoted.documentation = Some("Fails when \u{7f}the name ⚠ is \\ odd.".into());
    quoted.sites[0].function = Some("Load".into());
    quoted.sites[0].github_url = Some("https://example.com/a.go#L1".into());
    let twin = |id: &str| row(id, "acme/app", "disk is full", &[]);
    let ex = Explainer::new(vec![
        quoted,
        twin("disk1"),
        twin("disk2"),
        row("wrap", "acme/app", "save: %w", &["err"]),
    ]);
    let lines = [
        "bad \"name\" <x>\tdisk is full",
        "bad \"\u{9b}31m\" <\u{1b}[2J\u{7f}> disk is full",
        "2026-12-02T01:00:00Z ERROR save: disk is full",
        "nothing known here",
        "    at x (y.js:1:2)",
        "save: disk is full, then more",
    ];
    // Twice: the second time every fragment is already written.
    for _ in 0..2 {
        for e in ex.explain_block(&lines) {
            let mut ours = Vec::new();
            ex.write_json(&e, &mut ours);
            let ours = String::from_utf8(ours).unwrap();
            assert!(
                !ours.chars().any(char::is_control),
                "{ours}: a control character written as it is"
            );
            assert_eq!(ours, serde_json_terminal_safe(&e));
        }
    }
}

#[test]
fn a_printer_around_nested_messages_is_a_layer() {
    // click's `Error: {message}` around `BadParameter`'s `Invalid value for
    // {hint}: {self.message}` around `Path`'s `{name} {filename!r} does not
    // exist.`: the middle template's literals are a fifth of its text.
    let py = |id: &str, p: &str, args: &[&str]| {
        let mut r = row(id, "pallets/click", p, args);
        r.language = Lang::Python;
        r
    };
    let ex = Explainer::new(vec![
        py("printer", "Error: %v", &["self.format_message()"]),
        py(
            "invalid",
            "Invalid value for %v: %v",
            &["_join_param_hints(param_hint)", "self.message"],
        ),
        py(
            "exist",
            "%v %v does not exist.",
            &["self.name.title()", "filename!r"],
        ),
    ]);
    let e = ex.explain("Error: Invalid value for 'PATH': Path '/nonexistent' does not exist.");
    let ids: Vec<&str> = e.frames.iter().map(|f| f.candidates[0].id).collect();
    assert_eq!(ids, ["printer", "invalid", "exist"], "{e:?}");
}

#[test]
fn a_hole_an_out_parameter_fills_holds_that_functions_message() {
    // `if (probe_limits(&why) < 0) log_warn("WARNING %s", why);` where
    // `probe_limits` writes `*why = "open files limit is too low"`.
    let mut printer = row("printer", "acme/srv", "WARNING %s", &["why"]);
    printer.language = Lang::C;
    printer.sites[0].guards = vec!["(probe_limits(&why) < 0)".into()];
    let mut inner = row("inner", "acme/srv", "open files limit is too low", &[]);
    inner.sites[0].function = Some("probe_limits".into());
    let ex = Explainer::new(vec![printer, inner]);
    // This release's wording: two layers, traced.
    let e = ex.explain("WARNING open files limit is too low");
    assert_eq!(e.verdict, Verdict::Traced);
    assert_eq!(e.frames.len(), 2);
    // Another release's wording is no message of `probe_limits`: the
    // printer did not print it, and the line is not traced.
    let e = ex.explain("WARNING max open files is set to 1024! raise it with ulimit -n");
    assert!(e.frames.is_empty(), "{:?}", e.frames);
    assert_eq!(e.verdict, Verdict::Unknown);
    // A value handed by value is the printer's own: it stays.
    let mut plain = row("plain", "acme/srv", "WARNING %s", &["why"]);
    plain.sites[0].guards = vec!["(probe_limits(why) < 0)".into()];
    let ex = Explainer::new(vec![plain]);
    let e = ex.explain("WARNING max open files is set to 1024! raise it with ulimit -n");
    assert_eq!(e.frames.len(), 1);
}
