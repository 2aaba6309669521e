//! The names a package declares (types, functions, methods, fields,
//! constants), read from its files' text: an error string may start with
//! one in capitals (`Truncate: unsupported size`, `Checker is unknown`),
//! which `style` does not report.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Mutex;

/// Declared names by folder, read on first ask.
pub(crate) struct Declared<'a> {
    root: &'a Path,
    by_dir: Mutex<HashMap<String, HashSet<String>>>,
}

impl<'a> Declared<'a> {
    pub(crate) fn new(root: &'a Path) -> Self {
        Declared {
            root,
            by_dir: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the package of `file` (its folder) declares `name`.
    pub(crate) fn has(&self, file: &str, name: &str) -> bool {
        let dir = file.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let mut by_dir = self.by_dir.lock().unwrap_or_else(|p| p.into_inner());
        by_dir
            .entry(dir.clone())
            .or_insert_with(|| names_in(&self.root.join(&dir), file_ext(file)))
            .contains(name)
    }
}

fn file_ext(file: &str) -> &str {
    file.rsplit_once('.').map_or("", |(_, e)| e)
}

/// The names declared by the `.ext` files of one folder.
fn names_in(dir: &Path, ext: &str) -> HashSet<String> {
    let mut names = HashSet::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return names;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) == Some(ext) {
            if let Ok(text) = std::fs::read_to_string(&p) {
                declarations(&text, &mut names);
            }
        }
    }
    names
}

/// Go and Rust declarations: `type X`, `func X`, `func (r T) X`, `struct
/// X`, `enum X`, `trait X`, `fn x`, `const X`, `var X`, and the fields of
/// struct bodies (a line's first name inside `struct {`).
pub(crate) fn declarations(text: &str, names: &mut HashSet<String>) {
    let mut in_struct = 0usize;
    for line in text.lines() {
        let t = line.trim_start();
        let words: Vec<&str> = t
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let after = |kw: &str| {
            words
                .iter()
                .position(|w| *w == kw)
                .and_then(|i| words.get(i + 1))
        };
        for kw in ["type", "struct", "enum", "trait", "const", "var", "fn"] {
            if let Some(n) = after(kw) {
                names.insert(n.to_string());
            }
        }
        if t.starts_with("func ") {
            if let Some(n) = method_or_func_name(t) {
                names.insert(n);
            }
        }
        if in_struct > 0 {
            if let Some(first) = words.iter().find(|w| **w != "pub") {
                names.insert(first.to_string());
            }
        }
        if t.contains("struct {") || (t.contains("struct ") && t.ends_with('{')) {
            in_struct += 1;
        } else if in_struct > 0 && t.starts_with('}') {
            in_struct -= 1;
        }
    }
}

/// `func (w *writer) Truncate(size int64) error` → Truncate.
fn method_or_func_name(t: &str) -> Option<String> {
    let rest = t.strip_prefix("func ")?.trim_start();
    let rest = if rest.starts_with('(') {
        &rest[rest.find(')')? + 1..]
    } else {
        rest
    };
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_functions_methods_fields_and_constants_are_declared() {
        let go = "package p\n\ntype Checker interface{}\n\ntype Spec struct {\n\tCwd string\n\tArgs []string\n}\n\nfunc (w *writer) Truncate(n int64) error { return nil }\n\nfunc Open() {}\n\nconst Draft = 4\n";
        let mut n = HashSet::new();
        declarations(go, &mut n);
        for name in [
            "Checker", "Spec", "Cwd", "Args", "Truncate", "Open", "Draft",
        ] {
            assert!(n.contains(name), "{name}: {n:?}");
        }
        assert!(!n.contains("Invalid"));
        let rs = "pub struct Token {\n    pub expiry: u64,\n}\nenum Kind { A }\nfn parse() {}\n";
        let mut n = HashSet::new();
        declarations(rs, &mut n);
        for name in ["Token", "expiry", "Kind", "parse"] {
            assert!(n.contains(name), "{name}: {n:?}");
        }
    }
}
