//! Building a [`TemplateSet`]: each template compiled into flat runs of
//! copyable segments, its anchored entry (one cache line), and the anchor
//! table that leads from a word to its templates' entries.

use crate::anchors::Anchors;
use crate::bytes;
use crate::Hints;
use errdex_model::{HoleKind, Segment, Template};

/// Templates with fewer literal letters and digits never match alone,
/// unless they are a log format's skeleton ([`is_log_skeleton`]).
const MIN_ALNUM: usize = 4;

/// Whether a template may match a text alone, not only as glue in a
/// chain.
fn may_match_alone(t: &Template) -> bool {
    t.literal_alnum() >= MIN_ALNUM || is_log_skeleton(t) || is_framed_value(t) || is_coded_reply(t)
}

/// A line protocol's error reply: a code in capitals of three letters or
/// more, a space, then the message (Redis's `ERR %v`, which its clients
/// print for every generic error). The code is the protocol's own, so it
/// is selective enough to match alone, around the message's layer.
fn is_coded_reply(t: &Template) -> bool {
    let [Segment::Lit(code), Segment::Hole(_)] = t.segments.as_slice() else {
        return false;
    };
    code.strip_suffix(' ')
        .is_some_and(|c| c.len() >= 3 && c.bytes().all(|b| b.is_ascii_uppercase()))
}

/// A value framed by marks on both sides (Redis's `>>> '%s'` under its
/// config error banner, `*** %s ***`, tail's `==> %s <==`): one hole
/// between a literal that opens and one that closes it, five marks or
/// more (blanks aside), no word and no `: ` (a wrap of messages).
/// Selective enough to match alone; plain quotes or brackets (`"%s"`,
/// `[%s]`) are not.
fn is_framed_value(t: &Template) -> bool {
    let [Segment::Lit(open), Segment::Hole(_), Segment::Lit(close)] = t.segments.as_slice() else {
        return false;
    };
    let marks = |l: &str| l.bytes().filter(|b| b.is_ascii_punctuation()).count();
    let plain =
        |l: &str| !l.contains(": ") && l.bytes().all(|b| b.is_ascii_punctuation() || b == b' ');
    plain(open)
        && plain(close)
        && marks(open) >= 1
        && marks(close) >= 1
        && marks(open) + marks(close) >= 5
}

/// An access-log format is all holes and punctuation (werkzeug's `%s - -
/// [%s] %s`, nginx's `$remote_addr - $remote_user [$time_local]
/// "$request" …`): three holes or more between eight literal bytes or
/// more, four of them marks (not blanks), are selective enough. A `: `
/// between its holes makes it a wrap of messages (`%s: %s (%s): %w`),
/// which glue traces layer by layer: no skeleton, since a skeleton is
/// tried wherever its marks occur, and `): ` occurs in many lines.
fn is_log_skeleton(t: &Template) -> bool {
    let (mut holes, mut bytes, mut marks) = (0, 0, 0);
    for s in &t.segments {
        match s {
            Segment::Hole(_) => holes += 1,
            Segment::Lit(l) if l.contains(": ") => return false,
            Segment::Lit(l) => {
                bytes += l.len();
                marks += l.bytes().filter(|b| b.is_ascii_punctuation()).count();
            }
        }
    }
    holes >= 3 && bytes >= 8 && marks >= 4
}

/// A piece of a compiled template. Literal bytes live in the set's
/// arenas, so a template is a run of small, copyable segments.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg {
    /// A literal of `len` bytes: its first eight (zero-padded) in `first`,
    /// the rest as eight-byte words at `words[words..]`. `probe` is the
    /// index of its rarest byte, searched for first, and `byte` that byte.
    /// Most literals are eight bytes or shorter, and a template tried in
    /// vain mostly fails on its first bytes: both are answered from the
    /// segment alone, without reading another array.
    Lit {
        len: u32,
        words: u32,
        probe: u32,
        byte: u8,
        first: u64,
    },
    Hole {
        kind: HoleKind,
        chain: bool,
        /// Whether its value is the operating system's text for an errno
        /// ([`prints_system_text`]): read by the runtime knowledge base,
        /// never by a repository's templates.
        system: bool,
    },
}

/// An anchored template with what its text must start and end with (up to
/// eight bytes each, masked): checked in one dense table before any
/// verification, these reject most candidates of an occurrence without
/// touching the template. It also holds all that verifying and answering
/// need of the template (its segment and payload ranges), so a traced line
/// reads one line of this table per template it tries: on these machines
/// each cache line a line misses costs more than its instructions.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
pub(crate) struct Entry {
    pub(crate) template: u32,
    pub(crate) lit_len: u32,
    /// Range of `TemplateSet::segs`.
    pub(crate) segs: (u32, u32),
    /// Range of `TemplateSet::payloads`.
    pub(crate) payloads: (u32, u32),
    /// Where its literals' words past their first eight bytes start in
    /// `TemplateSet::words` (read once it is verified, so asked for early).
    pub(crate) words: u32,
    /// Whether this is the last template of its anchor.
    pub(crate) last: bool,
    pub(crate) head: u64,
    pub(crate) head_mask: u64,
    pub(crate) tail: u64,
    pub(crate) tail_mask: u64,
}

/// How common a byte is in log text, to pick the byte of a literal that
/// is searched for first: spaces and common letters stop a search at
/// every other position, rare bytes seldom.
fn commonness(c: u8) -> u32 {
    const LETTERS: &[u8] = b"etaoinsrhldcumfpgwybvkxjqz";
    match c {
        b' ' => 100,
        b'a'..=b'z' => 60 - LETTERS.iter().position(|&l| l == c).unwrap_or(25) as u32 * 2,
        b'0'..=b'9' | b':' | b'/' | b'.' | b'-' | b'=' => 30,
        b'A'..=b'Z' => 5,
        _ => 10,
    }
}

/// Collects templates; [`TemplateSetBuilder::build`] compiles them.
#[derive(Debug, Default)]
pub struct TemplateSetBuilder {
    templates: Vec<(Template, Vec<u32>)>,
    index: foldhash::HashMap<Template, usize>,
    files: foldhash::HashMap<u32, (Box<str>, u32)>,
    links: Vec<(u32, String, u32)>,
}

impl TemplateSetBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a template for a site. `payload` is the caller's handle for the
    /// site; `file` its path, for location hints. Identical templates share
    /// one compiled form.
    pub fn add(&mut self, mut template: Template, payload: u32, file: &str, line: u32) {
        trim_trailing_blanks(&mut template);
        self.files.insert(payload, (file.into(), line));
        match self.index.get(&template) {
            // A site's message may hold the same line twice.
            Some(&i) if self.templates[i].1.last() == Some(&payload) => {}
            Some(&i) => self.templates[i].1.push(payload),
            None => {
                self.index.insert(template.clone(), self.templates.len());
                self.templates.push((template, vec![payload]));
            }
        }
    }

    /// Declares that the holes of `outer`'s templates filled by the
    /// argument `arg` may hold the text of `inner`'s templates, whatever
    /// their share of it: `inner` hands its format to the function
    /// `outer` prints in, as that parameter (werkzeug's `self.log("info",
    /// '"%s" %s %s', …)` into `log`'s `f"{address} - - [{date}]
    /// {message}"`). Such an inner template needs no word of its own.
    pub fn link(&mut self, outer: u32, arg: &str, inner: u32) {
        self.links.push((outer, arg.to_string(), inner));
    }

    /// Compiles the set.
    pub fn build(mut self) -> TemplateSet {
        let mut anchors =
            Anchors::build(self.templates.iter().map(|(t, _)| (t, may_match_alone(t))));
        let mut set = TemplateSet {
            templates: self.templates.len() as u32,
            segs: Vec::new(),
            words: Vec::new(),
            payloads: Vec::new(),
            anchored: Vec::new(),
            anchors: Anchors::default(),
            files: std::mem::take(&mut self.files),
            links: Vec::new(),
            short_pieces: Default::default(),
            piece_heads: Default::default(),
            literal_ends: Default::default(),
            full_heads: Default::default(),
        };
        let entries: Vec<Entry> = (self.templates.iter().enumerate())
            .map(|(i, (t, payloads))| set.compile(i as u32, t, payloads))
            .collect();
        // Each anchor's templates in one flat array, the last marked: the
        // candidates of an occurrence are then one contiguous read, from
        // where the anchor's number (renumbered so) points.
        let mut first = Vec::new();
        for list in anchors.take_templates() {
            first.push(set.anchored.len() as u32);
            set.anchored
                .extend(list.iter().map(|&ti| entries[ti as usize]));
            if let Some(x) = set.anchored.last_mut() {
                x.last = true;
            }
        }
        anchors.renumber(|a| first[a as usize]);
        set.anchors = anchors;
        set.links = self.compile_links(&mut set.anchored, &mut set.payloads, &entries);
        set.short_pieces = self.compile_short_pieces(&mut set.anchored, &entries);
        (set.piece_heads, set.literal_ends) = (set.pieces(), set.ends());
        set.full_heads = set.heads();
        set
    }

    /// Pieces too short to match alone (` in %v`: a space, a short word,
    /// a value) as entries of their own at the end of `anchored`, which no
    /// anchor reaches, by the key of their first four bytes: a piece is
    /// looked for where a whole message before it is known
    /// (`message_then_piece`), and there its head is enough.
    fn compile_short_pieces(
        &self,
        anchored: &mut Vec<Entry>,
        entries: &[Entry],
    ) -> foldhash::HashMap<u32, Vec<u32>> {
        let mut out: foldhash::HashMap<u32, Vec<u32>> = Default::default();
        for (i, (t, _)) in self.templates.iter().enumerate() {
            if may_match_alone(t) || !is_short_piece(t) {
                continue;
            }
            anchored.push(Entry {
                last: true,
                ..entries[i]
            });
            let entry = anchored.len() as u32 - 1;
            out.entry(entries[i].head as u32).or_default().push(entry);
        }
        out
    }

    /// [`TemplateSetBuilder::link`]s as entries: each linked inner site's
    /// template gets an entry of its own at the end of `anchored`, which no
    /// anchor reaches, whose payload is that site alone (another site of
    /// the same text is no layer there), and each outer template lists
    /// (its hole's number, that entry) in template order.
    fn compile_links(
        &self,
        anchored: &mut Vec<Entry>,
        payloads: &mut Vec<u32>,
        entries: &[Entry],
    ) -> Vec<Link> {
        if self.links.is_empty() {
            return Vec::new();
        }
        let mut of_payload: foldhash::HashMap<u32, Vec<usize>> = Default::default();
        for (i, (_, payloads)) in self.templates.iter().enumerate() {
            for p in payloads {
                of_payload.entry(*p).or_default().push(i);
            }
        }
        let mut inner_entry: foldhash::HashMap<(usize, u32), u32> = Default::default();
        let mut links = Vec::new();
        for (outer, arg, inner) in &self.links {
            let (Some(outers), Some(inners)) = (of_payload.get(outer), of_payload.get(inner))
            else {
                continue;
            };
            for &o in outers {
                let holes = self.templates[o].0.segments.iter().filter_map(|s| match s {
                    Segment::Hole(h) => Some(h),
                    Segment::Lit(_) => None,
                });
                for (hole, _) in holes
                    .enumerate()
                    .filter(|(_, h)| h.arg.as_deref() == Some(arg))
                {
                    for &i in inners {
                        let entry = *inner_entry.entry((i, *inner)).or_insert_with(|| {
                            payloads.push(*inner);
                            let at = payloads.len() as u32;
                            anchored.push(Entry {
                                last: true,
                                payloads: (at - 1, at),
                                ..entries[i]
                            });
                            anchored.len() as u32 - 1
                        });
                        links.push(Link {
                            template: o as u32,
                            hole: hole as u32,
                            entry,
                        });
                    }
                }
            }
        }
        links.sort_unstable_by_key(|l| (l.template, l.hole, l.entry));
        links.dedup();
        links
    }
}

/// An inner template that may fill a hole of an outer one
/// ([`TemplateSetBuilder::link`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    /// The outer template.
    pub(crate) template: u32,
    /// The number of its hole, counted from 0.
    pub(crate) hole: u32,
    /// The inner template's entry in `anchored`.
    pub(crate) entry: u32,
}

/// Compiled templates; immutable and shared.
#[derive(Debug)]
pub struct TemplateSet {
    /// How many distinct templates were compiled (the unanchored ones,
    /// glue only, have no entry).
    pub(crate) templates: u32,
    pub(crate) segs: Vec<Seg>,
    /// Literals past their first eight bytes, as eight-byte words.
    pub(crate) words: Vec<u64>,
    pub(crate) payloads: Vec<u32>,
    /// Templates by anchor; an anchor is numbered by its first one here.
    pub(crate) anchored: Vec<Entry>,
    pub(crate) anchors: Anchors,
    pub(crate) files: foldhash::HashMap<u32, (Box<str>, u32)>,
    /// Inner templates that may fill an outer one's hole, sorted by
    /// outer template and hole.
    pub(crate) links: Vec<Link>,
    /// The entries of pieces too short to match alone, by the key of
    /// their first four bytes (`piece_key`).
    pub(crate) short_pieces: foldhash::HashMap<u32, Vec<u32>>,
    /// The first four bytes of every piece, a template that starts with a
    /// space (`piece_in_hole` looks for them first).
    pub(crate) piece_heads: foldhash::HashSet<u32>,
    /// The last four bytes of every template that ends with a literal of
    /// four bytes or more (`trace_head` cuts a text only where one ends).
    pub(crate) literal_ends: foldhash::HashSet<u32>,
    /// The entries of templates that begin with eight literal bytes or
    /// more, by those bytes: a cut text (`trace_cut`) may have lost the
    /// word a template is anchored on, never its beginning.
    pub(crate) full_heads: foldhash::HashMap<u64, Vec<u32>>,
}

impl TemplateSet {
    /// [`TemplateSet::piece_heads`] of its templates.
    pub(crate) fn pieces(&self) -> foldhash::HashSet<u32> {
        self.anchored
            .iter()
            .filter(|x| {
                crate::trace::piece_head(self.segs(x))
                    .is_some_and(|n| n >= crate::trace::MIN_PIECE_HEAD)
            })
            .map(|x| x.head as u32)
            .collect()
    }

    /// [`TemplateSet::literal_ends`] of its templates: the high four bytes
    /// of a tail of four bytes or more.
    pub(crate) fn ends(&self) -> foldhash::HashSet<u32> {
        const FOUR: u64 = 0xffff_ffff_0000_0000;
        self.anchored
            .iter()
            .filter(|x| x.tail_mask & FOUR == FOUR)
            .map(|x| (x.tail >> 32) as u32)
            .collect()
    }

    /// [`TemplateSet::full_heads`] of its templates, each entry once.
    pub(crate) fn heads(&self) -> foldhash::HashMap<u64, Vec<u32>> {
        let mut heads: foldhash::HashMap<u64, Vec<u32>> = Default::default();
        let mut seen = foldhash::HashSet::default();
        for (i, x) in self.anchored.iter().enumerate() {
            if x.head_mask == u64::MAX && seen.insert(x.template) {
                heads.entry(x.head).or_default().push(i as u32);
            }
        }
        heads
    }

    /// The inner templates linked to a hole of a template
    /// ([`TemplateSetBuilder::link`]).
    #[inline]
    pub(crate) fn linked(&self, template: u32, hole: u32) -> &[Link] {
        let from = self
            .links
            .partition_point(|l| (l.template, l.hole) < (template, hole));
        let to =
            from + self.links[from..].partition_point(|l| (l.template, l.hole) == (template, hole));
        &self.links[from..to]
    }

    /// Number of distinct templates.
    pub fn len(&self) -> usize {
        self.templates as usize
    }

    /// Whether the set has no templates.
    pub fn is_empty(&self) -> bool {
        self.templates == 0
    }

    /// Whether some template's text starts with `head` (compared on its
    /// first eight bytes): a level marker that starts a template is a
    /// CLI's own printer as well as a marker.
    pub fn starts_a_template(&self, head: &str) -> bool {
        let n = head.len().min(8);
        let (want, mask) = (bytes::load_slice(head.as_bytes(), 0), bytes::low_mask(n));
        self.anchored
            .iter()
            .any(|x| x.head_mask & mask == mask && x.head & mask == want & mask)
    }

    /// The largest payload any template carries, if any does.
    pub fn max_payload(&self) -> Option<u32> {
        self.payloads.iter().copied().max()
    }

    /// Compiles template number `template` printed by the sites
    /// `payloads`: its segments and words appended to the set's arrays, and
    /// its entry, with the checks on its first and last eight bytes.
    fn compile(&mut self, template: u32, t: &Template, payloads: &[u32]) -> Entry {
        let seg_start = self.segs.len() as u32;
        let words = self.words.len() as u32;
        for seg in &t.segments {
            let seg = match seg {
                Segment::Lit(l) => self.literal(l.as_bytes()),
                Segment::Hole(h) => Seg::Hole {
                    kind: h.kind,
                    chain: h.chain,
                    system: h.arg.as_deref().is_some_and(prints_system_text),
                },
            };
            self.segs.push(seg);
        }
        let segs = (seg_start, self.segs.len() as u32);
        let pay_start = self.payloads.len() as u32;
        self.payloads.extend_from_slice(payloads);
        let (mut head, mut head_mask, mut tail, mut tail_mask) = (0, 0, 0, 0);
        if let Some(Segment::Lit(l)) = t.segments.first() {
            let n = l.len().min(8);
            head = bytes::load_slice(l.as_bytes(), 0);
            head_mask = bytes::low_mask(n);
        }
        if let Some(Segment::Lit(l)) = t.segments.last() {
            let b = l.as_bytes();
            let n = b.len().min(8);
            // The last `n` bytes in the high bytes, as a text's eight
            // bytes before its end load.
            tail = bytes::load_slice(b, b.len() - n) << (8 * (8 - n));
            tail_mask = bytes::high_mask(n);
        }
        Entry {
            template,
            lit_len: t.literal_len() as u32,
            segs,
            payloads: (pay_start, self.payloads.len() as u32),
            words,
            last: false,
            head,
            head_mask,
            tail,
            tail_mask,
        }
    }

    fn literal(&mut self, l: &[u8]) -> Seg {
        let probe = (0..l.len()).min_by_key(|&i| commonness(l[i])).unwrap_or(0);
        let seg = Seg::Lit {
            len: l.len() as u32,
            words: self.words.len() as u32,
            probe: probe as u32,
            byte: l.get(probe).copied().unwrap_or(0),
            first: bytes::load_slice(l, 0),
        };
        self.words
            .extend(bytes::literal_words(l.get(8..).unwrap_or_default()));
        seg
    }

    /// The segments of an entry's template.
    #[inline]
    pub(crate) fn segs(&self, x: &Entry) -> &[Seg] {
        &self.segs[x.segs.0 as usize..x.segs.1 as usize]
    }

    /// The sites that print an entry's template.
    #[inline]
    pub(crate) fn payloads(&self, x: &Entry) -> &[u32] {
        &self.payloads[x.payloads.0 as usize..x.payloads.1 as usize]
    }

    /// Whether a site's file matches a location hint, and its line too.
    #[inline]
    pub(crate) fn hinted(&self, payload: u32, hints: &Hints) -> (bool, bool) {
        if hints.files.is_empty() {
            return (false, false);
        }
        match self.files.get(&payload) {
            Some((f, line)) => {
                let hinted = hints.files.iter().any(|h| {
                    f.ends_with(h.as_str())
                        && (f.len() == h.len() || f.as_bytes()[f.len() - h.len() - 1] == b'/')
                });
                (hinted, hinted && hints.line == Some(*line))
            }
            None => (false, false),
        }
    }
}

/// Whether a hole's argument is the operating system's text for an
/// errno: `strerror(errno)` (also glibc's `%m`), `gai_strerror(rc)`,
/// the wrappers that look the errno up for it (nginx's `ngx_strerror`,
/// curl's `Curl_strerror`), Python's `e.strerror` and `os.strerror(n)`.
/// A repository that prints the same words (`"Unknown error"`,
/// `Connection reset by %s`) did not print them here. A library's own
/// table (`curl_easy_strerror`, `SSL_alert_desc_string`) is its text.
pub(crate) fn prints_system_text(arg: &str) -> bool {
    let a = arg.trim();
    let callee = a.split_once('(').map_or("", |(c, _)| c).trim();
    let name = callee.rsplit(['.', ':', '>']).next().unwrap_or(callee);
    let system = [
        "strerror",
        "strerror_r",
        "strerror_l",
        "gai_strerror",
        "hstrerror",
        "g_strerror",
        "ngx_strerror",
        "Curl_strerror",
    ];
    system.contains(&name) || (a.rsplit('.').next() == Some("strerror") && !a.contains('('))
}

/// A piece (a template that starts with a space) whose head holds a word
/// of two letters or more: ` in %v`, not ` (%v)`.
fn is_short_piece(t: &Template) -> bool {
    matches!(t.segments.first(), Some(Segment::Lit(l))
        if l.starts_with(' ')
            && l.len() >= crate::trace::MIN_PIECE_HEAD
            && l.bytes().filter(u8::is_ascii_alphanumeric).count() >= 2)
}

/// Drops the blanks a template ends with after its last value: a message
/// that ends so has more text written after it on the same line (click's
/// `Usage: %v ` before the arguments), which that hole then takes. Blanks
/// after words stay: such a piece fills a hole and the outer's text
/// follows it (etcd's `read-only range ` before `request %q`).
fn trim_trailing_blanks(t: &mut Template) {
    let n = t.segments.len();
    let blank_after_hole = n >= 2
        && matches!(t.segments[n - 2], Segment::Hole(_))
        && matches!(&t.segments[n - 1], Segment::Lit(l) if l.bytes().all(|c| c == b' ' || c == b'\t'));
    if blank_after_hole {
        t.segments.pop();
    }
}
