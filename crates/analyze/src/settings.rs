//! Settings: values a person sets, read by the guards as fields of one
//! value. A guard that joins two tests of fields of the same value
//! (`!mem.Etcd.PeerClientCertAuth && mem.Etcd.PeerTrustedCAFile != ""`)
//! says two settings conflict, and changing either one clears it. A field
//! whose tag names its key (`yaml:"peer-client-cert-auth"`, the site fact
//! `fieldKeys`) is named by the key a person writes. A field an option
//! function sets (`WithMinModRev` sets `minModRev`, the site fact
//! `fieldOptions`) is what a caller passes: the guard refuses or needs
//! that option.

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

/// The step for guard `g` when its tests read fields that option
/// functions set: all of them refusing a set field (`ret.minModRev != 0
/// || ret.maxModRev != 0`) asks to leave those options out; all of them
/// needing one (`o.timeout == 0`) asks to pass it.
pub(crate) fn option_step(cx: &Cx<'_>, g: &str) -> Option<String> {
    if cx.f.field_options.is_empty() || g.contains('(') {
        return None;
    }
    let (tests, joined_by_or) = match (g.contains("||"), g.contains("&&")) {
        (true, true) => return None,
        (true, false) => (g.split("||").collect::<Vec<_>>(), true),
        (false, _) => (g.split("&&").collect::<Vec<_>>(), false),
    };
    let mut refused = Vec::new();
    let mut needed = Vec::new();
    for t in tests {
        let t = test(t.trim())?;
        let options = cx.f.field_options.iter().find(|o| o.field == t.path)?;
        match t.holds.as_str() {
            "is set" | "is true" | "is not 0" => refused.push(options),
            "is unset" | "is empty" | "is 0" | "is false" => needed.push(options),
            _ => return None,
        }
    }
    let function = code(cx.fname.or(cx.function)?);
    let fields = |list: &[&errdex_model::FieldOption]| {
        let shown: Vec<String> = list.iter().map(|o| code(&o.field)).collect();
        shown.join(" and ")
    };
    let call = |n: &String| code(&format!("{n}(…)"));
    let calls = |o: &errdex_model::FieldOption, join: &str| {
        let shown: Vec<String> = o.options.iter().map(call).collect();
        shown.join(join)
    };
    match (refused.is_empty(), needed.is_empty()) {
        (false, true) if joined_by_or || refused.len() == 1 => {
            let names: Vec<&String> = refused.iter().flat_map(|o| &o.options).collect();
            let shown: Vec<String> = names.iter().map(|n| call(n)).collect();
            let (they, set) = if names.len() == 1 {
                ("it", "sets")
            } else {
                ("they", "set")
            };
            Some(format!(
                "Leave {} out of the options given to {function}: {they} {set} {}, which {function} refuses.",
                listed(&shown, "and"),
                fields(&refused)
            ))
        }
        (true, false) if !joined_by_or || needed.len() == 1 => {
            let options: Vec<String> = needed.iter().map(|o| calls(o, " or ")).collect();
            let count: usize = needed.iter().map(|o| o.options.len()).sum();
            let (which, set) = if count == 1 {
                ("that option", "sets")
            } else {
                ("those options", "set")
            };
            Some(format!(
                "Pass {} among the options given to {function}: {function} needs {}, which only {which} {set}.",
                listed(&options, "and"),
                fields(&needed),
            ))
        }
        _ => None,
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listed(items: &[String], and: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [head @ .., last] => format!("{} {and} {last}", head.join(", ")),
    }
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

/// A field path (`mem.Etcd.Name`), not a plain local.
fn is_path(p: &str) -> bool {
    p.contains('.') && crate::is_plain_name(p)
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
        (" != 0", "is not 0", "set {} to 0"),
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
