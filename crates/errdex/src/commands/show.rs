//! `errdex show`.

use crate::cli::ShowArgs;
use crate::{not_found, Failure};
use anyhow::anyhow;
use errdex_model::Record;
use errdex_store::Store;
use serde_json::json;
use std::io::Write;

pub(crate) fn run(store: &dyn Store, a: ShowArgs) -> Result<(), Failure> {
    let record = find(store, &a.id_or_slug, a.repo.as_deref())?;
    let mut out = std::io::stdout().lock();
    if a.json {
        let doc = json!({ "record": record, "datasetVersion": store.dataset_version()? });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(());
    }
    print_record(&mut out, &record)?;
    Ok(())
}

fn find(store: &dyn Store, key: &str, repo: Option<&str>) -> Result<Record, Failure> {
    if let Some(r) = store.get(key)? {
        if repo.is_none_or(|want| r.repo == want) {
            return Ok(r);
        }
    }
    let mut found = store.find_slug(repo, key)?;
    match found.len() {
        0 => Err(not_found(format!(
            "no record with id or slug {key:?}{}; `errdex list` shows what there is",
            repo.map(|r| format!(" in {r}")).unwrap_or_default()
        ))),
        1 => Ok(found.remove(0)),
        _ => Err(anyhow!(
            "slug {key:?} exists in several repositories ({}); add --repo",
            found
                .iter()
                .map(|r| r.repo.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
        .into()),
    }
}

fn print_record(out: &mut impl Write, r: &Record) -> std::io::Result<()> {
    writeln!(out, "{} · {}", r.repo, r.severity)?;
    writeln!(out)?;
    writeln!(out, "  {}", r.error_message)?;
    writeln!(out)?;
    writeln!(out, "id        {}", r.id)?;
    writeln!(out, "slug      {}", r.slug)?;
    writeln!(out, "pattern   {:?}", r.message_pattern)?;
    write!(out, "type      {}", r.error_type)?;
    if let Some(c) = &r.error_class {
        write!(out, " · class {c}")?;
    }
    if let Some(c) = &r.error_code {
        write!(out, " · code {c}")?;
    }
    if let Some(s) = r.http_status {
        write!(out, " · HTTP {s}")?;
    }
    writeln!(out)?;
    if let Some(doc) = &r.documentation {
        writeln!(out, "\n{doc}")?;
    }
    writeln!(out, "\nSource: {}:{}", r.file_path, r.line_number)?;
    for (i, line) in r.source_code.split('\n').enumerate() {
        let n = r.source_code_start + i as u32;
        let mark = if n == r.line_number { '>' } else { ' ' };
        writeln!(out, "{mark}{n:>6} | {line}")?;
    }
    if let Some(u) = &r.github_url {
        writeln!(out, "\nView: {u}")?;
    }
    writeln!(out, "\nSites ({}):", r.sites.len())?;
    for s in &r.sites {
        writeln!(
            out,
            "  {}:{}  {}  {}",
            s.file_path,
            s.line_number,
            s.function.as_deref().unwrap_or("-"),
            s.callee
        )?;
    }
    if let Some(sha) = &r.analyzed_sha {
        writeln!(
            out,
            "\nExtracted from {}@{} ({})",
            r.repo,
            &sha[..sha.len().min(10)],
            r.analyzed_at
        )?;
    }
    Ok(())
}
