//! Messages of several lines, read across lines: a message whose second
//! line is an indented hole (RubyGems' `While executing gem ... (%s)\n
//! %s`) prints its inner message on a line of its own, which traces to
//! that message's site alone, or to nothing. Such a line right after a
//! line traced to the message's first line is the message's second line:
//! its outermost layer is the same site, and what it traced is inside.
//!
//! And a line of a message of several that has too few letters to be
//! traced alone (webpack's `\t- install '%v'` under `If you want to
//! include a polyfill, you need to:`) is that message's line where it
//! comes right after the line before it in the message.

use crate::{Explanation, FrameOut, Verdict};

/// Gives each indented line that continues the message of the line
/// before it ([`continued_frame`]) that message's frame, outermost.
pub(crate) fn continue_messages(explained: &mut [Explanation]) {
    // Decided on the lines as traced, so that a continued line continues
    // nothing in turn.
    // With whether the frame explains the whole line.
    let continued: Vec<(usize, FrameOut, bool)> = explained
        .windows(2)
        .enumerate()
        .filter_map(|(i, w)| match continued_frame(&w[0], &w[1]) {
            Some(f) => Some((i + 1, f, false)),
            None => Some((i + 1, next_line_frame(&w[0], &w[1])?, true)),
        })
        .collect();
    for (i, outer, whole) in continued {
        let e = &mut explained[i];
        e.frames.insert(0, outer);
        if whole {
            e.unmatched.clear();
            e.verdict = Verdict::Traced;
        } else if e.verdict == Verdict::Unknown {
            e.verdict = Verdict::Partial;
        }
    }
}

/// The frame line `next` gets when it continues the message `line` traced
/// to: a frame of `line` is a message whose second line is an indent and
/// one hole, and `next` is indented (and not already that frame). It
/// spans `next` after its indent.
fn continued_frame<'a>(line: &Explanation<'a>, next: &Explanation<'a>) -> Option<FrameOut<'a>> {
    // The message may be inside a printer's frame (`ERROR:  %s`).
    let first = line.frames.iter().find(|f| {
        f.candidates
            .first()
            .and_then(|c| c.message_pattern.split('\n').nth(1))
            .is_some_and(is_indented_hole)
    })?;
    let top = first.candidates.first()?;
    if next.stack.is_some() {
        return None;
    }
    let text = next.input.trim_end();
    let indent = text.len() - text.trim_start().len();
    if indent == 0 || indent == text.len() {
        return None;
    }
    if next
        .frames
        .first()
        .is_some_and(|f| f.candidates.first().map(|c| &c.id) == Some(&top.id))
    {
        return None;
    }
    Some(FrameOut {
        text: text[indent..].to_string(),
        start: indent,
        end: text.len(),
        candidates: first.candidates.clone(),
        candidate_count: first.candidate_count,
    })
}

/// The frame an untraced line `next` gets when it is the next line of a
/// message of several that `line` traced to a line of: `line`'s frame
/// text fits the message's line k and `next` fits its line k + 1 (white
/// space and a list bullet aside), which has four letters or digits at
/// least. It spans `next` after its indent and bullet.
fn next_line_frame<'a>(line: &Explanation<'a>, next: &Explanation<'a>) -> Option<FrameOut<'a>> {
    if !next.frames.is_empty() || next.stack.is_some() {
        return None;
    }
    let text = next.input.trim_end();
    // Each line may carry the log prefix the line before had (npm's
    // `npm error ` before every line of a message of several).
    let prefix = line.prefix.trim_end();
    let own = match text.strip_prefix(prefix) {
        Some(rest) if !prefix.is_empty() && rest.starts_with([' ', '\t']) => rest,
        _ => text,
    };
    let body = unbulleted(own);
    let start = text.len() - body.len();
    let frame = line.frames.iter().find(|f| {
        let Some(pattern) = f.candidates.first().map(|c| c.message_pattern) else {
            return false;
        };
        let lines: Vec<&str> = pattern.split('\n').map(unbulleted).collect();
        lines.windows(2).any(|w| {
            w[1].bytes().filter(u8::is_ascii_alphanumeric).count() >= 4
                && fits(w[0], unbulleted(&f.text))
                && fits(w[1], body)
        })
    })?;
    Some(FrameOut {
        text: body.to_string(),
        start,
        end: text.len(),
        candidates: frame.candidates.clone(),
        candidate_count: frame.candidate_count,
    })
}

/// A line without its indent and list bullet (`\t- `, `  * `).
fn unbulleted(line: &str) -> &str {
    let t = line.trim();
    ["- ", "* "]
        .iter()
        .find_map(|b| t.strip_prefix(b))
        .map_or(t, str::trim_start)
}

/// Whether `text` is `pattern`'s line with its holes (`%v`, `%s`, `%d`)
/// filled by some text each.
fn fits(pattern: &str, text: &str) -> bool {
    let pieces = hole_pieces(pattern);
    let Some(mut rest) = text.strip_prefix(pieces[0]) else {
        return false;
    };
    let pieces = &pieces[1..];
    for (i, piece) in pieces.iter().enumerate() {
        // A hole that ends the line may be empty (`npm run${wsArg}` with
        // no workspace); others hold some text.
        if i + 1 == pieces.len() {
            return piece.is_empty() || (rest.len() > piece.len() && rest.ends_with(piece));
        }
        // Holes take the shortest text that leaves room for the next piece.
        match rest.get(1..).and_then(|r| r.find(piece)) {
            Some(at) => rest = &rest[1 + at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// A pattern line cut at its holes: the literal pieces around them.
fn hole_pieces(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let (mut out, mut from, mut i) = (Vec::new(), 0, 0);
    while i < b.len() {
        if b[i] == b'%' && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            out.push(&line[from..i]);
            i += 2;
            from = i;
        } else {
            i += 1;
        }
    }
    out.push(&line[from..]);
    out
}

/// `    %v`: white space, then one hole alone.
fn is_indented_hole(line: &str) -> bool {
    let hole = line.trim_start();
    hole.len() < line.len()
        && hole.strip_prefix('%').is_some_and(|verb| {
            (1..=2).contains(&verb.len()) && verb.bytes().all(|c| c.is_ascii_alphabetic())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Explainer;
    use errdex_model::Lang;
    use errdex_store::{TraceRow, TraceSite};

    fn row(id: &str, pattern: &str) -> TraceRow {
        TraceRow {
            id: id.into(),
            repo: "acme/gems".into(),
            slug: id.into(),
            message_pattern: pattern.into(),
            language: Lang::Ruby,
            documentation: None,
            sites: vec![TraceSite {
                file_path: format!("{id}.rb"),
                line_number: 1,
                function: None,
                callee: "alert_error".into(),
                args: vec!["ex.class".into(), "ex".into()],
                github_url: None,
                guards: Vec::new(),
                fills: None,
                fields: Vec::new(),
                closed_holes: Vec::new(),
            }],
            presence: None,
        }
    }

    fn tops<'a>(e: &Explanation<'a>) -> Vec<&'a str> {
        e.frames.iter().map(|f| f.candidates[0].id).collect()
    }

    #[test]
    fn an_indented_line_after_a_message_of_two_lines_is_its_second_line() {
        let ex = Explainer::new(vec![
            row("executing", "While executing gem ... (%v)\n    %v"),
            row("missing", "missing value for attribute %v"),
            row("printer", "ERROR:  %v"),
        ]);
        let e = ex.explain_block(&[
            "ERROR:  While executing gem ... (Gem::InvalidSpecificationException)",
            "    missing value for attribute version",
            "    something nobody prints",
            "ERROR:  While executing gem ... (Gem::UnknownCommandError)",
            "    something nobody prints",
            "not indented: missing value for attribute version",
        ]);
        // The message is inside its printer's frame.
        assert_eq!(tops(&e[0]), ["printer", "executing"]);
        assert_eq!(tops(&e[1]), ["executing", "missing"]);
        assert_eq!(e[1].verdict, Verdict::Traced);
        assert_eq!((e[1].frames[0].start, e[1].frames[0].end), (4, 39));
        // Only the line right after the first continues it.
        assert!(tops(&e[2]).is_empty());
        assert_eq!(tops(&e[4]), ["executing"]);
        assert_eq!(e[4].verdict, Verdict::Partial);
        assert_eq!(tops(&e[5]), ["missing"]);
    }

    #[test]
    fn a_short_line_right_after_the_line_before_it_in_a_message_is_its_next_line() {
        let ex = Explainer::new(vec![row(
            "polyfill",
            "If you want to include a polyfill, you need to:\n\t- add a fallback for '%v'\n\t- install '%v'\n",
        )]);
        let e = ex.explain_block(&[
            "If you want to include a polyfill, you need to:",
            "\t- add a fallback for 'path'",
            "\t- install 'path-browserify'",
            "\t- install 'again'",
            "- install 'alone'",
        ]);
        assert_eq!(tops(&e[1]), ["polyfill"]);
        assert_eq!(tops(&e[2]), ["polyfill"]);
        assert_eq!(e[2].verdict, Verdict::Traced);
        assert!(e[2].unmatched.is_empty());
        assert_eq!(e[2].frames[0].text, "install 'path-browserify'");
        // Its line comes once, after the line before it in the message.
        assert!(tops(&e[3]).is_empty());
        assert!(tops(&e[4]).is_empty());
    }

    #[test]
    fn the_next_line_may_carry_the_log_prefix_of_the_line_before() {
        let ex = Explainer::new(vec![row(
            "missing",
            "Missing script: \"%v\"%v\n\nTo see a list of scripts, run:\n  tool run%v",
        )]);
        let e = ex.explain_block(&[
            "tool error Missing script: \"nosuch\"",
            "tool error To see a list of scripts, run:",
            "tool error   tool run",
            "tool warn   tool run",
        ]);
        assert_eq!(tops(&e[1]), ["missing"]);
        assert_eq!(tops(&e[2]), ["missing"]);
        assert_eq!(e[2].frames[0].text, "tool run");
        assert_eq!(e[2].verdict, Verdict::Traced);
        // Another prefix is no line of the message.
        assert!(tops(&e[3]).is_empty());
    }

    #[test]
    fn a_pattern_line_fits_a_text_that_fills_its_holes() {
        assert!(fits("install '%v'", "install 'path'"));
        assert!(fits("a %v b %s c", "a 1 b 2 c"));
        assert!(fits("no holes", "no holes"));
        assert!(!fits("install '%v'", "install ''"));
        assert!(fits("npm run%v", "npm run"));
        assert!(!fits("install '%v'", "uninstall 'x'"));
        assert!(!fits("a %v b", "a 1 c"));
    }

    #[test]
    fn only_a_second_line_of_one_indented_hole_continues() {
        for second in ["    %v", "\t%s"] {
            assert!(is_indented_hole(second), "{second}");
        }
        for second in ["%v", "    hint: %v", "    %v %v", "    "] {
            assert!(!is_indented_hole(second), "{second}");
        }
    }
}
