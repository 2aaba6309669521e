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
mod reading;
mod records;

use errdex_lang::language;
pub use errdex_match::stack;
use errdex_match::stack::{Role, StackLine};
use errdex_match::{prefix, Hints, TemplateSet, TemplateSetBuilder};
use errdex_store::{TraceRow, TraceSite};
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
pub struct CandidateOut {
    /// Record id.
    pub id: String,
    /// `owner/name`.
    pub repo: String,
    /// Record slug.
    pub slug: String,
    /// The record's pattern.
    pub message_pattern: String,
    /// The site's file.
    pub file_path: String,
    /// The site's line.
    pub line_number: u32,
    /// Pinned link to the site.
    pub github_url: Option<String>,
    /// Share of the frame's text the pattern's literals explain, `[0, 1]`.
    pub score: f32,
    /// Enclosing function of the site.
    pub function: Option<String>,
    /// Whether the site's file matches a location hint of the line.
    pub hinted: bool,
    /// Whether its line is the hinted line too.
    pub exact: bool,
    /// The record's one-line meaning, when analysed.
    pub documentation: Option<String>,
}

/// One layer of the error.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameOut {
    /// The layer's text.
    pub text: String,
    /// Byte offset in the input where it starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// Candidate sites, best first (at most
    /// [`errdex_match::MAX_CANDIDATES`]).
    pub candidates: Vec<CandidateOut>,
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
pub struct Explanation {
    /// The line as given.
    pub input: String,
    /// The log prefix that was stripped (timestamps, headers, levels).
    pub prefix: String,
    /// How well it is explained.
    pub verdict: Verdict,
    /// Layers, outermost first.
    pub frames: Vec<FrameOut>,
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
                if is_built_copy(&site.file_path) {
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
        Explainer::assemble(Records::new(&rows), b.build())
    }

    fn assemble(records: Records, set: TemplateSet) -> Explainer {
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
    pub fn explain(&self, line: &str) -> Explanation {
        let read = stack::read(&[line]);
        self.explain_line(line, &read[0])
    }

    /// Explains a block of lines, reading stack traces across them: frames
    /// become location hints for their message, and frame and link lines
    /// are marked as such instead of traced.
    pub fn explain_block(&self, lines: &[&str]) -> Vec<Explanation> {
        let read = stack::read(lines);
        lines
            .iter()
            .zip(&read)
            .map(|(l, s)| self.explain_line(l, s))
            .collect()
    }

    /// Explains one line as [`stack::read`] read it. Terminal colour
    /// codes are no part of any message: a line with them is read without
    /// them (offsets are then in that text), and `input` stays the line.
    pub fn explain_line(&self, line: &str, s: &StackLine) -> Explanation {
        let read = |line: &str, s: &StackLine| {
            let e: Option<Explanation> = self.read_line(line, s);
            if e.as_ref().is_none_or(|e| e.verdict == Verdict::Traced) {
                return e;
            }
            // Colour codes are looked for only where the line did not trace.
            let Some(plain) = without_colours(line) else {
                return e;
            };
            let mut e: Explanation = self.read_line(&plain, &plain_reading(s, &plain))?;
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
        let o: Outline = self.read_text(line, 0, line.len(), &Hints::default());
        if o.verdict == Verdict::Traced {
            return o;
        }
        // Colour codes are looked for only where the line did not trace.
        match without_colours(line) {
            Some(plain) => self.read_text(&plain, 0, plain.len(), &Hints::default()),
            None => o,
        }
    }

    /// [`Explainer::outline`] of a line as [`stack::read`] read it; frame
    /// and link lines have no outline.
    pub fn outline_line(&self, line: &str, s: &StackLine) -> Option<Outline> {
        let o: Option<Outline> = self.read_line(line, s);
        if o.is_none_or(|o| o.verdict == Verdict::Traced) {
            return o;
        }
        match without_colours(line) {
            Some(plain) => self.read_line(&plain, &plain_reading(s, &plain)),
            None => o,
        }
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
    fn read_line<A: Answer>(&self, line: &str, s: &StackLine) -> Option<A> {
        if s.role != Role::Message {
            return None;
        }
        // Where the message starts: after the class when the trace shows
        // it; when that was a guess, the whole line is tried first, since
        // the class-like head may be part of the message.
        let start = s.start.min(line.len());
        // Where it ends: PHP's ` in /path/F.php:12` after it is a location.
        // Text after the message (Ruby's ` (ArgumentError)`) is not traced.
        let end = s.end.map_or(line.len(), |e| e.clamp(start, line.len()));
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
    fn read_text<A: Answer>(&self, line: &str, at: usize, end: usize, hints: &Hints) -> A {
        let text = &line[at..end];
        let prepared = self.prepare(text, hints);
        let parts: A::Parts = self.trace_parts(&prepared);
        let answer = |prepared, parts| {
            A::of(
                self,
                line,
                Reading {
                    at,
                    prepared,
                    parts,
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
                return shorter.with_unmatched_stop(stop);
            }
        }
        t
    }

    /// The line's prefix stripped and its parts found, with the stack
    /// trace's hints after the header's own.
    #[inline]
    fn prepare<'a>(&self, line: &'a str, hints: &Hints) -> prefix::Prepared<'a> {
        let mut p = prefix::prepare(line);
        if !hints.files.is_empty() || hints.line.is_some() {
            add_hints(&mut p, hints);
        }
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
                if !hints.files.is_empty() || hints.line.is_some() {
                    add_hints(&mut q, hints);
                }
                if let Some(t) = try_reading(q) {
                    return Some(t);
                }
            }
        }
        None
    }

    fn candidate(&self, c: &errdex_match::Candidate) -> CandidateOut {
        let (row, site) = self.site((self.records.record_of(c.payload), c.payload as usize));
        CandidateOut {
            id: row.id.to_string(),
            repo: row.repo.to_string(),
            slug: row.slug.to_string(),
            message_pattern: row.message_pattern.to_string(),
            file_path: site.file_path.to_string(),
            line_number: site.line_number,
            github_url: site.github_url.map(str::to_string),
            score: (c.score * 1000.0).round() / 1000.0,
            function: site.function.map(str::to_string),
            hinted: c.hinted,
            exact: c.exact,
            documentation: row.documentation.map(str::to_string),
        }
    }
}

/// Adds a site's templates: its message; the message trimmed of leading
/// white space, which a log line's reading strips (inside a chain it
/// stays); and each line of a message of several, since a log is read a
/// line at a time.
fn add_site(b: &mut TemplateSetBuilder, row: &TraceRow, site: &TraceSite, payload: u32) {
    let t = language(row.language).template(&row.message_pattern, &site.args, &site.callee);
    let mut add = |t| b.add(t, payload, &site.file_path, site.line_number);
    for line in t.lines().into_iter().filter(worth_a_line) {
        add(line.trimmed_start());
    }
    let trimmed = t.clone().trimmed_start();
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

/// Whether a file is a built copy of a package's code: a `dist/` folder,
/// a minified or bundled script.
fn is_built_copy(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    path.split('/').any(|d| d == "dist")
        || [".min.js", ".bundle.js", ".min.mjs", ".umd.js"]
            .iter()
            .any(|e| file.ends_with(e))
}

/// The stack reading of a line for the same line without its colour
/// codes: offsets into the coloured line do not fit it, so a reading
/// with any is taken again from the plain line alone.
fn plain_reading(s: &StackLine, plain: &str) -> StackLine {
    if s.start == 0 && s.end.is_none() {
        return s.clone();
    }
    let mut again = stack::read(&[plain]).swap_remove(0);
    again.hints = s.hints.clone();
    again
}

/// The line without its ANSI escape sequences (`\x1b[33m`, `\x1b[0m`),
/// when it has any.
fn without_colours(line: &str) -> Option<String> {
    memchr::memchr(0x1b, line.as_bytes())?;
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let seq = &rest[i + 1..];
        // CSI: `[`, parameters and intermediates, one final byte.
        let skip = match seq.strip_prefix('[') {
            Some(csi) => csi
                .bytes()
                .position(|c| (0x40..=0x7e).contains(&c))
                .map_or(seq.len(), |p| p + 2),
            None => 0,
        };
        rest = &seq[skip..];
    }
    out.push_str(rest);
    Some(out)
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

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Lang;

    #[test]
    fn verdict_names_are_the_json_names() {
        for v in [
            Verdict::Traced,
            Verdict::Partial,
            Verdict::Ambiguous,
            Verdict::Unknown,
        ] {
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
    }

    fn row(id: &str, repo: &str, pattern: &str, args: &[&str]) -> TraceRow {
        TraceRow {
            id: id.into(),
            repo: repo.into(),
            slug: id.into(),
            message_pattern: pattern.into(),
            language: Lang::Go,
            documentation: None,
            sites: vec![TraceSite {
                file_path: format!("{id}.go"),
                line_number: 1,
                function: None,
                callee: "fmt.Errorf".into(),
                args: args.iter().map(|a| a.to_string()).collect(),
                github_url: None,
            }],
        }
    }

    #[test]
    fn frames_come_from_different_repositories() {
        // A kops message wrapping a vendored AWS SDK message.
        let ex = Explainer::new(vec![
            row(
                "outer",
                "kubernetes/kops",
                "error listing instances: %v",
                &["err"],
            ),
            row(
                "inner",
                "aws/aws-sdk-go",
                "RequestError: send request failed caused by: %v",
                &["origErr"],
            ),
        ]);
        let e = ex.explain("error listing instances: RequestError: send request failed caused by: dial tcp: i/o timeout");
        let layers: Vec<(&str, &str)> = e
            .frames
            .iter()
            .map(|f| (f.candidates[0].repo.as_str(), f.candidates[0].id.as_str()))
            .collect();
        assert_eq!(
            layers,
            vec![("kubernetes/kops", "outer"), ("aws/aws-sdk-go", "inner")]
        );
        assert_eq!(e.unmatched[0].text, "dial tcp: i/o timeout");
        assert_eq!(e.verdict, Verdict::Partial);
    }

    #[test]
    fn sources_come_before_their_built_copies() {
        let mut r = row(
            "settle",
            "axios/axios",
            "Request failed with status code %v",
            &["status"],
        );
        let site = r.sites[0].clone();
        r.sites = [
            "dist/axios.js",
            "dist/browser/axios.cjs",
            "lib/core/settle.js",
        ]
        .iter()
        .map(|f| TraceSite {
            file_path: f.to_string(),
            ..site.clone()
        })
        .collect();
        let ex = Explainer::new(vec![r]);
        let line = "Request failed with status code 404";
        let e = ex.explain(line);
        assert_eq!(e.frames[0].candidates[0].file_path, "lib/core/settle.js");
        let top = ex.outline(line).top.unwrap();
        assert_eq!(ex.site(top).1.file_path, "lib/core/settle.js");
    }

    #[test]
    fn colour_codes_are_read_past() {
        let ex = Explainer::new(vec![row(
            "quit",
            "pallets/werkzeug",
            "Press CTRL+C to quit",
            &[],
        )]);
        let line = "\x1b[33mPress CTRL+C to quit\x1b[0m";
        let e = ex.explain(line);
        assert_eq!((e.input.as_str(), e.verdict), (line, Verdict::Traced));
        assert_eq!(ex.outline(line).verdict, Verdict::Traced);
        assert_eq!(
            without_colours("a\x1b[1;31mb\x1b[0m\x1b").as_deref(),
            Some("ab")
        );
        assert_eq!(without_colours("plain"), None);
    }

    #[test]
    fn a_cli_printer_head_is_read_both_ways() {
        let ex = Explainer::new(vec![
            row("printer", "etcd/etcdctl", "Error: %v", &["err"]),
            row("inner", "etcd/etcdctl", "bad number of arguments", &[]),
            row("other", "acme/app", "disk is full", &[]),
        ]);
        let ids = |e: &Explanation| -> Vec<String> {
            e.frames
                .iter()
                .map(|f| f.candidates[0].id.clone())
                .collect()
        };
        // The printer explains the head as well as a level marker would.
        let e = ex.explain("Error: bad number of arguments");
        assert_eq!(ids(&e), ["printer", "inner"]);
        assert_eq!((e.prefix.as_str(), e.verdict), ("", Verdict::Traced));
        let o = ex.outline("Error: bad number of arguments");
        assert_eq!(o.verdict, Verdict::Traced);
        assert_eq!(ex.site(o.top.unwrap()).0.id, "printer");
        // Behind a timestamp too; and an unknown inner message keeps the
        // printer, with the rest unmatched.
        let e = ex.explain("2026-12-02T01:00:00Z Error: bad number of arguments");
        assert_eq!(ids(&e), ["printer", "inner"]);
        let e = ex.explain("Error: zzz qqq");
        assert_eq!(
            (ids(&e), e.verdict),
            (vec!["printer".to_string()], Verdict::Partial)
        );
        // A marker that no template starts with stays a level.
        let e = ex.explain("ERROR: disk is full");
        assert_eq!(
            (e.prefix.as_str(), ids(&e)),
            ("ERROR: ", vec!["other".to_string()])
        );
    }

    #[test]
    fn a_padded_printer_head_is_read_both_ways() {
        // rubygems' `@errs.puts "ERROR:  #{statement}"`.
        let ex = Explainer::new(vec![
            row("alert", "rubygems/rubygems", "ERROR:  %v", &["statement"]),
            row(
                "build",
                "rubygems/rubygems",
                "Couldn't find a gemspec file matching %v",
                &["x"],
            ),
        ]);
        let line = "ERROR:  Couldn't find a gemspec file matching 'x.gemspec'";
        let ids: Vec<String> = ex
            .explain(line)
            .frames
            .iter()
            .map(|f| f.candidates[0].id.clone())
            .collect();
        assert_eq!(ids, ["alert", "build"]);
    }

    #[test]
    fn a_template_of_the_marker_word_alone_is_no_printer() {
        // ripgrep's validator returns the bare word `"error"`: it explains
        // no `error: ` printer in front of clap's message.
        let ex = Explainer::new(vec![
            row("word", "BurntSushi/ripgrep", "error", &[]),
            row("whole", "casbin/casbin", "error: name does not exist", &[]),
        ]);
        let e = ex.explain("error: Found argument '--bogus' which wasn't expected");
        assert_eq!(
            (e.prefix.as_str(), e.verdict),
            ("error: ", Verdict::Unknown)
        );
        let o = ex.outline("error: Found argument '--bogus'");
        assert_eq!(o.verdict, Verdict::Unknown);
        let e = ex.explain("error: name does not exist");
        assert_eq!((e.frames.len(), e.verdict), (1, Verdict::Traced));
    }

    #[test]
    fn a_message_that_starts_with_a_level_word_is_still_found() {
        let ex = Explainer::new(vec![
            row("whole", "casbin/casbin", "error: name does not exist", &[]),
            row("other", "acme/app", "disk is full", &[]),
        ]);
        for (line, prefix) in [
            ("error: name does not exist", ""),
            (
                "2026-12-02T01:00:00Z error: name does not exist",
                "2026-12-02T01:00:00Z ",
            ),
        ] {
            let e = ex.explain(line);
            assert_eq!(e.verdict, Verdict::Traced, "{line}");
            assert_eq!(e.frames[0].candidates[0].id, "whole");
            assert_eq!(e.prefix, prefix);
            assert_eq!(ex.outline(line).verdict, Verdict::Traced, "{line}");
        }
        // A marker that is a level stays stripped.
        let e = ex.explain("ERROR: disk is full");
        assert_eq!((e.prefix.as_str(), e.verdict), ("ERROR: ", Verdict::Traced));
        assert_eq!(
            ex.explain("error: nothing like it").verdict,
            Verdict::Unknown
        );
    }

    #[test]
    fn known_prefixes_behind_an_unknown_head_are_stripped() {
        let ex = Explainer::new(vec![row("disk", "acme/app", "disk is full", &[])]);
        for (line, prefix) in [
            (
                "web-1  | 2026-12-02T01:00:00Z ERROR disk is full",
                "web-1  | 2026-12-02T01:00:00Z ERROR ",
            ),
            ("cmd/ctr: level=error msg=\"disk is full\"", "cmd/ctr: "),
        ] {
            let e = ex.explain(line);
            assert_eq!(e.verdict, Verdict::Traced, "{line}");
            assert_eq!(e.prefix, prefix, "{line}");
            assert_eq!(&line[e.frames[0].start..e.frames[0].end], "disk is full");
            assert_eq!(ex.outline(line).verdict, Verdict::Traced, "{line}");
        }
        // Behind prose the unknown layer stays unmatched.
        let e = ex.explain("upstream said no: ERROR disk is full");
        assert_ne!(e.verdict, Verdict::Traced);
    }
}
