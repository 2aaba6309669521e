//! What a frame's plain holes may hold besides a value: a whole message
//! of the atlas, a format the caller handed in (a link), or the pieces a
//! message was built from.

use super::{
    rank_of, Cand, Cx, Hit, Scratch, Span, HOLE_MESSAGE_SHARE, MAX_DEPTH, MIN_HOLE_MESSAGE,
};
use crate::set::{Seg, TemplateSet};
use crate::sink::Sink;
use errdex_model::HoleKind;

/// The spaces of a last hole's text tried as the start of a piece of the
/// message ([`TemplateSet::piece_in_hole`]).
const MAX_PIECE_STARTS: usize = 8;

/// The fewest bytes a piece's first literal has (its space included): the
/// four that [`piece_key`] reads.
pub(crate) const MIN_PIECE_HEAD: usize = 4;

impl TemplateSet {
    /// A hole filled with a format its caller handed in
    /// ([`TemplateSetBuilder::link`](crate::TemplateSetBuilder::link)): a
    /// layer when a linked template explains all of it. Whether it was.
    pub(super) fn linked_in_hole<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        (template, hole): (u32, u32),
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        let span = inside_quotes(cx.text, span);
        // An empty hole holds no layer, whatever text a linked piece may
        // be (`msg = f" {msg}" if msg else ""`).
        if depth >= MAX_DEPTH || self.links.is_empty() || span.start >= span.end {
            return false;
        }
        (self.linked(template, hole).iter())
            .any(|l| self.entry_layer(cx, sc, l.entry, span, depth + 1, out))
    }

    /// Records `entry`'s template as the layer of all of `span`, at
    /// `depth`, when it explains all of it. Whether it did.
    fn entry_layer<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        entry: u32,
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        let c = self.cand_at(entry, span);
        let found = self.verify(cx.text, sc, c, span.end);
        if found {
            self.push_hit(sc, c, sbase);
            sc.hits[hbase].holes = sbase as u32;
            self.push_frame(cx, sc, hbase, span, depth, out);
        }
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        found
    }

    /// `entry`'s template as a candidate from the start of `span`.
    fn cand_at(&self, entry: u32, span: Span) -> Cand {
        let x = &self.anchored[entry as usize];
        Cand {
            rank: rank_of(x.lit_len),
            template: x.template,
            start: span.start as u32,
            entry,
        }
    }

    /// A piece too short to match alone (` in %v`) that explains all of
    /// `span`, which starts at a space: its entry.
    fn short_piece(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span) -> Option<u32> {
        let b = cx.text.as_bytes();
        let list = self
            .short_pieces
            .get(&piece_key(&b[span.start..span.end]))?;
        list.iter().copied().find(|&entry| {
            let mark = sc.spans.len();
            let found = self.verify(cx.text, sc, self.cand_at(entry, span), span.end);
            sc.spans.truncate(mark);
            found
        })
    }

    /// A message built in pieces (`message.append(f" with values
    /// {values!r}")`, `msg += " Did you mean …"`): the text of the last
    /// hole of the first piece's template runs on into the next piece. A
    /// piece is known by its template, which starts with a space (nobody
    /// prints it alone); it is a layer where it starts at a space of the
    /// hole's text and explains the rest of it, its literals a good share.
    /// [`TemplateSet::piece_rest`] gives where the piece starts; this
    /// pushes it as a layer.
    pub(super) fn piece_in_hole<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        rest: Span,
        depth: usize,
        out: &mut S,
    ) {
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, rest);
        self.push_frame(cx, sc, hbase, rest, depth + 1, out);
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
    }

    /// The rest of `span`, from one of its spaces, that a piece explains
    /// as [`TemplateSet::piece_in_hole`] reads it.
    pub(super) fn piece_rest(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
    ) -> Option<Span> {
        if depth >= MAX_DEPTH || span.len() < MIN_HOLE_MESSAGE || self.piece_heads.is_empty() {
            return None;
        }
        let b = cx.text.as_bytes();
        let mut from = span.start + 1;
        for _ in 0..MAX_PIECE_STARTS {
            let at = from + b[from..span.end].iter().position(|&c| c == b' ')?;
            let rest = Span::new(at, span.end);
            if rest.len() < MIN_HOLE_MESSAGE {
                return None;
            }
            if !self.may_start_a_piece(sc, b, rest) {
                from = at + 1;
                continue;
            }
            let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
            self.explain_whole(cx, sc, rest);
            // Its literals a good share of the rest, or a head of words
            // of its own: the rest may run on into further pieces.
            let piece = sc.hits[hbase..].first().is_some_and(|h| {
                let x = &self.anchored[h.entry as usize];
                piece_head(self.segs(x)).is_some_and(|head| {
                    head >= MIN_PIECE_HEAD
                        && (head >= MIN_HOLE_MESSAGE
                            || x.lit_len as usize * HOLE_MESSAGE_SHARE >= rest.len())
                })
            });
            sc.hits.truncate(hbase);
            sc.spans.truncate(sbase);
            if piece {
                return Some(rest);
            }
            from = at + 1;
        }
        None
    }

    /// Whether a message's last hole is read as pieces before a whole
    /// message: where a piece of the same message explains its end (`
    /// Did you mean %v instead?` appended after `Could not build url for
    /// endpoint %v`), and the best whole reading of the hole leads with a
    /// value (another program's `%v Did you mean %v?`), the piece is the
    /// nearer reading: it keeps the value a value. The piece's start,
    /// when so.
    pub(super) fn pieces_before_message(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
    ) -> Option<Span> {
        let rest = self.piece_rest(cx, sc, span, depth)?;
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, inside_quotes(cx.text, span));
        let hole_led = sc.hits[hbase..]
            .first()
            .is_some_and(|h| self.leads_with_hole(&sc.spans, *h));
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        hole_led.then_some(rest)
    }

    /// A whole message and a piece another statement appended to it
    /// (`message = message + " in #{path}"`): the text splits at a space
    /// where a piece's template explains the rest and another template
    /// explains all before it; the message, then the piece, are layers.
    /// Spaces are tried from the end: a piece ends the text. Whether it
    /// split.
    pub(super) fn message_then_piece<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        if depth >= MAX_DEPTH || self.piece_heads.is_empty() && self.short_pieces.is_empty() {
            return false;
        }
        let b = cx.text.as_bytes();
        let mut to = span.end;
        for _ in 0..MAX_PIECE_STARTS {
            let Some(at) = b[span.start + 1..to]
                .iter()
                .rposition(|&c| c == b' ')
                .map(|p| span.start + 1 + p)
            else {
                return false;
            };
            to = at;
            let (head, rest) = (Span::new(span.start, at), Span::new(at, span.end));
            let anchored =
                self.may_start_a_piece(sc, b, rest) && self.explains_a_piece(cx, sc, rest);
            // A short piece (` in %v`) is known by its head alone, here
            // where the whole message before it must be known too.
            let short = (!anchored)
                .then(|| self.short_piece(cx, sc, rest))
                .flatten();
            if (anchored || short.is_some()) && self.whole_layer(cx, sc, head, depth, out) {
                match short {
                    Some(entry) => self.entry_layer(cx, sc, entry, rest, depth, out),
                    None => self.whole_layer(cx, sc, rest, depth, out),
                };
                return true;
            }
        }
        false
    }

    /// Whether a piece may start `rest` of text `b`: most spaces start
    /// none, told from their first four bytes, and a piece has an anchor.
    fn may_start_a_piece(&self, sc: &Scratch, b: &[u8], rest: Span) -> bool {
        self.piece_heads
            .contains(&piece_key(&b[rest.start..rest.end]))
            && sc.occ.iter().any(|o| rest.holds(o))
    }

    /// Whether a piece's template (one that starts with a space) explains
    /// all of `span`.
    fn explains_a_piece(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span) -> bool {
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        let piece = sc.hits[hbase..].first().is_some_and(|h| {
            piece_head(self.segs(&self.anchored[h.entry as usize]))
                .is_some_and(|n| n >= MIN_PIECE_HEAD)
        });
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        piece
    }

    /// Explains all of `span` as one layer and records it, when a template
    /// does (the left side of glue, a message before a piece). Whether one
    /// did.
    pub(super) fn whole_layer<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        if !sc.occ.iter().any(|o| span.holds(o)) {
            return false;
        }
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        let found = sc.hits.len() > hbase;
        if found {
            self.push_frame(cx, sc, hbase, span, depth, out);
        }
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        found
    }

    /// A plain `%s` or `%q` hole filled with a whole message of the atlas
    /// (click's `Error: {message}`, gRPC's `desc = %s`): a layer of its
    /// own when a template explains all of it (inside its quotes for
    /// `%q`), or all of it after a layer nobody explains that ends with
    /// `: ` (`desc = failed to get image "x": failed to unpack …`);
    /// otherwise it stays a value. Whether it was a layer.
    pub(super) fn message_in_hole<S: Sink>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        span: Span,
        depth: usize,
        out: &mut S,
    ) -> bool {
        let span = inside_quotes(cx.text, span);
        if depth >= MAX_DEPTH
            || span.len() < MIN_HOLE_MESSAGE
            || !sc.occ.iter().any(|o| span.holds(o))
        {
            return false;
        }
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        if sc.hits.len() == hbase {
            self.behind_head(cx, sc, span, false);
        }
        // Its literals must be a good share of it: a short template whose
        // holes take most of a value (`failed to destroy %s: %w`) is a
        // guess, not a layer.
        let first = sc.hits[hbase..].first().copied();
        let held = first.map_or(span, |h| Span::new(h.start, span.end));
        let explains = first.is_some_and(|h| {
            let x = &self.anchored[h.entry as usize];
            // A message that leads with words and wraps an error (`failed
            // to copy: %w`) is the next layer of a chain behind a layer
            // of its own, and anywhere when it is only those words and the
            // error (`latest balancer error: %v`): no value hole can take
            // words of the text. One that ends with a value (`Can't
            // resolve %s`) must explain a good share, as anywhere.
            let segs = self.segs(x);
            let wraps_an_error = matches!(segs.first(), Some(Seg::Lit { len, .. }) if *len as usize >= MIN_HOLE_MESSAGE)
                && matches!(segs.last(), Some(Seg::Hole { chain: true, .. }));
            let behind = wraps_an_error && (h.start > span.start || segs.len() == 2);
            // The template's own literals first: its holes are read only
            // when those are too few.
            behind
                || x.lit_len as usize * HOLE_MESSAGE_SHARE >= held.len()
                || self.explained_len(cx, sc, h) * HOLE_MESSAGE_SHARE >= held.len()
        });
        if explains {
            if held.start > span.start {
                out.unmatched(Span::new(span.start, held.start));
            }
            self.push_frame(cx, sc, hbase, held, depth + 1, out);
        }
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        explains
    }

    /// The literal bytes a hit explains: its template's, and when those
    /// are a small share, also those of the message its last hole holds
    /// whole (a wrapped error's too), one level down (`Invalid value for
    /// %v: %v` around `%v %v does not exist.`). The last hole only: a
    /// message ends with what it carries.
    fn explained_len(&self, cx: &Cx<'_>, sc: &mut Scratch, h: Hit) -> usize {
        let x = &self.anchored[h.entry as usize];
        let len = x.lit_len as usize;
        let segs = self.segs(x);
        let Some(&Seg::Hole {
            kind,
            chain,
            system: false,
        }) = segs.last()
        else {
            return len;
        };
        let holes = segs
            .iter()
            .filter(|s| matches!(s, Seg::Hole { .. }))
            .count();
        // A `%q` value is read inside its quotes, as `message_in_hole`
        // reads it.
        let span = inside_quotes(cx.text, sc.spans[h.holes as usize + holes - 1]);
        if !(chain || matches!(kind, HoleKind::Any | HoleKind::Quoted))
            || span.len() < MIN_HOLE_MESSAGE
            || !sc.occ.iter().any(|o| span.holds(o))
        {
            return len;
        }
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        let inner = sc.hits[hbase..]
            .first()
            .map_or(0, |i| self.anchored[i.entry as usize].lit_len as usize);
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        len + inner
    }
}

/// The key of a piece's first four bytes, as [`TemplateSet::piece_heads`]
/// holds them (zero-padded when the text is shorter).
#[inline]
fn piece_key(b: &[u8]) -> u32 {
    let mut k = [0u8; 4];
    let n = b.len().min(4);
    k[..n].copy_from_slice(&b[..n]);
    u32::from_le_bytes(k)
}

/// The length of a template's first literal when it starts with a space:
/// a piece appended to a message, never printed first.
#[inline]
pub(crate) fn piece_head(segs: &[Seg]) -> Option<usize> {
    match segs.first() {
        Some(Seg::Lit { first, len, .. }) if *first as u8 == b' ' => Some(*len as usize),
        _ => None,
    }
}

/// A `%q` hole's text without its quotes.
fn inside_quotes(text: &str, span: Span) -> Span {
    let b = text.as_bytes();
    let quoted = span.len() >= 2 && b[span.start] == b'"' && b[span.end - 1] == b'"';
    if quoted {
        Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

impl TemplateSet {
    /// `cni config load failed: %v: %w` over `…: no network config found in
    /// /etc/cni/net.d: cni plugin not initialized: failed to load cni
    /// config`: holes apart by `: ` split at the first `: ` the text has,
    /// but a message inside the earlier hole may hold a `: ` of its own
    /// (`no network config found in %s: %w`). When the earlier hole holds
    /// an error (a chain hole), its text is no whole message and running
    /// it on to a later `: ` of the next (last) hole makes it one, the
    /// split moves there; a plain value's hole keeps the first split. `holes` are the
    /// first hit's hole spans, changed in place.
    pub(super) fn resplit_at_colons(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        segs: &[Seg],
        first_hole: usize,
    ) {
        let [.., Seg::Hole { chain: true, .. }, Seg::Lit { len: 2, first, .. }, Seg::Hole { .. }] =
            segs
        else {
            return;
        };
        if first.to_le_bytes()[..2] != *b": " {
            return;
        }
        let holes = segs
            .iter()
            .filter(|s| matches!(s, Seg::Hole { .. }))
            .count();
        let (left, right) = (first_hole + holes - 2, first_hole + holes - 1);
        let (a, b) = (sc.spans[left], sc.spans[right]);
        if a.len() == 0 || b.len() == 0 || self.explains_whole(cx, sc, a) {
            return;
        }
        let bytes = cx.text.as_bytes();
        let mut from = b.start;
        for _ in 0..3 {
            let Some(p) = crate::bytes::colon_space(&bytes[from..b.end]) else {
                return;
            };
            let at = from + p;
            if self.explains_whole(cx, sc, Span::new(a.start, at)) {
                sc.spans[left] = Span::new(a.start, at);
                sc.spans[right] = Span::new(at + 2, b.end);
                return;
            }
            from = at + 2;
        }
    }

    /// Whether some template explains all of `span` from its start.
    fn explains_whole(&self, cx: &Cx<'_>, sc: &mut Scratch, span: Span) -> bool {
        let (hbase, sbase) = (sc.hits.len(), sc.spans.len());
        self.explain_whole(cx, sc, span);
        let found = sc.hits.len() > hbase;
        sc.hits.truncate(hbase);
        sc.spans.truncate(sbase);
        found
    }
}
