//! `errdex show`.

use crate::cli::ShowArgs;
use crate::printable::Printable;
use crate::{not_found, Failure};
use anyhow::anyhow;
use errdex_model::Record;
use errdex_store::Store;
use serde_json::json;
use std::io::Write;

pub(crate) fn run(store: &dyn Store, a: ShowArgs) -> Result<(), Failure> {
    let record = find(store, &a.id_or_slug, a.repo.as_deref())?;
    let mut out = Printable::new(std::io::stdout().lock());
    if a.json {
        let doc = json!({ "record": record, "datasetVersion": store.dataset_version()? });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(());
    }
    out.write_all(errdex_atlas::render::terminal(&record).as_bytes())?;
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
