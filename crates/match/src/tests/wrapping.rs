//! Which of two templates that explain the same text is the outer layer.

use super::*;

#[test]
fn words_before_a_message_wrap_a_template_that_leads_with_a_hole() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![
                lit("tool: ("),
                hole(HoleKind::Int, "%d", false),
                lit(") "),
                any("%s"),
            ]),
            1,
        ),
        // Its lead hole is a wrapped error, which may hold a `: `.
        (
            tpl(vec![
                hole(HoleKind::Any, "%s", true),
                lit(" in list position "),
                hole(HoleKind::Int, "%d", false),
                lit(":"),
            ]),
            2,
        ),
        (tpl(vec![lit("bad range specification")]), 3),
    ]);
    // The hole-led template explains more literal text, but it is the
    // message inside `tool: (%d) %s`, not around it.
    assert_eq!(
        layers_of(&s, "tool: (3) bad range specification in list position 9:"),
        [vec![1], vec![2], vec![3]]
    );
    // Alone, the hole-led template is the layer.
    assert_eq!(
        layers_of(&s, "bad range specification in list position 9:"),
        [vec![2], vec![3]]
    );
}

#[test]
fn a_worded_template_that_cannot_hold_the_other_leaves_it_outside() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![
                lit("tool run ("),
                hole(HoleKind::Int, "%d", false),
                lit(") "),
                any("%s"),
            ]),
            1,
        ),
        // Its literal begins before `tool: (%d) %s`'s hole: it cannot be
        // the message inside it, so it stays the layer.
        (tpl(vec![any("%s"), lit(") failed to start the engine")]), 2),
    ]);
    let layers = layers_of(&s, "tool run (3) failed to start the engine");
    assert_eq!(layers.first(), Some(&vec![2]));
}

#[test]
fn behind_an_unknown_head_words_wrap_a_template_that_leads_with_a_hole() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![
                lit("Invalid manifest.json: "),
                hole(HoleKind::Any, "%v", true),
            ]),
            1,
        ),
        (tpl(vec![any("%v"), lit(" while parsing "), any("%v")]), 2),
    ]);
    let text = "app error JSON.parse Invalid manifest.json: Unexpected token while parsing \"{\"";
    assert_eq!(layers_of(&s, text), [vec![1], vec![2]]);
    let t = s.trace(text, &Hints::default());
    assert_eq!(t.frames[0].start, "app error JSON.parse ".len());
}

#[test]
fn behind_an_unknown_head_the_earlier_of_two_nested_templates_is_outer() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let int = || hole(HoleKind::Int, "%d", false);
    let s = set(vec![
        (
            tpl(vec![
                lit("rpc failure: code = "),
                any("%s"),
                lit(" desc = "),
                any("%s"),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("grpc: received message larger than max ("),
                int(),
                lit(" vs. "),
                int(),
                lit(")"),
            ]),
            2,
        ),
    ]);
    let text = "sending logs: writing logs: rpc failure: code = Exhausted desc = grpc: received message larger than max (5 vs. 4)";
    assert_eq!(layers_of(&s, text), [vec![1], vec![2]]);
}

#[test]
fn behind_an_unknown_head_the_outer_template_may_hold_an_unknown_layer_before_the_inner() {
    // The outer hole holds a wrapped error, or a plain message string.
    for chain in [true, false] {
        an_unknown_layer_between_outer_and_inner(chain);
    }
}

fn an_unknown_layer_between_outer_and_inner(chain: bool) {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![
                lit("rpc failure: code = "),
                any("%s"),
                lit(" desc = "),
                hole(HoleKind::Any, "%s", chain),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("failed to unpack layer on store "),
                any("%s"),
                lit(": "),
                hole(HoleKind::Any, "%w", true),
            ]),
            2,
        ),
        (tpl(vec![lit("not found")]), 3),
        (
            tpl(vec![
                lit("failed to copy: "),
                hole(HoleKind::Any, "%w", true),
            ]),
            4,
        ),
    ]);
    // A short template, most of its text held in its hole, is still the
    // layer after an unknown one.
    let short = "fetching failed: rpc failure: code = Unknown desc = failed to get image \"x\": failed to copy: reader for blob sha256:0123456789abcdef: failed open: not found";
    assert_eq!(layers_of(&s, short), [vec![1], vec![4], vec![3]]);
    // In a plain hole, a message behind an unknown layer that ends with a
    // value must explain a good share of the rest.
    if !chain {
        let value = "fetching failed: rpc failure: code = Unknown desc = Error: cannot resolve 'fs' in '/home/someone/projects/app/node_modules/glob'";
        let s = set(vec![
            (
                tpl(vec![
                    lit("rpc failure: code = "),
                    any("%s"),
                    lit(" desc = "),
                    any("%s"),
                ]),
                1,
            ),
            (tpl(vec![lit("cannot resolve "), any("%s")]), 5),
        ]);
        assert_eq!(layers_of(&s, value), [vec![1]]);
    }
    // `fetching failed: ` and `failed to get image "x": ` are layers no
    // template explains; the rpc template still holds the rest.
    let text = "fetching failed: rpc failure: code = Unknown desc = failed to get image \"x\": failed to unpack layer on store disk: not found";
    assert_eq!(layers_of(&s, text), [vec![1], vec![2], vec![3]]);
    let t = s.trace(text, &Hints::default());
    assert_eq!(t.frames[0].start, "fetching failed: ".len());
    // The layer between is reported as text nobody explains.
    let unknown: Vec<&str> = t.unmatched.iter().map(|&(a, b)| &text[a..b]).collect();
    assert!(
        unknown.iter().any(|u| u.starts_with("failed to get image")),
        "{unknown:?}"
    );
}

#[test]
fn a_message_with_a_colon_of_its_own_moves_the_split_between_two_holes() {
    let chain = |v: &str| hole(HoleKind::Any, v, true);
    let s = set(vec![
        (
            tpl(vec![
                lit("plugin load failed: "),
                chain("%v"),
                lit(": "),
                chain("%w"),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("no config found in "),
                hole(HoleKind::Any, "%s", false),
                lit(": "),
                chain("%w"),
            ]),
            2,
        ),
        (tpl(vec![lit("plugin not initialized")]), 3),
        (tpl(vec![lit("failed to load config")]), 4),
    ]);
    let text = "plugin load failed: no config found in /etc/x: plugin not initialized: failed to load config";
    assert_eq!(layers_of(&s, text), [vec![1], vec![2], vec![3], vec![4]]);
    // A first hole that is a message already keeps the first split.
    let text = "plugin load failed: plugin not initialized: failed to load config";
    assert_eq!(layers_of(&s, text), [vec![1], vec![3], vec![4]]);
}

#[test]
fn words_around_an_error_alone_are_a_layer_in_a_plain_hole() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let chain = |v: &str| hole(HoleKind::Any, v, true);
    let s = set(vec![
        (
            tpl(vec![
                lit("rpc failure: code = "),
                any("%s"),
                lit(" desc = "),
                any("%s"),
            ]),
            1,
        ),
        (tpl(vec![lit("latest pick error: "), chain("%v")]), 2),
        (
            tpl(vec![
                lit("connection error: desc = "),
                hole(HoleKind::Quoted, "%q", false),
            ]),
            3,
        ),
        (
            tpl(vec![
                lit("failed to destroy "),
                any("%s"),
                lit(": "),
                chain("%w"),
            ]),
            4,
        ),
    ]);
    // Its words are a small share of the hole, but only the error it wraps
    // can take the rest.
    let text = "rpc failure: code = Deadline desc = latest pick error: all links are down, last link error: connection error: desc = \"dial tcp 10.0.0.1:2379: connection refused\"";
    assert_eq!(layers_of(&s, text), [vec![1], vec![2], vec![3]]);
    // A value hole before the error could take any words: that template
    // must explain a good share of the hole.
    let value = "rpc failure: code = Unknown desc = failed to destroy network for sandbox \"0123456789abcdef0123456789abcdef\": del cmd: failed to process delete request";
    assert_eq!(layers_of(&s, value), [vec![1]]);
}
