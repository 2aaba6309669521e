//! What a message asks of the person who meets it. Many messages state
//! their own remedy: `max inflight messages must be greater than 0`,
//! `'OrderedMultiDict' is deprecated … Use 'MultiDict' instead`, `Using
//! ad-hoc certificates requires the cryptography library`. That request,
//! tied to the value the code checks (a field of the receiver's type, a
//! parameter), is a concrete first step where the guard alone
//! (`c.MaxInflightMsgs <= 0`) only restates the condition.

mod questions;

use crate::prose::code;
use crate::Cx;
use errdex_model::Lang;
use questions::Question;

/// A request a message makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ask {
    /// A requirement on a value, as the message words it (`status code
    /// must be three digits`), and what it is about (`status code`).
    Must { subject: String, clause: String },
    /// A replacement: `Use 'MultiDict' instead`, with the name it
    /// replaces when the message says which is deprecated.
    Instead { old: Option<String>, new: String },
    /// A library the code needs (`requires the cryptography library`).
    Install(String),
    /// A question that suggests the step (`Did you mean 'user' instead?`).
    Question(Question),
    /// A kind or format refused for not being the one value the code
    /// takes (`the request Content-Type was not 'application/json'`).
    Only { subject: String, value: String },
}

/// Words that make a subject a kind or format a person picks, which a
/// refusal of all but one value (`… was not 'application/json'`) asks
/// for. Other subjects (`state is not 'running'`) may be no one's choice.
const CHOSEN: &[&str] = &[
    "type",
    "scheme",
    "format",
    "encoding",
    "charset",
    "mode",
    "method",
    "version",
    "algorithm",
    "protocol",
    "extension",
    "kind",
];

/// Words after `must`/`should` that make a statement about the code, not
/// a request (`should never fail`, `must not happen`).
const ASSERTIONS: &[&str] = &[
    "never",
    "not happen",
    "not be reached",
    "not occur",
    "have been",
    "be unreachable",
    "be impossible",
];

/// The requests `shown` (the message, holes written `…`) makes, in order.
pub(crate) fn asks(shown: &str) -> Vec<Ask> {
    let sentences = sentences(shown);
    let mut out = Vec::new();
    let deprecated = sentences.iter().find_map(|s| deprecated_name(s));
    for s in &sentences {
        if let Some(q) = questions::question(s) {
            out.push(Ask::Question(q));
        } else if let Some(new) = instead(s) {
            out.push(Ask::Instead {
                old: deprecated.clone().filter(|o| *o != new),
                new,
            });
        } else if let Some((subject, value)) = only_value(s) {
            out.push(Ask::Only { subject, value });
        } else if let Some(name) = library(s) {
            out.push(Ask::Install(name));
        } else if let Some((subject, clause)) = requirement(s) {
            out.push(Ask::Must { subject, clause });
        }
    }
    out
}

/// The message's sentences, each without its closing mark.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let next = text[i + c.len_utf8()..].chars().next();
        if matches!(c, '.' | '!' | '?' | ';') && next.is_none_or(char::is_whitespace) {
            out.push(text[start..i].trim());
            start = i + c.len_utf8();
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// Quotes and backticks around a name.
fn unquote(s: &str) -> String {
    s.trim()
        .trim_matches(|c| matches!(c, '\'' | '"' | '`' | '‘' | '’'))
        .to_string()
}

/// `X is deprecated …`: X.
fn deprecated_name(s: &str) -> Option<String> {
    let at = s.to_ascii_lowercase().find(" is deprecated")?;
    let name = s[..at].rsplit(' ').next()?;
    let name = unquote(name);
    (!name.is_empty() && name != "…").then_some(name)
}

/// `Use X instead` closing a sentence: X, or the quoted name in it
/// (`use '--logger=zap' flag instead`). Mid-sentence (`use the default
/// instead of …`) it tells what the code does, not what to do.
fn instead(s: &str) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let end = lower.strip_suffix(" instead")?.len();
    let start = if lower.starts_with("use ") {
        4
    } else {
        lower[..end].rfind(" use ").map(|at| at + 5)?
    };
    let phrase = &s[start..end];
    let name = quoted(phrase).unwrap_or_else(|| phrase.trim().to_string());
    (!name.is_empty() && name.split_whitespace().count() <= 4 && !name.contains('…'))
        .then_some(name)
}

/// `… because the request Content-Type was not 'application/json'`: the
/// subject (`the request Content-Type`) and the one value (a literal in
/// quotes closing the sentence), when the subject is a kind or format.
fn only_value(s: &str) -> Option<(String, String)> {
    let lower = s.to_ascii_lowercase();
    let (at, marker) = [" was not ", " is not "]
        .iter()
        .find_map(|m| Some((lower.rfind(m)?, *m)))?;
    let rest = s[at + marker.len()..].trim();
    let value = quoted(rest).filter(|v| rest.len() == v.len() + 2 && !v.contains('…'))?;
    let head = &s[..at];
    let start = ["because ", ": ", ", "]
        .iter()
        .filter_map(|m| head.rfind(m).map(|i| i + m.len()))
        .max()
        .unwrap_or(0);
    let subject = head[start..].trim();
    let words = crate::family::words(subject);
    let chosen = words
        .iter()
        .any(|w| w.split('-').any(|part| CHOSEN.contains(&part)));
    (chosen && words.len() <= 6).then(|| (subject.to_string(), value))
}

/// The first text in quotes or backticks in `s`.
fn quoted(s: &str) -> Option<String> {
    let open = s.find(['\'', '"', '`'])?;
    let mark = s[open..].chars().next()?;
    let len = s[open + 1..].find(mark)?;
    Some(s[open + 1..open + 1 + len].to_string()).filter(|q| !q.is_empty())
}

/// `requires the X library`, `the X module is required`: X.
fn library(s: &str) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let kinds = ["library", "module", "package"];
    let at = words.iter().position(|w| kinds.contains(w))?;
    let name = match words.get(at.checked_sub(1)?)? {
        &"the" | &"a" => return None,
        _ => s.split_whitespace().nth(at - 1)?,
    };
    let asked = words[..at - 1]
        .iter()
        .any(|w| *w == "requires" || *w == "require")
        || words[at + 1..].starts_with(&["is", "required"])
        || words[at + 1..].starts_with(&["is", "not", "installed"]);
    let name = unquote(name);
    (asked
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)))
    .then_some(name)
}

/// `X must be Y`, `X should Y`, `X is required`, `expected X to be Y`:
/// what it is about and the requirement as a clause (`X must be Y`).
fn requirement(s: &str) -> Option<(String, String)> {
    let lower = s.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("expected ") {
        let (subject, wanted) = rest.split_once(" to be ")?;
        let wanted = wanted.split(", got").next()?;
        return clause(&s[9..9 + subject.len()], "must be", wanted);
    }
    // A refusal (`… is not a package`, `'…' is not one of …`) states the
    // requirement the other way round.
    if let Some(at) = lower.find(" is not one of ") {
        return clause(&s[..at], "must be", "one of the values the message lists");
    }
    for article in ["a", "an"] {
        let marker = format!(" is not {article} ");
        if let Some(at) = lower.find(&marker) {
            let rest = format!("{article} {}", &s[at + marker.len()..]);
            return clause(&s[..at], "must be", &rest);
        }
    }
    for marker in [" must ", " should ", " needs to ", " has to "] {
        if let Some(at) = lower.find(marker) {
            let rest = &s[at + marker.len()..];
            if ASSERTIONS
                .iter()
                .any(|a| rest.to_ascii_lowercase().starts_with(a))
            {
                return None;
            }
            return clause(&s[..at], marker.trim(), rest);
        }
    }
    for marker in [" is required", " are required"] {
        if lower.ends_with(marker) {
            return clause(&s[..s.len() - marker.len()], marker.trim(), "");
        }
    }
    None
}

/// `subject verb rest` when the subject names something: a few words,
/// not only holes, after any `prefix: `; and the subject.
fn clause(subject: &str, verb: &str, rest: &str) -> Option<(String, String)> {
    let subject = subject.rsplit(": ").next()?.trim();
    let subject = subject.trim_matches(['\'', '"', '`']);
    // A subject that is one hole (`expected %q to be empty`) is the
    // argument that fills it, which `must` names.
    let says_what = rest
        .split_whitespace()
        .any(|w| w.chars().any(char::is_alphabetic) && !matches!(w, "be" | "a" | "an" | "the"));
    let named = subject.chars().any(char::is_alphabetic) || subject == "…" && says_what;
    let words = subject.split_whitespace().count();
    if !named || words > 8 || rest.trim() == "…" {
        return None;
    }
    let mut out = format!("{subject} {verb}");
    if !rest.trim().is_empty() {
        out.push(' ');
        out.push_str(rest.trim());
    }
    // A sentence's capital is the message's, not the clause's: a plain
    // word (`Status`) is lowered, a name (`URL`, `Etcd.Peer`) is not.
    let first_word = out.split_whitespace().next()?;
    let plain = first_word
        .chars()
        .skip(1)
        .all(|c| c.is_lowercase() && c.is_alphabetic());
    if !plain {
        return Some((subject.to_string(), out));
    }
    let mut chars = out.chars();
    let first = chars.next()?;
    Some((
        subject.to_string(),
        first.to_lowercase().chain(chars).collect(),
    ))
}

/// The solutions a record's requests give, first of all.
pub(crate) fn solutions(cx: &Cx<'_>) -> Vec<String> {
    asks(&cx.shown)
        .into_iter()
        .filter_map(|a| {
            Some(match a {
                Ask::Must { subject, clause } => must(cx, &subject, &clause)?,
                Ask::Instead {
                    old: Some(old),
                    new,
                } => format!(
                    "Replace {} with {} where your code uses it, as the message says.",
                    code(&old),
                    code(&new)
                ),
                Ask::Instead { old: None, new } => {
                    format!("Use {} instead, as the message says.", name_or_words(&new))
                }
                Ask::Install(name) => install(cx, &name),
                Ask::Question(q) => questions::solution(cx, &q),
                Ask::Only { subject, value } => {
                    format!("Make {subject} {}, as the message asks.", code(&value))
                }
            })
        })
        .collect()
}

/// A name as code, words (`a production WSGI server`) as they are.
fn name_or_words(s: &str) -> String {
    if s.contains(' ') {
        s.to_string()
    } else {
        code(s)
    }
}

/// Meeting a requirement: only where the person can act on it, because
/// the message names a flag or the code checks a value a caller gives
/// (a field of the receiver's type, a parameter) whose name shares a word
/// with the requirement's subject. Elsewhere a `must` states an invariant
/// (`revision from follower must be less than or equal to leader's`),
/// which no one meets by trying.
fn must(cx: &Cx<'_>, subject: &str, clause: &str) -> Option<String> {
    let (subject, clause) = match subject {
        "…" => {
            let name = hole_name(cx, clause)?;
            (name.clone(), clause.replacen('…', &code(&name), 1))
        }
        _ => (subject.to_string(), clause.to_string()),
    };
    let (subject, clause) = (subject.as_str(), clause.as_str());
    let asked = format!("Meet what the message asks for: {clause}.");
    let params = crate::asks::parameters(cx.f.signature.as_deref().unwrap_or_default());
    let Some(checked) = checked_value(cx, &params, subject) else {
        if let Some(step) = setter_step(cx, &params, subject, clause) {
            return Some(step);
        }
        let flag = crate::prose::flags(subject).into_iter().next()?;
        return Some(format!(
            "Give {} a value that meets what the message asks for: {clause}.",
            code(&flag)
        ));
    };
    // A guard of a known form gets its own action next.
    if crate::asks::action(checked.guard(), &cx.literal, &params).is_some() {
        return Some(asked);
    }
    let function = code(cx.function.or(cx.fname).unwrap_or_default());
    Some(match checked {
        Checked::Field { ty, field, guard } => format!(
            "{asked} Set {} accordingly ({function} checks {}).",
            code(&format!("{ty}.{field}")),
            code(guard)
        ),
        Checked::Parameter { name, guard } => format!(
            "{asked} Pass {} accordingly ({function} checks {}).",
            code(name),
            code(guard)
        ),
        Checked::Derived { origin, guard } => format!(
            "{asked} Pass {} accordingly ({function} checks {} on {}, which it computes from it: {}).",
            code(origin.param),
            code(guard),
            code(origin.local),
            origin.shown()
        ),
    })
}

/// A method named for the subject that takes one value (a property
/// setter, `def base_url(self, value)` for `base url must not contain …`):
/// the value assigned to it is what the message speaks of.
fn setter_step(cx: &Cx<'_>, params: &[&str], subject: &str, clause: &str) -> Option<String> {
    let function = cx.function?;
    let (owner, name) = function.rsplit_once('.')?;
    let values: Vec<&&str> = params.iter().filter(|p| **p != "self").collect();
    let [value] = values[..] else {
        return None;
    };
    let guard = cx.guards().into_iter().next()?;
    if !shares_a_word(&crate::family::words(subject), name) || name.starts_with('_') {
        return None;
    }
    Some(format!(
        "Meet what the message asks for: {clause}. Give {} a value accordingly ({} checks {} on the {} assigned to it).",
        code(&format!("{owner}.{name}")),
        code(function),
        code(guard),
        code(value)
    ))
}

/// The argument of the hole a clause starts with: the last hole of the
/// message before the clause's last word (`empty` in `expected … to be
/// empty, got …`).
fn hole_name(cx: &Cx<'_>, clause: &str) -> Option<String> {
    let last = clause.split_whitespace().last()?;
    // A refusal's subject is the last hole before its ` is not `.
    let at = cx.shown.find(last).or_else(|| cx.shown.find(" is not "))?;
    let index = cx.shown[..at].matches('…').count().checked_sub(1)?;
    cx.hole_names.get(index).cloned().flatten()
}

/// Installing a library the message says the code needs.
fn install(cx: &Cx<'_>, name: &str) -> String {
    let command = match cx.r.language {
        Lang::Python => Some(format!("pip install {name}")),
        Lang::JavaScript | Lang::TypeScript => Some(format!("npm install {name}")),
        _ => None,
    };
    let failed_import = cx.guards().iter().any(|g| {
        g.starts_with("except ") && (g.contains("ImportError") || g.contains("ModuleNotFoundError"))
    });
    let why = if failed_import {
        "the code raises this when importing it fails"
    } else {
        "the message says the code needs it"
    };
    match command {
        Some(command) => format!("Install {} ({}): {why}.", code(name), code(&command)),
        None => format!("Install {}: {why}.", code(name)),
    }
}

/// The value a guard checks, when a caller gives it.
enum Checked<'a> {
    /// A field of the method's receiver (`c.MaxInflightMsgs` in `func (c
    /// *Config) validate()`).
    Field {
        ty: &'a str,
        field: &'a str,
        guard: &'a str,
    },
    /// A parameter of the function.
    Parameter { name: &'a str, guard: &'a str },
    /// A local the function computes from a parameter.
    Derived {
        origin: crate::origins::Origin<'a>,
        guard: &'a str,
    },
}

impl Checked<'_> {
    fn guard(&self) -> &str {
        match self {
            Checked::Field { guard, .. }
            | Checked::Parameter { guard, .. }
            | Checked::Derived { guard, .. } => guard,
        }
    }
}

/// The first value a guard checks that a caller gives (a field of the
/// receiver, a parameter, a local computed from a parameter) and whose
/// name shares a word with `subject`.
fn checked_value<'a>(cx: &Cx<'a>, params: &[&'a str], subject: &str) -> Option<Checked<'a>> {
    let receiver_name = receiver_name(cx.f.signature.as_deref().unwrap_or_default());
    let subject = crate::family::words(subject);
    for guard in cx.guards() {
        for name in names(guard) {
            if let Some(derived) = derived(cx, params, &subject, guard, name) {
                return Some(derived);
            }
            let (root, rest) = name.split_once('.').unwrap_or((name, ""));
            let last = rest
                .rsplit('.')
                .next()
                .filter(|l| !l.is_empty())
                .unwrap_or(root);
            if !shares_a_word(&subject, last) {
                continue;
            }
            if let (Some(ty), Some(r)) = (cx.f.receiver.as_deref(), receiver_name) {
                if root == r && !rest.is_empty() && !rest.contains('.') {
                    return Some(Checked::Field {
                        ty,
                        field: rest,
                        guard,
                    });
                }
            }
            if rest.is_empty() && params.contains(&root) && Some(root) != receiver_name {
                return Some(Checked::Parameter { name: root, guard });
            }
        }
    }
    None
}

/// A local `name` of the primary site's guard `guard`, computed from a
/// parameter (never the receiver: [`Cx::origin_of`] leaves it out), when
/// the local or the parameter is what the subject speaks of.
fn derived<'a>(
    cx: &Cx<'a>,
    params: &[&'a str],
    subject: &[String],
    guard: &'a str,
    name: &'a str,
) -> Option<Checked<'a>> {
    if name.contains('.') || !cx.f.guards.iter().any(|g| g == guard) {
        return None;
    }
    let origin = cx.origin_of(name, params)?;
    let speaks_of = shares_a_word(subject, name) || shares_a_word(subject, origin.param);
    speaks_of.then_some(Checked::Derived { origin, guard })
}

/// Whether identifier `name` (`MaxInflightMsgs`, `peer_urls`) is what
/// the subject's words (`max inflight messages`) speak of: more than half
/// of its words are among them, a plural's `s` aside. One shared generic
/// word (`appliedIndex` for `first index of committed entry`) is not.
fn shares_a_word(subject: &[String], name: &str) -> bool {
    let stem = |w: &str| {
        w.strip_suffix('s')
            .filter(|s| s.len() >= 3)
            .unwrap_or(w)
            .to_string()
    };
    let subject: Vec<String> = subject.iter().map(|w| stem(w)).collect();
    let words = crate::family::identifier_words(name);
    let words: Vec<&str> = words.split([' ', '_']).filter(|w| !w.is_empty()).collect();
    let shared = words.iter().filter(|w| subject.contains(&stem(w))).count();
    2 * shared > words.len()
}

/// The receiver's name in a Go method's signature (`c` of `func (c
/// *Config) validate()`), or Python's `self`.
pub(crate) fn receiver_name(signature: &str) -> Option<&str> {
    if let Some(rest) = signature.strip_prefix("func") {
        // `(c *Config)`: a name and a type; `(*Server)` names none.
        let (receiver, _) = crate::go_code::group(rest.trim_start(), '(', ')')?;
        let mut parts = receiver.split_whitespace();
        let name = parts.next()?;
        return parts.next().is_some().then_some(name);
    }
    signature
        .starts_with("def ")
        .then(|| crate::asks::parameters(signature).first().copied())
        .flatten()
        .filter(|p| *p == "self")
}

/// The names and field paths a guard reads (`c.MaxInflightMsgs`, `port`),
/// not the calls it makes.
pub(crate) fn names(guard: &str) -> impl Iterator<Item = &str> {
    errdex_lang::guard_names(guard).into_iter()
}

/// What to do about a guard whose form says it: a type check
/// (`not isinstance(port, int)`), a value that is not set (`cert is
/// None`, `name == ""`), or an option that is off while the message says
/// something is not enabled (`not self.allow_redirects`).
pub(crate) fn action(g: &str, literal: &str, params: &[&str]) -> Option<String> {
    let normal = without_double_negation(g.trim());
    let g = normal.as_str();
    // Only what a caller gives: a parameter or a field of one (`self.x`).
    let given = |v: &str| {
        let root = v.split('.').next().unwrap_or(v);
        is_name(v) && (params.contains(&root) || matches!(root, "self" | "this" | "cls"))
    };
    if let Some(step) = expected_value(g, params) {
        return Some(step);
    }
    if let Some(step) = missing_key(g) {
        return Some(step);
    }
    if let Some(rest) = g.strip_prefix("not isinstance(") {
        let (value, types) = rest.strip_suffix(')')?.split_once(", ")?;
        if !given(value) {
            return None;
        }
        let types = types.trim_start_matches('(').trim_end_matches(')');
        return Some(format!(
            "Pass {} as {} (the code checks its type).",
            code(value),
            types.split(", ").map(code).collect::<Vec<_>>().join(" or ")
        ));
    }
    let unset = [" is None", " == nil", " == \"\"", " == ''"]
        .iter()
        .find_map(|s| g.strip_suffix(s))
        .or_else(|| g.strip_prefix("len(")?.strip_suffix(") == 0"));
    if let Some(value) = unset.filter(|v| given(v)) {
        return Some(format!(
            "Set {}: the code needs a value there and has none.",
            code(value)
        ));
    }
    let off = g
        .strip_prefix("not ")
        .or_else(|| g.strip_prefix('!'))
        .filter(|v| given(v) && v.contains('.'))?;
    let words = crate::family::words(literal);
    let says_off = ["enabled", "allowed", "disabled", "enable"]
        .iter()
        .any(|w| words.iter().any(|x| x == w));
    says_off.then(|| {
        format!(
            "Turn on {} if this is wanted: the code refuses while it is off.",
            code(off.rsplit('.').next().unwrap_or(off))
        )
    })
}

/// A lookup that finds nothing (`"content-disposition" not in headers`):
/// a key-like text the data must carry, or a character a value must
/// contain (`"/" not in value`).
fn missing_key(g: &str) -> Option<String> {
    let (key, container) = g.split_once(" not in ")?;
    let (key, container) = (key.trim(), container.trim());
    let text = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))?;
    if text.is_empty() || !is_name(container) || container.contains(['(', '[']) {
        return None;
    }
    let key_like = text.len() >= 2
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.".contains(c));
    Some(if key_like {
        format!(
            "Make sure {} holds {}: the code looks it up there and finds none.",
            code(container),
            code(key)
        )
    } else {
        format!(
            "Make {} contain {}: the code refuses it without.",
            code(container),
            code(key)
        )
    })
}

/// A negated test written as its plain form: `not (x is not None)` →
/// `x is None`, `!(x != nil)` → `x == nil`, `!(p == nil)` → `p != nil`.
pub(crate) fn without_double_negation(g: &str) -> String {
    let inner = g
        .strip_prefix("not (")
        .or_else(|| g.strip_prefix("!("))
        .and_then(|r| r.strip_suffix(')'))
        .filter(|r| !r.contains(['(', ')']) && !r.contains(" and ") && !r.contains(" or "));
    let Some(inner) = inner.filter(|r| !r.contains("&&") && !r.contains("||")) else {
        return g.to_string();
    };
    let pairs = [
        (" is not ", " is "),
        (" != ", " == "),
        (" !== ", " === "),
        (" is ", " is not "),
        (" === ", " !== "),
        (" == ", " != "),
    ];
    for (a, b) in pairs {
        if let Some((x, y)) = inner.split_once(a) {
            return format!("{x}{b}{y}");
        }
    }
    g.to_string()
}

/// A test that a value a caller gives differs from one fixed value
/// (`environ["wsgi.version"] != (1, 0)`): the step gives it that value.
fn expected_value(g: &str, params: &[&str]) -> Option<String> {
    let (value, want) = g.split_once(" != ").or_else(|| g.split_once(" !== "))?;
    let (value, want) = (value.trim(), want.trim());
    let root = value.split(['.', '[']).next().unwrap_or(value);
    let fixed = want.starts_with(['"', '\'', '(', '[']) && !want.contains(" if ")
        || want.parse::<f64>().is_ok()
        || matches!(want, "True" | "False" | "true" | "false");
    let literal_only = want
        .chars()
        .all(|c| c.is_alphanumeric() || " ,.()[]\"'-_/:".contains(c));
    (params.contains(&root) && fixed && literal_only && !value.contains('(')).then(|| {
        format!(
            "Give {} the value {}: the code expects exactly that.",
            code(value),
            code(want)
        )
    })
}

/// The parameter names of a signature as written (`def f(self, port:
/// int = 0)`, `func (s *S) f(ctx context.Context, name string)`, `void
/// f(String name)`): the name part of each comma-separated parameter.
pub(crate) fn parameters(signature: &str) -> Vec<&str> {
    use crate::go_code::{group, split_top};
    let name_first = signature.starts_with("func") || signature.starts_with("def");
    // Go's receiver comes first in its own parentheses.
    let rest = match signature
        .strip_prefix("func")
        .and_then(|r| group(r, '(', ')'))
    {
        Some((_, after)) => after,
        None => signature,
    };
    let Some((list, _)) = rest.find('(').and_then(|at| group(&rest[at..], '(', ')')) else {
        return Vec::new();
    };
    split_top(list)
        .into_iter()
        .filter_map(|p| {
            let head = p.trim_start_matches('*').split([':', '=']).next()?;
            let words: Vec<&str> = head.split_whitespace().collect();
            // Go and Python write the name first, C-like languages last.
            let name = if name_first {
                words.first()?
            } else {
                words.last()?
            };
            is_name(name).then_some(*name)
        })
        .collect()
}

/// A plain name or field path (`port`, `self.config.cert`).
fn is_name(v: &str) -> bool {
    !v.is_empty()
        && v.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests;
