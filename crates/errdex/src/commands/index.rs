//! `errdex index`.

use crate::cli::IndexArgs;
use crate::printable::Printable;
use crate::progress::IndexProgress;
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_extract::{fetch, index_versions, matching_refs, prepare, Options, Version};
use errdex_model::{Analysed, AnalysisMemo, RepoDataset};
use errdex_store::{AnyStore, Store};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Warnings shown without `--verbose`.
const WARNINGS_SHOWN: usize = 10;
/// The facts cache's file in the cache folder.
pub(crate) const FACTS_CACHE: &str = "facts.sqlite3";

/// `--cache-dir`, or the user's cache folder (`$XDG_CACHE_HOME/errdex`,
/// `~/.cache/errdex`).
fn cache_dir(a: &IndexArgs) -> Result<PathBuf, Failure> {
    if let Some(d) = &a.cache_dir {
        return Ok(d.clone());
    }
    super::user_cache_dir()
        .ok_or_else(|| anyhow!("no cache folder: set --cache-dir, ERRDEX_CACHE_DIR or HOME").into())
}

/// The versions a history run indexes, oldest first: the tags or refs
/// matching the glob, or each `--ref` in the order given.
fn versions(a: &IndexArgs, root: &Path) -> Result<Vec<Version>, Failure> {
    let (glob, tags) = match (&a.tags, &a.ref_glob) {
        (Some(g), _) => (g, true),
        (None, Some(g)) => (g, false),
        (None, None) => return Ok(errdex_extract::named_versions(root, &a.refs)?),
    };
    let found = matching_refs(root, glob, tags)?;
    if found.is_empty() {
        let what = if tags { "tag" } else { "ref" };
        let all = matching_refs(root, "*", tags).unwrap_or_default();
        let some: Vec<&str> = all.iter().rev().take(8).map(|v| v.name.as_str()).collect();
        let has = if some.is_empty() {
            format!("it has no {what}s")
        } else {
            format!("its newest {what}s: {}", some.join(", "))
        };
        return Err(anyhow!("{}: no {what} matches {glob:?} ({has})", root.display()).into());
    }
    Ok(found)
}

pub(crate) fn run(db: &Path, a: IndexArgs) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let mut opts = options(&a)?;
    // Open the database first: a bad --db should fail before a long run.
    let store = super::open_store(db)?;
    let progress = IndexProgress::new(a.timings);
    let history = a.tags.is_some() || a.ref_glob.is_some() || a.refs.len() > 1;
    let cache_dir = cache_dir(&a)?;
    let given = a.path.to_string_lossy().into_owned();
    if fetch::is_url(&given) {
        progress.fetching(&given);
        opts.root = fetch::fetch(&given, &cache_dir, history).map_err(|e| Failure {
            // Crawls try an unreachable remote again later.
            code: super::crawl::EXIT_FETCH,
            error: e.into(),
        })?;
        progress.phase_done("fetch", started.elapsed().as_secs_f64());
    }
    if !a.no_cache {
        opts.cache = Some(cache_dir.join(FACTS_CACHE));
    }
    let versions = if history {
        let v = versions(&a, &opts.root)?;
        opts.git_ref = v.last().map(|v| v.commit.clone());
        v
    } else {
        Vec::new()
    };
    let job = prepare(&opts)?;
    let repo = job.repo().to_string();
    super::crawl::queue(&store).hold_ticket(a.crawl_ticket);
    // The database gets ready (old records read and deleted, inside the
    // run's transaction) on its own thread while the files are parsed;
    // only the inserts wait for the run. What the stored rows' analyses
    // were made from comes back first, so unchanged records are taken over.
    let (send, receive) = std::sync::mpsc::sync_channel::<(Arc<RepoDataset>, Vec<Analysed>)>(1);
    let (send_stored, stored_memos) =
        std::sync::mpsc::sync_channel::<HashMap<String, AnalysisMemo>>(1);
    let store = &store;
    let (result, written) = std::thread::scope(|s| {
        let writer = s.spawn(move || match store {
            AnyStore::Sqlite(s) => s.replace_repo_reusing(&repo, |memos| {
                let _ = send_stored.send(memos);
                receive.recv().ok()
            }),
            // A shared server: the old records stay readable and unlocked
            // until the run is done, then go in one transaction.
            AnyStore::Postgres(p) => {
                drop(send_stored);
                match receive.recv() {
                    Ok((dataset, _)) => p.replace_repo(&dataset).map(Some),
                    Err(_) => Ok(None),
                }
            }
        });
        let result = if history {
            drop(job);
            index_versions(&opts, &versions, &progress)
        } else {
            job.run(&progress)
        };
        let out = result.map(|mut out| {
            // The static analysis always runs: every record leaves the
            // index with its prose, code fields and related errors, or
            // keeps the stored row that has them.
            progress.analysing(out.dataset.records.len());
            // Only SQLite keeps what rows were made from; history runs
            // and PostgreSQL analyse every record and need no memo.
            let keeps_memos = matches!(store, AnyStore::Sqlite(_));
            let analysed = if history || !keeps_memos {
                errdex_analyze::analyze_all(&mut out.dataset.records);
                Vec::new()
            } else {
                let memos = if a.no_cache {
                    HashMap::new()
                } else {
                    stored_memos.recv().unwrap_or_default()
                };
                let commit = out.dataset.commit.clone();
                errdex_analyze::analyze_reusing(
                    &mut out.dataset.records,
                    &memos,
                    errdex_extract::build_id(),
                    commit.as_deref(),
                )
            };
            progress.phase_done("analyse", started.elapsed().as_secs_f64());
            progress.finish();
            let dataset = Arc::new(out.dataset);
            // The receiver only goes away if the writer failed; its error
            // is reported below.
            let taken_over = analysed
                .iter()
                .filter(|a| matches!(a, Analysed::TakenOver))
                .count();
            let _ = send.send((dataset.clone(), analysed));
            (
                dataset,
                out.warnings,
                out.cache,
                out.cache_write,
                taken_over,
            )
        });
        drop(send);
        progress.finish();
        (out, writer.join().expect("the writer does not panic"))
    });
    let (dataset, mut warnings, cached, cache_write, taken_over) = result?;
    warnings.extend(cache_write.wait());
    let version = written
        .with_context(|| format!("writing {}", super::shown_db(db)))?
        .expect("the dataset was sent");
    if a.timings {
        eprintln!(
            "timing: store done at {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }

    // Paths and messages come from the tree: a file name can hold ESC.
    let mut err = Printable::new(std::io::stderr().lock());
    let shown = if a.verbose {
        warnings.len()
    } else {
        WARNINGS_SHOWN
    };
    for w in warnings.iter().take(shown) {
        writeln!(err, "warning: {}: {}", w.path, w.message)?;
    }
    if warnings.len() > shown {
        writeln!(
            err,
            "warning: … and {} more (--verbose shows all)",
            warnings.len() - shown
        )?;
    }
    let ds = &dataset;
    let s = &ds.stats;
    let at = ds
        .commit
        .as_deref()
        .map(|c| format!(" @ {}", &c[..c.len().min(10)]))
        .unwrap_or_else(|| " (no commit: links omitted)".into());
    writeln!(
        err,
        "indexed {}{at}: {} files ({} skipped, {} with syntax errors), {} sites → {} records, {} dynamic sites, {:.2} s",
        ds.repo,
        s.files_indexed,
        s.files_skipped,
        s.files_with_syntax_errors,
        s.sites,
        s.records,
        s.dynamic_sites,
        s.seconds
    )?;
    if taken_over > 0 {
        writeln!(
            err,
            "unchanged since the last run: {taken_over} of {} records (kept as stored, not analysed again)",
            s.records
        )?;
    }
    if let (Some(first), Some(last)) = (ds.versions.first(), ds.versions.last()) {
        let removed = ds.records.iter().filter(|r| r.removed_in.is_some()).count();
        writeln!(
            err,
            "versions: {} ({} … {}); {removed} records are no longer printed by {}",
            ds.versions.len(),
            first.name,
            last.name,
            last.name
        )?;
    }
    if cached.hits + cached.misses > 0 {
        writeln!(
            err,
            "cache: {} answers reused, {} computed ({})",
            cached.hits,
            cached.misses,
            cache_dir.display()
        )?;
    }
    writeln!(err, "database {} (dataset {version})", super::shown_db(db))?;
    drop(err);
    if a.json_summary {
        let line = serde_json::json!({
            "repo": ds.repo,
            "commit": ds.commit,
            "records": ds.records.len(),
            "versions": ds.versions.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
            "seconds": started.elapsed().as_secs_f64(),
        });
        println!("{line}");
    }
    if a.list {
        let q = errdex_store::ListQuery {
            repo: Some(ds.repo.clone()),
            ..Default::default()
        };
        super::list::print_table(&store.list(&q)?)?;
    }
    // The records are freed on a thread of their own: the command ends
    // without waiting (freeing them was 4 % of a re-index), and a server
    // that indexed first frees them beside its work.
    let _ = std::thread::Builder::new().spawn(move || drop(dataset));
    Ok(())
}

fn options(a: &IndexArgs) -> Result<Options, Failure> {
    let timestamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    if a.refs.len() > 1 && (a.tags.is_some() || a.ref_glob.is_some()) {
        return Err(anyhow!(
            "give versions either as --ref REF… or as --tags/--refs GLOB, not both"
        )
        .into());
    }
    let mut o = Options::new(&a.path, timestamp);
    o.git_ref = a.refs.first().cloned();
    o.repo = a.repo.clone();
    o.commit = a.commit.clone();
    o.include_vendor = a.include_vendor;
    o.include_tests = a.include_tests;
    o.threads = a.threads;
    o.all_levels = a.log_levels == crate::cli::LogLevels::All;
    o.config = a.config.clone();
    o.max_file_size = parse_size(&a.max_file_size).ok_or_else(|| {
        anyhow!(
            "--max-file-size {:?}: expected bytes, e.g. 500K or 4M",
            a.max_file_size
        )
    })?;
    Ok(o)
}

/// `123`, `500K`, `4M`, `1G` (binary units).
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()?.to_ascii_uppercase() {
        'K' => (&s[..s.len() - 1], 1u64 << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::parse_size("4M"), Some(4 << 20));
        assert_eq!(super::parse_size("500k"), Some(500 << 10));
        assert_eq!(super::parse_size("123"), Some(123));
        assert_eq!(super::parse_size("x"), None);
        assert_eq!(super::parse_size(""), None);
    }
}
