//! errdex for coding agents: an MCP server over stdio, built on the
//! official Rust SDK (rmcp). Four tools answer from a local database or an
//! exported dataset, offline: `search_error`, `explain_error`, `get_error`
//! and `list_repos`. Tool descriptions tell an agent when to call each.
#![deny(missing_docs)]

use errdex_model::Record;
use errdex_serve::AppState;
use errdex_store::{SqliteStore, Store};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, Content, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerInfo, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};
use std::path::Path;
use std::sync::Arc;

/// The MCP server's state: the same one the HTTP server uses.
#[derive(Clone)]
pub struct ErrdexMcp {
    state: Arc<AppState>,
}

/// Loads an exported dataset (`errdex export --format dataset`) into an
/// in-memory store.
pub fn load_dataset(dir: &Path) -> anyhow::Result<SqliteStore> {
    let errors = dir.join("errors");
    let entries = std::fs::read_dir(&errors).map_err(|e| {
        anyhow::anyhow!(
            "{}: {e}; point --dataset at a folder written by `errdex export --format dataset`",
            errors.display()
        )
    })?;
    let mut by_repo: std::collections::BTreeMap<String, Vec<Record>> = Default::default();
    for e in entries {
        let path = e?.path();
        let text = std::fs::read_to_string(&path)?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let r: Record = serde_json::from_value(v["record"].clone())
            .map_err(|e| anyhow::anyhow!("{}: not a record: {e}", path.display()))?;
        by_repo.entry(r.repo.clone()).or_default().push(r);
    }
    let store = SqliteStore::open_in_memory()?;
    for (repo, records) in by_repo {
        store.replace_repo(&errdex_model::RepoDataset {
            repo,
            records,
            ..Default::default()
        })?;
    }
    Ok(store)
}

fn schema(properties: Value, required: &[&str]) -> Arc<Map<String, Value>> {
    let v = json!({"type": "object", "properties": properties, "required": required});
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

/// The tools, with descriptions written for the agent that picks them.
fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "search_error",
            "Find the source of an error message. Call this first when a user pastes an error, a log line or a stack trace line, or asks where a message comes from. Accepts raw text with timestamps and wrapped causes; returns matching errors of the indexed repositories, best first, with file, line and a score in [0,1].",
            schema(
                json!({
                    "message": {"type": "string", "description": "The error text as seen, or words of it"},
                    "repo": {"type": "string", "description": "Only this repository (OWNER/NAME)"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50}
                }),
                &["message"],
            ),
        ),
        Tool::new(
            "explain_error",
            "Trace raw error text layer by layer: for a wrapped error like 'a: b: c', returns one frame per layer (outermost first) with the code site that prints it, and the text no indexed code explains (often an OS or remote-service message). Call this to understand a whole log line or multi-line log excerpt.",
            schema(json!({"text": {"type": "string", "description": "One or more log lines"}}), &["text"]),
        ),
        Tool::new(
            "get_error",
            "Read one error in full: what it means, when it happens, solutions, handling code, all sites and related errors, as markdown with the page URL. Call this after search_error or explain_error gave an id (or a repo and slug) and you need to explain or fix the error.",
            schema(
                json!({
                    "id": {"type": "string", "description": "The 16-hex record id"},
                    "repo": {"type": "string", "description": "OWNER/NAME, with slug"},
                    "slug": {"type": "string", "description": "The error's slug, with repo"}
                }),
                &[],
            ),
        ),
        Tool::new(
            "list_repos",
            "List the repositories this atlas covers, with their error counts and commits. Call this to know whether a project is indexed before searching it.",
            schema(json!({}), &[]),
        ),
    ]
}

fn text_result(v: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![Content::text(v)])
}

fn arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// A record as markdown for an agent, in the seed page's order.
pub fn markdown(r: &Record, url: &str) -> String {
    let mut out = format!(
        "# {}\n\n{} · {} · {}\n\nPage: {url}\n",
        r.error_message,
        r.repo,
        r.severity,
        r.error_type.as_str()
    );
    let mut section = |title: &str, body: &str| {
        if !body.trim().is_empty() {
            out.push_str(&format!("\n## {title}\n\n{body}\n"));
        }
    };
    section("What it means", r.documentation.as_deref().unwrap_or(""));
    let fence = |code: &str| format!("```{}\n{code}\n```", r.language.as_str());
    let source = format!(
        "{}:{}{}\n\n{}",
        r.file_path,
        r.line_number,
        r.github_url
            .as_deref()
            .map(|u| format!(" ({u})"))
            .unwrap_or_default(),
        fence(&r.source_code)
    );
    section("Source", &source);
    let numbered: Vec<String> = r
        .solutions
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {s}", i + 1))
        .collect();
    section("Solutions", &numbered.join("\n"));
    section(
        "Example fix",
        &r.example_fix.as_deref().map(fence).unwrap_or_default(),
    );
    let mut patterns = String::new();
    if let Some(h) = &r.handling_strategy {
        patterns.push_str(&format!("Strategy: {h}\n"));
    }
    for (t, c) in [
        ("Validation", &r.validation_code),
        ("Type guard", &r.type_guard),
        ("Handling", &r.try_catch_pattern),
    ] {
        if let Some(c) = c {
            patterns.push_str(&format!("\n{t}:\n{}\n", fence(c)));
        }
    }
    section("Defensive patterns", &patterns);
    let when = [&r.trigger_scenarios, &r.common_situations]
        .into_iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n\n");
    section("When it happens", &when);
    let sites: Vec<String> = r
        .sites
        .iter()
        .map(|s| {
            format!(
                "- {}:{} {}",
                s.file_path,
                s.line_number,
                s.function.as_deref().unwrap_or("")
            )
        })
        .collect();
    section("All sites", &sites.join("\n"));
    let related: Vec<String> = r
        .related_errors
        .iter()
        .map(|x| format!("- {} (id {})", x.error_message, x.id))
        .collect();
    section("Related errors", &related.join("\n"));
    out.push_str(&format!(
        "\nAnalysis: {} · record id {}\n",
        r.analyzer.as_deref().unwrap_or("none"),
        r.id
    ));
    out
}

impl ErrdexMcp {
    /// A server over a store; `base_url` roots page URLs.
    pub fn new(store: SqliteStore, base_url: &str) -> ErrdexMcp {
        ErrdexMcp {
            state: AppState::new(store, base_url),
        }
    }

    fn call(&self, name: &str, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let s = &self.state;
        let internal = |e: String| ErrorData::internal_error(e, None);
        match name {
            "search_error" => {
                let q = arg(args, "message").ok_or_else(|| {
                    ErrorData::invalid_params("search_error needs \"message\"", None)
                })?;
                let limit = args
                    .get("limit")
                    .and_then(Value::as_u64)
                    .unwrap_or(10)
                    .clamp(1, 50) as usize;
                let hits = s.search(q, arg(args, "repo"), limit).map_err(internal)?;
                if hits.is_empty() {
                    return Ok(text_result("No indexed error matches this text. The message may come from a dependency or service that is not indexed; list_repos shows what is."));
                }
                let list: Vec<Value> = hits
                    .iter()
                    .map(|h| json!({"id": h.id, "repo": h.repo, "slug": h.slug, "messagePattern": h.message_pattern,
                        "filePath": h.file_path, "lineNumber": h.line_number, "matchType": h.match_type, "score": h.score,
                        "url": format!("{}/{}/{}/", s.base_url(), h.repo, h.slug)}))
                    .collect();
                Ok(text_result(
                    serde_json::to_string_pretty(&list).unwrap_or_default(),
                ))
            }
            "explain_error" => {
                let text = arg(args, "text").ok_or_else(|| {
                    ErrorData::invalid_params("explain_error needs \"text\"", None)
                })?;
                let out = s.explain(text).map_err(internal)?;
                Ok(text_result(
                    serde_json::to_string_pretty(&out).unwrap_or_default(),
                ))
            }
            "get_error" => {
                let record = match (arg(args, "id"), arg(args, "repo"), arg(args, "slug")) {
                    (Some(id), _, _) => s.store().get(id).map_err(|e| internal(e.to_string()))?,
                    (None, repo, Some(slug)) => s
                        .store()
                        .find_slug(repo, slug)
                        .map_err(|e| internal(e.to_string()))?
                        .into_iter()
                        .next(),
                    _ => {
                        return Err(ErrorData::invalid_params(
                            "get_error needs \"id\", or \"repo\" and \"slug\"",
                            None,
                        ))
                    }
                };
                match record {
                    Some(r) => {
                        let url = format!("{}/{}/{}/", s.base_url(), r.repo, r.slug);
                        Ok(text_result(markdown(&r, &url)))
                    }
                    None => Ok(CallToolResult::error(vec![Content::text(
                        "No such error in this atlas; search_error finds ids.",
                    )])),
                }
            }
            "list_repos" => {
                let repos = s.store().repos().map_err(|e| internal(e.to_string()))?;
                let list: Vec<Value> = repos
                    .iter()
                    .map(|r| json!({"repo": r.repo, "errors": r.records, "commit": r.commit}))
                    .collect();
                Ok(text_result(
                    serde_json::to_string_pretty(&list).unwrap_or_default(),
                ))
            }
            other => Err(ErrorData::invalid_params(
                format!("no tool named {other:?}"),
                None,
            )),
        }
    }
}

impl ServerHandler for ErrdexMcp {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("errdex", env!("CARGO_PKG_VERSION")))
            .with_instructions("errdex is an error atlas: every error message of the indexed repositories with its source site, meaning and fixes. Use search_error or explain_error on error text, then get_error for the full explanation.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let this = self.clone();
        let name = request.name.to_string();
        // Store and trace work is blocking.
        tokio::task::spawn_blocking(move || this.call(&name, &args))
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?
    }
}

/// Serves MCP on stdin/stdout until the client closes the connection.
pub fn serve_stdio(server: ErrdexMcp) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let service = server.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        Ok(())
    })
}
