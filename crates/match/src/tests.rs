//! Matcher tests: verbs, ranking, chains, honesty, and a property test that
//! formats random templates with Go's rules and traces them back.

use super::*;
use errdex_model::{Hole, HoleKind, Segment, Template};

fn hole(kind: HoleKind, verb: &str, chain: bool) -> Segment {
    Segment::Hole(Hole {
        kind,
        verb: verb.into(),
        arg: None,
        chain,
    })
}

/// A hole filled by the value `arg`, as links name it.
fn hole_of(kind: HoleKind, verb: &str, arg: &str) -> Segment {
    Segment::Hole(Hole {
        kind,
        verb: verb.into(),
        arg: Some(arg.into()),
        chain: false,
    })
}

fn lit(s: &str) -> Segment {
    Segment::Lit(s.into())
}

fn tpl(segs: Vec<Segment>) -> Template {
    Template { segments: segs }
}

fn set(templates: Vec<(Template, u32)>) -> TemplateSet {
    let mut b = TemplateSetBuilder::new();
    for (t, p) in templates {
        b.add(t, p, &format!("pkg/f{p}.go"), 1);
    }
    b.build()
}

fn payloads(f: &Frame) -> Vec<u32> {
    f.candidates.iter().map(|c| c.payload).collect()
}

/// The payloads of each frame of `text`, outermost first.
fn layers_of(s: &TemplateSet, text: &str) -> Vec<Vec<u32>> {
    s.trace(text, &Hints::default())
        .frames
        .iter()
        .map(payloads)
        .collect()
}

#[test]
fn verbs_constrain_what_matches() {
    let s = set(vec![
        (
            tpl(vec![
                lit("retry "),
                hole(HoleKind::Int, "%d", false),
                lit(" of "),
                hole(HoleKind::Int, "%d", false),
                lit(" failed"),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("retry "),
                hole(HoleKind::Any, "%s", false),
                lit(" of "),
                hole(HoleKind::Any, "%s", false),
                lit(" failed"),
            ]),
            2,
        ),
        (
            tpl(vec![
                lit("flag enabled="),
                hole(HoleKind::Bool, "%t", false),
            ]),
            3,
        ),
        (
            tpl(vec![
                lit("bad name "),
                hole(HoleKind::Quoted, "%q", false),
                lit(" given"),
            ]),
            4,
        ),
    ]);
    let t = s.trace("retry 3 of 5 failed", &Hints::default());
    // Both match; the typed one is not preferred over the other by literal
    // length, so both are candidates.
    assert_eq!(payloads(&t.frames[0]).len(), 2);
    let t = s.trace("retry three of five failed", &Hints::default());
    assert_eq!(payloads(&t.frames[0]), vec![2]);
    assert_eq!(
        s.trace("flag enabled=true", &Hints::default()).frames.len(),
        1
    );
    assert!(s
        .trace("flag enabled=maybe", &Hints::default())
        .frames
        .is_empty());
    let t = s.trace(r#"bad name "a \"b\" c" given"#, &Hints::default());
    assert_eq!(payloads(&t.frames[0]), vec![4]);
    assert!(s
        .trace("bad name unquoted given", &Hints::default())
        .frames
        .is_empty());
}

#[test]
fn most_literal_text_wins() {
    let s = set(vec![
        (tpl(vec![lit("open "), hole(HoleKind::Any, "%s", false)]), 1),
        (
            tpl(vec![
                lit("open "),
                hole(HoleKind::Any, "%s", false),
                lit(": permission denied"),
            ]),
            2,
        ),
    ]);
    let t = s.trace("open /etc/x: permission denied", &Hints::default());
    assert_eq!(payloads(&t.frames[0]), vec![2]);
    assert!(t.unmatched.is_empty());
}

#[test]
fn glue_templates_never_match_alone() {
    let s = set(vec![
        (
            tpl(vec![
                hole(HoleKind::Any, "%s", false),
                lit(": "),
                hole(HoleKind::Any, "%v", true),
            ]),
            1,
        ),
        (tpl(vec![hole(HoleKind::Any, "%v", false)]), 2),
    ]);
    let t = s.trace("anything: at all", &Hints::default());
    assert!(t.frames.is_empty());
    assert_eq!(t.unmatched, vec![(0, 16)]);
}

#[test]
fn chains_unwrap_outermost_first_with_an_unmatched_tail() {
    let s = set(vec![
        (
            tpl(vec![
                lit("serving readiness probe: "),
                hole(HoleKind::Any, "%w", true),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("starting listener on "),
                hole(HoleKind::Any, "%s", false),
                lit(": "),
                hole(HoleKind::Any, "%w", true),
            ]),
            2,
        ),
        (tpl(vec![lit("address check failed")]), 3),
    ]);
    let text = "serving readiness probe: starting listener on :3989: listen tcp 0.0.0.0:3989: bind: address already in use";
    let t = s.trace(text, &Hints::default());
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, vec![vec![1], vec![2]]);
    assert_eq!(&text[t.frames[1].start..t.frames[1].end], &text[25..]);
    assert_eq!(t.unmatched.len(), 1);
    assert_eq!(
        &text[t.unmatched[0].0..t.unmatched[0].1],
        "listen tcp 0.0.0.0:3989: bind: address already in use"
    );
}

#[test]
fn glue_splits_hand_made_concatenations() {
    let s = set(vec![
        (tpl(vec![lit("etcdserver: request timed out")]), 1),
        (tpl(vec![lit("failed to commit proposal")]), 2),
    ]);
    let t = s.trace(
        "failed to commit proposal: etcdserver: request timed out",
        &Hints::default(),
    );
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, vec![vec![2], vec![1]]);
    assert!(t.unmatched.is_empty());
}

#[test]
fn a_removed_message_is_unknown_not_a_lookalike() {
    let s = set(vec![(tpl(vec![lit("stop requested")]), 1)]);
    assert!(s
        .trace("stop requested by operator", &Hints::default())
        .frames
        .is_empty());
    assert!(s.trace("stop request", &Hints::default()).frames.is_empty());
}

#[test]
fn equal_sites_are_one_ambiguous_frame_and_hints_rank() {
    let t = tpl(vec![lit("stop requested")]);
    let mut b = TemplateSetBuilder::new();
    b.add(t.clone(), 1, "dns-controller/pkg/dns/dnscontroller.go", 265);
    b.add(t.clone(), 3, "dns-controller/pkg/dns/dnscontroller.go", 306);
    b.add(t, 2, "protokube/pkg/watch.go", 10);
    let s = b.build();
    let tr = s.trace("stop requested", &Hints::default());
    assert_eq!(tr.frames.len(), 1);
    assert_eq!(payloads(&tr.frames[0]).len(), 3);
    let hints = Hints {
        files: vec!["watch.go".into()],
        line: Some(99),
        ..Hints::default()
    };
    let tr = s.trace("stop requested", &hints);
    assert_eq!(tr.frames[0].candidates[0].payload, 2);
    assert!(tr.frames[0].candidates[0].hinted);
    assert!(!tr.frames[0].candidates[1].hinted);
    // Same file twice: the exact line ranks first.
    let hints = Hints {
        files: vec!["dns/dnscontroller.go".into()],
        line: Some(306),
        ..Hints::default()
    };
    let tr = s.trace("stop requested", &hints);
    assert_eq!(tr.frames[0].candidates[0].payload, 3);
    assert!(tr.frames[0].candidates[0].exact);
    assert!(tr.frames[0].candidates[1].hinted && !tr.frames[0].candidates[1].exact);
}

#[test]
fn unknown_prefix_is_reported_as_head() {
    let s = set(vec![(
        tpl(vec![
            lit("error verifying flags, "),
            hole(HoleKind::Any, "%v", true),
            lit(". See 'etcd --help'."),
        ]),
        1,
    )]);
    let text = "etcdmain: error verifying flags, '--bogus' is not a valid flag. See 'etcd --help'.";
    let t = s.trace(text, &Hints::default());
    assert_eq!(payloads(&t.frames[0]), vec![1]);
    assert_eq!(t.head, Some((0, 10)));
}

#[test]
fn a_message_nobody_wrote_is_not_pinned_to_a_short_template_it_ends_with() {
    let s = set(vec![
        (tpl(vec![lit("closed")]), 1),
        (tpl(vec![lit("invalid argument")]), 2),
    ]);
    let h = Hints::default();
    // The last words of an unknown message are not a message behind a
    // prefix: a plain space is not where log prefixes end.
    for text in [
        "something weird happened: file already closed",
        "the widget was closed",
        "close() closed",
    ] {
        let t = s.trace(text, &h);
        assert!(t.frames.is_empty(), "{text}: {t:?}");
        assert_eq!(t.unmatched, vec![(0, text.len())], "{text}");
    }
    // An unknown layer that reads as words is unmatched text, not a prefix,
    // so the answer is partial rather than traced.
    let text = "upstream said no: invalid argument";
    let t = s.trace(text, &h);
    assert_eq!(payloads(&t.frames[0]), vec![2]);
    assert_eq!((t.head, t.unmatched), (None, vec![(0, 18)]));
    // Prefixes end in a one-word `name: `, a bracket, a bar, `desc = `.
    for (text, head) in [
        ("worker.go:80: invalid argument", 14),
        ("[pod a] sync: invalid argument", 14),
        ("web-1  | invalid argument", 9),
        ("rpc error: code = Unknown desc = closed", 33),
    ] {
        let t = s.trace(text, &h);
        assert_eq!(t.frames.len(), 1, "{text}");
        assert_eq!((t.head, t.unmatched.len()), (Some((0, head)), 0), "{text}");
    }
}

#[test]
fn a_few_plain_words_before_a_longer_message_are_a_head() {
    let s = set(vec![
        (tpl(vec![lit("Failed to parse JSON data.")]), 1),
        (
            tpl(vec![
                lit("`"),
                hole(HoleKind::Any, "%v", false),
                lit("` is not a valid tool option"),
            ]),
            2,
        ),
        (tpl(vec![lit("closed")]), 3),
    ]);
    let h = Hints::default();
    for (text, want, head) in [
        ("tool error JSON.parse Failed to parse JSON data.", 1, 22),
        ("PAM Failed to parse JSON data.", 1, 4),
        ("tool error `x` is not a valid tool option", 2, 11),
    ] {
        let t = s.trace(text, &h);
        assert_eq!(payloads(&t.frames[0]), vec![want], "{text}");
        assert_eq!((t.head, t.unmatched.len()), (Some((0, head)), 0), "{text}");
    }
    // Five words, a head over 32 bytes, a short template: no.
    for text in [
        "one two three four five Failed to parse JSON data.",
        "averyveryverylongheadwordthatgoeson Failed to parse JSON data.",
        "the widget was closed",
    ] {
        let t = s.trace(text, &h);
        assert!(t.frames.is_empty(), "{text}: {t:?}");
    }
}

#[test]
fn a_printer_template_traces_its_head_and_the_inner_message() {
    let s = set(vec![
        (
            tpl(vec![lit("Error: "), hole(HoleKind::Any, "%v", true)]),
            1,
        ),
        (tpl(vec![lit("bad number of arguments")]), 2),
    ]);
    let t = s.trace("Error: bad number of arguments", &Hints::default());
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, [vec![1], vec![2]]);
    assert!(s.starts_a_template("Error: "));
    assert!(!s.starts_a_template("error: "));
}

#[test]
fn a_printer_template_traces_an_unknown_inner_message() {
    let s = set(vec![(
        tpl(vec![lit("Error: "), hole(HoleKind::Any, "%v", true)]),
        1,
    )]);
    let t = s.trace("Error: zzz qqq unknown thing", &Hints::default());
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, [vec![1]]);
}

#[test]
fn a_plain_hole_filled_with_a_whole_message_is_a_layer() {
    let s = set(vec![
        (
            tpl(vec![lit("Error: "), hole(HoleKind::Any, "%v", false)]),
            1,
        ),
        (
            tpl(vec![
                lit("No such option: "),
                hole(HoleKind::Any, "%s", false),
            ]),
            2,
        ),
        (
            tpl(vec![
                lit("rpc error: code = Unavailable desc = "),
                hole(HoleKind::Quoted, "%q", false),
            ]),
            3,
        ),
        (tpl(vec![lit("connection refused by peer")]), 4),
    ]);
    let layers = |text: &str| layers_of(&s, text);
    assert_eq!(layers("Error: No such option: --bogus"), [vec![1], vec![2]]);
    assert_eq!(
        layers("rpc error: code = Unavailable desc = \"connection refused by peer\""),
        [vec![3], vec![4]]
    );
    // A value no template explains whole stays a value.
    assert_eq!(layers("Error: disk quota exceeded here"), [vec![1]]);
}

/// click's `Error: {message}` printer (1) and `BadParameter`'s `Invalid
/// value for {hint}: {message}` (2).
fn click_layers() -> Vec<(Template, u32)> {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    vec![
        (tpl(vec![lit("Error: "), any("%s")]), 1),
        (
            tpl(vec![
                lit("Invalid value for "),
                any("%s"),
                lit(": "),
                any("%s"),
            ]),
            2,
        ),
    ]
}

/// click's `Path`: `{name} {filename!r} does not exist.`
fn path_missing(payload: u32) -> (Template, u32) {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    (
        tpl(vec![
            any("%s"),
            lit(" "),
            any("%r"),
            lit(" does not exist."),
        ]),
        payload,
    )
}

#[test]
fn a_leading_plain_hole_takes_no_layer_separator() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let mut templates = click_layers();
    templates.push((
        tpl(vec![
            any("%r"),
            lit(" is not a valid "),
            any("%s"),
            lit("."),
        ]),
        3,
    ));
    let s = set(templates);
    let layers = |text: &str| layers_of(&s, text);
    assert_eq!(
        layers("Error: Invalid value for '--count': 'x' is not a valid integer."),
        [vec![1], vec![2], vec![3]]
    );
    // Its value alone still matches.
    assert_eq!(layers("'x y' is not a valid integer."), [vec![3]]);
    // Holes joined by marks lead together (`{name} {path!r} does not exist.`).
    let mut templates = click_layers();
    templates.push(path_missing(5));
    let s = set(templates);
    assert_eq!(
        layers_of(
            &s,
            "Error: Invalid value for 'PATH': Path '/nope' does not exist."
        ),
        [vec![1], vec![2], vec![5]]
    );
    // And a value with a separator of its own, where nothing else explains
    // the text (serde_json's `{code} at line {line} column {column}`).
    let s = set(vec![(
        tpl(vec![
            any("%v"),
            lit(" at line "),
            hole(HoleKind::Any, "%v", false),
            lit(" column "),
            hole(HoleKind::Any, "%v", false),
        ]),
        4,
    )]);
    assert_eq!(
        layers_of(
            &s,
            "invalid type: string \"8080\", expected u32 at line 1 column 28"
        ),
        [vec![4]]
    );
}

#[test]
fn a_message_in_a_hole_counts_the_messages_in_its_own_holes() {
    let mut templates = click_layers();
    templates.push(path_missing(3));
    let s = set(templates);
    // `Invalid value for …: ` alone is a fifth of its text, but the message
    // in its last hole explains most of the rest.
    assert_eq!(
        layers_of(
            &s,
            "Error: Invalid value for 'PATH': Path '/var/lib/some/long/path/x' does not exist."
        ),
        [vec![1], vec![2], vec![3]]
    );
}

#[test]
fn a_format_handed_to_a_printer_fills_the_hole_of_its_parameter() {
    // werkzeug: `log_request` calls `self.log("info", '"%s" %s %s', …)`,
    // and `log` prints `f"{address} - - [{date}] {message}\n"`.
    let arg = |a: &str| hole_of(HoleKind::Any, "%v", a);
    let access = tpl(vec![
        arg("address"),
        lit(" - - ["),
        arg("date"),
        lit("] "),
        arg("message"),
    ]);
    let request = tpl(vec![
        lit("\""),
        arg("msg"),
        lit("\" "),
        arg("code"),
        lit(" "),
        arg("size"),
    ]);
    let build = |linked: bool| {
        let mut b = TemplateSetBuilder::new();
        b.add(access.clone(), 1, "serving.py", 482);
        b.add(request.clone(), 2, "serving.py", 471);
        if linked {
            b.link(1, "message", 2);
        }
        b.build()
    };
    let line = "127.0.0.1 - - [02/Dec/2026 07:59:30] \"GET /boom HTTP/1.1\" 500 -";
    let layers = |s: &TemplateSet| layers_of(s, line);
    assert_eq!(layers(&build(true)), [vec![1], vec![2]]);
    // Unlinked, a template of marks only is no layer.
    assert_eq!(layers(&build(false)), [vec![1]]);
    // Linked to another hole, it fills none.
    let mut b = TemplateSetBuilder::new();
    b.add(access.clone(), 1, "serving.py", 482);
    b.add(request.clone(), 2, "serving.py", 471);
    b.link(1, "address", 2);
    assert_eq!(layers(&b.build()), [vec![1]]);
    // And the link survives a round trip through the trace cache's bytes.
    let mut e = crate::codec::Encoder::new();
    build(true).encode(&mut e);
    let bytes = e.finish();
    let back = TemplateSet::decode(&mut crate::codec::Decoder::new(&bytes)).unwrap();
    assert_eq!(layers(&back), [vec![1], vec![2]]);
}

#[test]
fn a_quoted_message_inside_a_hole_counts_toward_its_wrapper() {
    // `status: %s` around `failure: reason = %q` around a message: the
    // middle template's own text is a small share of its value, but the
    // message inside its quotes is one of the atlas's, so it is a layer.
    let s = set(vec![
        (
            tpl(vec![lit("status: "), hole(HoleKind::Any, "%s", false)]),
            1,
        ),
        (
            tpl(vec![
                lit("failure: reason = "),
                hole(HoleKind::Quoted, "%q", false),
            ]),
            2,
        ),
        (
            tpl(vec![
                lit("backend: could not reach the store at "),
                hole(HoleKind::Any, "%v", true),
            ]),
            3,
        ),
    ]);
    assert_eq!(
        layers_of(
            &s,
            "status: failure: reason = \"backend: could not reach the store at tcp://10.1.2.3:5432/app-primary\""
        ),
        [vec![1], vec![2], vec![3]]
    );
}

#[test]
fn a_short_template_does_not_claim_a_long_plain_hole() {
    let s = set(vec![
        (
            tpl(vec![
                lit("rpc error: code = Unknown desc = "),
                hole(HoleKind::Any, "%s", false),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("failed to destroy "),
                hole(HoleKind::Any, "%s", false),
                lit(": "),
                hole(HoleKind::Any, "%w", true),
            ]),
            2,
        ),
    ]);
    let t = s.trace(
        "rpc error: code = Unknown desc = failed to destroy network for sandbox \"5dc62a1a5e19c4c1412cba\": dial tcp 10.10.25.230:4001: getsockopt: connection refused",
        &Hints::default(),
    );
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, [vec![1]]);
}

#[test]
fn an_access_log_format_of_holes_and_marks_matches_alone() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![(
        tpl(vec![
            any("%v"),
            lit(" - - ["),
            any("%v"),
            lit("] "),
            any("%v"),
        ]),
        1,
    )]);
    let t = s.trace(
        "127.0.0.1 - - [02/Dec/2026 07:59:30] \"GET /boom HTTP/1.1\" 500 -",
        &Hints::default(),
    );
    assert_eq!(t.frames.len(), 1, "{t:?}");
    assert!(t.unmatched.is_empty(), "{:?}", t.unmatched);
}

#[test]
fn a_wrap_of_holes_is_no_access_log_format() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    // `%s: %s ((%s)): %s` has as many marks as werkzeug's format, but its
    // `: ` makes it a wrap of messages: it never matches alone.
    let s = set(vec![(
        tpl(vec![
            any("%s"),
            lit(": "),
            any("%s"),
            lit(" (("),
            any("%s"),
            lit(")): "),
            any("%s"),
        ]),
        1,
    )]);
    let t = s.trace(
        "open config ((read-only)): permission denied",
        &Hints::default(),
    );
    assert!(t.frames.is_empty(), "{t:?}");
}

#[test]
fn templates_without_a_whole_word_are_found_where_words_leave_text() {
    let err = |v: &str| hole(HoleKind::Any, v, true);
    let int = |v: &str| hole(HoleKind::Int, v, false);
    let s = set(vec![
        (tpl(vec![lit("reading the table failed: "), err("%w")]), 1),
        (tpl(vec![lit("invalid"), int("%d")]), 2),
    ]);
    // The wrap is found by its words; the layer inside it only by its
    // literal, looked for since the words left it unexplained.
    let t = s.trace("reading the table failed: invalid42", &Hints::default());
    let got: Vec<Vec<u32>> = t.frames.iter().map(payloads).collect();
    assert_eq!(got, [vec![1], vec![2]]);
    assert!(t.unmatched.is_empty(), "{:?}", t.unmatched);
    let o = s.outline("invalid42", &Hints::default());
    assert_eq!((o.frames, o.top), (1, Some(2)));
}

/// OpenSSH's `kex_exchange_identification: read: %s` of
/// `strerror(errno)`: the operating system wrote `Connection reset by
/// peer`, not another site's `Connection reset by %s`; the text is left
/// for the runtime knowledge base.
#[test]
fn the_system_text_in_a_strerror_hole_is_never_a_repository_layer() {
    let strerror_hole = |arg: &str| {
        Segment::Hole(Hole {
            kind: HoleKind::Any,
            verb: "%s".into(),
            arg: Some(arg.into()),
            chain: true,
        })
    };
    for arg in [
        "strerror(errno)",
        "ngx_strerror(err, errstr, n)",
        "e.strerror",
    ] {
        let s = set(vec![
            (
                tpl(vec![
                    lit("kex_exchange_identification: read: "),
                    strerror_hole(arg),
                ]),
                0,
            ),
            (
                tpl(vec![
                    lit("Connection reset by "),
                    hole(HoleKind::Any, "%s", false),
                ]),
                1,
            ),
        ]);
        let line = "kex_exchange_identification: read: Connection reset by peer";
        let t = s.trace(line, &Hints::default());
        assert_eq!(layers_of(&s, line), [vec![0]], "{arg}");
        assert_eq!(t.unmatched, [(35, line.len())], "{arg}");
    }
    // A library's own table of texts is its message, traced as any.
    let s = set(vec![
        (
            tpl(vec![
                lit("connect failed: "),
                strerror_hole("curl_easy_strerror(result)"),
            ]),
            0,
        ),
        (tpl(vec![lit("Couldn't connect to server")]), 1),
    ]);
    assert_eq!(
        layers_of(&s, "connect failed: Couldn't connect to server"),
        [vec![0], vec![1]]
    );
}

mod alone;
mod cut;
mod pieces;
mod properties;
mod wrapping;

#[test]
fn a_template_that_ends_with_a_blank_after_a_value_matches_text_written_after_it() {
    // `prefix = "Usage: "` … `write(f"{prefix}{prog} ")`, then the
    // arguments on the same line.
    let any = || hole(HoleKind::Any, "%v", false);
    let s = set(vec![(tpl(vec![lit("Usage: "), any(), lit(" ")]), 1)]);
    assert_eq!(layers_of(&s, "Usage: tool run [OPTIONS]"), [vec![1]]);
    assert_eq!(layers_of(&s, "Usage: tool"), [vec![1]]);
}

#[test]
fn a_piece_that_ends_with_a_blank_keeps_it() {
    // etcd's `read-only range ` fills the `%s` of `%srequest %q`: the
    // outer's text follows the blank.
    let s = set(vec![(tpl(vec![lit("read-only range ")]), 1)]);
    assert_eq!(layers_of(&s, "read-only range"), Vec::<Vec<u32>>::new());
}

#[test]
fn an_empty_hole_holds_no_linked_piece() {
    // `msg = f" {msg}" if msg else ""` fills `{msg}` of
    // `f"Missing file{hint}.{msg}"`: with no text there, no layer.
    let arg = |a: &str| hole_of(HoleKind::Any, "%v", a);
    let outer = tpl(vec![lit("Missing file"), arg("hint"), lit("."), arg("msg")]);
    let mut b = TemplateSetBuilder::new();
    b.add(outer, 1, "errors.py", 10);
    b.add(tpl(vec![]), 2, "errors.py", 8);
    b.link(1, "msg", 2);
    let s = b.build();
    assert_eq!(layers_of(&s, "Missing file 'x'."), [vec![1]]);
}
