//! Who calls the function a site sits in, by name: every `(` of every
//! file, with the identifier before it looked up among those functions. By name
//! only (a method `m` matches every `.m(`), as the facts say; the caller
//! is the nearest `func` line above the call. Declarations without sites
//! are never parsed, so this reads bytes, not trees.

use crate::walk::Candidate;
use errdex_model::{RawSite, MAX_CHECKS};
use rayon::prelude::*;
use std::collections::HashMap;

/// Names too generic to say anything by name alone.
const TOO_COMMON: &[&str] = &[
    "main", "init", "New", "Error", "String", "Close", "Get", "Set", "Run", "Start", "Stop",
    "Read", "Write", "Do", "Put", "Delete", "List", "Update", "Create", "Open", "Len",
];

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The function a Go `func` line declares: `name` or `Type.name`.
fn declared(line: &str) -> Option<String> {
    let rest = line.strip_prefix("func ")?;
    let (recv, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let close = r.find(')')?;
            let ty = r[..close]
                .split_whitespace()
                .last()?
                .trim_start_matches('*')
                .split('[')
                .next()?;
            (Some(ty), r[close + 1..].trim_start())
        }
        None => (None, rest),
    };
    let name: String = rest
        .bytes()
        .take_while(|&b| is_ident(b))
        .map(char::from)
        .collect();
    if name.is_empty() {
        return None;
    }
    Some(match recv {
        Some(t) => format!("{t}.{name}"),
        None => name,
    })
}

/// A call by name: which name, where, and from which function.
struct Call {
    name: usize,
    path: String,
    line: u32,
    caller: Option<String>,
}

/// Sets `facts.callers` of every site whose function is called somewhere.
pub(crate) fn attach_callers(sites: &mut [RawSite], files: &[(&Candidate, String)]) {
    let mut names: Vec<String> = sites
        .iter()
        .filter_map(|s| s.function.as_deref())
        .map(|f| f.rsplit('.').next().unwrap_or(f).to_string())
        .filter(|n| n.len() >= 3 && !TOO_COMMON.contains(&n.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return;
    }
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let found: Vec<Call> = files
        .par_iter()
        .flat_map_iter(|(c, path)| {
            let text = std::fs::read_to_string(&c.abs).unwrap_or_default();
            let b = text.as_bytes();
            let mut out = Vec::new();
            let mut row = 0u32;
            let mut counted = 0usize;
            let mut caller: Option<String> = None;
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
                let line_start = memchr::memrchr(b'\n', &b[..start]).map_or(0, |p| p + 1);
                let line_end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |p| start + p);
                let line = &text[line_start..line_end];
                if line.starts_with("func ") || line.trim_start().starts_with("//") {
                    continue; // the declaration itself, or a comment
                }
                // The nearest `func` line above, found incrementally.
                let mut p = caller_scanned;
                while let Some(off) = memchr::memmem::find(&b[p..line_start], b"\nfunc ") {
                    let s = p + off + 1;
                    let e = memchr::memchr(b'\n', &b[s..]).map_or(b.len(), |q| s + q);
                    caller = declared(&text[s..e]);
                    p = s;
                }
                caller_scanned = line_start.max(caller_scanned);
                row += memchr::memchr_iter(b'\n', &b[counted..line_start]).count() as u32;
                counted = line_start;
                out.push(Call {
                    name,
                    path: path.clone(),
                    line: row + 1,
                    caller: caller.clone(),
                });
            }
            out
        })
        .collect();
    let mut by_name: HashMap<&str, Vec<&Call>> = HashMap::new();
    for f in &found {
        by_name.entry(names[f.name].as_str()).or_default().push(f);
    }
    for list in by_name.values_mut() {
        list.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    }
    for site in sites {
        let Some(f) = site.function.as_deref() else {
            continue;
        };
        let name = f.rsplit('.').next().unwrap_or(f);
        if let Some(list) = by_name.get(name) {
            site.facts.callers = list
                .iter()
                .filter(|c| c.caller.as_deref() != Some(f)) // recursion is no caller
                .take(MAX_CHECKS)
                .map(|c| match &c.caller {
                    Some(caller) => format!("{}:{} {caller}", c.path, c.line),
                    None => format!("{}:{}", c.path, c.line),
                })
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::declared;

    #[test]
    fn func_lines_name_functions_and_methods() {
        assert_eq!(declared("func run(x int) error {").as_deref(), Some("run"));
        assert_eq!(
            declared("func (c *DNSController) runOnce() error {").as_deref(),
            Some("DNSController.runOnce")
        );
        assert_eq!(
            declared("func (l List[T]) Len() int {").as_deref(),
            Some("List.Len")
        );
        assert_eq!(declared("var x = 1"), None);
    }
}
