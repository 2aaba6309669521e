//! `errdex export`.

use crate::cli::{ExportArgs, ExportFormat};
use crate::Failure;
use anyhow::Context;
use errdex_store::{ListQuery, Store};
use std::io::{BufWriter, Write};
use std::path::Path;

pub(crate) fn run(store: &dyn Store, a: ExportArgs) -> Result<(), Failure> {
    let q = ListQuery {
        repo: a.repo.clone(),
        ..Default::default()
    };
    let records = store.list(&q)?;
    match a.format {
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
