//! A record as the body of its HTML page (maud: templates checked at
//! compile time, text escaped). The page's frame, head and JSON-LD belong
//! to the server; this is what goes in `<main>`.

use super::{render, short, CauseView, Record, Sink};
use errdex_model::{RelatedError, Severity, Site};
use maud::{html, Markup, PreEscaped, Render};

/// The body of `r`'s page; `related` holds the related records the atlas
/// still has, linked by their pages.
pub fn html(r: &Record, related: &[Record]) -> Markup {
    let mut sink = Html(String::new());
    render(r, related, &mut sink);
    PreEscaped(sink.0)
}

/// Prose with `code spans` (as the analysis writes them) as `<code>`.
pub fn rich(text: &str) -> Markup {
    html! {
        @for (i, part) in text.split('`').enumerate() {
            @if i % 2 == 1 { code { (part) } } @else { (part) }
        }
    }
}

/// A severity as a small badge.
pub fn severity(s: Severity) -> Markup {
    html! { span.sev { (s.as_str()) } }
}

/// `s` encoded for a URL query value (spaces as `+`, `/` kept).
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            b' ' => "+".to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// The HTML sink: markup appended in order (maud puts no whitespace
/// between elements, so pieces join exactly as one template would).
struct Html(String);

impl Html {
    fn push(&mut self, m: Markup) {
        m.render_to(&mut self.0);
    }
}

impl Sink for Html {
    fn heading(&mut self, r: &Record) {
        self.push(html! {
            nav { a href="/" { "errdex" } " / " a href=(format!("/{}/", r.repo)) { (r.repo) } }
            p.mut { (r.repo) " · " (severity(r.severity)) " · " (r.error_type.as_str())
                @if let Some(f) = &r.background_tag { " · " a href=(format!("/info/{f}/")) { (f) } } }
            h1 { "Error message" }
            pre.msg { (r.error_message) }
        });
    }

    fn meaning(&mut self, documentation: &str) {
        self.push(html! { h2 { "What it means" } p { (rich(documentation)) } });
    }

    fn source(&mut self, r: &Record) {
        let function = r.sites.first().and_then(|s| s.function.as_deref());
        let pinned = r.analyzed_sha.as_deref().map(short);
        self.push(html! {
            h2 { "Source" }
            p { "Thrown at " code { (r.file_path) ":" (r.line_number) }
                @if let Some(f) = function { " in " code { (f) } } }
            (snippet(r))
            @if let Some(u) = &r.github_url {
                p { a href=(u) { "View on GitHub" @if let Some(c) = pinned { " (pinned to " (c) ")" } } }
            }
        });
    }

    fn solutions(&mut self, solutions: &[String]) {
        self.push(html! {
            h2 { "Solutions" }
            ol { @for sol in solutions { li { (rich(sol)) } } }
        });
    }

    fn example_fix(&mut self, fix: &str) {
        self.push(html! { h2 { "Example fix" } pre { code { (fix) } } });
    }

    /// Shown when there is code to show; a strategy alone is not enough.
    fn defensive(&mut self, strategy: Option<&str>, patterns: &[(&str, Option<&str>)]) {
        if patterns.iter().all(|(_, c)| c.is_none()) {
            return;
        }
        self.push(html! {
            h2 { "Defensive patterns" }
            @if let Some(h) = strategy { p.mut { "Strategy: " (h) } }
            @for (title, code) in patterns {
                @if let Some(code) = code {
                    details { summary { (title) } pre { code { (code) } } }
                }
            }
        });
    }

    fn versions(&mut self, r: &Record) {
        self.push(html! {
            h2 { "Versions" }
            @if let Some(p) = super::presence(r) { p { (p) "." } }
            ul {
                @for v in &r.versions {
                    li {
                        (super::range_name(v)) ": "
                        @if let Some(u) = &v.github_url {
                            a href=(u) { code { (v.file_path) ":" (v.line_number) } }
                        } @else {
                            code { (v.file_path) ":" (v.line_number) }
                        }
                    }
                }
            }
        });
    }

    fn caused_by(&mut self, causes: &[CauseView]) {
        self.push(html! {
            h2 { "Caused by" }
            ul {
                @for c in causes {
                    li {
                        code { (c.text) }
                        @if let Some(e) = c.knowledge {
                            " " a href=(e.docs) { (e.key) } " — " (e.meaning)
                        } @else {
                            " at " code { (c.place) }
                        }
                        " (via " code { (c.via) } ")"
                        @if !c.values.is_empty() { ", with " code { (c.values) } }
                        @if let Some((action, run)) = &c.remedy {
                            br; (action)
                            @if let Some(run) = run { " " code { (run) } }
                        }
                    }
                }
            }
        });
    }

    fn when(&mut self, trigger: Option<&str>, situations: Option<&str>) {
        self.push(html! {
            h2 { "When it happens" }
            @if let Some(t) = trigger { p { strong { "Trigger: " } (rich(t)) } }
            @if let Some(c) = situations { p { strong { "Common situations: " } (rich(c)) } }
        });
    }

    fn prevention(&mut self, tips: &[String]) {
        self.push(html! {
            h2 { "Prevention" }
            ul { @for t in tips { li { (rich(t)) } } }
        });
    }

    fn sites(&mut self, sites: &[Site]) {
        self.push(html! {
            h2 { "All sites" }
            ul {
                @for site in sites {
                    li { code { (site.file_path) ":" (site.line_number) }
                        @if let Some(f) = &site.function { " " code { (f) } }
                        @if let Some(u) = &site.github_url { " · " a href=(u) { "source" } } }
                }
            }
        });
    }

    /// Only related records the atlas holds are listed: each links a page.
    fn related(&mut self, _named: &[RelatedError], held: &[Record]) {
        if held.is_empty() {
            return;
        }
        self.push(html! {
            h2 { "Related errors" }
            ul { @for x in held { li { a href=(format!("/{}/{}/", x.repo, x.slug)) { (x.error_message) } } } }
        });
    }

    /// The heading links the family already.
    fn family(&mut self, _family: &str, _other_tags: &[String]) {}

    fn provenance(&mut self, r: &Record) {
        let json_url = format!("/api/errors/{}", r.id);
        let report = format!(
            "https://github.com/{}/issues/new?title={}",
            r.repo,
            urlencode(&format!("Error: {}", r.error_message))
        );
        self.push(html! {
            footer {
                p {
                    (provenance(r)) ". Data as JSON: " a href=(json_url) { (json_url) } "."
                    @if r.github_url.is_some() {
                        " Report an issue: " a href=(report) { "GitHub" } "."
                    }
                }
            }
        });
    }
}

/// The snippet with line numbers, the site's line marked.
fn snippet(r: &Record) -> Markup {
    html! {
        pre {
            code {
                @for (i, line) in r.source_code.split('\n').enumerate() {
                    @let n = r.source_code_start + i as u32;
                    @if n == r.line_number {
                        span.hl id="site" { (format!("{n:>5}  {line}")) } "\n"
                    } @else {
                        (format!("{n:>5}  {line}")) "\n"
                    }
                }
            }
        }
    }
}

/// Who wrote the prose, of which commit, on which day.
fn provenance(r: &Record) -> String {
    let who = match r.analyzer.as_deref() {
        Some("static") | None => "Static analysis".to_string(),
        Some(a) if a.starts_with("llm:") => {
            format!("AI-assisted analysis ({})", a.trim_start_matches("llm:"))
        }
        Some(a) => format!("Analysis ({a})"),
    };
    let at = match &r.analyzed_sha {
        Some(sha) => format!("{}@{}", r.repo, short(sha)),
        None => r.repo.clone(),
    };
    format!(
        "{who} of {at} ({})",
        &r.analyzed_at[..r.analyzed_at.len().min(10)]
    )
}
