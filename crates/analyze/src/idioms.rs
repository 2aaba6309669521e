//! Errors whose meaning a construct tells better than their words:
//! generated protobuf decoders (a `*.pb.go` file's `Unmarshal`, `proto:
//! …`), whose words only say the input's format; and a language's idioms
//! (Python's `StopIteration` ends an iteration, a bare
//! `NotImplementedError` marks a method subclasses override).

use crate::prose::code;

/// What such an error means and what fixes it.
pub(crate) struct Idiom {
    /// A sentence for "What it means".
    pub meaning: String,
    /// A sentence for "When it happens".
    pub trigger: String,
    /// Where such bytes come from.
    pub situation: String,
    /// What to do, best first.
    pub solutions: Vec<String>,
    /// How to avoid it.
    pub prevention: Vec<String>,
    /// Normal operation, not a fault.
    pub expected: bool,
}

/// What a construct tells of the record's error, when one does.
pub(crate) fn of(r: &errdex_model::Record) -> Option<Idiom> {
    if let Some(d) = never_fails(r) {
        return Some(d);
    }
    let site = &r.sites[0];
    let class = r.error_class.as_deref();
    decoder(
        &r.message_pattern,
        &site.file_path,
        site.facts.receiver.as_deref(),
        r.sites.len() - 1,
    )
    .or_else(|| match (r.language, class) {
        (errdex_model::Lang::Python, Some(class)) => {
            python(class, &r.message_pattern, site.function.as_deref())
        }
        _ => None,
    })
}

/// Every site wraps the error of a function that returns a `nil` error on
/// every path (`c.dialSetupOpts`, whose only `return` is `return opts,
/// nil`): the message cannot appear from this version.
fn never_fails(r: &errdex_model::Record) -> Option<Idiom> {
    let site = &r.sites[0];
    let callee = site.facts.wrapped_never_fails.as_deref()?;
    if r.sites
        .iter()
        .any(|s| s.facts.wrapped_never_fails.is_none())
    {
        return None;
    }
    let (at, function) = callee.split_once(' ').unwrap_or((callee, callee));
    let call = site.facts.wrapped_call.as_deref().unwrap_or(function);
    Some(Idiom {
        meaning: format!(
            "{} never returns an error in this version: every `return` of {} ({at}) gives `nil`. So this message does not appear; the check only guards against a later change of {}.",
            code(call),
            code(function),
            code(function)
        ),
        trigger: format!(
            "It is not produced by this version of the code: {} cannot fail.",
            code(call)
        ),
        situation: "None in this version of the code.".to_string(),
        solutions: vec![
            format!(
                "Nothing to do at run time: {} never fails in this version.",
                code(function)
            ),
            "If a log shows this message, the program that wrote it is another version than the one indexed: find which version runs and look it up there.".to_string(),
        ],
        prevention: vec![format!(
            "Keep the check: it costs nothing and catches a later {} that can fail.",
            code(function)
        )],
        expected: false,
    })
}

/// What the bytes hold when the decoder prints `pattern`, and whether a
/// valid encoding by another definition of the message can hold it (a
/// field's wire type changed); no valid encoding holds the others.
fn detail(pattern: &str) -> (&'static str, bool) {
    const DETAILS: &[(&str, &str)] = &[
        (
            "end group for non-group",
            "a field of wire type 4 (end of group), which no message of this file has",
        ),
        (
            "illegal tag",
            "a field number of 0 or less, which no message has",
        ),
        (
            "wrong wireType",
            "a field whose wire type differs from the type its definition declares",
        ),
        ("illegal wireType", "a wire type that does not exist"),
        ("negative length", "a length prefix that is negative"),
        ("integer overflow", "a varint longer than 64 bits"),
        (
            "unexpected end of group",
            "an end of group that was never opened",
        ),
    ];
    let skew = pattern.contains("wrong wireType");
    let detail = DETAILS
        .iter()
        .find(|(k, _)| pattern.contains(k))
        .map_or("data that is not a valid encoding", |(_, d)| d);
    (detail, skew)
}

/// What a generated protobuf decoder's error `pattern` at `path` (in a
/// method of `receiver`, and at `others` more sites) means, when it is
/// one.
pub(crate) fn decoder(
    pattern: &str,
    path: &str,
    receiver: Option<&str>,
    others: usize,
) -> Option<Idiom> {
    let file = path.strip_suffix(".pb.go")?;
    if !pattern.starts_with("proto: ") {
        return None;
    }
    let message = receiver.map_or("the message".to_string(), code);
    let decoder = match (receiver, others) {
        (Some(t), 0) => code(&format!("{t}.Unmarshal")),
        (Some(t), n) => format!(
            "{} (or another of the {n} more generated decoders that print this text)",
            code(&format!("{t}.Unmarshal"))
        ),
        (None, _) => "the generated decoder".to_string(),
    };
    let proto = code(&format!(
        "{}.proto",
        file.rsplit('/').next().unwrap_or(file)
    ));
    let (detail, skew) = detail(pattern);
    let (origin, situation, first) = if skew {
        (
            "the bytes were written by another definition of the message, belong to another message, or are damaged",
            "Usually seen when the writer and the reader of the data run different versions (a mixed-version cluster, a client and a server from different releases, a file written by another release), or when a file or stream was corrupted.",
            format!("Check that the program that wrote the data and this one use the same definition of {message} ({proto}): run matching versions on both sides."),
        )
    } else {
        (
            "no valid encoding of any message holds that, so the bytes are damaged or are not this protocol's",
            "Usually seen when a file or stream was truncated or corrupted, or when bytes of another protocol reach this decoder (a client speaking to the wrong port).",
            "Find where the bytes came from and whether they were damaged on the way: compare them with what the writer sent.".to_string(),
        )
    };
    Some(Idiom {
        meaning: format!(
            "The bytes given to {decoder} are not a valid encoding of {message}: they hold {detail}. The code that reads the bytes was generated from {proto}; {origin}."
        ),
        trigger: format!("It happens when {decoder} decodes bytes that hold {detail}."),
        situation: situation.to_string(),
        solutions: vec![
            first,
            "If the bytes were read from disk (a log, snapshot or database file), the file is damaged or was written in another format: restore it from a backup or snapshot.".to_string(),
            "If they came over the network, check that the peer is the service this code expects (the right address and port) and that nothing in between alters the stream.".to_string(),
        ],
        prevention: std::iter::once(format!(
            "Do not edit {}: change {proto} and regenerate the code.",
            code(path)
        ))
        .chain(skew.then(|| {
            "Never reuse a field number with another type in the `.proto`; add a new field instead.".to_string()
        }))
        .collect(),
        expected: false,
    })
}

/// A Python idiom: `StopIteration` (and its async kin) raised to end an
/// iteration, or a bare `NotImplementedError` in a method (`class`
/// `function`) that subclasses must override.
pub(crate) fn python(class: &str, message: &str, function: Option<&str>) -> Option<Idiom> {
    let f = function.map_or("the function".to_string(), code);
    match class {
        "StopIteration" | "StopAsyncIteration" => Some(Idiom {
            meaning: format!("This is how an iterator says it has no more items: {f} raises {} at the end, and a `for` loop, `list()` or `next(it, default)` takes it as the end, not as an error.", code(class)),
            trigger: format!("It happens every time the iteration of {f} reaches its end."),
            situation: "Seen as an error only when it escapes: code calls `next()` on the iterator directly, without a default, after the last item (inside a generator Python turns it into `RuntimeError: generator raised StopIteration`).".to_string(),
            solutions: vec![
                "Nothing to fix when it ends a loop: it is the normal end of the iteration.".to_string(),
                "Where code calls `next(it)` by hand, give a default (`next(it, None)`) or catch `StopIteration` right there.".to_string(),
            ],
            prevention: vec!["Iterate with `for` rather than calling `next()` by hand.".to_string()],
            expected: true,
        }),
        "NotImplementedError" if message == class => {
            let (owner, name) = function?.rsplit_once('.')?;
            Some(Idiom {
                meaning: format!("{f} is left for subclasses of {} to override: it raises {} without a message when a subclass does not.", code(owner), code(class)),
                trigger: format!("It happens when code calls {} on an object whose class derives from {} without overriding it.", code(name), code(owner)),
                situation: format!("Usually seen with a custom subclass of {} written for an application, or a new subclass in the library itself.", code(owner)),
                solutions: vec![
                    format!("Override {} in the subclass of {} that the traceback shows.", code(name), code(owner)),
                    format!("If the subclass is not yours, use one that implements {}.", code(name)),
                ],
                prevention: vec![format!("Make {} derive from `abc.ABC` and declare {} with `abc.abstractmethod`, so a subclass that lacks it fails when it is instantiated, not when it is called.", code(owner), code(name))],
                expected: false,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pattern: &str, path: &str) -> Option<Idiom> {
        decoder(pattern, path, Some("LeaseInternalRequest"), 0)
    }

    #[test]
    fn a_generated_decoder_error_says_what_the_bytes_hold() {
        let d = record(
            "proto: LeaseInternalRequest: wiretype end group for non-group",
            "lease/leasepb/lease.pb.go",
        )
        .unwrap();
        assert!(
            d.meaning.contains("`LeaseInternalRequest.Unmarshal`"),
            "{}",
            d.meaning
        );
        assert!(d.meaning.contains("wire type 4"), "{}", d.meaning);
        // No version of the message writes a stray end of group.
        assert!(
            !d.solutions[0].contains("matching versions"),
            "{:?}",
            d.solutions
        );
        let skew = record("proto: wrong wireType = %d for field ID", "a/lease.pb.go").unwrap();
        assert!(skew.solutions[0].contains("matching versions"));
        assert_eq!(
            d.prevention.len(),
            1,
            "no field reuse writes a stray end of group"
        );
        assert!(skew.prevention[1].contains("field number"));
        assert!(d.meaning.contains("`lease.proto`"), "{}", d.meaning);
        assert!(d.prevention[0].contains("`lease/leasepb/lease.pb.go`"));
        // Not generated, or not a decoder's text: nothing to say.
        assert!(record("proto: wrong wireType = %d", "lease/lease.go").is_none());
        assert!(record("lease not found", "lease/leasepb/lease.pb.go").is_none());
    }

    #[test]
    fn python_idioms_are_no_failures_of_the_environment() {
        let stop = python("StopIteration", "StopIteration", Some("Reader.__next__")).unwrap();
        assert!(stop.expected && stop.meaning.contains("`Reader.__next__`"));
        let abstract_method = python(
            "NotImplementedError",
            "NotImplementedError",
            Some("Rule.get_rules"),
        )
        .unwrap();
        assert!(
            abstract_method.solutions[0].contains("Override `get_rules` in the subclass of `Rule`")
        );
        // A message says more than the idiom: not an abstract method.
        assert!(python(
            "NotImplementedError",
            "no tls on this platform",
            Some("A.f")
        )
        .is_none());
        assert!(python("ValueError", "ValueError", Some("A.f")).is_none());
    }
}
