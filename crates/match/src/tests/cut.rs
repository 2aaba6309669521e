//! Texts no template explains whole: cut short, parting from a template,
//! matched only by a loose template's values, or a whole message with
//! more after it.

use super::*;

#[test]
fn a_message_cut_short_is_traced_to_the_template_it_begins() {
    let s = set(vec![
        (
            tpl(vec![
                lit("The `url` supplied for the path ("),
                hole(HoleKind::Any, "%s", false),
                lit(") repository does not exist"),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("Your configuration does not allow connections to "),
                hole(HoleKind::Any, "%s", false),
                lit(". See https://example.org/doc#secure-http for details."),
            ]),
            2,
        ),
        (
            tpl(vec![
                lit("Your configuration does not allow connections to "),
                hole(HoleKind::Any, "%s", false),
                lit(". See https://example.org/doc#secure-svn for details."),
            ]),
            3,
        ),
        (tpl(vec![lit("could not open the cache folder")]), 4),
    ]);
    // Cut inside a literal, at a terminal's width.
    assert_eq!(
        layers_of(
            &s,
            "The `url` supplied for the path (/srv/pkg) repository does not exis"
        ),
        [vec![1]]
    );
    // Cut inside a hole: both templates begin the same way, so both.
    let cut_in_hole = layers_of(
        &s,
        "Your configuration does not allow connections to http://127.0.0.1:9/pa",
    );
    assert_eq!(cut_in_hole, [vec![2, 3]]);
    // Cut at the beginning of the next literal, and marked as cut.
    assert_eq!(
        layers_of(&s, "Your configuration does not allow connections to http://x/. See https://example.org/doc#secure-s…"),
        [vec![3]]
    );
    let marked = s.trace(
        "Your configuration does not allow connections to http://x/. See https://example.org/doc#secure-h ...",
        &Hints::default(),
    );
    assert_eq!(
        marked.frames.iter().map(payloads).collect::<Vec<_>>(),
        [vec![2]]
    );
    assert!(marked.unmatched.is_empty());
    // Too little literal text, or text that goes another way, is no cut.
    assert!(layers_of(&s, "could not open the cac").is_empty());
    assert!(layers_of(&s, "The `url` supplied for the path (/srv/pkg) is a file").is_empty());
    assert!(layers_of(&s, "Your configuration do").is_empty());
    assert_eq!(
        layers_of(&s, "Your configuration does not allow connections"),
        [vec![2, 3]]
    );
}

#[test]
fn plain_values_of_a_loose_template_hold_no_sentences() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (tpl(vec![any("{}"), lit(" set to "), any("{}")]), 1),
        (
            tpl(vec![
                lit("reload failed: "),
                hole(HoleKind::Any, "%w", true),
            ]),
            2,
        ),
    ]);
    // Another program's warning of several sentences is no reading of it.
    let warning = "overcommit_memory is set to 0! Background save may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf.";
    assert!(layers_of(&s, warning).is_empty());
    // Its own values still match, however long.
    assert_eq!(
        layers_of(
            &s,
            "quorum.auth.server.saslLoginContext set to QuorumServer"
        ),
        [vec![1]]
    );
    // A chain hole holds the sentences of the message it wraps, and so
    // does a printer's one plain hole.
    assert_eq!(
        layers_of(&s, "reload failed: Disk full. Free some space. Then retry."),
        [vec![2]]
    );
    let printer = set(vec![(tpl(vec![lit("WARNING "), any("%s")]), 3)]);
    assert_eq!(
        layers_of(
            &printer,
            "WARNING Memory overcommit must be enabled! Without it, a save may fail."
        ),
        [vec![3]]
    );
}

#[test]
fn a_text_that_parts_from_most_of_a_template_is_traced_up_to_there() {
    let s = set(vec![(
        tpl(vec![
            lit("Unverified HTTPS request is being made to host '"),
            hole(HoleKind::Any, "%s", false),
            lit("'. Adding certificate verification is strongly advised. See: https://urllib3.readthedocs.io/en/latest/advanced-usage.html#tls-warnings"),
        ]),
        1,
    )]);
    // Another version's link at the end.
    let text = "Unverified HTTPS request is being made to host 'www.example.net'. Adding certificate verification is strongly advised. See: https://urllib3.readthedocs.io/en/1.26.x/advanced-usage.html#ssl-warnings";
    let t = s.trace(text, &Hints::default());
    assert_eq!(t.frames.iter().map(payloads).collect::<Vec<_>>(), [vec![1]]);
    let part = t.frames[0].end;
    assert!(
        text[..part].ends_with("readthedocs.io/en/"),
        "{}",
        &text[..part]
    );
    assert_eq!(t.unmatched, [(part, text.len())]);
    // Too little of the template shared: no reading.
    assert!(layers_of(
        &s,
        "Unverified HTTPS request is being made to host 'x'. Nothing else of it follows, only other words"
    )
    .is_empty());
}

#[test]
fn a_loose_template_yields_to_one_another_version_worded_at_its_end() {
    let any = |v: &str| hole(HoleKind::Any, v, false);
    let s = set(vec![
        (
            tpl(vec![
                lit("failed to "),
                any("%s"),
                lit(" "),
                any("%s"),
                lit(" on "),
                any("%s"),
                lit(" ("),
                any("%s"),
                lit(")"),
            ]),
            1,
        ),
        (
            tpl(vec![
                lit("failed to send out heartbeat on time (exceeded the "),
                any("%v"),
                lit(" timeout for "),
                any("%v"),
                lit(", to "),
                any("%x"),
                lit(")"),
            ]),
            2,
        ),
    ]);
    let layers = |text: &str| layers_of(&s, text);
    // An older release printed no `, to %x`.
    assert_eq!(
        layers("failed to send out heartbeat on time (exceeded the 100ms timeout for 10.198201ms)"),
        [vec![2]]
    );
    // A text that begins no firmer template stays the loose one's.
    assert_eq!(
        layers("failed to reach peer abcdef on port 2380 (connection reset by peer)"),
        [vec![1]]
    );
}

#[test]
fn a_whole_message_before_a_logger_detail_is_its_head() {
    let s = set(vec![(
        tpl(vec![
            lit("SSL_CTX_use_PrivateKey(\""),
            hole(HoleKind::Any, "%s", false),
            lit("\") failed"),
        ]),
        1,
    )]);
    let t = s.trace(
        "SSL_CTX_use_PrivateKey(\"/tmp/other.key\") failed (SSL: error:05800074:x509 certificate routines::key values mismatch)",
        &Hints::default(),
    );
    assert_eq!(t.frames.iter().map(payloads).collect::<Vec<_>>(), [vec![1]]);
    assert_eq!(t.unmatched.len(), 1);
    assert_eq!(
        crate::trace::tail_cuts("short. tail (x)"),
        [None, None, None, None, None]
    );
    // A text that is one parenthesised group has no head before it.
    assert_eq!(
        crate::trace::tail_cuts("(a long text in parentheses)"),
        [None, None, None, None, None]
    );
}

#[test]
fn a_whole_message_before_a_clause_another_version_added_is_its_head() {
    let s = set(vec![(
        tpl(vec![lit("link: the channel is shutting down")]),
        1,
    )]);
    let text = "link: the channel is shutting down; try again later.";
    let t = s.trace(text, &Hints::default());
    assert_eq!(t.frames.iter().map(payloads).collect::<Vec<_>>(), [vec![1]]);
    let left: Vec<&str> = t.unmatched.iter().map(|&(a, b)| &text[a..b]).collect();
    assert_eq!(left, ["; try again later."]);
    // A `;` inside a word or before no space is no clause mark.
    assert_eq!(crate::trace::tail_cuts("a long message;no space")[3], None);
}
