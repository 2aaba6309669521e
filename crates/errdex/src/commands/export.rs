//! `errdex export`.

use crate::cli::{ExportArgs, ExportFormat};
use crate::Failure;
use anyhow::Context;
use errdex_store::{AnyStore, ListQuery, Store};
use std::io::{BufWriter, Write};
use std::path::Path;

pub(crate) fn run(store: &AnyStore, db: &Path, a: ExportArgs) -> Result<(), Failure> {
    if matches!(a.format, ExportFormat::Dataset | ExportFormat::Site) {
        let out = a.out.as_deref().ok_or_else(|| {
            anyhow::anyhow!(
                "--format {:?} writes a folder: give it with --out DIR",
                a.format
            )
        })?;
        let started = std::time::Instant::now();
        let e = match a.format {
            ExportFormat::Dataset => {
                errdex_serve::export::export_dataset(store, a.repo.as_deref(), out)?
            }
            _ => {
                if a.repo.is_some() {
                    return Err(anyhow::anyhow!(
                        "--repo: the site export holds every repository; drop --repo"
                    )
                    .into());
                }
                errdex_serve::export::export_site(super::open_store(db)?, &a.base_url, out)?
            }
        };
        eprintln!(
            "exported {} errors of {} repositories to {}: {} files, {} bytes, dataset {} ({:.2} s)",
            e.errors,
            e.repos,
            out.display(),
            e.files,
            e.bytes,
            e.dataset_version,
            started.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let q = ListQuery {
        repo: a.repo.clone(),
        all_levels: a.all_levels,
        ..Default::default()
    };
    let records = store.list(&q)?;
    match a.format {
        ExportFormat::Dataset | ExportFormat::Site => unreachable!("handled above"),
        ExportFormat::Jsonl => {
            let write = |w: &mut dyn Write| -> anyhow::Result<()> {
                for r in &records {
                    serde_json::to_writer(&mut *w, r)?;
                    w.write_all(b"\n")?;
                }
                Ok(())
            };
            match &a.out {
                None => {
                    let mut out = BufWriter::new(std::io::stdout().lock());
                    write(&mut out)?;
                    out.flush()?;
                }
                Some(path) => write_atomically(path, write)?,
            }
        }
    }
    if let Some(p) = &a.out {
        eprintln!("exported {} records to {}", records.len(), p.display());
    }
    Ok(())
}

/// Writes to a temporary file beside `path` and renames it into place, so a
/// reader sees the old file or the whole new one, never half.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("--out {}: not a file name", path.display()))?
        .to_string_lossy();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| -> anyhow::Result<()> {
        let f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut w = BufWriter::new(f);
        write(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot move the export into {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
