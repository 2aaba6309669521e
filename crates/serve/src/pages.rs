//! Server-rendered pages (maud: templates checked at compile time). Pages
//! work without JavaScript, use system fonts, and fit a phone.

use crate::api::{Filters, SearchParams};
use crate::{blocking, AppState, Failure, PAGE_SIZE};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use errdex_atlas::render::html::{rich, severity as sev, urlencode};
use errdex_model::Record;
use errdex_store::ListQuery;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::json;
use std::sync::Arc;

pub(crate) const CSS: &str = "\
:root{color-scheme:light dark;--mut:#6a737d;--bd:#d0d7de;--hl:#fff8c5}\
@media(prefers-color-scheme:dark){:root{--mut:#8b949e;--bd:#30363d;--hl:#3b2e00}}\
body{font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:60rem;padding:1rem}\
header a{text-decoration:none;font-weight:600}nav{color:var(--mut);font-size:.9rem}\
pre{overflow-x:auto;padding:.75rem;border:1px solid var(--bd);border-radius:6px;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\
pre.msg{font-size:1rem;white-space:pre-wrap}.hl{background:var(--hl);display:inline-block;width:100%}\
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--bd);padding:.35rem;text-align:left;vertical-align:top}\
td.m{font-family:ui-monospace,monospace;word-break:break-word}.mut,footer{color:var(--mut);font-size:.9rem}\
.sev{font-size:.8rem;padding:0 .4rem;border-radius:1rem;border:1px solid var(--bd)}\
form.f{display:flex;flex-wrap:wrap;gap:.5rem}input[type=search],textarea{width:100%;box-sizing:border-box;font:inherit;padding:.4rem}\
details{margin:.5rem 0}h2{margin-top:1.6rem;font-size:1.2rem}";

/// The common frame of every page.
pub(crate) fn page(
    s: &AppState,
    title: &str,
    canonical: &str,
    head: Markup,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · errdex" }
                @if s.static_site {
                    // Static hosts send no headers of errdex's: the policy
                    // travels in the page.
                    meta http-equiv="Content-Security-Policy" content=(crate::harden::meta_policy());
                    meta name="referrer" content=(crate::harden::REFERRER_POLICY);
                }
                link rel="canonical" href=(format!("{}{canonical}", s.base_url));
                (head)
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    a href="/" { "errdex" }
                    " "
                    span.mut { "error atlas" }
                }
                main { (body) }
            }
        }
    }
}

/// JSON for a `<script>` block: `<`, `>` and `&` written as JSON escapes,
/// so no text (`</script>`, `<!--<script>`, which makes the rest of the
/// page script data) can end or change the element.
pub(crate) fn script_json(v: &serde_json::Value) -> PreEscaped<String> {
    let json = v.to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    PreEscaped(out)
}

fn search_box(q: &str) -> Markup {
    html! {
        form action="/search" method="get" role="search" {
            label for="q" { "Paste an error line from a log, or search words" }
            textarea id="q" name="q" rows="2" { (q) }
            button type="submit" { "Explain / search" }
        }
    }
}

pub(crate) fn not_found(s: &AppState, what: &str) -> Response {
    let body = html! {
        h1 { "Not found" }
        p { (what) }
        (search_box(""))
    };
    (
        StatusCode::NOT_FOUND,
        page(s, "Not found", "/", html! {}, body),
    )
        .into_response()
}

pub(crate) async fn home(State(s): State<Arc<AppState>>) -> Result<Markup, Failure> {
    blocking(&s, home_page).await
}

/// The home page.
pub(crate) fn home_page(s: &AppState) -> Result<Markup, Failure> {
    {
        let repos = s.atlas.repos()?;
        let total: u64 = repos.iter().map(|r| r.records).sum();
        let body = html! {
            h1 { "Every error message, explained" }
            p { (total) " errors from " (repos.len()) " repositories: what each means, where the code produces it, and what to do." }
            @if !s.static_site { (search_box("")) }
            h2 { "Repositories" }
            table {
                thead { tr { th { "Repository" } th { "Errors" } th { "Commit" } th { "Versions" } } }
                tbody {
                    @for r in &repos {
                        tr {
                            td { a href=(format!("/{}/", r.repo)) { (r.repo) } }
                            td { (r.records) }
                            td.m { (r.commit.as_deref().map(|c| &c[..c.len().min(10)]).unwrap_or("-")) }
                            td {
                                @match (r.versions.first(), r.versions.last()) {
                                    (Some(a), Some(b)) if r.versions.len() > 1 => { (r.versions.len()) " (" (a.name) " – " (b.name) ")" }
                                    (Some(a), _) => { (a.name) }
                                    _ => { "-" }
                                }
                            }
                        }
                    }
                }
            }
            h2 { "For programs and agents" }
            p {
                "JSON: " code { "GET /api/errors/{id}" } ", " code { "GET /api/search?q=" } ", "
                code { "POST /api/explain" } " (see " a href="/api-docs/" { "API docs" } " and "
                a href="/openapi.json" { "OpenAPI" } "). Coding agents: run "
                code { "errdex mcp" } " for an MCP server over the same data; " a href="/llms.txt" { "llms.txt" } "."
            }
        };
        Ok(page(s, "errdex", "/", html! {}, body))
    }
}

pub(crate) async fn add_slash(Path((owner, repo)): Path<(String, String)>) -> Response {
    crate::harden::add_slash(&[&owner, &repo])
}

pub(crate) async fn add_slash3(
    Path((owner, repo, slug)): Path<(String, String, String)>,
) -> Response {
    crate::harden::add_slash(&[&owner, &repo, &slug])
}

pub(crate) async fn repo(
    State(s): State<Arc<AppState>>,
    Path((owner, name)): Path<(String, String)>,
    Query(f): Query<Filters>,
) -> Result<Response, Failure> {
    blocking(&s, move |s| {
        Ok(match repo_page(s, &owner, &name, &f)? {
            Some(m) => m.into_response(),
            None => not_found(s, &format!("No repository {owner}/{name} in this atlas.")),
        })
    })
    .await
}

/// A repository's error table: one page of it under filters, or (for the
/// static site) all of it; None when the repository is unknown.
pub(crate) fn repo_page(
    s: &AppState,
    owner: &str,
    name: &str,
    f: &Filters,
) -> Result<Option<Markup>, Failure> {
    {
        let repo = format!("{owner}/{name}");
        let Some(summary) = s.atlas.repo(&repo)? else {
            return Ok(None);
        };
        let page_no = f.page.unwrap_or(1).max(1);
        let size = if s.static_site { 0 } else { PAGE_SIZE };
        let (total, rows) = crate::api::listed(s, &repo, f, size, (page_no - 1) * PAGE_SIZE)?;
        let pages = if s.static_site {
            1
        } else {
            (total as usize).div_ceil(PAGE_SIZE).max(1)
        };
        let link = |p: usize| {
            let mut params = vec![format!("page={p}")];
            for (k, v) in [
                ("severity", &f.severity),
                ("type", &f.error_type),
                ("tag", &f.tag),
                ("path", &f.path),
                ("version", &f.version),
            ] {
                if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
                    params.push(format!("{k}={}", urlencode(v)));
                }
            }
            format!("?{}", params.join("&"))
        };
        let selected = |v: &Option<String>, want: &str| v.as_deref() == Some(want);
        let body = html! {
            nav { a href="/" { "errdex" } " / " (repo) }
            h1 { (repo) }
            p.mut {
                (summary.records) " errors"
                @if let Some(c) = &summary.commit { " at " code { (c[..c.len().min(10)]) } }
                " · indexed " (summary.indexed_at)
            }
            @if !summary.versions.is_empty() {
                p.mut {
                    "Versions: "
                    @if f.version().is_some() { a href=(format!("/{repo}/")) { "all" } " · " }
                    @for (i, v) in summary.versions.iter().enumerate() {
                        @if i > 0 { " · " }
                        @if f.version() == Some(v.name.as_str()) { strong { (v.name) } }
                        @else { a href=(format!("/{repo}/?version={}", urlencode(&v.name))) { (v.name) } }
                    }
                }
            }
            @if !s.static_site { form.f method="get" {
                select name="severity" aria-label="severity" {
                    option value="" { "any severity" }
                    @for v in ["critical", "error", "warning", "info", "debug"] {
                        option value=(v) selected[selected(&f.severity, v)] { (v) }
                    }
                }
                select name="type" aria-label="type" {
                    option value="" { "any type" }
                    @for v in ["exception", "panic", "log", "exit", "http"] {
                        option value=(v) selected[selected(&f.error_type, v)] { (v) }
                    }
                }
                input name="tag" placeholder="tag" value=(f.tag.clone().unwrap_or_default());
                input name="path" placeholder="path prefix" value=(f.path.clone().unwrap_or_default());
                @if let Some(v) = f.version() { input type="hidden" name="version" value=(v); }
                button type="submit" { "Filter" }
            } }
            p.mut { (total) " matching · page " (page_no) " of " (pages) }
            table {
                thead { tr { th { "Message" } th { "Type" } th { "Severity" } th { "File" } } }
                tbody {
                    @for r in &rows {
                        tr {
                            td.m { a href=(format!("/{}/{}/", r.repo, r.slug)) { (r.error_message) } }
                            td { (r.error_type.as_str()) }
                            td { (sev(r.severity)) }
                            td.m { (r.file_path) ":" (r.line_number) }
                        }
                    }
                }
            }
            nav {
                @if page_no > 1 { a href=(link(page_no - 1)) rel="prev" { "← previous" } " " }
                @if page_no < pages { a href=(link(page_no + 1)) rel="next" { "next →" } }
            }
        };
        let head = html! {
            link rel="alternate" type="application/json" href=(format!("/api/repos/{repo}/errors"));
        };
        Ok(Some(page(s, &repo, &format!("/{repo}/"), head, body)))
    }
}

pub(crate) async fn error(
    State(s): State<Arc<AppState>>,
    Path((owner, name, slug)): Path<(String, String, String)>,
) -> Result<Response, Failure> {
    blocking(&s, move |s| {
        let repo = format!("{owner}/{name}");
        let Some(r) = s.atlas.find_slug(Some(&repo), &slug)?.into_iter().next() else {
            return Ok(not_found(s, &format!("No error {slug} in {repo}.")));
        };
        let related = s.atlas.related(&r);
        Ok(error_page(s, &r, &related).into_response())
    })
    .await
}

/// An error's page: the seed page's sections (see
/// [`errdex_atlas::render`]) in the common frame, with search metadata.
pub(crate) fn error_page(s: &AppState, r: &Record, related: &[Record]) -> Markup {
    let canonical = format!("/{}/{}/", r.repo, r.slug);
    let json_url = format!("/api/errors/{}", r.id);
    let mut faq = Vec::new();
    if let Some(d) = &r.documentation {
        faq.push(
            json!({"@type": "Question", "name": format!("What does \"{}\" mean?", r.error_message),
            "acceptedAnswer": {"@type": "Answer", "text": d}}),
        );
    }
    if !r.solutions.is_empty() {
        faq.push(
            json!({"@type": "Question", "name": format!("How do I fix \"{}\"?", r.error_message),
            "acceptedAnswer": {"@type": "Answer", "text": r.solutions.join(" ")}}),
        );
    }
    if let Some(t) = &r.trigger_scenarios {
        faq.push(json!({"@type": "Question", "name": format!("When does \"{}\" happen?", r.error_message),
            "acceptedAnswer": {"@type": "Answer", "text": t}}));
    }
    let ld = json!([
        {
            "@context": "https://schema.org",
            "@type": "TechArticle",
            "headline": r.error_message,
            "about": r.repo,
            "description": r.documentation,
            "dateModified": r.content_changed_at,
            "url": format!("{}{canonical}", s.base_url),
            "keywords": r.tags,
        },
        {"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": faq}
    ]);
    let head = html! {
        meta name="description" content=(r.documentation.as_deref().unwrap_or(&r.error_message).chars().take(160).collect::<String>());
        link rel="alternate" type="application/json" href=(json_url);
        script type="application/ld+json" { (script_json(&ld)) }
    };
    let body = errdex_atlas::render::html(r, related);
    page(s, &r.error_message, &canonical, head, body)
}

pub(crate) async fn search(
    State(s): State<Arc<AppState>>,
    Query(p): Query<SearchParams>,
) -> Result<Markup, Failure> {
    let q = p.q.unwrap_or_default();
    blocking(&s, move |s| {
        let lines: Vec<&str> = q
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(20)
            .collect();
        // The trace index is built on first use: an empty query needs none.
        let ex = match lines.is_empty() {
            true => None,
            false => Some(s.atlas.explainer()?),
        };
        let explained = ex
            .as_deref()
            .map(|ex| ex.explain_block(&lines))
            .unwrap_or_default();
        let hits = s.atlas.search(&q, p.repo.as_deref(), 30)?;
        let body = html! {
            h1 { "Search" }
            (search_box(&q))
            @for e in &explained {
                h2 { "Traced: " span.mut { (format!("{:?}", e.verdict).to_lowercase()) } }
                @if !e.prefix.is_empty() { p.mut { "Log prefix: " code { (e.prefix) } } }
                ol {
                    @for f in &e.frames {
                        li {
                            code { (f.text) }
                            @for c in f.candidates.iter().take(3) {
                                br;
                                @if c.built_at_run_time {
                                    code { (c.message_pattern) } " (raised here; its message is built at run time)"
                                } @else {
                                    a href=(format!("/{}/{}/", c.repo, c.slug)) { (c.message_pattern) }
                                }
                                span.mut { " · " (c.file_path) ":" (c.line_number) }
                            }
                        }
                    }
                }
                @for u in &e.unmatched { p.mut { "Not explained: " code { (u.text) } } }
            }
            @if !hits.is_empty() {
                h2 { "Matches" }
                ul {
                    @for h in &hits {
                        li { a href=(format!("/{}/{}/", h.repo, h.slug)) { (h.message_pattern) }
                            span.mut { " · " (h.repo) " · " (h.match_type) } }
                    }
                }
            } @else if !q.trim().is_empty() {
                p { "Nothing in this atlas matches." }
            }
        };
        Ok(page(
            s,
            "Search",
            "/search",
            html! { meta name="robots" content="noindex"; },
            body,
        ))
    })
    .await
}

pub(crate) async fn family(
    State(s): State<Arc<AppState>>,
    Path(slug): Path<String>,
) -> Result<Response, Failure> {
    blocking(&s, move |s| {
        Ok(match family_page(s, &slug)? {
            Some(m) => m.into_response(),
            None => not_found(s, &format!("No error family {slug}.")),
        })
    })
    .await
}

/// A family's page; None for an unknown family.
pub(crate) fn family_page(s: &AppState, slug: &str) -> Result<Option<Markup>, Failure> {
    {
        let slug = slug.to_string();
        let Some(f) = errdex_analyze::family::by_slug(&slug) else {
            return Ok(None);
        };
        let q = ListQuery {
            family: Some(slug.clone()),
            limit: 200,
            ..ListQuery::default()
        };
        let total = s.atlas.count(&q)?;
        let rows = s.atlas.list(&q)?;
        let body = html! {
            nav { a href="/" { "errdex" } " / family" }
            h1 { (slug) }
            p { (f.meaning) }
            h2 { "Common causes" }
            p { (f.situations) }
            h2 { "What usually helps" }
            ol { @for sol in f.solutions { li { (rich(sol)) } } }
            h2 { "Prevention" }
            ul { @for t in f.prevention { li { (t) } } }
            h2 { "Errors of this family (" (total) ")" }
            ul {
                @for r in &rows {
                    li { a href=(format!("/{}/{}/", r.repo, r.slug)) { (r.error_message) } span.mut { " · " (r.repo) } }
                }
            }
        };
        Ok(Some(page(
            s,
            &slug,
            &format!("/info/{slug}/"),
            html! {},
            body,
        )))
    }
}

pub(crate) async fn api_docs(State(s): State<Arc<AppState>>) -> Markup {
    api_docs_page(&s)
}

/// The API documentation page.
pub(crate) fn api_docs_page(s: &AppState) -> Markup {
    let rows = [
        ("GET /api/errors/{id}", "One record: {\"record\", \"datasetVersion\"}, the seed record's fields."),
        ("GET /api/repos", "Repositories with record counts."),
        ("GET /api/repos/{owner}/{repo}/errors", "A repository's errors; ?severity= &type= &tag= &path= &limit= &offset=."),
        ("GET /api/search?q=&repo=&limit=", "Tiered search: error code, traced pattern, full text; score in [0,1], best first."),
        ("POST /api/explain", "Raw log text (text/plain, or JSON {\"text\"}), at most 64 KB: one explanation per line, frames outermost first."),
        ("GET /openapi.json", "This API as OpenAPI 3.1."),
        ("GET /healthz", "Liveness and the dataset version."),
        ("GET /metrics", "Prometheus text format."),
    ];
    let body = html! {
        h1 { "API" }
        p { "Every answer carries the dataset version as an ETag; send it back in If-None-Match to get 304 when nothing changed. Answers are gzip-compressed when asked." }
        table {
            @for (path, what) in rows { tr { td.m { (path) } td { (what) } } }
        }
        p { "Example: " code { "curl -s " (s.base_url) "/api/search?q=stop+requested" } }
    };
    page(s, "API", "/api-docs/", html! {}, body)
}
