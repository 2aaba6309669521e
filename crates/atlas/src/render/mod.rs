//! One renderer of a record, in the seed page's order, for every output.
//!
//! "The seed" is the reference system's error page and JSON record that
//! errdex reproduces (kept in `shared/seeds/`): its page shows an error's
//! message, what it means, its source, solutions, an example fix,
//! defensive patterns, when it happens, prevention, all sites, related
//! errors and where the analysis came from, in that order.
//!
//! [`render`] walks those sections once, in that order, and hands each to
//! a [`Sink`]; a sink decides how a section looks in its output and, where
//! its output has no place for it, leaves it out. Three sinks exist: HTML
//! ([`html()`]), the terminal ([`terminal()`]) and markdown ([`markdown()`]).

pub mod html;
pub mod markdown;
pub mod terminal;

pub use html::html;
pub use markdown::markdown;
pub use terminal::terminal;

use errdex_model::{Cause, Record, RelatedError, Site};

/// What a record's sections become in one output. Every section is a
/// required method, so a new output says what it does with each.
pub trait Sink {
    /// The message and what kind of error it is.
    fn heading(&mut self, r: &Record);
    /// What it means (present when the record has documentation).
    fn meaning(&mut self, documentation: &str);
    /// The primary site with its snippet and link.
    fn source(&mut self, r: &Record);
    /// The versions that print it (present for a repository indexed over
    /// history): [`presence`] and where it was in each range.
    fn versions(&mut self, r: &Record);
    /// Where the error it wraps comes from (present when any cause is
    /// known).
    fn caused_by(&mut self, causes: &[CauseView]);
    /// What to do, best first (present when there is at least one).
    fn solutions(&mut self, solutions: &[String]);
    /// A before/after fix (present when the record has one).
    fn example_fix(&mut self, fix: &str);
    /// The handling strategy and code that validates, recognises or
    /// handles the error, titled; always called, as outputs differ on
    /// whether a strategy alone makes the section.
    fn defensive(&mut self, strategy: Option<&str>, patterns: &[(&str, Option<&str>)]);
    /// What triggers it and where people meet it (present when either is).
    fn when(&mut self, trigger: Option<&str>, situations: Option<&str>);
    /// How to avoid it (present when there is at least one tip).
    fn prevention(&mut self, tips: &[String]);
    /// Every site, primary first; always called.
    fn sites(&mut self, sites: &[Site]);
    /// Related errors as the record names them, and those of them the
    /// atlas holds (present when the record names any).
    fn related(&mut self, named: &[RelatedError], held: &[Record]);
    /// The family and the other tags (present when there is a family).
    fn family(&mut self, family: &str, other_tags: &[String]);
    /// Who analysed it, of which commit, when; and where the data is.
    fn provenance(&mut self, r: &Record);
}

/// Walks `r`'s sections in the seed page's order into `sink`; `related`
/// holds the related records the atlas still has.
pub fn render(r: &Record, related: &[Record], sink: &mut impl Sink) {
    sink.heading(r);
    if let Some(d) = &r.documentation {
        sink.meaning(d);
    }
    sink.source(r);
    if r.first_seen.is_some() {
        sink.versions(r);
    }
    if !r.causes.is_empty() {
        let views: Vec<CauseView> = r.causes.iter().map(CauseView::of).collect();
        sink.caused_by(&views);
    }
    if !r.solutions.is_empty() {
        sink.solutions(&r.solutions);
    }
    if let Some(fix) = &r.example_fix {
        sink.example_fix(fix);
    }
    sink.defensive(
        r.handling_strategy.as_deref(),
        &[
            ("Validation", r.validation_code.as_deref()),
            ("Type guard", r.type_guard.as_deref()),
            ("Handling", r.try_catch_pattern.as_deref()),
        ],
    );
    if r.trigger_scenarios.is_some() || r.common_situations.is_some() {
        sink.when(
            r.trigger_scenarios.as_deref(),
            r.common_situations.as_deref(),
        );
    }
    if !r.prevention_tips.is_empty() {
        sink.prevention(&r.prevention_tips);
    }
    sink.sites(&r.sites);
    if !r.related_errors.is_empty() {
        sink.related(&r.related_errors, related);
    }
    if let Some(f) = &r.background_tag {
        let others: Vec<String> = r.tags.iter().filter(|t| *t != f).cloned().collect();
        sink.family(f, &others);
    }
    sink.provenance(r);
}

/// Which versions print a record, as every output says it: `present in
/// v1.2.0 – v1.9.3, removed in v1.10.0`, or `present in v1.2.0 – v1.9.3
/// (the newest indexed)`; `None` outside history runs.
pub fn presence(r: &Record) -> Option<String> {
    let (first, last) = (r.first_seen.as_deref()?, r.last_seen.as_deref()?);
    let span = if first == last {
        format!("present in {first}")
    } else {
        format!("present in {first} – {last}")
    };
    Some(match &r.removed_in {
        Some(gone) => format!("{span}, removed in {gone}"),
        None => format!("{span} (the newest indexed)"),
    })
}

/// A version range as every output lists it: `v1.2.0 – v1.9.3` or `v1.2.0`.
pub fn range_name(v: &errdex_model::VersionRange) -> String {
    if v.from == v.to {
        v.from.clone()
    } else {
        format!("{} – {}", v.from, v.to)
    }
}

/// A cause as every output shows it: the text, where it is printed or
/// where the failing call is, the calls that lead there, the values the
/// code fixes, and for a runtime text what it means and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CauseView<'a> {
    /// The cause's pattern or the runtime's text.
    pub text: &'a str,
    /// The record that prints it.
    pub record_id: Option<&'a str>,
    /// `file:line` of the site, or of the failing call.
    pub place: String,
    /// The calls from the record's site, `a → b → c`.
    pub via: String,
    /// `addr = 127.0.0.1:3986`, comma separated.
    pub values: String,
    /// For a runtime text: its knowledge-base entry.
    pub knowledge: Option<&'static errdex_kb::Entry>,
    /// For a runtime text: the first remedy and its command, filled from
    /// the values.
    pub remedy: Option<(&'static str, Option<String>)>,
}

impl<'a> CauseView<'a> {
    /// The view of a stored cause.
    pub fn of(c: &'a Cause) -> CauseView<'a> {
        let knowledge = c.knowledge.as_deref().and_then(errdex_kb::get);
        let topic = c
            .path
            .last()
            .map_or(&[][..], |name| errdex_kb::topic("go", name));
        let remedy = knowledge.and_then(|e| e.remedy_for(topic)).map(|r| {
            let run = r.run.as_deref().map(|cmd| errdex_kb::fill(cmd, &c.values));
            (r.action.as_str(), run)
        });
        CauseView {
            text: &c.message_pattern,
            record_id: c.record_id.as_deref(),
            place: format!("{}:{}", c.file_path, c.line_number),
            via: c.path.join(" → "),
            values: c.values.join(", "),
            knowledge,
            remedy,
        }
    }

    /// One line: the text, and where it comes from.
    pub fn summary(&self) -> String {
        let mut s = match self.knowledge {
            Some(e) => format!("{} ({}, from `{}`)", self.text, e.key, self.via),
            None => format!("{} ({}, via `{}`)", self.text, self.place, self.via),
        };
        if !self.values.is_empty() {
            s.push_str(&format!(" with {}", self.values));
        }
        s
    }
}

/// The first `n` characters of a commit hash, as pages show it.
fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

#[cfg(test)]
mod tests;
