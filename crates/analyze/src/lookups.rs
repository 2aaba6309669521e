//! A lookup that finds nothing: a guard that tests the result of an
//! index or `get` (`if urls := c.InitialPeerURLsMap[c.Name]; urls == nil`,
//! `v, ok := m[k]; !ok`, `v = m.get(k)` then `v is None`) says the map has
//! no entry for the key, which names both things a person can change.

use crate::prose::code;
use crate::Cx;

/// The step for guard `g` when it tests a lookup's result.
pub(crate) fn step(cx: &Cx<'_>, g: &str) -> Option<String> {
    let tested = tested_name(g)?;
    let source = &cx.r.source_code;
    let first = cx.r.source_code_start as usize;
    let site = cx.r.sites[0].line_number as usize;
    let lines: Vec<&str> = source.lines().collect();
    let above = site.checked_sub(first)?.min(lines.len());
    let (map, key) = lines[..above]
        .iter()
        .rev()
        .take(12)
        .find_map(|line| lookup_into(line, tested))?;
    // `x := items[i]; x == nil` is a slice's empty element, not a
    // missing key: only the comma-ok form or a named key says map.
    if !g.trim().starts_with('!') && is_position(key) {
        return None;
    }
    Some(format!(
        "{} has no entry for {}: give {} a value {} has a key for, or add an entry for it to {}.",
        code(map),
        code(key),
        code(key),
        code(map),
        code(map)
    ))
}

/// The name a guard tests for a missing result: `ok` in `!ok`, `v` in
/// `v == nil` or `v is None`.
fn tested_name(g: &str) -> Option<&str> {
    let g = g.trim();
    let name = g
        .strip_prefix('!')
        .or_else(|| g.strip_prefix("not "))
        .or_else(|| g.strip_suffix(" == nil"))
        .or_else(|| g.strip_suffix(" is None"))?
        .trim();
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    plain.then_some(name)
}

/// The map and key of a lookup on `line` that assigns `name`: `name :=
/// m[k]`, `v, name := m[k]`, `if name := m[k]; …`, `name = m.get(k)`.
fn lookup_into<'a>(line: &'a str, name: &str) -> Option<(&'a str, &'a str)> {
    let line = line.trim().trim_start_matches("if ").trim();
    let (targets, value) = line.split_once(":=").or_else(|| {
        let (t, v) = line.split_once(" = ")?;
        Some((t, v))
    })?;
    if !targets.split(',').any(|t| t.trim() == name) {
        return None;
    }
    let value = value.split(';').next()?.trim();
    if let Some(inner) = value.strip_suffix(']') {
        let open = inner.find('[')?;
        let (map, key) = (&inner[..open], &inner[open + 1..]);
        return (is_path(map) && is_path(key)).then_some((map, key));
    }
    let call = value.strip_suffix(')')?;
    let (map, key) = call.split_once(".get(")?;
    let key = key.split(',').next()?.trim();
    (is_path(map) && is_path(key)).then_some((map, key))
}

/// A name that reads as a position in a list (`i`, `idx`, `nodeIndex`).
fn is_position(key: &str) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key);
    matches!(last, "i" | "j" | "k" | "n" | "idx" | "pos" | "index")
        || last.ends_with("Index")
        || last.ends_with("Idx")
        || last.ends_with("_index")
}

fn is_path(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        && s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tested_result_is_traced_to_its_lookup() {
        assert_eq!(tested_name("!ok"), Some("ok"));
        assert_eq!(tested_name("urls == nil"), Some("urls"));
        assert_eq!(tested_name("user is None"), Some("user"));
        assert_eq!(tested_name("len(x) == 0"), None);
        assert_eq!(
            lookup_into(
                "if urls := c.InitialPeerURLsMap[c.Name]; urls == nil {",
                "urls"
            ),
            Some(("c.InitialPeerURLsMap", "c.Name"))
        );
        assert_eq!(
            lookup_into("\tuser, ok := s.users[name]", "ok"),
            Some(("s.users", "name"))
        );
        assert_eq!(
            lookup_into("    user = self.users.get(name)", "user"),
            Some(("self.users", "name"))
        );
        // A call's result, or another name, is no lookup.
        assert_eq!(lookup_into("v, ok := load(name)", "ok"), None);
        assert_eq!(lookup_into("v, ok := m[k]", "v2"), None);
        assert_eq!(lookup_into("x := m[len(k)-1]", "x"), None);
    }
}
