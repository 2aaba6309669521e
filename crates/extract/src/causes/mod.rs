//! The cause graph: where the error a site wraps comes from. A site that
//! wraps the error of a call (`readiness, err := serveReadiness(ctx)` then
//! `fmt.Errorf("serving readiness probe: %w", err)`) has that call
//! resolved — a function of its package, of an imported package of the
//! repository, a method of its own receiver's type; never a name alone —
//! and followed: the sites that function returns are causes, the calls
//! whose error it hands up as it is are followed in turn, and a
//! standard-library call ends the path at the knowledge base's entries
//! for it (`net.Listen` → `address already in use`). Values the code fixes
//! (a port from a constant) are worked out along the path.
//!
//! Go only ([`errdex_lang::LanguageSupport::flows`]). Files are read and
//! parsed only when a path reaches a function they declare.

mod repo;
mod translated;

use crate::cache::FactsCache;
use crate::source::Source;
use crate::walk::Candidate;
use crate::{folder, names_site};
use errdex_lang::{language, CallFlow, ErrorCheck, FunctionFlow};
use errdex_model::{Cause, Lang, Record};
use rayon::prelude::*;
use repo::{imports, is_standard, FnKey, GoFile, GoRepo};
use std::collections::{HashMap, HashSet};

/// Calls followed from a site, at most.
const MAX_DEPTH: usize = 6;
/// Causes kept per record.
const MAX_CAUSES: usize = 12;
/// Causes collected per record before the nearest are kept: the walk is
/// depth first.
const MAX_FOUND: usize = 4 * MAX_CAUSES;

/// A site of the repository as the walk needs it.
struct SiteRef {
    record_id: String,
    pattern: String,
    file: String,
    line: u32,
    function: Option<String>,
    /// The call whose error the message carries: a returned site hands
    /// its causes up.
    wrapped: Option<String>,
    /// The call whose failure the site reports, carried or not
    /// (`if _, err := parseWALName(name); err != nil { lg.Warn(…) }`):
    /// the record's own causes start there.
    failed: Option<String>,
    returned: bool,
    signature: Option<String>,
    /// The condition it is returned under.
    when: Option<String>,
    /// The code's comment on it.
    comment: Option<String>,
    /// For a sentinel returned, its name (`ErrCompacted`).
    sentinel: Option<String>,
}

/// The sites of `records`, then the places that return a sentinel
/// (`return nil, ErrCompacted`) as sites of the sentinel's record in the
/// function they are in: a call of that function fails with it.
fn site_refs(records: &[Record], returns: &[ErrorCheck]) -> Vec<SiteRef> {
    let mut out = own_sites(records);
    let mut by_name: HashMap<&str, Vec<&ErrorCheck>> = HashMap::new();
    for c in returns.iter().filter(|c| c.function.is_some()) {
        by_name.entry(c.name.as_str()).or_default().push(c);
    }
    for r in records {
        for s in &r.sites {
            let Some(found) = s.error_class.as_deref().and_then(|c| by_name.get(c)) else {
                continue;
            };
            let package = s.facts.package.as_deref();
            for c in found
                .iter()
                .filter(|c| names_site(c, package, &s.file_path))
            {
                out.push(SiteRef {
                    record_id: r.id.clone(),
                    pattern: r.message_pattern.clone(),
                    file: c.file_path.clone(),
                    line: c.line_number,
                    function: c.function.clone(),
                    wrapped: None,
                    // `if err := f(); err != nil { return ErrX }`: ErrX
                    // stands for f's failure, whose text it does not carry.
                    failed: c.failed.clone(),
                    returned: true,
                    signature: None,
                    // A `case` says its condition only with its `switch`.
                    when: c.guard.clone().filter(|g| !g.starts_with("case ")),
                    comment: s.facts.comment.clone(),
                    sentinel: Some(c.name.clone()),
                });
            }
        }
    }
    out
}

/// The records' own sites.
fn own_sites(records: &[Record]) -> Vec<SiteRef> {
    records
        .iter()
        .flat_map(|r| {
            r.sites.iter().map(|s| SiteRef {
                record_id: r.id.clone(),
                pattern: r.message_pattern.clone(),
                file: s.file_path.clone(),
                line: s.line_number,
                function: s.function.clone(),
                // A call whose error the message does not carry leads to
                // no cause a reader sees: its text never reaches the log.
                wrapped: s.facts.wrapped_call.clone().filter(|_| carries_error(r, s)),
                failed: s.facts.wrapped_call.clone(),
                returned: s.facts.returned,
                signature: s.facts.signature.clone(),
                when: s
                    .facts
                    .guards
                    .first()
                    .filter(|g| !g.ends_with("nil"))
                    .cloned(),
                comment: s.facts.comment.clone(),
                sentinel: None,
            })
        })
        .collect()
}

/// Whether the message of `site` carries another error (a chain hole:
/// `%w`, an error value in `%v`), or the site hands one on as it is.
fn carries_error(r: &Record, site: &errdex_model::Site) -> bool {
    let template =
        errdex_lang::language(r.language).template(&r.message_pattern, &site.args, &site.callee);
    template
        .segments
        .iter()
        .any(|seg| matches!(seg, errdex_model::Segment::Hole(h) if h.chain))
}

/// Sets every record's `causes`.
pub(crate) fn attach_causes(
    records: &mut [Record],
    returns: &[ErrorCheck],
    files: &[(&Candidate, String)],
    source: &Source,
    cache: Option<&FactsCache>,
) {
    let repo = GoRepo::new(files, source, cache);
    if repo.files.is_empty() {
        return;
    }
    let sites = site_refs(records, returns);
    // The sites a function returns, by folder and function.
    let mut returned: HashMap<(&str, &str), Vec<&SiteRef>> = HashMap::new();
    for s in sites.iter().filter(|s| s.returned) {
        if let Some(f) = &s.function {
            returned
                .entry((folder(&s.file), f.as_str()))
                .or_default()
                .push(s);
        }
    }
    let graph = Graph {
        repo: &repo,
        returned: &returned,
    };
    let mut by_record: HashMap<&str, Vec<&SiteRef>> = HashMap::new();
    for s in &sites {
        by_record.entry(s.record_id.as_str()).or_default().push(s);
    }
    let causes: Vec<Vec<Cause>> = records
        .par_iter()
        .map(|r| {
            let mut w = Walk::default();
            for s in by_record.get(r.id.as_str()).into_iter().flatten() {
                graph.follow_site(s, &mut w);
            }
            w.causes
                .retain(|c| c.record_id.as_deref() != Some(r.id.as_str()));
            // Nearest first; of one depth, in the order found (a call's
            // knowledge-base entries most likely first).
            w.causes.sort_by_key(|c| c.path.len());
            w.causes.truncate(MAX_CAUSES);
            w.causes
        })
        .collect();
    let never: Vec<Option<String>> = sites.par_iter().map(|s| graph.never_fails(s)).collect();
    let mut never = never.into_iter();
    let translations: Vec<&ErrorCheck> = returns.iter().filter(|c| c.how == "translates").collect();
    let mut translated = translated::causes(records, &translations, &sites);
    for (r, c) in records.iter_mut().zip(causes) {
        r.causes = c;
        if r.causes.is_empty() {
            r.causes = translated.remove(&r.id).unwrap_or_default();
        }
        for site in &mut r.sites {
            site.facts.wrapped_never_fails = never.next().flatten();
        }
    }
}

struct Graph<'g, 'a> {
    repo: &'g GoRepo<'a>,
    returned: &'g HashMap<(&'g str, &'g str), Vec<&'g SiteRef>>,
}

/// Where a call leads.
enum Target {
    /// A function of the repository: its folder and key.
    Func(String, FnKey),
    /// A standard-library function: import path and name (`net.Listen`).
    Std(String),
    /// The methods of an interface's implementations in its package
    /// (`tw.s.le.Attach` on a `lease.Lessor` field: `lessor.Attach`).
    Methods(Vec<(String, FnKey)>),
}

/// A function on the path, for working out values: its file, key and the
/// call it makes into the next one.
#[derive(Clone)]
struct Frame {
    file: usize,
    key: FnKey,
    call: CallRef,
}

/// A call as the walk knows it before its file is parsed: the callee text
/// and where.
#[derive(Clone)]
enum CallRef {
    /// The call a site at this line wraps.
    Wrapped(String, u32),
    /// A call handed up as it is, already read.
    Passed(CallFlow),
}

#[derive(Default)]
struct Walk {
    causes: Vec<Cause>,
    /// Functions entered, with the sentinel the path lets through and
    /// whether the walk keeps the repository's sites only.
    seen: HashSet<(String, FnKey, Option<String>, bool)>,
    /// The one sentinel a call on the path hands up
    /// (`if err == ErrCompacted { return nil, err }`): the causes below
    /// are that sentinel's returns only.
    only: Option<String>,
    /// The walk starts at a message that does not carry the failed
    /// call's error: the runtime's text never reaches its log line, so
    /// only the repository's own sites say why the call failed.
    own_only: bool,
}

impl Walk {
    /// Whether function `key` of folder `dir` is entered for the first
    /// time on a walk like this one (the same sentinel let through, the
    /// same kind of causes kept).
    fn enters(&mut self, dir: &str, key: &FnKey) -> bool {
        self.seen.insert((
            dir.to_string(),
            key.clone(),
            self.only.clone(),
            self.own_only,
        ))
    }

    fn push(&mut self, c: Cause) {
        let same = |o: &Cause| o.record_id == c.record_id && o.knowledge == c.knowledge;
        if !self.causes.iter().any(same) {
            self.causes.push(c);
        }
    }
}

impl Graph<'_, '_> {
    fn follow_site(&self, s: &SiteRef, w: &mut Walk) {
        let (Some(wrapped), Some(function)) = (&s.failed, &s.function) else {
            return;
        };
        let Some(&file) = self.repo.by_rel.get(s.file.as_str()) else {
            return;
        };
        let frame = Frame {
            file,
            key: FnKey::of_site(function),
            call: CallRef::Wrapped(wrapped.clone(), s.line),
        };
        let receiver_name = s.signature.as_deref().and_then(receiver_name);
        w.own_only = s.wrapped.is_none();
        self.follow(wrapped, receiver_name.as_deref(), &mut vec![frame], w);
    }

    /// The function a site's wrapped call resolves to, as `path:line
    /// Type.name`, when it never returns an error.
    fn never_fails(&self, s: &SiteRef) -> Option<String> {
        let (wrapped, function) = (s.wrapped.as_ref()?, s.function.as_ref()?);
        let &file = self.repo.by_rel.get(s.file.as_str())?;
        let receiver_name = s.signature.as_deref().and_then(receiver_name);
        let key = FnKey::of_site(function);
        let target = self.resolve(
            wrapped,
            &self.repo.files[file],
            &key,
            receiver_name.as_deref(),
        );
        let Some(Target::Func(dir, key)) = target else {
            return None;
        };
        let (at, flow) = self.repo.find(&dir, &key)?;
        let name = match &flow.receiver {
            Some(t) => format!("{t}.{}", flow.name),
            None => flow.name.clone(),
        };
        flow.never_fails
            .then(|| format!("{}:{} {name}", self.repo.files[at].rel, flow.line))
    }

    /// Follows the call `callee` made by the last frame.
    fn follow(
        &self,
        callee: &str,
        receiver_name: Option<&str>,
        frames: &mut Vec<Frame>,
        w: &mut Walk,
    ) {
        if frames.len() > MAX_DEPTH || w.causes.len() >= MAX_FOUND {
            return;
        }
        let Some(last) = frames.last() else { return };
        let file = &self.repo.files[last.file];
        let Some(target) = self.resolve(callee, file, &last.key, receiver_name) else {
            return;
        };
        let mut path: Vec<String> = frames.iter().map(|f| callee_of(&f.call)).collect();
        match target {
            // A runtime error is never one of the repository's sentinels.
            Target::Std(_) if w.only.is_some() || w.own_only => {}
            Target::Std(name) => {
                // The standard-library call by its import path
                // (`net/http.Get`), as the knowledge base names it.
                if let Some(last) = path.last_mut() {
                    last.clone_from(&name);
                }
                let line = match &last.call {
                    CallRef::Wrapped(_, line) => *line,
                    CallRef::Passed(c) => c.line,
                };
                let call = self.call_of(frames.len() - 1, frames);
                let values = self.values(call.as_ref(), frames);
                let args = call.map(|c| c.args).unwrap_or_default();
                for e in errdex_kb::causes_of_call("go", &name, &args) {
                    w.push(Cause {
                        message_pattern: kb_text(e, &name),
                        record_id: None,
                        knowledge: Some(e.key.clone()),
                        file_path: file.rel.to_string(),
                        line_number: line,
                        path: path.clone(),
                        values: values.clone(),
                        when: None,
                        comment: None,
                        translated_at: None,
                    });
                }
            }
            Target::Func(target_dir, key) => {
                if w.enters(&target_dir, &key) {
                    self.enter_function(&target_dir, &key, path, frames, w);
                }
            }
            Target::Methods(methods) => {
                for (target_dir, key) in methods {
                    if w.enters(&target_dir, &key) {
                        self.enter_function(&target_dir, &key, path.clone(), frames, w);
                    }
                }
            }
        }
    }

    /// The sites a reached function returns, then the calls it hands up.
    fn enter_function(
        &self,
        dir: &str,
        key: &FnKey,
        path: Vec<String>,
        frames: &mut Vec<Frame>,
        w: &mut Walk,
    ) {
        let name = key.site_name();
        let only = w.only.clone();
        for s in self
            .returned
            .get(&(dir, name.as_str()))
            .into_iter()
            .flatten()
            .filter(|s| only.is_none() || s.sentinel == only)
        {
            w.push(Cause {
                message_pattern: s.pattern.clone(),
                record_id: Some(s.record_id.clone()),
                knowledge: None,
                file_path: s.file.clone(),
                line_number: s.line,
                path: path.clone(),
                values: Vec::new(),
                when: s.when.clone(),
                comment: s.comment.clone(),
                translated_at: None,
            });
        }
        let Some((file, flow)) = self.repo.find(dir, key) else {
            return;
        };
        for s in self
            .returned
            .get(&(dir, name.as_str()))
            .into_iter()
            .flatten()
            .filter(|_| only.is_none())
        {
            if let Some(wrapped) = &s.wrapped {
                let call = CallRef::Wrapped(wrapped.clone(), s.line);
                self.step(file, key, call, wrapped, flow, frames, w);
            }
        }
        for pass in &flow.passes {
            let call = CallRef::Passed(pass.clone());
            self.step(file, key, call, &pass.callee, flow, frames, w);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        file: usize,
        key: &FnKey,
        call: CallRef,
        callee: &str,
        flow: &FunctionFlow,
        frames: &mut Vec<Frame>,
        w: &mut Walk,
    ) {
        let only = match &call {
            CallRef::Passed(c) if c.only.is_some() => c.only.clone(),
            _ => w.only.clone(),
        };
        let outer = std::mem::replace(&mut w.only, only);
        frames.push(Frame {
            file,
            key: key.clone(),
            call,
        });
        self.follow(callee, flow.receiver_name.as_deref(), frames, w);
        frames.pop();
        w.only = outer;
    }

    /// Resolves a callee as written in `file`, inside the function `within`.
    fn resolve(
        &self,
        callee: &str,
        file: &GoFile,
        within: &FnKey,
        receiver_name: Option<&str>,
    ) -> Option<Target> {
        let dir = folder(file.rel);
        let key = |receiver: Option<&String>, name: &str| FnKey {
            receiver: receiver.cloned(),
            name: name.to_string(),
        };
        match callee.split('.').collect::<Vec<_>>()[..] {
            [name] => Some(Target::Func(dir.to_string(), key(None, name))),
            [x, name] if Some(x) == receiver_name => Some(Target::Func(
                dir.to_string(),
                key(within.receiver.as_ref(), name),
            )),
            [pkg, name] => {
                let import = imports(file.text()).into_iter().find(|(l, _)| l == pkg)?.1;
                if is_standard(&import) {
                    Some(Target::Std(format!("{import}.{name}")))
                } else {
                    Some(Target::Func(self.repo.dir_of(&import)?, key(None, name)))
                }
            }
            [x, ref fields @ .., method] if Some(x) == receiver_name => {
                let mut at = (dir.to_string(), within.receiver.clone()?);
                for field in fields {
                    at = self.repo.field_type(&at.0, &at.1, field, 0)?;
                }
                self.repo.method_target(&at.0, &at.1, method)
            }
            _ => None,
        }
    }

    /// The values of the failing call's arguments (`call`, made by the
    /// last frame) that the code fixes, as `arg = value`.
    fn values(&self, call: Option<&CallFlow>, frames: &[Frame]) -> Vec<String> {
        let Some(call) = call else {
            return Vec::new();
        };
        call.args
            .iter()
            .filter(|a| !a.starts_with(['"', '`']))
            .filter_map(|a| {
                Some(format!(
                    "{a} = {}",
                    self.eval(a, frames.len() - 1, frames, 0)?
                ))
            })
            .collect()
    }

    /// The call frame `k` makes, read from its file.
    fn call_of(&self, k: usize, frames: &[Frame]) -> Option<CallFlow> {
        let f = frames.get(k)?;
        match &f.call {
            CallRef::Passed(c) => Some(c.clone()),
            CallRef::Wrapped(callee, line) => {
                let flow = self.repo.files[f.file].function(&f.key)?;
                flow.wrapped(callee, *line).cloned()
            }
        }
    }

    /// The value of `expr` inside frame `k`: its locals, its parameters
    /// (from the call of frame `k - 1`), its package's and imported
    /// packages' constants.
    fn eval(&self, expr: &str, k: usize, frames: &[Frame], depth: u32) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let frame = &frames[k];
        let file = &self.repo.files[frame.file];
        let flow = file.function(&frame.key);
        let lookup = |name: &str| -> Option<String> {
            if let Some((pkg, constant)) = name.split_once('.') {
                let import = imports(file.text()).into_iter().find(|(l, _)| l == pkg)?.1;
                let dir = self.repo.dir_of(&import)?;
                return self.constant_value(&dir, constant, depth);
            }
            if let Some(local) = flow.and_then(|f| f.local(name)) {
                return self.eval(local, k, frames, depth + 1);
            }
            if let Some(i) = flow.and_then(|f| f.params.iter().position(|p| p == name)) {
                let caller = k.checked_sub(1)?;
                let call = self.call_of(caller, frames)?;
                return self.eval(call.args.get(i)?, caller, frames, depth + 1);
            }
            self.constant_value(folder(file.rel), name, depth)
        };
        language(Lang::Go).eval(expr, &lookup)
    }

    fn constant_value(&self, dir: &str, name: &str, depth: u32) -> Option<String> {
        let (_, expr) = self.repo.constant(dir, name)?;
        let lookup = |n: &str| {
            (depth < 8)
                .then(|| self.constant_value(dir, n, depth + 1))
                .flatten()
        };
        language(Lang::Go).eval(&expr, &lookup)
    }
}

fn callee_of(call: &CallRef) -> String {
    match call {
        CallRef::Wrapped(c, _) => c.clone(),
        CallRef::Passed(c) => c.callee.clone(),
    }
}

/// The text a cause from the knowledge base shows: Go's own that names
/// the failing function (`strconv.ParseInt: parsing …`), else Go's first,
/// else the first.
fn kb_text(e: &errdex_kb::Entry, call: &str) -> String {
    let function = call.rsplit('.').next().unwrap_or(call);
    let go = || e.texts.iter().filter(|t| t.by == "go");
    go().find(|t| t.text.contains(function))
        .or_else(|| go().next())
        .or(e.texts.first())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The receiver's name in a method's signature (`c` of `func (c *C) m()`).
fn receiver_name(signature: &str) -> Option<String> {
    let inner = signature.strip_prefix("func (")?;
    let name = inner.split([' ', ')']).next()?;
    (!name.is_empty() && inner.contains(' ')).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_and_receivers_are_read_from_text() {
        let text = "package x\n\nimport (\n\t\"net\"\n\tkp \"example.com/pkg/ports\"\n\t_ \"embed\"\n)\n\nfunc f() {}\n";
        assert_eq!(
            imports(text),
            vec![
                ("net".to_string(), "net".to_string()),
                ("kp".to_string(), "example.com/pkg/ports".to_string())
            ]
        );
        assert_eq!(
            imports("package x\nimport \"os\"\n"),
            vec![("os".into(), "os".into())]
        );
        assert_eq!(
            receiver_name("func (c *DNSController) runOnce() error").as_deref(),
            Some("c")
        );
        assert_eq!(receiver_name("func run() error"), None);
        assert!(is_standard("net/http") && !is_standard("golang.org/x/net/http2"));
    }
}
