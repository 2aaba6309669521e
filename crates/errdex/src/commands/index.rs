//! `errdex index`.

use crate::cli::IndexArgs;
use crate::printable::Printable;
use crate::progress::IndexProgress;
use crate::Failure;
use anyhow::{anyhow, Context};
use errdex_extract::{prepare, Options};
use errdex_store::{SqliteStore, Store};
use std::io::Write;
use std::path::Path;

/// Warnings shown without `--verbose`.
const WARNINGS_SHOWN: usize = 10;

pub(crate) fn run(db: &Path, a: IndexArgs) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let opts = options(&a)?;
    // Open the database first: a bad --db should fail before a long run.
    let store = SqliteStore::open(db)?;
    let job = prepare(&opts)?;
    let repo = job.repo().to_string();
    let progress = IndexProgress::new(a.timings);
    // The database gets ready (old records read and deleted, inside the
    // run's transaction) on its own thread while the files are parsed;
    // only the inserts wait for the run.
    let (send, receive) = std::sync::mpsc::sync_channel(1);
    let store = &store;
    let (result, written) = std::thread::scope(|s| {
        let writer = s.spawn(move || store.replace_repo_when_ready(&repo, || receive.recv().ok()));
        let result = job.run(&progress);
        let out = result.map(|mut out| {
            // The static analysis always runs: every record leaves the
            // index with its prose, code fields and related errors.
            progress.analysing(out.dataset.records.len());
            errdex_analyze::analyze_all(&mut out.dataset.records);
            progress.phase_done("analyse", started.elapsed().as_secs_f64());
            progress.finish();
            let dataset = std::sync::Arc::new(out.dataset);
            // The receiver only goes away if the writer failed; its error
            // is reported below.
            let _ = send.send(dataset.clone());
            (dataset, out.warnings)
        });
        drop(send);
        progress.finish();
        (out, writer.join().expect("the writer does not panic"))
    });
    let (dataset, warnings) = result?;
    let version = written
        .with_context(|| format!("writing {}", db.display()))?
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
    writeln!(err, "database {} (dataset {version})", db.display())?;
    drop(err);
    if a.list {
        let q = errdex_store::ListQuery {
            repo: Some(ds.repo.clone()),
            ..Default::default()
        };
        super::list::print_table(&store.list(&q)?)?;
    }
    Ok(())
}

fn options(a: &IndexArgs) -> Result<Options, Failure> {
    let timestamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let mut o = Options::new(&a.path, timestamp);
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
fn parse_size(s: &str) -> Option<u64> {
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
