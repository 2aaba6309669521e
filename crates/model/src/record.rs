//! The record (one distinct error of a repository) and the sites behind it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The record schema this crate writes; the seed record is schema 2.
pub const SCHEMA_VERSION: u32 = 2;

/// How the error reaches the outside world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorType {
    /// A returned, raised or thrown error value.
    Exception,
    /// A panic (or a log call that panics).
    Panic,
    /// A log statement at error, warning (or, on request, lower) level.
    Log,
    /// A message printed on the way to exiting the process.
    Exit,
    /// An HTTP answer carrying the message.
    Http,
}

impl ErrorType {
    /// The lowercase name used in JSON and filters.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Exception => "exception",
            ErrorType::Panic => "panic",
            ErrorType::Log => "log",
            ErrorType::Exit => "exit",
            ErrorType::Http => "http",
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How bad the error is for whoever meets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The process stops (panic, fatal log).
    Critical,
    /// An operation failed.
    Error,
    /// Something is off but work goes on.
    Warning,
    /// Expected, informational (for example a clean-shutdown sentinel).
    Info,
    /// Debug-level log output (only indexed with `--log-levels all`).
    Debug,
}

impl Severity {
    /// The lowercase name used in JSON and filters.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Debug => "debug",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Generates [`Lang`] and every list that names its variants from one
/// table, so a language is added in one line here (and its module in
/// `errdex-lang`).
macro_rules! languages {
    ($(
        $(#[$doc:meta])*
        $variant:ident => $name:literal, $display:literal,
            aliases [$($alias:literal),*], extensions [$($ext:literal),*];
    )*) => {
        /// A source language errdex can extract from.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Lang {
            $($(#[$doc])* #[serde(rename = $name)] $variant,)*
        }

        impl Lang {
            /// Every language, in a stable order.
            pub const ALL: &'static [Lang] = &[$(Lang::$variant),*];

            /// The lowercase name used in JSON.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Lang::$variant => $name,)*
                }
            }

            /// The name people write (`C#`, `C++`).
            pub const fn display_name(self) -> &'static str {
                match self {
                    $(Lang::$variant => $display,)*
                }
            }

            /// Other names people write for it in configuration (`js`,
            /// `c++`), lowercase.
            pub const fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(Lang::$variant => &[$($alias),*],)*
                }
            }

            /// The file name endings of its sources (`.go`).
            pub const fn extensions(self) -> &'static [&'static str] {
                match self {
                    $(Lang::$variant => &[$($ext),*],)*
                }
            }
        }
    };
}

languages! {
    /// Go.
    Go => "go", "Go", aliases [], extensions [".go"];
    /// Rust.
    Rust => "rust", "Rust", aliases ["rs"], extensions [".rs"];
    /// Python.
    Python => "python", "Python", aliases ["py"], extensions [".py", ".pyi"];
    /// JavaScript.
    JavaScript => "javascript", "JavaScript", aliases ["js", "node"],
        extensions [".js", ".jsx", ".mjs", ".cjs"];
    /// TypeScript.
    TypeScript => "typescript", "TypeScript", aliases ["ts"],
        extensions [".ts", ".mts", ".cts", ".tsx"];
    /// Java.
    Java => "java", "Java", aliases [], extensions [".java"];
    /// Kotlin.
    Kotlin => "kotlin", "Kotlin", aliases ["kt"], extensions [".kt", ".kts"];
    /// Scala.
    Scala => "scala", "Scala", aliases [], extensions [".scala", ".sc"];
    /// C#.
    CSharp => "csharp", "C#", aliases ["c#", "cs"], extensions [".cs"];
    /// Ruby.
    Ruby => "ruby", "Ruby", aliases ["rb"], extensions [".rb", ".rake"];
    /// PHP.
    Php => "php", "PHP", aliases [], extensions [".php"];
    /// C.
    C => "c", "C", aliases [], extensions [".c", ".h"];
    /// C++.
    Cpp => "cpp", "C++", aliases ["c++", "cxx"],
        extensions [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx"];
}

impl Lang {
    /// The language named by [`Lang::as_str`].
    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| l.as_str() == name)
    }

    /// The language by any name people write for it: its own name or an
    /// alias, in any case, surrounding space ignored (`JS`, ` c++ `).
    pub fn named(name: &str) -> Option<Lang> {
        let n = name.trim().to_ascii_lowercase();
        Lang::from_name(&n).or_else(|| {
            Lang::ALL
                .iter()
                .copied()
                .find(|l| l.aliases().contains(&n.as_str()))
        })
    }
}

/// One place in the source that produces an error message, as the language
/// extractor found it, before grouping and before snippets and links are
/// attached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawSite {
    /// Path relative to the repository root, `/`-separated.
    pub file_path: String,
    /// 1-based line of the message argument's call.
    pub line_number: u32,
    /// 1-based column of the call.
    pub column: u32,
    /// Enclosing function (`Type.method` for methods), if any.
    pub function: Option<String>,
    /// The callee as written, resolved through import aliases
    /// (`fmt.Errorf`, `klog.ErrorS`, `panic`, `Error()`, …).
    pub callee: String,
    /// The format string as the program sees it.
    pub message_pattern: String,
    /// The message as a reader sees it (for plain, non-format calls the
    /// literal text, without format escaping).
    pub error_message: String,
    /// How the error surfaces.
    pub error_type: ErrorType,
    /// First-guess severity from the call.
    pub severity: Severity,
    /// Sentinel variable or error type name.
    pub error_class: Option<String>,
    /// A code such as the gRPC `codes.X` name.
    pub error_code: Option<String>,
    /// HTTP status where the site answers HTTP.
    pub http_status: Option<u16>,
    /// Source language.
    pub lang: Lang,
    /// Source text of the values that fill the pattern's holes, in order
    /// (for a format call, the arguments after the format string).
    pub args: Vec<String>,
    /// What the code around the call shows.
    pub facts: SiteFacts,
}

/// What the code around a site shows: with the message, the only input the
/// analysis may draw on. Every field is read from the syntax tree; none is
/// guessed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SiteFacts {
    /// Package (Go: the `package` clause).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// Receiver type of the enclosing method, without `*`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receiver: Option<String>,
    /// Doc comment of the enclosing function, comment markers removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Comment lines just above the statement that holds the site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Conditions of the `if` statements around the site, innermost first,
    /// as written (`err != nil`, `c.StopRequested()`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<String>,
    /// The call whose error the site wraps or reports: the call assigned
    /// to an error argument of the site just before it
    /// (`readiness, err := serveReadiness(ctx)` → `serveReadiness`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapped_call: Option<String>,
    /// Comment lines just above that call's statement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapped_call_comment: Option<String>,
    /// The site is inside a loop of its function.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_loop: bool,
    /// After the site its loop goes on to the next item (a `continue`
    /// follows it in the loop): the loop's first line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skips_item: Option<String>,
    /// The statement that ends the program after the site on every path
    /// through its function (`os.Exit(1)` after the `switch` whose case
    /// logs the message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exits_after: Option<String>,
    /// The texts the program prints right after the site, by the
    /// statements that follow it with the same logger or print call
    /// (etcd's `plog.Infof("Please check the given data dir path …")`
    /// after the message): often the reason or the remedy, in the
    /// authors' words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prints_next: Vec<String>,
    /// Fields the guards read that the class's constructor sets from its
    /// parameters (`self.input_stream = input_stream` in
    /// `EnvironBuilder.__init__`): the caller-facing source of the value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields_given: Vec<FieldGiven>,
    /// Fields the guards read whose every declaration in the repository
    /// names the same key of a data format in its tag (Go's
    /// `yaml:"peer-client-cert-auth"`): where a person sets the value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub field_keys: Vec<FieldKey>,
    /// Fields the guards read that option functions of the repository set
    /// (Go's `WithMinModRev` sets `minModRev`): what a caller passes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub field_options: Vec<FieldOption>,
    /// String constants of the package the guards name, with their text
    /// (`tokenTypeSimple` is `simple`): the values a person writes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guard_constants: Vec<NamedValue>,
    /// Conditions of earlier `if` statements in the block of the site's
    /// innermost guard that leave that block when they hold (`e, ok :=
    /// err.(*Error); ok && e.Code == NotFound` before a log of `err`):
    /// the site runs only when each is false. Nearest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<String>,
    /// The site is in `func main` of a `main` package.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_main: bool,
    /// The enclosing function's signature as written, on one line
    /// (`func (c *C) run(ctx context.Context) error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The site is the value of a `return` statement: the function gives
    /// the error to its caller.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub returned: bool,
    /// A loop of the enclosing function starts after the site, outside it:
    /// an error returned here ends the function before that loop runs.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub loop_follows: bool,
    /// The enclosing function takes an `http.ResponseWriter`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub http_handler: bool,
    /// For a sentinel or typed error: where the repository checks for it
    /// (`store/get.go:40 errors.Is`), at most [`MAX_CHECKS`], by path.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checked_at: Vec<String>,
    /// For a sentinel: where the repository returns it, with the function
    /// and the condition above the return when there is one
    /// (`auth/options.go:112 jwtOptions.hmacKey when len(opts.PrivateKey)
    /// == 0`), at most [`MAX_CHECKS`], by path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returned_at: Vec<String>,
    /// The wrapped call resolves to a function of the repository that
    /// returns a `nil` error on every path, so the message never appears:
    /// that function (`clientv3/client.go:233 Client.dialSetupOpts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrapped_never_fails: Option<String>,
    /// Calls of the enclosing function by name (`cmd/main.go:40 main`),
    /// at most [`MAX_CHECKS`], by path.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<String>,
    /// Every caller stops the program with the error right after the call
    /// (`if err := c.validate(); err != nil { panic(err.Error()) }`): the
    /// first one's statement (`raft/raft.go:331 panic(err.Error())`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callers_stop: Option<String>,
    /// For a piece of text that a message of the file prints in a hole
    /// (a literal handed to a function as the parameter its log prints,
    /// a local name the log prints): that function and the hole's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fills: Option<Fill>,
    /// The text is kept under a name, in a buffer or in a table
    /// (`msg = f"…"`, `snprintf(errbuf, …)`, `case X: return "…";`) and
    /// printed or raised elsewhere: a piece of a message, not the
    /// statement that makes the error.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub kept: bool,
    /// For a method that gives a class its text (`__str__`, `toString`):
    /// the class's own docstring or doc comment, which says when it is
    /// raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_doc: Option<String>,
    /// Command-line flags bound in the file to a variable the guards read
    /// (`cmd.Flags().BoolVarP(&electListen, "listen", "l", …)`), as
    /// `electListen=--listen/-l`: a test of the variable is a test of the
    /// flag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flag_vars: Vec<String>,
    /// The enclosing function is a property's setter (Python's
    /// `@name.setter`): callers assign (`obj.name = v`), they do not call.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub setter: bool,
    /// The keys of the fields a structured logging call sets
    /// (`zap.String("remote-addr", a)`, `"pod", name` pairs, `zap.Error`
    /// as `error`): a JSON or logfmt line it writes carries them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// Holes whose value the code only ever sets to a few literals
    /// (etcd's `failure.action`, a field of its package's own struct set
    /// only in `failureType{…, action: "write"}`): the texts that hole can
    /// print, so tracing reads the message with each in place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_holes: Vec<ClosedHole>,
}

/// A hole of a message and the only texts its value can have.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClosedHole {
    /// The hole's value as written in the message's call.
    pub arg: String,
    /// Every text the code gives it, sorted.
    pub values: Vec<String>,
}

/// Where a piece of text goes: the function whose message prints it and
/// the value that hole of the message is written with
/// (`warnOfExpensiveGenericRequest`, `prefix`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fill {
    /// The printing function's name (a method's without its receiver).
    pub function: String,
    /// The hole's value as written in the message's call.
    pub arg: String,
}

/// Checks listed per site in [`SiteFacts::checked_at`].
pub const MAX_CHECKS: usize = 8;

/// Function names too generic to find their callers by name alone: the
/// index lists no callers for them ([`SiteFacts::callers`]).
pub const TOO_COMMON_NAMES: &[&str] = &[
    "main", "init", "New", "Error", "String", "Close", "Get", "Set", "Run", "Start", "Stop",
    "Read", "Write", "Do", "Put", "Delete", "List", "Update", "Create", "Open", "Len",
];

impl SiteFacts {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        *self == SiteFacts::default()
    }
}

/// A call that produces an error whose message has no literal part at all
/// (`errors.New(msg)`): it is counted and listed but makes no record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DynamicSite {
    /// Path relative to the repository root.
    pub file_path: String,
    /// 1-based line.
    pub line_number: u32,
    /// Enclosing function, if any.
    pub function: Option<String>,
    /// The callee (`errors.New`, `panic`, …).
    pub callee: String,
    /// The message expression as written.
    pub expression: String,
}

/// One site of a record, as listed in the record's `sites`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Site {
    /// Path relative to the repository root.
    pub file_path: String,
    /// 1-based line.
    pub line_number: u32,
    /// Enclosing function, if any.
    pub function: Option<String>,
    /// The callee as resolved (`fmt.Errorf`, …).
    pub callee: String,
    /// How this site surfaces the error.
    pub error_type: ErrorType,
    /// This site's sentinel variable or error type, when it has one
    /// (generated code often declares the same message under many names).
    pub error_class: Option<String>,
    /// Source text of the values that fill the holes (`err`, `name`), which
    /// tells a wrapped error (a chain point) from other values.
    #[serde(default)]
    pub args: Vec<String>,
    /// First line of the snippet around the site.
    pub source_code_start: u32,
    /// Last line of the snippet around the site.
    pub source_code_end: u32,
    /// Pinned link to the snippet, when the commit and remote are known.
    pub github_url: Option<String>,
    /// What the code around the site shows (the analysis' input).
    #[serde(default, skip_serializing_if = "SiteFacts::is_empty")]
    pub facts: SiteFacts,
}

/// A struct field and the key a data format reads it from, per the
/// field's tag.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FieldKey {
    /// The field: as a guard writes it (`mem.Etcd.PeerClientCertAuth`)
    /// on a site, by its name (`PeerClientCertAuth`) in a declaration.
    pub field: String,
    /// The tag's format (`yaml`, `toml`, `json`); empty for a
    /// declaration without a tag.
    pub format: String,
    /// The key (`peer-client-cert-auth`).
    pub key: String,
}

/// A constant and its text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedValue {
    /// The constant's name (`tokenTypeSimple`).
    pub name: String,
    /// Its text (`simple`).
    pub value: String,
}

/// A field and the option functions that set it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldOption {
    /// The field as a guard writes it (`ret.minModRev`).
    pub field: String,
    /// The functions that set it (`WithMinModRev`).
    pub options: Vec<String>,
}

/// A field set by a class's constructor from one of its parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldGiven {
    /// The field as the guards write it (`self.input_stream`).
    pub field: String,
    /// The class (`EnvironBuilder`).
    pub class: String,
    /// The constructor's parameter it is set from (`input_stream`).
    pub param: String,
    /// That parameter as declared (`input_stream: t.IO[bytes] | None =
    /// None`): its type or default says what values it takes.
    #[serde(default)]
    pub declared: String,
    /// The constructor's other assignments of it, as written
    /// (`self.input_stream = BytesIO(data)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// Where an error a record wraps can come from: a site of the repository
/// (another record) or a text of the runtime (a knowledge-base entry),
/// reached through the calls of `path`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cause {
    /// The cause's pattern (`listening on %s: %w`), or the knowledge-base
    /// entry's first template (`address already in use`).
    pub message_pattern: String,
    /// The record that prints it, for a site of the repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    /// The knowledge-base key (`errno/EADDRINUSE`), for a text of the
    /// runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<String>,
    /// The site's file; for a runtime text, the file of the call that
    /// fails.
    pub file_path: String,
    /// The site's line, or the failing call's.
    pub line_number: u32,
    /// The calls from the record's site to the cause, outermost first
    /// (`serveReadiness`, `serveReadinessOnAddr`, `net.Listen`).
    pub path: Vec<String>,
    /// Values known without running the code at the failing call
    /// (`addr = 127.0.0.1:3986`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// For a site of the repository, the condition it is returned under
    /// (`lo < fi` above `return ErrCompacted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// What the code's comment says of it (a sentinel's declaration
    /// comment: "ErrCompacted is returned by Storage.Entries/Compact when
    /// a requested index is unavailable because it predates the last
    /// snapshot.").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// For an error the code turns into this one through a map of errors
    /// (`auth.ErrAuthOldRevision: rpctypes.ErrGRPCAuthOldRevision,`), the
    /// map's entry (`etcdserver/api/v3rpc/util.go:81`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translated_at: Option<String>,
}

/// Another record the page lists as related.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedError {
    /// The related record's id.
    pub id: String,
    /// Its message.
    pub error_message: String,
}

/// One distinct error of a repository: a (repo, messagePattern) pair, with
/// every site that emits it. Field names, order and types follow the seed
/// record (`schemaVersion` 2); `sites`, `relatedErrors`, `analyzer` and
/// `language` are additive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// 16 lowercase hex digits, stable while repo and pattern stay the same.
    pub id: String,
    /// `owner/name`.
    pub repo: String,
    /// URL slug, unique within the repo.
    pub slug: String,
    /// gRPC code, errno, E-code… where the site names one.
    pub error_code: Option<String>,
    /// The message as a reader sees it.
    pub error_message: String,
    /// The pattern in the source language's own format syntax.
    pub message_pattern: String,
    /// How the primary site surfaces the error.
    pub error_type: ErrorType,
    /// Exception class, sentinel or error type.
    pub error_class: Option<String>,
    /// HTTP status where the site answers HTTP.
    pub http_status: Option<u16>,
    /// How bad it is.
    pub severity: Severity,
    /// Primary site: path.
    pub file_path: String,
    /// Primary site: line.
    pub line_number: u32,
    /// Snippet around the primary site.
    pub source_code: String,
    /// First line of the snippet.
    pub source_code_start: u32,
    /// Last line of the snippet.
    pub source_code_end: u32,
    /// Pinned blob link to the snippet, or null when unknown.
    pub github_url: Option<String>,
    /// What it means.
    pub documentation: Option<String>,
    /// What triggers it.
    pub trigger_scenarios: Option<String>,
    /// Where people meet it.
    pub common_situations: Option<String>,
    /// What to do, best first.
    pub solutions: Vec<String>,
    /// A before/after fix.
    pub example_fix: Option<String>,
    /// try-catch, type-guard, validation, retry or fallback.
    pub handling_strategy: Option<String>,
    /// Code that validates input before the call.
    pub validation_code: Option<String>,
    /// Code that recognises the error.
    pub type_guard: Option<String>,
    /// Code that handles it.
    pub try_catch_pattern: Option<String>,
    /// How to avoid it.
    pub prevention_tips: Vec<String>,
    /// Topic tags.
    pub tags: Vec<String>,
    /// One family slug (`port-already-in-use`, `timeout`, …).
    pub background_tag: Option<String>,
    /// Commit the record was extracted from.
    pub analyzed_sha: Option<String>,
    /// When it was extracted or analysed (RFC 3339, milliseconds, UTC).
    pub analyzed_at: String,
    /// When its content last changed.
    pub content_changed_at: String,
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Every site that emits this pattern, in path order; the first is the
    /// primary site.
    pub sites: Vec<Site>,
    /// Related records, best first.
    pub related_errors: Vec<RelatedError>,
    /// Where the error it wraps can come from, nearest first: the sites
    /// and runtime texts its wrapped call reaches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// Who wrote the prose: `static`, `llm:<provider>/<model>`, or null
    /// before analysis.
    pub analyzer: Option<String>,
    /// Source language of the primary site.
    pub language: Lang,
    /// The first indexed version that prints it (history runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seen: Option<String>,
    /// The last indexed version that prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<String>,
    /// The version after `lastSeen`, when the newest indexed version no
    /// longer prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_in: Option<String>,
    /// Where it is in each run of consecutive versions that print it from
    /// one place, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<VersionRange>,
}

/// Consecutive indexed versions in which a record's primary site stays at
/// one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionRange {
    /// The first version of the range.
    pub from: String,
    /// The last version of the range.
    pub to: String,
    /// The commit of `to`, which `githubUrl` pins.
    pub commit: String,
    /// The primary site's path in these versions.
    pub file_path: String,
    /// Its line.
    pub line_number: u32,
    /// A pinned link to it at `commit`, where the host is known.
    pub github_url: Option<String>,
}

/// One indexed version (tag or ref) of a repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoVersion {
    /// Its name (`v1.2.0`).
    pub name: String,
    /// Its commit.
    pub commit: String,
    /// The commit's date (RFC 3339, UTC).
    pub date: Option<String>,
}

/// Counts from one index run, shown in the summary and kept with the
/// dataset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexStats {
    /// Files the walk found in a supported language.
    pub files_seen: u64,
    /// Files parsed and extracted.
    pub files_indexed: u64,
    /// Files skipped (binary, too large, unreadable, outside the root).
    pub files_skipped: u64,
    /// Files tree-sitter reported syntax errors in (still extracted).
    pub files_with_syntax_errors: u64,
    /// Bytes of source parsed.
    pub bytes: u64,
    /// Error sites found (sites with some literal text).
    pub sites: u64,
    /// Distinct records.
    pub records: u64,
    /// Sites whose message has no literal part.
    pub dynamic_sites: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

/// Everything one index run produced for one repository: what a store
/// replaces atomically.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoDataset {
    /// `owner/name`.
    pub repo: String,
    /// Full commit id, when known.
    pub commit: Option<String>,
    /// The `origin` remote URL, when known.
    pub remote_url: Option<String>,
    /// Records in pattern order.
    pub records: Vec<Record>,
    /// Dynamic sites in path order.
    pub dynamic_sites: Vec<DynamicSite>,
    /// Counts.
    pub stats: IndexStats,
    /// The versions indexed, oldest first (empty: one commit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<RepoVersion>,
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn every_name_and_alias_finds_its_language_alone() {
        for &l in Lang::ALL {
            assert_eq!(Lang::named(l.as_str()), Some(l));
            assert_eq!(Lang::named(&format!(" {} ", l.display_name())), Some(l));
            for a in l.aliases() {
                assert_eq!(Lang::named(a), Some(l), "{a}");
                let owners = Lang::ALL.iter().filter(|o| o.aliases().contains(a));
                assert_eq!(owners.count(), 1, "{a} names one language");
            }
            assert!(!l.extensions().is_empty(), "{l:?} has sources");
            let json = serde_json::to_string(&l).unwrap();
            assert_eq!(json, format!("\"{}\"", l.as_str()));
        }
        assert_eq!(Lang::named("JS"), Some(Lang::JavaScript));
        assert_eq!(Lang::named("cobol"), None);
    }
}
