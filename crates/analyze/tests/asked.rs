//! The static analyser on constructs written for the rules that read what
//! a message asks and what a person sets: questions, settings and their
//! keys, option functions, refusals, lookups, value forms, handed pieces.

mod common;
use common::{analysed, by, manifest};

#[test]
fn a_question_the_message_asks_is_its_first_step() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let meant = by(&records, " Did you mean %v instead?");
    assert_eq!(
        meant.solutions[0],
        "The endpoint asked for matches none the code knows, and the message suggests the \
         nearest one: use it if that is what you meant (a typo), or add an endpoint by the \
         name you gave."
    );
    let forgot = by(&records, " Did you forget to give the values %v?");
    assert_eq!(
        forgot.solutions[0],
        "Give the values the message lists: the message asks whether that step was left out."
    );
    // Go: what the names name comes from the message's `unknown …`.
    let command = by(&records, "unknown command %q, did you mean %q?");
    assert!(
        command.solutions[0].starts_with("The command asked for matches none the code knows"),
        "{:?}",
        command.solutions
    );
    // Words that describe the suggestion are not shown as its name.
    let described = by(&records, " Did you mean the suggested endpoint instead?");
    assert!(
        !described.solutions[0].contains("`the suggested endpoint`"),
        "{:?}",
        described.solutions
    );
}

/// Two tests of one value's fields are a conflict of settings, named by
/// the keys their tags give where every declaration agrees.
#[test]
fn conflicting_settings_are_named_by_their_keys() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let conflict = by(&records, "ClientTLS 'false', but ClientCAFile is %q");
    assert_eq!(
        conflict.solutions[0],
        "Two settings conflict: `client-tls` (`mem.ClientTLS`) is false while `client-ca-file` \
         (`mem.ClientCAFile`) is set. Change one of them: set `client-tls` (`mem.ClientTLS`) to \
         true, or leave `client-ca-file` (`mem.ClientCAFile`) empty."
    );
    let limit = by(&records, "MaxTxnOps maximum value is 64, got %v");
    assert!(
        limit.solutions.iter().any(|s| s.contains(
            "`mem.MaxTxnOps` is read from the key `max-txn-ops` (the `yaml` tag of its field)."
        )),
        "{:?}",
        limit.solutions
    );
    // `Name` is declared untagged too: no key is said for it.
    let name = by(&records, "member has no name");
    assert!(name.sites[0].facts.field_keys.is_empty());
    assert!(
        !name.solutions.iter().any(|s| s.contains("`name`")),
        "{:?}",
        name.solutions
    );
}

/// A refusal of every kind but one asks for that one; an error class
/// whose name tells its family outweighs a format the message names;
/// leaving when an error is there is no step.
#[test]
fn a_refused_media_type_asks_for_the_one_taken() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let media = by(
        &records,
        "Did not attempt to load JSON data because the request Content-Type was not 'application/json'.",
    );
    assert_eq!(
        media.solutions[0],
        "Make the request Content-Type `application/json`, as the message asks."
    );
    // Neither the format it did not read (parse-error) nor a class name's
    // `unsupported` (versions, features) says what went wrong.
    assert!(
        !matches!(
            media.background_tag.as_deref(),
            Some("parse-error" | "unsupported")
        ),
        "{:?}",
        media.background_tag
    );
    assert!(
        !media
            .solutions
            .iter()
            .any(|s| s.contains("`e is not None`")),
        "{:?}",
        media.solutions
    );
    let decode = by(&records, "Failed to decode JSON object: %v");
    assert_eq!(decode.background_tag.as_deref(), Some("parse-error"));
}

/// A guard on fields that option functions set is about the options a
/// caller passes.
#[test]
fn a_guard_on_an_options_field_names_the_option() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let filter = by(&records, "unexpected mod revision filter in delete");
    assert_eq!(
        filter.sites[0].facts.field_options[0].options,
        ["WithMinModRev"]
    );
    assert_eq!(
        filter.solutions[0],
        "Leave `WithMinModRev(…)` and `WithMaxModRev(…)` out of the options given to `OpDelete`: \
         they set `ret.minModRev` and `ret.maxModRev`, which `OpDelete` refuses."
    );
    let revision = by(&records, "unexpected revision in delete");
    assert_eq!(
        revision.solutions[0],
        "Leave `WithRev(…)` out of the options given to `OpDelete`: it sets `ret.rev`, which \
         `OpDelete` refuses."
    );
    let lease = by(&records, "keep-alive without a lease");
    assert_eq!(
        lease.solutions[0],
        "Pass `WithLease(…)` among the options given to `OpKeepAlive`: `OpKeepAlive` needs \
         `ret.lease`, which only that option sets."
    );
}

/// A value of a kind with a well-known form, called invalid, gets the
/// form with an example.
#[test]
fn a_kind_of_value_called_invalid_gets_its_written_form() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let mimetype = by(&records, "invalid mimetype %v");
    assert!(
        mimetype.solutions.contains(
            &"A MIME type is written as `type/subtype`, for example `application/json` or \
              `text/html; charset=utf-8`: check the value given against that form."
                .to_string()
        ),
        "{:?}",
        mimetype.solutions
    );
}

/// Handled values that are constants are shown with their text.
#[test]
fn handled_constants_are_shown_with_their_text() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let token = by(&records, "unknown token type: %s");
    assert!(
        token.solutions[0].starts_with(
            "Give `tokenType` one of the values the code handles: `tokenTypeSimple` (`\"simple\"`), \
             `tokenTypeJWT` (`\"jwt\"`)"
        ),
        "{:?}",
        token.solutions
    );
}

/// A requirement on a property's value is met through the property.
#[test]
fn a_requirement_in_a_setter_asks_for_the_value_assigned() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let base = by(
        &records,
        "base url must not contain a query string or fragment",
    );
    assert!(
        base.solutions[0].starts_with(
            "Meet what the message asks for: base url must not contain a query string or fragment. \
             Give `Builder.base_url` a value accordingly (`Builder.base_url` checks"
        ),
        "{:?}",
        base.solutions
    );
}

/// A test of a lookup's result says which map lacks which key.
#[test]
fn a_lookup_that_finds_nothing_names_the_map_and_the_key() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let local = by(
        &records,
        "couldn't find local name %q in the initial cluster",
    );
    assert!(
        local.solutions.contains(
            &"`c.peers` has no entry for `c.name`: give `c.name` a value `c.peers` has a key for, \
              or add an entry for it to `c.peers`."
                .to_string()
        ),
        "{:?}",
        local.solutions
    );
    let user = by(&records, "no user named %v");
    assert!(
        user.solutions
            .iter()
            .any(|s| s.starts_with("`self.users` has no entry for `name`")),
        "{:?}",
        user.solutions
    );
    // A list's empty element is no missing key.
    let element = by(&records, "empty member entry %d");
    assert!(
        !element.solutions.iter().any(|s| s.contains("has no entry")),
        "{:?}",
        element.solutions
    );
}

/// A literal handed to a function that prints it inside its own message
/// is said to be handed, not logged by the call.
#[test]
fn a_piece_handed_to_a_printing_function_is_not_said_to_be_logged() {
    let records = analysed(&manifest().join("tests/fixtures/asks"), "acme/asks");
    let piece = by(&records, "errors.write()");
    let doc = piece.documentation.as_deref().unwrap_or_default();
    assert!(
        doc.starts_with(
            "`Errors.write` hands this text to `check_kind` as its `context`, which prints it as \
             part of its own message"
        ),
        "{doc}"
    );
    assert!(!doc.contains("logs this message"), "{doc}");
    let when = piece.trigger_scenarios.as_deref().unwrap_or_default();
    assert!(
        when.contains("when `check_kind` prints its message with the text `Errors.write` hands it"),
        "{when}"
    );
    assert!(
        !piece
            .prevention_tips
            .iter()
            .any(|t| t.contains("is logged")),
        "{:?}",
        piece.prevention_tips
    );
}
