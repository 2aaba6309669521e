//! Which templates with little text of their own match a line alone.

use super::*;

#[test]
fn a_value_framed_by_marks_matches_alone() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (tpl(vec![lit(">>> '"), any("%s"), lit("'")]), 1),
        (tpl(vec![lit("==> "), any("%s"), lit(" <==")]), 2),
        // Plain quotes and brackets are no frame: too common to match alone.
        (tpl(vec![lit("\""), any("%s"), lit("\"")]), 3),
        (tpl(vec![lit("[["), any("%s"), lit("]]")]), 4),
    ]);
    assert_eq!(layers_of(&s, ">>> 'maxmemory \"abc\"'"), [vec![1]]);
    assert_eq!(layers_of(&s, "==> /var/log/syslog <=="), [vec![2]]);
    assert!(layers_of(&s, "\"quoted words\"").is_empty());
    assert!(layers_of(&s, "[[bracketed]]").is_empty());
}

#[test]
fn a_protocols_error_code_before_a_message_matches_alone() {
    let s = set(vec![
        (tpl(vec![lit("ERR "), hole(HoleKind::Any, "%v", false)]), 1),
        (
            tpl(vec![
                lit("unknown command '"),
                hole(HoleKind::Any, "%s", false),
                lit("'"),
            ]),
            2,
        ),
        // Lower case or shorter codes are words, not a protocol's code.
        (tpl(vec![lit("Err "), hole(HoleKind::Any, "%v", false)]), 3),
        (tpl(vec![lit("NO "), hole(HoleKind::Any, "%v", false)]), 4),
    ]);
    assert_eq!(
        layers_of(&s, "ERR unknown command 'foo'"),
        [vec![1], vec![2]]
    );
    assert!(layers_of(&s, "Err something went wrong").is_empty());
    assert!(layers_of(&s, "NO something went wrong").is_empty());
}
