//! Where a person sets a value a guard reads: a field path in a guard
//! (`mem.Etcd.PeerClientCertAuth`) whose field every struct of the
//! repository that declares it tags with the same key
//! (`yaml:"peer-client-cert-auth"`). A name declared untagged anywhere,
//! or tagged with different keys, says nothing: the field is matched by
//! its name alone, so only a name that means one key is kept. And the
//! option functions that set a field a guard reads (`WithMinModRev` sets
//! `minModRev`): an unexported field only by those of its own folder.

use errdex_model::{FieldKey, FieldOption, Lang, RawSite};
use std::collections::HashMap;

/// Sets each Go site's `field_keys` from the repository's declarations.
pub(crate) fn attach_field_keys(sites: &mut [RawSite], declared: &[FieldKey]) {
    let keys = unambiguous(declared);
    if keys.is_empty() {
        return;
    }
    for site in sites.iter_mut().filter(|s| s.lang == Lang::Go) {
        let mut found: Vec<FieldKey> = Vec::new();
        for path in site.facts.guards.iter().flat_map(|g| field_paths(g)) {
            let Some(field) = path.rsplit('.').next() else {
                continue;
            };
            // A one-word field (`Method`, `Port`) is too common a name
            // to stand for one key unless the key itself is distinctive.
            let distinctive = |key: &str| key.contains('-') || words(field) >= 2;
            if let Some((format, key)) = keys.get(field).filter(|(_, k)| distinctive(k)) {
                let k = FieldKey {
                    field: path.to_string(),
                    format: format.to_string(),
                    key: key.to_string(),
                };
                if !found.contains(&k) {
                    found.push(k);
                }
            }
        }
        site.facts.field_keys = found;
    }
}

/// Sets each Go site's `field_options` from the option functions of the
/// repository: `setters` holds (folder, field, option).
pub(crate) fn attach_field_options(sites: &mut [RawSite], setters: &[(String, String, String)]) {
    if setters.is_empty() {
        return;
    }
    // (folder, or "" for an exported field; field) → options.
    let mut by_field: HashMap<(&str, &str), Vec<&str>> = HashMap::new();
    for (dir, field, option) in setters {
        let exported = field.starts_with(|c: char| c.is_uppercase());
        let scope = if exported { "" } else { dir.as_str() };
        let options = by_field.entry((scope, field.as_str())).or_default();
        if !options.contains(&option.as_str()) {
            options.push(option);
        }
    }
    for site in sites.iter_mut().filter(|s| s.lang == Lang::Go) {
        let dir = crate::folder(&site.file_path).to_string();
        let mut found: Vec<FieldOption> = Vec::new();
        for path in site.facts.guards.iter().flat_map(|g| field_paths(g)) {
            let Some(field) = path.rsplit('.').next() else {
                continue;
            };
            let exported = field.starts_with(|c: char| c.is_uppercase());
            let scope = if exported { "" } else { dir.as_str() };
            let Some(options) = by_field.get(&(scope, field)) else {
                continue;
            };
            if !found.iter().any(|f| f.field == path) {
                found.push(FieldOption {
                    field: path.to_string(),
                    options: options.iter().map(|o| o.to_string()).collect(),
                });
            }
        }
        site.facts.field_options = found;
    }
}

/// The words of an identifier: `PeerClientCertAuth` has four,
/// `max_txn_ops` three, `Method` one.
fn words(name: &str) -> usize {
    let c: Vec<char> = name.chars().collect();
    // A capital after a small letter, or the last capital of an acronym
    // before a small letter (`WALDir`).
    let humps = (1..c.len())
        .filter(|&i| c[i].is_uppercase())
        .filter(|&i| {
            c[i - 1].is_lowercase()
                || c[i - 1].is_uppercase() && c.get(i + 1).is_some_and(|n| n.is_lowercase())
        })
        .count();
    1 + humps + name.trim_matches('_').matches('_').count()
}

/// Field name → its one (format, key), for names every declaration tags
/// alike.
fn unambiguous(declared: &[FieldKey]) -> HashMap<&str, (&str, &str)> {
    let mut seen: HashMap<&str, Option<(&str, &str)>> = HashMap::new();
    for d in declared {
        let this = (!d.format.is_empty()).then_some((d.format.as_str(), d.key.as_str()));
        seen.entry(d.field.as_str())
            .and_modify(|k| {
                if *k != this {
                    *k = None;
                }
            })
            .or_insert(this);
    }
    seen.into_iter()
        .filter_map(|(f, k)| Some((f, k?)))
        .collect()
}

/// The selector paths a guard reads (`mem.Etcd.Name`, not `len` nor a
/// call's name `strings.HasPrefix`).
fn field_paths(guard: &str) -> Vec<&str> {
    let mut paths = errdex_lang::guard_names(guard);
    paths.retain(|p| p.contains('.'));
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(field: &str, format: &str, key: &str) -> FieldKey {
        FieldKey {
            field: field.into(),
            format: format.into(),
            key: key.into(),
        }
    }

    #[test]
    fn guards_name_the_paths_they_read() {
        assert_eq!(
            field_paths(r#"!mem.Etcd.PeerClientCertAuth && mem.Etcd.PeerTrustedCAFile != """#),
            vec!["mem.Etcd.PeerClientCertAuth", "mem.Etcd.PeerTrustedCAFile"]
        );
        assert_eq!(
            field_paths("!strings.HasPrefix(mem.Etcd.DataDir, mem.BaseDir)"),
            vec!["mem.Etcd.DataDir", "mem.BaseDir"]
        );
        assert!(field_paths("len(names) == 0").is_empty());
    }

    #[test]
    fn an_unexported_field_takes_the_options_of_its_folder_only() {
        let setters = [
            (
                "kv".to_string(),
                "minModRev".to_string(),
                "WithMinModRev".to_string(),
            ),
            (
                "other".to_string(),
                "limit".to_string(),
                "WithLimit".to_string(),
            ),
            (
                "api".to_string(),
                "Timeout".to_string(),
                "WithTimeout".to_string(),
            ),
        ];
        let mut site = RawSite {
            file_path: "kv/op.go".into(),
            line_number: 1,
            column: 1,
            function: None,
            callee: "panic".into(),
            message_pattern: "unexpected".into(),
            error_message: "unexpected".into(),
            error_type: errdex_model::ErrorType::Panic,
            severity: errdex_model::Severity::Critical,
            error_class: None,
            error_code: None,
            http_status: None,
            lang: Lang::Go,
            args: Vec::new(),
            facts: Default::default(),
        };
        site.facts.guards = vec!["ret.minModRev != 0 || ret.limit != 0 || o.Timeout == 0".into()];
        let mut sites = [site];
        attach_field_options(&mut sites, &setters);
        let found: Vec<(&str, Vec<String>)> = sites[0]
            .facts
            .field_options
            .iter()
            .map(|f| (f.field.as_str(), f.options.clone()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("ret.minModRev", vec!["WithMinModRev".to_string()]),
                ("o.Timeout", vec!["WithTimeout".to_string()]),
            ]
        );
    }

    #[test]
    fn identifiers_are_counted_in_words() {
        assert_eq!(words("PeerClientCertAuth"), 4);
        assert_eq!(words("max_txn_ops"), 3);
        assert_eq!(words("Method"), 1);
        assert_eq!(words("WALDir"), 2);
    }

    #[test]
    fn only_a_name_every_declaration_tags_alike_has_a_key() {
        let declared = [
            decl("PeerTrustedCAFile", "yaml", "peer-trusted-ca-file"),
            decl("Name", "yaml", "name"),
            decl("Name", "", ""),
            decl("DataDir", "yaml", "data-dir"),
            decl("DataDir", "json", "data-dir"),
            decl("Port", "yaml", "port"),
            decl("Port", "yaml", "port"),
        ];
        let keys = unambiguous(&declared);
        assert_eq!(
            keys.get("PeerTrustedCAFile"),
            Some(&("yaml", "peer-trusted-ca-file"))
        );
        assert_eq!(keys.get("Port"), Some(&("yaml", "port")));
        assert_eq!(keys.get("Name"), None);
        assert_eq!(keys.get("DataDir"), None);
    }
}
