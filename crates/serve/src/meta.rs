//! Machine-facing documents: health, metrics, robots, sitemaps, llms.txt,
//! OpenAPI.

use crate::{blocking, request_counts, AppState, Failure};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use errdex_store::ListQuery;
use serde_json::{json, Value};
use std::fmt::Write;
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn text(content_type: &'static str, body: String) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

pub(crate) async fn healthz(State(s): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({"status": "ok", "datasetVersion": s.version()}))
}

pub(crate) async fn metrics(State(s): State<Arc<AppState>>) -> Result<Response, Failure> {
    blocking(&s, |s| {
        let repos = s.atlas.repos()?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP errdex_http_requests_total HTTP requests served, by route."
        );
        let _ = writeln!(out, "# TYPE errdex_http_requests_total counter");
        for (route, n) in request_counts(s) {
            let _ = writeln!(out, "errdex_http_requests_total{{route=\"{route}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP errdex_explained_lines_total Lines traced by POST /api/explain."
        );
        let _ = writeln!(out, "# TYPE errdex_explained_lines_total counter");
        let _ = writeln!(
            out,
            "errdex_explained_lines_total {}",
            crate::explained_lines(s).load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP errdex_records Records in the atlas, by repository."
        );
        let _ = writeln!(out, "# TYPE errdex_records gauge");
        for r in &repos {
            let _ = writeln!(
                out,
                "errdex_records{{repo=\"{}\"}} {}",
                r.repo.replace('"', ""),
                r.records
            );
        }
        let _ = writeln!(
            out,
            "# HELP errdex_dataset_info The dataset version served."
        );
        let _ = writeln!(out, "# TYPE errdex_dataset_info gauge");
        let _ = writeln!(out, "errdex_dataset_info{{version=\"{}\"}} 1", s.version());
        Ok(text("text/plain; version=0.0.4; charset=utf-8", out))
    })
    .await
}

pub(crate) async fn robots(State(s): State<Arc<AppState>>) -> Response {
    text("text/plain; charset=utf-8", robots_txt(&s))
}

pub(crate) fn robots_txt(s: &AppState) -> String {
    format!(
        "User-agent: *\nAllow: /\nDisallow: /search\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
        s.base_url
    )
}

pub(crate) async fn llms(State(s): State<Arc<AppState>>) -> Result<Response, Failure> {
    blocking(&s, |s| Ok(text("text/plain; charset=utf-8", llms_txt(s)?))).await
}

pub(crate) fn llms_txt(s: &AppState) -> Result<String, Failure> {
    {
        let repos = s.atlas.repos()?;
        let mut out = String::from("# errdex error atlas\n\n> Every error message of the indexed repositories: what it means, where the code produces it, when it happens and how to fix or handle it. Raw log lines can be traced back to the source sites.\n\n## How to use\n\n");
        let b = &s.base_url;
        let _ = writeln!(out, "- [Search or trace a log line]({b}/api/search?q=TEXT): JSON, tiered (error code, traced pattern, full text)");
        let _ = writeln!(
            out,
            "- [Explain raw log text]({b}/api/explain): POST the text, get frames outermost first"
        );
        let _ = writeln!(
            out,
            "- [One error as JSON]({b}/api/errors/ID): the full record"
        );
        let _ = writeln!(out, "- [OpenAPI]({b}/openapi.json)");
        let _ = writeln!(out, "- MCP: run `errdex mcp --db FILE` for tools search_error, explain_error, get_error, list_repos\n\n## Repositories\n");
        for r in &repos {
            let _ = writeln!(out, "- [{}]({b}/{}/): {} errors", r.repo, r.repo, r.records);
        }
        Ok(out)
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(crate) async fn sitemap_index(State(s): State<Arc<AppState>>) -> Result<Response, Failure> {
    blocking(&s, |s| Ok(text("application/xml", sitemap_index_xml(s)?))).await
}

pub(crate) fn sitemap_index_xml(s: &AppState) -> Result<String, Failure> {
    {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for r in s.atlas.repos()? {
            let _ = writeln!(
                out,
                "<sitemap><loc>{}/sitemaps/{}.xml</loc><lastmod>{}</lastmod></sitemap>",
                s.base_url,
                xml_escape(&r.repo),
                xml_escape(&r.indexed_at)
            );
        }
        out.push_str("</sitemapindex>\n");
        Ok(out)
    }
}

pub(crate) async fn sitemap_repo(
    State(s): State<Arc<AppState>>,
    Path((owner, file)): Path<(String, String)>,
) -> Result<Response, Failure> {
    let Some(name) = file.strip_suffix(".xml").map(str::to_string) else {
        return Ok(StatusCode::NOT_FOUND.into_response());
    };
    blocking(&s, move |s| {
        Ok(match sitemap_repo_xml(s, &format!("{owner}/{name}"))? {
            Some(x) => text("application/xml", x),
            None => StatusCode::NOT_FOUND.into_response(),
        })
    })
    .await
}

/// One repository's part of the sitemap; None for an unknown one.
pub(crate) fn sitemap_repo_xml(s: &AppState, repo: &str) -> Result<Option<String>, Failure> {
    {
        let repo = repo.to_string();
        let records = s.atlas.list(&ListQuery {
            repo: Some(repo.clone()),
            ..ListQuery::default()
        })?;
        if records.is_empty() {
            return Ok(None);
        }
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        let _ = writeln!(
            out,
            "<url><loc>{}/{}/</loc></url>",
            s.base_url,
            xml_escape(&repo)
        );
        for r in &records {
            let _ = writeln!(
                out,
                "<url><loc>{}/{}/{}/</loc><lastmod>{}</lastmod></url>",
                s.base_url,
                xml_escape(&r.repo),
                xml_escape(&r.slug),
                xml_escape(&r.content_changed_at[..r.content_changed_at.len().min(10)])
            );
        }
        out.push_str("</urlset>\n");
        Ok(Some(out))
    }
}

pub(crate) async fn openapi(State(s): State<Arc<AppState>>) -> Json<Value> {
    Json(openapi_json(&s))
}

pub(crate) fn openapi_json(s: &AppState) -> Value {
    let hit = json!({"type": "object", "properties": {
        "id": {"type": "string"}, "repo": {"type": "string"}, "slug": {"type": "string"},
        "messagePattern": {"type": "string"}, "filePath": {"type": "string"},
        "lineNumber": {"type": "integer"}, "matchType": {"type": "string", "enum": ["errorCode", "traced", "fulltext"]},
        "score": {"type": "number", "minimum": 0, "maximum": 1}}});
    let version =
        json!({"type": "string", "description": "Dataset version (RFC 3339), also the ETag"});
    let err = json!({"description": "Problem", "content": {"application/json": {"schema": {"type": "object", "properties": {"error": {"type": "string"}}}}}});
    json!({
        "openapi": "3.1.0",
        "info": {"title": "errdex", "version": env!("CARGO_PKG_VERSION"),
                 "description": "The error atlas: records, search, and tracing raw error text back to source."},
        "servers": [{"url": s.base_url}],
        "paths": {
            "/api/errors/{id}": {"get": {"summary": "One record", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "The record", "content": {"application/json": {"schema": {"type": "object", "properties": {"record": {"$ref": "https://errdex.dev/schema/record.schema.json"}, "datasetVersion": version}}}}}, "404": err}}},
            "/api/repos": {"get": {"summary": "Repositories", "responses": {"200": {"description": "Repositories with counts"}}}},
            "/api/repos/{owner}/{repo}/errors": {"get": {"summary": "A repository's errors",
                "parameters": [
                    {"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "severity", "in": "query", "schema": {"type": "string"}},
                    {"name": "type", "in": "query", "schema": {"type": "string"}},
                    {"name": "tag", "in": "query", "schema": {"type": "string"}},
                    {"name": "path", "in": "query", "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 500}},
                    {"name": "offset", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "One page of rows"}, "404": err}}},
            "/api/search": {"get": {"summary": "Tiered search",
                "parameters": [
                    {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}},
                    {"name": "repo", "in": "query", "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}],
                "responses": {"200": {"description": "Hits, best first", "content": {"application/json": {"schema": {"type": "object", "properties": {"results": {"type": "array", "items": hit}, "datasetVersion": version}}}}}, "400": err}}},
            "/api/explain": {"post": {"summary": "Trace raw error text",
                "requestBody": {"content": {"text/plain": {"schema": {"type": "string", "maxLength": crate::MAX_EXPLAIN_BYTES}},
                                            "application/json": {"schema": {"type": "object", "properties": {"text": {"type": "string"}}}}}},
                "responses": {"200": {"description": "One explanation per line: input, prefix, verdict, frames, unmatched"}, "400": err, "413": err}}},
            "/healthz": {"get": {"summary": "Liveness", "responses": {"200": {"description": "ok"}}}},
            "/metrics": {"get": {"summary": "Prometheus metrics", "responses": {"200": {"description": "text format 0.0.4"}}}}
        }
    })
}
