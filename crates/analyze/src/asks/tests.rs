//! What messages ask for, read from messages and guards written for them.

use super::*;

#[test]
fn a_lookup_that_finds_nothing_says_what_the_data_must_hold() {
    assert_eq!(
        missing_key("\"content-disposition\" not in headers").as_deref(),
        Some("Make sure `headers` holds `\"content-disposition\"`: the code looks it up there and finds none.")
    );
    assert_eq!(
        missing_key("\"/\" not in value").as_deref(),
        Some("Make `value` contain `\"/\"`: the code refuses it without.")
    );
    // A membership test of a value, not a literal, says nothing here.
    assert_eq!(missing_key("value not in self.items"), None);
    assert_eq!(missing_key("\"x\" not in f(a)"), None);
}

fn must(subject: &str, clause: &str) -> Vec<Ask> {
    vec![Ask::Must {
        subject: subject.to_string(),
        clause: clause.to_string(),
    }]
}

#[test]
fn a_requirement_is_read_from_the_message() {
    assert_eq!(
        asks("max inflight messages must be greater than 0"),
        must(
            "max inflight messages",
            "max inflight messages must be greater than 0"
        )
    );
    assert_eq!(
        asks("Status code must be three digits."),
        must("Status code", "status code must be three digits")
    );
    assert_eq!(
        asks("… responses must have an empty content length."),
        must(
            "… responses",
            "… responses must have an empty content length"
        )
    );
    // After a prefix, and with a name kept as written.
    assert_eq!(
        asks("config: URL must not contain a path"),
        must("URL", "URL must not contain a path")
    );
    assert_eq!(
        asks("api key is required"),
        must("api key", "api key is required")
    );
    // A subject that is one hole is the argument that fills it (the
    // record's `must` names it); holes alone ask for nothing.
    assert_eq!(
        asks("expected … to be empty, got …"),
        must("…", "… must be empty")
    );
    assert_eq!(asks("… … must be …"), vec![]);
    assert_eq!(
        asks("expected data dir to be empty, got …"),
        must("data dir", "data dir must be empty")
    );
    // A refusal states the requirement the other way round.
    assert_eq!(asks("… is not a package"), must("…", "… must be a package"));
    assert_eq!(
        asks("'…' is not one of …"),
        must("…", "… must be one of the values the message lists")
    );
    assert_eq!(
        asks("mode … is not an option here"),
        must("mode …", "mode … must be an option here")
    );
}

#[test]
fn statements_about_the_code_ask_for_nothing() {
    for text in [
        "newURLs … should never fail: …",
        "this must not happen",
        "state must have been checked",
        "… must be …",
        "unexpected error from lease Attach",
    ] {
        assert_eq!(asks(text), vec![], "{text}");
    }
}

#[test]
fn a_replacement_and_a_library_are_read_from_the_message() {
    assert_eq!(
        asks("'OrderedMultiDict' is deprecated and will be removed in Werkzeug 3.2. Use 'MultiDict' instead."),
        vec![Ask::Instead {
            old: Some("OrderedMultiDict".into()),
            new: "MultiDict".into()
        }]
    );
    assert_eq!(
        asks("the flag is obsolete, use --new-flag instead"),
        vec![Ask::Instead {
            old: None,
            new: "--new-flag".into()
        }]
    );
    assert_eq!(
        asks("Deprecated '--logger=…' flag is set; use '--logger=zap' flag instead"),
        vec![Ask::Instead {
            old: None,
            new: "--logger=zap".into()
        }]
    );
    // What the code does, not what to do.
    assert_eq!(
        asks("use default bcrypt cost instead of the invalid given cost"),
        vec![]
    );
    assert_eq!(
        asks("Using ad-hoc certificates requires the cryptography library."),
        vec![Ask::Install("cryptography".into())]
    );
    assert_eq!(
        asks("The yaml module is required to read config files"),
        vec![Ask::Install("yaml".into())]
    );
    assert_eq!(
        asks("the PyYAML package is required"),
        vec![Ask::Install("PyYAML".into())]
    );
    assert_eq!(asks("requires the library"), vec![]);
}

#[test]
fn guards_name_the_value_they_check() {
    let all: Vec<&str> = names("c.MaxInflightMsgs <= 0 || len(cfg.Outputs) != 1").collect();
    assert_eq!(all, ["c.MaxInflightMsgs", "cfg.Outputs"]);
    let all: Vec<&str> =
        names("name == \"OrderedMultiDict\" and not isinstance(port, int)").collect();
    assert_eq!(all, ["name", "and", "not", "port", "int"]);
    let subject = |s: &str| crate::family::words(s);
    assert!(shares_a_word(
        &subject("max inflight messages"),
        "MaxInflightMsgs"
    ));
    assert!(shares_a_word(&subject("header values"), "value"));
    assert!(shares_a_word(&subject("discovery URL"), "DiscoveryURL"));
    assert!(!shares_a_word(
        &subject("first index of committed entry"),
        "appliedIndex"
    ));
    assert!(!shares_a_word(&subject("listen address"), "addr"));
    assert_eq!(
        receiver_name("func (c *Config) validate() error"),
        Some("c")
    );
    assert_eq!(receiver_name("def check(self, status: str):"), Some("self"));
    assert_eq!(receiver_name("func Check(x int) error"), None);
    assert_eq!(receiver_name("func (*Server) check() error"), None);
}

#[test]
fn a_question_the_message_asks_is_read_as_its_step() {
    use questions::{question, Question};
    assert_eq!(
        question(" Did you mean … instead?"),
        Some(Question::Meant("…".into()))
    );
    assert_eq!(
        question("unknown command …, did you mean 'start'?"),
        Some(Question::Meant("start".into()))
    );
    assert_eq!(
        question("Did you forget to specify values …?"),
        Some(Question::Step {
            clause: "Specify values …".into(),
            forgot: true
        })
    );
    assert_eq!(
        question("Did you mean to use methods …?"),
        Some(Question::Step {
            clause: "Use methods …".into(),
            forgot: false
        })
    );
    // A question that suggests nothing asks for nothing.
    assert_eq!(question("Is the server running?"), None);
    assert_eq!(question("Did you mean?"), None);
    // A question is a sentence of its own: the requirement after it is read too.
    assert_eq!(
        asks("Unknown key …. Did you mean 'name'? The key must be lower case.").len(),
        2
    );
}

#[test]
fn a_kind_refused_for_not_being_one_value_asks_for_it() {
    assert_eq!(
        only_value(
            "Did not attempt to load JSON data because the request Content-Type was not 'application/json'"
        ),
        Some((
            "the request Content-Type".to_string(),
            "application/json".to_string()
        ))
    );
    assert_eq!(
        only_value("config: scheme is not \"https\""),
        Some(("scheme".to_string(), "https".to_string()))
    );
    // A state no one picks, a hole, or more after the value ask for nothing.
    assert_eq!(only_value("server state is not 'running'"), None);
    assert_eq!(only_value("the request Content-Type was not '…'"), None);
    assert_eq!(
        only_value("the encoding was not 'utf-8' and could not be guessed"),
        None
    );
}
