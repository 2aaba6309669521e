//! The places that check for or return a sentinel or typed error, tied
//! to the sites that declare it.

use crate::folder;
use errdex_lang::ErrorCheck;
use std::collections::HashMap;

/// Whether check `c` names the sentinel or type declared in the file
/// `site_file` of package `site_package`: `pkg.ErrX` must name its
/// package, an unqualified `ErrX` must sit in its folder.
pub(crate) fn names_site(c: &ErrorCheck, site_package: Option<&str>, site_file: &str) -> bool {
    match &c.qualifier {
        Some(q) => site_package == Some(q.as_str()),
        None => folder(&c.file_path) == folder(site_file),
    }
}

/// Tells each sentinel or typed-error site where the repository checks
/// for it, and each sentinel where the repository returns it: a check or
/// return written `pkg.ErrX` must name the site's package, an unqualified
/// one must sit in the site's folder.
pub(crate) fn attach_checks(sites: &mut [errdex_model::RawSite], checks: &[ErrorCheck]) {
    let mut by_name: HashMap<&str, Vec<&ErrorCheck>> = HashMap::new();
    for c in checks {
        by_name.entry(c.name.as_str()).or_default().push(c);
    }
    for site in sites {
        let Some(found) = site.error_class.as_deref().and_then(|c| by_name.get(c)) else {
            continue;
        };
        let package = site.facts.package.as_deref();
        let mut at: Vec<&&ErrorCheck> = found
            .iter()
            .filter(|c| names_site(c, package, &site.file_path))
            .collect();
        at.sort_by(|a, b| (&a.file_path, a.line_number).cmp(&(&b.file_path, b.line_number)));
        // A map entry that translates an error into this one is a cause,
        // not a check (`causes::translated`); a sentinel made from this one
        // brings its checks.
        let (returns, checks): (Vec<&&ErrorCheck>, Vec<&&ErrorCheck>) = at
            .into_iter()
            .filter(|c| !matches!(c.how, "translates" | "alias"))
            .partition(|c| c.how == "return");
        let mut checked: Vec<String> = checks
            .iter()
            .map(|c| format!("{}:{} {}", c.file_path, c.line_number, c.how))
            .collect();
        checked.extend(alias_checks(site, found, &by_name));
        checked.truncate(errdex_model::MAX_CHECKS);
        site.facts.checked_at = checked;
        site.facts.returned_at = returns
            .iter()
            .take(errdex_model::MAX_CHECKS)
            .map(|c| {
                let mut s = format!("{}:{}", c.file_path, c.line_number);
                if let Some(f) = &c.function {
                    s.push(' ');
                    s.push_str(f);
                }
                if let Some(g) = &c.guard {
                    s.push_str(" when ");
                    s.push_str(g);
                }
                s
            })
            .collect();
    }
}

/// The checks of sentinels made from the site's in its own folder
/// (`ErrAuthOldRevision = Error(ErrGRPCAuthOldRevision)`), each naming
/// the sentinel it tests: `clientv3/retry_interceptor.go:155 ==
/// (ErrAuthOldRevision)`.
fn alias_checks(
    site: &errdex_model::RawSite,
    found: &[&ErrorCheck],
    by_name: &HashMap<&str, Vec<&ErrorCheck>>,
) -> Vec<String> {
    let package = site.facts.package.as_deref();
    let mut out = Vec::new();
    for a in found.iter().filter(|c| c.how == "alias") {
        let Some(alias) = a.from.as_deref() else {
            continue;
        };
        if folder(&a.file_path) != folder(&site.file_path)
            || !names_site(a, package, &site.file_path)
        {
            continue;
        }
        let mut checks: Vec<&&ErrorCheck> = by_name
            .get(alias)
            .into_iter()
            .flatten()
            .filter(|c| !matches!(c.how, "return" | "translates" | "alias"))
            .filter(|c| names_site(c, package, &a.file_path))
            .collect();
        checks.sort_by(|x, y| (&x.file_path, x.line_number).cmp(&(&y.file_path, y.line_number)));
        out.extend(
            checks
                .iter()
                .map(|c| format!("{}:{} {} ({alias})", c.file_path, c.line_number, c.how)),
        );
    }
    out
}
