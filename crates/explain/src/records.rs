//! What answers show of the atlas's records and sites, kept as spans of one
//! text arena rather than as owned strings.
//!
//! An atlas has tens of thousands of records, each with a handful of
//! strings (id, slug, pattern, meaning, and per site its file, function and
//! link). Owned, they are two hundred thousand allocations to make when an
//! explainer starts, and the start of `explain` is what a short log pays
//! for. As spans they are a few flat arrays; read back from the cache file
//! (mapped, not copied), the arena is the file's own bytes.

use errdex_match::codec::{Decoder, Encoder};
use errdex_store::TraceRow;

/// Span of the arena: `len == NONE` marks an absent optional string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    off: u32,
    len: u32,
}

const NONE: u32 = u32::MAX;

/// Words [`Records::encode`] writes a site in: seven spans, its line, its
/// record and the two holes of its JSON.
const SITE_WORDS: usize = 18;

/// A record's strings, and its sites: `sites[first_site..]` up to the next
/// record's first site.
#[derive(Debug, Clone, Copy)]
struct RecordSpans {
    id: Span,
    repo: Span,
    slug: Span,
    pattern: Span,
    documentation: Span,
    /// [`RecordView::presence`]'s text.
    presence: Span,
    first_site: u32,
}

/// Words [`Records::encode`] writes a record in: six spans and its first
/// site.
const RECORD_WORDS: usize = 13;

#[derive(Debug, Clone, Copy)]
struct SiteSpans {
    file: Span,
    line: u32,
    function: Span,
    url: Span,
    /// The site's guards, one a line.
    guards: Span,
    /// The values it prints, as the source writes them, one a line.
    args: Span,
    /// The keys of the fields it sets as a structured logging call, one
    /// a line.
    fields: Span,
    /// The site's candidate JSON ([`crate::json::fragment`]), a span of
    /// the JSON arena.
    json: Span,
    /// Where its per-line values go in it: after `"score":` and after
    /// `"hinted":`.
    json_holes: [u32; 2],
}

/// Where the arena's bytes live.
pub(crate) enum Backing {
    /// Built from the store's rows.
    Owned(Vec<u8>),
    /// The cache file, mapped.
    Mapped(memmap2::Mmap),
}

impl Backing {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Backing::Owned(v) => v,
            Backing::Mapped(m) => m,
        }
    }
}

/// A record as answers show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordView<'a> {
    /// Record id.
    pub id: &'a str,
    /// `owner/name`.
    pub repo: &'a str,
    /// Slug.
    pub slug: &'a str,
    /// The pattern.
    pub message_pattern: &'a str,
    /// One-line meaning, when analysed.
    pub documentation: Option<&'a str>,
    /// For a repository indexed over history, the versions that print
    /// it: lines `first`, `last`, `removed in` (empty while the newest
    /// prints it), then one `from to` per range ([`presence_text`]).
    pub presence: Option<&'a str>,
}

/// [`RecordView::presence`]'s text for `p`.
pub(crate) fn presence_text(p: &errdex_store::Presence) -> String {
    let mut t = format!(
        "{}\n{}\n{}",
        p.first_seen,
        p.last_seen,
        p.removed_in.as_deref().unwrap_or("")
    );
    for (from, to) in &p.ranges {
        t.push_str(&format!("\n{from} {to}"));
    }
    t
}

/// The versions that print a record, read from [`RecordView::presence`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresenceView<'a> {
    text: &'a str,
}

impl<'a> PresenceView<'a> {
    fn line(&self, i: usize) -> &'a str {
        self.text.split('\n').nth(i).unwrap_or("")
    }
    /// The first version that prints it.
    pub fn first_seen(&self) -> &'a str {
        self.line(0)
    }
    /// The last.
    pub fn last_seen(&self) -> &'a str {
        self.line(1)
    }
    /// The version after the last, when the newest does not print it.
    pub fn removed_in(&self) -> Option<&'a str> {
        Some(self.line(2)).filter(|s| !s.is_empty())
    }
    /// Whether version `name` prints it.
    pub fn includes(&self, name: &str) -> bool {
        self.text.split('\n').skip(3).any(|r| {
            r.split_once(' ')
                .is_some_and(|(from, to)| errdex_model::in_range(name, from, to))
        })
    }
}

impl<'a> RecordView<'a> {
    /// The versions that print it, for a repository indexed over history.
    pub fn presence(&self) -> Option<PresenceView<'a>> {
        self.presence.map(|text| PresenceView { text })
    }
}

/// A site as answers show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteView<'a> {
    /// Path relative to the repository root.
    pub file_path: &'a str,
    /// 1-based line.
    pub line_number: u32,
    /// Enclosing function, if any.
    pub function: Option<&'a str>,
    /// Pinned link, when known.
    pub github_url: Option<&'a str>,
}

/// Every record and site of an explainer. Sites are numbered in record
/// order, which is the payload the template set carries for each.
pub(crate) struct Records {
    backing: Backing,
    /// Where the arena lies in `backing`.
    arena: (usize, usize),
    /// Where the sites' candidate JSON lies in `backing`: bytes only ever
    /// copied to the output, so not checked as UTF-8 when read back (the
    /// cache's checksum covers them), which the start of `explain` would
    /// pay for on every run.
    json: (usize, usize),
    records: Vec<RecordSpans>,
    sites: Vec<SiteSpans>,
    /// Site → its record, apart from the rest: a traced line looks up its
    /// top site's record, and a dense array stays in cache.
    site_record: Vec<u32>,
    /// Per site, made when first asked: whether a call in its guards
    /// fills the value it prints through an out-parameter, in a function
    /// some site is in ([`crate::outparams`]).
    out_filled: std::sync::OnceLock<Vec<bool>>,
}

/// What [`Records::read`] found, before [`Records::assemble`] checks it.
pub(crate) struct RawRecords {
    arena: (usize, usize),
    json: (usize, usize),
    records: Vec<u32>,
    sites: Vec<u32>,
}

/// A function's name without its receiver, class or module
/// (`Server.listen` → `listen`, `Foo::bar` → `bar`).
pub(crate) fn short_name(function: &str) -> &str {
    function.rsplit(['.', ':']).next().unwrap_or(function)
}

/// Where `inner`, a part of `outer`, starts in it.
pub(crate) fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

/// Appends strings to an arena, remembering their spans.
#[derive(Default)]
struct ArenaWriter {
    bytes: Vec<u8>,
}

impl ArenaWriter {
    fn add(&mut self, s: &str) -> Span {
        if self.bytes.len() + s.len() >= NONE as usize {
            // Spans are 32-bit: past 4 GB of text (no atlas has that much)
            // a string reads back empty rather than as the wrong bytes.
            return Span { off: 0, len: 0 };
        }
        let span = Span {
            off: self.bytes.len() as u32,
            len: s.len() as u32,
        };
        self.bytes.extend_from_slice(s.as_bytes());
        span
    }

    fn add_opt(&mut self, s: Option<&str>) -> Span {
        match s {
            Some(s) => self.add(s),
            None => Span { off: 0, len: NONE },
        }
    }
}

impl Records {
    /// The records of `rows`, their sites numbered in order.
    pub(crate) fn new(rows: &[TraceRow]) -> Records {
        let mut a = ArenaWriter::default();
        let mut records = Vec::with_capacity(rows.len());
        let mut sites = Vec::new();
        let mut site_record = Vec::new();
        let mut json = Vec::with_capacity(1024);
        let mut fragments: Vec<u8> = Vec::new();
        for (ri, r) in rows.iter().enumerate() {
            let presence = r.presence.as_ref().map(presence_text);
            records.push(RecordSpans {
                id: a.add(&r.id),
                repo: a.add(&r.repo),
                slug: a.add(&r.slug),
                pattern: a.add(&r.message_pattern),
                documentation: a.add_opt(r.documentation.as_deref()),
                presence: a.add_opt(presence.as_deref()),
                first_site: sites.len() as u32,
            });
            let record = RecordView {
                id: &r.id,
                repo: &r.repo,
                slug: &r.slug,
                message_pattern: &r.message_pattern,
                documentation: r.documentation.as_deref(),
                presence: presence.as_deref(),
            };
            for s in &r.sites {
                let site = SiteView {
                    file_path: &s.file_path,
                    line_number: s.line_number,
                    function: s.function.as_deref(),
                    github_url: s.github_url.as_deref(),
                };
                json.clear();
                let json_holes = crate::json::fragment(&record, &site, &mut json);
                if fragments.len() + json.len() >= NONE as usize {
                    // Past 4 GB of JSON (no atlas has that much) a site
                    // is written field by field instead.
                    json.clear();
                }
                sites.push(SiteSpans {
                    file: a.add(site.file_path),
                    line: site.line_number,
                    function: a.add_opt(site.function),
                    url: a.add_opt(site.github_url),
                    guards: a.add(&s.guards.join("\n")),
                    args: a.add(&one_a_line(&s.args)),
                    fields: a.add(&s.fields.join("\n")),
                    json: Span {
                        off: fragments.len() as u32,
                        len: json.len() as u32,
                    },
                    json_holes,
                });
                site_record.push(ri as u32);
                fragments.extend_from_slice(&json);
            }
        }
        let len = a.bytes.len();
        let mut bytes = a.bytes;
        bytes.extend_from_slice(&fragments);
        Records {
            out_filled: Default::default(),
            json: (len, bytes.len()),
            backing: Backing::Owned(bytes),
            arena: (0, len),
            records,
            sites,
            site_record,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    fn str(&self, s: Span) -> Option<&str> {
        if s.len == NONE {
            return None;
        }
        let at = self.arena.0 + s.off as usize;
        let b = self.backing.bytes().get(at..at + s.len as usize)?;
        // Checking again would cost more than all else an answer reads of
        // a record (a thousand instructions a record).
        #[allow(unsafe_code)]
        // SAFETY: the arena is UTF-8 and every span lies on its character
        // boundaries: `Records::new` writes whole strings, and
        // `Records::assemble` checks both before it keeps a span. Neither
        // the backing (owned, or mapped from a file errdex only ever
        // replaces by rename) nor the spans change afterwards.
        Some(unsafe { std::str::from_utf8_unchecked(b) })
    }

    fn text(&self, s: Span) -> &str {
        self.str(s).unwrap_or_default()
    }

    pub(crate) fn record(&self, i: usize) -> RecordView<'_> {
        let r = &self.records[i];
        RecordView {
            id: self.text(r.id),
            repo: self.text(r.repo),
            slug: self.text(r.slug),
            message_pattern: self.text(r.pattern),
            documentation: self.str(r.documentation),
            presence: self.str(r.presence),
        }
    }

    /// The record of site `site` (sites are numbered across all records).
    pub(crate) fn record_of(&self, site: u32) -> usize {
        self.site_record[site as usize] as usize
    }

    /// Site `site`, numbered across all records.
    pub(crate) fn site(&self, site: usize) -> SiteView<'_> {
        let s = &self.sites[site];
        SiteView {
            file_path: self.text(s.file),
            line_number: s.line,
            function: self.str(s.function),
            github_url: self.str(s.url),
        }
    }

    /// The guards of site `site`, one a line; none for a number that
    /// names no site of these records.
    pub(crate) fn guards(&self, site: u32) -> &str {
        self.sites
            .get(site as usize)
            .map_or("", |s| self.text(s.guards))
    }

    /// The values site `site` prints, as the source writes them, one a
    /// line (`id`, `errdefs.ErrNotFound`, `zap.String("remote-addr", a)`).
    pub(crate) fn args(&self, site: u32) -> &str {
        self.sites
            .get(site as usize)
            .map_or("", |s| self.text(s.args))
    }

    /// Whether a call in site `site`'s guards fills the value it prints
    /// through an out-parameter, in a function some site of the atlas is
    /// in. Worked out for every site at the first question: explaining
    /// asks it of every candidate of a lone frame.
    pub(crate) fn filled_through_out_parameter(&self, site: u32) -> bool {
        let filled = self.out_filled.get_or_init(|| {
            let functions: std::collections::HashSet<&str> = (0..self.sites.len())
                .filter_map(|i| self.str(self.sites[i].function))
                .map(short_name)
                .collect();
            (0..self.sites.len() as u32)
                .map(|i| {
                    crate::outparams::filled_by(self.guards(i), self.args(i))
                        .is_some_and(|f| functions.contains(f))
                })
                .collect()
        });
        filled.get(site as usize).copied().unwrap_or(false)
    }

    /// The keys of the fields site `site` sets as a structured logging
    /// call, one a line.
    pub(crate) fn fields(&self, site: u32) -> &str {
        self.sites
            .get(site as usize)
            .map_or("", |s| self.text(s.fields))
    }

    /// Site `site`'s candidate JSON and where its two holes are
    /// ([`crate::json::fragment`]); `None` for a number that names no
    /// site.
    pub(crate) fn json(&self, site: u32) -> Option<(&[u8], [usize; 2])> {
        let s = self.sites.get(site as usize)?;
        let at = self.json.0 + s.json.off as usize;
        let fragment = self.backing.bytes().get(at..at + s.json.len as usize)?;
        let [a, b] = s.json_holes.map(|h| h as usize);
        (!fragment.is_empty()).then_some((fragment, [a, b]))
    }

    /// How many sites there are, across all records.
    pub(crate) fn sites(&self) -> usize {
        self.sites.len()
    }

    /// Writes the records for [`Records::decode`].
    pub(crate) fn encode(&self, e: &mut Encoder) {
        let b = self.backing.bytes();
        e.bytes(&b[self.arena.0..self.arena.1]);
        e.bytes(&b[self.json.0..self.json.1]);
        let span = |v: &mut Vec<u32>, s: Span| v.extend([s.off, s.len]);
        let mut r = Vec::with_capacity(self.records.len() * RECORD_WORDS);
        for x in &self.records {
            for s in [x.id, x.repo, x.slug, x.pattern, x.documentation, x.presence] {
                span(&mut r, s);
            }
            r.push(x.first_site);
        }
        e.u32s(&r);
        let mut s = Vec::with_capacity(self.sites.len() * SITE_WORDS);
        for (x, &record) in self.sites.iter().zip(&self.site_record) {
            for sp in [
                x.file, x.function, x.url, x.guards, x.args, x.fields, x.json,
            ] {
                span(&mut s, sp);
            }
            s.extend([x.line, record]);
            s.extend(x.json_holes);
        }
        e.u32s(&s);
    }

    /// Reads what [`Records::encode`] wrote, from `d`, a decoder over part
    /// of `file`. Nothing is checked or assembled yet: see
    /// [`Records::assemble`].
    pub(crate) fn read(d: &mut Decoder<'_>, file: &[u8]) -> Option<RawRecords> {
        let arena = d.bytes()?;
        let start = offset_in(file, arena);
        let json = d.bytes()?;
        let json_start = offset_in(file, json);
        Some(RawRecords {
            arena: (start, start + arena.len()),
            json: (json_start, json_start + json.len()),
            records: d.u32s()?,
            sites: d.u32s()?,
        })
    }

    /// The records [`Records::read`] found in `backing`'s bytes, which
    /// they keep: the arena is not copied. `None` for spans outside the
    /// arena or not UTF-8, and for sites out of record order.
    pub(crate) fn assemble(backing: Backing, raw: RawRecords) -> Option<Records> {
        let RawRecords {
            arena: (start, end),
            json: json_arena,
            records: r,
            sites: s,
        } = raw;
        let json_len = backing.bytes().get(json_arena.0..json_arena.1)?.len();
        let arena = std::str::from_utf8(backing.bytes().get(start..end)?).ok()?;
        let span = |w: &[u32]| -> Option<Span> {
            let s = Span {
                off: w[0],
                len: w[1],
            };
            if s.len != NONE {
                arena.get(s.off as usize..s.off as usize + s.len as usize)?;
            }
            Some(s)
        };
        let required = |s: Span| (s.len != NONE).then_some(s);
        if r.len() % RECORD_WORDS != 0 || s.len() % SITE_WORDS != 0 {
            return None;
        }
        let mut records = Vec::with_capacity(r.len() / RECORD_WORDS);
        for w in r.chunks_exact(RECORD_WORDS) {
            records.push(RecordSpans {
                id: required(span(&w[0..2])?)?,
                repo: required(span(&w[2..4])?)?,
                slug: required(span(&w[4..6])?)?,
                pattern: required(span(&w[6..8])?)?,
                documentation: span(&w[8..10])?,
                presence: span(&w[10..12])?,
                first_site: w[12],
            });
        }
        let mut sites = Vec::with_capacity(s.len() / SITE_WORDS);
        let mut site_record = Vec::with_capacity(s.len() / SITE_WORDS);
        for w in s.chunks_exact(SITE_WORDS) {
            let json = Span {
                off: w[12],
                len: w[13],
            };
            let json_holes = [w[16], w[17]];
            // The fragment lies in the JSON arena, its holes in it, in order.
            let fragment_end = json.off as usize + json.len as usize;
            if fragment_end > json_len || json_holes[0] > json_holes[1] || json_holes[1] > json.len
            {
                return None;
            }
            sites.push(SiteSpans {
                file: required(span(&w[0..2])?)?,
                function: span(&w[2..4])?,
                url: span(&w[4..6])?,
                guards: required(span(&w[6..8])?)?,
                args: required(span(&w[8..10])?)?,
                fields: required(span(&w[10..12])?)?,
                json,
                json_holes,
                line: w[14],
            });
            site_record.push(w[15]);
        }
        // Each record's sites are the run from its first site to the next
        // record's, and each site names the record whose run holds it.
        for (i, rec) in records.iter().enumerate() {
            let next = records
                .get(i + 1)
                .map_or(sites.len(), |n| n.first_site as usize);
            let first = rec.first_site as usize;
            if first > next || next > sites.len() {
                return None;
            }
            if site_record[first..next].iter().any(|&r| r as usize != i) {
                return None;
            }
        }
        // ... and the runs start at the first site.
        let first = records
            .first()
            .map_or(sites.len(), |r| r.first_site as usize);
        if first != 0 {
            return None;
        }
        Some(Records {
            out_filled: Default::default(),
            backing,
            arena: (start, end),
            json: json_arena,
            records,
            sites,
            site_record,
        })
    }
}

/// Values one a line, a value written over several lines folded onto one.
fn one_a_line(args: &[String]) -> String {
    let folded: Vec<String> = args.iter().map(|a| a.replace(['\n', '\r'], " ")).collect();
    folded.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Lang;
    use errdex_store::TraceSite;

    fn rows() -> Vec<TraceRow> {
        let site = |file: &str, line: u32, function: Option<&str>| TraceSite {
            file_path: file.into(),
            line_number: line,
            function: function.map(str::to_string),
            callee: "fmt.Errorf".into(),
            args: vec![],
            github_url: Some(format!("https://github.com/o/r/blob/abc/{file}#L{line}")),
            guards: Vec::new(),
            fills: None,
            fields: Vec::new(),
            closed_holes: Vec::new(),
        };
        vec![
            TraceRow {
                id: "a".into(),
                repo: "o/r".into(),
                slug: "dial-ü".into(),
                message_pattern: "dial ü: %w".into(),
                language: Lang::Go,
                documentation: Some("The peer is gone.".into()),
                sites: vec![site("a.go", 3, Some("run")), site("b.go", 9, None)],
                presence: None,
            },
            TraceRow {
                id: "b".into(),
                repo: "o/s".into(),
                slug: "stop".into(),
                message_pattern: "stop".into(),
                language: Lang::Go,
                documentation: None,
                sites: vec![site("c.go", 1, None)],
                presence: None,
            },
        ]
    }

    fn encoded(r: &Records) -> Vec<u8> {
        let mut e = Encoder::new();
        r.encode(&mut e);
        e.finish()
    }

    fn decoded(bytes: Vec<u8>) -> Option<Records> {
        let mut d = Decoder::new(&bytes);
        let raw = Records::read(&mut d, &bytes)?;
        Records::assemble(Backing::Owned(bytes), raw)
    }

    #[test]
    fn records_show_their_rows_and_number_sites_across_them() {
        let r = Records::new(&rows());
        assert_eq!(r.len(), 2);
        assert_eq!(r.sites(), 3);
        let a = r.record(0);
        assert_eq!((a.id, a.repo, a.slug), ("a", "o/r", "dial-ü"));
        assert_eq!(a.message_pattern, "dial ü: %w");
        assert_eq!(a.documentation, Some("The peer is gone."));
        assert_eq!(r.record(1).documentation, None);
        assert_eq!([r.record_of(0), r.record_of(1), r.record_of(2)], [0, 0, 1]);
        let s = r.site(1);
        assert_eq!((s.file_path, s.line_number, s.function), ("b.go", 9, None));
        assert_eq!(
            s.github_url,
            Some("https://github.com/o/r/blob/abc/b.go#L9")
        );
        assert_eq!(r.site(0).function, Some("run"));
    }

    #[test]
    fn records_read_back_as_written_and_only_whole() {
        let r = Records::new(&rows());
        let bytes = encoded(&r);
        let back = decoded(bytes.clone()).expect("reads back");
        assert_eq!(encoded(&back), bytes);
        for i in 0..2 {
            assert_eq!(back.record(i), r.record(i));
        }
        for i in 0..3 {
            assert_eq!(back.site(i), r.site(i));
            assert_eq!(back.record_of(i as u32), r.record_of(i as u32));
        }
        for cut in 0..bytes.len() {
            let mut d = Decoder::new(&bytes[..cut]);
            assert!(
                Records::read(&mut d, &bytes[..cut]).is_none(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn spans_outside_the_text_or_sites_out_of_order_do_not_read_back() {
        let r = Records::new(&rows());
        let raw = |edit: &dyn Fn(&mut Vec<u32>, &mut Vec<u32>)| {
            let bytes = encoded(&r);
            let mut d = Decoder::new(&bytes);
            let mut raw = Records::read(&mut d, &bytes).expect("reads");
            edit(&mut raw.records, &mut raw.sites);
            Records::assemble(Backing::Owned(bytes.clone()), raw).is_some()
        };
        assert!(raw(&|_, _| {}));
        // A pattern running past the text.
        assert!(!raw(&|r, _| r[7] = 10_000));
        // A slug cutting `ü` in half (it starts at byte 5 of "dial-ü").
        assert!(!raw(&|r, _| r[5] = 6));
        // A required string marked absent.
        assert!(!raw(&|r, _| r[3] = NONE));
        // The second record's sites starting before the first's end.
        assert!(!raw(&|r, _| r[RECORD_WORDS + 12] = 1));
        // A site naming the wrong record.
        assert!(!raw(&|_, s| s[15] = 1));
        // A JSON hole past its fragment.
        assert!(!raw(&|_, s| s[17] = 100_000));
        // Runs not starting at the first site.
        assert!(!raw(&|r, _| r[12] = 1));
    }
}
