//! `errdex lint`: the rules of `errdex_lint` over a work tree, as text,
//! JSON or SARIF, with baselines and `--diff`.

use crate::cli::{LintArgs, LintFormat};
use crate::printable::Printable;
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_lint::{Baseline, ChangedLines, Finding, Input, Level, RULES};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

pub(crate) fn run(a: LintArgs) -> Result<(), Failure> {
    let started = Instant::now();
    let root = std::fs::canonicalize(&a.path)
        .with_context(|| format!("{}: cannot lint this folder", a.path.display()))?;
    let settings = Settings::read(&root, a.config.as_deref())?;
    let rules = chosen_rules(&a.rules, &settings.disabled)?;
    let changed = match &a.diff {
        Some(r) => Some(ChangedLines::since(&root, r)?),
        None => None,
    };
    let mut opts = errdex_extract::Options::new(&root, "1970-01-01T00:00:00.000Z");
    opts.all_levels = true;
    opts.include_tests = a.include_tests;
    opts.include_vendor = a.include_vendor;
    opts.config = a.config.clone();
    opts.repo = Some("lint/lint".into());
    if !a.no_cache {
        let dir = a.cache_dir.clone().or_else(super::user_cache_dir);
        opts.cache = dir.map(|d| d.join(super::index::FACTS_CACHE));
    }
    let indexed = errdex_extract::index(&opts, &errdex_extract::NoProgress)?;
    let files = errdex_extract::source_files(&opts)?;
    let input = Input {
        root: &root,
        dataset: &indexed.dataset,
        files: &files,
    };
    let mut found = errdex_lint::lint(&input, &rules);
    if let Some(c) = &changed {
        found.retain(|f| c.contains(&f.file, f.line));
    }
    let all = found.len();
    if let Some(path) = &a.baseline {
        if a.update_baseline || !path.exists() {
            Baseline::of(&found).write(path)?;
            eprintln!(
                "errdex lint: recorded {all} finding{} in {}; later runs with --baseline report only new ones",
                plural(all),
                path.display()
            );
            return Ok(());
        }
        found = Baseline::read(path)?.new_findings(found);
    }
    write_out(&a, &root, &found)?;
    eprintln!(
        "errdex lint: {} files, {} messages, {} finding{}{} in {:.1} s",
        files.len(),
        indexed.dataset.records.len(),
        found.len(),
        plural(found.len()),
        if all > found.len() {
            format!(" ({} in the baseline)", all - found.len())
        } else {
            String::new()
        },
        started.elapsed().as_secs_f64()
    );
    if found.is_empty() {
        Ok(())
    } else {
        Err(Failure {
            code: crate::EXIT_NOT_FOUND,
            error: anyhow!(
                "{} finding{} left; fix them, or record them with --baseline FILE --update-baseline",
                found.len(),
                plural(found.len())
            ),
        })
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The `[lint]` section of errdex.toml.
#[derive(Default)]
struct Settings {
    disabled: Vec<String>,
}

impl Settings {
    fn read(root: &Path, explicit: Option<&Path>) -> Result<Settings, Failure> {
        let path = explicit.map_or_else(|| root.join("errdex.toml"), Path::to_path_buf);
        if explicit.is_none() && !path.is_file() {
            return Ok(Settings::default());
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: cannot read the configuration", path.display()))?;
        let value: toml::Value = toml::from_str(&text)
            .map_err(|e| anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
        let disabled = match value.get("lint").and_then(|l| l.get("disable")) {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .and_then(|a| {
                    a.iter()
                        .map(|x| x.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| {
                    anyhow!(
                        "{}: [lint] disable must be a list of rule ids, e.g. [\"style\"]",
                        path.display()
                    )
                })?,
        };
        for id in &disabled {
            known_rule(id).map_err(|e| anyhow!("{}: [lint] disable: {e}", path.display()))?;
        }
        Ok(Settings { disabled })
    }
}

fn known_rule(id: &str) -> Result<&'static str, String> {
    errdex_lint::rules::rule(id).map(|r| r.id).ok_or_else(|| {
        let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        format!("no rule {id:?}; the rules are {}", ids.join(", "))
    })
}

/// `--rule`s, or every rule not disabled.
fn chosen_rules(asked: &[String], disabled: &[String]) -> Result<Vec<&'static str>, Failure> {
    if !asked.is_empty() {
        return asked
            .iter()
            .map(|id| known_rule(id).map_err(|e| anyhow!("--rule: {e}").into()))
            .collect();
    }
    Ok(RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !disabled.iter().any(|d| d == id))
        .collect())
}

fn write_out(a: &LintArgs, root: &Path, found: &[Finding]) -> Result<(), Failure> {
    let text = match a.format {
        LintFormat::Text => text(found),
        LintFormat::Json => {
            serde_json::to_string_pretty(&serde_json::json!({
                "findings": found,
                "summary": summary(found),
            }))? + "\n"
        }
        LintFormat::Sarif => {
            let run = errdex_lint::sarif::RunInfo {
                version: env!("CARGO_PKG_VERSION"),
                root,
                atlas_url: &a.atlas_url,
            };
            serde_json::to_string_pretty(&errdex_lint::sarif::log(found, &run))? + "\n"
        }
    };
    match &a.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("{}: cannot write the findings", path.display()))?,
        None => {
            let mut out = Printable::new(std::io::stdout().lock());
            out.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}

fn text(found: &[Finding]) -> String {
    let mut s = String::new();
    for f in found {
        s.push_str(&format!(
            "{}:{}: {} [{}] {}\n",
            f.file,
            f.line,
            f.level.as_str(),
            f.rule,
            f.message
        ));
        for p in &f.related {
            s.push_str(&format!(
                "    {}: {}:{}\n",
                p.note.as_deref().unwrap_or("see"),
                p.file,
                p.line
            ));
        }
    }
    s
}

fn summary(found: &[Finding]) -> serde_json::Value {
    let count = |l: Level| found.iter().filter(|f| f.level == l).count();
    let by_rule: serde_json::Map<String, serde_json::Value> = RULES
        .iter()
        .map(|r| {
            let n = found.iter().filter(|f| f.rule == r.id).count();
            (r.id.to_string(), n.into())
        })
        .collect();
    serde_json::json!({
        "findings": found.len(),
        "errors": count(Level::Error),
        "warnings": count(Level::Warning),
        "notes": count(Level::Note),
        "byRule": by_rule,
    })
}
