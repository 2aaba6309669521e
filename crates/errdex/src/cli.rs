//! Command-line flags as clap sees them. Each command turns its flags into
//! validated settings (sizes parsed, names checked) before any work starts.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// errdex: an error atlas for source code.
///
/// Finds every error message a repository's code can produce (returned,
/// raised, thrown, logged at error level, panicked), in Go, Rust, Python,
/// JavaScript/TypeScript, Java, Kotlin, Scala, C#, Ruby, PHP, C and C++,
/// pins each to the commit, and keeps them as records in an embedded
/// SQLite database.
///
/// Typical use:
///
///   errdex up ~/src/kops             # index, analyse, serve at http://127.0.0.1:8080/
///   errdex index ~/src/kops          # build the atlas (errdex.db here)
///   errdex list --severity critical  # what can kill the process?
///   errdex show stop-requested       # one error: meaning, sites, fixes
///   errdex explain 'E1129 ... serving readiness probe: listen tcp :3989: bind: ...'
///   errdex analyze --config errdex.toml   # optional LLM prose
///   errdex export --format site --out public/
#[derive(Debug, Parser)]
#[command(
    name = "errdex",
    version,
    about,
    long_about,
    max_term_width = 100,
    verbatim_doc_comment
)]
pub struct Cli {
    /// The atlas: an SQLite database file, or a PostgreSQL URL
    /// (postgres://USER:PASSWORD@HOST/DB, ?sslmode=require) shared by
    /// several servers and workers.
    #[arg(
        long,
        global = true,
        env = "ERRDEX_DB",
        default_value = "errdex.db",
        value_name = "FILE_OR_URL"
    )]
    pub db: PathBuf,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Index a repository: find its error sites and store them as records.
    ///
    /// Reads the HEAD commit and the `origin` remote of a git work tree (a
    /// plain folder works too, with no links), walks the files in parallel
    /// respecting .gitignore, and replaces the repository's records in the
    /// database in one transaction. Skips vendor/, third_party/,
    /// node_modules/, testdata/ and test files (*_test.go, tests/,
    /// test_*.py, *.test.js, *Test.java, *_spec.rb…) unless asked.
    ///
    /// An errdex.toml at the root (or --config) can narrow the paths and
    /// declare the project's own message functions:
    ///
    ///   [paths]
    ///   include = ["src/**"]
    ///   exclude = ["src/generated/**"]
    ///
    ///   [[function]]
    ///   name = "die"          # calls of die(...) are sites
    ///   lang = "c"            # only in C (default: every language)
    ///   message = 0           # index of the message argument
    ///   type = "exit"         # exception | panic | log | exit | http
    ///   severity = "critical" # critical | error | warning | info | debug
    ///
    /// Printf-style wrappers (`void fatal(const char *fmt, ...)`, `def
    /// fail(msg, *args)`) are found without configuration.
    ///
    /// Repositories and their history:
    ///
    ///   errdex index https://github.com/o/r      # cloned bare into --cache-dir
    ///   errdex index /srv/git/r.git              # bare: HEAD, from git objects
    ///   errdex index . --ref v1.2.0              # any ref, no checkout
    ///   errdex index . --tags 'v1.*'             # every release, merged:
    ///                                            # firstSeen, lastSeen, removedIn
    ///
    /// What each file yielded is kept by its git blob id in --cache-dir:
    /// a re-index parses only what changed.
    #[command(verbatim_doc_comment)]
    Index(IndexArgs),
    /// List records (or dynamic sites) in the database.
    List(ListArgs),
    /// Show one record, by id or slug.
    Show(ShowArgs),
    /// Export records.
    Export(ExportArgs),
    /// Trace raw error text (a log line, a pasted block, or a whole log on
    /// stdin) back to the code that produced it, layer by layer.
    ///
    /// Log prefixes (klog/glog headers, timestamps, syslog and journald tags,
    /// level markers) are stripped; JSON and logfmt logs have their message
    /// and error traced separately. Wrapped errors (`outer: %w`) unwrap into
    /// frames, outermost first; text no template explains is shown as
    /// unmatched. Exit code 0 when something was traced, 1 when nothing was.
    ///
    ///   errdex explain 'serving readiness probe: listen tcp :3989: bind: address already in use'
    ///   kubectl logs pod/x | errdex explain - --summary
    #[command(verbatim_doc_comment)]
    Explain(ExplainArgs),
    /// Analyse records: what each error means, when it happens, what to do.
    ///
    /// `errdex index` already runs the static analyser, which writes every
    /// field from the facts read from the code (offline, deterministic).
    /// `errdex analyze` re-runs it (`--static`, or when no LLM is
    /// configured), or asks an LLM to write richer prose from the same
    /// facts. LLMs are configured in errdex.toml (or --config FILE):
    ///
    ///   [llm]
    ///   primary = "local"            # writes the prose
    ///   fallback = "agent"           # when the primary fails twice
    ///   concurrency = 2              # calls in flight
    ///   batch = 4                    # records per call
    ///   timeout_secs = 120           # hung calls and commands are killed
    ///   token_budget = 200000        # stop sending after this many tokens
    ///
    ///   [providers.local]            # any OpenAI-compatible endpoint
    ///   kind = "openai"
    ///   base_url = "http://localhost:8080/v1"
    ///   model = "qwen2.5-coder"
    ///   api_key_env = "OPENAI_API_KEY"
    ///
    ///   [providers.agent]            # reads the prompt on stdin, prints JSON
    ///   kind = "command"
    ///   command = ["claude", "-p"]
    ///   model = "claude-cli"
    ///
    /// Every answer is validated (fields, lengths, code that parses, no path
    /// or URL outside the facts); a bad answer is retried once, then the
    /// fallback is asked, then the static analysis stays. Answers are cached
    /// in the database by facts, provider, model and prompt version: a
    /// re-run, or a re-index of unchanged code followed by `analyze`, sends
    /// nothing. Records are written as they finish, so a killed run keeps
    /// its work.
    #[command(verbatim_doc_comment)]
    Analyze(AnalyzeArgs),
    /// Serve the atlas over HTTP: pages like the seed's, the JSON API,
    /// search, explain, sitemaps and metrics.
    ///
    ///   errdex serve --addr 0.0.0.0:8080 --base-url https://errors.example
    ///
    /// Pages: /, /OWNER/NAME/, /OWNER/NAME/SLUG/, /search?q=, /info/FAMILY/,
    /// /api-docs/. JSON: /api/errors/ID, /api/repos, /api/search?q=,
    /// POST /api/explain, /openapi.json; /healthz, /metrics.
    #[command(verbatim_doc_comment)]
    Serve(ServeArgs),
    /// Index PATH, analyse it, and serve it: the quickest way to browse a
    /// repository's errors.
    ///
    ///   errdex up ~/src/kops        # then open the printed URL
    #[command(verbatim_doc_comment)]
    Up(UpArgs),
    /// Serve the atlas to coding agents over MCP (stdio): tools
    /// search_error, explain_error, get_error and list_repos, offline.
    ///
    /// Configure it in an agent as the command `errdex mcp --db /path/atlas.db`
    /// (or `--dataset DIR`, a folder from `errdex export --format dataset`).
    #[command(verbatim_doc_comment)]
    Mcp(McpArgs),
    /// Index a list of repositories through a queue in the database.
    ///
    /// FILE lists one repository per line, a URL (cloned into --cache-dir)
    /// or a path, optionally followed by a tag glob to index every release:
    ///
    ///   https://github.com/etcd-io/etcd v3.5.*
    ///   /srv/git/tool.git
    ///   # comments and blank lines are skipped
    ///
    /// or, in a FILE ending in .toml, `[[repo]]` tables with `source` and
    /// `tags`. Each repository is indexed by its own `errdex index` under
    /// --timeout and --memory: one that is stuck or too big is recorded as
    /// failed with its reason and the crawl goes on. An unreachable remote
    /// is tried again after 1, 2, 4… seconds (--retries). A killed crawl
    /// resumes where it stopped when run again; --again indexes the done
    /// and failed ones anew. Exit code 1 when some repository failed.
    #[command(verbatim_doc_comment)]
    Crawl(CrawlArgs),
    /// Take repositories from the queue of a shared atlas and index them.
    ///
    /// Run any number of workers, on any machines, against one PostgreSQL
    /// atlas:
    ///
    ///   errdex crawl repos.txt --db postgres://u:pw@db/atlas   # queue them
    ///   errdex worker --db postgres://u:pw@db/atlas           # on each machine
    ///
    /// Each job is taken by one worker (FOR UPDATE SKIP LOCKED), indexed by
    /// a child `errdex index` under --timeout and --memory and written in
    /// one transaction. A worker holds its job by a lease it renews every
    /// few seconds; a killed worker's job is taken again by another once
    /// the lease (30 s) has passed. Waits for new jobs unless
    /// --exit-when-idle. Works on an SQLite atlas too (one machine).
    #[command(verbatim_doc_comment)]
    Worker(WorkerArgs),
    /// Show the queue of a crawl: jobs by state, what is running, what
    /// failed and why, and the atlas's repositories.
    Status,
    /// Check a repository's messages for what users cannot trace or handle.
    ///
    /// Reads the work tree at PATH as `index` does (no database) and reports:
    ///
    ///   ambiguous-message    one text printed at several sites
    ///   untraceable-message  an error with too little literal text to find
    ///   lost-cause           an error wrapped so its cause is lost (%v, no `from`)
    ///   swallowed-error      an empty handler: `catch (e) {}`, `except: pass`
    ///   style                Go's ST1005 and Rust's conventions for error strings
    ///   leaks-secret         a password, token or key printed in a message
    ///   duplicate-sentinel   one sentinel text declared in two Go packages
    ///
    /// Each rule's page explains it with examples (`errdex serve`, /rules/).
    /// In CI:
    ///
    ///   errdex lint --baseline .errdex-lint.json   # first run records today's findings
    ///   errdex lint --baseline .errdex-lint.json   # later runs fail on new ones only
    ///   errdex lint --diff origin/main --format sarif > errdex.sarif   # a pull request
    ///
    /// `[lint] disable = ["style"]` in errdex.toml turns rules off. Exit
    /// code 0 when clean, 1 when findings are left, 2 on error.
    #[command(verbatim_doc_comment)]
    Lint(LintArgs),
}

/// How `lint` writes its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// One line per finding (`file:line: level [rule] message`).
    Text,
    /// `{"findings": […], "summary": {…}}`.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The work tree to lint.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,
    /// Report only findings not recorded in FILE; when FILE does not exist
    /// yet, record today's findings in it and exit 0.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in the --baseline FILE, replacing it.
    #[arg(long, requires = "baseline")]
    pub update_baseline: bool,
    /// Report only findings on lines changed since REF (a commit, branch or
    /// tag; uncommitted changes and new files count): for pull requests.
    #[arg(long, value_name = "REF")]
    pub diff: Option<String>,
    /// Run only this rule (repeat for several).
    #[arg(long = "rule", value_name = "ID")]
    pub rules: Vec<String>,
    /// A configuration file instead of PATH/errdex.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Lint test files and testdata/ too.
    #[arg(long)]
    pub include_tests: bool,
    /// Lint vendor/, third_party/ and node_modules/ too.
    #[arg(long)]
    pub include_vendor: bool,
    /// Where the atlas serves rule pages (`errdex serve`), for SARIF's
    /// helpUri links.
    #[arg(
        long,
        env = "ERRDEX_ATLAS_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub atlas_url: String,
    /// Write the findings to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Where the facts cache lives (shared with `index`): a later run
    /// parses only the files that changed.
    #[arg(long, value_name = "DIR", env = "ERRDEX_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Parse every file, without the facts cache.
    #[arg(long)]
    pub no_cache: bool,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Answer from an exported dataset folder instead of the database.
    #[arg(long, value_name = "DIR")]
    pub dataset: Option<PathBuf>,
    /// Root URL of the pages the answers link to.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    pub base_url: String,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    pub addr: String,
    /// Public root URL for canonical links and sitemaps (default:
    /// http://ADDR).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Seconds a client gets to send a request's headers, counted from
    /// the connection's start or the previous answer: slow clients and idle
    /// keep-alive connections are closed after it.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Seconds a client gets to send a whole request body.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout: u64,
    /// Connections open at once; past it new ones are closed at once.
    #[arg(long, default_value_t = 1024, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
}

impl ServeArgs {
    /// The server's limits from the flags.
    pub fn limits(&self) -> errdex_serve::Limits {
        errdex_serve::Limits {
            header_read: std::time::Duration::from_secs(self.header_timeout),
            body_read: std::time::Duration::from_secs(self.body_timeout),
            max_connections: self.max_connections as usize,
        }
    }
}

#[derive(Debug, Args)]
pub struct UpArgs {
    /// Folder to index (a git work tree or a plain folder).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Repository name OWNER/NAME, instead of the one read from `origin`.
    #[arg(long, value_name = "OWNER/NAME")]
    pub repo: Option<String>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Only this repository (OWNER/NAME).
    #[arg(long)]
    pub repo: Option<String>,
    /// Provider that writes the prose (a name under [providers]), instead
    /// of [llm] primary.
    #[arg(long, value_name = "NAME")]
    pub provider: Option<String>,
    /// Configuration file with the [llm] section (default: errdex.toml in
    /// the current folder, if present).
    #[arg(long, env = "ERRDEX_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Then review every record with the verifier ([llm] verifier, else the
    /// primary); its patches are applied only when they validate.
    #[arg(long)]
    pub verify: bool,
    /// Analyse at most N records.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only records no LLM has analysed yet (a resumed or extended run).
    #[arg(long)]
    pub only_missing: bool,
    /// Only re-run the static analyser, even if an LLM is configured.
    #[arg(long = "static")]
    pub static_only: bool,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The text (several lines allowed), or `-` to stream standard input
    /// line by line.
    pub text: String,
    /// Only trace against this repository's errors.
    #[arg(long)]
    pub repo: Option<String>,
    /// One JSON object per input line.
    #[arg(long)]
    pub json: bool,
    /// Group the lines by error and count them, instead of explaining each.
    #[arg(long)]
    pub summary: bool,
    /// Worker threads for streams (default 1; 0: one per core). Output
    /// keeps the input order.
    #[arg(long, short = 'j', default_value_t = 1)]
    pub threads: usize,
    /// Build the templates from the database and leave DB.trace-cache
    /// alone. By default the compiled templates are kept in that file,
    /// beside the database, and read back while the atlas is unchanged
    /// (a large atlas then starts in milliseconds); any change to the
    /// atlas, or another errdex build, rebuilds it. Deleting it is safe.
    #[arg(long)]
    pub no_cache: bool,
    /// Only the messages this version prints, for a repository indexed
    /// with --tags or --refs (`--at v1.9.3`). Without it every indexed
    /// version is matched, and each candidate says which versions print
    /// it.
    #[arg(long, value_name = "VERSION")]
    pub at: Option<String>,
}

#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// The list of repositories (lines, or .toml).
    pub file: PathBuf,
    /// Queue the listed repositories already done or failed again.
    #[arg(long)]
    pub again: bool,
    #[command(flatten)]
    pub limits: JobLimits,
}

/// How each repository of a queue is indexed.
#[derive(Debug, Args)]
pub struct JobLimits {
    /// Stop indexing one repository after this many seconds and record it
    /// as failed.
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub timeout: u64,
    /// Address-space limit of each repository's run (K, M, G; `none`).
    #[arg(long, default_value = "8G", value_name = "SIZE")]
    pub memory: String,
    /// Tries after the first for a remote that cannot be reached.
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
    /// Where URLs are cloned and file results are kept (as for `index`).
    #[arg(long, env = "ERRDEX_CACHE_DIR", value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// Exit when the queue has no job to take, instead of waiting for one.
    #[arg(long)]
    pub exit_when_idle: bool,
    /// Seconds a job stays this worker's without a renewal (it renews
    /// every third of that): if it dies, another takes the job after this.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub lease: u64,
    #[command(flatten)]
    pub limits: JobLimits,
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// What to index: a git work tree (its files on disk, uncommitted
    /// changes included), a plain folder, a bare repository (read at HEAD
    /// from git objects), or a URL (https://, ssh://, file://,
    /// git@host:owner/name) cloned into --cache-dir.
    #[arg(default_value = ".", value_name = "PATH_OR_URL")]
    pub path: PathBuf,
    /// Read this ref (branch, tag, commit) from git objects, with no
    /// checkout. Given more than once, each is indexed as a version, in
    /// the order given (oldest first).
    #[arg(long = "ref", value_name = "REF")]
    pub refs: Vec<String>,
    /// Index every tag matching GLOB (`v*`, `v1.*`) as a version, oldest
    /// first: records carry firstSeen, lastSeen, the version they were
    /// removed in and where they were in each version.
    #[arg(long, value_name = "GLOB")]
    pub tags: Option<String>,
    /// Like --tags, over every ref (`refs/heads/release-*`, `release-*`).
    #[arg(long = "refs", value_name = "GLOB", conflicts_with = "tags")]
    pub ref_glob: Option<String>,
    /// Where URLs are cloned and what each file yielded is kept, so a
    /// re-index parses only the files that changed [default: the user's
    /// cache folder, ~/.cache/errdex].
    #[arg(long, env = "ERRDEX_CACHE_DIR", value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Parse every file and analyse every record: read and write no
    /// cache of what files yielded, and take no stored record over as
    /// unchanged.
    #[arg(long)]
    pub no_cache: bool,
    /// Repository name OWNER/NAME, instead of the one read from `origin`.
    #[arg(long, value_name = "OWNER/NAME")]
    pub repo: Option<String>,
    /// Commit to pin records to (40 hex), instead of HEAD.
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// Also index vendor/, third_party/ and node_modules/.
    #[arg(long)]
    pub include_vendor: bool,
    /// Also index test files (*_test.go) and testdata/.
    #[arg(long)]
    pub include_tests: bool,
    /// Skip files larger than this many bytes (suffixes K, M accepted).
    #[arg(long, value_name = "SIZE", default_value = "4M")]
    pub max_file_size: String,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    pub threads: usize,
    /// Print every warning, not only the first few.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Which log statements are indexed: `all` (the default) indexes info
    /// and debug statements too, as a trace-only tier, so that `explain`
    /// traces every line of a log while `list`, search and the pages show
    /// errors, warnings and fatals (`list --all-levels` shows the rest);
    /// `errors` indexes only those, for a smaller atlas.
    #[arg(long, value_enum, default_value = "all")]
    pub log_levels: LogLevels,
    /// Project configuration (include/exclude paths, the project's own
    /// message functions) instead of PATH/errdex.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print when each phase (walk, parse, resolve, group, store) ends.
    #[arg(long)]
    pub timings: bool,
    /// After indexing, list what was found.
    #[arg(long)]
    pub list: bool,
    /// Print a one-line JSON summary on standard output (repo, commit,
    /// records, versions, seconds): for scripts and `crawl`.
    #[arg(long)]
    pub json_summary: bool,
    /// The crawl job this run indexes (SEQ:ATTEMPT, passed by `crawl` and
    /// `worker`): the write commits only while the job is still that
    /// taking's, and marks it done in the same transaction.
    #[arg(long, hide = true, value_name = "SEQ:ATTEMPT")]
    pub crawl_ticket: Option<errdex_store::JobTicket>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only this repository (OWNER/NAME).
    #[arg(long)]
    pub repo: Option<String>,
    /// Only this severity.
    #[arg(long, value_enum)]
    pub severity: Option<SeverityArg>,
    /// Only this error type.
    #[arg(long = "type", value_enum)]
    pub error_type: Option<TypeArg>,
    /// Only records whose primary site is under this path.
    #[arg(long, value_name = "PREFIX")]
    pub path: Option<String>,
    /// Only records with this tag (`wrapped-error`, `sentinel`, …).
    #[arg(long)]
    pub tag: Option<String>,
    /// Only records of this error family (`timeout`, `not-found`, …).
    #[arg(long)]
    pub family: Option<String>,
    /// At most this many rows (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Also the trace-only tier: info and debug log statements.
    #[arg(long)]
    pub all_levels: bool,
    /// List dynamic sites (messages with no literal text) instead.
    #[arg(long)]
    pub dynamic: bool,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A record id (16 hex) or slug.
    pub id_or_slug: String,
    /// Repository, when a slug exists in several.
    #[arg(long)]
    pub repo: Option<String>,
    /// Print the record as JSON (`{"record", "datasetVersion"}`).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: ExportFormat,
    /// Output file for jsonl (default: standard output), folder for
    /// dataset and site. Written beside it and renamed into place, so a
    /// reader never sees half an export.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// For --format site: the public root URL of canonical links and
    /// sitemaps (default: links relative to the site root).
    #[arg(long, value_name = "URL", default_value = "")]
    pub base_url: String,
    /// Only this repository.
    #[arg(long)]
    pub repo: Option<String>,
    /// For --format jsonl: also the trace-only tier (info and debug log
    /// statements).
    #[arg(long)]
    pub all_levels: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogLevels {
    /// Error, warning and fatal logs only.
    Errors,
    /// Every level; info and debug as the trace-only tier.
    All,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// One record per line, as in the JSON API.
    Jsonl,
    /// A folder of JSON files for hosting: manifest.json (sizes and
    /// sha256 of every file), index.json, repos.json, repos/OWNER/NAME.json,
    /// errors/ID.json; records validated against the JSON Schema.
    Dataset,
    /// The whole HTML site as static files with working links.
    Site,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SeverityArg {
    Critical,
    Error,
    Warning,
    Info,
    Debug,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TypeArg {
    Exception,
    Panic,
    Log,
    Exit,
    Http,
}

impl SeverityArg {
    pub fn as_str(self) -> &'static str {
        match self {
            SeverityArg::Critical => "critical",
            SeverityArg::Error => "error",
            SeverityArg::Warning => "warning",
            SeverityArg::Info => "info",
            SeverityArg::Debug => "debug",
        }
    }
}

impl TypeArg {
    pub fn as_str(self) -> &'static str {
        match self {
            TypeArg::Exception => "exception",
            TypeArg::Panic => "panic",
            TypeArg::Log => "log",
            TypeArg::Exit => "exit",
            TypeArg::Http => "http",
        }
    }
}
