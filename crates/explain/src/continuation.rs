//! Messages of several lines, read across lines: a message whose second
//! line is an indented hole (RubyGems' `While executing gem ... (%s)\n
//! %s`) prints its inner message on a line of its own, which traces to
//! that message's site alone, or to nothing. Such a line right after a
//! line traced to the message's first line is the message's second line:
//! its outermost layer is the same site, and what it traced is inside.

use crate::{Explanation, FrameOut, Verdict};

/// Gives each indented line that continues the message of the line
/// before it ([`continued_frame`]) that message's frame, outermost.
pub(crate) fn continue_messages(explained: &mut [Explanation]) {
    // Decided on the lines as traced, so that a continued line continues
    // nothing in turn.
    let continued: Vec<(usize, FrameOut)> = explained
        .windows(2)
        .enumerate()
        .filter_map(|(i, w)| Some((i + 1, continued_frame(&w[0], &w[1])?)))
        .collect();
    for (i, outer) in continued {
        let e = &mut explained[i];
        e.frames.insert(0, outer);
        if e.verdict == Verdict::Unknown {
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
    fn only_a_second_line_of_one_indented_hole_continues() {
        for second in ["    %v", "\t%s"] {
            assert!(is_indented_hole(second), "{second}");
        }
        for second in ["%v", "    hint: %v", "    %v %v", "    "] {
            assert!(!is_indented_hole(second), "{second}");
        }
    }
}
