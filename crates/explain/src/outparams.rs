//! A printer whose hole a call's out-parameter fills. Redis logs
//! `WARNING %s` with `err_msg` when `checkOvercommit(&err_msg) < 0`, and
//! `checkOvercommit` writes one of its messages there: the hole holds a
//! message of that function. A line whose hole holds no traced message at
//! all (an older release's wording, `WARNING overcommit_memory is set to
//! 0!`) was not printed by that site, however well `WARNING ` fits. Out
//! parameters are C's and C++'s `&name`, Rust's `&mut name` and C#'s
//! `out name`, `out var name` and `ref name`.

use crate::records::{short_name, Records};
use crate::{CandidateOut, Explanation};
use errdex_lang::is_identifier;

/// Rules out each candidate of `e` whose printed value a call in its
/// guards fills through an out-parameter, when that function has messages
/// of its own in the atlas and no frame traces the text inside the
/// candidate's frame.
pub(crate) fn drop_unfilled(e: &mut Explanation, records: &Records) {
    // Frame k holds another when bit k is set; frames past 64 count as
    // holding one (no line has that many layers).
    let held: u64 = (0..e.frames.len().min(64))
        .filter(|&k| holds_a_frame(e, k))
        .fold(0, |bits, k| bits | 1 << k);
    let lone = |k: usize| k < 64 && held & (1 << k) == 0;
    if !(0..e.frames.len()).any(lone) {
        return;
    }
    let filled =
        |c: &CandidateOut| c.knowledge.is_none() && records.filled_through_out_parameter(c.site);
    crate::ruled_out::retain(e, |k, c| !lone(k) || !filled(c));
}

/// Whether another frame of `e` lies inside frame `k`'s text.
fn holds_a_frame(e: &Explanation, k: usize) -> bool {
    let f = &e.frames[k];
    e.frames.iter().enumerate().any(|(j, g)| {
        j != k && g.start >= f.start && g.end <= f.end && (g.start, g.end) != (f.start, f.end)
    })
}

/// The function (its short name) that a call in `guards` (one a line)
/// hands one of `args` (the printed values, one a line) to as an
/// out-parameter: `checkOvercommit` for `(checkOvercommit(&err_msg) < 0)`
/// and `err_msg`.
pub(crate) fn filled_by<'g>(guards: &'g str, args: &str) -> Option<&'g str> {
    args.lines()
        .map(|a| a.trim().trim_start_matches('*'))
        .filter(|a| is_identifier(a))
        .find_map(|name| guards.lines().find_map(|g| out_parameter_call(g, name)))
}

/// The callee of the call in `guard` that takes `name` as an
/// out-parameter.
fn out_parameter_call<'g>(guard: &'g str, name: &str) -> Option<&'g str> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    guard.match_indices(name).find_map(|(at, _)| {
        let after = guard[at + name.len()..].trim_start();
        let whole = !guard[..at].ends_with(word) && after.starts_with([',', ')']);
        if !whole || !marked_out(&guard[..at]) {
            return None;
        }
        callee_before(&guard[..at])
    })
}

/// Whether the text before an argument ends with a mark of an
/// out-parameter (`&`, `&mut `, `out `, `out var `, `out string `,
/// `ref `) at the start of that argument.
fn marked_out(before: &str) -> bool {
    let arg = before
        .rsplit(['(', ','])
        .next()
        .unwrap_or(before)
        .trim_start();
    let words: Vec<&str> = arg.split_whitespace().collect();
    match words.as_slice() {
        [] => false,
        ["&"] | ["&mut"] => true,
        ["out" | "ref", ..] => words.len() <= 2,
        _ => arg == "&",
    }
}

/// The name of the call whose argument list is open at the end of
/// `before` (`checkOvercommit` in `(checkOvercommit(`).
fn callee_before(before: &str) -> Option<&str> {
    let mut depth = 0usize;
    let open = before.char_indices().rev().find_map(|(i, c)| match c {
        ')' => {
            depth += 1;
            None
        }
        '(' if depth == 0 => Some(i),
        '(' => {
            depth -= 1;
            None
        }
        _ => None,
    })?;
    let head = before[..open].trim_end();
    let start = head
        .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '>' | '-')))
        .map_or(0, |i| i + 1);
    let callee = short_name(head[start..].trim_start_matches("->"));
    let callee = callee.rsplit("->").next().unwrap_or(callee);
    is_identifier(callee).then_some(callee)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_an_out_parameter_of_the_guard_hands_the_value_to() {
        let guards = "(checkOvercommit(&err_msg) < 0)";
        assert_eq!(filled_by(guards, "err_msg"), Some("checkOvercommit"));
        // Among other arguments, through a method or a pointer's member.
        assert_eq!(
            filled_by("srv->probe(cfg, &reason, 3) != 0", "reason"),
            Some("probe")
        );
        assert_eq!(
            filled_by("!Validator.TryCheck(input, out var error)", "error"),
            Some("TryCheck")
        );
        assert_eq!(
            filled_by("!parse_header(&mut why, line)", "why"),
            Some("parse_header")
        );
        // Handed by value, or a longer name that holds it: not filled.
        assert_eq!(filled_by("(check(err_msg) < 0)", "err_msg"), None);
        assert_eq!(filled_by("(check(&err_msg2) < 0)", "err_msg"), None);
        assert_eq!(filled_by("(check(&x.err_msg) < 0)", "err_msg"), None);
        // A value that is no plain name (a call) is never an out-parameter.
        assert_eq!(filled_by("(check(&e) < 0)", "strerror(e)"), None);
    }
}
