//! Messages built in pieces: a piece after a message, or in its last
//! hole.

use super::*;

#[test]
fn pieces_appended_to_a_message_are_layers_of_its_last_hole() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![lit("Could not build url for endpoint "), any("%r")]),
            1,
        ),
        (tpl(vec![lit(" with values "), any("%r")]), 2),
        (
            tpl(vec![lit(" Did you mean "), any("%r"), lit(" instead?")]),
            3,
        ),
        // Starts with a word, not a space: no piece, however it ends.
        (tpl(vec![lit("mean "), any("%r"), lit(" instead?")]), 4),
    ]);
    let layers = |text: &str| layers_of(&s, text);
    assert_eq!(
        layers("Could not build url for endpoint 'index'. Did you mean 'profile' instead?"),
        [vec![1], vec![3]]
    );
    assert_eq!(
        layers(
            "Could not build url for endpoint 'x' with values ['id', 'page']. Did you mean 'y' instead?"
        ),
        [vec![1], vec![2], vec![3]]
    );
    // A value that only ends like a message's last words stays a value.
    assert_eq!(
        layers("Could not build url for endpoint 'a b c d e f g h mean x instead?'"),
        [vec![1]]
    );
}

#[test]
fn a_piece_appended_to_a_whole_message_is_a_layer_after_it() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (tpl(vec![lit("archive metadata is missing")]), 1),
        (tpl(vec![lit(" found in "), any("%v")]), 2),
        (tpl(vec![lit(" (while reading the index)")]), 3),
    ]);
    let layers = |text: &str| layers_of(&s, text);
    assert_eq!(
        layers("archive metadata is missing found in /tmp/x/bad-1.0.gem"),
        [vec![1], vec![2]]
    );
    assert_eq!(
        layers("archive metadata is missing (while reading the index)"),
        [vec![1], vec![3]]
    );
    // Words before the piece that no template explains whole: no layers.
    assert!(layers("archive metadata is missing somewhere found in /tmp/x").is_empty());
}

#[test]
fn a_short_piece_linked_into_a_quoted_hole_is_a_layer() {
    let quoted = |a: &str| hole_of(HoleKind::Quoted, "%q", a);
    let slow = tpl(vec![
        lit("request "),
        quoted("req"),
        lit(" with result "),
        quoted("result"),
        lit(" took too long"),
    ]);
    let size = tpl(vec![lit("size:"), hole(HoleKind::Int, "%d", false)]);
    let mut b = TemplateSetBuilder::new();
    b.add(slow, 1, "util.go", 183);
    b.add(size.clone(), 2, "util.go", 109);
    // The same text at another site, which fills another log.
    b.add(size, 3, "util.go", 117);
    b.link(1, "result", 2);
    let s = b.build();
    let line = "request \"put key\" with result \"size:6\" took too long";
    assert_eq!(layers_of(&s, line), [vec![1], vec![2]]);
}

#[test]
fn a_piece_of_the_message_reads_a_last_hole_before_a_message_led_by_a_value() {
    // werkzeug's `Could not build url for endpoint {e!r}` then
    // `message.append(f" Did you mean {s!r} instead?")`, beside another
    // program's `{message} Did you mean {s}?`.
    let any = || hole(HoleKind::Any, "%v", false);
    let s = set(vec![
        (
            tpl(vec![lit("Could not build url for endpoint "), any()]),
            1,
        ),
        (tpl(vec![lit(" Did you mean "), any(), lit(" instead?")]), 2),
        (tpl(vec![any(), lit(" Did you mean "), any(), lit("?")]), 3),
        (tpl(vec![lit("No such option: "), any()]), 4),
    ]);
    let line = "Could not build url for endpoint 'index'. Did you mean 'profile' instead?";
    assert_eq!(layers_of(&s, line), [vec![1], vec![2]]);
    // With no piece that explains the end, the message in the hole stays.
    let line = "No such option: --bogus Did you mean --host?";
    assert_eq!(layers_of(&s, line), [vec![4], vec![3]]);
}

#[test]
fn a_piece_too_short_to_match_alone_follows_a_whole_message() {
    // RubyGems: `raise FormatError.new 'package metadata is missing',
    // @gem`, whose `initialize` appends `" in #{path}"`.
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (tpl(vec![lit("package metadata is missing")]), 1),
        (tpl(vec![lit(" in "), any("%v")]), 2),
    ]);
    let layers = |text: &str| layers_of(&s, text);
    assert_eq!(
        layers("package metadata is missing in /tmp/x/bad-1.0.gem"),
        [vec![1], vec![2]]
    );
    // Its head alone: no whole message before it, no layers.
    assert!(layers("package data is missing in /tmp/x/bad-1.0.gem").is_empty());
    // And the piece is no template to find alone.
    assert!(layers("in /tmp/x/bad-1.0.gem").is_empty());
}
