//! A lookup that finds nothing: a guard that tests the result of an
//! index or `get` (`if urls := c.InitialPeerURLsMap[c.Name]; urls == nil`,
//! `v, ok := m[k]; !ok`, `v = m.get(k)` then `v is None`) says the map has
//! no entry for the key, which names both things a person can change.

use crate::prose::code;
use crate::Cx;

/// The step for guard `g` when it tests a lookup's result.
pub(crate) fn step(cx: &Cx<'_>, g: &str) -> Option<String> {
    let tested = tested_name(g)?;
    let value = crate::origins::assigned_above(
        &cx.r.source_code,
        cx.r.source_code_start,
        cx.r.sites[0].line_number,
        cx.fname?,
        tested,
    )?;
    let (map, key) = lookup(value)?;
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

/// The map and key of a lookup a value makes: `m[k]` (an `if`'s own
/// statement goes on after `;`), `m.get(k)`.
fn lookup(value: &str) -> Option<(&str, &str)> {
    let value = value.split(';').next()?.trim();
    let (map, key) = match value.strip_suffix(']') {
        Some(inner) => inner.split_once('[')?,
        None => {
            let (map, rest) = value.strip_suffix(')')?.split_once(".get(")?;
            (map, rest.split(',').next()?.trim())
        }
    };
    (crate::is_plain_name(map) && crate::is_plain_name(key)).then_some((map, key))
}

/// A name that reads as a position in a list (`i`, `idx`, `nodeIndex`).
fn is_position(key: &str) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key);
    matches!(last, "i" | "j" | "k" | "n" | "idx" | "pos" | "index")
        || last.ends_with("Index")
        || last.ends_with("Idx")
        || last.ends_with("_index")
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
            lookup("c.InitialPeerURLsMap[c.Name]; urls == nil {"),
            Some(("c.InitialPeerURLsMap", "c.Name"))
        );
        assert_eq!(lookup("s.users[name]"), Some(("s.users", "name")));
        assert_eq!(lookup("self.users.get(name)"), Some(("self.users", "name")));
        // A call's result is no lookup, nor an index computed in place.
        assert_eq!(lookup("load(name)"), None);
        assert_eq!(lookup("m[len(k)-1]"), None);
    }
}
