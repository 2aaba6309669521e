//! The rules that read an index run's records: what each message says,
//! where it is printed and what fills its holes.

use crate::{finding, Finding, Place};
use errdex_model::{
    ErrorType, HoleKind, Lang, Record, RepoDataset, Segment, Severity, Site, Template,
};
use std::collections::BTreeMap;

/// Words that say nothing about what failed: a message made only of them
/// cannot be told from any other.
const GENERIC_WORDS: &[&str] = &[
    "error",
    "errors",
    "err",
    "failed",
    "fail",
    "failure",
    "invalid",
    "unknown",
    "exception",
    "warning",
    "fatal",
    "panic",
    "unexpected",
    "bad",
    "wrong",
    "problem",
    "oops",
];

/// File name endings that build a file for one platform only (Go's build
/// suffixes, and the same habit elsewhere): copies of one statement in
/// such files are one site.
const PLATFORM_SUFFIXES: &[&str] = &[
    "linux",
    "windows",
    "darwin",
    "freebsd",
    "openbsd",
    "netbsd",
    "dragonfly",
    "solaris",
    "illumos",
    "aix",
    "plan9",
    "android",
    "ios",
    "js",
    "wasm",
    "wasip1",
    "unix",
    "posix",
    "bsd",
    "other",
    "others",
    "unsupported",
    "nonlinux",
    "notlinux",
    "nonwindows",
    "notwindows",
    "nocgo",
    "cgo",
    "amd64",
    "arm64",
    "arm",
    "386",
    "ppc64",
    "ppc64le",
    "s390x",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "riscv64",
    "loong64",
    "generic",
    "fallback",
    "stub",
    "win",
    "win32",
    "nt",
    "mac",
    "macos",
    "osx",
];

/// `declared(file, name)`: whether the package of `file` declares `name`.
pub(crate) fn check(ds: &RepoDataset, declared: &dyn Fn(&str, &str) -> bool) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in &ds.records {
        let sites = distinct_sites(r);
        if sites.is_empty() {
            continue;
        }
        if errorish(r) && !only_a_class_name(r) {
            ambiguous(r, &sites, &mut out);
            untraceable(r, &sites, &mut out);
            style(r, &sites, declared, &mut out);
            duplicate_sentinel(r, &sites, &mut out);
        }
        for s in &sites {
            let t = template(r, s);
            leaks_secret(r, s, &t, &mut out);
            if r.language == Lang::Go {
                go_lost_cause(s, &t, &mut out);
            }
        }
    }
    out
}

/// `raise PermissionDenied`: no message written, the class name stands
/// for it (and a traceback prints it qualified by its module).
fn only_a_class_name(r: &Record) -> bool {
    let last = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
    r.error_class
        .as_deref()
        .is_some_and(|c| last(c) == last(&r.message_pattern))
}

/// Errors, warnings and fatal ones: info and debug logs are not read for
/// how they are worded.
fn errorish(r: &Record) -> bool {
    !matches!(r.severity, Severity::Info | Severity::Debug)
}

/// A record's sites, one per statement, leaving out built and vendored
/// copies (their maintainers edit the origin).
fn distinct_sites(r: &Record) -> Vec<&Site> {
    let mut seen = std::collections::BTreeSet::new();
    r.sites
        .iter()
        .filter(|s| !errdex_model::is_built_copy(&s.file_path))
        .filter(|s| seen.insert((&s.file_path, s.line_number)))
        .collect()
}

fn template(r: &Record, s: &Site) -> Template {
    errdex_lang::language(r.language).template(&r.message_pattern, &s.args, &s.callee)
}

/// The literal text of a template.
fn literal(t: &Template) -> String {
    t.segments
        .iter()
        .filter_map(|s| match s {
            Segment::Lit(l) => Some(l.as_str()),
            Segment::Hole(_) => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words of two letters or more that are not [`GENERIC_WORDS`].
fn telling_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .map(str::to_lowercase)
        .filter(|w| !GENERIC_WORDS.contains(&w.as_str()))
        .collect()
}

/// Too little of its own to find: no telling word (`%s: %v`, `error: %v`,
/// `unexpected error`), or fewer than five letters in all (`EOF`).
pub(crate) fn too_little_text(literal: &str) -> bool {
    telling_words(literal).is_empty() || literal.chars().filter(|c| c.is_alphabetic()).count() < 5
}

/// A message with too little text of its own, where an error is made or
/// the program stops (errors, exceptions, panics, exits). Not reported:
/// logs and prints (their "messages" are often field values, progress or
/// listings); a hole that hands on an error (`Error: %v`, `%s: %w`) or
/// text written elsewhere (`%s` of `msg`), since the log line then holds
/// that text; an error type's own `Error()`/`__str__`, which formats
/// fields set where the error is made; sentinels, which are wrapped with
/// context where they are returned; and strings the index only saw
/// assigned (`name := fmt.Sprintf(…)`). Messages built wholly at run time
/// (`errors.New(msg)`) are listed by `errdex list --dynamic`: their text
/// comes from elsewhere, which a linter cannot see.
fn untraceable(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    let t = template(r, sites[0]);
    if !too_little_text(&literal(&t)) || hands_on_an_error(&t) {
        return;
    }
    for s in sites.iter().filter(|s| makes_an_error(s)) {
        out.push(finding(
            "untraceable-message",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` has too little text of its own to be found in a log; say what failed (the operation and its object), with the variable parts in holes",
                r.message_pattern
            ),
        ));
    }
}

/// A site that makes an error or stops the program, as a statement of its
/// own: not a log, an assignment, a string a function returns (C's
/// `return "UNKNOWN";` in a formatter), a sentinel, an error type's method
/// that renders it, or an argument check named by its parameter
/// (`Validate.notNull(cls, "cls")`: the stack says where).
fn makes_an_error(s: &Site) -> bool {
    const ARGUMENT_CHECKS: &[&str] = &[
        "notNull",
        "requireNonNull",
        "notEmpty",
        "notBlank",
        "checkNotNull",
        "noNullElements",
        "checkArgument",
        "isTrue",
    ];
    let call = s.callee.rsplit(['.', ':']).next().unwrap_or(&s.callee);
    if s.callee == "return" || ARGUMENT_CHECKS.contains(&call) {
        return false;
    }
    if debug_only(s) || control_flow(s) {
        return false;
    }
    const RENDERERS: &[&str] = &[
        "Error",
        "String",
        "__str__",
        "__repr__",
        "toString",
        "to_string",
        "fmt",
        "what",
        "Message",
        "message",
        "GoString",
    ];
    let method = s
        .function
        .as_deref()
        .map(|f| f.rsplit(['.', ':']).next().unwrap_or(f));
    let log = matches!(s.error_type, ErrorType::Log);
    let assigned = s.callee == "=";
    let sentinel = s.function.is_none() && s.error_class.is_some();
    let renders = method.is_some_and(|m| RENDERERS.contains(&m));
    !(log || assigned || sentinel || renders)
}

/// An assertion under a debug switch (`if debugAsserts { panic(…) }`,
/// `if false {…}`): compiled out, or seen by the code's developers only.
fn debug_only(s: &Site) -> bool {
    s.facts.guards.iter().any(|g| {
        let g = g.trim().trim_start_matches('(').trim_end_matches(')');
        g == "false" || g.starts_with("false &&") || g.to_lowercase().contains("debug")
    })
}

/// An exception class that does not call itself an error
/// (`raise RequestPath(path)`): control flow, caught by the code.
fn control_flow(s: &Site) -> bool {
    const ERROR_NAMES: &[&str] = &[
        "Error",
        "Exception",
        "Err",
        "Failure",
        "Fault",
        "Abort",
        "Exit",
        "Warning",
        "Denied",
        "NotFound",
        "Invalid",
        "Timeout",
        "Panic",
        "Fatal",
    ];
    let Some(class) = s.error_class.as_deref() else {
        return false;
    };
    let name = class.rsplit(['.', ':']).next().unwrap_or(class);
    s.function.is_some()
        && !name.starts_with("Err")
        && !name.starts_with("err")
        && !ERROR_NAMES.iter().any(|e| name.contains(e))
        && !name.starts_with("Http")
}

/// Any hole filled by an error (`%w`, `%v` of `err`, `{e}`) or by text
/// written elsewhere (`%s` of `msg`).
fn hands_on_an_error(t: &Template) -> bool {
    t.segments.iter().any(|seg| match seg {
        Segment::Hole(h) => {
            h.chain
                || h.arg
                    .as_deref()
                    .is_some_and(|a| mentions_an_error(a) || text_from_elsewhere(a))
        }
        Segment::Lit(_) => false,
    })
}

/// Names in an expression (`e.args` → e, args).
fn names(expr: &str) -> impl Iterator<Item = &str> {
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// An expression built from an error or a list of them (`str(e)`,
/// `e.args`, `err.stack`, `strings.Join(errs, "; ")`).
fn mentions_an_error(expr: &str) -> bool {
    names(expr).any(|w| {
        matches!(
            w,
            "e" | "ex" | "exc" | "err" | "errs" | "error" | "errors" | "exception" | "cause"
        ) || is_error_name(w)
            || w.ends_with("Errs")
            || w.ends_with("Errors")
            || sentinel_name(w)
    })
}

/// `ErrNotFound`, `errInvalidKeyName`: a sentinel error's name.
fn sentinel_name(w: &str) -> bool {
    ["Err", "err"].iter().any(|p| {
        w.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase()))
    })
}

/// Names that hold text written elsewhere: a constant (`REASON_BAD_REFERER`),
/// the caller's format and arguments (a logger's own code), a message
/// looked up or returned by a method (`get_violation_error_message()`);
/// and paths (`filepath.Join`), which are no messages.
fn text_from_elsewhere(expr: &str) -> bool {
    const ELSEWHERE: &[&str] = &[
        "message",
        "messages",
        "msg",
        "text",
        "reason",
        "description",
        "detail",
        "details",
        "format",
        "fmt",
        "args",
        "arguments",
        "template",
    ];
    expr.contains("...")
        || [
            "filepath.Join",
            "path.Join",
            "os.path.join",
            "path.join",
            "path.resolve",
        ]
        .iter()
        .any(|p| expr.contains(p))
        || names(expr).any(|w| {
            let constant = w.len() >= 3
                && w.chars()
                    .all(|c| c.is_uppercase() || c == '_' || c.is_ascii_digit());
            constant
                || identifier_words(w)
                    .iter()
                    .any(|p| ELSEWHERE.contains(&p.as_str()))
        })
}

/// An expression whose value is an error (or its text): `err`,
/// `readErr`, `ctx.Err()`, `err.Error()`, `e`, `exc`, `str(e)`.
fn is_error_value(expr: &str) -> bool {
    let e = expr.trim();
    let e = e
        .strip_prefix("str(")
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(e);
    let e = e
        .trim_end_matches(".Error()")
        .trim_end_matches(".message")
        .trim_end_matches(".getMessage()")
        .trim_end_matches(".Message")
        .trim_end_matches(".to_string()");
    if e.ends_with(".Err()") || e.ends_with(".err()") {
        return true;
    }
    matches!(
        e,
        "e" | "ex" | "exc" | "err" | "error" | "exception" | "$e" | "$ex"
    ) || is_error_name(e)
}

/// A Go-style error variable: `err`, `rerr`, `readErr`, `lastError`.
pub(crate) fn is_error_name(name: &str) -> bool {
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') || name.starts_with("std") {
        return false;
    }
    name == "err"
        || (name.len() <= 6 && name.ends_with("err"))
        || (name.len() > 3 && (name.ends_with("Err") || name.ends_with("Error")))
}

fn ambiguous(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    if sites.len() < 2 || sentinel_sites(r, sites).len() == sites.len() {
        return;
    }
    let t = template(r, sites[0]);
    if too_little_text(&literal(&t)) {
        return; // untraceable-message says it
    }
    let statement = |s: &Site| (platform_free(&s.file_path), s.function.clone());
    let distinct: std::collections::BTreeSet<_> = sites.iter().map(|s| statement(s)).collect();
    if distinct.len() < 2 {
        return;
    }
    for s in sites {
        let others: Vec<Place> = sites
            .iter()
            .filter(|o| !std::ptr::eq(**o, *s))
            .map(|o| Place {
                file: o.file_path.clone(),
                line: o.line_number,
                note: Some(format!("also printed {}", in_function(o))),
            })
            .collect();
        let mut f = finding(
            "ambiguous-message",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` is also printed at {} other site{}, so a log line cannot tell which ran; {}",
                r.message_pattern,
                others.len(),
                if others.len() == 1 { "" } else { "s" },
                suggestion(&r.message_pattern, s)
            ),
        );
        f.related = others;
        out.push(f);
    }
}

fn in_function(s: &Site) -> String {
    match &s.function {
        Some(f) => format!("in {f}"),
        None => "at package level".to_string(),
    }
}

/// The words of the site's function its message does not say yet.
fn suggestion(pattern: &str, s: &Site) -> String {
    let said = pattern.to_lowercase();
    let words: Vec<String> = s
        .function
        .as_deref()
        .map(identifier_words)
        .unwrap_or_default()
        .into_iter()
        .filter(|w| w.len() > 2 && !said.contains(w.as_str()))
        .collect();
    if words.is_empty() {
        "say what this site does that the others do not".to_string()
    } else {
        format!(
            "say what this site does, e.g. with words of {}: {}",
            s.function.as_deref().unwrap_or("its function"),
            words.join(", ")
        )
    }
}

/// `readConfigFile` → read, config, file; `load_cache` → load, cache.
pub(crate) fn identifier_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The path with its platform suffixes removed: `a/x_linux_amd64.go` →
/// `a/x.go`.
fn platform_free(path: &str) -> String {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let mut stem = stem.to_string();
    while let Some((head, tail)) = stem.rsplit_once('_') {
        if !PLATFORM_SUFFIXES.contains(&tail.to_lowercase().as_str()) {
            break;
        }
        stem = head.to_string();
    }
    format!("{dir}/{stem}.{ext}")
}

/// Sites that declare a sentinel: a package-level `var ErrX = …`.
fn sentinel_sites<'a>(r: &Record, sites: &[&'a Site]) -> Vec<&'a Site> {
    sites
        .iter()
        .copied()
        .filter(|s| {
            r.language == Lang::Go
                && s.function.is_none()
                && s.error_class.is_some()
                && s.error_type == ErrorType::Exception
        })
        .collect()
}

fn duplicate_sentinel(r: &Record, sites: &[&Site], out: &mut Vec<Finding>) {
    let sentinels = sentinel_sites(r, sites);
    let mut by_package: BTreeMap<&str, Vec<&Site>> = BTreeMap::new();
    for s in &sentinels {
        let dir = s.file_path.rsplit_once('/').map_or("", |(d, _)| d);
        by_package.entry(dir).or_default().push(s);
    }
    if by_package.len() < 2 {
        return;
    }
    for s in &sentinels {
        let mut f = finding(
            "duplicate-sentinel",
            &s.file_path,
            s.line_number,
            format!(
                "sentinel {} = `{}` is declared with the same text in {} other package{}: errors.Is tells them apart but no log can; declare it once and import it, or say the package in its text",
                s.error_class.as_deref().unwrap_or("?"),
                r.message_pattern,
                by_package.len() - 1,
                if by_package.len() == 2 { "" } else { "s" }
            ),
        );
        f.related = sentinels
            .iter()
            .filter(|o| !std::ptr::eq(**o, *s))
            .map(|o| Place {
                file: o.file_path.clone(),
                line: o.line_number,
                note: Some(format!(
                    "also declared as {}",
                    o.error_class.as_deref().unwrap_or("?")
                )),
            })
            .collect();
        out.push(f);
    }
}

/// Proper nouns error strings may start with.
const PROPER_NOUNS: &[&str] = &[
    "Go",
    "Linux",
    "Windows",
    "Darwin",
    "Unix",
    "Docker",
    "Kubernetes",
    "Google",
    "Amazon",
    "Azure",
    "GitHub",
    "GitLab",
    "Git",
    "Mac",
    "Android",
    "Apple",
    "Microsoft",
    "Python",
    "Java",
    "Rust",
    "OpenSSL",
    "Postgres",
    "PostgreSQL",
    "MySQL",
    "Redis",
    "Etcd",
    "Raft",
    "Kafka",
    "Consul",
    "Vault",
    "Prometheus",
    "Helm",
    "Terraform",
    "I",
];

fn style(
    r: &Record,
    sites: &[&Site],
    declared: &dyn Fn(&str, &str) -> bool,
    out: &mut Vec<Finding>,
) {
    for s in sites {
        let Some(why) = style_problem(r, s) else {
            continue;
        };
        let first = r
            .message_pattern
            .split([' ', ':', ',', '.'])
            .next()
            .unwrap_or("");
        if why.starts_with("starts") && declared(&s.file_path, first) {
            continue; // a name of the code, as written there
        }
        out.push(finding(
            "style",
            &s.file_path,
            s.line_number,
            format!("error string `{}` {why}", r.message_pattern),
        ));
    }
}

/// What breaks the convention, for the error values of Go (`errors.New`,
/// `fmt.Errorf`: staticcheck ST1005) and Rust.
fn style_problem(r: &Record, s: &Site) -> Option<&'static str> {
    let applies = match r.language {
        Lang::Go => matches!(s.callee.as_str(), "errors.New" | "fmt.Errorf"),
        Lang::Rust => s.error_type == ErrorType::Exception,
        _ => false,
    };
    if !applies {
        return None;
    }
    let t = template(r, s);
    let first = match t.segments.first() {
        Some(Segment::Lit(l)) => l.as_str(),
        _ => "",
    };
    let last = match t.segments.last() {
        Some(Segment::Lit(l)) => l.as_str(),
        _ => "",
    };
    if capitalised(first) {
        return Some("starts with a capital letter; error strings are composed into longer messages, so start in lower case (unless with a proper noun or an acronym)");
    }
    if last.ends_with(['.', ':', '!', '\n']) && !last.ends_with("...") {
        return Some("ends with punctuation or a newline; error strings are composed into longer messages, so end without");
    }
    None
}

/// A first word in capitals that is not an acronym, an identifier or a
/// proper noun.
fn capitalised(text: &str) -> bool {
    let word = text.split_whitespace().next().unwrap_or("");
    let word = word.trim_end_matches([':', ',', ';']);
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first.is_uppercase()
        && chars.clone().count() > 0
        && chars.all(|c| c.is_lowercase())
        && !PROPER_NOUNS.contains(&word)
}

/// Words a value's name ends with when it holds a secret. Not
/// `credentials`: it names an identity (`domain\user`) as often as a
/// secret.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "authorization",
    "privatekey",
    "secretkey",
    "accesskey",
    "clientsecret",
];

/// Headers whose value is a secret.
const SECRET_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "cookie",
];

/// Words of a message about parsing, where `token` is the parser's.
const PARSER_WORDS: &[&str] = &[
    "unexpected",
    "expected",
    "expecting",
    "parse",
    "parsing",
    "syntax",
    "lexer",
    "scanner",
    "grammar",
    "character",
    "tokenize",
    "tokenizer",
];

/// Words of a message that prints a value derived from a secret (a hash,
/// a challenge response), not the secret.
const DERIVED_WORDS: &[&str] = &[
    "hash",
    "hashed",
    "digest",
    "md5",
    "sha1",
    "sha256",
    "sha512",
    "hmac",
    "fingerprint",
    "cram",
    "apop",
    "checksum",
];

fn leaks_secret(r: &Record, s: &Site, t: &Template, out: &mut Vec<Finding>) {
    // A line ending in CRLF is protocol text for a peer, not a message.
    if r.message_pattern.ends_with("\r\n") {
        return;
    }
    let text = literal(t).to_lowercase();
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
    if words.iter().any(|w| DERIVED_WORDS.contains(w)) {
        return;
    }
    let parser = words.iter().any(|w| PARSER_WORDS.contains(w));
    for seg in &t.segments {
        let Segment::Hole(h) = seg else { continue };
        let Some(arg) = h.arg.as_deref() else {
            continue;
        };
        if !matches!(h.kind, HoleKind::Any | HoleKind::Quoted | HoleKind::Hex) {
            continue; // a number, type or pointer prints no secret
        }
        let Some(word) = secret_in(arg) else { continue };
        if word == "token" && (parser || !about_auth(arg, &literal(t), &s.file_path)) {
            continue;
        }
        out.push(finding(
            "leaks-secret",
            &s.file_path,
            s.line_number,
            format!(
                "`{}` prints `{}`, a {word}: messages reach logs and bug reports; print what identifies it (a user, a key id, a name or length), not its value",
                r.message_pattern,
                crate::syntax::one_line(arg, 60)
            ),
        ));
    }
}

/// Words that make a `token` a credential rather than a parser's or a
/// lexer's token.
const AUTH_WORDS: &[&str] = &[
    "auth",
    "authn",
    "authz",
    "authenticate",
    "authentication",
    "authorization",
    "authorized",
    "access",
    "bearer",
    "refresh",
    "session",
    "jwt",
    "oauth",
    "oauth2",
    "csrf",
    "login",
    "api",
    "credential",
    "credentials",
    "password",
    "secret",
    "sso",
    "oidc",
    "saml",
];

/// Whether a `token` is a credential: its name, the message or the file
/// says so (`authToken`, `invalid auth token: %s`, `auth/jwt.go`).
fn about_auth(arg: &str, literal: &str, file: &str) -> bool {
    let words = identifier_words(arg)
        .into_iter()
        .chain(identifier_words(literal))
        .chain(identifier_words(file));
    words.into_iter().any(|w| AUTH_WORDS.contains(&w.as_str()))
}

/// The secret an argument holds, by its name: the last name of the
/// expression (`cfg.Password`, `authToken`, `api_key`), or a secret
/// header read by name (`r.Header.Get("Authorization")`).
pub(crate) fn secret_in(arg: &str) -> Option<&'static str> {
    let a = arg.trim();
    if a.contains("len(")
        || a.contains(".len()")
        || a.contains(".length")
        || a.contains("==")
        || a.contains("!=")
    {
        return None;
    }
    if let Some(lit) = a.split('"').nth(1) {
        let lit = lit.to_lowercase();
        return SECRET_HEADERS
            .iter()
            .find(|h| **h == lit)
            .map(|_| "secret header");
    }
    const READERS: &[&str] = &[
        "String",
        "Error",
        "Get",
        "Value",
        "str",
        "to_string",
        "ToString",
        "toString",
        "as_str",
        "value",
        "get",
        "unwrap",
        "clone",
        "expose_secret",
        "Reveal",
    ];
    let names: Vec<&str> = a
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .collect();
    let last = names.iter().rev().find(|n| !READERS.contains(n))?;
    if last.starts_with("Err") || last.starts_with("err") {
        return None; // an error value named after a secret
    }
    if last.len() > 1 && !last.chars().any(|c| c.is_lowercase()) {
        return None; // a constant: the name of a setting (`OPT_PASSWORD`)
    }
    let words = identifier_words(last);
    let one = words.last()?.as_str();
    let two = words
        .len()
        .checked_sub(2)
        .map(|i| format!("{}{}", words[i], words[i + 1]));
    SECRET_WORDS
        .iter()
        .find(|w| **w == one || two.as_deref() == Some(**w))
        .copied()
}

fn go_lost_cause(s: &Site, t: &Template, out: &mut Vec<Finding>) {
    if s.callee != "fmt.Errorf" {
        return;
    }
    let holes: Vec<_> = t
        .segments
        .iter()
        .filter_map(|seg| match seg {
            Segment::Hole(h) => Some(h),
            Segment::Lit(_) => None,
        })
        .collect();
    if holes.iter().any(|h| h.verb.ends_with('w')) {
        return;
    }
    let Some(h) = holes.iter().find(|h| {
        h.arg.as_deref().is_some_and(is_error_value)
            && matches!(h.verb.chars().last(), Some('v' | 's' | 'q'))
    }) else {
        return;
    };
    out.push(finding(
        "lost-cause",
        &s.file_path,
        s.line_number,
        format!(
            "`{}` formats the error `{}` with {}, so errors.Is and errors.As cannot reach it; wrap it with %w",
            t.segments
                .iter()
                .map(|seg| match seg {
                    Segment::Lit(l) => l.clone(),
                    Segment::Hole(h) => h.verb.clone(),
                })
                .collect::<String>(),
            h.arg.as_deref().unwrap_or("?"),
            h.verb
        ),
    ));
}
