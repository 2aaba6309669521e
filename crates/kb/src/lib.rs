//! The runtime knowledge base: the texts that standard libraries, runtimes
//! and the operating system print (errno's `strerror`, Go's `net` and `os`
//! errors, Python's exceptions, Node's system errors, Java's exceptions,
//! Rust's `io::ErrorKind`, OpenSSL's verification errors), each with what
//! it means, why it happens and what to do, as reviewed data files in
//! `data/`, one per runtime.
//!
//! Every text is written as a template (`{name}` is a value, `{err}` a
//! wrapped cause) and tagged with the runtime that prints it; the tests in
//! `tests/runtimes.rs` make each runtime print its texts and fail on any
//! text no runtime printed, so no entry is guessed.
//!
//! ```
//! let e = errdex_kb::get("errno/EADDRINUSE").unwrap();
//! assert!(e.texts.iter().any(|t| t.text == "Address already in use"));
//! assert!(!e.remedies.is_empty());
//! ```
#![deny(missing_docs)]

use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The data files, one per runtime, in the order their entries are listed.
pub const FILES: [(&str, &str); 7] = [
    ("errno", include_str!("../data/errno.toml")),
    ("go", include_str!("../data/go.toml")),
    ("python", include_str!("../data/python.toml")),
    ("node", include_str!("../data/node.toml")),
    ("java", include_str!("../data/java.toml")),
    ("rust", include_str!("../data/rust.toml")),
    ("openssl", include_str!("../data/openssl.toml")),
];

/// One thing a runtime reports, with every text it prints for it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `<file>/<name>`: `errno/EADDRINUSE`, `go/net.OpError`,
    /// `python/FileNotFoundError` (the file's name is added on load).
    pub key: String,
    /// The texts, each with the runtime that prints it.
    pub texts: Vec<Text>,
    /// What it means, in one or two sentences.
    pub meaning: String,
    /// Typical causes, most likely first.
    pub causes: Vec<String>,
    /// What to do, most likely to help first.
    pub remedies: Vec<Remedy>,
    /// The official documentation (the file's default when absent).
    #[serde(default)]
    pub docs: String,
    /// Where the texts and the advice come from (headers, manual pages,
    /// source files of the runtime).
    pub sources: Vec<String>,
}

/// A text as a runtime prints it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// The runtime that prints it: `c` (glibc), `go`, `python`, `node`,
    /// `java`, `rust`, `openssl`.
    pub by: String,
    /// The template: literal text, `{name}` for a value, `{err}` for a
    /// wrapped cause; `{{` and `}}` for braces.
    pub text: String,
}

/// One step to take.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Remedy {
    /// What to do, as a sentence.
    #[serde(rename = "do")]
    pub action: String,
    /// A command that does it or checks it, with UPPERCASE placeholders
    /// (`ss -ltnp 'sport = :PORT'`).
    #[serde(default)]
    pub run: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    docs: String,
    entry: Vec<Entry>,
}

/// The runtimes a text can be printed by (`Text::by`).
pub const RUNTIMES: [&str; 7] = ["c", "go", "python", "node", "java", "rust", "openssl"];

/// A standard-library call and the entries its errors can be.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// The runtime whose library it is (`go`).
    pub runtime: String,
    /// Import path and function (`net.Listen`, `os.Open`).
    pub name: String,
    /// Words of what the call does (`port`, `bind`): they pick an entry's
    /// cause and remedy for this call ([`Entry::cause_for`]).
    #[serde(default)]
    pub topic: Vec<String>,
    /// Keys of the entries its error can be, most likely first.
    pub causes: Vec<String>,
    /// Entries that need an argument that is no pointer
    /// (`json.Unmarshal(data, v)`): a call that passes `&v` there cannot
    /// fail with them.
    #[serde(default)]
    pub without_pointer: Option<WithoutPointer>,
}

/// Which argument, and which of a call's entries need it to be no pointer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithoutPointer {
    /// The argument's index, from 0.
    pub arg: usize,
    /// Keys of the entries.
    pub causes: Vec<String>,
}

/// The standard-library call of this name, if the knowledge base knows it.
pub fn call(runtime: &str, name: &str) -> Option<&'static Call> {
    calls()
        .iter()
        .find(|c| c.runtime == runtime && c.name == name)
}

/// The topic words of a standard-library call (`net.Listen` → `bind`,
/// `listen`, `port`); none for a call the knowledge base does not know.
pub fn topic(runtime: &str, name: &str) -> &'static [String] {
    call(runtime, name).map_or(&[], |c| c.topic.as_slice())
}

/// Of `items` (most likely first), the first when it names a `topic`
/// word or none does; else the first that names the first word any of
/// them names (case aside).
fn fitting<'a, T>(items: &'a [T], topic: &[String], text: impl Fn(&T) -> String) -> Option<&'a T> {
    let texts: Vec<String> = items.iter().map(|i| text(i).to_lowercase()).collect();
    let names = |t: &String| topic.iter().any(|w| t.contains(&w.to_lowercase()));
    if texts.first().is_some_and(names) {
        return items.first();
    }
    topic
        .iter()
        .find_map(|w| {
            let w = w.to_lowercase();
            texts.iter().position(|t| t.contains(&w))
        })
        .map(|i| &items[i])
        .or(items.first())
}

impl Entry {
    /// The cause that fits a call of this topic: the most likely one when
    /// it names a topic word, else the first that names the most telling
    /// word any cause names.
    pub fn cause_for(&self, topic: &[String]) -> Option<&str> {
        fitting(&self.causes, topic, Clone::clone).map(String::as_str)
    }

    /// The remedy that fits a call of this topic, the same way (its action
    /// and command read together).
    pub fn remedy_for(&self, topic: &[String]) -> Option<&Remedy> {
        fitting(&self.remedies, topic, |r| {
            format!("{} {}", r.action, r.run.as_deref().unwrap_or_default())
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallsFile {
    call: Vec<Call>,
}

/// Every standard-library call the cause graph knows (`data/calls.toml`).
pub fn calls() -> &'static [Call] {
    static ALL: OnceLock<Vec<Call>> = OnceLock::new();
    ALL.get_or_init(|| {
        toml::from_str::<CallsFile>(include_str!("../data/calls.toml"))
            .unwrap_or_else(|e| panic!("knowledge base file data/calls.toml: {e}"))
            .call
    })
}

/// The entries an error of a standard-library call can be, most likely
/// first (none for a call the knowledge base does not know).
pub fn causes_of(runtime: &str, name: &str) -> Vec<&'static Entry> {
    causes_of_call(runtime, name, &[])
}

/// [`causes_of`] for a call with `args` as written: entries the
/// arguments rule out are left out (`&v` where the call fails only
/// without a pointer).
pub fn causes_of_call(runtime: &str, name: &str, args: &[String]) -> Vec<&'static Entry> {
    calls()
        .iter()
        .filter(|c| c.runtime == runtime && c.name == name)
        .flat_map(|c| {
            let ruled_out = c.without_pointer.as_ref().filter(|w| {
                args.get(w.arg)
                    .is_some_and(|a| a.trim_start().starts_with('&'))
            });
            c.causes
                .iter()
                .filter(move |k| ruled_out.is_none_or(|w| !w.causes.contains(k)))
                .filter_map(|k| get(k))
        })
        .collect()
}

/// Every entry of every file, in file order.
pub fn entries() -> &'static [Entry] {
    static ALL: OnceLock<Vec<Entry>> = OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .flat_map(|(name, text)| parse(name, text))
            .collect()
    })
}

/// The entry with this key. Only the file the key names is read: an
/// index run asks for a few runtimes' entries, and reading all seven
/// files cost more than the rest of a re-index's cause graph.
pub fn get(key: &str) -> Option<&'static Entry> {
    type ByKey = HashMap<&'static str, &'static Entry>;
    static BY_FILE: [OnceLock<ByKey>; FILES.len()] = [const { OnceLock::new() }; FILES.len()];
    let (file, _) = key.split_once('/')?;
    let at = FILES.iter().position(|(name, _)| *name == file)?;
    BY_FILE[at]
        .get_or_init(|| {
            let (name, text) = FILES[at];
            // Kept for the process's life, as `entries` keeps its own.
            let kept: &'static [Entry] = Box::leak(parse(name, text).into_boxed_slice());
            kept.iter().map(|e| (e.key.as_str(), e)).collect()
        })
        .get(key)
        .copied()
}

/// Reads one data file; keys get the file's name in front and entries
/// without their own documentation link get the file's.
///
/// # Panics
/// On a file that does not parse: the files are compiled in and the
/// crate's tests parse each, so this is a build error, not a user's.
pub fn parse(name: &str, text: &str) -> Vec<Entry> {
    let file: File = toml::from_str(text)
        .unwrap_or_else(|e| panic!("knowledge base file data/{name}.toml: {e}"));
    file.entry
        .into_iter()
        .map(|mut e| {
            e.key = format!("{name}/{}", e.key);
            if e.docs.is_empty() {
                e.docs.clone_from(&file.docs);
            }
            e
        })
        .collect()
}

/// A remedy's command with its placeholders filled from values the code
/// fixes (`addr = 127.0.0.1:3986`): `ADDR`, `HOST` and `PORT` from an
/// address, `PATH` from a path. Placeholders without a value stay.
pub fn fill(command: &str, values: &[String]) -> String {
    let mut out = command.to_string();
    for v in values {
        let value = v.split_once(" = ").map_or(v.as_str(), |(_, x)| x).trim();
        if value.starts_with('/') {
            out = replace_word(&out, "PATH", value);
        } else if let Some((host, port)) = value.rsplit_once(':') {
            if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
                out = replace_word(&out, "ADDR", value);
                out = replace_word(&out, "PORT", port);
                let host = host.trim_start_matches('[').trim_end_matches(']');
                if !host.is_empty() {
                    out = replace_word(&out, "HOST", host);
                }
            }
        }
    }
    out
}

/// Replaces `word` where it stands alone (not inside `PORTS` or `XPORT`).
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + word.len()..].chars().next();
        let alone = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if alone(before) && alone(after) {
            with
        } else {
            word
        });
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text printed as it is.
    Lit(String),
    /// A value or, named `err`, a wrapped cause.
    Hole(&'a str),
}

/// Splits a template into literal text and holes.
pub fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        lit.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            lit.push_str(&tail[..1]);
            rest = &tail[2..];
        } else if let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) {
            if !lit.is_empty() {
                out.push(Piece::Lit(std::mem::take(&mut lit)));
            }
            out.push(Piece::Hole(&tail[1..end]));
            rest = &tail[end + 1..];
        } else {
            lit.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    lit.push_str(rest);
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    out
}

/// A template as a printf pattern and the names of its holes' values (the
/// form a site's message takes in the atlas): `{err}` becomes a `%s`
/// filled by `err`, which tracing reads as a wrapped cause.
pub fn printf(template: &str) -> (String, Vec<String>) {
    let mut pattern = String::new();
    let mut args = Vec::new();
    for p in pieces(template) {
        match p {
            Piece::Lit(l) => pattern.push_str(&l.replace('%', "%%")),
            Piece::Hole(name) => {
                pattern.push_str("%s");
                args.push(name.to_string());
            }
        }
    }
    (pattern, args)
}

/// Whether a text is what a template prints: its literal pieces in order,
/// each hole filled by at least one character (a cause by a whole text).
pub fn fits(template: &str, text: &str) -> bool {
    fits_from(&pieces(template), text)
}

fn fits_from(pieces: &[Piece<'_>], text: &str) -> bool {
    match pieces.split_first() {
        None => text.is_empty(),
        Some((Piece::Lit(l), rest)) => text
            .strip_prefix(l.as_str())
            .is_some_and(|t| fits_from(rest, t)),
        Some((Piece::Hole(_), rest)) => text
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain([text.len()])
            .filter(|&i| i > 0)
            .any(|i| fits_from(rest, &text[i..])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_argument_rules_out_the_errors_of_a_non_pointer() {
        let keys = |args: &[&str]| -> Vec<&str> {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            causes_of_call("go", "encoding/json.Unmarshal", &args)
                .iter()
                .map(|e| e.key.as_str())
                .collect()
        };
        assert!(keys(&["b", "v"]).contains(&"go/json.InvalidUnmarshalError"));
        let pointer = keys(&["b", "&vers"]);
        assert!(!pointer.contains(&"go/json.InvalidUnmarshalError"));
        assert!(pointer.contains(&"go/json.SyntaxError.value"));
        // What an argument rules out is one of the call's own entries.
        for c in calls() {
            for k in c.without_pointer.iter().flat_map(|w| &w.causes) {
                assert!(c.causes.contains(k), "{}: {k}", c.name);
            }
        }
    }

    #[test]
    fn templates_split_into_text_and_holes() {
        assert_eq!(
            pieces("listen {net} {addr}: {err}"),
            vec![
                Piece::Lit("listen ".into()),
                Piece::Hole("net"),
                Piece::Lit(" ".into()),
                Piece::Hole("addr"),
                Piece::Lit(": ".into()),
                Piece::Hole("err"),
            ]
        );
        assert_eq!(pieces("a {{b}} c"), vec![Piece::Lit("a {b} c".into())]);
        assert_eq!(
            printf("100% {what}: {err}"),
            (
                "100%% %s: %s".to_string(),
                vec!["what".into(), "err".into()]
            )
        );
    }

    #[test]
    fn a_text_fits_a_template_with_filled_holes() {
        let t = "listen {net} {addr}: {err}";
        assert!(fits(
            t,
            "listen tcp 127.0.0.1:3986: bind: address already in use"
        ));
        assert!(!fits(t, "listen tcp: bind"));
        assert!(!fits("{a} refused", " refused"));
        assert!(fits("[Errno {n}] {s}", "[Errno 111] Connection refused"));
        assert!(!fits("x", "x y"));
    }

    #[test]
    fn commands_are_filled_from_known_values() {
        let values = vec!["addr = 127.0.0.1:3986".to_string()];
        assert_eq!(
            fill("ss -ltnp 'sport = :PORT'", &values),
            "ss -ltnp 'sport = :3986'"
        );
        assert_eq!(
            fill("openssl s_client -connect HOST:PORT", &values),
            "openssl s_client -connect 127.0.0.1:3986"
        );
        assert_eq!(
            fill("ls -ld PATH", &["p = /etc/x".to_string()]),
            "ls -ld /etc/x"
        );
        assert_eq!(fill("echo PORTS PORT", &values), "echo PORTS 3986");
        assert_eq!(fill("ls -ld PATH", &values), "ls -ld PATH");
    }

    #[test]
    fn templates_are_distinct_and_findable() {
        let mut owner: HashMap<String, &str> = HashMap::new();
        for e in entries() {
            for t in &e.texts {
                let (pattern, _) = printf(&t.text);
                if let Some(other) = owner.insert(pattern.clone(), &e.key) {
                    assert_eq!(
                        other, e.key,
                        "{pattern:?} is both {other}'s and {}'s",
                        e.key
                    );
                }
                let literal: usize = pieces(&t.text)
                    .iter()
                    .map(|p| match p {
                        Piece::Lit(l) => l.chars().filter(|c| c.is_alphanumeric()).count(),
                        Piece::Hole(_) => 0,
                    })
                    .sum();
                assert!(
                    literal >= 3,
                    "{}: {:?} has too little text to be found",
                    e.key,
                    t.text
                );
                assert!(
                    !t.text.contains('\n'),
                    "{}: {:?} spans lines",
                    e.key,
                    t.text
                );
            }
        }
    }

    #[test]
    fn the_knowledge_base_has_at_least_300_entries() {
        assert!(entries().len() >= 300, "{} entries", entries().len());
    }

    #[test]
    fn every_call_names_existing_entries() {
        assert!(!calls().is_empty());
        for c in calls() {
            assert!(
                RUNTIMES.contains(&c.runtime.as_str()),
                "{}: {}",
                c.name,
                c.runtime
            );
            for k in &c.causes {
                assert!(get(k).is_some(), "{}: no entry {k}", c.name);
            }
        }
        assert_eq!(causes_of("go", "net.Listen")[0].key, "errno/EADDRINUSE");
        // `permission denied` from a listener is a low port, not a file.
        let listen = &call("go", "net.Listen").unwrap().topic;
        let eacces = get("errno/EACCES").unwrap();
        assert!(eacces
            .cause_for(listen)
            .unwrap()
            .contains("port below 1024"));
        assert!(eacces
            .remedy_for(listen)
            .unwrap()
            .action
            .contains("low port"));
        assert_eq!(
            eacces.cause_for(&[]),
            eacces.causes.first().map(String::as_str)
        );
    }

    #[test]
    fn every_file_parses_with_unique_keys_and_full_entries() {
        let mut keys = std::collections::HashSet::new();
        for e in entries() {
            assert!(keys.insert(e.key.as_str()), "{} twice", e.key);
            assert!(!e.texts.is_empty(), "{} has no text", e.key);
            assert!(!e.meaning.trim().is_empty(), "{} has no meaning", e.key);
            assert!(!e.causes.is_empty(), "{} has no cause", e.key);
            assert!(!e.remedies.is_empty(), "{} has no remedy", e.key);
            assert!(!e.sources.is_empty(), "{} has no source", e.key);
            assert!(e.docs.starts_with("https://"), "{}: {}", e.key, e.docs);
            for t in &e.texts {
                assert!(RUNTIMES.contains(&t.by.as_str()), "{}: by {}", e.key, t.by);
            }
        }
    }
}
