//! A text that traces to nothing may be a whole message with more after
//! it: where such a message can end, and its head traced alone. Or it may
//! be the beginning of a message, cut short.

use super::{rank_of, Cand, Cx, Scratch, Span};
use crate::set::TemplateSet;
use crate::sink::Sink;

/// The least literal text a cut text must share with a template: fewer
/// bytes would take any message's first words for a longer one.
const MIN_CUT_LITERAL: usize = 24;

/// The least literal text a text that parts from a template must share
/// with it, in bytes and as a share of the template's (three fifths).
const MIN_DRIFT_LITERAL: usize = 40;

impl TemplateSet {
    /// A text that traces to nothing may be a whole message with more
    /// after it ([`tail_cuts`]): its head is traced (with the anchors
    /// already found), the rest unmatched.
    #[cold]
    pub(super) fn trace_head<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch) -> Option<S> {
        let b = cx.text.as_bytes();
        for cut in tail_cuts(cx.text).into_iter().flatten() {
            // Where no template's last literal ends, or no anchor is
            // before, nothing can end.
            let end = u32::from_le_bytes([b[cut - 4], b[cut - 3], b[cut - 2], b[cut - 1]]);
            if !self.literal_ends.contains(&end) || !sc.occ.iter().any(|o| o.end <= cut) {
                continue;
            }
            let mut head = S::default();
            sc.cands.clear();
            sc.hits.clear();
            sc.spans.clear();
            self.trace_span(cx, sc, Span::new(0, cut), 0, true, &mut head);
            if !head.unexplained().0 {
                head.unmatched(Span::new(cut, cx.text.len()));
                return Some(head);
            }
        }
        None
    }
}

/// A template is loose when its literals are less than one in this many
/// bytes of the text it explains.
const LOOSE_SHARE: usize = 3;

impl TemplateSet {
    /// A text that one loose template explains alone (`failed to %s %s on
    /// %s (%s)`, its holes taking most of the words) may be a
    /// message another version worded differently at its end, whose
    /// template shares far more of its text (etcd's `failed to send out
    /// heartbeat on time (exceeded the %v timeout for %v, to %x)`, printed
    /// without `, to %x` by an older release): the reading of
    /// [`TemplateSet::trace_cut`] wins when its one layer has more than
    /// twice the loose one's literal text.
    pub(super) fn firmer_reading<S: Sink + Default>(
        &self,
        cx: &Cx<'_>,
        sc: &mut Scratch,
        out: S,
    ) -> S {
        let Some((literal, len)) = out.lone_frame() else {
            return out;
        };
        if literal * LOOSE_SHARE >= len {
            return out;
        }
        // Loose templates explain many lines: the cut reading is tried
        // only when a template that begins as the text does (by its first
        // eight bytes) has the literal text to win.
        let head = sc.text.load_n(0, cx.text.len().min(8));
        let firmer = self.full_heads.get(&head).is_some_and(|entries| {
            entries
                .iter()
                .any(|&i| self.anchored[i as usize].lit_len as usize > 2 * literal)
        });
        if !firmer {
            return out;
        }
        match self.trace_cut::<S>(cx, sc) {
            Some(cut) if cut.lone_frame().is_some_and(|(l, _)| l > 2 * literal) => cut,
            _ => out,
        }
    }

    /// A text that traces to nothing may be a message cut short (at a
    /// terminal's width, a console's box, a collector's line limit, or by
    /// hand, with `...` or `…` after it): the templates it begins, with
    /// the most literal text matched, explain it.
    /// Else it may part from a template ([`TemplateSet::drift`]).
    #[cold]
    pub(super) fn trace_cut<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch) -> Option<S> {
        let end = cut_end(cx.text)?;
        sc.cands.clear();
        sc.hits.clear();
        sc.spans.clear();
        self.cut_candidates(sc, Span::new(0, end));
        if sc.cands.is_empty() {
            return None;
        }
        self.cut_short(cx, sc, end)
            .or_else(|| self.drift(cx, sc, end))
    }

    /// [`TemplateSet::trace_cut`] of `text[..end]` from the candidates in
    /// `sc.cands`: the templates it begins.
    fn cut_short<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch, end: usize) -> Option<S> {
        let mut most = MIN_CUT_LITERAL;
        for i in 0..sc.cands.len() {
            let c = sc.cands[i];
            if sc.hits.iter().any(|h| h.template == c.template) {
                continue;
            }
            let mut mark = sc.spans.len();
            if !self.verify_as::<true>(cx.text, sc, c, end) {
                continue;
            }
            let held: usize = sc.spans[mark..].iter().map(|s| s.len()).sum();
            let literal = end - held;
            if literal < most {
                sc.spans.truncate(mark);
                continue;
            }
            if literal > most || sc.hits.is_empty() {
                // A better template: the hits so far and their spans go.
                sc.spans.drain(..mark);
                sc.hits.clear();
                mark = 0;
                most = literal;
            }
            self.push_hit(sc, c, mark);
        }
        if sc.hits.is_empty() {
            return None;
        }
        // Spans were appended in hit order; give each hit its range.
        let mut at = 0;
        for h in &mut sc.hits {
            let n = h.holes as usize;
            h.holes = at as u32;
            at += n;
        }
        let mut out = S::default();
        self.push_frame(cx, sc, 0, Span::new(0, end), 0, &mut out);
        Some(out)
    }

    /// A text that begins as a template does and then goes another way:
    /// another version of the code words the message's end differently
    /// (urllib3 1.26's `…/en/1.26.x/advanced-usage.html#ssl-warnings`
    /// where 2.x prints `…/en/latest/advanced-usage.html#tls-warnings`).
    /// The template whose beginning it shares, when that is most of the
    /// template's literal text, explains the text up to where they part;
    /// the rest is unmatched.
    /// The candidates are those of [`TemplateSet::trace_cut`], in `sc.cands`.
    fn drift<S: Sink + Default>(&self, cx: &Cx<'_>, sc: &mut Scratch, end: usize) -> Option<S> {
        sc.hits.clear();
        sc.spans.clear();
        // (literal shared, where the text parts, candidate)
        let mut best: Option<(usize, usize, Cand)> = None;
        for i in 0..sc.cands.len() {
            let c = sc.cands[i];
            let lit_len = self.anchored[c.entry as usize].lit_len as usize;
            let need = (lit_len * 3).div_ceil(5).max(MIN_DRIFT_LITERAL);
            if lit_len < need || need > end || best.is_some_and(|b| b.0 > lit_len) {
                continue;
            }
            let Some((literal, part)) = self.parting(cx.text, sc, c, need, end) else {
                continue;
            };
            if literal >= need && best.is_none_or(|b| literal > b.0) {
                best = Some((literal, part, c));
            }
        }
        let (_, part, c) = best?;
        sc.hits.clear();
        sc.spans.clear();
        if !self.verify_as::<true>(cx.text, sc, c, part) {
            return None;
        }
        self.push_hit(sc, c, 0);
        sc.hits[0].holes = 0;
        let mut out = S::default();
        self.push_frame(cx, sc, 0, Span::new(0, part), 0, &mut out);
        out.unmatched(Span::new(part, cx.text.len()));
        Some(out)
    }

    /// Where `text` parts from candidate `c`'s template: the longest head
    /// of at least `need` bytes (up to `end`) that the template begins,
    /// and the literal bytes that head shares with it.
    fn parting(
        &self,
        text: &str,
        sc: &mut Scratch,
        c: Cand,
        need: usize,
        end: usize,
    ) -> Option<(usize, usize)> {
        let mark = sc.spans.len();
        let shared = |sc: &mut Scratch, p: usize| -> Option<usize> {
            let ok = self.verify_as::<true>(text, sc, c, p);
            let held: usize = sc.spans[mark..].iter().map(|s| s.len()).sum();
            sc.spans.truncate(mark);
            ok.then(|| p - held)
        };
        let boundary = |mut p: usize| {
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            p
        };
        let mut lo = boundary(need);
        let mut literal = shared(sc, lo)?;
        let mut hi = end;
        while lo < hi {
            let mid = boundary(lo + (hi - lo).div_ceil(2));
            if mid <= lo {
                break;
            }
            match shared(sc, mid) {
                Some(l) => (lo, literal) = (mid, l),
                None => hi = mid - 1,
            }
        }
        Some((literal, lo))
    }

    /// The templates whose head text `span` begins with (by their first
    /// eight bytes, or anchored in it), however long they are and wherever
    /// their last literal is.
    fn cut_candidates(&self, sc: &mut Scratch, span: Span) {
        let Scratch {
            text, occ, cands, ..
        } = sc;
        let head = text.load_n(span.start, span.len().min(8));
        for &i in self.full_heads.get(&head).into_iter().flatten() {
            let x = &self.anchored[i as usize];
            cands.push(Cand {
                rank: rank_of(x.lit_len),
                template: x.template,
                start: span.start as u32,
                entry: i,
            });
        }
        for o in occ.iter().filter(|o| span.holds(o)) {
            let mut i = o.anchor as usize;
            while let Some(x) = self.anchored.get(i) {
                // A template that starts with a value could begin almost
                // any text: only those that start with literal text.
                if x.head_mask != 0 && (head ^ x.head) & x.head_mask == 0 {
                    cands.push(Cand {
                        rank: rank_of(x.lit_len),
                        template: x.template,
                        start: span.start as u32,
                        entry: i as u32,
                    });
                }
                if x.last {
                    break;
                }
                i += 1;
            }
        }
        cands.sort_unstable();
        cands.dedup();
    }
}

/// Where a cut text ends: before a cut mark (`...`, `…`) and the spaces
/// around it; `None` for a text too short to tell a cut message by.
fn cut_end(text: &str) -> Option<usize> {
    let mut t = text.trim_end();
    for mark in ["...", "\u{2026}"] {
        t = t.strip_suffix(mark).unwrap_or(t).trim_end();
    }
    (t.len() >= MIN_CUT_LITERAL).then_some(t.len())
}

/// Where a text that traces to nothing may end a whole message, longest
/// head first, never in its first 16 bytes: before a logger's detail in
/// parentheses at its end (nginx's `ngx_ssl_error`: `… failed (SSL:
/// …)`); after its last and its first sentence end (`. ` after a word: a
/// sentence another version appended, `Fatal: Can't initialize Background
/// Jobs. Error message: …`); before its first clause mark (`; ` after a
/// word: `the connection is closing; please retry.`); before a space
/// that starts words in another script (a user's question after the
/// message).
pub(crate) fn tail_cuts(text: &str) -> [Option<usize>; 5] {
    const MIN_HEAD: usize = 16;
    let b = text.as_bytes();
    if b.len() <= MIN_HEAD {
        return [None; 5];
    }
    let (mut first, mut last) = (None, None);
    for dot in memchr::memchr_iter(b'.', &b[MIN_HEAD - 1..]) {
        let p = MIN_HEAD + dot;
        if b.get(p) == Some(&b' ') && b[p - 2].is_ascii_alphanumeric() {
            first = first.or(Some(p));
            last = Some(p);
        }
    }
    let clause = memchr::memchr_iter(b';', &b[MIN_HEAD..])
        .map(|p| MIN_HEAD + p)
        .find(|&p| b.get(p + 1) == Some(&b' ') && b[p - 1].is_ascii_alphanumeric());
    // Only a text that ends in another script.
    let other_script = (b[b.len() - 1] >= 0x80)
        .then(|| {
            let p = b.iter().position(|&c| c >= 0x80)?;
            let space = b[..p].iter().rposition(|&c| c == b' ')?;
            (space >= MIN_HEAD && !b[space..].iter().any(u8::is_ascii_alphabetic)).then_some(space)
        })
        .flatten();
    let detail = (b[b.len() - 1] == b')')
        .then(|| {
            let mut depth = 0usize;
            let open = b.iter().rposition(|&c| {
                depth = match c {
                    b')' => depth + 1,
                    b'(' => depth - 1,
                    _ => depth,
                };
                depth == 0
            })?;
            (open > MIN_HEAD && b[open - 1] == b' ').then(|| open - 1)
        })
        .flatten();
    [
        detail,
        last,
        first.filter(|f| Some(*f) != last),
        clause,
        other_script,
    ]
}
