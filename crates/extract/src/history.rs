//! Many versions of one repository as one dataset: each version (a tag, a
//! ref) is indexed from git objects — blobs seen in an earlier version
//! come from the facts cache — and the records of all of them are merged:
//! a record is its newest version's, and carries where it was in each
//! run of versions (`versions`), the first and last version that print it
//! and, when the newest does not, the version it was removed in.

use crate::{prepare, Error, Indexed, Options, Progress, Version};
use errdex_model::{unique_slugs, Record, RepoDataset, RepoVersion, VersionRange};
use std::collections::HashMap;

/// Indexes every version of `versions` (oldest first) and merges them.
pub fn index_versions(
    opts: &Options,
    versions: &[Version],
    progress: &dyn Progress,
) -> Result<Indexed, Error> {
    let Some(newest) = versions.last() else {
        return Err(Error::Empty(format!(
            "{}: no tag or ref matches; nothing to index",
            opts.root.display()
        )));
    };
    let mut runs = Vec::with_capacity(versions.len());
    let mut warnings = Vec::new();
    // One cache for every version: blobs the versions share are decoded
    // once. Its options are the newest version's configuration's.
    let mut newest_opts = opts.clone();
    newest_opts.git_ref = Some(newest.commit.clone());
    let config = prepare(&newest_opts)?.config;
    let mut cache_warnings = Vec::new();
    let cache =
        crate::parse::open_cache(opts, &config, &mut cache_warnings).map(|c| c.remembering());
    for (i, v) in versions.iter().enumerate() {
        progress.version(&v.name, i, versions.len());
        let mut one = opts.clone();
        one.git_ref = Some(v.commit.clone());
        one.reuse_trees = true;
        let out = prepare(&one)
            .and_then(|job| job.run_with(progress, cache.as_ref()))
            .inspect_err(|_| errdex_lang::kept_trees::forget())?;
        // Warnings of the newest version are the ones a user can act on.
        if v.name == newest.name {
            warnings = out.warnings;
        }
        runs.push((v.clone(), out.dataset));
    }
    errdex_lang::kept_trees::forget();
    warnings.extend(cache_warnings);
    Ok(Indexed {
        dataset: merge(runs),
        warnings,
        cache: cache
            .as_ref()
            .map(crate::cache::FactsCache::stats)
            .unwrap_or_default(),
        cache_write: crate::CacheWrite::done(),
    })
}

/// One dataset of the records of every run (oldest first): each record as
/// the newest run that has it wrote it, with its version ranges; slugs of
/// the newest run's records stay as that run gave them.
pub fn merge(runs: Vec<(Version, RepoDataset)>) -> RepoDataset {
    let names: Vec<String> = runs.iter().map(|(v, _)| v.name.clone()).collect();
    let last = runs.len().saturating_sub(1);
    // Every record's appearances, by id, in version order.
    let mut seen: HashMap<String, Vec<(usize, Record)>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut out = RepoDataset::default();
    for (i, (v, ds)) in runs.into_iter().enumerate().rev() {
        out.versions.push(RepoVersion {
            name: v.name.clone(),
            commit: v.commit.clone(),
            date: date(v.time),
        });
        if i == last {
            out.repo = ds.repo.clone();
            out.commit = ds.commit.clone();
            out.remote_url = ds.remote_url.clone();
            out.dynamic_sites = ds.dynamic_sites.clone();
            out.stats = ds.stats.clone();
        }
        for r in ds.records {
            let list = seen.entry(r.id.clone()).or_default();
            if list.is_empty() {
                order.push(r.id.clone());
            }
            list.push((i, r));
        }
    }
    out.versions.reverse();
    // The newest run's records first, in their order; then those removed
    // earlier, newest removal first.
    let mut records: Vec<Record> = order
        .iter()
        .map(|id| {
            let mut list = seen.remove(id).expect("every id was seen");
            list.reverse();
            with_history(list, &names)
        })
        .collect();
    let slugs = unique_slugs(records.iter().map(|r| r.message_pattern.as_str()));
    for (r, slug) in records.iter_mut().zip(slugs) {
        r.slug = slug;
    }
    records.sort_by(|a, b| (&a.message_pattern, &a.id).cmp(&(&b.message_pattern, &b.id)));
    out.stats.records = records.len() as u64;
    out.records = records;
    out
}

/// The newest appearance of a record, with the ranges of all of them
/// (`list` oldest first).
fn with_history(list: Vec<(usize, Record)>, names: &[String]) -> Record {
    let mut ranges: Vec<(usize, usize, &Record)> = Vec::new();
    for (i, r) in &list {
        match ranges.last_mut() {
            Some((_, to, at))
                if *to + 1 == *i
                    && at.file_path == r.file_path
                    && at.line_number == r.line_number =>
            {
                *to = *i;
                *at = r;
            }
            _ => ranges.push((*i, *i, r)),
        }
    }
    let versions = ranges
        .iter()
        .map(|&(from, to, r)| VersionRange {
            from: names[from].clone(),
            to: names[to].clone(),
            commit: r.analyzed_sha.clone().unwrap_or_default(),
            file_path: r.file_path.clone(),
            line_number: r.line_number,
            github_url: r.github_url.clone(),
        })
        .collect();
    let first = list.first().map(|(i, _)| *i).unwrap_or(0);
    let (newest, mut record) = list
        .into_iter()
        .last()
        .expect("a record appears once at least");
    record.first_seen = Some(names[first].clone());
    record.last_seen = Some(names[newest].clone());
    record.removed_in = names.get(newest + 1).cloned();
    record.versions = versions;
    record
}

/// A commit time as RFC 3339 (UTC).
fn date(seconds: i64) -> Option<String> {
    (seconds > 0).then(|| {
        let days = seconds.div_euclid(86_400);
        let secs = seconds.rem_euclid(86_400);
        let (y, m, d) = civil(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    })
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, pattern: &str, file: &str, line: u32, commit: &str) -> Record {
        let mut r: Record = serde_json::from_value(serde_json::json!({
            "id": id, "repo": "o/p", "slug": "", "errorCode": null,
            "errorMessage": pattern, "messagePattern": pattern, "errorType": "exception",
            "errorClass": null, "httpStatus": null, "severity": "error",
            "filePath": file, "lineNumber": line, "sourceCode": "", "sourceCodeStart": 1,
            "sourceCodeEnd": 1, "githubUrl": null, "documentation": null,
            "triggerScenarios": null, "commonSituations": null, "solutions": [],
            "exampleFix": null, "handlingStrategy": null, "validationCode": null,
            "typeGuard": null, "tryCatchPattern": null, "preventionTips": [], "tags": [],
            "backgroundTag": null, "analyzedSha": commit, "analyzedAt": "t",
            "contentChangedAt": "t", "schemaVersion": 2, "sites": [], "relatedErrors": [],
            "analyzer": null, "language": "python"
        }))
        .unwrap();
        r.slug = errdex_model::slugify(pattern);
        r
    }

    fn run(name: &str, records: Vec<Record>) -> (Version, RepoDataset) {
        let v = Version {
            name: name.into(),
            commit: format!("{name}-sha"),
            time: 0,
        };
        let ds = RepoDataset {
            repo: "o/p".into(),
            commit: Some(v.commit.clone()),
            records,
            ..Default::default()
        };
        (v, ds)
    }

    #[test]
    fn a_removed_message_keeps_its_last_version_and_a_moved_one_each_place() {
        let runs = vec![
            run(
                "v1",
                vec![
                    record("a", "old %r", "m.py", 10, "v1-sha"),
                    record("b", "moved %r", "m.py", 20, "v1-sha"),
                ],
            ),
            run(
                "v2",
                vec![
                    record("a", "old %r", "m.py", 12, "v2-sha"),
                    record("b", "moved %r", "m.py", 20, "v2-sha"),
                ],
            ),
            run("v3", vec![record("b", "moved %r", "cli.py", 5, "v3-sha")]),
        ];
        let ds = merge(runs);
        assert_eq!(ds.commit.as_deref(), Some("v3-sha"));
        let names: Vec<&str> = ds.versions.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["v1", "v2", "v3"]);
        let old = ds.records.iter().find(|r| r.id == "a").unwrap();
        assert_eq!(old.first_seen.as_deref(), Some("v1"));
        assert_eq!(old.last_seen.as_deref(), Some("v2"));
        assert_eq!(old.removed_in.as_deref(), Some("v3"));
        assert_eq!(old.line_number, 12, "the record is its last version's");
        assert_eq!(old.versions.len(), 2, "the line moved: two ranges");
        let moved = ds.records.iter().find(|r| r.id == "b").unwrap();
        assert_eq!(moved.removed_in, None);
        let places: Vec<(&str, &str, &str, u32)> = moved
            .versions
            .iter()
            .map(|v| {
                (
                    v.from.as_str(),
                    v.to.as_str(),
                    v.file_path.as_str(),
                    v.line_number,
                )
            })
            .collect();
        assert_eq!(
            places,
            [("v1", "v2", "m.py", 20), ("v3", "v3", "cli.py", 5)]
        );
        assert_eq!(
            moved.versions[0].commit, "v2-sha",
            "a range pins its last version"
        );
    }

    #[test]
    fn the_newest_versions_slugs_win_a_clash() {
        // Two patterns with the same slug: the one in the newest version
        // keeps the plain slug.
        let runs = vec![
            run("v1", vec![record("a", "bad value", "m.py", 1, "s")]),
            run("v2", vec![record("b", "bad value!", "m.py", 1, "s")]),
        ];
        let ds = merge(runs);
        let slug = |id: &str| ds.records.iter().find(|r| r.id == id).unwrap().slug.clone();
        assert_eq!(slug("b"), "bad-value");
        assert_eq!(slug("a"), "bad-value-2");
    }

    #[test]
    fn commit_times_read_as_dates() {
        assert_eq!(date(0), None);
        assert_eq!(date(1_700_000_000).as_deref(), Some("2023-11-14T22:13:20Z"));
    }
}
