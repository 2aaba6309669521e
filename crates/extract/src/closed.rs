//! Holes the code fills from a few literals only. etcd's
//! `deactivate(failure failureType, reason string)` prints
//! `fmt.Sprintf("failed to %s %s on %s (%s)", failure.action, …)`, and
//! its package sets `action` only in `failureType{source: …, action:
//! "write"}` literals (a string constant of the package counts as its
//! text): that hole prints `write`, `post`, `heartbeat`,
//! `dial` or `read`, nothing else ([`errdex_model::ClosedHole`]).
//!
//! Go only: an unexported field can be set only in its own package, so
//! that package's files hold every value it gets. The field is closed when
//! every literal of its struct names it with a string literal, no literal
//! leaves the type out (`[]T{{…}}`) or lists values by position, no
//! statement assigns it (alone or among several) or takes its address,
//! and the type is neither made from another by conversion nor generic.

use crate::cache::FactsCache;
use crate::folder;
use crate::source::Source;
use crate::walk::Candidate;
use errdex_lang::is_identifier;
use errdex_model::{ClosedHole, Lang, RawSite};
use std::collections::HashMap;

/// Past this many texts a hole is left open.
const MOST_VALUES: usize = 12;

/// Sets `closedHoles` on each Go site that prints a field of a parameter
/// (or the receiver) whose values are closed. `readable` is every file
/// read, with its path, and `repo_path` gives a path as sites name it.
/// An answer is kept in `cache` by the package's
/// blobs, so a run reads a package's files again only when one changed.
pub(crate) fn attach_closed_holes(
    sites: &mut [RawSite],
    readable: &[(&Candidate, String)],
    source: &Source,
    cache: Option<&FactsCache>,
    repo_path: &dyn Fn(&str) -> String,
) {
    let mut packages: HashMap<String, Package> = HashMap::new();
    for (c, rel) in readable {
        if rel.ends_with(".go") && !rel.ends_with("_test.go") {
            let p = packages
                .entry(folder(&repo_path(rel)).to_string())
                .or_default();
            p.files.push(rel);
            match c.content_id() {
                Some(id) => p.blobs.extend_from_slice(id.as_bytes()),
                None => p.unnamed = true,
            }
        }
    }
    let mut known: HashMap<(&str, String), Option<Vec<String>>> = HashMap::new();
    for site in sites.iter_mut().filter(|s| s.lang == Lang::Go) {
        let Some((dir, package)) = packages.get_key_value(folder(&site.file_path)) else {
            continue;
        };
        let mut closed = Vec::new();
        for arg in &site.args {
            let Some((ty, field)) = typed_field(arg, site.facts.signature.as_deref()) else {
                continue;
            };
            let values = known
                .entry((dir, format!("{ty}.{field}")))
                .or_insert_with(|| package.values(dir, ty, field, source, cache));
            if let Some(values) = values {
                closed.push(ClosedHole {
                    arg: arg.clone(),
                    values: values.clone(),
                });
            }
        }
        site.facts.closed_holes = closed;
    }
}

/// A Go package's files (not its tests) and their blob ids, in order.
#[derive(Default)]
struct Package<'a> {
    files: Vec<&'a str>,
    blobs: Vec<u8>,
    /// A file has no blob id: answers are not kept.
    unnamed: bool,
    texts: std::cell::OnceCell<Vec<String>>,
}

impl Package<'_> {
    /// [`field_values`] of the package, from the cache when it has them.
    fn values(
        &self,
        dir: &str,
        ty: &str,
        field: &str,
        source: &Source,
        cache: Option<&FactsCache>,
    ) -> Option<Vec<String>> {
        let key = cache.filter(|_| !self.unnamed).map(|c| {
            (
                c,
                c.key("closed-field", dir, &self.blobs, &format!("{ty}.{field}")),
            )
        });
        if let Some(found) = key.and_then(|(c, k)| c.get::<Option<Vec<String>>>(&k)) {
            return found;
        }
        let texts = self
            .texts
            .get_or_init(|| self.files.iter().map(|f| source.text(f)).collect());
        let values = field_values(texts, ty, field);
        if let Some((c, k)) = key {
            c.put(k, &values);
        }
        values
    }
}

/// For `failure.action`, where the signature declares `failure
/// failureType` (or `failure *failureType`): the type and the field, when
/// the field is unexported.
fn typed_field<'a>(arg: &'a str, signature: Option<&'a str>) -> Option<(&'a str, &'a str)> {
    let (var, field) = arg.split_once('.')?;
    if !is_identifier(var)
        || !is_identifier(field)
        || !field.starts_with(|c: char| c.is_lowercase())
    {
        return None;
    }
    let signature = signature?;
    let declared = word_at(signature, var).find_map(|at| {
        // `a, b T`: the names that share the type are skipped.
        let mut rest = signature[at + var.len()..].trim_start();
        while let Some(next) = rest.strip_prefix(',') {
            let next = next.trim_start();
            let name_len = next.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            rest = next[name_len..].trim_start();
        }
        let ty = rest.trim_start_matches('*');
        let end = ty
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(ty.len());
        let ty = &ty[..end];
        is_identifier(ty).then_some(ty)
    })?;
    Some((declared, field))
}

/// The values the package's `texts` give field `field` of struct `ty`,
/// sorted; `None` when they are not all string literals or string
/// constants in keyed literals of the type (see the module's comment) or
/// are too many.
fn field_values(texts: &[String], ty: &str, field: &str) -> Option<Vec<String>> {
    if !texts.iter().any(|t| declares_string_field(t, ty, field)) {
        return None;
    }
    let constants = string_constants(texts);
    let mut values = Vec::new();
    for text in texts {
        if assigns(text, field) {
            return None;
        }
        for at in word_at(text, ty) {
            let before = text[..at].trim_end_matches('*').trim_end_matches('&');
            let after = &text[at + ty.len()..];
            if before.ends_with([']', '.']) || after.starts_with(['(', '[']) {
                return None;
            }
            if let Some(body) = after.strip_prefix('{') {
                values.push(keyed_string(body, field, &constants)?);
            }
        }
    }
    values.sort_unstable();
    values.dedup();
    (!values.is_empty() && values.len() <= MOST_VALUES).then_some(values)
}

/// Whether `text` declares struct `ty` with a field `field` of type
/// `string`. A field of a named type may print otherwise than its value
/// (etcd's `streamType` has a `String()` that prints `"msgappv2"` as
/// `stream MsgApp v2`), so only plain strings are closed.
fn declares_string_field(text: &str, ty: &str, field: &str) -> bool {
    let head = format!("type {ty} struct {{");
    let Some(at) = text.find(&head) else {
        return false;
    };
    let body = &text[at + head.len()..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines().any(|line| {
        let line = line.split("//").next().unwrap_or(line);
        let line = line.split('`').next().unwrap_or(line).trim();
        let Some((names, kind)) = line.rsplit_once(char::is_whitespace) else {
            return false;
        };
        kind == "string" && names.split(',').any(|n| n.trim() == field)
    })
}

/// Whether `text` assigns field `field` of something or takes its address.
fn assigns(text: &str, field: &str) -> bool {
    let dotted = format!(".{field}");
    text.match_indices(&dotted).any(|(at, _)| {
        let after = &text[at + dotted.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let op = after.trim_start();
        let line = op.split('\n').next().unwrap_or(op);
        let assigned = (op.starts_with('=') && !op.starts_with("=="))
            || ["+=", ":=", "++", "--"].iter().any(|o| op.starts_with(o))
            // `a.verb, b = …`: one of several assigned at once.
            || (op.starts_with(',') && (line.contains(" = ") || line.contains(":=")));
        let owner = text[..at].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
        assigned || owner.ends_with('&')
    })
}

/// The text `field: "…"` gives in a keyed literal whose body starts
/// `body` (after its `{`): a plain string literal, or a string constant
/// of the package (`action: actionWrite`). `None` when the literal lists
/// values by position, leaves the field out, or gives it anything else.
fn keyed_string(body: &str, field: &str, constants: &Constants) -> Option<String> {
    let mut found = None;
    for element in top_level_elements(body)? {
        let element = element.trim();
        if element.is_empty() {
            continue;
        }
        let (key, value) = element.split_once(':')?;
        let key = key.trim();
        if !is_identifier(key) {
            return None;
        }
        if key == field {
            let value = value.trim();
            found = match plain_string(value) {
                Some(text) => Some(text),
                None => constants.get(value)?.clone(),
            };
            found.as_ref()?;
        }
    }
    found
}

/// A package's string constants by name; `None` for a name declared
/// with several values (one a build's files, `_linux.go` and
/// `_windows.go`).
type Constants = HashMap<String, Option<String>>;

/// The string constants `texts` declare: `const name = "…"`, `const name
/// T = "…"`, and such lines inside `const ( … )`.
fn string_constants(texts: &[String]) -> Constants {
    let mut out = Constants::new();
    for text in texts {
        let mut in_block = false;
        for line in text.lines().map(str::trim) {
            if in_block {
                in_block = !line.starts_with(')');
                add_constant(line, &mut out);
            } else if line == "const (" {
                in_block = true;
            } else if let Some(decl) = line.strip_prefix("const ") {
                add_constant(decl, &mut out);
            }
        }
    }
    out
}

/// Adds `name = "…"` or `name T = "…"` (a trailing comment allowed).
fn add_constant(decl: &str, out: &mut Constants) {
    let Some((names, value)) = decl.split_once('=') else {
        return;
    };
    let mut words = names.split_whitespace();
    let (Some(name), _, None) = (words.next(), words.next(), words.next()) else {
        return;
    };
    let value = value.split(" //").next().unwrap_or(value).trim();
    if let (true, Some(text)) = (is_identifier(name), plain_string(value)) {
        let entry = out.entry(name.to_string()).or_insert(Some(text.clone()));
        if entry.as_deref() != Some(text.as_str()) {
            *entry = None;
        }
    }
}

/// The text of a plain string literal (`"write"`): no escapes, no quote
/// inside.
fn plain_string(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then(|| inner.to_string())
}

/// The comma-separated elements of a literal's body up to its closing
/// brace; `None` when the braces do not close.
fn top_level_elements(body: &str) -> Option<Vec<&str>> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut start = 0;
    let mut out = Vec::new();
    let mut prev = ' ';
    for (i, c) in body.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            _ if in_string => {}
            '{' | '(' | '[' => depth += 1,
            '}' if depth == 0 => {
                out.push(&body[start..i]);
                return Some(out);
            }
            '}' | ')' | ']' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    None
}

/// Where `name` stands in `text` as a whole word.
fn word_at<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = usize> + 't {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name)
        .map(|(i, _)| i)
        .filter(move |&i| !text[..i].ends_with(word) && !text[i + name.len()..].starts_with(word))
}

#[cfg(test)]
mod tests;
