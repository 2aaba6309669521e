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
    // The seed page's sections, in its order.
    if let Some(doc) = &r.documentation {
        writeln!(out, "\nWhat it means\n  {doc}")?;
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
    if !r.solutions.is_empty() {
        writeln!(out, "\nSolutions")?;
        for (i, s) in r.solutions.iter().enumerate() {
            writeln!(out, "  {}. {s}", i + 1)?;
        }
    }
    if let Some(fix) = &r.example_fix {
        writeln!(out, "\nExample fix\n{}", indent(fix))?;
    }
    let patterns = [
        ("Validation", &r.validation_code),
        ("Type guard", &r.type_guard),
        ("Handling", &r.try_catch_pattern),
    ];
    if r.handling_strategy.is_some() || patterns.iter().any(|(_, c)| c.is_some()) {
        write!(out, "\nDefensive patterns")?;
        match &r.handling_strategy {
            Some(h) => writeln!(out, " (strategy: {h})")?,
            None => writeln!(out)?,
        }
        for (title, code) in patterns {
            if let Some(code) = code {
                writeln!(out, "  {title}:\n{}", indent(code))?;
            }
        }
    }
    if r.trigger_scenarios.is_some() || r.common_situations.is_some() {
        writeln!(out, "\nWhen it happens")?;
        for t in [&r.trigger_scenarios, &r.common_situations]
            .into_iter()
            .flatten()
        {
            writeln!(out, "  {t}")?;
        }
    }
    if !r.prevention_tips.is_empty() {
        writeln!(out, "\nPrevention")?;
        for t in &r.prevention_tips {
            writeln!(out, "  - {t}")?;
        }
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
    if !r.related_errors.is_empty() {
        writeln!(out, "\nRelated errors")?;
        for e in &r.related_errors {
            writeln!(out, "  {}  {}", e.id, e.error_message)?;
        }
    }
    let mut tags = r.tags.clone();
    if let Some(f) = &r.background_tag {
        tags.retain(|t| t != f);
        writeln!(
            out,
            "\nFamily: {f}{}",
            if tags.is_empty() {
                String::new()
            } else {
                format!(" · tags: {}", tags.join(", "))
            }
        )?;
    }
    let who = match r.analyzer.as_deref() {
        Some("static") => "static analysis".to_string(),
        Some(a) => format!("AI-assisted analysis ({a})"),
        None => "not analysed".to_string(),
    };
    match &r.analyzed_sha {
        Some(sha) => writeln!(
            out,
            "\n{who} of {}@{} ({})",
            r.repo,
            &sha[..sha.len().min(10)],
            r.analyzed_at
        )?,
        None => writeln!(out, "\n{who} of {} ({})", r.repo, r.analyzed_at)?,
    }
    Ok(())
}

/// Code, indented under a section title.
fn indent(code: &str) -> String {
    code.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
