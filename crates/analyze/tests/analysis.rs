//! The static analyser on real fixtures: the seed records (kops), a small
//! shop with sentinels, typed errors, retries and HTTP handlers (golden
//! file), and the etcd corpus, whose every code field must parse.

use errdex_analyze::analyze_all;
use errdex_extract::{index, NoProgress, Options};
use errdex_model::{Record, Severity};
use std::path::{Path, PathBuf};

mod common;
use common::{analysed, by, manifest};

/// Whether a Go snippet (statements and declarations, as in the record)
/// parses without syntax errors.
fn go_parses(code: &str) -> bool {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_go::LANGUAGE.into()).unwrap();
    let code = format!("{}\n", code.trim_end());
    !p.parse(&code, None).unwrap().root_node().has_error()
}

fn code_fields(r: &Record) -> Vec<(&'static str, &str)> {
    [
        ("exampleFix", &r.example_fix),
        ("validationCode", &r.validation_code),
        ("typeGuard", &r.type_guard),
        ("tryCatchPattern", &r.try_catch_pattern),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
    .collect()
}

fn assert_complete(r: &Record) {
    let id = &r.message_pattern;
    for (k, v) in [
        ("documentation", &r.documentation),
        ("triggerScenarios", &r.trigger_scenarios),
        ("commonSituations", &r.common_situations),
        ("handlingStrategy", &r.handling_strategy),
        ("backgroundTag", &r.background_tag),
    ] {
        assert!(
            v.as_deref().is_some_and(|v| !v.is_empty()),
            "{id}: {k} empty"
        );
    }
    assert!(!r.solutions.is_empty() && r.solutions.len() <= 6, "{id}");
    assert!(!r.prevention_tips.is_empty(), "{id}");
    assert!(!r.tags.is_empty(), "{id}");
    assert_eq!(r.analyzer.as_deref(), Some("static"));
    assert!(r.related_errors.len() <= 8);
    assert!(errdex_analyze::STRATEGIES.contains(&r.handling_strategy.as_deref().unwrap()));
    for (k, code) in code_fields(r) {
        assert!(go_parses(code), "{id}: {k} does not parse:\n{code}");
    }
}

#[test]
fn seed_records_are_explained_from_their_facts() {
    let records = analysed(&errdex_testkit::fixtures().join("seed"), "kubernetes/kops");
    records.iter().for_each(assert_complete);

    let stop = by(&records, "stop requested");
    assert_eq!(stop.severity, Severity::Info, "a clean-shutdown sentinel");
    assert_eq!(stop.background_tag.as_deref(), Some("graceful-shutdown"));
    let trigger = stop.trigger_scenarios.as_deref().unwrap();
    assert!(trigger.contains("StopRequested"), "{trigger}");
    assert_eq!(stop.handling_strategy.as_deref(), Some("type-guard"));
    let guard = stop.type_guard.as_deref().unwrap();
    assert!(
        guard.contains("a clean stop, not a failure") && guard.contains("return nil"),
        "{guard}"
    );
    assert!(
        stop.solutions[0].contains("clean-shutdown"),
        "{:?}",
        stop.solutions
    );

    let probe = by(&records, "serving readiness probe: %w");
    let doc = probe.documentation.as_deref().unwrap();
    assert!(doc.contains("`runApplyChannelLoop`"), "{doc}");
    assert!(doc.contains("when `serveReadiness` fails"), "{doc}");
    assert!(
        doc.contains("before the loop that follows starts") && doc.contains("is not retried"),
        "{doc}"
    );
    assert!(
        doc.contains("In daemon mode kops-channels runs as a system-node-critical static pod"),
        "uses the comment above the serveReadiness call: {doc}"
    );
    assert!(doc.contains("wrapped with `%w`"), "{doc}");
    let fix = probe.try_catch_pattern.as_deref().unwrap();
    assert!(
        fix.contains("runApplyChannelLoop(ctx, out, options, args)"),
        "{fix}"
    );
    // Nothing in the facts says the probe binds a port.
    assert!(
        !doc.split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "port" || w == "bind"),
        "{doc}"
    );
}

#[test]
fn shop_fixture_matches_golden() {
    let records = analysed(&manifest().join("tests/fixtures/shop"), "example/shop");
    records.iter().for_each(assert_complete);

    let not_found = by(&records, "item not found");
    assert_eq!(not_found.handling_strategy.as_deref(), Some("type-guard"));
    assert!(not_found
        .type_guard
        .as_deref()
        .unwrap()
        .contains("errors.Is(err, inventory.ErrNotFound)"));
    assert_eq!(not_found.background_tag.as_deref(), Some("not-found"));
    let stock = by(
        &records,
        "insufficient stock for %s: requested %d, available %d",
    );
    let guard = stock.type_guard.as_deref().unwrap();
    assert!(
        guard.contains("var target *inventory.StockError"),
        "{guard}"
    );
    let sync = by(&records, "sync timed out after %d attempts: %v");
    assert_eq!(sync.handling_strategy.as_deref(), Some("retry"));
    assert!(sync.example_fix.as_deref().unwrap().contains("%w"));
    let missing = by(&records, "missing sku parameter");
    assert_eq!(missing.http_status, Some(400));
    assert!(missing
        .documentation
        .as_deref()
        .unwrap()
        .contains("HTTP handler"));
    let empty = by(&records, "listen address must not be empty");
    let validation = empty.validation_code.as_deref().unwrap();
    assert!(
        validation.contains("Before calling run") && validation.contains("\nif addr == \"\" {"),
        "{validation}"
    );
    assert_eq!(
        by(&records, "stop requested").severity,
        Severity::Info,
        "declared sentinel for a clean stop"
    );
    let related: Vec<&str> = by(&records, "reserve %s: %w")
        .related_errors
        .iter()
        .map(|r| r.error_message.as_str())
        .collect();
    assert!(
        related.contains(&"invalid quantity %d"),
        "same function: {related:?}"
    );

    let analyses: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            serde_json::json!({
                "messagePattern": r.message_pattern,
                "severity": r.severity,
                "documentation": r.documentation,
                "triggerScenarios": r.trigger_scenarios,
                "commonSituations": r.common_situations,
                "solutions": r.solutions,
                "exampleFix": r.example_fix,
                "handlingStrategy": r.handling_strategy,
                "validationCode": r.validation_code,
                "typeGuard": r.type_guard,
                "tryCatchPattern": r.try_catch_pattern,
                "preventionTips": r.prevention_tips,
                "tags": r.tags,
                "backgroundTag": r.background_tag,
                "relatedErrors": r.related_errors.iter().map(|x| &x.error_message).collect::<Vec<_>>(),
            })
        })
        .collect();
    let got = serde_json::to_string_pretty(&analyses).unwrap() + "\n";
    let golden = manifest().join("tests/golden/shop.json");
    if std::env::var_os("ERRDEX_BLESS").is_some() {
        std::fs::write(&golden, &got).unwrap();
    }
    let want = std::fs::read_to_string(&golden).expect("golden file (ERRDEX_BLESS=1 writes it)");
    assert!(
        got == want,
        "analysis differs from {}; run with ERRDEX_BLESS=1 after reading the diff",
        golden.display()
    );
}

/// Every code field of every etcd record parses as Go.
#[test]
fn etcd_code_fields_parse() {
    let root = Path::new("/usr/share/gocode/src/go.etcd.io/etcd");
    if !root.is_dir() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!(
                "{} is missing: run ../shared/bench/corpora.sh go",
                root.display()
            );
        }
        eprintln!(
            "skipped: {} is absent (../shared/bench/corpora.sh go installs it)",
            root.display()
        );
        return;
    }
    let mut o = Options::new(root, errdex_testkit::TIMESTAMP);
    o.repo = Some("etcd-io/etcd".into());
    let mut records = index(&o, &NoProgress).expect("index runs").dataset.records;
    analyze_all(&mut records);
    let mut fields = 0;
    for r in &records {
        assert_complete(r);
        fields += code_fields(r).len();
    }
    assert!(records.len() > 1500, "{} records", records.len());
    eprintln!("{} records, {fields} code fields, all parse", records.len());
}

/// Every language's fixtures, indexed and analysed: every record gets the
/// prose fields, and every code field parses in the record's own language
/// (Python's `try`/`except`, Java's `catch`, Rust's `if let Err`…).
#[test]
fn every_language_gets_analysed_and_its_code_parses() {
    let fixtures = manifest().join("../lang/tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut languages = std::collections::BTreeMap::new();
    for dir in dirs {
        let records = analysed(&dir, "acme/fixture");
        for r in &records {
            let id = format!("{} {:?}", r.language.as_str(), r.message_pattern);
            for (k, v) in [
                ("documentation", &r.documentation),
                ("triggerScenarios", &r.trigger_scenarios),
                ("handlingStrategy", &r.handling_strategy),
                ("backgroundTag", &r.background_tag),
            ] {
                assert!(
                    v.as_deref().is_some_and(|v| !v.is_empty()),
                    "{id}: {k} empty"
                );
            }
            assert!(!r.solutions.is_empty(), "{id}");
            let grammar = errdex_lang::language(r.language).grammar();
            for (k, code) in code_fields(r) {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&grammar).unwrap();
                let tree = p.parse(format!("{}\n", code.trim_end()), None).unwrap();
                assert!(
                    !tree.root_node().has_error(),
                    "{id}: {k} does not parse:\n{code}"
                );
                *languages.entry(r.language.as_str()).or_insert(0) += 1;
            }
        }
    }
    // Every language with exceptions gets code in its own syntax.
    for lang in [
        "python",
        "javascript",
        "typescript",
        "java",
        "kotlin",
        "scala",
        "csharp",
        "ruby",
        "php",
        "cpp",
        "rust",
    ] {
        assert!(
            languages.get(lang).is_some_and(|n| *n > 0),
            "no code fields for {lang}: {languages:?}"
        );
    }
}

/// The real kops files behind both seed pages (`../shared/fixtures/kops`,
/// read from there): each static record names the cause its seed page
/// names, from the code.
#[test]
fn the_seed_records_name_the_causes_their_pages_name() {
    let kops = manifest().join("../../../shared/fixtures/kops");
    if !kops.join("channels/pkg/cmd/readiness.go").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} is missing",
            kops.display()
        );
        eprintln!("NOTICE: skipping: {} is missing", kops.display());
        return;
    }
    let records = analysed(&kops, "kubernetes/kops");

    // The readiness port cannot be bound: another process holds it.
    let probe = by(&records, "serving readiness probe: %w");
    let listen = probe
        .causes
        .iter()
        .find(|c| c.knowledge.as_deref() == Some("errno/EADDRINUSE"))
        .expect("net.Listen's address-in-use is a cause");
    assert_eq!(listen.values, ["addr = 127.0.0.1:3986"]);
    assert_eq!(
        listen.path,
        ["serveReadiness", "serveReadinessOnAddr", "net.Listen"]
    );
    assert!(probe
        .causes
        .iter()
        .any(|c| c.message_pattern == "listening on %s: %w"
            && c.file_path == "channels/pkg/cmd/readiness.go"));
    let doc = probe.documentation.as_deref().unwrap();
    for part in [
        "`net.Listen` on 127.0.0.1:3986",
        "`address already in use`",
        "another process",
    ] {
        assert!(doc.contains(part), "{part:?} not in {doc}");
    }
    assert!(
        probe.solutions[0].contains("ss -ltnp 'sport = :3986'"),
        "{:?}",
        probe.solutions
    );
    assert!(probe
        .solutions
        .last()
        .unwrap()
        .starts_with("Read the code at"));

    // A cooperative shutdown, not a fault.
    let stop = by(&records, "stop requested");
    let doc = stop.documentation.as_deref().unwrap();
    assert!(doc.contains("`c.StopRequested()` holds"), "{doc}");
    assert!(doc.contains("stopping on purpose"), "{doc}");
    assert_eq!(stop.background_tag.as_deref(), Some("graceful-shutdown"));
}

/// A message that states its own remedy gives it as a solution, tied to
/// the value the code checks; an invariant worded with `must` does not.
#[test]
fn what_a_message_asks_for_is_a_solution() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let solutions = |p: &str| by(&records, p).solutions.clone();
    let inflight = solutions("max inflight messages must be greater than 0");
    assert_eq!(
        inflight[0],
        "Meet what the message asks for: max inflight messages must be greater than 0. \
         Set `Config.MaxInflightMsgs` accordingly (`Config.validate` checks `c.MaxInflightMsgs <= 0`)."
    );
    assert!(
        !inflight.iter().any(|s| s.starts_with("Find out why")),
        "{inflight:?}"
    );
    // Its only caller panics with it: no handling code catches it.
    let record = by(&records, "max inflight messages must be greater than 0");
    let doc = record.documentation.as_deref().unwrap();
    assert!(
        doc.contains("Its callers stop the program with it (`panic(err.Error())` at config.go:41)"),
        "{doc}"
    );
    assert_eq!(record.try_catch_pattern, None);
    assert_eq!(record.handling_strategy.as_deref(), Some("validation"));
    let flag = solutions("--heartbeat-interval must be >0 (set to %dms)");
    assert!(
        flag[0].starts_with(
            "Give `--heartbeat-interval` a value that meets what the message asks for"
        ),
        "{flag:?}"
    );
    let invariant = solutions("revision from follower must be less than or equal to leader's");
    assert!(
        !invariant.iter().any(|s| s.contains("asks for")),
        "{invariant:?}"
    );
    let salt = solutions("Salt length must be at least 1.");
    assert_eq!(
        salt[0],
        "Meet what the message asks for: salt length must be at least 1. \
         Pass `length` accordingly (`gen_salt` checks `length <= 0`)."
    );
    // The value the guard reads is a local computed from a parameter:
    // the caller gives that parameter.
    let status = solutions("Status code must be three digits.");
    assert_eq!(
        status[0],
        "Meet what the message asks for: status code must be three digits. \
         Pass `status` accordingly (`check_status` checks `len(code_str) != 3` on `code_str`, \
         which it computes from it: `code_str = status.split(None, 1)[0]`)."
    );
    let peer = solutions("peer %q is not a pair");
    assert!(
        peer.iter().any(|s| {
            s.ends_with(
            "`parts` is set from the parameter `spec` by `parts := strings.SplitN(spec, \"=\", 2)`."
        )
        }),
        "{peer:?}"
    );
    // A raise is said to be raised, not returned.
    let raised = by(&records, "no package path given");
    let doc = raised.documentation.as_deref().unwrap();
    assert!(
        doc.contains("`package_paths` raises it before the loop that follows starts"),
        "{doc}"
    );
    // A warning that is only logged leaves no error for callers to handle.
    let logged = by(&records, "ignored file in the log directory");
    assert_eq!(logged.error_type, errdex_model::ErrorType::Log);
    assert!(
        !logged
            .prevention_tips
            .iter()
            .any(|t| t.contains("Handle the error")),
        "{:?}",
        logged.prevention_tips
    );
    // A warning the program exits after leaves nothing to handle.
    let last = by(&records, "member has previously registered");
    let doc = last.documentation.as_deref().unwrap();
    assert!(
        doc.contains("After it the program exits (`os.Exit(1)`): it does not go on."),
        "{doc}"
    );
    assert_eq!(last.handling_strategy.as_deref(), Some("validation"));
    assert_eq!(
        last.prevention_tips,
        ["The program exits after this message (`os.Exit(1)`): prevent it by removing the condition it reports."]
    );
    // A parse error says nothing of files unless it names data in a
    // format: a rule string written in code gets no file advice.
    let rule = by(&records, "malformed rule: %v");
    let advice = |r: &Record| {
        [r.solutions.clone(), r.prevention_tips.clone()]
            .concat()
            .join(" ")
    };
    assert!(!advice(rule).contains("jq"), "{}", advice(rule));
    assert!(
        !advice(rule).contains("Version data formats"),
        "{}",
        advice(rule)
    );
    let settings = by(&records, "malformed JSON settings");
    assert!(advice(settings).contains("`jq .`"), "{}", advice(settings));
    // An earlier `if` of the guard's block that leaves first rules its
    // case out.
    let detect = by(&records, "failed to detect settings");
    let doc = detect.documentation.as_deref().unwrap();
    assert!(
        doc.contains("except when `errors.Is(err, errMissing)`, where it leaves first"),
        "{doc}"
    );
    let when = detect.trigger_scenarios.as_deref().unwrap();
    assert!(when.contains("not `errors.Is(err, errMissing)`"), "{when}");
    let cert = solutions("Using ad-hoc certificates requires the cryptography library.");
    assert_eq!(
        cert[0],
        "Install `cryptography` (`pip install cryptography`): the code raises this when importing it fails."
    );
    // A property's setter is assigned, not called.
    let setter = by(&records, "base url must not contain a query string");
    assert!(setter.sites[0].facts.setter);
    let handling = setter.try_catch_pattern.as_deref().unwrap();
    assert!(
        handling.contains("builder.base_url = ...") && !handling.contains("base_url("),
        "{handling}"
    );
    let old =
        solutions("'OldDict' is deprecated and will be removed in 3.2. Use 'NewDict' instead.");
    assert_eq!(
        old[0],
        "Replace `OldDict` with `NewDict` where your code uses it, as the message says."
    );
}

/// A declared sentinel is explained by the functions that return it and
/// the conditions they return it under.
#[test]
fn a_sentinel_names_where_it_is_returned() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let missing = by(&records, "keys: missing key data");
    assert_eq!(
        missing.sites[0].facts.returned_at,
        [
            "options.go:12 options.hmacKey when len(opts.PrivateKey) == 0",
            // The block's test, past the logging above the return.
            "options.go:51 options.rsaKey when len(opts.PrivateKey) == 0"
        ]
    );
    let doc = missing.documentation.as_deref().unwrap();
    assert!(
        doc.contains("It is returned by `options.hmacKey` (options.go:12) and `options.rsaKey` (options.go:51)."),
        "{doc}"
    );
    let trigger = missing.trigger_scenarios.as_deref().unwrap();
    assert!(
        trigger.starts_with(
            "This error is produced when `options.hmacKey` returns it because `len(opts.PrivateKey) == 0` holds (options.go:12); or when `options.rsaKey` returns it because `len(opts.PrivateKey) == 0` holds (options.go:51)."
        ),
        "{trigger}"
    );
    assert_eq!(
        missing.solutions[0],
        "Set `opts.PrivateKey`: the code needs a value there and has none. \
         (`options.hmacKey` returns this error when `len(opts.PrivateKey) == 0` holds, at options.go:12.)"
    );
    // The second function's test asks for the same action: one step.
    let set_key = missing
        .solutions
        .iter()
        .filter(|s| s.starts_with("Set `opts.PrivateKey`"));
    assert_eq!(set_key.count(), 1, "{:?}", missing.solutions);
    let old = by(&records, "keys: incompatible version");
    let trigger = old.trigger_scenarios.as_deref().unwrap();
    assert!(
        trigger.contains("when `checkVersion` returns it because the value switched on is `\"1\", \"2\"` (options.go:20)"),
        "{trigger}"
    );
}

/// A message that wraps the error of a function that never fails says
/// so, and offers no handling code for it.
#[test]
fn an_error_of_a_call_that_never_fails_cannot_happen() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let dialer = by(&records, "failed to configure dialer: %v");
    assert_eq!(
        dialer.sites[0].facts.wrapped_never_fails.as_deref(),
        Some("options.go:30 client.dialOpts")
    );
    let doc = dialer.documentation.as_deref().unwrap();
    assert!(
        doc.contains("`c.dialOpts` never returns an error in this version"),
        "{doc}"
    );
    assert!(
        dialer.solutions[0].starts_with("Nothing to do at run time"),
        "{:?}",
        dialer.solutions
    );
    assert_eq!(dialer.try_catch_pattern, None);
    assert_eq!(dialer.example_fix, None);
    assert_eq!(dialer.handling_strategy.as_deref(), Some("validation"));
    // A call that can fail keeps its handling.
    let missing = by(&records, "keys: missing key data");
    assert_eq!(missing.sites[0].facts.wrapped_never_fails, None);
}

/// A Python warning is issued to the warnings filters, not logged or
/// raised: the record says so, and how to make it an exception.
#[test]
fn a_python_warning_is_called_a_warning() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let old = by(
        &records,
        "'OldDict' is deprecated and will be removed in 3.2. Use 'NewDict' instead.",
    );
    let doc = old.documentation.as_deref().unwrap_or_default();
    assert!(
        doc.contains("issues this warning (`warnings.warn`, category `DeprecationWarning`)"),
        "{doc}"
    );
    assert!(!doc.contains("logs"), "{doc}");
    assert!(
        old.prevention_tips[0].contains("`warnings.simplefilter(\"error\", DeprecationWarning)`"),
        "{:?}",
        old.prevention_tips
    );
    assert_eq!(old.handling_strategy.as_deref(), Some("validation"));
}

/// A gRPC status sentinel: clients hold the sentinel made from it, which
/// is what the type guard tests; one no code tests gets none.
#[test]
fn a_status_sentinel_is_tested_as_the_value_clients_hold() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let missing = by(&records, "wire: key missing");
    assert_eq!(
        missing.sites[0].facts.checked_at,
        ["client/client.go:6 == (ErrClientMissing)"]
    );
    let guard = missing.type_guard.as_deref().unwrap();
    assert!(
        guard.starts_with("if errors.Is(err, wire.ErrClientMissing) {"),
        "{guard}"
    );
    assert_eq!(by(&records, "wire: other failure").type_guard, None);
}

/// The method that gives an error class its text: the class's doc, where
/// the repository creates it, and no guard to look into (a guard there
/// picks the words).
#[test]
fn a_text_method_points_at_where_its_error_is_created() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let part = by(&records, " Did you mean the suggested endpoint instead?");
    assert_eq!(
        part.sites[0].facts.class_doc.as_deref(),
        Some("Raised when no route matches the endpoint given to build.")
    );
    // The class statement of a subclass creates nothing.
    assert_eq!(part.sites[0].facts.callers, ["routes.py:21 build"]);
    let doc = part.documentation.as_deref().unwrap_or_default();
    assert!(
        doc.contains("`RouteError` is documented as: “Raised when no route matches"),
        "{doc}"
    );
    // The question the text asks comes first, then where it is created.
    assert_eq!(
        part.solutions[1],
        "This text is part of `RouteError`'s message: find out why `build` creates it (routes.py:21)."
    );
    assert!(
        !part.solutions.iter().any(|s| s.starts_with("Find out why")),
        "{:?}",
        part.solutions
    );
}

/// Handling code for an unexported Go function says it belongs in the
/// function's own package.
#[test]
fn handling_an_unexported_function_says_where_it_compiles() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let handling = by(&records, "keys: no version given")
        .try_catch_pattern
        .clone();
    let handling = handling.unwrap_or_default();
    assert!(
        handling.starts_with("// In package keys: checkVersion is not exported.\nif err := checkVersion(v); err != nil {"),
        "{handling}"
    );
}

/// A sentinel returned in place of a call's error: the step looks into
/// that call, with the errors it fails with.
#[test]
fn a_sentinel_for_a_failed_call_asks_why_the_call_fails() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let unusable = by(&records, "keys: unusable version");
    assert_eq!(
        unusable.solutions[0],
        "Find out why `parseVersion` fails: this error is returned in place of its error, \
         and it fails with `keys: version %q is empty` (open.go:12, when `v == \"\"`)."
    );
}

/// Sites of one message that wrap different calls: the step for the
/// first site's call names that call's errors only.
#[test]
fn the_failed_call_step_names_the_errors_of_that_call_only() {
    let records = analysed(&manifest().join("tests/fixtures/returns"), "acme/keys");
    let apply = by(&records, "keys: apply failed: %v");
    assert_eq!(apply.sites.len(), 2);
    let step = apply
        .solutions
        .iter()
        .find(|s| s.starts_with("Find out why `loadA` fails there"))
        .unwrap_or_else(|| panic!("{:?}", apply.solutions));
    assert!(step.contains("`keys: a is empty`"), "{step}");
    assert!(!step.contains("keys: b is empty"), "{step}");
}

/// A requirement about a hole is about the argument that fills it.
#[test]
fn a_requirement_on_a_hole_names_its_argument() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let empty = by(&records, "expected %q to be empty, got %q");
    assert_eq!(
        empty.solutions[0],
        "Meet what the message asks for: `dir` must be empty. Pass `dir` accordingly \
         (`CreateDirAll` checks `len(ns) != 0` on `ns`, which it computes from it: `ns, err := ReadDir(dir)`)."
    );
}

/// A message after which the loop goes on to its next item reports an
/// item left out: the record says the run goes on without it, and how to
/// stop the message.
#[test]
fn a_message_before_the_loops_continue_leaves_an_item_out() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    for (pattern, over) in [
        ("ignored file in the log directory", "`names`"),
        ("skipping %s: not a plugin file", "`paths`"),
    ] {
        let r = by(&records, pattern);
        let doc = r.documentation.as_deref().unwrap_or_default();
        assert!(
            doc.contains(&format!("the loop goes on to the next item of {over}"))
                && doc.contains("leaves this one out and does not stop"),
            "{doc}"
        );
        assert!(
            r.solutions[0].starts_with("The run goes on")
                && r.solutions[0].contains(&format!("take it out of {over}")),
            "{:?}",
            r.solutions
        );
    }
    // A flag that only picks whether to log is no input to validate.
    let quiet = by(&records, "could not fetch a URL");
    assert!(quiet.solutions[0].starts_with("The run goes on"));
    assert_eq!(quiet.validation_code, None);
    // A structured log line carries the failed call's error as a field.
    let open = by(&records, "failed to open a member");
    assert_eq!(
        open.solutions[1],
        "Find out why `member.Open` fails there: the log line's `error` field carries the error it returned, which says why."
    );
    // An error kept for later, a retry loop and a fatal log skip no item.
    for pattern in [
        "fetching %s failed: %w",
        "ping failed, trying again",
        "an empty URL cannot be fetched",
    ] {
        let r = by(&records, pattern);
        assert!(
            r.sites[0].facts.skips_item.is_some(),
            "{pattern}: a continue follows"
        );
        assert!(
            !r.solutions.iter().any(|s| s.starts_with("The run goes on")),
            "{pattern}: {:?}",
            r.solutions
        );
    }
}

/// A refusal (`… is not a package`) asks for what it refuses, of the
/// argument that fills its subject.
#[test]
fn a_refusal_asks_for_what_it_refuses() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let package = by(&records, "%v is not a package");
    assert!(
        package.solutions[0]
            .starts_with("Meet what the message asks for: `import_path` must be a package."),
        "{:?}",
        package.solutions
    );
    // The value a passed membership test reads gets one of the set.
    let choice = by(&records, "'%v' is not one of %v");
    assert_eq!(
        choice.solutions[0],
        "Give `value` one of the values in `self.items` (the message lists them): `to_url` takes no other."
    );
}
