//! `errdex list`.

use crate::cli::ListArgs;
use crate::{not_found, Failure};
use errdex_model::Record;
use errdex_store::{ListQuery, Store};
use serde_json::json;
use std::io::Write;

pub(crate) fn run(store: &dyn Store, a: ListArgs) -> Result<(), Failure> {
    if a.dynamic {
        let sites = store.dynamic_sites(a.repo.as_deref())?;
        let mut out = std::io::stdout().lock();
        for (repo, d) in sites
            .iter()
            .take(if a.limit == 0 { usize::MAX } else { a.limit })
        {
            if a.json {
                let mut v = serde_json::to_value(d)?;
                v["repo"] = json!(repo);
                writeln!(out, "{v}")?;
            } else {
                writeln!(
                    out,
                    "{}:{}\t{}\t{}({})",
                    d.file_path,
                    d.line_number,
                    d.function.as_deref().unwrap_or("-"),
                    d.callee,
                    d.expression
                )?;
            }
        }
        return Ok(());
    }
    let q = ListQuery {
        repo: a.repo.clone(),
        severity: a.severity.map(|s| s.as_str().to_string()),
        error_type: a.error_type.map(|t| t.as_str().to_string()),
        path_prefix: a.path.clone(),
        tag: a.tag.clone(),
        family: a.family.clone(),
        error_code: None,
        limit: a.limit,
        offset: 0,
        all_levels: a.all_levels,
    };
    let records = store.list(&q)?;
    if records.is_empty() {
        return Err(not_found("no records match"));
    }
    if a.json {
        let mut out = std::io::stdout().lock();
        for r in &records {
            let row = json!({
                "id": r.id, "repo": r.repo, "slug": r.slug, "severity": r.severity,
                "errorType": r.error_type, "filePath": r.file_path, "lineNumber": r.line_number,
                "sites": r.sites.len(), "messagePattern": r.message_pattern,
            });
            writeln!(out, "{row}")?;
        }
        Ok(())
    } else {
        print_table(&records)
    }
}

/// The record table: id, severity, type, primary site, pattern.
pub(crate) fn print_table(records: &[Record]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<16}  {:<8}  {:<9}  {:<40}  MESSAGE",
        "ID", "SEVERITY", "TYPE", "SITE"
    )?;
    for r in records {
        let mut site = format!("{}:{}", r.file_path, r.line_number);
        if r.sites.len() > 1 {
            site.push_str(&format!(" (+{})", r.sites.len() - 1));
        }
        writeln!(
            out,
            "{}  {:<8}  {:<9}  {:<40}  {}",
            r.id,
            r.severity.as_str(),
            r.error_type.as_str(),
            site,
            one_line(&r.message_pattern, 100)
        )?;
    }
    Ok(())
}

/// A message on one line: newlines and tabs escaped, long text cut.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let escaped = s.chars().flat_map(|c| {
        let (first, second) = match c {
            '\n' => ('\\', Some('n')),
            '\t' => ('\\', Some('t')),
            c if c.is_control() => ('?', None),
            c => (c, None),
        };
        std::iter::once(first).chain(second)
    });
    let mut out = String::with_capacity(s.len().min(4 * max));
    // Where the text ends when cut: `max - 1` characters, then an ellipsis.
    let mut cut = 0;
    for (i, c) in escaped.enumerate() {
        if i + 1 == max {
            cut = out.len();
        } else if i + 1 > max {
            out.truncate(cut);
            out.push('…');
            break;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn one_line_escapes_and_cuts_at_the_limit() {
        assert_eq!(one_line("a\tb\nc\u{7}", 20), "a\\tb\\nc?");
        assert_eq!(one_line("abcdef", 6), "abcdef");
        assert_eq!(one_line("abcdefg", 6), "abcde…");
        // An escape counts as two characters and may be cut in half.
        assert_eq!(one_line("abcd\nefg", 6), "abcd\\…");
        assert_eq!(one_line("abcd\n", 6), "abcd\\n");
        assert_eq!(one_line("ünïcödé wörds", 8), "ünïcödé…");
    }
}
