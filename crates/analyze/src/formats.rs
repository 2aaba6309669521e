//! Values with a well-known written form. A message that calls a value
//! of such a kind invalid (`invalid mimetype …`, `not a valid URL`) is
//! answered best by the form itself, with an example: `type/subtype`,
//! for example `application/json`.

use crate::prose::code;
use crate::Cx;
use errdex_model::Lang;

/// A kind of value and how it is written.
struct Format {
    /// The message's words for it, lowercase (`mimetype`, `mime type`).
    names: &'static [&'static str],
    /// What it is called in the step.
    called: &'static str,
    /// How it is written.
    form: &'static str,
    /// Examples, as code.
    examples: &'static [&'static str],
    /// The one language whose standard library gives the form (Go's
    /// durations), or none.
    only: Option<Lang>,
}

const FORMATS: &[Format] = &[
    Format {
        names: &["mimetype", "mime type", "media type", "content type", "content-type"],
        called: "A MIME type",
        form: "`type/subtype`",
        examples: &["application/json", "text/html; charset=utf-8"],
        only: None,
    },
    Format {
        names: &["url", "uri"],
        called: "A URL",
        form: "a scheme and a host, then the path",
        examples: &["https://example.com:8443/path"],
        only: None,
    },
    Format {
        names: &["port", "port number"],
        called: "A port",
        form: "a whole number from 1 to 65535",
        examples: &["8080"],
        only: None,
    },
    Format {
        names: &["duration"],
        called: "A duration",
        form: "numbers with units (`ns`, `us`, `ms`, `s`, `m`, `h`)",
        examples: &["300ms", "10s", "1h30m"],
        only: Some(Lang::Go),
    },
    Format {
        names: &["ip", "ip address", "ipv4 address", "ipv6 address"],
        called: "An IP address",
        form: "four numbers from 0 to 255 separated by dots (IPv4), or hexadecimal groups separated by colons (IPv6)",
        examples: &["192.0.2.10", "2001:db8::10"],
        only: None,
    },
    Format {
        names: &["cidr", "subnet", "network prefix"],
        called: "A CIDR prefix",
        form: "an address, `/` and the prefix length",
        examples: &["10.0.0.0/8", "2001:db8::/32"],
        only: None,
    },
    Format {
        names: &["email", "email address", "e-mail address"],
        called: "An email address",
        form: "a local part, `@` and a domain",
        examples: &["name@example.com"],
        only: None,
    },
    Format {
        names: &["uuid"],
        called: "A UUID",
        form: "32 hexadecimal digits in groups of 8, 4, 4, 4 and 12, separated by hyphens",
        examples: &["123e4567-e89b-12d3-a456-426614174000"],
        only: None,
    },
    Format {
        names: &["semver", "semantic version"],
        called: "A semantic version",
        form: "`MAJOR.MINOR.PATCH`",
        examples: &["1.4.2"],
        only: None,
    },
];

/// Words before a name that call the value wrong.
const BEFORE: &[&str] = &[
    "invalid",
    "malformed",
    "bad",
    "not a valid",
    "not a",
    "unparsable",
];
/// Words after a name that call it wrong.
const AFTER: &[&str] = &["is invalid", "is malformed", "is not valid"];
/// Words that may follow the name and keep it the value's kind (`invalid
/// URL string`); any other makes a different thing (`malformed url
/// rule` is a routing rule, not a URL).
const TRAILING: &[&str] = &[
    "value",
    "string",
    "header",
    "format",
    "given",
    "specified",
    "provided",
];

/// The step that gives the written form of the kind of value the message
/// calls wrong, if it is one of [`FORMATS`].
pub(crate) fn step(cx: &Cx<'_>) -> Option<String> {
    let format = FORMATS
        .iter()
        .filter(|f| f.only.is_none_or(|l| l == cx.r.language))
        .find(|f| f.names.iter().any(|n| called_wrong(&cx.shown, n)))?;
    let examples: Vec<String> = format.examples.iter().map(|e| code(e)).collect();
    Some(format!(
        "{} is written as {}, for example {}: check the value given against that form.",
        format.called,
        format.form,
        examples.join(" or ")
    ))
}

/// Whether `text` (the message, holes written `…`) calls a `name` wrong
/// within one of its phrases: `invalid mimetype …`, `port is invalid: …`.
fn called_wrong(text: &str, name: &str) -> bool {
    let name = crate::family::words(name).join(" ");
    let lower = text.to_lowercase();
    lower
        .split(|c: char| ":,;.()\"'`…%[]{}".contains(c))
        .map(|phrase| crate::family::words(phrase).join(" "))
        .any(|phrase| {
            let padded = format!(" {phrase} ");
            let ends_kind = |rest: &str| {
                let next = rest.split_whitespace().next();
                next.is_none_or(|w| TRAILING.contains(&w))
            };
            BEFORE.iter().any(|b| {
                let marker = format!(" {b} {name} ");
                padded
                    .find(&marker)
                    .is_some_and(|at| ends_kind(&padded[at + marker.len()..]))
            }) || AFTER
                .iter()
                .any(|a| padded.contains(&format!(" {name} {a} ")))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrong(message: &str, name: &str) -> bool {
        called_wrong(message, name)
    }

    #[test]
    fn a_message_calls_a_kind_of_value_wrong() {
        assert!(wrong("invalid mimetype …", "mimetype"));
        assert!(wrong("… is not a valid URL", "url"));
        assert!(wrong("discovery: invalid URL", "url"));
        assert!(wrong("port is invalid: …", "port"));
        assert!(wrong("bad Content-Type header", "content-type"));
        // A compound of the name is another thing.
        assert!(!wrong("malformed url rule: …", "url"));
        // Naming the kind is not calling it wrong.
        assert!(!wrong("failed to listen on port …", "port"));
        assert!(!wrong("invalid request to url …", "url"));
    }
}
