//! Ties settled by neighbouring lines. Lines a program prints together
//! come from code that runs together: click's `UsageError.show` prints the
//! usage, the `Try … for help.` hint and then `Error: %s`, where
//! `ClickException.show` prints the same `Error: %s` alone. When a frame's
//! best sites tie, and a nearby line traced to one site only (or a nearby
//! stack trace's frame names a place), the tied site nearest to it in the
//! same file wins. Before the neighbours, the line's
//! own words: a tied site whose function or file the line names
//! (`"worker_processes" directive invalid value` names nginx's
//! `ngx_set_worker_processes`, which returns that `invalid value`) wins.
//! After the neighbours, pairs of tied lines settle each other: code runs
//! in source order, so when one pair of their tied sites, in one function
//! and in the order the lines came, lies strictly nearest together, those
//! are the two that printed them (regex-syntax's `regex parse error:` and
//! `error: %s`, written by each of two branches).

mod fields;

use crate::{CandidateOut, Explanation, FrameOut, Verdict};
use errdex_match::stack::{Role, StackLine};
use std::collections::HashMap;

/// How many lines that traced to something (or are part of a stack
/// trace), before and after a line, are its neighbours.
const REACH: usize = 4;

/// How many lines away a neighbour may be at most: lines that traced to
/// nothing (a usage block, a caret under a pattern) do not count toward
/// [`REACH`], but they do toward this.
const FARTHEST: usize = 16;

/// How many lines of one stack trace are read as a neighbour at most.
const MAX_TRACE: usize = 64;

/// Where a neighbour's site is: a site a neighbour traced to, or a place
/// a stack trace's frame names.
struct Place<'a> {
    repo: &'a str,
    /// The site's file; for a frame, the end of its path.
    file: &'a str,
    /// Whether this is a frame's place: `file` ends a site's path, in any
    /// repository.
    frame: bool,
    line: u32,
    function: Option<&'a str>,
    /// The text the neighbour's frame matched.
    text: &'a str,
    /// Whether the neighbour's line has a log header (a prefix).
    headed: bool,
}

impl Place<'_> {
    /// Whether this is candidate `c`'s site.
    fn is(&self, c: &CandidateOut) -> bool {
        self.in_file_of(c) && self.line == c.line_number
    }

    /// Whether this place is in candidate `c`'s file.
    fn in_file_of(&self, c: &CandidateOut) -> bool {
        if self.frame {
            return c.file_path == self.file
                || c.file_path
                    .strip_suffix(self.file)
                    .is_some_and(|head| head.ends_with('/'));
        }
        self.repo == c.repo && self.file == c.file_path
    }
}

/// Settles each tied frame of `explained` (the lines of one log, in order)
/// by the unambiguous sites of the lines around it, and gives a line whose
/// every tie is settled the verdict it would have had without them.
/// `stack` is the lines' stack-trace reading (its frames' places), and
/// `guards` gives a site's guards, one a line, by its number.
#[cfg(test)]
pub(crate) fn settle_ties<'g>(
    explained: &mut [Explanation],
    stack: &[StackLine],
    guards: &dyn Fn(u32) -> &'g str,
) {
    let none = |_| "";
    let notes = SiteNotes {
        guards,
        args: &none,
        fields: &none,
    };
    settle_ties_with(explained, stack, &notes);
}

/// What the tie rules read of a site, by its number, one item a line:
/// its guards, the values it prints as the source writes them, and the
/// keys of the fields it sets as a structured logging call.
pub(crate) struct SiteNotes<'n, 'g> {
    pub(crate) guards: &'n dyn Fn(u32) -> &'g str,
    pub(crate) args: &'n dyn Fn(u32) -> &'g str,
    pub(crate) fields: &'n dyn Fn(u32) -> &'g str,
}

/// [`settle_ties`], with all of a site's notes.
pub(crate) fn settle_ties_with<'g>(
    explained: &mut [Explanation],
    stack: &[StackLine],
    notes: &SiteNotes<'_, 'g>,
) {
    let (guards, args) = (notes.guards, notes.args);
    let tied: Vec<(usize, usize)> = explained
        .iter()
        .enumerate()
        .flat_map(|(i, e)| {
            e.frames
                .iter()
                .enumerate()
                .filter(|(_, f)| tied_count(f) > 1)
                .map(move |(k, _)| (i, k))
        })
        .collect();
    // (line, frame) → the index of the candidate that wins.
    let mut settled: HashMap<(usize, usize), usize> = HashMap::new();
    let mut narrowed: Vec<((usize, usize), Vec<usize>)> = Vec::new();
    let places = Places::of(explained, stack);
    for &(i, k) in &tied {
        let f = &explained[i].frames[k];
        let best = named_by_line(&explained[i], f)
            .or_else(|| fields::keyed_by_line(&explained[i], f, notes.fields))
            .or_else(|| named_by_outer(&explained[i], k, args))
            .or_else(|| guarded_by_inner(&explained[i], k, guards))
            .or_else(|| beside_inner(&explained[i], k))
            .or_else(|| prints_error_text(&explained[i], k, args))
            .or_else(|| nearest(&explained[i], f, places.around(explained, i)));
        match best {
            Some(best) => _ = settled.insert((i, k), best),
            None => {
                narrowed.extend(narrowed_by_inner(&explained[i], k, guards).map(|n| ((i, k), n)))
            }
        }
    }
    settle_pairs(explained, &tied, &mut settled, guards);
    for (&(i, k), &best) in &settled {
        let candidates = &mut explained[i].frames[k].candidates;
        let winner = candidates.remove(best);
        candidates.insert(0, winner);
    }
    for (at, lead) in narrowed
        .into_iter()
        .filter(|(at, _)| !settled.contains_key(at))
    {
        let candidates = &mut explained[at.0].frames[at.1].candidates;
        let (mut first, rest): (Vec<_>, Vec<_>) = std::mem::take(candidates)
            .into_iter()
            .enumerate()
            .partition(|(n, _)| lead.contains(n));
        first.extend(rest);
        *candidates = first.into_iter().map(|(_, c)| c).collect();
    }
    let mut lines: Vec<usize> = settled.keys().map(|&(i, _)| i).collect();
    lines.sort_unstable();
    lines.dedup();
    for i in lines {
        let e = &mut explained[i];
        let open = e
            .frames
            .iter()
            .enumerate()
            .any(|(k, f)| is_ambiguous(f) && !settled.contains_key(&(i, k)));
        if e.verdict == Verdict::Ambiguous && !open {
            e.verdict = if e.unmatched.is_empty() {
                Verdict::Traced
            } else {
                Verdict::Partial
            };
        }
    }
}

/// `if (checkOvercommit(&err_msg) < 0) serverLog(LL_WARNING, "WARNING
/// %s", err_msg);` among sites of the same `WARNING %s`: the tied site
/// of frame `k` whose guards call the function the next layer is in
/// (one site, or tied sites of one function) is the one that printed it.
fn guarded_by_inner<'g>(
    e: &Explanation,
    k: usize,
    guards: &dyn Fn(u32) -> &'g str,
) -> Option<usize> {
    match calling_inner(e, k, guards)[..] {
        [best] => Some(best),
        _ => None,
    }
}

/// nginx's `%s in upstream "%V"` at six sites, two of them under `if
/// (ngx_inet_resolve_host(…) != NGX_OK)`, with `host not found` of
/// `ngx_inet_resolve_host` inside: when several but not all of frame
/// `k`'s tied sites have guards that call the next layer's function,
/// those lead, in their order. The others print that text only through
/// calls the code does not show, so the line is likelier theirs; the
/// frame stays ambiguous, as they still tie.
fn narrowed_by_inner<'g>(
    e: &Explanation,
    k: usize,
    guards: &dyn Fn(u32) -> &'g str,
) -> Option<Vec<usize>> {
    let calling = calling_inner(e, k, guards);
    (calling.len() > 1 && calling.len() < tied_count(&e.frames[k])).then_some(calling)
}

/// The tied sites of frame `k` whose guards call the function the next
/// layer is in (one site, or tied sites of one function), in order.
fn calling_inner<'g>(e: &Explanation, k: usize, guards: &dyn Fn(u32) -> &'g str) -> Vec<usize> {
    let Some(inner) = e.frames.get(k + 1) else {
        return Vec::new();
    };
    let inner_tied = &inner.candidates[..tied_count(inner)];
    let Some(function) = inner_tied.first().and_then(|c| c.function) else {
        return Vec::new();
    };
    if inner_tied.iter().any(|c| c.function != Some(function)) {
        return Vec::new();
    }
    let name = crate::records::short_name(function);
    let f = &e.frames[k];
    f.candidates[..tied_count(f)]
        .iter()
        .enumerate()
        .filter(|(_, c)| mentions(guards(c.site), name))
        .map(|(i, _)| i)
        .collect()
}

/// `msnprintf(text, …, "%s in URL position %zu:…", …); t = text;` then
/// `fprintf(error, "curl: (%d) %s\n", res, t)` among sites of the same
/// `curl: (%d) %s`: the tied site of frame `k` in the function that holds
/// the next layer's site (one site, or tied sites of one function) is the
/// one that printed what that function built.
fn beside_inner(e: &Explanation, k: usize) -> Option<usize> {
    let inner = e.frames.get(k + 1)?;
    let inner_tied = &inner.candidates[..tied_count(inner)];
    let first = inner_tied.first()?;
    let function = first.function?;
    let same = |c: &CandidateOut| {
        c.repo == first.repo && c.file_path == first.file_path && c.function == Some(function)
    };
    if !inner_tied.iter().all(same) {
        return None;
    }
    let f = &e.frames[k];
    let mut beside = f.candidates[..tied_count(f)]
        .iter()
        .enumerate()
        .filter(|(_, c)| same(c))
        .map(|(i, _)| i);
    match (beside.next(), beside.next()) {
        (Some(best), None) => Some(best),
        _ => None,
    }
}

/// `curl: (%d) %s` at two sites, over a layer built elsewhere (libcurl's
/// `Couldn't open file %s`): one prints `msg` or `curl_easy_strerror(…)`
/// there, the other a name that says nothing (`t`). A hole that holds
/// another layer holds an error's text, so of the tied sites of frame `k`
/// the one whose values name error text (when it is the only one) printed
/// it.
fn prints_error_text<'g>(
    e: &Explanation,
    k: usize,
    args: &dyn Fn(u32) -> &'g str,
) -> Option<usize> {
    e.frames.get(k + 1)?;
    let f = &e.frames[k];
    let mut naming = f.candidates[..tied_count(f)]
        .iter()
        .enumerate()
        .filter(|(_, c)| args(c.site).lines().any(names_error_text))
        .map(|(i, _)| i);
    match (naming.next(), naming.next()) {
        (Some(best), None) => Some(best),
        _ => None,
    }
}

/// Whether a value, as the source writes it, names an error or its text
/// (`e`, `exc`, `msg`, `errbuf`, `strerror(errno)`, `e.message`,
/// `reason`, `cause`), not the stream it is written to (`stderr`).
fn names_error_text(arg: &str) -> bool {
    arg.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(str::to_ascii_lowercase)
        .any(|w| {
            matches!(w.as_str(), "e" | "ex" | "exc" | "cause")
                || (w != "stderr"
                    && ["err", "msg", "message", "reason", "exception"]
                        .iter()
                        .any(|p| w.contains(p)))
        })
}

/// `fmt.Errorf("container %q: %w", id, errdefs.ErrNotFound)` over a
/// tied `not found`: the layer outside frame `k` prints an error value by
/// name, so of the tied sites the one in that package's folder (or, for
/// a bare name, in the outer site's own folder) is it, when it is alone.
fn named_by_outer<'g>(e: &Explanation, k: usize, args: &dyn Fn(u32) -> &'g str) -> Option<usize> {
    let outer = e.frames.get(k.checked_sub(1)?)?;
    if tied_count(outer) != 1 {
        return None;
    }
    let site = outer.candidates.first()?;
    let f = &e.frames[k];
    let tied = &f.candidates[..tied_count(f)];
    args(site.site)
        .lines()
        .filter(|a| names_an_error(a))
        .find_map(|name| {
            let in_place = |c: &CandidateOut| match name.rsplit_once('.') {
                Some((pkg, _)) => folder_of(c.file_path).rsplit('/').next() == Some(pkg),
                None => c.repo == site.repo && folder_of(c.file_path) == folder_of(site.file_path),
            };
            let mut matching = tied.iter().enumerate().filter(|(_, c)| in_place(c));
            match (matching.next(), matching.next()) {
                (Some((best, _)), None) => Some(best),
                _ => None,
            }
        })
}

/// Whether a value names an error value declared by name, a sentinel
/// (`errdefs.ErrNotFound`, `ErrClosed`, `errTimeout`).
fn names_an_error(arg: &str) -> bool {
    let (pkg, name) = arg.rsplit_once('.').unwrap_or(("", arg));
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    (pkg.is_empty() || ident(pkg))
        && ident(name)
        && (name.starts_with("Err") || name.starts_with("err"))
        && name[3..].starts_with(|c: char| c.is_ascii_uppercase())
}

/// The folder of a path (`errdefs/errors.go` → `errdefs`).
fn folder_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Whether `text` holds `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(word)
                && !text[i + name.len()..].chars().next().is_some_and(word)
        })
}

/// How many of a frame's listed sites tie with its first: the same score
/// and the same standing with the line's location hints. One when the
/// frame is not ambiguous.
fn tied_count(f: &FrameOut) -> usize {
    let Some(top) = f.candidates.first() else {
        return 0;
    };
    if !is_ambiguous(f) {
        return 1;
    }
    f.candidates.iter().take_while(|c| ties(c, top)).count()
}

fn ties(c: &CandidateOut, top: &CandidateOut) -> bool {
    c.score == top.score && c.hinted == top.hinted && c.exact == top.exact
}

/// A frame that several sites print equally well: the rule of
/// `errdex_match::Frame::is_ambiguous`, on an answer's frame.
pub(crate) fn is_ambiguous(f: &FrameOut) -> bool {
    let hinted = f.candidates.iter().filter(|c| c.hinted).count();
    let exact = f.candidates.iter().filter(|c| c.exact).count();
    errdex_match::ambiguous(f.candidate_count, hinted, exact)
}

/// The lines around line `i` that are its neighbours: up to [`REACH`]
/// neighbours on each side, none farther than [`FARTHEST`]. A line with
/// frames is a neighbour, and so is a stack trace, however many lines it
/// has (one report, printed by one statement; its frames name the code
/// that ran); other text that traced to nothing is none.
fn neighbours(explained: &[Explanation<'_>], i: usize) -> Vec<usize> {
    let mut lines = Vec::new();
    side(explained, i, Step::Back, &mut lines);
    side(explained, i, Step::On, &mut lines);
    lines
}

/// Which way [`side`] walks from a line.
#[derive(Clone, Copy, PartialEq)]
enum Step {
    Back,
    On,
}

/// Adds the neighbours of line `i` on one side to `lines`, nearest first.
fn side(explained: &[Explanation<'_>], i: usize, step: Step, lines: &mut Vec<usize>) {
    let next = |j: usize| match step {
        Step::Back => j.checked_sub(1),
        Step::On => Some(j + 1).filter(|&k| k < explained.len()),
    };
    let (mut reached, mut away) = (0, 0);
    let mut at = next(i);
    while let Some(j) = at {
        if reached == REACH || away == FARTHEST {
            return;
        }
        away += 1;
        if explained[j].stack.is_some() {
            // The whole trace, up to a bound on its length.
            let mut k = Some(j);
            for _ in 0..MAX_TRACE {
                let Some(t) = k.filter(|&t| explained[t].stack.is_some()) else {
                    break;
                };
                lines.push(t);
                k = next(t);
            }
            reached += 1;
            at = k;
            continue;
        }
        if !explained[j].frames.is_empty() {
            lines.push(j);
            reached += 1;
        }
        at = next(j);
    }
}

/// The sites of frames that traced to one site only, line by line:
/// line `i`'s are `places[start[i]..start[i + 1]]`.
struct Places<'x> {
    places: Vec<Place<'x>>,
    start: Vec<usize>,
}

impl<'x> Places<'x> {
    fn of(explained: &'x [Explanation<'_>], stack: &'x [StackLine]) -> Places<'x> {
        let mut places = Vec::new();
        let mut start = Vec::with_capacity(explained.len() + 1);
        for (i, e) in explained.iter().enumerate() {
            start.push(places.len());
            let single = e.frames.iter().filter(|f| tied_count(f) == 1);
            places.extend(
                single
                    .filter_map(|f| f.candidates.first().map(|c| (f, c)))
                    .map(|(f, c)| Place {
                        repo: c.repo,
                        file: c.file_path,
                        frame: false,
                        line: c.line_number,
                        function: c.function,
                        text: &f.text,
                        headed: !e.prefix.is_empty(),
                    }),
            );
            places.extend(stack.get(i).and_then(frame_place));
        }
        start.push(places.len());
        Places { places, start }
    }

    /// The places on the neighbours of line `i`.
    fn around(&self, explained: &[Explanation<'_>], i: usize) -> Vec<&Place<'x>> {
        neighbours(explained, i)
            .into_iter()
            .flat_map(|j| &self.places[self.start[j]..self.start[j + 1]])
            .collect()
    }
}

/// The place a stack trace's frame line names.
fn frame_place(s: &StackLine) -> Option<Place<'_>> {
    if s.role != Role::Frame {
        return None;
    }
    Some(Place {
        repo: "",
        file: s.hints.files.first()?,
        frame: true,
        line: s.hints.line?,
        function: None,
        text: "",
        headed: false,
    })
}

/// Settles tied frames that no single neighbour settled, two at a time:
/// for tied frames on neighbouring lines, the pairs of their tied sites in
/// one function, the earlier line's site first and under no guard the
/// other's contradicts; when one pair is strictly the fewest source lines
/// apart, both frames take it.
fn settle_pairs<'g>(
    explained: &[Explanation],
    tied: &[(usize, usize)],
    settled: &mut HashMap<(usize, usize), usize>,
    guards: &dyn Fn(u32) -> &'g str,
) {
    let open: Vec<(usize, usize)> = tied
        .iter()
        .copied()
        .filter(|key| !settled.contains_key(key))
        .collect();
    let mut found: HashMap<(usize, usize), usize> = HashMap::new();
    for (n, &(i, k)) in open.iter().enumerate() {
        let near: Vec<usize> = neighbours(explained, i)
            .into_iter()
            .filter(|&j| j > i)
            .collect();
        let later = open[n + 1..]
            .iter()
            .take_while(|(j, _)| *j <= i + FARTHEST)
            .filter(|(j, _)| near.contains(j));
        for &(j, l) in later {
            let earlier = &explained[i].frames[k];
            let later = &explained[j].frames[l];
            let Some((a, b)) = nearest_pair(earlier, later, guards) else {
                continue;
            };
            found.entry((i, k)).or_insert(a);
            found.entry((j, l)).or_insert(b);
        }
    }
    settled.extend(found);
}

/// The tied sites of `earlier` and `later` that one function reaches in
/// that order with the fewest source lines between, when no other pair is
/// as near.
fn nearest_pair<'g>(
    earlier: &FrameOut,
    later: &FrameOut,
    guards: &dyn Fn(u32) -> &'g str,
) -> Option<(usize, usize)> {
    let firsts = &earlier.candidates[..tied_count(earlier)];
    let seconds = &later.candidates[..tied_count(later)];
    let mut pairs: Vec<(u32, usize, usize)> = Vec::new();
    for (a, x) in firsts.iter().enumerate() {
        for (b, y) in seconds.iter().enumerate() {
            let one_function = x.repo == y.repo
                && x.file_path == y.file_path
                && x.function.is_some()
                && x.function == y.function;
            let in_order = x.line_number <= y.line_number;
            if one_function && in_order && !contradict(guards(x.site), guards(y.site)) {
                pairs.push((y.line_number - x.line_number, a, b));
            }
        }
    }
    pairs.sort_unstable();
    let (first, rest) = pairs.split_first()?;
    let alone = rest.first().is_none_or(|p| p.0 > first.0);
    alone.then_some((first.1, first.2))
}

/// Whether two sites' guards (one a line) hold a condition and its
/// negation (`c` and `not (c)` or `!(c)`): the two sites are in the two
/// branches of one `if`.
fn contradict(a: &str, b: &str) -> bool {
    a.lines()
        .any(|x| b.lines().any(|y| negates(x, y) || negates(y, x)))
}

/// Whether guard `x` is `not (y)` or `!(y)`.
fn negates(x: &str, y: &str) -> bool {
    x.strip_prefix("not (")
        .or_else(|| x.strip_prefix("!("))
        .and_then(|c| c.strip_suffix(')'))
        == Some(y)
}

/// The index of the tied candidate of `f` nearest to some place (the
/// same function first, then the fewest lines away in the same file),
/// when one is strictly nearer than every other.
fn nearest(e: &Explanation, f: &FrameOut, mut places: Vec<&Place<'_>>) -> Option<usize> {
    let tied = &f.candidates[..tied_count(f)];
    // A neighbour of the same words that one of the tied sites printed
    // comes from the statement next to this one (a log call, then a print
    // of the same words). Decorated alike, it tells nothing of which site
    // printed this line; one with a log header where this line has none,
    // or the other way round, went to another sink, so its site is not
    // this line's, and the statement next to it is. Other words from a
    // tied site (the next line of a message of several) tell that this
    // site printed both.
    let headed = !e.prefix.is_empty();
    let echo = |p: &Place<'_>| p.text == f.text && tied.iter().any(|c| p.is(c));
    let other_sink: Vec<&Place<'_>> = places
        .iter()
        .copied()
        .filter(|p| echo(p) && p.headed != headed)
        .collect();
    places.retain(|p| !echo(p) || p.headed != headed);
    let mut ranked: Vec<(u32, u32, usize)> = tied
        .iter()
        .enumerate()
        .filter(|(_, c)| !other_sink.iter().any(|p| p.is(c)))
        .filter_map(|(i, c)| distance(c, &places).map(|(tier, lines)| (tier, lines, i)))
        .collect();
    ranked.sort_unstable();
    let (first, rest) = ranked.split_first()?;
    let alone = rest.first().is_none_or(|b| (b.0, b.1) > (first.0, first.1));
    alone.then_some(first.2)
}

/// The index of the tied candidate of `f` whose function and file name
/// the most words of the line's message (five letters or more, not words
/// of the frame's own message; the log prefix's program name tells
/// nothing), when one names more than every other and no other tied site
/// is in its file.
fn named_by_line(e: &Explanation, f: &FrameOut) -> Option<usize> {
    let tied = &f.candidates[..tied_count(f)];
    let pattern = tied.first()?.message_pattern.to_ascii_lowercase();
    let message = e
        .input
        .get(e.prefix.len()..)
        .unwrap_or(&e.input)
        .to_ascii_lowercase();
    let mut words: Vec<&str> = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 5 && !pattern.contains(w))
        .collect();
    if words.is_empty() {
        return None;
    }
    words.sort_unstable();
    words.dedup();
    // One buffer for every candidate's "function file", in lower case.
    let mut place = String::new();
    let mut named = |c: &CandidateOut| {
        place.clear();
        place.push_str(c.function.unwrap_or_default());
        place.push(' ');
        place.push_str(c.file_path);
        place.make_ascii_lowercase();
        words.iter().filter(|w| place.contains(*w)).count()
    };
    let mut counts: Vec<(usize, usize)> = tied.iter().map(&mut named).enumerate().collect();
    counts.sort_unstable_by_key(|&(_, n)| std::cmp::Reverse(n));
    // Within one file, functions name the same module: no evidence (a
    // closure and its enclosing `tryFopen` both name `fopen`).
    let alone_in_file = |i: usize| {
        let file = &tied[i].file_path;
        tied.iter()
            .enumerate()
            .all(|(j, c)| j == i || c.file_path != *file)
    };
    match counts[..] {
        [(best, n), (_, m), ..] if n > m && alone_in_file(best) => Some(best),
        _ => None,
    }
}

/// How near a candidate is to the nearest place in its file: tier 0 in
/// the same function, 1 elsewhere in the file, and the lines between.
fn distance(c: &CandidateOut, places: &[&Place<'_>]) -> Option<(u32, u32)> {
    places
        .iter()
        .filter(|p| p.in_file_of(c))
        .map(|p| {
            let same_function = p.function.is_some() && p.function == c.function;
            (u32::from(!same_function), p.line.abs_diff(c.line_number))
        })
        .min()
}

#[cfg(test)]
pub(crate) mod tests;
