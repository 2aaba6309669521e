//! A record as plain text for a terminal (`errdex show`).

use super::{render, short, CauseView, Record, Sink};
use errdex_model::{RelatedError, Site};
use std::fmt::Write;

/// `r` as text for a terminal, with its fields, its numbered snippet (the
/// site's line marked `>`) and every section of the seed page.
pub fn terminal(r: &Record) -> String {
    let mut sink = Terminal(String::new());
    render(r, &[], &mut sink);
    sink.0
}

/// The terminal sink: text, sections titled and indented.
struct Terminal(String);

// Writing to a String cannot fail; the results are dropped.
impl Sink for Terminal {
    fn heading(&mut self, r: &Record) {
        let o = &mut self.0;
        let _ = writeln!(o, "{} · {}\n\n  {}\n", r.repo, r.severity, r.error_message);
        let _ = writeln!(o, "id        {}", r.id);
        let _ = writeln!(o, "slug      {}", r.slug);
        let _ = writeln!(o, "pattern   {:?}", r.message_pattern);
        let _ = write!(o, "type      {}", r.error_type);
        if let Some(c) = &r.error_class {
            let _ = write!(o, " · class {c}");
        }
        if let Some(c) = &r.error_code {
            let _ = write!(o, " · code {c}");
        }
        if let Some(s) = r.http_status {
            let _ = write!(o, " · HTTP {s}");
        }
        o.push('\n');
    }

    fn meaning(&mut self, documentation: &str) {
        let _ = writeln!(self.0, "\nWhat it means\n  {documentation}");
    }

    fn source(&mut self, r: &Record) {
        let o = &mut self.0;
        let _ = writeln!(o, "\nSource: {}:{}", r.file_path, r.line_number);
        for (i, line) in r.source_code.split('\n').enumerate() {
            let n = r.source_code_start + i as u32;
            let mark = if n == r.line_number { '>' } else { ' ' };
            let _ = writeln!(o, "{mark}{n:>6} | {line}");
        }
        if let Some(u) = &r.github_url {
            let _ = writeln!(o, "\nView: {u}");
        }
    }

    fn solutions(&mut self, solutions: &[String]) {
        self.0.push_str("\nSolutions\n");
        for (i, s) in solutions.iter().enumerate() {
            let _ = writeln!(self.0, "  {}. {s}", i + 1);
        }
    }

    fn example_fix(&mut self, fix: &str) {
        let _ = writeln!(self.0, "\nExample fix\n{}", indent(fix));
    }

    fn defensive(&mut self, strategy: Option<&str>, patterns: &[(&str, Option<&str>)]) {
        if strategy.is_none() && patterns.iter().all(|(_, c)| c.is_none()) {
            return;
        }
        self.0.push_str("\nDefensive patterns");
        match strategy {
            Some(h) => {
                let _ = writeln!(self.0, " (strategy: {h})");
            }
            None => self.0.push('\n'),
        }
        for (title, code) in patterns {
            if let Some(code) = code {
                let _ = writeln!(self.0, "  {title}:\n{}", indent(code));
            }
        }
    }

    fn versions(&mut self, r: &Record) {
        self.0.push_str("\nVersions\n");
        if let Some(p) = super::presence(r) {
            let _ = writeln!(self.0, "  {p}");
        }
        for v in &r.versions {
            let _ = writeln!(
                self.0,
                "  {}: {}:{}",
                super::range_name(v),
                v.file_path,
                v.line_number
            );
            if let Some(u) = &v.github_url {
                let _ = writeln!(self.0, "    {u}");
            }
        }
    }

    fn caused_by(&mut self, causes: &[CauseView]) {
        self.0.push_str("\nCaused by\n");
        for c in causes {
            let _ = writeln!(self.0, "  - {}", c.summary());
            if let Some(e) = c.knowledge {
                let _ = writeln!(self.0, "      {}", e.meaning);
            }
            if let Some((action, run)) = &c.remedy {
                let _ = writeln!(self.0, "      do: {action}");
                if let Some(run) = run {
                    let _ = writeln!(self.0, "        $ {run}");
                }
            }
        }
    }

    fn when(&mut self, trigger: Option<&str>, situations: Option<&str>) {
        self.0.push_str("\nWhen it happens\n");
        for t in [trigger, situations].into_iter().flatten() {
            let _ = writeln!(self.0, "  {t}");
        }
    }

    fn prevention(&mut self, tips: &[String]) {
        self.0.push_str("\nPrevention\n");
        for t in tips {
            let _ = writeln!(self.0, "  - {t}");
        }
    }

    fn sites(&mut self, sites: &[Site]) {
        let _ = writeln!(self.0, "\nSites ({}):", sites.len());
        for s in sites {
            let function = s.function.as_deref().unwrap_or("-");
            let _ = writeln!(
                self.0,
                "  {}:{}  {function}  {}",
                s.file_path, s.line_number, s.callee
            );
        }
    }

    fn related(&mut self, named: &[RelatedError], _held: &[Record]) {
        self.0.push_str("\nRelated errors\n");
        for e in named {
            let _ = writeln!(self.0, "  {}  {}", e.id, e.error_message);
        }
    }

    fn family(&mut self, family: &str, other_tags: &[String]) {
        let _ = write!(self.0, "\nFamily: {family}");
        if !other_tags.is_empty() {
            let _ = write!(self.0, " · tags: {}", other_tags.join(", "));
        }
        self.0.push('\n');
    }

    fn provenance(&mut self, r: &Record) {
        let who = match r.analyzer.as_deref() {
            Some("static") => "static analysis".to_string(),
            Some(a) => format!("AI-assisted analysis ({a})"),
            None => "not analysed".to_string(),
        };
        let at = match &r.analyzed_sha {
            Some(sha) => format!("{}@{}", r.repo, short(sha)),
            None => r.repo.clone(),
        };
        let _ = writeln!(self.0, "\n{who} of {at} ({})", r.analyzed_at);
    }
}

/// Code, indented under a section title.
fn indent(code: &str) -> String {
    code.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
