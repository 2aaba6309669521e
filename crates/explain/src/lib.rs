//! Explaining raw error text against the atlas. An [`Explainer`] is built
//! once from the store's records (every site's pattern parsed into a
//! template by its language) and then explains lines: prefixes stripped,
//! every part traced, frames answered with their candidate sites and a
//! verdict. The CLI's `explain --json` and the HTTP API answer the same
//! [`Explanation`].
//!
//! ```
//! use errdex_explain::{Explainer, Verdict};
//! let ex = Explainer::new(vec![]);
//! assert_eq!(ex.explain("anything").verdict, Verdict::Unknown);
//! ```
#![deny(missing_docs)]

pub mod cache;
mod class_text;
mod closed;
mod continuation;
mod decoration;
mod json;
mod knowledge;
mod links;
mod neighbours;
mod outparams;
mod platform;
mod raised;
mod reading;
mod records;
mod ruled_out;

use decoration::{markdown_inner, single_spaced, without_colours};
use errdex_lang::language;
pub use errdex_match::stack;
use errdex_match::stack::{Role, StackLine};
use errdex_match::{prefix, Hints, TemplateSet, TemplateSetBuilder};
use errdex_store::{TraceRow, TraceSite};
pub use knowledge::Knowledge;
use reading::{Answer, Gather, PartTrace, Reading};
use records::Records;
pub use records::{RecordView, SiteView};
use serde::Serialize;

/// What can go wrong in this crate: only reading the atlas it explains
/// against (explaining itself cannot fail, and a trace cache that cannot be
/// read or written only costs a rebuild).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store could not give the records.
    #[error(transparent)]
    Store(#[from] errdex_store::Error),
}

/// This crate's results.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How well a line is explained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every layer traced to one site each.
    Traced,
    /// Some layers traced, some text unexplained.
    Partial,
    /// A layer matches several sites equally well.
    Ambiguous,
    /// Nothing in the atlas produces this text.
    Unknown,
}

impl Verdict {
    /// Whether this verdict explains a line better than `other`: traced
    /// over anything else, anything over unknown.
    pub fn better_than(self, other: Verdict) -> bool {
        self != other && (self == Verdict::Traced || other == Verdict::Unknown)
    }

    /// The verdict as `--json` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Traced => "traced",
            Verdict::Partial => "partial",
            Verdict::Ambiguous => "ambiguous",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A candidate site of a frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateOut<'a> {
    /// Record id.
    pub id: &'a str,
    /// `owner/name`.
    pub repo: &'a str,
    /// Record slug.
    pub slug: &'a str,
    /// The record's pattern.
    pub message_pattern: &'a str,
    /// The site's file.
    pub file_path: &'a str,
    /// The site's line.
    pub line_number: u32,
    /// Pinned link to the site.
    pub github_url: Option<&'a str>,
    /// Share of the frame's text the pattern's literals explain, `[0, 1]`.
    pub score: f32,
    /// Enclosing function of the site.
    pub function: Option<&'a str>,
    /// Whether the site's file matches a location hint of the line.
    pub hinted: bool,
    /// Whether its line is the hinted line too.
    pub exact: bool,
    /// The record's one-line meaning, when analysed.
    pub documentation: Option<&'a str>,
    /// For a text the runtime prints (no repository's site), its
    /// knowledge-base entry: meaning, first remedy, documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<Knowledge<'static>>,
    /// For a repository indexed over history: the first version that
    /// prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_seen: Option<&'a str>,
    /// The last version that prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<&'a str>,
    /// The version it was removed in, when the newest no longer prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_in: Option<&'a str>,
    /// A place a stack trace names as where its exception was raised,
    /// whose message the code builds at run time: no record (`id` and
    /// `slug` are empty), and `messagePattern` is the statement.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub built_at_run_time: bool,
    /// The site's number across the atlas ([`Explainer::site`]).
    #[serde(skip)]
    pub(crate) site: u32,
}

/// One layer of the error.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameOut<'a> {
    /// The layer's text.
    pub text: String,
    /// Byte offset in the input where it starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// Candidate sites, best first (at most
    /// [`errdex_match::MAX_CANDIDATES`]).
    pub candidates: Vec<CandidateOut<'a>>,
    /// How many sites print this layer in all.
    pub candidate_count: usize,
}

/// Text no template explains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unmatched {
    /// The text.
    pub text: String,
    /// Byte offset in the input.
    pub start: usize,
    /// End offset.
    pub end: usize,
}

/// What errdex knows about one input line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation<'a> {
    /// The line as given.
    pub input: String,
    /// The log prefix that was stripped (timestamps, headers, levels).
    pub prefix: String,
    /// How well it is explained.
    pub verdict: Verdict,
    /// Layers, outermost first.
    pub frames: Vec<FrameOut<'a>>,
    /// Unexplained text.
    pub unmatched: Vec<Unmatched>,
    /// For a stack-trace line that is no message: `frame` (`at C.m(C.java:3)`,
    /// `File "x.py", line 3`) or `link` (`Caused by:`, `Traceback …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<&'static str>,
}

/// A line's verdict and best outermost site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outline {
    /// How well the line is explained.
    pub verdict: Verdict,
    /// Record and site (numbered across the atlas, as [`Explainer::site`]
    /// takes it) of the outermost frame's best candidate.
    pub top: Option<(usize, usize)>,
    /// Bytes of log prefix before the message.
    pub prefix_len: usize,
}

/// Templates of an atlas, ready to explain lines. Immutable; share it.
pub struct Explainer {
    /// What answers show of records and sites; a template's payload is
    /// the number of its site there.
    records: Records,
    set: TemplateSet,
    /// The level markers some template starts with (a CLI's `Error: `
    /// printer): a line behind one is read both ways.
    marker_heads: Vec<&'static str>,
    /// The last bytes (spaces aside) of those markers, for a first check.
    marker_ends: [bool; 256],
    /// The sites that raise a class with a message built at run time.
    raises: raised::Raises,
}

impl Explainer {
    /// Builds the template set from the store's rows.
    pub fn new(rows: Vec<TraceRow>) -> Explainer {
        let mut b = TemplateSetBuilder::new();
        // A site's payload is its number across the atlas. Sites in built
        // copies of a package's code (`dist/axios.js` beside
        // `lib/core/settle.js`) are added last, so that of equally good
        // sites the source's come first.
        let mut copies = Vec::new();
        let mut payload = 0;
        for row in &rows {
            for site in &row.sites {
                if errdex_model::is_built_copy(&site.file_path) {
                    copies.push((row, site, payload));
                } else {
                    add_site(&mut b, row, site, payload);
                }
                payload += 1;
            }
        }
        for (row, site, payload) in copies {
            add_site(&mut b, row, site, payload);
        }
        for (outer, arg, inner) in links::links(&rows) {
            b.link(outer, &arg, inner);
        }
        Explainer::assemble(Records::new(&rows), b.build(), raised::Raises::default())
    }

    /// The explainer with the atlas' sites whose message has no literal
    /// text (the store's dynamic sites): an exception a stack trace says
    /// one of them raised is placed there.
    pub fn with_raises(mut self, sites: Vec<(String, errdex_model::DynamicSite)>) -> Explainer {
        self.raises = raised::Raises::new(sites);
        self
    }

    fn assemble(records: Records, set: TemplateSet, raises: raised::Raises) -> Explainer {
        let marker_heads: Vec<&'static str> = prefix::level_markers()
            .filter(|m| set.starts_a_template(m))
            .collect();
        let mut marker_ends = [false; 256];
        for m in &marker_heads {
            if let Some(&b) = m.trim_end_matches(' ').as_bytes().last() {
                marker_ends[b as usize] = true;
            }
        }
        Explainer {
            records,
            set,
            marker_heads,
            marker_ends,
            raises,
        }
    }

    /// Number of records.
    pub fn records(&self) -> usize {
        self.records.len()
    }

    /// Number of distinct templates.
    pub fn templates(&self) -> usize {
        self.set.len()
    }

    /// Explains one line (a stack-trace line too: `ValueError: msg` is
    /// traced without its class).
    pub fn explain(&self, line: &str) -> Explanation<'_> {
        let read = stack::read(&[line]);
        self.explain_line(line, &read[0])
    }

    /// Explains a block of lines, reading stack traces across them: frames
    /// become location hints for their message, and frame and link lines
    /// are marked as such instead of traced; then the lines are read
    /// together ([`Explainer::read_across_lines`]).
    pub fn explain_block(&self, lines: &[&str]) -> Vec<Explanation<'_>> {
        let read = stack::read(lines);
        let mut explained: Vec<Explanation> = lines
            .iter()
            .zip(&read)
            .map(|(l, s)| self.explain_line(l, s))
            .collect();
        self.read_across_lines(&mut explained, &read);
        explained
    }

    /// What the lines of one log, explained one by one and in order, tell
    /// about each other: an indented line that continues a message of
    /// several lines gets that message's frame (`continuation`), and a
    /// frame whose best sites tie is settled by the sites nearby lines
    /// traced to and the places nearby stack traces name (`neighbours`,
    /// from `stack`, the lines' [`stack::read`]), with the sites' guards;
    /// an exception's text a chained traceback printed under its class is
    /// that class's where a later exception carries it (`class_text`).
    pub fn read_across_lines<'a>(&'a self, explained: &mut [Explanation<'a>], stack: &[StackLine]) {
        continuation::continue_messages(explained);
        let notes = neighbours::SiteNotes {
            guards: &|site| self.records.guards(site),
            args: &|site| self.records.args(site),
            fields: &|site| self.records.fields(site),
        };
        neighbours::settle_ties_with(explained, stack, &notes);
        class_text::drop_in_chained_tracebacks(explained, stack);
        self.raises.locate(explained, stack);
    }

    /// Explains one line as [`stack::read`] read it. Terminal colour
    /// codes are no part of any message: a line with them is read without
    /// them (offsets are then in that text), and `input` stays the line.
    pub fn explain_line(&self, line: &str, s: &StackLine) -> Explanation<'_> {
        if let Some((a, b)) = markdown_inner(line).filter(|_| s.role == Role::Message) {
            let inner = &line[a..b];
            let mut e = self.explain_line(inner, &reading_of(s, inner));
            e.input = line.to_string();
            e.prefix.insert_str(0, &line[..a]);
            for f in &mut e.frames {
                (f.start, f.end) = (f.start + a, f.end + a);
            }
            for u in &mut e.unmatched {
                (u.start, u.end) = (u.start + a, u.end + a);
            }
            return e;
        }
        let read = |line: &str, s: &StackLine| {
            let e: Option<Explanation> = self.read_line(line, s);
            if e.as_ref().is_none_or(|e| e.verdict == Verdict::Traced) {
                return e;
            }
            // Colour codes and doubled spaces are looked for only where the
            // line did not trace.
            let plain = without_colours(line);
            let mut e = match &plain {
                Some(plain) => self.read_line(plain, &plain_reading(s, plain))?,
                None => e?,
            };
            if e.verdict != Verdict::Traced {
                let text = plain.as_deref().unwrap_or(line);
                if let Some(single) = single_spaced(text) {
                    let t: Option<Explanation> =
                        self.read_line(&single, &plain_reading(s, &single));
                    e = t.filter(|t| t.verdict.better_than(e.verdict)).unwrap_or(e);
                }
            }
            e.input = line.to_string();
            Some(e)
        };
        read(line, s).unwrap_or_else(|| Explanation {
            input: line.to_string(),
            prefix: String::new(),
            verdict: Verdict::Unknown,
            frames: Vec::new(),
            unmatched: Vec::new(),
            stack: Some(match s.role {
                Role::Link => "link",
                _ => "frame",
            }),
        })
    }

    /// The verdict and the outermost frame's best record, without building
    /// an [`Explanation`]: what grouping a whole log needs, at less cost.
    pub fn outline(&self, line: &str) -> Outline {
        let end = unpadded_end(line, 0, line.len());
        let o: Outline = self.read_text(line, 0, end, &Hints::default());
        if o.verdict == Verdict::Traced {
            return o;
        }
        self.outline_undecorated(line, o)
    }

    /// [`Explainer::outline`] of a line that did not trace (`o`): colour
    /// codes and doubled spaces are looked for only there, apart from the
    /// common path.
    #[cold]
    #[inline(never)]
    fn outline_undecorated(&self, line: &str, o: Outline) -> Outline {
        let plain = without_colours(line);
        let o = match &plain {
            Some(plain) => {
                let end = unpadded_end(plain, 0, plain.len());
                self.read_text(plain, 0, end, &Hints::default())
            }
            None => o,
        };
        let single = (o.verdict != Verdict::Traced)
            .then(|| single_spaced(plain.as_deref().unwrap_or(line)))
            .flatten();
        match single {
            Some(single) => {
                let end = unpadded_end(&single, 0, single.len());
                let t: Outline = self.read_text(&single, 0, end, &Hints::default());
                if t.verdict.better_than(o.verdict) {
                    t
                } else {
                    o
                }
            }
            None => o,
        }
    }

    /// [`Explainer::outline`] of a line as [`stack::read`] read it; frame
    /// and link lines have no outline.
    pub fn outline_line(&self, line: &str, s: &StackLine) -> Option<Outline> {
        if let Some((a, b)) = markdown_inner(line).filter(|_| s.role == Role::Message) {
            let inner = &line[a..b];
            let mut o = self.outline_line(inner, &reading_of(s, inner))?;
            o.prefix_len += a;
            return Some(o);
        }
        let o: Option<Outline> = self.read_line(line, s);
        if o.is_none_or(|o| o.verdict == Verdict::Traced) {
            return o;
        }
        self.outline_line_undecorated(line, s, o)
    }

    /// [`Explainer::outline_line`] of a line that did not trace (`o`),
    /// apart from the common path as [`Explainer::outline_undecorated`].
    #[cold]
    #[inline(never)]
    fn outline_line_undecorated(
        &self,
        line: &str,
        s: &StackLine,
        o: Option<Outline>,
    ) -> Option<Outline> {
        let plain = without_colours(line);
        let o = match &plain {
            Some(plain) => self.read_line(plain, &plain_reading(s, plain))?,
            None => o?,
        };
        let single = (o.verdict != Verdict::Traced)
            .then(|| single_spaced(plain.as_deref().unwrap_or(line)))
            .flatten();
        let traced = single.and_then(|single| {
            let t: Option<Outline> = self.read_line(&single, &plain_reading(s, &single));
            t.filter(|t| t.verdict.better_than(o.verdict))
        });
        Some(traced.unwrap_or(o))
    }

    /// The record and site of an [`Outline`]'s `top`.
    pub fn site(&self, (record, site): (usize, usize)) -> (RecordView<'_>, SiteView<'_>) {
        (self.records.record(record), self.records.site(site))
    }

    /// The one path from a line to its answer, for explanations and
    /// outlines alike: the message where the stack reader placed it
    /// (`None` for frame and link lines), prefixes stripped, each part
    /// traced.
    #[inline]
    fn read_line<'e, A: Answer<'e>>(&'e self, line: &str, s: &StackLine) -> Option<A> {
        if s.role != Role::Message {
            return None;
        }
        let (start, end) = message_span(line, s);
        // A certain start is not second-guessed: `ValueError: too many
        // values to unpack` is Python's own text, not a `raise ValueError`.
        let first = if s.certain { start } else { 0 };
        let a: A = self.read_text(line, first, end, &s.hints);
        if a.found() || first == start {
            return Some(a);
        }
        Some(self.read_text(line, start, end, &s.hints))
    }

    /// The answer for `line[at..end]`: its plain reading, or when that
    /// finds nothing the first other reading that does
    /// ([`Explainer::retry`]).
    #[inline]
    fn read_text<'e, A: Answer<'e>>(
        &'e self,
        line: &str,
        at: usize,
        end: usize,
        hints: &Hints,
    ) -> A {
        let text = &line[at..end];
        let prepared = self.prepare(text, hints);
        let parts: A::Parts = self.trace_parts(&prepared);
        let answer = |prepared: &prefix::Prepared<'_>, parts: &A::Parts| {
            let known = parts.with_knowledge(self.records.sites() as u32, prepared);
            A::of(
                self,
                line,
                Reading {
                    at,
                    prepared,
                    parts: known.as_ref().unwrap_or(parts),
                },
            )
        };
        // `Error: ` may be a level marker or a CLI's own printer, and the
        // last marker may be the message's own first word (`error: name
        // does not exist` is casbin's whole message): the reading with it
        // kept wins when it explains more.
        let kept = if parts.found() {
            self.marker_kept(text, &prepared)
        } else {
            prepared.with_marker(text)
        };
        if let Some(q) = kept {
            let g: A::Parts = self.trace_parts(&q);
            if g.explains_more_than(&parts, prepared.prefix.len() - q.prefix.len()) {
                return answer(&q, &g);
            }
        }
        if parts.found() {
            // A frame found only mid-text may hide an earlier layer that
            // another reading finds (its start is in its part, the heads
            // are in the text).
            let offset = prepared.parts.first().map_or(0, |p| p.offset);
            if let Some(first) = parts.shape().and_then(|s| s.mid_text_start()) {
                let first = first + offset;
                if let Some((q, g)) = self.behind_heads(text, first, hints, &parts) {
                    return answer(&q, &g);
                }
            }
            return answer(&prepared, &parts);
        }
        match self.retry(text, hints, |q| {
            let g: A::Parts = self.trace_parts(&q);
            g.found().then_some((q, g))
        }) {
            Some((q, g)) => answer(&q, &g),
            None => answer(&prepared, &parts),
        }
    }

    /// Traces each part of a reading.
    #[inline(always)]
    fn trace_parts<G: Gather>(&self, p: &prefix::Prepared<'_>) -> G {
        let mut g = G::default();
        for part in &p.parts {
            g.push(self.trace_part(&part.text, &p.hints));
        }
        g
    }

    /// Traces one part; loggers and CLIs often end a message with a full
    /// stop the code did not write, so a part that traces to nothing is
    /// traced again without it, the stop unmatched.
    #[inline(always)]
    fn trace_part<T: PartTrace>(&self, text: &str, hints: &Hints) -> T {
        let t = T::trace(&self.set, text, hints);
        if !t.found() && text.ends_with('.') {
            let stop = text.len() - 1;
            let shorter = T::trace(&self.set, &text[..stop], hints);
            if shorter.found() {
                return shorter.with_unmatched_tail(stop, text.len());
            }
        }
        t
    }

    /// The line's prefix stripped and its parts found, with the stack
    /// trace's hints after the header's own.
    #[inline]
    fn prepare<'a>(&self, line: &'a str, hints: &Hints) -> prefix::Prepared<'a> {
        let mut p = prefix::prepare(line);
        add_hints(&mut p, hints);
        p
    }

    /// The reading of `line` with its last level marker kept, when some
    /// template starts with that marker.
    #[inline]
    fn marker_kept<'a>(
        &self,
        line: &'a str,
        p: &prefix::Prepared<'a>,
    ) -> Option<prefix::Prepared<'a>> {
        // Most lines strip no marker that a template starts with: told from
        // the last byte of the prefix before the marker is looked for.
        let end = p.prefix.trim_end_matches(' ').as_bytes().last()?;
        if !self.marker_ends[*end as usize] {
            return None;
        }
        let q = p.with_marker(line)?;
        // Compared without the padding a logger adds (`ERROR:  `).
        let marker = line
            .get(q.prefix.len()..p.prefix.len())?
            .trim_end_matches(' ');
        self.marker_heads
            .iter()
            .any(|m| m.trim_end_matches(' ') == marker)
            .then_some(q)
    }

    /// The first reading behind one of the line's heads (ending at or
    /// before `first`, where the plain reading's outermost frame starts; a
    /// head may read as a message of its own) that finds more layers than
    /// `plain`, or as many where `plain` left its head unmatched, and
    /// leaves nothing unmatched.
    #[cold]
    #[inline(never)]
    fn behind_heads<'a, G: Gather>(
        &self,
        line: &'a str,
        first: usize,
        hints: &Hints,
        plain: &G,
    ) -> Option<(prefix::Prepared<'a>, G)> {
        prefix::layer_heads(line)
            .into_iter()
            .filter(|at| *at <= first)
            .find_map(|at| {
                let mut q = prefix::behind_head(line, at)?;
                add_hints(&mut q, hints);
                let g: G = self.trace_parts(&q);
                g.recovers_layers_of(plain).then_some((q, g))
            })
    }

    /// For a line whose plain reading finds nothing (its level marker
    /// kept did not help either), tries other readings in turn and gives
    /// the first answer `try_reading` gives: behind each unknown head
    /// where a known prefix starts (`web-1  | 2026-12-02T01:00:00Z ERROR
    /// msg`).
    /// Kept out of line, since most lines find something at the first
    /// reading.
    #[cold]
    #[inline(never)]
    fn retry<'a, T>(
        &self,
        line: &'a str,
        hints: &Hints,
        mut try_reading: impl FnMut(prefix::Prepared<'a>) -> Option<T>,
    ) -> Option<T> {
        for at in prefix::unknown_heads(line) {
            if let Some(mut q) = prefix::behind_unknown_head(line, at) {
                add_hints(&mut q, hints);
                if let Some(t) = try_reading(q) {
                    return Some(t);
                }
            }
        }
        None
    }

    fn candidate(&self, c: &errdex_match::Candidate) -> CandidateOut<'_> {
        // Sites after the explainer's own are the knowledge base's.
        if let Some(kb) = c.payload.checked_sub(self.records.sites() as u32) {
            if let Some(out) = knowledge::set().candidate(kb, c, c.payload) {
                return out;
            }
        }
        let (row, site) = self.site((self.records.record_of(c.payload), c.payload as usize));
        CandidateOut {
            id: row.id,
            repo: row.repo,
            slug: row.slug,
            message_pattern: row.message_pattern,
            file_path: site.file_path,
            line_number: site.line_number,
            github_url: site.github_url,
            score: (c.score * 1000.0).round() / 1000.0,
            function: site.function,
            hinted: c.hinted,
            exact: c.exact,
            documentation: row.documentation,
            knowledge: None,
            first_seen: row.presence().map(|p| p.first_seen()),
            last_seen: row.presence().map(|p| p.last_seen()),
            removed_in: row.presence().and_then(|p| p.removed_in()),
            built_at_run_time: false,
            site: c.payload,
        }
    }
}

/// Adds a site's templates: its message; the message trimmed of leading
/// white space and of a list bullet, which a log line's reading strips
/// (inside a chain they stay); and each line of a message of several,
/// since a log is read a line at a time.
fn add_site(b: &mut TemplateSetBuilder, row: &TraceRow, site: &TraceSite, payload: u32) {
    let t = language(row.language).template(&row.message_pattern, &site.args, &site.callee);
    for t in closed::expand(t, &site.closed_holes) {
        add_template(b, t, site, payload);
    }
}

/// Adds one template of a site, and its lines and trimmed forms.
fn add_template(
    b: &mut TemplateSetBuilder,
    t: errdex_model::Template,
    site: &TraceSite,
    payload: u32,
) {
    let mut add = |t| b.add(t, payload, &site.file_path, site.line_number);
    // A message of one line and its line break (`f"… {message}\n"`) is
    // that line: a log is read a line at a time.
    let (t, lines) = match <[_; 1]>::try_from(t.lines()) {
        Ok([line]) => (line, Vec::new()),
        Err(lines) => (t, lines),
    };
    for line in lines.into_iter().filter(worth_a_line) {
        if let Some(unbulleted) = line.clone().without_bullet() {
            add(unbulleted);
        }
        add(line.trimmed_start());
    }
    let trimmed = t.clone().trimmed_start();
    if let Some(unbulleted) = trimmed.clone().without_bullet().filter(worth_a_line) {
        add(unbulleted);
    }
    if trimmed != t && !trimmed.segments.is_empty() {
        add(trimmed);
    }
    add(t);
}

/// Whether one line of a message of several is worth a template of its
/// own: a line of a few letters (`  -v`, `%s:`) would match any line.
fn worth_a_line(t: &errdex_model::Template) -> bool {
    t.literal_alnum() >= LINE_TEMPLATE_ALNUM
}

/// Letters and digits a line of a message of several needs to be traced
/// alone.
const LINE_TEMPLATE_ALNUM: usize = 8;

/// The stack reading of a line for the same line without its colour
/// codes: offsets into the coloured line do not fit it, so a reading
/// with any is taken again from the plain line alone.
fn plain_reading(s: &StackLine, plain: &str) -> StackLine {
    if s.start == 0 && s.end.is_none() {
        return s.clone();
    }
    reading_of(s, plain)
}

/// The stack reading of `text` alone, with the hints `s` had from the
/// lines around it.
fn reading_of(s: &StackLine, text: &str) -> StackLine {
    let mut again = stack::read(&[text]).swap_remove(0);
    again.hints = s.hints.clone();
    again
}

/// Adds the caller's location hints to a reading of a line: a log
/// header's own location comes first, a trace's frames after.
fn add_hints(p: &mut prefix::Prepared<'_>, hints: &Hints) {
    for f in &hints.files {
        if !p.hints.files.contains(f) {
            p.hints.files.push(f.clone());
        }
    }
    if p.hints.line.is_none() {
        p.hints.line = hints.line;
    }
}

/// Where `line[start..end]` ends without its trailing blanks: they are
/// padding (Symfony Console pads its blocks to their width), never a
/// message's last bytes.
/// Where the stack reader `s` places `line`'s message. It starts after
/// the class when the trace shows it (when that was a guess, the caller
/// tries the whole line first, since the class-like head may be part of
/// the message). It ends where a location follows it (PHP's ` in
/// /path/F.php:12`) or other text (Ruby's ` (ArgumentError)`), padding
/// left out.
#[inline]
pub(crate) fn message_span(line: &str, s: &StackLine) -> (usize, usize) {
    let start = s.start.min(line.len());
    let end = s.end.map_or(line.len(), |e| e.clamp(start, line.len()));
    (start, unpadded_end(line, start, end))
}

fn unpadded_end(line: &str, start: usize, end: usize) -> usize {
    start + line[start..end].trim_end_matches([' ', '\t']).len()
}

#[cfg(test)]
mod tests;
