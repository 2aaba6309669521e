//! Record ids and slugs.

use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Longest slug before it is cut at a word boundary; long messages would
/// otherwise make unreadable URLs.
pub const SLUG_MAX_LEN: usize = 80;

/// The record id: 16 lowercase hex digits derived from the repository and the
/// message pattern only, so line shifts and file moves keep the id (and every
/// link to it) stable.
pub fn record_id(repo: &str, message_pattern: &str) -> String {
    let mut h = Sha256::new();
    h.update(repo.as_bytes());
    h.update([0u8]);
    h.update(message_pattern.as_bytes());
    let digest = h.finalize();
    let mut out = String::with_capacity(16);
    for b in &digest[..8] {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The slug of a message pattern, as in the seed: lowercase ASCII letters and
/// digits, every other run of characters one `-`
/// (`serving readiness probe: %w` → `serving-readiness-probe-w`). Patterns
/// with no letters or digits at all get `error`.
pub fn slugify(pattern: &str) -> String {
    let mut slug = String::with_capacity(pattern.len().min(SLUG_MAX_LEN + 8));
    let mut dash = false;
    for c in pattern.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !slug.is_empty() {
                slug.push('-');
            }
            dash = false;
            slug.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
        if slug.len() > SLUG_MAX_LEN {
            break;
        }
    }
    if slug.len() > SLUG_MAX_LEN {
        // Cut at the last word boundary that fits, so slugs end on a word.
        let cut = slug[..SLUG_MAX_LEN].rfind('-').unwrap_or(SLUG_MAX_LEN);
        slug.truncate(cut);
    }
    if slug.is_empty() {
        slug.push_str("error");
    }
    slug
}

/// Slugs for a repository's patterns, unique within the repository. Patterns
/// are taken in the given order; the first keeps the plain slug and later
/// ones that collide get `-2`, `-3`… Callers pass patterns in a stable order
/// (sorted) so a slug does not move between runs.
pub fn unique_slugs<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken: HashMap<String, u32> = HashMap::new();
    let mut out = Vec::new();
    for p in patterns {
        let base = slugify(p);
        let mut candidate = base.clone();
        let mut n = *taken.get(&base).unwrap_or(&1);
        while taken.contains_key(&candidate) {
            n += 1;
            candidate = format!("{base}-{n}");
        }
        taken.insert(base.clone(), n);
        taken.insert(candidate.clone(), 1);
        out.push(candidate);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_matches_seed() {
        assert_eq!(
            slugify("serving readiness probe: %w"),
            "serving-readiness-probe-w"
        );
        assert_eq!(slugify("stop requested"), "stop-requested");
        assert_eq!(
            slugify("unexpected kind for cluster, got %T, want kops.Cluster"),
            "unexpected-kind-for-cluster-got-t-want-kops-cluster"
        );
    }

    #[test]
    fn slug_of_symbols_only_is_error() {
        assert_eq!(slugify("%%: !!"), "error");
        assert_eq!(slugify(""), "error");
        assert_eq!(slugify("日本語"), "error");
    }

    #[test]
    fn long_slug_is_cut_at_a_word() {
        let s = slugify(&"word ".repeat(40));
        assert!(s.len() <= SLUG_MAX_LEN);
        assert!(s.ends_with("word"));
    }

    #[test]
    fn slugs_are_unique_in_order() {
        let got = unique_slugs(["a b", "a-b", "a: b", "a-b-2"]);
        assert_eq!(got, vec!["a-b", "a-b-2", "a-b-3", "a-b-2-2"]);
    }

    #[test]
    fn id_is_stable_hex_and_depends_on_repo_and_pattern() {
        let a = record_id("kubernetes/kops", "stop requested");
        assert_eq!(a, record_id("kubernetes/kops", "stop requested"));
        assert_eq!(a.len(), 16);
        assert!(a
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, record_id("kubernetes/kops", "stop requested!"));
        assert_ne!(a, record_id("other/repo", "stop requested"));
    }
}
