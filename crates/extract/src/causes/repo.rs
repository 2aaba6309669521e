//! The repository's Go files as the cause graph reads them: each file
//! read and parsed when first needed, its functions, constants and types,
//! and where an import path or a field's type lives.

use super::Target;
use crate::cache::FactsCache;
use crate::folder;
use crate::source::Source;
use crate::walk::Candidate;
use errdex_lang::names::NameFilter;
use errdex_lang::{language, FileFlows, FunctionFlow, TypeFlow};
use errdex_model::Lang;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// A Go file of the repository, read and parsed when first needed.
pub(super) struct GoFile<'a> {
    /// Path relative to the indexed root, to read it.
    pub(super) root_rel: &'a str,
    pub(super) rel: &'a str,
    pub(super) source: &'a Source,
    pub(super) blob: Option<&'a gix::ObjectId>,
    pub(super) cache: Option<&'a FactsCache>,
    /// The names its text holds, where its parse left them.
    pub(super) names: Option<&'a NameFilter>,
    pub(super) text: OnceLock<String>,
    pub(super) flows: OnceLock<FileFlows>,
}

impl GoFile<'_> {
    pub(super) fn text(&self) -> &str {
        self.text.get_or_init(|| self.source.text(self.root_rel))
    }

    /// Whether the text holds `needle`; a file whose names surely lack
    /// one of the needle's is not read to ask.
    pub(super) fn holds(&self, needle: &str) -> bool {
        self.names.is_none_or(|n| n.may_hold(needle)) && self.text().contains(needle)
    }

    pub(super) fn flows(&self) -> &FileFlows {
        self.flows.get_or_init(|| {
            let key = self
                .cache
                .zip(self.blob)
                .map(|(c, b)| (c, c.key("flows", self.rel, b.as_bytes(), "")));
            if let Some(hit) = key.as_ref().and_then(|(c, k)| c.get(k)) {
                return hit;
            }
            let flows = language(Lang::Go).flows(self.text());
            if let Some((c, k)) = key {
                c.put(k, &flows);
            }
            flows
        })
    }

    pub(super) fn function(&self, key: &FnKey) -> Option<&FunctionFlow> {
        self.flows()
            .functions
            .iter()
            .find(|f| f.name == key.name && f.receiver == key.receiver)
    }
}

/// A function: its receiver type (for a method) and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct FnKey {
    pub(super) receiver: Option<String>,
    pub(super) name: String,
}

impl FnKey {
    /// From a site's `function` (`T.m` or `f`).
    pub(super) fn of_site(function: &str) -> FnKey {
        match function.split_once('.') {
            Some((t, m)) => FnKey {
                receiver: Some(t.to_string()),
                name: m.to_string(),
            },
            None => FnKey {
                receiver: None,
                name: function.to_string(),
            },
        }
    }

    pub(super) fn site_name(&self) -> String {
        match &self.receiver {
            Some(t) => format!("{t}.{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// The repository's Go files by folder, and its modules.
pub(super) struct GoRepo<'a> {
    pub(super) files: Vec<GoFile<'a>>,
    pub(super) by_rel: HashMap<&'a str, usize>,
    pub(super) by_dir: HashMap<&'a str, Vec<usize>>,
    /// Module path → its folder (`""` for the root).
    pub(super) modules: Vec<(String, String)>,
}

impl<'a> GoRepo<'a> {
    pub(super) fn new(
        files: &'a [(&'a Candidate, String)],
        source: &'a Source,
        cache: Option<&'a FactsCache>,
    ) -> GoRepo<'a> {
        let files: Vec<GoFile> = files
            .iter()
            .filter(|(c, _)| c.lang.lang() == Lang::Go)
            .map(|(c, rel)| GoFile {
                root_rel: &c.rel,
                rel,
                source,
                blob: c.content_id(),
                cache,
                names: c.names.get(),
                text: OnceLock::new(),
                flows: OnceLock::new(),
            })
            .collect();
        let mut by_dir: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_rel = HashMap::new();
        for (i, f) in files.iter().enumerate() {
            by_dir.entry(folder(f.rel)).or_default().push(i);
            by_rel.insert(f.rel, i);
        }
        let modules = modules(&files, source);
        GoRepo {
            files,
            by_rel,
            by_dir,
            modules,
        }
    }

    /// The repository folder of an import path: under the module that
    /// owns it, or the folder of that name (a GOPATH tree).
    pub(super) fn dir_of(&self, import: &str) -> Option<String> {
        for (module, dir) in &self.modules {
            let rest = if import == module {
                Some("")
            } else {
                import
                    .strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = [dir.as_str(), rest]
                    .iter()
                    .filter(|p| !p.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join("/");
                return self.by_dir.contains_key(d.as_str()).then_some(d);
            }
        }
        self.by_dir.contains_key(import).then(|| import.to_string())
    }

    /// The file of folder `dir` that declares `key`, and its flow.
    pub(super) fn find(&self, dir: &str, key: &FnKey) -> Option<(usize, &FunctionFlow)> {
        let needle = format!(" {}(", key.name);
        self.by_dir.get(dir)?.iter().find_map(|&i| {
            let f = &self.files[i];
            f.holds(&needle)
                .then(|| f.function(key).map(|flow| (i, flow)))
                .flatten()
        })
    }

    /// The declaration of type `name` in folder `dir`, and its file.
    pub(super) fn type_decl(&self, dir: &str, name: &str) -> Option<(usize, &TypeFlow)> {
        let needle = format!("{name} ");
        self.by_dir.get(dir)?.iter().find_map(|&i| {
            let f = &self.files[i];
            if !f.holds(&needle) {
                return None;
            }
            f.flows()
                .types
                .iter()
                .find(|t| t.name == name)
                .map(|t| (i, t))
        })
    }

    /// The folder and name of the type written `ty` in file `at`
    /// (`store`, `lease.Lessor`): the file's folder, or the repository
    /// folder of the package it imports. A standard-library or outside
    /// type gives none.
    pub(super) fn type_place(&self, at: usize, ty: &str) -> Option<(String, String)> {
        let file = &self.files[at];
        match ty.split_once('.') {
            None => Some((folder(file.rel).to_string(), ty.to_string())),
            Some((pkg, name)) => {
                let import = imports(file.text()).into_iter().find(|(l, _)| l == pkg)?.1;
                let dir = (!is_standard(&import)).then(|| self.dir_of(&import))??;
                Some((dir, name.to_string()))
            }
        }
    }

    /// The folder and type of field `field` of struct `ty` of folder
    /// `dir`, declared there or in a type it embeds (three deep at most).
    pub(super) fn field_type(
        &self,
        dir: &str,
        ty: &str,
        field: &str,
        depth: u32,
    ) -> Option<(String, String)> {
        let (at, t) = self.type_decl(dir, ty)?;
        if let Some(f) = t.field(field) {
            return self.type_place(at, f);
        }
        if depth >= 3 {
            return None;
        }
        t.embedded.iter().find_map(|e| {
            let (d, name) = self.type_place(at, e)?;
            self.field_type(&d, &name, field, depth + 1)
        })
    }

    /// What a call of `method` on a value of type `ty` (folder `dir`)
    /// runs: the type's own method, or for an interface the method of
    /// each type of its folder that declares one of that name.
    pub(super) fn method_target(&self, dir: &str, ty: &str, method: &str) -> Option<Target> {
        let (_, t) = self.type_decl(dir, ty)?;
        let key = |receiver: &str| FnKey {
            receiver: Some(receiver.to_string()),
            name: method.to_string(),
        };
        if !t.interface {
            return Some(Target::Func(dir.to_string(), key(ty)));
        }
        if !t.methods.iter().any(|m| m == method) {
            return None;
        }
        let needle = format!(") {method}(");
        let mut found: Vec<(String, FnKey)> = Vec::new();
        for &i in self.by_dir.get(dir)? {
            let f = &self.files[i];
            if !f.holds(&needle) {
                continue;
            }
            for flow in &f.flows().functions {
                match &flow.receiver {
                    Some(r) if flow.name == method && r != ty => {
                        found.push((dir.to_string(), key(r)));
                    }
                    _ => {}
                }
            }
        }
        (!found.is_empty()).then_some(Target::Methods(found))
    }

    /// The constants of a folder's files.
    pub(super) fn constant(&self, dir: &str, name: &str) -> Option<(usize, String)> {
        self.by_dir.get(dir)?.iter().find_map(|&i| {
            let f = &self.files[i];
            if !f.holds(name) {
                return None;
            }
            let (_, expr) = f.flows().constants.iter().find(|(n, _)| n == name)?;
            Some((i, expr.clone()))
        })
    }
}

/// Every `go.mod` from the files' folders up to the indexed root.
fn modules(files: &[GoFile], source: &Source) -> Vec<(String, String)> {
    let mut checked = HashSet::new();
    let mut out = Vec::new();
    for f in files {
        // The same folder, relative to the root (to read) and to the
        // repository (to name).
        let (mut dir, mut rel) = (folder(f.root_rel), folder(f.rel));
        loop {
            if !checked.insert(dir) {
                break;
            }
            let go_mod = match dir {
                "" => "go.mod".to_string(),
                d => format!("{d}/go.mod"),
            };
            let text = source.text(&go_mod);
            if let Some(m) = text.lines().find_map(|l| l.trim().strip_prefix("module ")) {
                out.push((m.trim().trim_matches('"').to_string(), rel.to_string()));
            }
            if dir.is_empty() {
                break;
            }
            (dir, rel) = (folder(dir), folder(rel));
        }
    }
    // The longest module path first: a nested module owns its paths.
    out.sort_by_key(|m| std::cmp::Reverse(m.0.len()));
    out
}

/// Whether an import path is the standard library's: its first element
/// names no host (`net/http`, not `golang.org/x/net`).
pub(super) fn is_standard(import: &str) -> bool {
    !import.split('/').next().unwrap_or(import).contains('.')
}

/// A Go file's imports (local name → path), read from its text.
pub(super) fn imports(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.trim();
        let spec = if in_block {
            if line.starts_with(')') {
                break;
            }
            line
        } else if let Some(rest) = line.strip_prefix("import") {
            let rest = rest.trim();
            if rest.starts_with('(') {
                in_block = true;
                continue;
            }
            rest
        } else if line.starts_with("func ") || line.starts_with("type ") {
            break;
        } else {
            continue;
        };
        let spec = spec.split("//").next().unwrap_or("").trim();
        let (alias, path) = match spec.rsplit_once(' ') {
            Some((a, p)) => (Some(a.trim()), p),
            None => (None, spec),
        };
        let path = path.trim_matches('"');
        if path.is_empty() || matches!(alias, Some("_" | ".")) {
            continue;
        }
        let local = alias.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path));
        out.push((local.to_string(), path.to_string()));
    }
    out
}
