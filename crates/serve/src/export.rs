//! Exports for hosting without a server: the dataset (JSON files with a
//! manifest of sizes and hashes, every record validated against the
//! shipped JSON Schema) and the whole HTML site as static files with
//! working links. Both are written to a temporary folder beside the target
//! and swapped into place in one rename, so a reader never sees a torn
//! export.

use crate::api::row;
use crate::error::{Doing, Error, Failure, Result};
use crate::{meta, pages, AppState};
use errdex_atlas::Atlas;
use errdex_model::Record;
use errdex_store::{ListQuery, Store};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// Files written.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Records exported.
    pub errors: usize,
    /// Repositories exported.
    pub repos: usize,
    /// The dataset version of the export.
    pub dataset_version: String,
}

/// Files written under a root, with sizes and hashes for the manifest.
struct Files {
    root: PathBuf,
    written: Vec<(String, u64, String)>,
}

impl Files {
    fn write(&mut self, rel: &str, bytes: &[u8]) -> Result<()> {
        if rel.split('/').any(|p| p == ".." || p.is_empty()) {
            return Err(Error::Export(format!(
                "refusing to write outside the export: {rel:?}"
            )));
        }
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).doing(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, bytes).doing(|| format!("writing {}", path.display()))?;
        let sha: String = Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        self.written
            .push((rel.to_string(), bytes.len() as u64, sha));
        Ok(())
    }

    fn json(&mut self, rel: &str, v: &Value) -> Result<()> {
        self.write(rel, serde_json::to_string(v)?.as_bytes())
    }

    fn bytes(&self) -> u64 {
        self.written.iter().map(|w| w.1).sum()
    }
}

/// Builds an export in a temporary folder beside `out`, then swaps it in.
fn atomically(out: &Path, build: impl FnOnce(&mut Files) -> Result<()>) -> Result<Files> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).doing(|| format!("creating {}", parent.display()))?;
    let name = out
        .file_name()
        .ok_or_else(|| Error::Export(format!("--out {}: not a folder name", out.display())))?
        .to_string_lossy()
        .to_string();
    if out.exists() && !out.is_dir() {
        return Err(Error::Export(format!(
            "--out {}: exists and is not a folder",
            out.display()
        )));
    }
    remove_leftovers(&parent, &name);
    let tmp = parent.join(format!(".{name}.tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).doing(|| format!("creating {}", tmp.display()))?;
    let mut files = Files {
        root: tmp.clone(),
        written: Vec::new(),
    };
    if let Err(e) = build(&mut files) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    swap_in(&tmp, out)?;
    files.root = out.to_path_buf();
    Ok(files)
}

/// Removes the temporary folders (`.NAME.tmpPID`, `.NAME.oldPID`) of
/// exports to `name` whose process is gone: a killed export leaves its
/// folder behind, and only a later export can clean it. A folder of a
/// process still running is another export at work and stays.
fn remove_leftovers(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let prefix = format!(".{name}.");
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let pid = rest
            .strip_prefix("tmp")
            .or_else(|| rest.strip_prefix("old"));
        let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Whether a process with this id runs (where the system tells; elsewhere
/// every process counts as running, and nothing is removed).
fn process_alive(pid: u32) -> bool {
    let proc_fs = Path::new("/proc");
    !proc_fs.join("self").exists() || proc_fs.join(pid.to_string()).exists()
}

/// Puts `tmp` at `out`: one exchange of the two folders where the system
/// has it, so `out` is never missing; the old export is removed after.
fn swap_in(tmp: &Path, out: &Path) -> Result<()> {
    if !out.exists() {
        return std::fs::rename(tmp, out)
            .doing(|| format!("moving the export to {}", out.display()));
    }
    #[cfg(target_os = "linux")]
    {
        use nix::fcntl::{renameat2, RenameFlags, AT_FDCWD};
        if renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RenameFlags::RENAME_EXCHANGE).is_ok() {
            // `tmp` now holds the previous export.
            let _ = std::fs::remove_dir_all(tmp);
            return Ok(());
        }
    }
    let old = out.with_file_name(format!(
        ".{}.old{}",
        out.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    std::fs::rename(out, &old).doing(|| format!("moving {} aside", out.display()))?;
    std::fs::rename(tmp, out).doing(|| format!("moving the export to {}", out.display()))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

fn records(store: &dyn Store, repo: Option<&str>) -> Result<Vec<Record>> {
    let rs = store.list(&ListQuery {
        repo: repo.map(str::to_string),
        ..ListQuery::default()
    })?;
    if rs.is_empty() {
        return Err(Error::Export(match repo {
            Some(r) => format!("no records for {r}; check --repo against `errdex list`"),
            None => "the database holds no records; run `errdex index PATH` first".to_string(),
        }));
    }
    Ok(rs)
}

/// The version an export carries: the store's, or just after the one
/// already at `out` if that is not older (versions only increase).
fn export_version(store: &dyn Store, out: &Path) -> Result<String> {
    let mut v = store.dataset_version()?.unwrap_or_default();
    let previous = std::fs::read_to_string(out.join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|m| m["datasetVersion"].as_str().map(str::to_string));
    if let Some(p) = previous {
        if p >= v {
            let t = chrono_like_bump(&p).ok_or_else(|| {
                Error::Export(format!(
                    "{}: unreadable datasetVersion {p:?}",
                    out.display()
                ))
            })?;
            v = t;
        }
    }
    Ok(v)
}

/// `2026-01-01T00:00:00.000Z` plus one millisecond.
fn chrono_like_bump(v: &str) -> Option<String> {
    // RFC 3339 with milliseconds: bump the millisecond digits with carry by
    // reparsing through the store's own format.
    let (head, ms) = v.strip_suffix('Z')?.rsplit_once('.')?;
    let ms: u32 = ms.parse().ok()?;
    if ms < 999 {
        return Some(format!("{head}.{:03}Z", ms + 1));
    }
    // Rare: carry into the seconds by appending a finer digit, which still
    // orders after `v` as text.
    Some(format!("{head}.9991Z"))
}

/// Writes the dataset: `manifest.json`, `index.json`, `repos.json`,
/// `repos/{owner}/{name}.json`, `errors/{id}.json`.
pub fn export_dataset(store: &dyn Store, repo: Option<&str>, out: &Path) -> Result<Exported> {
    let records = records(store, repo)?;
    let version = export_version(store, out)?;
    let schema: Value = serde_json::from_str(include_str!("../../../schema/record.schema.json"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| Error::Export(format!("the shipped schema: {e}")))?;
    let repos: Vec<_> = store
        .repos()?
        .into_iter()
        .filter(|r| repo.is_none_or(|want| r.repo == want))
        .collect();
    let files = atomically(out, |f| {
        for r in &records {
            let v = serde_json::to_value(r)?;
            if let Some(e) = validator.iter_errors(&v).next() {
                return Err(Error::Export(format!(
                    "record {} ({}) does not match the schema: {e} at {}",
                    r.id,
                    r.message_pattern,
                    e.instance_path()
                )));
            }
            f.json(
                &format!("errors/{}.json", r.id),
                &json!({"record": v, "datasetVersion": version}),
            )?;
        }
        let index: Vec<Value> = records.iter().map(|r| {
            json!({"id": r.id, "repo": r.repo, "slug": r.slug, "messagePattern": r.message_pattern,
                   "errorType": r.error_type, "severity": r.severity, "filePath": r.file_path,
                   "lineNumber": r.line_number, "backgroundTag": r.background_tag,
                   "firstSeen": r.first_seen, "lastSeen": r.last_seen, "removedIn": r.removed_in})
        }).collect();
        f.json("index.json", &Value::Array(index))?;
        let list: Vec<Value> = repos.iter().map(|r| json!({"repo": r.repo, "commit": r.commit, "records": r.records, "indexedAt": r.indexed_at, "versions": r.versions})).collect();
        f.json("repos.json", &Value::Array(list))?;
        for r in &repos {
            let rows: Vec<Value> = records
                .iter()
                .filter(|x| x.repo == r.repo)
                .map(|x| row("", x))
                .collect();
            f.json(&format!("repos/{}.json", r.repo), &json!({"repo": r.repo, "commit": r.commit, "versions": r.versions, "errors": rows, "datasetVersion": version}))?;
        }
        // The manifest last, listing everything above.
        let listed: Vec<Value> = f
            .written
            .iter()
            .map(|(p, b, h)| json!({"path": p, "bytes": b, "sha256": h}))
            .collect();
        let manifest = json!({
            "schemaVersion": errdex_model::SCHEMA_VERSION,
            "datasetVersion": version,
            "counts": {"repos": repos.len(), "errors": records.len()},
            "files": listed,
        });
        let text = serde_json::to_string_pretty(&manifest)?;
        f.write("manifest.json", text.as_bytes())
    })?;
    Ok(Exported {
        files: files.written.len(),
        bytes: files.bytes(),
        errors: records.len(),
        repos: repos.len(),
        dataset_version: version,
    })
}

/// Writes the whole site as static files: every page as `…/index.html`,
/// the JSON a page links to, sitemaps, robots.txt and llms.txt. Search
/// needs the server and is left out.
pub fn export_site(store: impl Store + 'static, base_url: &str, out: &Path) -> Result<Exported> {
    let version = export_version(&store, out)?;
    let s = AppState::for_static_site(Atlas::new(store), base_url);
    let records = records(s.atlas.store(), None)?;
    let repos = s.atlas.repos()?;
    let fail = Failure::into_error;
    let files = atomically(out, |f| {
        f.write(
            "index.html",
            pages::home_page(&s).map_err(fail)?.into_string().as_bytes(),
        )?;
        f.write(
            "api-docs/index.html",
            pages::api_docs_page(&s).into_string().as_bytes(),
        )?;
        f.write(
            "rules/index.html",
            crate::rule_pages::index_page(&s).into_string().as_bytes(),
        )?;
        for r in errdex_lint::RULES {
            f.write(
                &format!("rules/{}/index.html", r.id),
                crate::rule_pages::rule_page(&s, r).into_string().as_bytes(),
            )?;
        }
        for r in &repos {
            let (owner, name) = r.repo.split_once('/').unwrap_or((&r.repo, ""));
            if let Some(m) = pages::repo_page(&s, owner, name, &Default::default()).map_err(fail)? {
                f.write(
                    &format!("{}/index.html", r.repo),
                    m.into_string().as_bytes(),
                )?;
            }
            let rows: Vec<Value> = records
                .iter()
                .filter(|x| x.repo == r.repo)
                .map(|x| row(&s.base_url, x))
                .collect();
            f.json(&format!("api/repos/{}/errors", r.repo), &json!({"repo": r.repo, "total": rows.len(), "errors": rows, "datasetVersion": version}))?;
            if let Some(x) = meta::sitemap_repo_xml(&s, &r.repo).map_err(fail)? {
                f.write(&format!("sitemaps/{}.xml", r.repo), x.as_bytes())?;
            }
        }
        let mut families: Vec<&str> = Vec::new();
        for r in &records {
            let related: Vec<Record> = r
                .related_errors
                .iter()
                .filter_map(|x| records.iter().find(|y| y.id == x.id).cloned())
                .collect();
            let page = pages::error_page(&s, r, &related);
            f.write(
                &format!("{}/{}/index.html", r.repo, r.slug),
                page.into_string().as_bytes(),
            )?;
            f.json(
                &format!("api/errors/{}", r.id),
                &json!({"record": r, "datasetVersion": version}),
            )?;
            if let Some(fam) = r.background_tag.as_deref() {
                if !families.contains(&fam) {
                    families.push(fam);
                }
            }
        }
        for fam in families {
            if let Some(m) = pages::family_page(&s, fam).map_err(fail)? {
                f.write(
                    &format!("info/{fam}/index.html"),
                    m.into_string().as_bytes(),
                )?;
            }
        }
        f.write("robots.txt", meta::robots_txt(&s).as_bytes())?;
        f.write("llms.txt", meta::llms_txt(&s).map_err(fail)?.as_bytes())?;
        f.write(
            "sitemap.xml",
            meta::sitemap_index_xml(&s).map_err(fail)?.as_bytes(),
        )?;
        f.json("openapi.json", &meta::openapi_json(&s))?;
        f.json("manifest.json", &json!({"datasetVersion": version, "counts": {"repos": repos.len(), "errors": records.len()}}))
    })?;
    Ok(Exported {
        files: files.written.len(),
        bytes: files.bytes(),
        errors: records.len(),
        repos: repos.len(),
        dataset_version: version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_of_dead_exports_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        // A process id no system hands out (above the kernel's limit).
        let dead = 4_194_305u32;
        let me = std::process::id();
        for n in [
            format!(".site.tmp{dead}"),
            format!(".site.old{dead}"),
            format!(".site.tmp{me}"),
            format!(".other.tmp{dead}"),
            "site".into(),
        ] {
            std::fs::create_dir_all(p.join(n).join("inner")).unwrap();
        }
        remove_leftovers(p, "site");
        let mut left: Vec<String> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                format!(".other.tmp{dead}"),
                format!(".site.tmp{me}"),
                "site".to_string()
            ]
        );
    }
}
