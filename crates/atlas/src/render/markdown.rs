//! A record as markdown for a coding agent (MCP's `get_error`).

use super::{render, CauseView, Record, Sink};
use errdex_model::{RelatedError, Site};

/// `r` as markdown, with its page at `url`; a section with nothing in it
/// is left out.
pub fn markdown(r: &Record, url: &str) -> String {
    let mut sink = Markdown {
        out: String::new(),
        url,
        language: r.language.as_str(),
    };
    render(r, &[], &mut sink);
    sink.out
}

/// The markdown sink: `##` sections, code fenced in the record's language.
struct Markdown<'a> {
    out: String,
    url: &'a str,
    language: &'static str,
}

impl Markdown<'_> {
    fn section(&mut self, title: &str, body: &str) {
        if !body.trim().is_empty() {
            self.out.push_str(&format!("\n## {title}\n\n{body}\n"));
        }
    }

    fn fence(&self, code: &str) -> String {
        format!("```{}\n{code}\n```", self.language)
    }
}

impl Sink for Markdown<'_> {
    fn heading(&mut self, r: &Record) {
        self.out = format!(
            "# {}\n\n{} · {} · {}\n\nPage: {}\n",
            r.error_message,
            r.repo,
            r.severity,
            r.error_type.as_str(),
            self.url
        );
    }

    fn meaning(&mut self, documentation: &str) {
        self.section("What it means", documentation);
    }

    fn source(&mut self, r: &Record) {
        let link = r
            .github_url
            .as_deref()
            .map(|u| format!(" ({u})"))
            .unwrap_or_default();
        let body = format!(
            "{}:{}{link}\n\n{}",
            r.file_path,
            r.line_number,
            self.fence(&r.source_code)
        );
        self.section("Source", &body);
    }

    fn solutions(&mut self, solutions: &[String]) {
        let numbered: Vec<String> = solutions
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {s}", i + 1))
            .collect();
        self.section("Solutions", &numbered.join("\n"));
    }

    fn example_fix(&mut self, fix: &str) {
        let body = self.fence(fix);
        self.section("Example fix", &body);
    }

    fn defensive(&mut self, strategy: Option<&str>, patterns: &[(&str, Option<&str>)]) {
        let mut body = String::new();
        if let Some(h) = strategy {
            body.push_str(&format!("Strategy: {h}\n"));
        }
        for (title, code) in patterns {
            if let Some(code) = code {
                body.push_str(&format!("\n{title}:\n{}\n", self.fence(code)));
            }
        }
        self.section("Defensive patterns", &body);
    }

    fn when(&mut self, trigger: Option<&str>, situations: Option<&str>) {
        let body = [trigger, situations]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("\n\n");
        self.section("When it happens", &body);
    }

    /// An agent reads prevention in the solutions; the section is left out.
    fn prevention(&mut self, _tips: &[String]) {}

    fn sites(&mut self, sites: &[Site]) {
        let lines: Vec<String> = sites
            .iter()
            .map(|s| {
                let function = s.function.as_deref().unwrap_or("");
                format!("- {}:{} {function}", s.file_path, s.line_number)
            })
            .collect();
        self.section("All sites", &lines.join("\n"));
    }

    fn versions(&mut self, r: &Record) {
        let mut lines: Vec<String> = super::presence(r)
            .map(|p| format!("{p}.\n"))
            .into_iter()
            .collect();
        for v in &r.versions {
            let place = format!("`{}:{}`", v.file_path, v.line_number);
            lines.push(match &v.github_url {
                Some(u) => format!("- {}: [{place}]({u})", super::range_name(v)),
                None => format!("- {}: {place}", super::range_name(v)),
            });
        }
        self.section("Versions", &lines.join("\n"));
    }

    fn caused_by(&mut self, causes: &[CauseView]) {
        let lines: Vec<String> = causes
            .iter()
            .map(|c| {
                let mut line = format!("- {}", c.summary());
                if let Some((action, run)) = &c.remedy {
                    line.push_str(&format!(". {action}"));
                    if let Some(run) = run {
                        line.push_str(&format!(" `{run}`"));
                    }
                }
                line
            })
            .collect();
        self.section("Caused by", &lines.join("\n"));
    }

    fn related(&mut self, named: &[RelatedError], _held: &[Record]) {
        let lines: Vec<String> = named
            .iter()
            .map(|x| format!("- {} (id {})", x.error_message, x.id))
            .collect();
        self.section("Related errors", &lines.join("\n"));
    }

    /// The heading's line names the kind; the family is left out.
    fn family(&mut self, _family: &str, _other_tags: &[String]) {}

    fn provenance(&mut self, r: &Record) {
        let analyzer = r.analyzer.as_deref().unwrap_or("none");
        self.out
            .push_str(&format!("\nAnalysis: {analyzer} · record id {}\n", r.id));
    }
}
