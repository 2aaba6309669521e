//! errdex for coding agents: an MCP server over stdio, built on the
//! official Rust SDK (rmcp). Four tools answer from a local database or an
//! exported dataset, offline: `search_error`, `explain_error`, `get_error`
//! and `list_repos`. Tool descriptions tell an agent when to call each.
#![deny(missing_docs)]

use errdex_atlas::Atlas;
use errdex_store::Store;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, Content, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerInfo, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

pub mod gate;
pub mod lines;
mod threads;

/// What can stop the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The async runtime could not start.
    #[error("starting the MCP server's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The client and server did not agree on a session (boxed: the
    /// SDK's error is large and rare).
    #[error("MCP handshake: {0}")]
    Handshake(#[from] Box<rmcp::service::ServerInitializeError>),
    /// A thread the session runs on could not start.
    #[error("starting the MCP server's threads: {0}; the host may be at its thread limit")]
    Threads(#[source] std::io::Error),
    /// The session ended abnormally.
    #[error("MCP session: {0}")]
    Session(#[from] tokio::task::JoinError),
}

/// The MCP server's state: the query service the HTTP server uses too,
/// and the public root its page links point at.
#[derive(Clone)]
pub struct ErrdexMcp {
    atlas: Arc<Atlas>,
    base_url: String,
    /// Where tool calls run; without them a call runs on the caller's
    /// thread.
    workers: Option<Arc<threads::Workers>>,
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

/// A record as markdown for an agent, in the seed page's order (see
/// [`errdex_atlas::render`]).
pub use errdex_atlas::render::markdown;

impl ErrdexMcp {
    /// A server over a store; `base_url` roots page URLs.
    pub fn new(store: impl Store + 'static, base_url: &str) -> ErrdexMcp {
        ErrdexMcp {
            atlas: Arc::new(Atlas::new(store)),
            base_url: base_url.trim_end_matches('/').to_string(),
            workers: None,
        }
    }

    /// The page of a record.
    fn page_url(&self, repo: &str, slug: &str) -> String {
        format!("{}/{repo}/{slug}/", self.base_url)
    }

    fn call(&self, name: &str, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let s = &self.atlas;
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
                        "url": self.page_url(&h.repo, &h.slug)}))
                    .collect();
                Ok(text_result(
                    serde_json::to_string_pretty(&list).unwrap_or_default(),
                ))
            }
            "explain_error" => {
                let text = arg(args, "text").ok_or_else(|| {
                    ErrorData::invalid_params("explain_error needs \"text\"", None)
                })?;
                if text.len() > gate::MAX_TEXT {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "text is larger than {} KiB; send the lines of interest, or run `errdex explain -` on the whole log",
                            gate::MAX_TEXT / 1024
                        ),
                        None,
                    ));
                }
                let out = s.explain(text).map_err(internal)?;
                Ok(text_result(
                    serde_json::to_string_pretty(&out).unwrap_or_default(),
                ))
            }
            "get_error" => {
                let record = match (arg(args, "id"), arg(args, "repo"), arg(args, "slug")) {
                    (Some(id), _, _) => s.get(id).map_err(internal)?,
                    (None, repo, Some(slug)) => s
                        .find_slug(repo, slug)
                        .map_err(internal)?
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
                        let url = self.page_url(&r.repo, &r.slug);
                        Ok(text_result(markdown(&r, &url)))
                    }
                    None => Ok(CallToolResult::error(vec![Content::text(
                        "No such error in this atlas; search_error finds ids.",
                    )])),
                }
            }
            "list_repos" => {
                let repos = s.repos().map_err(internal)?;
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
        let name = request.name.to_string();
        let Some(workers) = &self.workers else {
            return self.call(&name, &args);
        };
        // Store and trace work is blocking.
        let this = self.clone();
        workers
            .run(move || this.call(&name, &args))
            .await
            .map_err(|e| ErrorData::internal_error(format!("{e:?}"), None))?
    }
}

/// An internal failure, logged in full; the client is told only that the
/// server failed, as store text is no business of the agent's.
fn internal(e: errdex_atlas::Error) -> ErrorData {
    tracing::error!(error = %e, "MCP tool call failed");
    ErrorData::internal_error("internal error; the server's log has the details", None)
}

/// Serves MCP on stdin/stdout until the client closes the connection.
/// Every line of the client's passes [`gate::judge`] first; the SDK
/// serves the rest over an in-memory pipe.
pub fn serve_stdio(mut server: ErrdexMcp) -> Result<(), Error> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    server.workers = Some(Arc::new(
        threads::Workers::start(TOOL_WORKERS).map_err(Error::Threads)?,
    ));
    let (client_in, stdin_end) = tokio::io::duplex(1 << 16);
    let (stdout_end, client_out) = tokio::io::duplex(1 << 16);
    let handle = rt.handle().clone();
    threads::start("mcp-stdin", move || {
        threads::pump_in(&handle, std::io::stdin().lock(), stdin_end)
    })
    .map_err(Error::Threads)?;
    let handle = rt.handle().clone();
    let writer = threads::start("mcp-stdout", move || {
        threads::pump_out(&handle, client_out, std::io::stdout().lock())
    })
    .map_err(Error::Threads)?;
    let session = rt.block_on(async move {
        let (gate_end, sdk_end) = tokio::io::duplex(1 << 16);
        let (from_sdk, to_sdk) = tokio::io::split(gate_end);
        let stdout = Arc::new(tokio::sync::Mutex::new(stdout_end));
        let answers = tokio::spawn(relay_answers(from_sdk, stdout.clone()));
        tokio::spawn(relay_requests(client_in, to_sdk, stdout));
        let (from_gate, to_gate) = tokio::io::split(sdk_end);
        let transport = lines::line_transport::<rmcp::RoleServer, _, _>(from_gate, to_gate);
        let service = match server.serve(transport).await {
            Ok(service) => service,
            // The client left before a session opened: nothing failed.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(Box::new(e).into()),
        };
        service.waiting().await?;
        // The SDK's last answers are on their way to the client; the
        // bound keeps a stuck pipe from holding the exit.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), answers).await;
        Ok(())
    });
    // Dropping the runtime drops the relays and with them the stdout
    // pipe's writer: the writer thread then has every answer written.
    drop(rt);
    let _ = writer.join();
    session
}

/// Tool calls that may run at once: an agent may ask several in parallel.
const TOOL_WORKERS: usize = 2;

type Shared<W> = Arc<tokio::sync::Mutex<W>>;

/// Writes one line to the client, newline included, in one write: a
/// client that reads a line in two pieces may lose the first (see
/// [`lines`]).
async fn send<W: AsyncWrite + Unpin>(out: &Shared<W>, line: &str) -> std::io::Result<()> {
    let mut whole = Vec::with_capacity(line.len() + 1);
    whole.extend_from_slice(line.as_bytes());
    whole.push(b'\n');
    let mut out = out.lock().await;
    out.write_all(&whole).await?;
    out.flush().await
}

/// The client's lines, judged, to the SDK or answered directly; the
/// SDK's input closes when the client's does.
async fn relay_requests<R, S, W>(input: R, mut sdk: S, out: Shared<W>) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    S: AsyncWrite + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut phase = gate::Phase::default();
    while let Some(line) = read_line(&mut input, gate::MAX_MESSAGE).await? {
        match gate::judge(&line, &mut phase) {
            gate::Verdict::Pass(lines) => {
                let whole: String = lines.iter().map(|l| format!("{l}\n")).collect();
                sdk.write_all(whole.as_bytes()).await?;
                sdk.flush().await?;
            }
            gate::Verdict::Answer(v) => send(&out, &v.to_string()).await?,
            gate::Verdict::Drop => {}
        }
    }
    sdk.shutdown().await
}

/// The SDK's answers to the client, each bounded.
async fn relay_answers<R, W>(sdk: R, out: Shared<W>) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(sdk).lines();
    while let Some(line) = lines.next_line().await? {
        send(&out, &gate::bounded_answer(line)).await?;
    }
    Ok(())
}

/// The next line (without its newline, invalid UTF-8 replaced), `None` at
/// the end. A line longer than `max` is read to its end but kept only as
/// `max + 1` bytes, so that [`gate::judge`] refuses it without the whole
/// of it ever being held.
async fn read_line<R: AsyncBufRead + Unpin>(
    r: &mut R,
    max: usize,
) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    loop {
        let buf = r.fill_buf().await?;
        if buf.is_empty() {
            return Ok((!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned()));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let room = (max + 1).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let ended = done > chunk.len();
        r.consume(done);
        if ended {
            return Ok(Some(String::from_utf8_lossy(&line).into_owned()));
        }
    }
}
