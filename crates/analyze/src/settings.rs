//! Settings: values a person sets, read by the guards as fields of one
//! value. A guard that joins two tests of fields of the same value
//! (`!mem.Etcd.PeerClientCertAuth && mem.Etcd.PeerTrustedCAFile != ""`)
//! says two settings conflict, and changing either one clears it. A field
//! whose tag names its key (`yaml:"peer-client-cert-auth"`, the site fact
//! `fieldKeys`) is named by the key a person writes.

use crate::prose::code;
use crate::Cx;

/// What a test of a field says the field holds, and how to change that.
struct Test<'a> {
    path: &'a str,
    /// `is false`, `is set`.
    holds: String,
    /// `set it to true`, `leave it empty`: with `{}` for the field.
    change: String,
}

/// The step for guard `g` when it is two tests of fields of one value.
pub(crate) fn conflict_step(cx: &Cx<'_>, g: &str) -> Option<String> {
    let (a, b) = conjuncts(g.trim())?;
    let (a, b) = (test(a)?, test(b)?);
    let root = |p: &str| p.rsplit_once('.').map(|(root, _)| root.to_string());
    if a.path == b.path || root(a.path)? != root(b.path)? {
        return None;
    }
    let name = |p: &str| named(cx, p);
    let change = |t: &Test<'_>| t.change.replace("{}", &name(t.path));
    Some(format!(
        "Two settings conflict: {} {} while {} {}. Change one of them: {}, or {}.",
        name(a.path),
        a.holds,
        name(b.path),
        b.holds,
        change(&a),
        change(&b)
    ))
}

/// A field path as code, with the key its tag names first when known
/// (`` `peer-trusted-ca-file` (`mem.Etcd.PeerTrustedCAFile`) ``).
fn named(cx: &Cx<'_>, path: &str) -> String {
    match keyed(cx, path) {
        Some(key) => format!("{} ({})", code(&key.key), code(path)),
        None => code(path),
    }
}

fn keyed<'a>(cx: &Cx<'a>, path: &str) -> Option<&'a errdex_model::FieldKey> {
    cx.f.field_keys.iter().find(|k| k.field == path)
}

/// The sentence that says where the fields guard `g` reads are set, for
/// those whose key is known: `` `c.MaxTxnOps` is read from the key
/// `max-txn-ops` (the `yaml` tag of its field).``
pub(crate) fn keys_sentence(cx: &Cx<'_>, g: &str) -> String {
    let known: Vec<String> =
        cx.f.field_keys
            .iter()
            .filter(|k| crate::asks::names(g).any(|n| n == k.field))
            .map(|k| {
                format!(
                    " {} is read from the key {} (the {} tag of its field).",
                    code(&k.field),
                    code(&k.key),
                    code(&k.format)
                )
            })
            .collect();
    known.concat()
}

/// The two sides of `A && B` (`A and B`), when the guard is exactly that.
fn conjuncts(g: &str) -> Option<(&str, &str)> {
    if g.contains("||") || g.contains(" or ") || g.contains('(') {
        return None;
    }
    let (a, b) = g.split_once(" && ").or_else(|| g.split_once(" and "))?;
    let (a, b) = (a.trim(), b.trim());
    let single = |s: &str| !s.contains(" && ") && !s.contains(" and ");
    (single(a) && single(b)).then_some((a, b))
}

fn is_path(p: &str) -> bool {
    p.contains('.')
        && p.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        && p.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
}

fn make<'a>(path: &'a str, holds: &str, change: &str) -> Option<Test<'a>> {
    is_path(path).then(|| Test {
        path,
        holds: holds.to_string(),
        change: change.to_string(),
    })
}

/// A test of one field path, in the forms settings are tested in.
fn test(t: &str) -> Option<Test<'_>> {
    if let Some(p) = t.strip_prefix('!').or_else(|| t.strip_prefix("not ")) {
        return make(p.trim(), "is false", "set {} to true");
    }
    let forms = [
        (" != \"\"", "is set", "leave {} empty"),
        (" == \"\"", "is empty", "set {}"),
        (" != nil", "is set", "leave {} unset"),
        (" == nil", "is unset", "set {}"),
        (" is not None", "is set", "leave {} unset"),
        (" is None", "is unset", "set {}"),
        (" == 0", "is 0", "set {} to a value other than 0"),
    ];
    for (suffix, holds, change) in forms {
        if let Some(p) = t.strip_suffix(suffix) {
            return make(p.trim(), holds, change);
        }
    }
    make(t, "is true", "set {} to false")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_tests_of_one_values_fields_are_a_conflict() {
        let (a, b) =
            conjuncts(r#"!mem.Etcd.PeerClientCertAuth && mem.Etcd.PeerTrustedCAFile != """#)
                .unwrap();
        let (a, b) = (test(a).unwrap(), test(b).unwrap());
        assert_eq!(
            (a.path, a.holds.as_str()),
            ("mem.Etcd.PeerClientCertAuth", "is false")
        );
        assert_eq!(
            (b.path, b.change.as_str()),
            ("mem.Etcd.PeerTrustedCAFile", "leave {} empty")
        );
        let (a, b) = conjuncts("self.use_tls and self.insecure").unwrap();
        assert_eq!(test(a).unwrap().change, "set {} to false");
        assert_eq!(test(b).unwrap().holds, "is true");
        // Three tests, an `or`, a call or a plain local are not this form.
        assert!(conjuncts("a.x && a.y && a.z").is_none());
        assert!(conjuncts("a.x || a.y").is_none());
        assert!(conjuncts("a.x && len(a.y) > 0").is_none());
        assert!(test("ok").is_none());
        assert!(test("a.n > 3").is_none());
    }
}
