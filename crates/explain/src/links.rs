//! Formats handed to a printer: a call that passes its own format to a
//! function of the same file, as the parameter a hole of that function's
//! message prints (werkzeug's `self.log("info", '"%s" %s %s', msg, code,
//! size)` into `log`, whose `_log` prints `f"{address} - - [{date}]
//! {message}\n"`). Such a format is often marks and holes only, which no
//! line could be traced to alone; inside that hole it is a layer.
//!
//! And pieces of text the extractor saw flow into a hole
//! ([`errdex_model::Fill`]): etcd's `warnOfExpensiveGenericRequest(…,
//! "read-only range ", …)` into its log's `%srequest %q …` as `prefix`,
//! `result = fmt.Sprintf("error:%v", err)` into the same log as `result`.
//! Such a piece is short beside the hole's value, so it would not be read
//! as a message of its own there.

use errdex_lang::language;
use errdex_store::TraceRow;
use std::collections::HashMap;

/// Fewer literal letters than this and a template is glue only: it is
/// linked, since it is found nowhere else.
const GLUE_LETTERS: usize = 4;

/// Functions whose message has a hole filled by a name: (repo, file,
/// function's last name) → (site, that name). The site is the printer's,
/// or a piece's that fills the hole.
type Printers<'a> = HashMap<(&'a str, &'a str, &'a str), Vec<(u32, &'a str)>>;

/// `(outer site, argument, inner site)` for
/// [`errdex_match::TemplateSetBuilder::link`], sites numbered across the
/// atlas as [`crate::Explainer`] numbers them.
pub(crate) fn links(rows: &[TraceRow]) -> Vec<(u32, String, u32)> {
    let mut out = filled_holes(rows);
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
        return out;
    }
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

/// Links of the pieces that fill a hole: each to the sites of its file,
/// in the function it names, whose holes print its value.
fn filled_holes(rows: &[TraceRow]) -> Vec<(u32, String, u32)> {
    // Keyed as printers are: the pieces that fill the function's holes.
    let mut pieces: Printers<'_> = HashMap::new();
    for (payload, row, site) in numbered(rows) {
        if let Some(fill) = &site.fills {
            pieces
                .entry((&row.repo, &site.file_path, last_name(&fill.function)))
                .or_default()
                .push((payload, &fill.arg));
        }
    }
    if pieces.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (payload, row, site) in numbered(rows) {
        let Some(function) = site.function.as_deref() else {
            continue;
        };
        let Some(list) = pieces.get(&(
            row.repo.as_str(),
            site.file_path.as_str(),
            last_name(function),
        )) else {
            continue;
        };
        for (inner, arg) in list.iter().filter(|(i, _)| *i != payload) {
            if site.args.iter().any(|a| a == arg) {
                out.push((payload, arg.to_string(), *inner));
            }
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
                fills: None,
                fields: Vec::new(),
                closed_holes: Vec::new(),
            }],
            presence: None,
        }
    }

    #[test]
    fn a_piece_is_linked_to_the_holes_that_print_its_value() {
        let mut rows = [
            row(
                "%srequest %q took too long",
                183,
                "warnGeneric",
                "plog.Warningf",
                &["prefix", "req"],
            ),
            row("read-only range ", 160, "warnRange", "warnGeneric", &[]),
            row("error:%v", 180, "warnGeneric", "=", &["err"]),
            // Fills a function that prints no such value.
            row("size:%d", 109, "warnRange", "=", &["n"]),
        ];
        let fill = |function: &str, arg: &str| errdex_model::Fill {
            function: function.into(),
            arg: arg.into(),
        };
        rows[1].sites[0].fills = Some(fill("warnGeneric", "prefix"));
        rows[2].sites[0].fills = Some(fill("warnGeneric", "req"));
        rows[3].sites[0].fills = Some(fill("warnGeneric", "resp"));
        assert_eq!(
            links(&rows),
            [(0, "prefix".to_string(), 1), (0, "req".to_string(), 2)]
        );
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
