//! Where an exception whose message no template traces was raised: a
//! message built entirely at run time (`raise TemplateNotFound(template)`,
//! `throw new IllegalStateException(msg)`, `raise ArgumentError, msg`) has
//! no literal to find, but its stack trace names the place that raised it
//! (the innermost frame) and the class. The atlas' site at that place
//! that raises that class with a run-time message is the layer.

use crate::{message_span, CandidateOut, Explanation, FrameOut, Verdict};
use errdex_match::codec::{Decoder, Encoder};
use errdex_match::stack::{Role, StackLine};
use errdex_model::DynamicSite;
use std::collections::HashMap;

/// A site that raises a class with a message built at run time.
#[derive(Debug, Clone, PartialEq)]
struct Raise {
    repo: String,
    file_path: String,
    line: u32,
    /// The class, as the code names it (`TemplateNotFound`).
    class: String,
    /// The statement (`raise TemplateNotFound(template)`).
    statement: String,
    function: Option<String>,
}

/// The atlas' run-time-message raises, by line.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Raises {
    by_line: HashMap<u32, Vec<Raise>>,
}

/// A class name without its module, package or namespace.
fn bare_class(class: &str) -> &str {
    class.rsplit(['.', ':', '\\']).next().unwrap_or(class)
}

impl Raises {
    /// From the store's sites whose message has no literal text.
    pub(crate) fn new(sites: Vec<(String, DynamicSite)>) -> Raises {
        let mut by_line: HashMap<u32, Vec<Raise>> = HashMap::new();
        for (repo, d) in sites {
            by_line.entry(d.line_number).or_default().push(Raise {
                repo,
                class: bare_class(&d.callee).to_string(),
                file_path: d.file_path,
                line: d.line_number,
                statement: d.expression,
                function: d.function,
            });
        }
        Raises { by_line }
    }

    /// The raise of `class` at the place a frame names (a path suffix and
    /// a line).
    fn at(&self, file: &str, line: u32, class: &str) -> Option<&Raise> {
        let class = bare_class(class);
        self.by_line.get(&line)?.iter().find(|r| {
            r.class == class
                && r.file_path
                    .strip_suffix(file)
                    .is_some_and(|head| head.is_empty() || head.ends_with('/'))
        })
    }

    /// Gives each line of `explained` that traced to nothing, and whose
    /// stack reading (`stack`) names the class and the innermost place,
    /// the raise at that place as its one layer.
    pub(crate) fn locate<'a>(&'a self, explained: &mut [Explanation<'a>], stack: &[StackLine]) {
        if self.by_line.is_empty() {
            return;
        }
        for (e, s) in explained.iter_mut().zip(stack) {
            if s.role != Role::Message || !e.frames.is_empty() {
                continue;
            }
            let (Some(class), Some(file), Some(line)) =
                (s.class.as_deref(), s.hints.files.first(), s.hints.line)
            else {
                continue;
            };
            if let Some(r) = self.at(file, line, class) {
                let (start, end) = message_span(&e.input, s);
                if !is_a_causes_text(&e.input[start..end]) {
                    raised_at(e, s, r);
                }
            }
        }
    }

    pub(crate) fn encode(&self, e: &mut Encoder) {
        let all: Vec<&Raise> = self.by_line.values().flatten().collect();
        e.usize(all.len());
        for r in all {
            e.str(&r.repo);
            e.str(&r.file_path);
            e.u32(r.line);
            e.str(&r.class);
            e.str(&r.statement);
            e.opt_str(r.function.as_deref());
        }
    }

    pub(crate) fn decode(d: &mut Decoder<'_>) -> Option<Raises> {
        let n = d.usize()?;
        let mut by_line: HashMap<u32, Vec<Raise>> = HashMap::new();
        for _ in 0..n {
            let r = Raise {
                repo: d.str()?.to_string(),
                file_path: d.str()?.to_string(),
                line: d.u32()?,
                class: d.str()?.to_string(),
                statement: d.str()?.to_string(),
                function: d.opt_string()?,
            };
            by_line.entry(r.line).or_default().push(r);
        }
        Some(Raises { by_line })
    }
}

/// Whether a message is another exception's text: a JVM exception made
/// from its cause alone (`new SerializationException(ex)`) takes the
/// cause's `toString()`, `java.io.StreamCorruptedException: invalid stream
/// header`, which its raise does not build and the `Caused by:` lines
/// trace.
fn is_a_causes_text(message: &str) -> bool {
    let head = message.split([':', ' ']).next().unwrap_or("");
    let mut parts = head.split('.');
    let class = parts.next_back().unwrap_or("");
    let packages: Vec<&str> = parts.collect();
    !packages.is_empty()
        && class.starts_with(|c: char| c.is_ascii_uppercase())
        && packages.iter().chain([&class]).all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

/// `e`'s message, as `s` places it, is the layer raise `r` makes.
fn raised_at<'a>(e: &mut Explanation<'a>, s: &StackLine, r: &'a Raise) {
    let (start, end) = message_span(&e.input, s);
    let text = &e.input[start..end];
    e.frames.push(FrameOut {
        text: text.to_string(),
        start,
        end,
        candidates: vec![CandidateOut {
            id: "",
            repo: &r.repo,
            slug: "",
            message_pattern: &r.statement,
            file_path: &r.file_path,
            line_number: r.line,
            github_url: None,
            score: 0.0,
            function: r.function.as_deref(),
            hinted: true,
            exact: true,
            documentation: None,
            knowledge: None,
            first_seen: None,
            last_seen: None,
            removed_in: None,
            built_at_run_time: true,
            site: u32::MAX,
        }],
        candidate_count: 1,
    });
    e.unmatched.retain(|u| u.end <= start || u.start >= end);
    e.verdict = if e.unmatched.is_empty() {
        Verdict::Traced
    } else {
        Verdict::Partial
    };
}

#[cfg(test)]
mod tests {
    use crate::{Explainer, Verdict};
    use errdex_model::DynamicSite;

    fn raise(file: &str, line: u32, class: &str, statement: &str) -> (String, DynamicSite) {
        let site = DynamicSite {
            file_path: file.into(),
            line_number: line,
            function: Some("f".into()),
            callee: class.into(),
            expression: statement.into(),
        };
        ("o/r".to_string(), site)
    }

    /// The atlas of these tests: one run-time raise in each language.
    fn explainer() -> Explainer {
        Explainer::new(Vec::new()).with_raises(vec![
            raise(
                "src/flask/templating.py",
                99,
                "TemplateNotFound",
                "raise TemplateNotFound(template)",
            ),
            raise(
                "src/main/java/p/Queue.java",
                4,
                "IllegalStateException",
                "throw new IllegalStateException(msg);",
            ),
            raise("lib/check.js", 2, "TypeError", "new TypeError(msg)"),
            raise(
                "lib/check.rb",
                2,
                "ArgumentError",
                "raise ArgumentError, msg",
            ),
        ])
    }

    /// Each line's verdict and, for the message, its layer's place.
    fn placed(trace: &str) -> Vec<(Verdict, Option<String>)> {
        let ex = explainer();
        let lines: Vec<&str> = trace.lines().collect();
        ex.explain_block(&lines)
            .into_iter()
            .filter(|e| e.stack.is_none())
            .map(|e| {
                let place = e.frames.first().map(|f| {
                    let c = &f.candidates[0];
                    assert!(c.built_at_run_time && c.id.is_empty());
                    format!("{}:{} {}", c.file_path, c.line_number, f.text)
                });
                (e.verdict, place)
            })
            .collect()
    }

    fn one(verdict: Verdict, place: &str) -> Vec<(Verdict, Option<String>)> {
        vec![(verdict, Some(place.to_string()))]
    }

    #[test]
    fn a_python_exception_is_placed_at_its_innermost_frame() {
        let trace = "Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flask/app.py\", line 1511, in wsgi_app\n    response = self.full_dispatch_request()\n  File \"/venv/lib/python3.11/site-packages/flask/templating.py\", line 99, in _get_source_fast\n    raise TemplateNotFound(template)\njinja2.exceptions.TemplateNotFound: missing.html";
        assert_eq!(
            placed(trace),
            one(Verdict::Traced, "src/flask/templating.py:99 missing.html")
        );
    }

    #[test]
    fn java_node_and_ruby_exceptions_are_placed_at_their_first_frame() {
        let java = "Exception in thread \"main\" java.lang.IllegalStateException: queue q7 is full\n\tat p.Queue.put(Queue.java:4)\n\tat p.Main.main(Main.java:9)";
        assert_eq!(
            placed(java),
            one(
                Verdict::Traced,
                "src/main/java/p/Queue.java:4 queue q7 is full"
            )
        );
        let node = "TypeError: port must be a number\n    at check (/app/lib/check.js:2:9)\n    at Object.<anonymous> (/app/index.js:5:1)";
        assert_eq!(
            placed(node),
            one(Verdict::Traced, "lib/check.js:2 port must be a number")
        );
        let ruby = "/app/lib/check.rb:2:in `check': port must be a number (ArgumentError)\n\tfrom /app/main.rb:5:in `<main>'";
        assert_eq!(
            placed(ruby),
            one(Verdict::Traced, "lib/check.rb:2 port must be a number")
        );
    }

    #[test]
    fn another_class_line_or_file_places_nothing() {
        for trace in [
            // Another class at the place.
            "Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flask/templating.py\", line 99, in f\n    raise TemplateNotFound(template)\nKeyError: 'missing.html'",
            // The class, another line.
            "Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flask/templating.py\", line 98, in f\n    x()\njinja2.exceptions.TemplateNotFound: missing.html",
            // A file that only ends like the site's.
            "Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/myflask/templating.py\", line 99, in f\n    x()\njinja2.exceptions.TemplateNotFound: missing.html",
            // No stack trace: no place.
            "jinja2.exceptions.TemplateNotFound: missing.html",
            // An exception made from its cause alone: the cause's text.
            "java.lang.IllegalStateException: java.io.IOException: disk full\n\tat p.Queue.put(Queue.java:4)",
        ] {
            assert_eq!(placed(trace), vec![(Verdict::Unknown, None)], "{trace}");
        }
    }

    #[test]
    fn the_raises_survive_the_trace_cache() {
        let ex = explainer();
        let again = Explainer::decode(&ex.encode()).expect("decodes");
        assert_eq!(again.raises, ex.raises);
    }
}
