//! Errors a map of errors turns into a sentinel: etcd's
//! `auth.ErrAuthOldRevision: rpctypes.ErrGRPCAuthOldRevision,` makes the
//! server answer with `etcdserver: revision of auth store is old` where
//! its code returns `auth: revision in header is old`. The sentinel's
//! causes are that error, where it is declared and where it is returned.

use super::{SiteRef, MAX_CAUSES};
use crate::names_site;
use errdex_lang::ErrorCheck;
use errdex_model::{Cause, Record};
use std::collections::HashMap;

/// The records with a sentinel site, by the sentinel's name.
type BySentinel<'r> = HashMap<&'r str, Vec<(&'r Record, &'r errdex_model::Site)>>;

/// The records whose sites declare the sentinel that check `c` names.
fn declaring<'r>(by_name: &BySentinel<'r>, c: &ErrorCheck) -> Vec<&'r Record> {
    let mut out: Vec<&Record> = Vec::new();
    for (r, s) in by_name.get(c.name.as_str()).into_iter().flatten() {
        if names_site(c, s.facts.package.as_deref(), &s.file_path)
            && !out.iter().any(|o| o.id == r.id)
        {
            out.push(r);
        }
    }
    out
}

/// The causes of each sentinel a map of errors translates into, by
/// record id: the translated error's declaration, then where it is
/// returned, each with the map entry that translates it.
pub(super) fn causes(
    records: &[Record],
    translations: &[&ErrorCheck],
    sites: &[SiteRef],
) -> HashMap<String, Vec<Cause>> {
    let mut returned: HashMap<&str, Vec<&SiteRef>> = HashMap::new();
    for s in sites.iter().filter(|s| s.sentinel.is_some()) {
        returned.entry(s.record_id.as_str()).or_default().push(s);
    }
    if translations.is_empty() {
        return HashMap::new();
    }
    let mut by_name: BySentinel = HashMap::new();
    for r in records {
        for s in &r.sites {
            if let Some(name) = s.error_class.as_deref() {
                by_name.entry(name).or_default().push((r, s));
            }
        }
    }
    let mut out: HashMap<String, Vec<Cause>> = HashMap::new();
    for t in translations {
        let Some(from) = t.from.as_deref() else {
            continue;
        };
        let (qualifier, name) = match from.rsplit_once('.') {
            Some((q, n)) => (Some(q.rsplit('.').next().unwrap_or(q).to_string()), n),
            None => (None, from),
        };
        let key = ErrorCheck {
            name: name.to_string(),
            qualifier,
            ..(*t).clone()
        };
        let at = format!("{}:{}", t.file_path, t.line_number);
        for a in declaring(&by_name, &key) {
            let decl = &a.sites[0];
            let cause = |file: &str, line: u32, path: Vec<String>, when: Option<String>| Cause {
                message_pattern: a.message_pattern.clone(),
                record_id: Some(a.id.clone()),
                knowledge: None,
                file_path: file.to_string(),
                line_number: line,
                path,
                values: Vec::new(),
                when,
                comment: None,
                translated_at: Some(at.clone()),
            };
            let mut found = vec![Cause {
                comment: decl.facts.comment.clone(),
                ..cause(
                    &decl.file_path,
                    decl.line_number,
                    vec![from.to_string()],
                    None,
                )
            }];
            for s in returned.get(a.id.as_str()).into_iter().flatten() {
                let path = s.function.iter().cloned().collect();
                found.push(cause(&s.file, s.line, path, s.when.clone()));
            }
            // The same text on both sides is one record: no cause.
            for b in declaring(&by_name, t).into_iter().filter(|b| b.id != a.id) {
                let list = out.entry(b.id.clone()).or_default();
                list.extend(found.iter().cloned());
                list.truncate(MAX_CAUSES);
            }
        }
    }
    out
}
