//! `errdex analyze`: the static analyser again, or an LLM session.

use crate::cli::AnalyzeArgs;
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_llm::{Config, Session, Stats};
use errdex_model::Record;
use errdex_store::{AnyStore, ListQuery, Store};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The configuration file used when --config is not given.
const DEFAULT_CONFIG: &str = "errdex.toml";

pub(crate) fn run(store: &AnyStore, a: AnalyzeArgs) -> Result<(), Failure> {
    let records = store.list(&ListQuery {
        repo: a.repo.clone(),
        ..ListQuery::default()
    })?;
    if records.is_empty() {
        let known: Vec<String> = store.repos()?.into_iter().map(|r| r.repo).collect();
        return Err(match &a.repo {
            Some(repo) => crate::not_found(format!(
                "no records for {repo}; the database holds: {}",
                if known.is_empty() {
                    "nothing yet".to_string()
                } else {
                    known.join(", ")
                }
            )),
            None => {
                crate::not_found("the database holds no records; run `errdex index PATH` first")
            }
        });
    }
    let config_path = match &a.config {
        Some(p) => Some(p.clone()),
        None => Path::new(DEFAULT_CONFIG)
            .exists()
            .then(|| PathBuf::from(DEFAULT_CONFIG)),
    };
    if a.static_only {
        return static_pass(store, records);
    }
    let Some(config_path) = config_path else {
        if let Some(p) = &a.provider {
            return Err(anyhow!(
                "--provider {p}: no configuration; write {DEFAULT_CONFIG} with [llm] and [providers.{p}] (see `errdex analyze --help`) or pass --config FILE"
            )
            .into());
        }
        eprintln!("no LLM configured ({DEFAULT_CONFIG} not found, no --config): running the static analyser only; see `errdex analyze --help` to add a provider");
        return static_pass(store, records);
    };
    let config = Config::load(&config_path)?;
    llm_pass(store, records, &config, &a)
}

/// Re-runs the static analyser over every record of each repository
/// (related errors need the whole repository).
fn static_pass(store: &AnyStore, mut records: Vec<Record>) -> Result<(), Failure> {
    let started = Instant::now();
    errdex_analyze::analyze_all(&mut records);
    let secs = started.elapsed().as_secs_f64();
    store
        .update_records(&records)
        .context("writing the analysis")?;
    eprintln!(
        "static analysis: {} records in {secs:.2} s ({:.0} records/s)",
        records.len(),
        records.len() as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn llm_pass(
    store: &AnyStore,
    records: Vec<Record>,
    config: &Config,
    a: &AnalyzeArgs,
) -> Result<(), Failure> {
    let primary_name = a
        .provider
        .clone()
        .unwrap_or_else(|| config.llm.primary.clone());
    let provider = |name: &str| -> Result<Box<dyn errdex_llm::Provider>, Failure> {
        let pc = config.provider(name).map_err(|e| {
            anyhow!(
                "{e} in the configuration (defined: {})",
                config
                    .providers
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        Ok(errdex_llm::build(name, pc)?)
    };
    let session = Session {
        settings: config.llm.clone(),
        primary: provider(&primary_name)?,
        fallback: match &config.llm.fallback {
            Some(f) if *f != primary_name => Some(provider(f)?),
            _ => None,
        },
        verifier: config.llm.verifier.as_deref().map(provider).transpose()?,
        cache: store,
        now: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    };
    let mut todo: Vec<Record> = records
        .into_iter()
        .filter(|r| !a.only_missing || !r.analyzer.as_deref().unwrap_or("").starts_with("llm:"))
        .collect();
    if let Some(n) = a.limit {
        todo.truncate(n);
    }
    let total = todo.len() as u64;
    if total == 0 {
        eprintln!("nothing to analyse: every selected record already has an LLM analysis (drop --only-missing to redo them)");
        return Ok(());
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} records, eta {eta} · {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix("analysing");
    let started = Instant::now();
    let mut write_error: Option<anyhow::Error> = None;
    let stats = session.run(
        todo,
        a.verify,
        &|s: &Stats, pass: &str| {
            bar.set_prefix(if pass == "verify" {
                "verifying"
            } else {
                "analysing"
            });
            bar.set_position(s.done.min(total));
            bar.set_message(counts(s));
        },
        &mut |batch| {
            if write_error.is_none() {
                if let Err(e) = store.update_records(&batch) {
                    write_error = Some(anyhow!(e).context("writing analysed records"));
                }
            }
        },
    );
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    eprintln!(
        "analysed {total} records in {:.1} s with {}/{}: {}",
        started.elapsed().as_secs_f64(),
        session.primary.name(),
        session.primary.model(),
        counts(&stats)
    );
    if a.verify {
        eprintln!(
            "verify: {} records patched, {} patches rejected (they did not validate)",
            stats.verified_patched, stats.patches_rejected
        );
    }
    for r in &stats.reasons {
        eprintln!("kept static: {r}");
    }
    Ok(())
}

fn counts(s: &Stats) -> String {
    let mut out = format!(
        "{} cached, {} by primary, {} by fallback, {} kept static; {} calls, {} failed",
        s.cached, s.by_primary, s.by_fallback, s.kept_static, s.calls, s.failed_calls
    );
    if s.rate_limited > 0 {
        out.push_str(&format!(", {} rate-limited waits", s.rate_limited));
    }
    if s.tokens > 0 {
        out.push_str(&format!(", {} tokens", s.tokens));
    }
    out
}
