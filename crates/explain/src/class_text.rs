//! A Python traceback's last line names the raised class with the module
//! that defines it (`http.client.IncompleteRead: IncompleteRead(2 bytes
//! read, 3 more expected)`). Where the message is a class's own text, a
//! `__str__` or `__repr__` of a class of that name in another package
//! (urllib3's `IncompleteRead`, written to print alike) did not print it;
//! nor did it print that text where a later exception of the same chained
//! traceback carries it (`ProtocolError: ('Connection broken:
//! IncompleteRead(2 bytes read, 3 more expected)', IncompleteRead(2 bytes
//! read, 3 more expected))`).

use crate::{CandidateOut, Explanation};
use errdex_match::stack::{Role, StackLine};

/// Drops, from the frame the message starts with, the candidates that are
/// the own text of a class named as the raised one but defined in another
/// package ([`crate::ruled_out::retain`]).
pub(crate) fn drop_other_modules_text(e: &mut Explanation) {
    let Some((module, class, message_start)) = raised_class(e) else {
        return;
    };
    let first = e.frames.iter().position(|f| {
        e.input
            .get(message_start..f.start)
            .is_some_and(|gap| gap.trim().is_empty())
    });
    let Some(first) = first else {
        return;
    };
    crate::ruled_out::retain(e, |k, c| {
        k != first || !other_modules_text(c, &module, class.as_str())
    });
}

/// The texts of the exceptions a chained Python traceback raised, with
/// their classes: a later frame of the chain with one of those texts
/// loses the candidates the class rules out. A line that is neither a
/// traceback's frame, link nor exception, or a traceback that is not
/// chained to the one before, ends the chain.
pub(crate) fn drop_in_chained_tracebacks(explained: &mut [Explanation], stack: &[StackLine]) {
    let mut raised: Vec<(String, String, String)> = Vec::new();
    let mut after_link = false;
    for (e, s) in explained.iter_mut().zip(stack) {
        let text = e.input.trim();
        if text.is_empty() {
            continue;
        }
        match (s.role, s.class.as_deref()) {
            (Role::Frame, _) => continue,
            (Role::Link, _) => {
                if text.starts_with("Traceback") && !after_link {
                    raised.clear();
                }
                after_link = !text.starts_with("Traceback");
                continue;
            }
            (Role::Message, None) => {
                raised.clear();
                continue;
            }
            (Role::Message, Some(class)) => {
                after_link = false;
                for (text, module, name) in &raised {
                    let carried: Vec<usize> = (e.frames.iter().enumerate())
                        .filter(|(_, f)| &f.text == text)
                        .map(|(k, _)| k)
                        .collect();
                    crate::ruled_out::retain(e, |k, c| {
                        !carried.contains(&k) || !other_modules_text(c, module, name)
                    });
                }
                let message = e.input.get(s.start..s.end.unwrap_or(e.input.len()));
                if let (Some((module, name)), Some(message)) = (class.rsplit_once('.'), message) {
                    raised.push((message.to_string(), module.to_string(), name.to_string()));
                }
            }
        }
    }
}

/// The module and class of the header a Python traceback's last line
/// starts its message with (`http.client.IncompleteRead:`), and where
/// the message starts in the input.
fn raised_class(e: &Explanation) -> Option<(String, String, usize)> {
    let header = e.prefix.trim_end().rsplit(' ').next()?;
    let path = header.strip_suffix(':')?;
    let (module, class) = path.rsplit_once('.')?;
    let is_name = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let module_ok = module.split('.').all(is_name);
    let class_ok = is_name(class) && class.starts_with(|c: char| c.is_ascii_uppercase());
    if !module_ok || !class_ok {
        return None;
    }
    let at = e.input.find(header)? + header.len();
    Some((module.to_string(), class.to_string(), at))
}

/// Whether a candidate is `class`'s `__str__` or `__repr__` in a Python
/// file outside `module`'s package.
fn other_modules_text(c: &CandidateOut, module: &str, class: &str) -> bool {
    let Some(stem) = c.file_path.strip_suffix(".py") else {
        return false;
    };
    let Some((owner, method)) = c.function.and_then(|f| f.rsplit_once('.')) else {
        return false;
    };
    let owner = owner.rsplit('.').next().unwrap_or(owner);
    if owner != class || !matches!(method, "__str__" | "__repr__") {
        return false;
    }
    // Classes move between modules of their package from version to
    // version (werkzeug's `BuildError` from `werkzeug.routing` to
    // `werkzeug.routing.exceptions`): only another package rules out.
    let package = module.split('.').next().unwrap_or(module);
    !stem.split('/').any(|part| part == package)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FrameOut, Verdict};

    fn explained(
        input: &str,
        prefix: &str,
        start: usize,
        function: &'static str,
    ) -> Explanation<'static> {
        let cand = crate::neighbours::tests::cand("src/urllib3/exceptions.py", 263, function);
        Explanation {
            input: input.into(),
            prefix: prefix.into(),
            verdict: Verdict::Traced,
            frames: vec![FrameOut {
                text: input[start..].into(),
                start,
                end: input.len(),
                candidate_count: 1,
                candidates: vec![cand],
            }],
            unmatched: Vec::new(),
            stack: None,
        }
    }

    #[test]
    fn a_class_of_the_same_name_in_another_package_did_not_print_the_header_text() {
        let line = "http.client.IncompleteRead: IncompleteRead(2 bytes read, 3 more expected)";
        let mut e = explained(
            line,
            "http.client.IncompleteRead: ",
            28,
            "IncompleteRead.__repr__",
        );
        drop_other_modules_text(&mut e);
        assert!(e.frames.is_empty());
        assert_eq!(e.unmatched.len(), 1);
        assert_eq!(e.verdict, Verdict::Unknown);
    }

    /// The frames left of `line` once another package's class text is
    /// dropped, its one frame starting at `start` traced to `function`.
    fn frames_kept(line: &str, prefix: &str, start: usize, function: &'static str) -> usize {
        let mut e = explained(line, prefix, start, function);
        drop_other_modules_text(&mut e);
        e.frames.len()
    }

    #[test]
    fn the_class_of_the_header_or_another_site_keeps_its_frame() {
        // The header's own module prints it, or another module of its
        // package (the class moved there in another version).
        let line =
            "urllib3.exceptions.IncompleteRead: IncompleteRead(3 bytes read, 97 more expected)";
        let prefix = "urllib3.exceptions.IncompleteRead: ";
        assert_eq!(frames_kept(line, prefix, 35, "IncompleteRead.__repr__"), 1);
        let line = "urllib3.IncompleteRead: IncompleteRead(3 bytes read, 97 more expected)";
        let prefix = "urllib3.IncompleteRead: ";
        assert_eq!(frames_kept(line, prefix, 24, "IncompleteRead.__repr__"), 1);
        // A raise in a function is no class's own text: a wrapping class
        // prints what it wraps.
        let line = "requests.exceptions.ConnectionError: ('Connection aborted.', x)";
        let prefix = "requests.exceptions.ConnectionError: ";
        assert_eq!(
            frames_kept(line, prefix, 37, "HTTPConnectionPool.urlopen"),
            1
        );
        // A class of another name's text.
        let line = "http.client.RemoteDisconnected: IncompleteRead(2 bytes read, 3 more expected)";
        let prefix = "http.client.RemoteDisconnected: ";
        assert_eq!(frames_kept(line, prefix, 32, "IncompleteRead.__repr__"), 1);
        // No module in the header.
        let line = "IncompleteRead: IncompleteRead(2 bytes read, 3 more expected)";
        assert_eq!(
            frames_kept(line, "IncompleteRead: ", 16, "IncompleteRead.__repr__"),
            1
        );
    }

    /// An explanation of `line` with a frame for each of `texts`, each
    /// traced to urllib3's `IncompleteRead.__repr__`.
    fn traced(line: &str, texts: &[&str]) -> Explanation<'static> {
        let frames = texts
            .iter()
            .map(|t| {
                let start = line.find(t).unwrap();
                FrameOut {
                    text: t.to_string(),
                    start,
                    end: start + t.len(),
                    candidate_count: 1,
                    candidates: vec![crate::neighbours::tests::cand(
                        "src/urllib3/exceptions.py",
                        263,
                        "IncompleteRead.__repr__",
                    )],
                }
            })
            .collect();
        Explanation {
            input: line.into(),
            prefix: String::new(),
            verdict: Verdict::Traced,
            frames,
            unmatched: Vec::new(),
            stack: None,
        }
    }

    #[test]
    fn a_text_a_chained_traceback_printed_under_another_packages_class_is_that_class() {
        let read = "IncompleteRead(2 bytes read, 3 more expected)";
        let wrapped =
            format!("urllib3.exceptions.ProtocolError: ('Connection broken: {read}', {read})");
        let lines = [
            "Traceback (most recent call last):",
            "  File \"/usr/lib/python3.11/http/client.py\", line 640, in _safe_read",
            "    raise IncompleteRead(data, amt-len(data))",
            "http.client.IncompleteRead: IncompleteRead(2 bytes read, 3 more expected)",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            "  File \"/opt/urllib3/response.py\", line 775, in _error_catcher",
            &wrapped,
            "Traceback (most recent call last):",
            "  File \"/opt/app.py\", line 3, in <module>",
            &wrapped,
        ];
        let stack = errdex_match::stack::read(&lines);
        let mut explained: Vec<Explanation> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| match i {
                9 | 12 => traced(l, &[read, read]),
                _ => traced(l, &[]),
            })
            .collect();
        drop_in_chained_tracebacks(&mut explained, &stack);
        // In the chain, both copies of the text are http.client's.
        assert!(explained[9].frames.is_empty());
        assert_eq!(explained[9].unmatched.len(), 2);
        // A traceback of its own, not chained to that one, keeps them.
        assert_eq!(explained[12].frames.len(), 2);
    }
}
