use super::*;

/// A package of two files written for these tests: a peer's status
/// printed with the action its callers name.
const STATUS: &str = r#"package peer

type failure struct {
	origin string
	verb   string
}

func (p *peer) down(f failure, why string) {
	log.Printf("could not %s to %s (%s)", f.verb, f.origin, why)
}
"#;

const CALLERS: &str = r#"package peer

func (p *peer) send() {
	if err := p.w.Write(b); err != nil {
		p.down(failure{origin: p.name, verb: "write"}, err.Error())
	}
	p.down(failure{verb: "dial", origin: p.name}, "refused")
}
"#;

fn texts(extra: &str) -> Vec<String> {
    vec![STATUS.to_string(), CALLERS.to_string(), extra.to_string()]
}

#[test]
fn a_field_set_only_by_string_literals_is_closed() {
    let sig = "func (p *peer) down(f failure, why string)";
    assert_eq!(typed_field("f.verb", Some(sig)), Some(("failure", "verb")));
    assert_eq!(typed_field("p.name", Some(sig)), Some(("peer", "name")));
    // An exported field can be set anywhere; a local is no parameter.
    assert_eq!(typed_field("f.Verb", Some(sig)), None);
    assert_eq!(typed_field("g.verb", Some(sig)), None);
    assert_eq!(
        field_values(&texts(""), "failure", "verb"),
        Some(vec!["dial".to_string(), "write".to_string()])
    );
    // `origin` is set from a value, not a literal.
    assert_eq!(field_values(&texts(""), "failure", "origin"), None);
}

#[test]
fn any_other_way_to_set_the_field_opens_it() {
    let open = |extra: &str| field_values(&texts(extra), "failure", "verb");
    assert_eq!(open("func f(x *failure) { x.verb = v }"), None);
    assert_eq!(open("func f(x *failure) { set(&x.verb) }"), None);
    assert_eq!(open(r#"var all = []failure{{verb: "read"}}"#), None);
    assert_eq!(open(r#"var one = failure{"origin", "read"}"#), None);
    assert_eq!(open(r#"var one = failure{origin: "x"}"#), None);
    assert_eq!(open("var one = failure(other)"), None);
    assert_eq!(open(r#"var one = failure[string]{verb: "read"}"#), None);
    assert_eq!(open("func f(x *failure) { x.verb, n = v, 1 }"), None);
    assert_eq!(open(r#"var one = failure{verb: name + "x"}"#), None);
    // A comparison reads the field; it sets nothing.
    assert_eq!(
        open(r#"func f(x failure) bool { return x.verb == "read" }"#),
        Some(vec!["dial".to_string(), "write".to_string()])
    );
    // A type the package does not declare is not closed.
    assert_eq!(
        field_values(&[CALLERS.to_string()], "failure", "verb"),
        None
    );
}

#[test]
fn a_string_constant_of_the_package_counts_as_its_text() {
    let with = |extra: &str| {
        let mut t = texts(extra);
        t.push(
            "package peer\n\nconst verbRead = \"read\" // a stream's\n\nconst (\n\tverbPost kind = \"post\"\n\tcount = 3\n)\n"
                .to_string(),
        );
        field_values(&t, "failure", "verb")
    };
    assert_eq!(
        with("var a = failure{verb: verbRead}\nvar b = failure{verb: verbPost}"),
        Some(
            vec!["dial", "post", "read", "write"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    // A name that is no string constant of the package opens the field,
    // and so does a constant two builds declare with two values.
    assert_eq!(with("var a = failure{verb: count}"), None);
    assert_eq!(with("var a = failure{verb: other.Verb}"), None);
    assert_eq!(
        with("var a = failure{verb: verbRead}\nconst verbRead = \"recv\""),
        None
    );
}
