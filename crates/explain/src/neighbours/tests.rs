//! Tests of settling ties by neighbouring lines.

use super::*;
use errdex_match::stack;

/// A candidate at `file:line` in `function`.
pub(crate) fn cand(file: &'static str, line: u32, function: &'static str) -> CandidateOut<'static> {
    CandidateOut {
        id: file,
        repo: "o/r",
        slug: "",
        message_pattern: "",
        file_path: file,
        line_number: line,
        github_url: None,
        score: 1.0,
        function: Some(function),
        hinted: false,
        exact: false,
        documentation: None,
        knowledge: None,
        first_seen: None,
        last_seen: None,
        removed_in: None,
        built_at_run_time: false,
        site: u32::MAX,
    }
}

/// `c` as site number `n`.
fn numbered(n: u32, c: CandidateOut<'static>) -> CandidateOut<'static> {
    CandidateOut { site: n, ..c }
}

fn line(verdict: Verdict, candidates: Vec<CandidateOut<'static>>) -> Explanation<'static> {
    Explanation {
        input: String::new(),
        prefix: String::new(),
        verdict,
        frames: vec![FrameOut {
            text: String::new(),
            start: 0,
            end: 0,
            candidate_count: candidates.len(),
            candidates,
        }],
        unmatched: Vec::new(),
        stack: None,
    }
}

/// A line no template explains: no frames.
fn untraced() -> Explanation<'static> {
    let mut e = line(Verdict::Unknown, vec![]);
    e.frames.clear();
    e
}

fn no_guards(_: u32) -> &'static str {
    ""
}

/// Settles with the sites' values and fields, one a line, by site.
fn settle_with(
    e: &mut [Explanation],
    args: &dyn Fn(u32) -> &'static str,
    fields: &dyn Fn(u32) -> &'static str,
) {
    let notes = SiteNotes {
        guards: &no_guards,
        args,
        fields,
    };
    settle_ties_with(e, &[], &notes);
}

fn top<'a>(e: &Explanation<'a>) -> (&'a str, u32) {
    let c = &e.frames[0].candidates[0];
    (c.file_path, c.line_number)
}

/// A printer's hint line, then its `Error: %s` that two functions of
/// the same file print.
fn usage_then_error(hint_line: u32) -> Vec<Explanation<'static>> {
    vec![
        line(
            Verdict::Traced,
            vec![cand("exc.py", hint_line, "UsageError.show")],
        ),
        line(
            Verdict::Ambiguous,
            vec![
                cand("exc.py", 44, "Exception.show"),
                cand("exc.py", 80, "UsageError.show"),
            ],
        ),
    ]
}

#[test]
fn the_tied_site_the_line_names_wins() {
    let mut e = vec![line(
        Verdict::Ambiguous,
        vec![
            cand(
                "src/http/ngx_http_headers_filter_module.c",
                523,
                "ngx_http_headers_expires",
            ),
            cand("src/core/nginx.c", 1522, "ngx_set_worker_processes"),
        ],
    )];
    e[0].input = "nginx: [emerg] \"worker_processes\" directive invalid value in /x.conf:1".into();
    settle_ties(&mut e, &[], &no_guards);
    assert_eq!(top(&e[0]), ("src/core/nginx.c", 1522));
    assert_eq!(e[0].verdict, Verdict::Traced);
    // Words that name both, or neither, settle nothing.
    let mut e = vec![line(
        Verdict::Ambiguous,
        vec![
            cand("a/store.go", 10, "Store.Get"),
            cand("a/store.go", 20, "Store.Put"),
        ],
    )];
    e[0].input = "store: value missing".into();
    settle_ties(&mut e, &[], &no_guards);
    assert_eq!(e[0].verdict, Verdict::Ambiguous);
    // Nor do words that name one of two sites of the same file.
    let mut e = vec![line(
        Verdict::Ambiguous,
        vec![
            cand("Psr7/Utils.php", 357, "{closure}"),
            cand("Psr7/Utils.php", 371, "Utils.tryFopen"),
        ],
    )];
    e[0].input = "Unable to open x: fopen(x): Failed to open stream".into();
    settle_ties(&mut e, &[], &no_guards);
    assert_eq!(e[0].verdict, Verdict::Ambiguous);
}

#[test]
fn the_tied_site_in_the_neighbours_function_wins() {
    let mut lines = usage_then_error(74);
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 80));
    assert_eq!(lines[1].verdict, Verdict::Traced);
    // Settled once, it stays settled.
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 80));
    assert_eq!(lines[1].verdict, Verdict::Traced);
}

#[test]
fn without_a_neighbour_in_the_file_the_tie_stays() {
    let mut lines = usage_then_error(74);
    lines[0].frames[0].candidates[0].file_path = "other.py";
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 44));
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

#[test]
fn equally_near_sites_stay_tied() {
    let mut lines = usage_then_error(62);
    lines[0].frames[0].candidates[0].function = None;
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

/// The site the tied error line takes when `between` stands between
/// it and its hint line (at 74, in the tied function at 80).
fn settled_across(between: impl Fn(usize) -> Explanation<'static>, count: usize) -> (String, u32) {
    let mut lines = usage_then_error(74);
    lines.splice(1..1, (0..count).map(between));
    settle_ties(&mut lines, &[], &no_guards);
    let (file, line) = top(lines.last().unwrap());
    (file.to_string(), line)
}

#[test]
fn lines_out_of_reach_do_not_count() {
    let traced = |n: usize| line(Verdict::Traced, vec![cand("other.py", n as u32, "f")]);
    assert_eq!(settled_across(traced, REACH), ("exc.py".into(), 44));
}

#[test]
fn lines_that_traced_to_nothing_do_not_separate_neighbours() {
    // A usage block between an error and its `For more information`
    // hint: the hint's neighbour is the error, nine lines up.
    let usage = |_| untraced();
    assert_eq!(settled_across(usage, 9), ("exc.py".into(), 80));
    // ... up to FARTHEST lines away.
    assert_eq!(settled_across(usage, FARTHEST), ("exc.py".into(), 44));
}

#[test]
fn a_stack_trace_is_one_neighbour_however_long() {
    let frame = |_| Explanation {
        stack: Some("frame"),
        ..untraced()
    };
    // One trace of many lines between the hint and the error: the
    // hint is the next neighbour beyond it.
    assert_eq!(settled_across(frame, 3 * FARTHEST), ("exc.py".into(), 80));
    // Traces apart are a neighbour each: they end one error's report.
    let traces = |n: usize| match n % 2 {
        0 => frame(n),
        _ => untraced(),
    };
    assert_eq!(settled_across(traces, 2 * REACH), ("exc.py".into(), 44));
}

#[test]
fn an_echo_without_the_log_header_is_the_next_statement() {
    // `LOG.error(msg)` then `System.err.println(msg)`: the logged line
    // has a header and traced to the log call; the printed one has
    // none, and the statement after the log call printed it.
    let (text, main) = ("Invalid config", "PeerMain.initialize");
    let logged = |prefix: &str| {
        let mut e = line(Verdict::Traced, vec![cand("PeerMain.java", 99, main)]);
        e.frames[0].text = text.into();
        e.prefix = prefix.into();
        e
    };
    let printed = || {
        let mut e = line(
            Verdict::Ambiguous,
            vec![
                cand("PeerMain.java", 99, main),
                cand("PeerMain.java", 100, main),
                cand("ServerMain.java", 77, "ServerMain.initialize"),
            ],
        );
        e.frames[0].text = text.into();
        e
    };
    let mut lines = vec![logged("2026-12-02 08:01:29 - ERROR - "), printed()];
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("PeerMain.java", 100));
    // Decorated alike, the echo tells nothing.
    let mut lines = vec![logged(""), printed()];
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

#[test]
fn frames_of_a_trace_beside_a_line_settle_its_tie_by_their_files() {
    // `Invalid config` printed by two mains; the trace printed before
    // it names one of their files (by the end of its path, as a JVM
    // frame does).
    let tied = || {
        line(
            Verdict::Ambiguous,
            vec![
                cand("server/ServerMain.java", 77, "ServerMain.initialize"),
                cand("server/quorum/PeerMain.java", 100, "PeerMain.initialize"),
            ],
        )
    };
    let frame = Explanation {
        stack: Some("frame"),
        ..untraced()
    };
    let at = |file: &str, line: u32| StackLine {
        hints: errdex_match::Hints {
            files: vec![file.into()],
            line: Some(line),
            ..errdex_match::Hints::default()
        },
        ..stack::read(&["\tat a.B.c(B.java:1)"])[0].clone()
    };
    let message = stack::read(&["Invalid config"])[0].clone();
    let settle = |file: &str| {
        let mut lines = vec![frame.clone(), frame.clone(), tied()];
        let read = [at("a/Other.java", 9), at(file, 91), message.clone()];
        settle_ties(&mut lines, &read, &no_guards);
        (lines[2].verdict, top(&lines[2]).0)
    };
    assert_eq!(
        settle("quorum/PeerMain.java"),
        (Verdict::Traced, "server/quorum/PeerMain.java")
    );
    // A path's end, not any end of its name.
    assert_eq!(settle("erMain.java").0, Verdict::Ambiguous);
}

#[test]
fn other_words_from_a_tied_site_settle_the_tie() {
    // One statement prints an error of two lines (`"{} isn't valid\n
    // For more information try {}"`); other statements print the
    // second line too. The first line's site is the second's.
    let mut lines = usage_then_error(80);
    lines[0].frames[0].text = "'x' isn't a valid value".into();
    lines[1].frames[0].text = "For more information try --help".into();
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 80));
    assert_eq!(lines[1].verdict, Verdict::Traced);
}

/// A `regex parse error:` heading and its `error: %s` line, each
/// printed by both branches of one `if`: site numbers 0 and 2 under
/// `multi`, 1 and 3 under `not (multi)`.
fn two_branch_block() -> Vec<Explanation<'static>> {
    let site = |line: u32, site: u32| CandidateOut {
        site,
        ..cand("error.rs", line, "Formatter.fmt")
    };
    let heading = || line(Verdict::Ambiguous, vec![site(110, 0), site(132, 1)]);
    let error = || line(Verdict::Ambiguous, vec![site(130, 2), site(135, 3)]);
    let pattern = || untraced();
    vec![heading(), pattern(), error(), heading(), pattern(), error()]
}

fn branch_guards(site: u32) -> &'static str {
    ["multi", "not (multi)", "multi", "not (multi)"]
        .get(site as usize)
        .copied()
        .unwrap_or_default()
}

#[test]
fn tied_lines_settle_each_other_by_their_nearest_sites_in_order() {
    let mut lines = two_branch_block();
    settle_ties(&mut lines, &[], &branch_guards);
    let tops: Vec<u32> = [0, 2, 3, 5].map(|i| top(&lines[i]).1).to_vec();
    assert_eq!(tops, [132, 135, 132, 135]);
    assert!([0, 2, 3, 5]
        .iter()
        .all(|&i| lines[i].verdict == Verdict::Traced));
}

#[test]
fn sites_in_the_two_branches_of_an_if_are_no_pair() {
    // `error: %s` at 130 and the next heading at 132 are two lines
    // apart, but 130 runs only when 132 does not.
    let mut lines = two_branch_block();
    lines.drain(..3);
    settle_ties(&mut lines, &[], &branch_guards);
    assert_eq!(top(&lines[0]), ("error.rs", 132));
    // Without the guards, that pair would be the nearest.
    let mut lines = two_branch_block();
    lines.drain(..2);
    lines.truncate(2);
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!((top(&lines[0]).1, top(&lines[1]).1), (130, 132));
    let mut lines = two_branch_block();
    lines.drain(..2);
    lines.truncate(2);
    settle_ties(&mut lines, &[], &branch_guards);
    assert_eq!(lines[0].verdict, Verdict::Ambiguous);
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

#[test]
fn guards_contradict_only_as_a_condition_and_its_negation() {
    assert!(contradict("err != nil\nmulti", "not (multi)"));
    assert!(contradict("!(c.Stop())", "c.Stop()"));
    assert!(!contradict("multi", "multi"));
    assert!(!contradict("not (a)", "b"));
    assert!(!contradict("", ""));
}

#[test]
fn a_neighbour_printed_by_a_tied_site_settles_nothing() {
    // `LOG.error("Invalid config")` then `System.err.println("Invalid
    // config")`: the log line's own site is one of the print's ties.
    let mut lines = usage_then_error(80);
    lines[0].frames[0].candidates[0].function = Some("Exception.show");
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 44));
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

#[test]
fn a_tied_neighbour_settles_nothing() {
    let mut lines = usage_then_error(74);
    lines[0] = line(
        Verdict::Ambiguous,
        vec![cand("exc.py", 74, "A.b"), cand("exc.py", 75, "C.d")],
    );
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[1]), ("exc.py", 44));
    assert_eq!(lines[1].verdict, Verdict::Ambiguous);
}

#[test]
fn the_tied_wrapper_whose_guard_calls_the_inner_layers_function_wins() {
    // `WARNING %s` at three sites; the one inside `if
    // (checkOvercommit(&err_msg) < 0)` printed the text `checkOvercommit`
    // keeps in `err_msg`.
    let with_site = |mut c: CandidateOut<'static>, site: u32| {
        c.site = site;
        c
    };
    let mut e = line(
        Verdict::Ambiguous,
        vec![
            with_site(cand("server.c", 7105, "main"), 0),
            with_site(cand("server.c", 6134, "linuxMemoryWarnings"), 1),
            with_site(cand("server.c", 6150, "linuxMemoryWarnings"), 2),
        ],
    );
    e.frames.push(FrameOut {
        text: String::new(),
        start: 0,
        end: 0,
        candidate_count: 1,
        candidates: vec![cand("syscheck.c", 154, "checkOvercommit")],
    });
    let guards = |site: u32| match site {
        0 => "checkXenClocksource(&err_msg) < 0",
        1 => "checkOvercommit(&err_msg) < 0",
        _ => "checkOvercommitLater(&err_msg) < 0",
    };
    let mut lines = vec![e];
    settle_ties(&mut lines, &[], &guards);
    assert_eq!(top(&lines[0]), ("server.c", 6134));
    assert_eq!(lines[0].verdict, Verdict::Traced);
    // No guard names it: the tie stands.
    let mut untied = vec![line(
        Verdict::Ambiguous,
        vec![cand("server.c", 7105, "main"), cand("server.c", 6134, "f")],
    )];
    untied[0].frames.push(FrameOut {
        text: String::new(),
        start: 0,
        end: 0,
        candidate_count: 1,
        candidates: vec![cand("syscheck.c", 154, "checkOvercommit")],
    });
    settle_ties(&mut untied, &[], &no_guards);
    assert_eq!(untied[0].verdict, Verdict::Ambiguous);
}

#[test]
fn tied_wrappers_whose_guards_call_the_inner_layers_function_lead_and_stay_tied() {
    // `%s in pool %q` at four sites: two parse a name and may resolve it
    // deep inside, two (one per protocol) sit under `if (resolve_host(…)
    // != 0)`; the inner `host not found` is `resolve_host`'s.
    let tied = |sites: &[(&'static str, u32, &'static str)]| {
        let candidates = (sites.iter().enumerate())
            .map(|(n, &(file, line, function))| numbered(n as u32, cand(file, line, function)))
            .collect();
        let mut e = line(Verdict::Ambiguous, candidates);
        e.frames.push(FrameOut {
            text: String::new(),
            start: 0,
            end: 0,
            candidate_count: 2,
            candidates: vec![
                cand("inet.c", 30, "resolve_host"),
                cand("inet.c", 52, "resolve_host"),
            ],
        });
        vec![e]
    };
    let sites = [
        ("http/pool.c", 80, "pool_server"),
        ("tcp/pool.c", 90, "pool_server"),
        ("http/pool_rr.c", 205, "pool_init"),
        ("tcp/pool_rr.c", 211, "pool_init"),
    ];
    let guards = |site: u32| match site {
        0 | 1 => "(parse_url(pool, &u) != 0)",
        _ => "(resolve_host(pool, &u) != 0)",
    };
    let mut lines = tied(&sites);
    settle_ties(&mut lines, &[], &guards);
    let order: Vec<u32> = lines[0].frames[0]
        .candidates
        .iter()
        .map(|c| c.line_number)
        .collect();
    assert_eq!(order, [205, 211, 80, 90]);
    assert_eq!(lines[0].verdict, Verdict::Ambiguous);
    // Every tied site's guards call it: nothing to narrow, the order stays.
    let mut lines = tied(&sites);
    settle_ties(&mut lines, &[], &|_| "(resolve_host(pool, &u) != 0)");
    let order: Vec<u32> = lines[0].frames[0]
        .candidates
        .iter()
        .map(|c| c.line_number)
        .collect();
    assert_eq!(order, [80, 90, 205, 211]);
    // A word that only contains the function's name is no call of it.
    let mut lines = tied(&sites);
    settle_ties(&mut lines, &[], &|site| {
        if site > 1 {
            "(resolve_hosts(pool) != 0)"
        } else {
            ""
        }
    });
    assert_eq!(top(&lines[0]), ("http/pool.c", 80));
}

/// `curl: (%d) %s` at two sites; the inner layer was built in the
/// function of one of them (`msnprintf(text, …)` then `fprintf(error, …,
/// t)`), so that one printed it.
#[test]
fn the_tied_site_in_the_inner_layers_function_wins() {
    let with_inner = |inner: CandidateOut<'static>| {
        let mut e = line(
            Verdict::Ambiguous,
            vec![
                cand("src/tool_operate.c", 407, "post_per_transfer"),
                cand("src/tool_urlglob.c", 484, "glob_url"),
            ],
        );
        e.frames.push(FrameOut {
            text: String::new(),
            start: 0,
            end: 0,
            candidate_count: 1,
            candidates: vec![inner],
        });
        vec![e]
    };
    let mut lines = with_inner(cand("src/tool_urlglob.c", 475, "glob_url"));
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(top(&lines[0]), ("src/tool_urlglob.c", 484));
    assert_eq!(lines[0].verdict, Verdict::Traced);
    // The same file, another function: the tie stands.
    let mut lines = with_inner(cand("src/tool_urlglob.c", 319, "glob_range"));
    settle_ties(&mut lines, &[], &no_guards);
    assert_eq!(lines[0].verdict, Verdict::Ambiguous);
}

/// `curl: (37) Couldn't open file /x`: `curl: (%d) %s` at two sites over
/// a layer from another file; the site that prints `msg` (or
/// `curl_easy_strerror(result)`) printed it, not the one that prints `t`.
#[test]
fn the_tied_site_that_prints_an_errors_text_wins() {
    let mut outer = line(
        Verdict::Ambiguous,
        vec![
            numbered(1, cand("src/tool_urlglob.c", 484, "glob_url")),
            numbered(2, cand("src/tool_operate.c", 407, "post_per_transfer")),
        ],
    );
    let mut inner = outer.frames[0].clone();
    inner.candidate_count = 1;
    inner.candidates = vec![cand("lib/file.c", 244, "file_connect")];
    outer.frames.push(inner);
    let values = |site: u32| match site {
        1 => "res\nt",
        2 => "result\n(msg && msg[0]) ? msg : curl_easy_strerror(result)",
        _ => "",
    };
    let mut lines = vec![outer.clone()];
    settle_with(&mut lines, &values, &no_guards);
    assert_eq!(top(&lines[0]), ("src/tool_operate.c", 407));
    assert_eq!(lines[0].verdict, Verdict::Traced);
    // Both name error text, or the frame has no inner layer: it stays tied.
    let both = |site: u32| if site == 1 { "code\ne" } else { "code\nerrmsg" };
    let mut lines = vec![outer.clone()];
    settle_with(&mut lines, &both, &no_guards);
    assert_eq!(lines[0].verdict, Verdict::Ambiguous);
    outer.frames.truncate(1);
    let mut lines = vec![outer];
    settle_with(&mut lines, &values, &no_guards);
    assert_eq!(lines[0].verdict, Verdict::Ambiguous);
}

/// `container "x": not found` over a `not found` that two packages
/// declare: the wrapping site prints `errdefs.ErrNotFound` by name.
#[test]
fn the_tied_site_the_outer_layer_names_wins() {
    let wrapped = |inner: Vec<CandidateOut<'static>>| {
        let mut e = line(
            Verdict::Ambiguous,
            vec![numbered(
                7,
                cand("metadata/containers.go", 60, "containerStore.Get"),
            )],
        );
        let mut f = e.frames[0].clone();
        f.candidate_count = inner.len();
        f.candidates = inner;
        e.frames.push(f);
        vec![e]
    };
    let sentinels = || {
        vec![
            cand("cni/errors.go", 26, ""),
            cand("errdefs/errors.go", 44, ""),
        ]
    };
    let names = |site: u32| {
        if site == 7 {
            "id\nerrdefs.ErrNotFound"
        } else {
            ""
        }
    };
    let mut e = wrapped(sentinels());
    settle_with(&mut e, &names, &no_guards);
    let inner = &e[0].frames[1].candidates[0];
    assert_eq!(inner.file_path, "errdefs/errors.go");
    assert_eq!(e[0].verdict, Verdict::Traced);
    // A bare name is the outer site's own package.
    let local = |site: u32| if site == 7 { "ErrNotFound" } else { "" };
    let mut e = wrapped(vec![
        cand("errdefs/errors.go", 44, ""),
        cand("metadata/errors.go", 12, ""),
    ]);
    settle_with(&mut e, &local, &no_guards);
    assert_eq!(e[0].frames[1].candidates[0].file_path, "metadata/errors.go");
    // A name no tied site's package has settles nothing.
    let other = |site: u32| if site == 7 { "os.ErrNotExist" } else { "" };
    let mut e = wrapped(sentinels());
    settle_with(&mut e, &other, &no_guards);
    assert_eq!(e[0].verdict, Verdict::Ambiguous);
}

/// etcd's two zap `rejected connection` warnings: the JSON line has no
/// `ip-addresses`, so the call that does not set it printed it.
#[test]
fn the_tied_site_whose_fields_the_line_has_wins() {
    let both = || {
        vec![
            numbered(1, cand("embed/config_logging.go", 278, "f")),
            numbered(2, cand("embed/config_logging.go", 287, "f")),
        ]
    };
    let fields = |site: u32| match site {
        1 => "remote-addr\nip-addresses\nerror",
        2 => "remote-addr\nerror",
        _ => "",
    };
    let mut e = vec![line(Verdict::Ambiguous, both())];
    e[0].input =
        r#"{"level":"warn","msg":"rejected connection","remote-addr":"1.2.3.4:5","error":"x"}"#
            .into();
    settle_with(&mut e, &no_guards, &fields);
    assert_eq!(top(&e[0]), ("embed/config_logging.go", 287));
    // With every key on the line, the call that sets the most of them.
    let mut e = vec![line(Verdict::Ambiguous, both())];
    e[0].input =
        r#"{"msg":"rejected connection","remote-addr":"a","ip-addresses":[],"error":"x"}"#.into();
    settle_with(&mut e, &no_guards, &fields);
    assert_eq!(top(&e[0]), ("embed/config_logging.go", 278));
    // A line that is not structured tells nothing.
    let mut e = vec![line(Verdict::Ambiguous, both())];
    e[0].input = "W | embed: rejected connection".into();
    settle_with(&mut e, &no_guards, &fields);
    assert_eq!(e[0].verdict, Verdict::Ambiguous);
}
