//! Who calls the function a site sits in, by name: every `(` of every
//! file, with the identifier before it looked up among those functions.
//! A plain function `f` of package `p` counts as called by `f(` in its own
//! folder and by `p.f(` anywhere; a method `m` by `.m(`, and only when no
//! other type of the repository declares a method `m` (otherwise the name
//! says nothing about which one is called). The caller is the nearest
//! `func` line above the call (in Python, the nearest `def` whose block
//! the call is in). A `(` inside a string literal or a Python docstring is
//! no call. Declarations without sites are never parsed, so this reads
//! bytes, not trees.

use crate::cache::FactsCache;
use crate::folder;
use crate::walk::Candidate;
use errdex_lang::conventions::func_head;
use errdex_lang::FunctionHeads;
use errdex_model::{Lang, RawSite, MAX_CHECKS, TOO_COMMON_NAMES};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A call by name: which name, where, from which function, and what
/// qualifies it (`p` in `p.f(`; `Some("")` for any other `x.f(`).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Call {
    name: usize,
    lang: Lang,
    path: String,
    line: u32,
    caller: Option<String>,
    qualifier: Option<String>,
    /// The statement that stops the program with the call's error right
    /// after it (`panic(err.Error())`), as `path:line statement`.
    #[serde(default)]
    stops: Option<String>,
    /// The type the qualifier is declared with in the calling function's
    /// head (`Config` for `c.validate(` in `func newRaft(c *Config)`).
    #[serde(default)]
    qualifier_type: Option<String>,
}

/// What one file contributes: calls, and methods it declares
/// (`(name, type)`).
type FileScan = (Vec<Call>, Vec<(String, String)>);

/// The calls of `names` in one file.
fn scan_file(
    c: &Candidate,
    path: &str,
    text: &str,
    index: &HashMap<&str, usize>,
    names: &[String],
) -> Vec<Call> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let lang = c.lang.lang();
    let conventions = c.lang.conventions();
    let heads = conventions.heads;
    let python = lang == Lang::Python;
    let docstrings = if python { triple_quoted(b) } else { Vec::new() };
    let blocks = python.then(|| Blocks::of(text));
    let mut row = 0u32;
    let mut counted = 0usize;
    let mut caller: Option<String> = None;
    let mut caller_head = "";
    let mut caller_scanned = 0usize;
    // Every `(` with a known name right before it: a call by name.
    let calls = memchr::memchr_iter(b'(', b).filter_map(|paren| {
        let start = b[..paren]
            .iter()
            .rposition(|&c| !is_ident(c))
            .map_or(0, |p| p + 1);
        index.get(&text[start..paren]).map(|&i| (i, start))
    });
    for (name, start) in calls {
        let (line_start, line_end) = line_around(text, start);
        let line = &text[line_start..line_end];
        let not_code = |l: &str| heads.not_code().iter().any(|s| l.starts_with(s));
        let declared_here = heads.declared(line);
        if declared_here
            .as_deref()
            .is_some_and(|d| d.ends_with(&names[name]))
            || not_code(line.trim_start())
            || python && line.trim_start().starts_with("class ")
            || in_string(&b[line_start..start], python)
            || docstrings.iter().any(|&(a, z)| a <= start && start < z)
        {
            continue; // a declaration (`class E(Base):` too), a comment or text
        }
        // `x.f(`, and `x->f(`/`X::f(` in C++ and PHP.
        let sep = if start > 0 && b[start - 1] == b'.' {
            1
        } else if start > 1 && (&b[start - 2..start] == b"->" || &b[start - 2..start] == b"::") {
            2
        } else {
            0
        };
        let qualifier = (sep > 0).then(|| {
            let q_end = start - sep;
            let q_start = b[..q_end]
                .iter()
                .rposition(|&c| !is_ident(c))
                .map_or(0, |p| p + 1);
            text[q_start..q_end].to_string()
        });
        // The nearest declaration line above, found incrementally.
        let mut p = caller_scanned;
        if python {
            caller = blocks.as_ref().and_then(|bl| bl.caller(line_start, heads));
        } else if heads == FunctionHeads::Func {
            // Up to the call's own line: a one-line function
            // (`func header() error { return section("header") }`) calls
            // from its head.
            let head_end = (line_start + 5).min(b.len());
            while let Some(off) = memchr::memmem::find(&b[p..head_end], b"\nfunc ") {
                let s = p + off + 1;
                let e = memchr::memchr(b'\n', &b[s..]).map_or(b.len(), |q| s + q);
                caller = func_head(&text[s..e]);
                caller_head = &text[s..e];
                p = s;
            }
        } else {
            for l in text[p..line_start].lines() {
                if let Some(d) = heads.declared(l) {
                    caller = Some(d);
                }
            }
            if declared_here.is_some() {
                caller = declared_here;
            }
        }
        caller_scanned = line_start.max(caller_scanned);
        row += memchr::memchr_iter(b'\n', &b[counted..line_start]).count() as u32;
        counted = line_start;
        out.push(Call {
            name,
            lang,
            path: path.to_string(),
            line: row + 1,
            caller: caller.clone(),
            stops: stops_with_error(&text[line_start..], line)
                .map(|(k, s)| format!("{path}:{} {s}", row + 1 + k)),
            qualifier_type: qualifier
                .as_deref()
                .and_then(|q| declared_type(caller_head, q)),
            qualifier,
        });
    }
    out
}

/// The type `name` is declared with in a Go function head (`c` in `func
/// newRaft(c *Config)` or `func (c *Config) f()`: `Config`; a qualified
/// type by its last part).
fn declared_type(head: &str, name: &str) -> Option<String> {
    let b = head.as_bytes();
    head.match_indices(name).find_map(|(at, _)| {
        let before = at.checked_sub(1).map(|i| b[i]);
        let after = head[at + name.len()..].strip_prefix(' ')?;
        if !matches!(before, Some(b'(' | b' ' | b',')) {
            return None;
        }
        let ty = after.trim_start_matches('*');
        let end = ty
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(ty.len());
        let ty = ty[..end].rsplit('.').next()?;
        ty.starts_with(|c: char| c.is_alphabetic())
            .then(|| ty.to_string())
    })
}

/// Calls that stop the program.
const STOPS: &[&str] = &[
    "panic(",
    "log.Fatal",
    ".Fatal(",
    ".Fatalf(",
    ".Panic(",
    ".Panicf(",
    "os.Exit(",
    "sys.exit(",
    "process.exit(",
];

/// When the call on the first line of `from` takes an error (`if err :=
/// c.validate(); err != nil {`) and one of the next two lines stops the
/// program with it (`panic(err.Error())`): that line's offset and
/// statement.
fn stops_with_error<'t>(from: &'t str, call_line: &str) -> Option<(u32, &'t str)> {
    let takes_error = |l: &str| l.contains("err") || l.contains("except");
    if !takes_error(call_line) {
        return None;
    }
    from.lines().enumerate().skip(1).take(2).find_map(|(k, l)| {
        let l = l.trim();
        // A test's `t.Fatal` ends the test, not the program.
        let test = l.starts_with("t.") || l.starts_with("b.");
        (!test && STOPS.iter().any(|s| l.contains(s)) && l.contains("err")).then_some((k as u32, l))
    })
}

/// Whether a variable name `q` reads like type `t` (`store` and `Store`,
/// `srv` and `Server`, `wal` and `WAL`).
fn named_like(q: &str, t: &str) -> bool {
    let (q, t) = (q.to_ascii_lowercase(), t.to_ascii_lowercase());
    q.len() >= 3 && (t.contains(&q) || q.contains(&t))
}

/// Bytes of a call's line read on each side of it: a minified file is one
/// line of megabytes, and reading all of it for each call is quadratic.
const LINE_WINDOW: usize = 2048;

/// The line around byte `at` (without its newline), at most
/// [`LINE_WINDOW`] bytes on each side, cut at character boundaries.
fn line_around(text: &str, at: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let mut from = at.saturating_sub(LINE_WINDOW);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let mut to = (at + LINE_WINDOW).min(b.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    let start = memchr::memrchr(b'\n', &b[from..at]).map_or(from, |p| from + p + 1);
    let end = memchr::memchr(b'\n', &b[at..to]).map_or(to, |p| at + p);
    (start, end)
}

/// What a file offers the callers pass whatever is searched: the names it
/// calls (each identifier right before a `(`, as its [`name_hash`]) and
/// the methods it declares. Kept by blob alone, so a file's scan is redone
/// only when it calls a name whose searching changed, not whenever any
/// name did. Hashes, not names: every file's index is read on every run,
/// and a hash that two names share only costs a scan that finds nothing.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct CallIndex {
    called: Vec<u64>,
    methods: Vec<(String, String)>,
}

/// A name's 64-bit FNV-1a hash: the same in every run and build.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl CallIndex {
    fn of(c: &Candidate, text: &str) -> CallIndex {
        let b = text.as_bytes();
        let called: std::collections::BTreeSet<&str> = memchr::memchr_iter(b'(', b)
            .map(|paren| {
                let start = b[..paren]
                    .iter()
                    .rposition(|&c| !is_ident(c))
                    .map_or(0, |p| p + 1);
                &text[start..paren]
            })
            .filter(|n| n.len() >= 3)
            .collect();
        let methods = if c.lang.lang() == Lang::Python {
            python_methods(text)
        } else {
            go_methods(text)
        };
        CallIndex {
            called: called.into_iter().map(name_hash).collect(),
            methods,
        }
    }
}

/// The calls of `names` in one file (indexes into `names`) and the
/// methods it declares, from the cache where it has them: the file's
/// [`CallIndex`] by blob, then its scan by blob and the searched names
/// it calls.
fn file_calls(
    c: &Candidate,
    path: &str,
    source: &crate::source::Source,
    cache: Option<&FactsCache>,
    index: &HashMap<u64, Vec<usize>>,
    names: &[String],
) -> FileScan {
    let cached = |kind: &str, extra: &str| {
        cache
            .zip(c.content_id())
            .map(|(cache, b)| (cache, cache.key(kind, path, b.as_bytes(), extra)))
    };
    let mut text: Option<String> = None;
    let calls_key = cached("calls-index", "");
    let call_index: Arc<CallIndex> = match calls_key
        .as_ref()
        .and_then(|(cache, k)| cache.get_shared(k))
    {
        Some(hit) => hit,
        None => {
            let found = CallIndex::of(c, text.get_or_insert_with(|| source.text(&c.rel)));
            if let Some((cache, k)) = &calls_key {
                cache.put(*k, &found);
            }
            Arc::new(found)
        }
    };
    // The searched names this file calls, in the global order.
    let mut wanted: Vec<usize> = call_index
        .called
        .iter()
        .filter_map(|n| index.get(n))
        .flatten()
        .copied()
        .collect();
    wanted.sort_unstable();
    if wanted.is_empty() {
        return (Vec::new(), call_index.methods.clone());
    }
    let local: Vec<String> = wanted.iter().map(|&i| names[i].clone()).collect();
    let scan_key = cached("callers", &local.join("\n"));
    let mut calls: Vec<Call> = match scan_key.as_ref().and_then(|(cache, k)| cache.get(k)) {
        Some(hit) => hit,
        None => {
            let local_index: HashMap<&str, usize> = local
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i))
                .collect();
            let text = text.get_or_insert_with(|| source.text(&c.rel));
            let found = scan_file(c, path, text, &local_index, &local);
            if let Some((cache, k)) = &scan_key {
                cache.put(*k, &found);
            }
            found
        }
    };
    for call in &mut calls {
        call.name = wanted[call.name];
    }
    (calls, call_index.methods.clone())
}

/// Sets `facts.callers` of every site whose function is called somewhere.
pub(crate) fn attach_callers(
    sites: &mut [RawSite],
    files: &[(&Candidate, String)],
    source: &crate::source::Source,
    cache: Option<&FactsCache>,
) {
    let mut names: Vec<String> = sites
        .iter()
        .filter_map(|s| Some(searched(s.function.as_deref()?, s.lang)?.1))
        .filter(|name| name.len() >= 3 && !TOO_COMMON_NAMES.contains(&name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return;
    }
    let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, n) in names.iter().enumerate() {
        index.entry(name_hash(n)).or_default().push(i);
    }
    let scans: Vec<FileScan> = files
        .par_iter()
        .map(|(c, path)| file_calls(c, path, source, cache, &index, &names))
        .collect();

    let mut method_types: HashMap<String, Vec<String>> = HashMap::new();
    for (_, methods) in &scans {
        for (m, t) in methods {
            let types = method_types.entry(m.clone()).or_default();
            if !types.contains(t) {
                types.push(t.clone());
            }
        }
    }
    let found: Vec<&Call> = scans.iter().flat_map(|(calls, _)| calls).collect();
    let mut by_name: HashMap<&str, Vec<&Call>> = HashMap::new();
    for f in found {
        by_name.entry(names[f.name].as_str()).or_default().push(f);
    }
    for list in by_name.values_mut() {
        list.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    }
    // Sites of one function share their callers: work them out once
    // (generated code has thousands of sites in a few functions), each
    // function on its own thread.
    let mut first: HashMap<SiteKey, usize> = HashMap::new();
    for (i, site) in sites.iter().enumerate() {
        if let Some(key) = site_key(site) {
            first.entry(key).or_insert(i);
        }
    }
    let lookup = Lookup {
        by_name: &by_name,
        method_types: &method_types,
    };
    let known: HashMap<SiteKey, Known> = first
        .into_par_iter()
        .filter_map(|(key, i)| Some((key, lookup.callers_of(&sites[i])?)))
        .collect();
    for site in sites {
        if let Some((callers, stops)) = site_key(site).and_then(|k| known.get(&k)) {
            site.facts.callers = callers.clone();
            site.facts.callers_stop = stops.clone();
        }
    }
}

/// Whether call `c` is made in a method of class `t` (`self.m(` there
/// calls `t`'s own `m`).
fn in_class(c: &Call, t: &str) -> bool {
    c.caller
        .as_deref()
        .and_then(|f| f.rsplit_once('.'))
        .is_some_and(|(class, _)| class.rsplit('.').next() == Some(t))
}

/// Sites that share their callers: (function, package, folder).
type SiteKey = (String, String, String);

/// A function's callers, and the statement they all stop the program
/// with, if they do.
type Known = (Vec<String>, Option<String>);

fn site_key(site: &RawSite) -> Option<SiteKey> {
    Some((
        site.function.clone()?,
        site.facts.package.clone().unwrap_or_default(),
        folder(&site.file_path).to_string(),
    ))
}

/// The repository's calls by name, and the types that declare each
/// method name.
struct Lookup<'a> {
    by_name: &'a HashMap<&'a str, Vec<&'a Call>>,
    method_types: &'a HashMap<String, Vec<String>>,
}

impl Lookup<'_> {
    /// The callers of the function `site` is in (`None`: it is called by
    /// the runtime, or its name is called nowhere).
    fn callers_of(&self, site: &RawSite) -> Option<Known> {
        let f = site.function.as_deref()?;
        // Called by the runtime (`__str__`), not by name: none.
        let (receiver, name) = searched(f, site.lang)?;
        let name = name.as_str();
        // A constructor is called by its class name.
        let constructor = receiver == Some(name);
        let shared = self.method_types.get(name).is_some_and(|t| t.len() > 1);
        // Declared on several types, the name alone is ambiguous: only a
        // call on a value the caller declares with the type counts.
        let typed_only = !constructor && receiver.is_some() && shared;
        let package = site.facts.package.as_deref().unwrap_or_default();
        let here = folder(&site.file_path);
        // A one-word method name (`Build`, `Unmarshal`) is shared by
        // interfaces and other modules' types: `.Build(` counts only when
        // the value it is called on is named like the type
        // (`store.Reserve(` for `Store.Reserve`).
        let distinctive = name.chars().skip(1).any(|c| c.is_ascii_uppercase());
        let go = errdex_lang::language(site.lang)
            .conventions()
            .heads
            .scoped_by_package();
        let python = site.lang == Lang::Python;
        let calls_it = |c: &&&Call| match (receiver, c.qualifier.as_deref()) {
            _ if c.lang != site.lang => false,
            (Some(t), _) if typed_only => {
                c.qualifier_type.as_deref() == Some(t)
                    || python
                        && matches!(c.qualifier.as_deref(), Some("self" | "cls"))
                        && in_class(c, t)
            }
            (Some(_), q) if constructor => !matches!(q, Some("self" | "cls")),
            // A Python method is called on a value: `self.m(` in its own
            // file, `store.m(` on a value named like its class, or any
            // `x.m(` of a name no other class declares that says something.
            (Some(t), Some(q)) if python => {
                (matches!(q, "self" | "cls") && c.path == site.file_path && in_class(c, t))
                    || named_like(q, t)
                    || (name.len() >= 5 && name.trim_start_matches('_').contains('_'))
            }
            // A nested function, by the function around it.
            (Some(t), None) if python => t.strip_suffix(".<locals>").is_some_and(|outer| {
                let outer = outer.rsplit('.').next().unwrap_or(outer);
                c.path == site.file_path
                    && c.caller.as_deref().and_then(|f| f.rsplit('.').next()) == Some(outer)
            }),
            // Elsewhere packages are not folders and methods are not
            // declared apart from their class: a name long enough to say
            // something counts wherever it is called in the language.
            (Some(_), Some(_)) if !go => name.len() >= 5,
            (None, _) if !go => name.len() >= 5,
            (Some(_), None) if !go => name.len() >= 5 && folder(&c.path) == here,
            (Some(_), None) => false,
            (Some(_), Some(_)) if distinctive => true,
            (Some(t), Some(q)) => named_like(q, t) || c.qualifier_type.as_deref() == Some(t),
            (None, None) => folder(&c.path) == here,
            (None, Some(q)) => q == package,
        };
        let calls: Vec<&&Call> = self
            .by_name
            .get(name)?
            .iter()
            .filter(calls_it)
            .filter(|c| c.caller.as_deref() != Some(f)) // recursion is no caller
            .collect();
        let callers = calls
            .iter()
            .take(MAX_CHECKS)
            .map(|c| match &c.caller {
                Some(caller) => format!("{}:{} {caller}", c.path, c.line),
                None => format!("{}:{}", c.path, c.line),
            })
            .collect();
        // Every caller stops the program with the error: users meet a
        // panic or an exit, never the error itself.
        let all_stop = !calls.is_empty() && calls.iter().all(|c| c.stops.is_some());
        let stops = calls
            .first()
            .and_then(|c| c.stops.clone())
            .filter(|_| all_stop);
        Some((callers, stops))
    }
}

/// What the callers of `function` call by name: `(receiver, name)`. A
/// Python constructor (`T.__init__`) is called as `T(`; so is, for what
/// it prints, the method that gives an exception its text (`T.__str__`
/// runs on the `T(…)` raised); other special methods (`__next__`) are
/// called by the runtime, not by name.
fn searched(function: &str, lang: Lang) -> Option<(Option<&str>, String)> {
    let (receiver, name) = match function.rsplit_once('.') {
        Some((t, m)) => (Some(t), m),
        None => (None, function),
    };
    let dunder = name.len() > 4 && name.starts_with("__") && name.ends_with("__");
    match receiver {
        Some(t) if lang == Lang::Python && matches!(name, "__init__" | "__str__") => {
            let class = t.rsplit('.').next().unwrap_or(t);
            Some((Some(class), class.to_string()))
        }
        _ if lang == Lang::Python && dunder => None,
        _ => Some((receiver, name.to_string())),
    }
}

/// Go methods a file declares: `(name, type)`.
fn go_methods(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| l.starts_with("func ("))
        .filter_map(func_head)
        .filter_map(|d| {
            d.split_once('.')
                .map(|(t, m)| (m.to_string(), t.to_string()))
        })
        .collect()
}

/// Python methods a file declares (a `def` taking `self` or `cls` under
/// a column-0 `class`): `(name, class)`.
fn python_methods(text: &str) -> Vec<(String, String)> {
    let mut class: Option<&str> = None;
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, &line) in lines.iter().enumerate() {
        if let Some(rest) = line.strip_prefix("class ") {
            class = rest
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next();
            continue;
        }
        let body = line.trim_start();
        let Some(rest) = body
            .strip_prefix("def ")
            .or_else(|| body.strip_prefix("async def "))
        else {
            continue;
        };
        let Some((name, params)) = rest.split_once('(') else {
            continue;
        };
        // A head written over several lines has its first parameter on
        // the next.
        let first = match params.trim() {
            "" => lines.get(i + 1).map_or("", |l| l.trim_start()),
            p => p,
        };
        let method = first.starts_with("self") || first.starts_with("cls");
        if let Some(c) = class.filter(|_| method && body.len() < line.len()) {
            out.push((name.trim().to_string(), c.to_string()));
        }
    }
    out
}

/// Byte spans of Python's triple-quoted strings (docstrings, long
/// constants), opening quotes to closing ones.
fn triple_quoted(b: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i + 3 <= b.len() {
        let q = &b[i..i + 3];
        if q == b"\"\"\"" || q == b"'''" {
            let close = memchr::memmem::find(&b[i + 3..], q).map_or(b.len(), |p| i + 3 + p + 3);
            spans.push((i, close));
            i = close;
        } else if b[i] == b'#' {
            // A comment runs to the end of its line; its quotes open nothing.
            i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p);
        } else if b[i] == b'"' || b[i] == b'\'' {
            // A one-line string: its quotes open no triple-quoted one.
            let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p);
            i = b[i + 1..end]
                .iter()
                .position(|&c| c == b[i])
                .map_or(end, |p| i + 1 + p + 1);
        } else {
            i += 1;
        }
    }
    spans
}

/// Whether a line that starts with `before` is inside a string literal
/// there: a `"` (and, in Python, a `'`) opened and not closed.
fn in_string(before: &[u8], python: bool) -> bool {
    let mut open: Option<u8> = None;
    let mut escaped = false;
    for &c in before {
        match open {
            _ if escaped => escaped = false,
            Some(_) if c == b'\\' => escaped = true,
            Some(q) if c == q => open = None,
            None if c == b'"' || (python && c == b'\'') => open = Some(c),
            _ => {}
        }
    }
    open.is_some()
}

/// Python's blocks, for the function a line is in: each line and the
/// nearest line above it that opens its block (less indented, not blank,
/// a comment or a closing bracket), found in one pass so that a call in a
/// long class does not walk back over the class.
struct Blocks<'a> {
    lines: Vec<&'a str>,
    starts: Vec<usize>,
    opener: Vec<Option<usize>>,
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

impl<'a> Blocks<'a> {
    fn of(text: &'a str) -> Blocks<'a> {
        let (mut lines, mut starts) = (Vec::new(), Vec::new());
        let mut at = 0;
        for l in text.split('\n') {
            starts.push(at);
            lines.push(l.strip_suffix('\r').unwrap_or(l));
            at += l.len() + 1;
        }
        let mut opener = Vec::with_capacity(lines.len());
        // Lines that open blocks, less indented from bottom to top.
        let mut open: Vec<usize> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let depth = indent(l);
            opener.push(
                open.iter()
                    .rev()
                    .find(|&&k| indent(lines[k]) < depth)
                    .copied(),
            );
            let t = l.trim_start();
            // A closing bracket ends a header or call written over several
            // lines (`) -> Response:`): it opens no block.
            if !(t.is_empty() || t.starts_with(['#', ')', ']', '}'])) {
                while open.last().is_some_and(|&k| indent(lines[k]) >= depth) {
                    open.pop();
                }
                open.push(i);
            }
        }
        Blocks {
            lines,
            starts,
            opener,
        }
    }

    /// The function (`Class.method` for a method) the line holding byte
    /// `at` is in.
    fn caller(&self, at: usize, heads: FunctionHeads) -> Option<String> {
        let line = self.starts.partition_point(|&s| s <= at).saturating_sub(1);
        let mut function: Option<String> = None;
        let mut next = self.opener.get(line).copied().flatten();
        while let Some(k) = next {
            let l = self.lines[k];
            let t = l.trim_start();
            let depth = indent(l);
            match (&function, heads.declared(l)) {
                (None, Some(d)) => function = Some(d),
                (Some(f), _) if t.starts_with("class ") => {
                    let class = t["class ".len()..]
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or_default();
                    return Some(format!("{class}.{f}"));
                }
                (Some(_), Some(_)) => break, // a nested function's caller
                (None, None) if depth == 0 => return None,
                _ => {}
            }
            if depth == 0 {
                break;
            }
            next = self.opener[k];
        }
        function
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_line_is_in_the_function_and_class_that_hold_it() {
        let text = "import x\n\nclass Store:\n    def get(self, k):\n        if k:\n            return load(\n                k,\n            )\n        # comment\n\n        return find(k)\n\n    def put(self):\n        def inner():\n            save()\n        inner()\n\ndef top():\n    run()\n\nrun()\n";
        let b = Blocks::of(text);
        let heads = errdex_lang::language(Lang::Python).conventions().heads;
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(b.caller(at("load("), heads).as_deref(), Some("Store.get"));
        assert_eq!(b.caller(at("find("), heads).as_deref(), Some("Store.get"));
        assert_eq!(b.caller(at("save("), heads).as_deref(), Some("inner"));
        assert_eq!(
            b.caller(at("inner()\n\ndef"), heads).as_deref(),
            Some("Store.put")
        );
        assert_eq!(b.caller(at("run()\n\nrun"), heads).as_deref(), Some("top"));
        assert_eq!(b.caller(text.rfind("run()").unwrap(), heads), None);
    }

    #[test]
    fn a_qualifier_takes_its_type_from_the_function_head() {
        let head = "func newRaft(c *Config, s raft.Storage) *raft {";
        assert_eq!(declared_type(head, "c").as_deref(), Some("Config"));
        assert_eq!(declared_type(head, "s").as_deref(), Some("Storage"));
        assert_eq!(
            declared_type("func (r *raft) step(m pb.Message) {", "r").as_deref(),
            Some("raft")
        );
        assert_eq!(declared_type(head, "x"), None);
    }

    #[test]
    fn a_call_whose_error_stops_the_program_says_with_what() {
        let text = "\tif err := c.validate(); err != nil {\n\t\tpanic(err.Error())\n\t}\n";
        let line = text.lines().next().unwrap();
        assert_eq!(
            stops_with_error(text, line),
            Some((1, "panic(err.Error())"))
        );
        let handled =
            "\tif err := c.validate(); err != nil {\n\t\treturn err\n\t}\n\tpanic(\"x\")\n";
        assert_eq!(
            stops_with_error(handled, handled.lines().next().unwrap()),
            None
        );
        let no_error = "\tc.validate()\n\tpanic(err)\n";
        assert_eq!(stops_with_error(no_error, "\tc.validate()"), None);
    }

    #[test]
    fn a_line_is_read_around_a_call_as_far_as_the_window() {
        let text = "a\nlet x = f(1);\nb";
        let at = text.find("f(").unwrap();
        let (s, e) = line_around(text, at);
        assert_eq!(&text[s..e], "let x = f(1);");
        let long = format!("{}f(1){}", "é".repeat(5000), "z".repeat(9000));
        let at = long.find("f(").unwrap();
        let (s, e) = line_around(&long, at);
        assert!(long[s..e].contains("f(1)") && e - s <= 2 * LINE_WINDOW);
    }
}
