//! Formats handed to a printer: a call that passes its own format to a
//! function of the same file, as the parameter a hole of that function's
//! message prints (werkzeug's `self.log("info", '"%s" %s %s', msg, code,
//! size)` into `log`, whose `_log` prints `f"{address} - - [{date}]
//! {message}\n"`). Such a format is often marks and holes only, which no
//! line could be traced to alone; inside that hole it is a layer.

use errdex_lang::language;
use errdex_store::TraceRow;
use std::collections::HashMap;

/// Fewer literal letters than this and a template is glue only: it is
/// linked, since it is found nowhere else.
const GLUE_LETTERS: usize = 4;

/// Functions whose message has a hole filled by a message-named name:
/// (repo, file, function's last name) → (site, that name).
type Printers<'a> = HashMap<(&'a str, &'a str, &'a str), Vec<(u32, &'a str)>>;

/// `(outer site, argument, inner site)` for
/// [`errdex_match::TemplateSetBuilder::link`], sites numbered across the
/// atlas as [`crate::Explainer`] numbers them.
pub(crate) fn links(rows: &[TraceRow]) -> Vec<(u32, String, u32)> {
    let mut printers: Printers<'_> = HashMap::new();
    for (payload, row, site) in numbered(rows) {
        let Some(function) = site.function.as_deref() else {
            continue;
        };
        for arg in site.args.iter().filter(|a| is_format_name(a)) {
            printers
                .entry((&row.repo, &site.file_path, last_name(function)))
                .or_default()
                .push((payload, arg));
        }
    }
    if printers.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (payload, row, site) in numbered(rows) {
        let key = (
            row.repo.as_str(),
            site.file_path.as_str(),
            last_name(&site.callee),
        );
        let Some(outer) = printers.get(&key) else {
            continue;
        };
        let t = language(row.language).template(&row.message_pattern, &site.args, &site.callee);
        if t.literal_alnum() >= GLUE_LETTERS {
            continue;
        }
        for (o, arg) in outer.iter().filter(|(o, _)| *o != payload) {
            out.push((*o, arg.to_string(), payload));
        }
    }
    out
}

/// Every site with its number across the atlas, in the order
/// [`crate::Explainer::new`] numbers them.
fn numbered(rows: &[TraceRow]) -> impl Iterator<Item = (u32, &TraceRow, &errdex_store::TraceSite)> {
    rows.iter()
        .flat_map(|row| row.sites.iter().map(move |site| (row, site)))
        .enumerate()
        .map(|(i, (row, site))| (i as u32, row, site))
}

/// A parameter that carries a message or its format.
fn is_format_name(arg: &str) -> bool {
    let plain = arg.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    plain && (errdex_lang::is_message_name(arg) || matches!(arg, "fmt" | "format"))
}

/// The last name of a dotted, `->` or `::` path (`self.log` → `log`,
/// `WSGIRequestHandler.log` → `log`).
fn last_name(path: &str) -> &str {
    path.rsplit(['.', ':', '>']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Lang;
    use errdex_store::TraceSite;

    fn row(pattern: &str, line: u32, function: &str, callee: &str, args: &[&str]) -> TraceRow {
        TraceRow {
            id: format!("r{line}"),
            repo: "pallets/werkzeug".into(),
            slug: format!("r{line}"),
            message_pattern: pattern.into(),
            language: Lang::Python,
            documentation: None,
            sites: vec![TraceSite {
                file_path: "serving.py".into(),
                line_number: line,
                function: Some(function.into()),
                callee: callee.into(),
                args: args.iter().map(|a| a.to_string()).collect(),
                github_url: None,
                guards: Vec::new(),
            }],
        }
    }

    #[test]
    fn a_format_of_marks_handed_to_a_printer_of_the_file_is_linked() {
        let rows = [
            row(
                "%v - - [%v] %v\n",
                482,
                "WSGIRequestHandler.log",
                "_log",
                &["address_string", "self.log_date_time_string()", "message"],
            ),
            row(
                "\"%s\" %s %s",
                471,
                "WSGIRequestHandler.log_request",
                "self.log",
                &["msg", "code", "size"],
            ),
            // Words of its own: found without a link.
            row("Serving %s on %s", 500, "run", "self.log", &["app", "port"]),
            // Calls another function.
            row("%s %s", 510, "run", "self.emit", &["a", "b"]),
        ];
        assert_eq!(links(&rows), [(0, "message".to_string(), 1)]);
    }
}
