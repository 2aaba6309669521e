//! The runtime knowledge base ([`errdex_kb`]) as records of every atlas:
//! each entry's templates are sites that answer a layer no repository
//! prints (`bind: address already in use` after a repository's `listening
//! on %s: %w`), and give way to a repository's site of the same text.
//! Their candidates carry the entry's first remedy and documentation.

use errdex_model::Lang;
use errdex_store::{TraceRow, TraceSite};
use serde::Serialize;

/// What a record id of the knowledge base starts with.
const ID_PREFIX: &str = "kb:";

/// A candidate's knowledge-base entry, as answers show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Knowledge<'a> {
    /// The entry's key (`errno/EADDRINUSE`); its meaning is the
    /// candidate's documentation.
    pub key: &'a str,
    /// The first thing to do.
    pub remedy: &'a str,
    /// The command that does or checks it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<&'a str>,
    /// The official documentation.
    pub docs: &'a str,
}

/// The knowledge-base entry of a record id, if it is one.
pub(crate) fn of(record_id: &str) -> Option<Knowledge<'static>> {
    let e = errdex_kb::get(record_id.strip_prefix(ID_PREFIX)?)?;
    let first = e.remedies.first()?;
    Some(Knowledge {
        key: &e.key,
        remedy: &first.action,
        run: first.run.as_deref(),
        docs: &e.docs,
    })
}

/// Whether a row is one of [`rows`].
pub(crate) fn is_knowledge(row: &TraceRow) -> bool {
    row.id.starts_with(ID_PREFIX)
}

/// One row per entry and distinct template, whose pattern is the
/// template as the knowledge base writes it (`dial {net} {addr}: {err}`)
/// and whose site's arguments are its holes' names.
pub(crate) fn rows() -> Vec<TraceRow> {
    let mut rows: Vec<TraceRow> = Vec::new();
    for e in errdex_kb::entries() {
        let first = rows.len();
        for t in &e.texts {
            if rows[first..].iter().any(|r| r.message_pattern == t.text) {
                continue;
            }
            // `err` holds a wrapped cause; every other hole a plain value
            // (a hole named like `errno` would read as a cause).
            let (_, names) = errdex_kb::printf(&t.text);
            let args = names
                .into_iter()
                .map(|n| if n == "err" { n } else { "value".to_string() })
                .collect();
            let (runtime, _) = e.key.split_once('/').unwrap_or(("kb", ""));
            rows.push(TraceRow {
                id: format!("{ID_PREFIX}{}", e.key),
                repo: format!("kb/{runtime}"),
                slug: e.key.clone(),
                message_pattern: t.text.clone(),
                // Its printf form is read by C's dialect ([`template`]).
                language: Lang::C,
                documentation: Some(e.meaning.clone()),
                sites: vec![TraceSite {
                    file_path: String::new(),
                    line_number: 0,
                    function: None,
                    callee: String::new(),
                    args,
                    github_url: None,
                    guards: Vec::new(),
                    fills: None,
                }],
            });
        }
    }
    rows
}

/// A knowledge-base row's template: its pattern in printf form, whose `err`
/// holes read as wrapped causes.
pub(crate) fn template(row: &TraceRow, site: &TraceSite) -> errdex_model::Template {
    let (printf, _) = errdex_kb::printf(&row.message_pattern);
    errdex_lang::language(row.language).template(&printf, &site.args, &site.callee)
}
