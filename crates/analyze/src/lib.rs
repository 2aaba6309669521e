//! The static analyser: fills every prose and code field of a record from
//! the facts extraction gathered (the message, its template, and each
//! site's [`SiteFacts`]) and from nothing else. Deterministic and offline;
//! it always runs, and an LLM (errdex-llm) may later rewrite its prose
//! from the same facts.
//!
//! Each sentence is built from one fact and says which (`` `serveReadiness`
//! fails``, "the comment above the call says"), so a reader can check it
//! against the snippet. What is general knowledge about a family of errors
//! (what usually holds a port) is marked "usually".
//!
//! ```
//! use errdex_analyze::analyze_all;
//! # let mut records: Vec<errdex_model::Record> = Vec::new();
//! analyze_all(&mut records); // every record gets documentation, solutions, code, …
//! ```
#![deny(missing_docs)]

mod asks;
mod code;
pub mod family;
mod flagged;
mod formats;
mod given;
mod go_code;
mod idioms;
mod leaves;
mod lookups;
mod origins;
mod other_code;
mod prevention;
mod printed;
mod prose;
mod related;
mod returns;
mod reuse;
mod settings;
mod skipped;
mod translated;

use errdex_lang::Handling;
use errdex_model::{ErrorType, Hole, Record, Segment, Severity, SiteFacts, Template};
use family::Family;
use serde::{Deserialize, Serialize};

pub use reuse::{analysis_input, analyze_reusing};

/// The `analyzer` value of records the static analyser wrote.
pub const STATIC: &str = "static";

/// Handling strategies a record may name.
pub const STRATEGIES: &[&str] = &["try-catch", "type-guard", "validation", "retry", "fallback"];

/// The analysis of one record: its prose and code fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// What it means.
    pub documentation: String,
    /// What triggers it.
    pub trigger_scenarios: String,
    /// Where people meet it.
    pub common_situations: String,
    /// What to do, best first.
    pub solutions: Vec<String>,
    /// A before/after fix, when the facts show one.
    pub example_fix: Option<String>,
    /// One of [`STRATEGIES`].
    pub handling_strategy: String,
    /// Code that checks inputs before the call.
    pub validation_code: Option<String>,
    /// Code that recognises the error.
    pub type_guard: Option<String>,
    /// Code that handles it at the caller.
    pub try_catch_pattern: Option<String>,
    /// How to avoid it.
    pub prevention_tips: Vec<String>,
    /// Topic tags.
    pub tags: Vec<String>,
    /// The family slug.
    pub background_tag: String,
    /// How bad it is, judged by meaning.
    pub severity: Severity,
}

impl Analysis {
    /// Writes the analysis into `r`, naming who wrote it.
    pub fn apply(self, r: &mut Record, analyzer: &str) {
        r.documentation = Some(self.documentation);
        r.trigger_scenarios = Some(self.trigger_scenarios);
        r.common_situations = Some(self.common_situations);
        r.solutions = self.solutions;
        r.example_fix = self.example_fix;
        r.handling_strategy = Some(self.handling_strategy);
        r.validation_code = self.validation_code;
        r.type_guard = self.type_guard;
        r.try_catch_pattern = self.try_catch_pattern;
        r.prevention_tips = self.prevention_tips;
        r.tags = self.tags;
        r.background_tag = Some(self.background_tag);
        r.severity = self.severity;
        r.analyzer = Some(analyzer.to_string());
    }
}

/// Analyses every record and links related ones. Records of several
/// repositories may be mixed: relations stay within a repository.
pub fn analyze_all(records: &mut [Record]) {
    use rayon::prelude::*;
    // Records are analysed independently; relations need every record's
    // family, which the analyses give.
    let analyses: Vec<Analysis> = records.par_iter().map(analyze).collect();
    let families: Vec<&str> = analyses.iter().map(|a| a.background_tag.as_str()).collect();
    let related = related::related(records, &families);
    for ((r, a), rel) in records.iter_mut().zip(analyses).zip(related) {
        a.apply(r, STATIC);
        r.related_errors = rel;
    }
}

/// Words of a message, or of the call it wraps, that name data in a
/// format: the parse-error family's advice (check the file with a tool
/// for its format, look for truncation, version the format) is about
/// such data. `malformed url rule` or `syntax error in pattern` says no
/// more than that some text did not parse: often a string the program's
/// own user wrote in code, which no file tool checks.
const DATA_WORDS: &[&str] = &[
    "json",
    "yaml",
    "toml",
    "xml",
    "csv",
    "proto",
    "wiretype",
    "wire type",
    "illegal tag",
    "unmarshal",
    "decod",
    "unexpected eof",
    "unexpected end",
    "invalid character",
    "file",
    "config",
    "header",
    "body",
    "payload",
    "request",
    "response",
    "snapshot",
    "record",
    "token",
    "stream",
    "encoding",
    "frame",
];

/// Whether a parse error is about data in a format ([`DATA_WORDS`]).
fn reads_data(r: &Record, literal: &str) -> bool {
    let literal = literal.to_lowercase();
    let facts = &r.sites[0].facts;
    let call = facts
        .wrapped_call
        .as_deref()
        .unwrap_or_default()
        .to_lowercase();
    let guards = facts.guards.join(" ").to_lowercase();
    DATA_WORDS
        .iter()
        .any(|w| literal.contains(w) || call.contains(w) || guards.contains(w))
}

/// Analyses one record.
pub fn analyze(r: &Record) -> Analysis {
    let cx = Cx::new(r);
    Analysis {
        documentation: prose::documentation(&cx),
        trigger_scenarios: prose::triggers(&cx),
        common_situations: prose::situations(&cx),
        solutions: prose::solutions(&cx),
        example_fix: code::example_fix(&cx),
        handling_strategy: cx.strategy().to_string(),
        validation_code: code::validation(&cx),
        type_guard: code::type_guard(&cx),
        try_catch_pattern: code::try_catch(&cx),
        prevention_tips: prevention::prevention(&cx),
        tags: cx.tags(),
        background_tag: cx.family.slug.to_string(),
        severity: cx.severity(),
    }
}

/// The family a record falls in (by its words, then its wrapped call's).
pub fn family_of(r: &Record) -> &'static Family {
    Cx::new(r).family
}

/// The family of a record by its status, its literal words, then its
/// wrapped call's name, and whether a phrase told it (see
/// [`family::classify_telling`]).
fn family_of_words(r: &Record, literal: &str) -> (&'static Family, bool) {
    let site = &r.sites[0];
    let wrapped = site
        .facts
        .wrapped_call
        .as_deref()
        .map(family::identifier_words)
        .unwrap_or_default();
    // An error class whose name tells a family (`UnsupportedMediaType`)
    // says what the failure is better than a format the message names
    // (`… Content-Type was not 'application/json'`).
    let class = site
        .error_class
        .as_deref()
        .map(family::identifier_words)
        .map(|words| family::classify_telling(&[words.as_str()]))
        // `unsupported`'s advice (versions, optional features) needs the
        // message's words, not a class name, to apply.
        .filter(|(f, telling)| *telling && f.slug != "unsupported");
    let (family, telling) = match r.http_status.and_then(family::by_status) {
        Some(f) => (f, true),
        None => class.unwrap_or_else(|| {
            family::classify_telling(&[&family::failure_words(literal), wrapped.as_str()])
        }),
    };
    // A panic outside `main` says the code met a state its author ruled
    // out; input families ("fix the flag") would mislead. In `main` it is
    // often how a command rejects its arguments.
    let invariant = r.error_type == ErrorType::Panic
        && !site.facts.in_main
        && (!telling
            || matches!(
                family.slug,
                "invalid-argument" | "operation-failed" | "unsupported"
            ));
    if invariant {
        (&family::BROKEN_INVARIANT, telling)
    } else {
        (family, telling)
    }
}

/// Words that say an operation failed, which a clean-shutdown or
/// cancellation message does not contain.
const FAILURE_WORDS: &[&str] = &[
    "fail", "failed", "failure", "error", "unable", "cannot", "can't", "could", "couldn't",
];

/// What the analysis of one record works from.
pub(crate) struct Cx<'a> {
    r: &'a Record,
    /// The primary site's facts.
    f: &'a SiteFacts,
    /// `Type.method` or `func`.
    function: Option<&'a str>,
    /// The function's own name (`method`).
    fname: Option<&'a str>,
    /// The first chain hole (a wrapped error) and the literal text before
    /// it.
    chain: Option<(Hole, String)>,
    /// Literal words of the message.
    literal: String,
    /// The message as a reader sees it, each hole written `…`.
    shown: String,
    /// Each hole's argument when it is a plain name (`dir` in `expected %q
    /// to be empty`), in order: what a requirement about a hole is about.
    hole_names: Vec<Option<String>>,
    family: &'static Family,
    /// Whether the family's general sentences apply (see [`Cx::advice`]).
    advice: bool,
    /// What a construct tells of the error (see [`idioms`]).
    idiom: Option<idioms::Idiom>,
}

impl<'a> Cx<'a> {
    fn new(r: &'a Record) -> Cx<'a> {
        let site = &r.sites[0];
        let template: Template = errdex_lang::language(r.language).template(
            &r.message_pattern,
            &site.args,
            &site.callee,
        );
        let mut chain = None;
        let mut before = String::new();
        let mut literal = String::new();
        let mut shown = String::new();
        let mut hole_names = Vec::new();
        for s in &template.segments {
            match s {
                Segment::Lit(l) => {
                    before.push_str(l);
                    literal.push_str(l);
                    literal.push(' ');
                    shown.push_str(l);
                }
                Segment::Hole(h) => {
                    if h.chain && chain.is_none() {
                        chain = Some((h.clone(), before.clone()));
                    } else {
                        before.push_str(&h.verb);
                    }
                    shown.push('…');
                    hole_names.push(h.arg.clone().filter(|a| is_plain_name(a)));
                }
            }
        }
        let function = site.function.as_deref();
        let (family, telling) = family_of_words(r, &literal);
        let idiom = idioms::of(r);
        // What a family says of the environment is told only by a phrase
        // that names it; a hint gives the tag, not the advice. Input and
        // format families and clean stops say nothing of the environment.
        let advice = idiom.is_none()
            && family.slug != family::FALLBACK.slug
            && (family.slug != "parse-error" || reads_data(r, &literal))
            && (telling
                || family.expected
                || matches!(
                    family.slug,
                    "invalid-argument" | "parse-error" | "broken-invariant"
                ));
        Cx {
            r,
            f: &site.facts,
            function,
            fname: function.map(|f| f.rsplit('.').next().unwrap_or(f)),
            chain,
            literal,
            shown,
            hole_names,
            family,
            advice,
            idiom,
        }
    }

    /// What the record is called in prose: a log line below warning
    /// (a start-up banner) is a message, not an error.
    fn noun(&self) -> &'static str {
        if self.r.error_type == ErrorType::Log && self.r.severity > Severity::Warning {
            "message"
        } else {
            "error"
        }
    }

    /// The family, when its general advice applies to this record.
    fn advice(&self) -> Option<&'static Family> {
        self.advice.then_some(self.family)
    }

    /// Where local `name`, read by a guard of the primary site, gets its
    /// value, when one of `params` gives it ([`origins::origin`]).
    fn origin_of(&self, name: &'a str, params: &[&'a str]) -> Option<origins::Origin<'a>> {
        let site = &self.r.sites[0];
        // The receiver is the object's state, which no caller hands in.
        let receiver = crate::asks::receiver_name(self.f.signature.as_deref().unwrap_or_default());
        let params: Vec<&str> = (params.iter().copied())
            .filter(|p| !matches!(*p, "self" | "cls" | "this") && Some(*p) != receiver)
            .collect();
        origins::origin(
            &self.r.source_code,
            self.r.source_code_start,
            site.line_number,
            self.fname?,
            name,
            &params,
        )
    }

    /// Guards other than the plain `err != nil` test, across all sites,
    /// each once.
    fn guards(&self) -> Vec<&'a str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.r.sites {
            for g in causes(&s.facts.guards, &s.callee) {
                if !out.contains(&g) {
                    out.push(g);
                }
            }
        }
        out
    }

    /// The site is in the method that gives a type its text (Go's
    /// `Error`, Python's `__str__`, Java's `toString`/`getMessage`): it
    /// formats the text, it does not fail.
    /// A Python warning (`warnings.warn(…)`) at every site: issued to
    /// the warnings filters, neither logged nor raised.
    pub(crate) fn is_warning(&self) -> bool {
        self.r.language == errdex_model::Lang::Python
            && self.r.error_type == ErrorType::Log
            && self
                .r
                .sites
                .iter()
                .all(|s| matches!(s.callee.as_str(), "warnings.warn" | "warn"))
    }

    pub(crate) fn is_text_method(&self) -> bool {
        self.f.receiver.is_some() && self.function.is_some_and(is_text_method)
    }

    fn says_failure(&self) -> bool {
        family::words(&self.literal)
            .iter()
            .any(|w| FAILURE_WORDS.contains(&w.as_str()))
    }

    /// A clean stop rather than a fault: the family is expected, and the
    /// message neither wraps a cause nor says something failed.
    fn is_expected(&self) -> bool {
        self.idiom.as_ref().is_some_and(|i| i.expected)
            || self.family.expected && self.chain.is_none() && !self.says_failure()
    }

    fn severity(&self) -> Severity {
        match self.r.error_type {
            ErrorType::Panic | ErrorType::Exit => Severity::Critical,
            _ if self.is_expected() => Severity::Info,
            _ => self.r.severity,
        }
    }

    /// How the record's language handles errors.
    pub(crate) fn handling(&self) -> Handling {
        errdex_lang::language(self.r.language)
            .conventions()
            .handling
    }

    /// A sentinel variable (`ErrX`, `errX`) rather than an error type.
    fn sentinel(&self) -> Option<&'a str> {
        if !matches!(self.handling(), Handling::ErrorValues) {
            // Elsewhere an error class is a type, caught by type.
            return None;
        }
        let c = self.r.error_class.as_deref()?;
        let name = c.rsplit('.').next().unwrap_or(c);
        (name.starts_with("Err") || name.starts_with("err")).then_some(c)
    }

    /// An error type (`PathError`), when the class is not a sentinel.
    fn error_type_name(&self) -> Option<&'a str> {
        let c = self.r.error_class.as_deref()?;
        self.sentinel().is_none().then_some(c)
    }

    /// A panic, an exit, or a fatal log: the program (or goroutine) stops
    /// and no caller gets an error value to handle.
    fn stops_program(&self) -> bool {
        matches!(self.r.error_type, ErrorType::Panic | ErrorType::Exit)
            || (self.r.error_type == ErrorType::Log && self.r.severity == Severity::Critical)
            || self.exit_after().is_some()
    }

    /// The statement that ends the program after every site
    /// ([`SiteFacts::exits_after`]), the primary site's.
    fn exit_after(&self) -> Option<&'a str> {
        let all = self.r.sites.iter().all(|s| s.facts.exits_after.is_some());
        all.then_some(self.f.exits_after.as_deref()).flatten()
    }

    /// Whether the error goes back to the caller of the function.
    fn returned(&self) -> bool {
        self.r.error_type == ErrorType::Exception && self.f.returned
    }

    /// Every site wraps a call that never fails: nothing to handle.
    pub(crate) fn cannot_happen(&self) -> bool {
        self.r
            .sites
            .iter()
            .all(|s| s.facts.wrapped_never_fails.is_some())
    }

    /// Every site returns the error to callers, and each caller stops the
    /// program with it (`panic(err.Error())`): code that catches it never
    /// runs; only preventing the condition helps. (A warning logged on
    /// the way is not what the callers stop on.)
    pub(crate) fn stopped_by_callers(&self) -> bool {
        self.r
            .sites
            .iter()
            .all(|s| s.facts.callers_stop.is_some() && s.facts.returned)
    }

    fn strategy(&self) -> &'static str {
        // Nothing catches a warning as an error: prevent its condition.
        if self.cannot_happen() || self.stopped_by_callers() || self.is_warning() {
            return "validation";
        }
        if self.is_expected() || self.r.error_class.is_some() {
            "type-guard"
        } else if self.stops_program() {
            // Nothing downstream can handle it: prevent the condition.
            "validation"
        } else if self.r.error_type == ErrorType::Log {
            "fallback"
        } else if self.advice().is_some_and(|f| f.transient) {
            "retry"
        } else if code::validation(self).is_some() {
            "validation"
        } else {
            "try-catch"
        }
    }

    fn tags(&self) -> Vec<String> {
        let mut t: Vec<String> = vec![
            self.family.slug.to_string(),
            self.r.error_type.as_str().to_string(),
        ];
        if let Some(p) = &self.f.package {
            t.push(format!("package-{}", kebab(p)));
        }
        let flags = [
            (self.chain.is_some(), "wrapped-error"),
            (self.sentinel().is_some(), "sentinel"),
            (self.error_type_name().is_some(), "typed-error"),
            (!self.f.checked_at.is_empty(), "checked-by-callers"),
            (self.r.sites.iter().any(|s| s.facts.in_loop), "in-loop"),
            (self.f.http_handler, "http-handler"),
            (self.f.in_main, "main"),
            (self.r.http_status.is_some(), "http-status"),
        ];
        t.extend(flags.iter().filter(|f| f.0).map(|f| f.1.to_string()));
        if let Some(status) = self.r.http_status {
            t.push(format!("http-{status}"));
        }
        t.dedup();
        t
    }
}

/// Whether `function` (`Type.method`) is the method that gives a type
/// its text.
pub(crate) fn is_text_method(function: &str) -> bool {
    function.rsplit_once('.').is_some_and(|(_, m)| {
        matches!(
            m,
            "Error" | "__str__" | "__repr__" | "toString" | "getMessage" | "message"
        )
    })
}

/// The guards of a site that say why it fails: not `err != nil` (the
/// wrapped call says that better) and not a test of which logger to use
/// (`if lg != nil { lg.Warn(…) } else { plog.Warning(…) }`), which picks
/// how the message is printed, not whether.
pub(crate) fn causes<'g>(guards: &'g [String], callee: &str) -> impl Iterator<Item = &'g str> {
    let receiver = callee.rsplit_once('.').map(|(r, _)| r.to_string());
    guards
        .iter()
        .map(String::as_str)
        .filter(move |g| !is_err_check(g) && !is_logger_check(g, receiver.as_deref()))
}

/// `lg != nil`, `!(s.logger == nil)`, or a nil test of the callee's
/// receiver.
fn is_logger_check(g: &str, receiver: Option<&str>) -> bool {
    let g = g.trim();
    let g = g
        .strip_prefix("!(")
        .and_then(|g| g.strip_suffix(')'))
        .unwrap_or(g);
    let Some(x) = g
        .strip_suffix("!= nil")
        .or_else(|| g.strip_suffix("== nil"))
        .map(str::trim)
    else {
        return false;
    };
    receiver == Some(x) || errdex_lang::is_logger_name(x)
}

/// `err != nil` and its kin: they say an earlier call failed, which the
/// wrapped call says better.
pub(crate) fn is_err_check(g: &str) -> bool {
    let g = g.trim();
    let g = g
        .strip_prefix("!(")
        .and_then(|g| g.strip_suffix(')'))
        .unwrap_or(g);
    let Some(lhs) = g
        .strip_suffix("!= nil")
        .or_else(|| g.strip_suffix("== nil"))
        .map(str::trim)
    else {
        return false;
    };
    let last = lhs.rsplit('.').next().unwrap_or(lhs).to_ascii_lowercase();
    last == "e" || last.ends_with("err") || last.ends_with("error")
}

/// A guard that is a bare local flag (`logerr`, `!bootstrap`): a
/// mode the caller chose, not a cause to investigate.
pub(crate) fn is_mode_flag(g: &str) -> bool {
    let g = g.trim().trim_start_matches('!');
    let g = g
        .strip_prefix('(')
        .and_then(|g| g.strip_suffix(')'))
        .unwrap_or(g);
    // A field (`d.busy`) is state the message may well be about.
    !g.is_empty() && g.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A file written by a generator (`.pb.go`, `zz_generated`): fixes belong
/// in the generator's input, not in the file.
pub(crate) fn is_generated(path: &str) -> bool {
    path.ends_with(".pb.go")
        || path.ends_with(".pb.gw.go")
        || path.contains("zz_generated")
        || path
            .rsplit('/')
            .next()
            .is_some_and(|f| f.starts_with("generated"))
}

/// A name as code writes it (`dir`, `c.Name`): what a hole printing it
/// is about.
pub(crate) fn is_plain_name(a: &str) -> bool {
    !a.is_empty()
        && a.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && a.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// Lowercase, `-`-separated.
pub(crate) fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in family::identifier_words(s).chars() {
        out.push(if c.is_alphanumeric() { c } else { '-' });
    }
    out
}
