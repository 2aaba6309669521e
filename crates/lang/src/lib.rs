//! Per-language error-site extraction.
//!
//! Each language lives in one module that implements [`LanguageSupport`]
//! (its extractor and its [`Conventions`]) and is registered with one line
//! in [`LANGUAGES`]. An extractor parses one file
//! with tree-sitter and returns [`FileFacts`]: the error sites it found (with
//! messages still referring to package constants by name), the file's own
//! string constants, and the dynamic sites. [`resolve_package`] then
//! substitutes constants across the files of one package.
//!
//! ```
//! use errdex_lang::{language_for_path, resolve_package};
//! let go = language_for_path("pkg/server.go").unwrap();
//! let src = "package p\nimport \"errors\"\nconst msg = \"boom\"\nvar ErrBoom = errors.New(msg)\n";
//! let facts = go.extract("pkg/server.go", src, &Default::default());
//! let (sites, dynamic) = resolve_package(vec![facts]);
//! assert_eq!(sites[0].message_pattern, "boom");
//! assert_eq!(sites[0].error_class.as_deref(), Some("ErrBoom"));
//! assert!(dynamic.is_empty());
//! ```
#![deny(missing_docs)]

mod alternatives;
mod c;
pub mod conventions;
mod cpp;
mod csharp;
#[cfg(test)]
mod every_language;
pub mod exception_classes;
mod expr;
mod fills;
mod flow;
pub mod flows;
pub mod formats;
mod go;
mod reads;
#[cfg(test)]
mod test_support;
pub use go::checks::ErrorCheck;
mod guard;
mod guard_prefix;
mod javascript;
mod jvm;
pub mod kept_trees;
mod literal_args;
mod locals;
pub mod message;
pub mod names;
mod php;
mod prefilter;
mod prints_next;
mod python;
mod ruby;
mod rust;
mod skips;
mod tree;

pub use conventions::{Conventions, FunctionHeads, HandlerCode, Handling};
use errdex_model::{DynamicSite, ErrorType, Lang, RawSite, Severity, Template};
pub use flows::{CallFlow, FileFlows, FunctionFlow, TypeFlow};
pub use guard::{MAX_NESTING, PARSE_STACK};
use message::{Constants, Message};
pub use reads::guard_names;

/// Every supported language. Adding a language: one line in the
/// `languages!` table of `errdex_model` (names, aliases, extensions), one
/// module here implementing [`LanguageSupport`] with its [`Conventions`],
/// its grammar in `Cargo.toml`, and one line here; the compiler (the
/// `Lang` matches, [`Conventions`], the sample head in the
/// `every_language` tests) and those tests then ask for every remaining
/// answer.
pub static LANGUAGES: &[&dyn LanguageSupport] = &[
    &go::Go,
    &python::PYTHON,
    &javascript::JAVASCRIPT,
    &javascript::TYPESCRIPT,
    &javascript::TSX,
    &rust::RUST,
    &jvm::java::JAVA,
    &jvm::kotlin::KOTLIN,
    &jvm::scala::SCALA,
    &csharp::CSHARP,
    &ruby::RUBY,
    &php::PHP,
    &c::C,
    &cpp::CPP,
];

/// What a language module provides.
pub trait LanguageSupport: Sync {
    /// The model's name for the language.
    fn lang(&self) -> Lang;
    /// File name endings this language claims (`.go`).
    fn extensions(&self) -> &'static [&'static str];
    /// Whether a repo-relative path is a test file (skipped by default).
    fn is_test_path(&self, path: &str) -> bool;
    /// Parses a site's message pattern into a template, given the source
    /// text of the values that fill it and the callee (which may add text
    /// of its own, as `errors.Wrap` adds `": " + cause`).
    fn template(&self, pattern: &str, args: &[String], callee: &str) -> Template;
    /// The tree-sitter grammar (code fields are checked to parse with it).
    fn grammar(&self) -> tree_sitter::Language;
    /// Extracts the error sites of one file. Never fails: syntax errors are
    /// counted in [`FileFacts::syntax_errors`] and the parts that parsed are
    /// still used.
    fn extract(&self, path: &str, source: &str, opts: &ExtractOptions) -> FileFacts;
    /// What the callers scan and the analyser know of the language.
    fn conventions(&self) -> &'static Conventions;
    /// How errors flow through the file's functions, for the cause graph
    /// ([`flows`]). Go reads them; the other languages give none yet, and
    /// their sites get no causes.
    fn flows(&self, _source: &str) -> FileFlows {
        FileFlows::default()
    }
    /// The value of an expression known without running the code (string
    /// and number literals, joins and formats of them), names asked of
    /// `lookup`; `None` when it is not known. Go's only, as [`flows`].
    fn eval(&self, _expr: &str, _lookup: &dyn Fn(&str) -> Option<String>) -> Option<String> {
        None
    }
}

/// The module for a language.
pub fn language(lang: Lang) -> &'static dyn LanguageSupport {
    LANGUAGES
        .iter()
        .copied()
        .find(|l| l.lang() == lang)
        .expect("every Lang is registered")
}

/// Whether a name (the last part of a field path, any case) is a
/// logger's: `lg`, `plog`, `s.logger`. A test of one against `nil` picks
/// where a message goes, not whether it is printed.
pub fn is_logger_name(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "lg" | "log" | "logger" | "plog" | "zlog" | "lgr"
    ) || last.ends_with("logger")
}

/// Parses a whole file for a reader other than the extractor (the
/// linter) through the extractor's guards: a parse past its time budget,
/// or a tree nested deeper than [`MAX_NESTING`], is refused with why.
/// Walk the tree without recursion, or on a [`PARSE_STACK`] thread.
pub fn parse_guarded(
    lang: &dyn LanguageSupport,
    source: &str,
) -> Result<tree_sitter::Tree, String> {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&lang.grammar()).map_err(|e| e.to_string())?;
    let text = match lang.lang() {
        Lang::Go => go::with_new_of_values(source),
        _ => std::borrow::Cow::Borrowed(source),
    };
    let tree = guard::parse(&mut p, &text)?.ok_or("the parser gave no tree")?;
    match guard::too_deep(tree.root_node()) {
        Some(why) => Err(why),
        None => Ok(tree),
    }
}

/// The language that claims a path, by its ending.
pub fn language_for_path(path: &str) -> Option<&'static dyn LanguageSupport> {
    LANGUAGES
        .iter()
        .copied()
        .find(|l| l.extensions().iter().any(|ext| path.ends_with(ext)))
}

/// What extractors look for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtractOptions {
    /// Also log statements at info and debug level (`--log-levels all`),
    /// so that every line of a log can be traced.
    pub all_levels: bool,
    /// Parse the whole file, not only the declarations with trigger words
    /// (for files that call a repository's own printf wrappers).
    pub whole_file: bool,
    /// Message functions the project declares in `errdex.toml`.
    pub custom: std::sync::Arc<[CustomFunction]>,
    /// Keep each file's syntax tree for the next parse of its path, which
    /// then parses only what changed ([`kept_trees`]): for the releases of
    /// a history run.
    pub reuse_trees: bool,
}

/// A message function declared in a project's `errdex.toml`: calls of it
/// are sites of the given type and severity, whatever their name says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomFunction {
    /// Only in this language (all when `None`).
    pub lang: Option<Lang>,
    /// The function's name (`die`), or the callee as written
    /// (`log.Fatal`).
    pub name: String,
    /// Index of the message argument, from 0.
    pub message: usize,
    /// How the error surfaces.
    pub error_type: ErrorType,
    /// Its severity.
    pub severity: Severity,
    /// Whether the message is a printf format whose verbs the following
    /// arguments fill.
    pub format: bool,
}

/// A site whose message may still name package constants.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PendingSite {
    /// The site, with `message_pattern` and `error_message` still empty.
    pub site: RawSite,
    /// The message expression.
    pub message: Message,
    /// The message expression as written, for dynamic-site listings.
    pub expression: String,
    /// The arguments tuple a Python exception raised with several
    /// arguments prints around the message, if its class prints it
    /// ([`exception_classes::apply_exception_classes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_tuple: Option<Box<exception_classes::ArgsTuple>>,
}

/// What one file contributes.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct FileFacts {
    /// Package scope for constant resolution (for Go: directory + package
    /// name). Files with the same scope share constants.
    pub scope: String,
    /// The file's string constants.
    pub constants: Constants,
    /// Sites with their message expressions.
    pub sites: Vec<PendingSite>,
    /// Sites whose message has no literal part even before resolution.
    pub dynamic: Vec<DynamicSite>,
    /// Number of syntax-error nodes tree-sitter reported.
    pub syntax_errors: usize,
    /// Whether only some declarations were parsed (the prefilter left out
    /// those without trigger words).
    pub partial: bool,
    /// Functions of this file that look like printf-style message wrappers.
    pub wrappers: Vec<WrapperDef>,
    /// Calls that become sites if a wrapper of their name exists anywhere
    /// in the repository.
    pub wrapper_calls: Vec<WrapperCall>,
    /// Other names of functions (`#define failf Curl_failf`): a call of
    /// the alias is a call of the function.
    pub aliases: Vec<(String, String)>,
    /// Places that check for an error by name (`errors.Is(err, ErrX)`).
    pub checks: Vec<ErrorCheck>,
    /// Classes the file defines, for what their exceptions print
    /// ([`exception_classes`]).
    #[serde(default)]
    pub classes: Vec<exception_classes::ClassDef>,
    /// Struct fields the file declares, each with the key its tag names
    /// (Go).
    #[serde(default)]
    pub field_keys: Vec<errdex_model::FieldKey>,
    /// Fields the file's option functions set, with the function (Go:
    /// `WithRev` sets `rev`).
    #[serde(default)]
    pub option_setters: Vec<go::options::OptionSetter>,
    /// Why the file was not read at all (nesting deeper than
    /// [`MAX_NESTING`]); its other fields are empty.
    pub refused: Option<String>,
    /// The names its text holds (Go, for the cause graph); none where
    /// unknown.
    #[serde(default)]
    pub names: Option<names::NameFilter>,
}

impl FileFacts {
    /// The facts of a file that was not read, and why.
    pub(crate) fn refused(reason: String) -> FileFacts {
        FileFacts {
            refused: Some(reason),
            ..FileFacts::default()
        }
    }

    /// Records a site with its message; one with no literal text at all
    /// is listed as dynamic.
    pub(crate) fn push_site(
        &mut self,
        mut site: RawSite,
        mut message: Message,
        expression: String,
    ) {
        literal_args::fold(&mut message, &mut site.args, site.lang);
        if message.iter().all(|p| matches!(p, message::MsgPart::Hole)) {
            self.dynamic.push(dynamic_site(site, expression));
        } else {
            self.sites.push(PendingSite {
                site,
                message,
                expression,
                args_tuple: None,
            });
        }
    }
}

/// A site at node `n` of the file `path`, with the enclosing function
/// and the facts around it; its message is still to be read.
pub(crate) fn new_site(
    path: &str,
    lang: Lang,
    n: tree_sitter::Node<'_>,
    callee: String,
    (error_type, severity): (ErrorType, Severity),
    (function, facts): (Option<String>, errdex_model::SiteFacts),
) -> RawSite {
    let pos = n.start_position();
    RawSite {
        file_path: path.to_string(),
        line_number: pos.row as u32 + 1,
        column: pos.column as u32 + 1,
        function,
        callee,
        message_pattern: String::new(),
        error_message: String::new(),
        error_type,
        severity,
        error_class: None,
        error_code: None,
        http_status: None,
        lang,
        args: Vec::new(),
        facts,
    }
}

/// A site whose message is only known at run time, listed by its
/// expression.
fn dynamic_site(site: RawSite, expression: String) -> DynamicSite {
    DynamicSite {
        file_path: site.file_path,
        line_number: site.line_number,
        function: site.function,
        callee: site.callee,
        expression,
    }
}

/// A function whose last parameters are a format string and variadic
/// arguments (`func logf(format string, args ...any)`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WrapperDef {
    /// Its name (methods by method name).
    pub name: String,
    /// Index of the format parameter.
    pub format_index: usize,
    /// Whether it returns an error value (an error constructor, not a
    /// logger).
    pub returns_error: bool,
    /// Its name is a logger method the extractor already knows
    /// (`Errorf`, `Warn`…): calls are sites by name, not as a wrapper.
    pub known_logger: bool,
    /// The level its body prints at, for a name that implies none (curl's
    /// `helpf` writes to the error stream).
    pub level: Option<Severity>,
    /// The text its body writes around the formatted message, when it
    /// formats it into a larger one (containerd's `ToGRPCf`:
    /// `fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)`).
    #[serde(default)]
    pub frame: Option<WrapperFrame>,
}

/// A wrapper's own format around the caller's: its text and values
/// before the caller's message, and after it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WrapperFrame {
    /// Format text before the caller's message.
    pub before: String,
    /// The values its verbs print, as written in the wrapper.
    pub before_args: Vec<String>,
    /// Format text after the caller's message.
    pub after: String,
    /// The values its verbs print.
    pub after_args: Vec<String>,
}

impl WrapperFrame {
    /// Puts a call's message and values inside the frame.
    fn enclose(&self, message: &mut message::Message, args: &mut Vec<String>) {
        let text = |t: &str| message::MsgPart::Text {
            text: t.to_string(),
            format: true,
        };
        if !self.before.is_empty() {
            message.insert(0, text(&self.before));
        }
        if !self.after.is_empty() {
            message.push(text(&self.after));
        }
        args.splice(0..0, self.before_args.iter().cloned());
        args.extend(self.after_args.iter().cloned());
    }
}

/// A call with a literal string argument to a function whose name implies
/// a log level.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct WrapperCall {
    /// The called name.
    pub name: String,
    /// Index of the literal argument, taken as the format.
    pub format_index: usize,
    /// The site it becomes.
    pub site: PendingSite,
    /// The level its own argument names (`serverLog(LL_WARNING, …)`),
    /// which wins over the level the name implies.
    pub level: Option<Severity>,
}

/// The level a message function's name implies: `fatalf`, `dief` →
/// critical; `errorf`, `failf` → error; `warnf` → warning; `logf`,
/// `infof`, `printf` → info; `debugf`, `tracef` → debug.
pub fn level_from_name(name: &str) -> Option<(ErrorType, Severity)> {
    let n = name.to_ascii_lowercase();
    let has = |w: &str| n.contains(w);
    Some(if has("panic") {
        (ErrorType::Panic, Severity::Critical)
    } else if has("fatal") || has("die") || has("crit") {
        (ErrorType::Log, Severity::Critical)
    } else if has("err") || has("fail") {
        (ErrorType::Log, Severity::Error)
    } else if has("warn") {
        (ErrorType::Log, Severity::Warning)
    } else if has("info") || has("print") || has("log") || has("notice") {
        (ErrorType::Log, Severity::Info)
    } else if has("debug") || has("trace") {
        (ErrorType::Log, Severity::Debug)
    } else {
        return None;
    })
}

/// The last name of an access path, lowercase: `self.Stderr` → `stderr`,
/// `u->err` → `err`, `*err` → `err`, `@errs` → `errs`.
fn last_name_lowercase(path: &str) -> String {
    last_part(path).to_ascii_lowercase()
}

/// The last name of a path or member expression (`u->err`, `self.msg`).
fn last_part(path: &str) -> &str {
    path.rsplit(['.', '>', ':', '@', '$', '*', ' ', '('])
        .next()
        .unwrap_or("")
}

/// Whether a name (its last part) is written in capitals, a constant's:
/// `SPECIFIC_ERROR`, `ResponseError.GENERIC_ERROR`.
pub(crate) fn is_constant_case(target: &str) -> bool {
    let last = last_part(target);
    last.bytes().any(|c| c.is_ascii_uppercase())
        && last
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// Whether `s` is one identifier of the C family's languages (letters,
/// digits and `_`, not starting with a digit).
pub fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Whether a stream expression names where a program writes its errors:
/// `os.Stderr`, `sys.stderr`, `$stderr`, `STDERR`, `cmd.ErrOrStderr()`,
/// `c.App.ErrWriter`, curl's `global->errors`, rubygems' `@errs`. A
/// message printed there is the program's error output, a site like any
/// log call.
pub fn is_error_stream(expr: &str) -> bool {
    let last = last_name_lowercase(expr.trim().trim_end_matches("()"));
    last.ends_with("stderr")
        || matches!(
            last.as_str(),
            "errs"
                | "errors"
                | "errout"
                | "err_out"
                | "errwriter"
                | "err_writer"
                | "errstream"
                | "err_stream"
                | "error_stream"
                | "errorstream"
                | "stderror"
        )
}

/// Whether an assignment target names a message that is printed or
/// raised elsewhere: `err`, `*err`, `u->err`, `errmsg`, `msg`,
/// `e.strerror`, `reason`. A literal assigned to one is a message built
/// in one place and shown in another (nginx's `u->err = "invalid port"`,
/// Redis's `err = "Bad directive …"; goto loaderr;`). A constant's name
/// in capitals whose last word names a message is one too (urllib3's
/// `SPECIFIC_ERROR = "too many {status_code} error responses"`,
/// `NOT_FOUND_MESSAGE`).
pub fn is_message_name(target: &str) -> bool {
    let last = last_name_lowercase(target.trim());
    if let Some((_, word)) = last
        .rsplit_once('_')
        .filter(|_| is_constant_case(target.trim()))
    {
        if matches!(word, "error" | "message" | "msg" | "errmsg") {
            return true;
        }
    }
    matches!(
        last.as_str(),
        "err"
            | "error"
            | "errmsg"
            | "err_msg"
            | "errstr"
            | "err_str"
            | "error_message"
            | "errormessage"
            | "errormsg"
            | "error_msg"
            | "msg"
            | "message"
            | "reason"
            | "strerror"
            | "errtext"
            | "error_text"
            | "emsg"
            | "failure"
            | "detail"
    )
}

/// Whether a wrapper's calls can become sites at these levels (so files
/// that call it need a whole-file parse).
pub fn wrapper_matters(w: &WrapperDef, all_levels: bool) -> bool {
    !w.known_logger
        && match wrapper_level(&w.name, w.level) {
            Some((_, sev)) => {
                w.returns_error || all_levels || !matches!(sev, Severity::Info | Severity::Debug)
            }
            // An error constructor needs no level in its name.
            None => w.returns_error,
        }
}

/// A message function's name and format index.
type WrapperKey = (String, usize);

/// Whether a message function returns an error, the level its body
/// prints at, and its own text around the message.
type WrapperKind = (bool, Option<Severity>, Option<WrapperFrame>);

/// The level of a message function: the one its name implies, else the
/// one its body prints at.
fn wrapper_level(name: &str, body: Option<Severity>) -> Option<(ErrorType, Severity)> {
    level_from_name(name).or(body.map(|sev| (ErrorType::Log, sev)))
}

/// Turns calls of repository-defined printf wrappers into sites: a wrapper
/// defined in any file makes every call with a literal at its format
/// position a site, at the level its name implies (an error, whatever its
/// name, for one that returns an error). Info and debug levels only with
/// `all_levels`.
pub fn apply_wrappers(files: &mut [FileFacts], all_levels: bool) {
    // Several functions may share a name (in different packages): a call
    // matches any of them whose format parameter sits where its literal is.
    let mut defs: std::collections::HashMap<WrapperKey, WrapperKind> =
        std::collections::HashMap::new();
    for f in files.iter() {
        for w in &f.wrappers {
            let d = defs.entry((w.name.clone(), w.format_index)).or_default();
            d.0 |= w.returns_error;
            d.1 = d.1.or(w.level);
            d.2 = d.2.take().or_else(|| w.frame.clone());
        }
    }
    let aliased: Vec<(WrapperKey, WrapperKind)> = files
        .iter()
        .flat_map(|f| &f.aliases)
        .flat_map(|(alias, target)| {
            defs.iter()
                .filter(|((name, _), _)| name == target)
                .map(|((_, i), r)| ((alias.clone(), *i), r.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    for (k, (r, level, frame)) in aliased {
        let d = defs.entry(k).or_default();
        d.0 |= r;
        d.1 = d.1.or(level);
        d.2 = d.2.take().or(frame);
    }
    for f in files.iter_mut() {
        for call in std::mem::take(&mut f.wrapper_calls) {
            let Some((returns_error, def_level, frame)) =
                defs.get(&(call.name.clone(), call.format_index))
            else {
                continue;
            };
            let (returns_error, def_level) = (*returns_error, *def_level);
            let level = wrapper_level(&call.name, def_level)
                .or(returns_error.then_some((ErrorType::Exception, Severity::Error)));
            let Some((mut ty, mut sev)) = level else {
                continue;
            };
            if returns_error {
                (ty, sev) = (ErrorType::Exception, Severity::Error);
            } else if let Some(level) = call.level {
                sev = level;
            }
            if !all_levels && matches!(sev, Severity::Info | Severity::Debug) {
                continue;
            }
            let mut p = call.site;
            p.site.error_type = ty;
            p.site.severity = sev;
            if let Some(frame) = frame {
                frame.enclose(&mut p.message, &mut p.site.args);
            }
            literal_args::fold(&mut p.message, &mut p.site.args, p.site.lang);
            f.sites.push(p);
        }
    }
}

/// Resolves the constants of one scope's files and renders every message.
/// Sites whose message has no literal part become dynamic sites.
pub fn resolve_package(files: Vec<FileFacts>) -> (Vec<RawSite>, Vec<DynamicSite>) {
    let mut consts = Constants::new();
    for f in &files {
        for (k, v) in &f.constants {
            consts.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let mut sites = Vec::new();
    let mut dynamic = Vec::new();
    for f in files {
        dynamic.extend(f.dynamic);
        for p in f.sites {
            let r = message::resolve(&p.message, &consts);
            if r.has_literal {
                let mut site = p.site;
                site.message_pattern = r.pattern;
                site.error_message = r.message;
                site.facts.guard_constants = guard_constants(&site.facts.guards, &consts);
                sites.push(site);
            } else {
                dynamic.push(dynamic_site(p.site, p.expression));
            }
        }
    }
    (sites, dynamic)
}

/// The package's string constants that `guards` name, with their text.
fn guard_constants(guards: &[String], consts: &Constants) -> Vec<errdex_model::NamedValue> {
    let mut out: Vec<errdex_model::NamedValue> = Vec::new();
    for g in guards {
        for name in guard_names(g).into_iter().filter(|n| !n.contains('.')) {
            let Some([message::MsgPart::Text { text, .. }]) = consts.get(name).map(Vec::as_slice)
            else {
                continue;
            };
            if !out.iter().any(|c| c.name == name) {
                out.push(errdex_model::NamedValue {
                    name: name.to_string(),
                    value: text.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_error_stream;

    #[test]
    fn message_names_are_known_by_their_last_name() {
        for t in [
            "err",
            "*err",
            "u->err",
            "e.strerror",
            "self.msg",
            "@message",
            "errmsg",
            "SPECIFIC_ERROR",
            "self.NOT_FOUND_MESSAGE",
        ] {
            assert!(super::is_message_name(t), "{t}");
        }
        for t in [
            "path",
            "name",
            "buf",
            "errors",
            "msgs",
            "error_count",
            "specific_error",
            "MAX_ERROR_COUNT",
        ] {
            assert!(!super::is_message_name(t), "{t}");
        }
    }

    #[test]
    fn error_streams_are_known_by_their_last_name() {
        for s in [
            "os.Stderr",
            "sys.stderr",
            "$stderr",
            "STDERR",
            "cmd.ErrOrStderr()",
            "c.App.ErrWriter",
            "global->errors",
            "@errs",
            "std::io::stderr()",
            "self.stderr",
        ] {
            assert!(is_error_stream(s), "{s}");
        }
        for s in [
            "os.Stdout",
            "w",
            "buf",
            "sys.stdout",
            "f",
            "errCount",
            "out",
        ] {
            assert!(!is_error_stream(s), "{s}");
        }
    }
}
