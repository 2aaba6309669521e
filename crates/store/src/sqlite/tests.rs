use super::*;
use errdex_model::{ErrorType, Lang, Severity, SCHEMA_VERSION};

fn record(repo: &str, pattern: &str, line: u32) -> Record {
    Record {
        id: errdex_model::record_id(repo, pattern),
        repo: repo.into(),
        slug: errdex_model::slugify(pattern),
        error_code: None,
        error_message: pattern.into(),
        message_pattern: pattern.into(),
        error_type: ErrorType::Exception,
        error_class: None,
        http_status: None,
        severity: Severity::Error,
        file_path: "a.go".into(),
        line_number: line,
        source_code: String::new(),
        source_code_start: 1,
        source_code_end: line,
        github_url: None,
        documentation: None,
        trigger_scenarios: None,
        common_situations: None,
        solutions: vec![],
        example_fix: None,
        handling_strategy: None,
        validation_code: None,
        type_guard: None,
        try_catch_pattern: None,
        prevention_tips: vec![],
        tags: vec![],
        background_tag: None,
        analyzed_sha: None,
        analyzed_at: "2026-01-01T00:00:00.000Z".into(),
        content_changed_at: "2026-01-01T00:00:00.000Z".into(),
        schema_version: SCHEMA_VERSION,
        sites: vec![],
        related_errors: vec![],
        causes: vec![],
        analyzer: None,
        language: Lang::Go,
        first_seen: None,
        last_seen: None,
        removed_in: None,
        versions: vec![],
    }
}

fn dataset(repo: &str, records: Vec<Record>) -> RepoDataset {
    RepoDataset {
        repo: repo.into(),
        records,
        ..Default::default()
    }
}

#[test]
fn replace_is_per_repo_and_versions_increase() {
    let s = SqliteStore::open_in_memory().unwrap();
    let v1 = s
        .replace_repo(&dataset(
            "a/a",
            vec![record("a/a", "one", 1), record("a/a", "two", 2)],
        ))
        .unwrap();
    let v2 = s
        .replace_repo(&dataset("b/b", vec![record("b/b", "one", 1)]))
        .unwrap();
    assert!(v2 > v1, "{v2} > {v1}");
    let v3 = s
        .replace_repo(&dataset("a/a", vec![record("a/a", "three", 3)]))
        .unwrap();
    assert!(v3 > v2);
    let all = s.list(&ListQuery::default()).unwrap();
    let pats: Vec<_> = all
        .iter()
        .map(|r| (r.repo.as_str(), r.message_pattern.as_str()))
        .collect();
    assert_eq!(pats, vec![("a/a", "three"), ("b/b", "one")]);
    assert_eq!(s.dataset_version().unwrap(), Some(v3));
    assert_eq!(s.search("two", None, 10).unwrap().len(), 0, "fts cleaned");
    assert_eq!(s.search("three", None, 10).unwrap().len(), 1);
}

#[test]
fn unchanged_records_keep_content_changed_at() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.replace_repo(&dataset(
        "a/a",
        vec![record("a/a", "same", 1), record("a/a", "moves", 1)],
    ))
    .unwrap();
    let mut same = record("a/a", "same", 1);
    same.analyzed_at = "2026-02-02T00:00:00.000Z".into();
    same.content_changed_at = same.analyzed_at.clone();
    let mut moved = record("a/a", "moves", 5);
    moved.analyzed_at = "2026-02-02T00:00:00.000Z".into();
    moved.content_changed_at = moved.analyzed_at.clone();
    s.replace_repo(&dataset("a/a", vec![same.clone(), moved.clone()]))
        .unwrap();
    let got_same = s.get(&same.id).unwrap().unwrap();
    assert_eq!(got_same.content_changed_at, "2026-01-01T00:00:00.000Z");
    assert_eq!(got_same.analyzed_at, "2026-02-02T00:00:00.000Z");
    let got_moved = s.get(&moved.id).unwrap().unwrap();
    assert_eq!(got_moved.content_changed_at, "2026-02-02T00:00:00.000Z");

    // The kept date is what the next run compares with.
    same.analyzed_at = "2026-03-03T00:00:00.000Z".into();
    same.content_changed_at = same.analyzed_at.clone();
    s.replace_repo(&dataset("a/a", vec![same.clone()])).unwrap();
    let got_same = s.get(&same.id).unwrap().unwrap();
    assert_eq!(got_same.content_changed_at, "2026-01-01T00:00:00.000Z");

    // A new commit that did not touch it: pinned to the new commit, the
    // content unchanged.
    for sha in [
        "1111111111111111111111111111111111111111",
        "2222222222222222222222222222222222222222",
    ] {
        same.analyzed_sha = Some(sha.into());
        same.github_url = Some(format!("https://github.com/a/a/blob/{sha}/x.go#L1-L2"));
        same.analyzed_at = format!("2026-04-0{}T00:00:00.000Z", &sha[..1]);
        same.content_changed_at = same.analyzed_at.clone();
        s.replace_repo(&dataset("a/a", vec![same.clone()])).unwrap();
    }
    let got_same = s.get(&same.id).unwrap().unwrap();
    assert_eq!(
        got_same.analyzed_sha.as_deref(),
        Some("2222222222222222222222222222222222222222")
    );
    assert_eq!(
        got_same.content_changed_at, "2026-04-01T00:00:00.000Z",
        "the first pinned run changed the content, the second did not"
    );
}

#[test]
fn a_run_that_fails_leaves_the_old_records() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.replace_repo(&dataset("a/a", vec![record("a/a", "kept", 1)]))
        .unwrap();
    let written = s
        .replace_repo_when_ready::<RepoDataset>("a/a", || None)
        .unwrap();
    assert_eq!(written, None);
    let q = ListQuery {
        repo: Some("a/a".into()),
        ..Default::default()
    };
    assert_eq!(s.list(&q).unwrap().len(), 1);
}

#[test]
fn a_version_1_database_is_migrated_keeping_change_dates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let r = record("a/a", "old", 1);
        conn.execute(
            "INSERT INTO repos (repo, dataset_version, indexed_at, stats) VALUES ('a/a', 'v', 'v', '{}')",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO records (id, repo, slug, message_pattern, error_message, error_type,
               severity, file_path, line_number, content_hash, record)
             VALUES (?1, 'a/a', 'old', 'old', 'old', 'exception', 'error', 'a.go', 1, 'h', ?2)",
            params![r.id, serde_json::to_string(&r).unwrap()],
        )
        .unwrap();
    }
    let s = SqliteStore::open(&path).unwrap();
    let conn = s.conn();
    let (version, changed): (i64, String) = conn
        .query_row(
            "SELECT (SELECT user_version FROM pragma_user_version), content_changed_at FROM records",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(version, MIGRATIONS.len() as i64);
    assert_eq!(changed, "2026-01-01T00:00:00.000Z");
}

/// A record with two sites, facts and documentation: what `trace_rows`
/// reads and what it must leave out.
fn traced_record() -> Record {
    let site = |file: &str, line: u32| errdex_model::Site {
        file_path: file.into(),
        line_number: line,
        function: Some("Serve".into()),
        callee: "fmt.Errorf".into(),
        error_type: ErrorType::Exception,
        error_class: None,
        args: vec!["err".into()],
        source_code_start: 1,
        source_code_end: line,
        github_url: Some(format!("https://github.com/a/a/blob/c/{file}#L{line}")),
        facts: errdex_model::SiteFacts {
            package: Some("server".into()),
            guards: vec!["err != nil".into()],
            ..Default::default()
        },
    };
    Record {
        documentation: Some("Serving stopped.".into()),
        sites: vec![site("b.go", 7), site("a.go", 3)],
        ..record("a/a", "serving: %w", 7)
    }
}

#[test]
fn trace_rows_come_from_trace_rows_and_from_migrated_records_alike() {
    let fresh = SqliteStore::open_in_memory().unwrap();
    fresh
        .replace_repo(&dataset("a/a", vec![traced_record()]))
        .unwrap();
    let want = fresh.trace_rows(None).unwrap();
    assert_eq!(want.len(), 1);
    assert_eq!(want[0].documentation.as_deref(), Some("Serving stopped."));
    let files: Vec<&str> = want[0].sites.iter().map(|s| s.file_path.as_str()).collect();
    assert_eq!(files, vec!["b.go", "a.go"]);
    assert_eq!(want[0].sites[0].args, vec!["err"]);
    assert_eq!(want[0].sites[0].guards, vec!["err != nil"]);

    // The same record stored by a version without the column.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v3.db");
    {
        let conn = Connection::open(&path).unwrap();
        for m in &MIGRATIONS[..3] {
            conn.execute_batch(m).unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
        conn.execute(
            "INSERT INTO repos (repo, dataset_version, indexed_at, stats) VALUES ('a/a', 'v', 'v', '{}')",
            [],
        )
        .unwrap();
        let r = traced_record();
        conn.execute(
            "INSERT INTO records (id, repo, slug, message_pattern, error_message, error_type,
               severity, file_path, line_number, content_hash, record)
             VALUES (?1, 'a/a', ?2, ?3, ?3, 'exception', 'error', 'b.go', 7, 'h', ?4)",
            params![
                r.id,
                r.slug,
                r.message_pattern,
                serde_json::to_string(&r).unwrap()
            ],
        )
        .unwrap();
    }
    let migrated = SqliteStore::open(&path).unwrap();
    assert_eq!(migrated.trace_rows(None).unwrap(), want);
    let small: i64 = migrated
        .conn()
        .query_row(
            "SELECT length(trace) < length(record) AND trace NOT LIKE '%package%'
             FROM records JOIN record_traces USING (seq)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        small, 1,
        "the trace row holds the sites without facts but guards"
    );
    // A trace row written before guards (ten fields a site) still reads.
    migrated
        .conn()
        .execute(
            "UPDATE record_traces SET trace = replace(trace, ',[\"err != nil\"]]', ']')",
            [],
        )
        .unwrap();
    let before_guards = migrated.trace_rows(None).unwrap();
    assert!(before_guards[0].sites[0].guards.is_empty());
    assert_eq!(before_guards[0].sites[0].args, vec!["err"]);
    // A record without its trace row still reads, from the record.
    migrated
        .conn()
        .execute("DELETE FROM record_traces", [])
        .unwrap();
    assert_eq!(migrated.trace_rows(None).unwrap(), want);
    // Updated and replaced records keep one trace row each.
    let mut r = traced_record();
    r.documentation = Some("Changed.".into());
    fresh.update_records(std::slice::from_ref(&r)).unwrap();
    assert_eq!(
        fresh.trace_rows(None).unwrap()[0].documentation.as_deref(),
        Some("Changed.")
    );
    fresh.replace_repo(&dataset("a/a", vec![])).unwrap();
    let left: i64 = fresh
        .conn()
        .query_row("SELECT count(*) FROM record_traces", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0);
}

#[test]
fn search_treats_user_text_as_words() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.replace_repo(&dataset(
        "a/a",
        vec![record("a/a", "serving readiness probe: %w", 1)],
    ))
    .unwrap();
    assert_eq!(s.search("readiness probe", None, 5).unwrap().len(), 1);
    assert_eq!(s.search("\"readiness* (probe:", None, 5).unwrap().len(), 1);
    assert!(s.search("***", None, 5).unwrap().is_empty());
}

#[test]
fn file_that_is_not_a_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.db");
    std::fs::write(&p, vec![b'x'; 4096]).unwrap();
    let err = SqliteStore::open(&p).unwrap_err().to_string();
    assert!(err.contains("not an errdex"), "{err}");
    let err = SqliteStore::open(dir.path()).unwrap_err().to_string();
    assert!(err.contains("is a folder"), "{err}");
}

#[test]
fn newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.db");
    drop(SqliteStore::open(&p).unwrap());
    let c = Connection::open(&p).unwrap();
    c.pragma_update(None, "user_version", 99).unwrap();
    drop(c);
    let err = SqliteStore::open(&p).unwrap_err();
    assert!(matches!(err, Error::NewerSchema { found: 99, .. }), "{err}");
}

#[test]
fn filters_and_slugs() {
    let s = SqliteStore::open_in_memory().unwrap();
    let mut warn = record("a/a", "careful", 2);
    warn.severity = Severity::Warning;
    s.replace_repo(&dataset("a/a", vec![record("a/a", "boom", 1), warn]))
        .unwrap();
    let q = ListQuery {
        severity: Some("warning".into()),
        ..Default::default()
    };
    assert_eq!(s.list(&q).unwrap().len(), 1);
    assert_eq!(s.count(&q).unwrap(), 1);
    assert_eq!(s.find_slug(Some("a/a"), "boom").unwrap().len(), 1);
    assert!(s.find_slug(Some("b/b"), "boom").unwrap().is_empty());
}

#[test]
fn info_and_debug_records_are_a_trace_only_tier() {
    let s = SqliteStore::open_in_memory().unwrap();
    let mut info = record("a/a", "server started on port", 2);
    info.severity = Severity::Info;
    info.error_type = ErrorType::Log;
    let mut debug = record("a/a", "tick took", 3);
    debug.severity = Severity::Debug;
    debug.error_type = ErrorType::Log;
    // An error value rated info by its meaning is no log statement.
    let mut stop = record("a/a", "stop requested", 4);
    stop.severity = Severity::Info;
    s.replace_repo(&dataset(
        "a/a",
        vec![record("a/a", "boom", 1), info, debug, stop],
    ))
    .unwrap();
    let n = |q: ListQuery| s.count(&q).unwrap();
    assert_eq!(n(ListQuery::default()), 2, "hidden by default");
    assert_eq!(
        s.list(&ListQuery::default()).unwrap()[0].message_pattern,
        "boom"
    );
    assert_eq!(
        n(ListQuery {
            all_levels: true,
            ..Default::default()
        }),
        4
    );
    assert_eq!(
        n(ListQuery {
            severity: Some("info".into()),
            ..Default::default()
        }),
        2
    );
    assert!(s.search("server started", None, 10).unwrap().is_empty());
    // Tracing sees every level.
    assert_eq!(s.trace_rows(None).unwrap().len(), 4);
}

#[test]
fn analysis_updates_records_in_place_and_bumps_the_version() {
    let s = SqliteStore::open_in_memory().unwrap();
    let v1 = s
        .replace_repo(&dataset(
            "a/b",
            vec![record("a/b", "x failed", 1), record("a/b", "y", 2)],
        ))
        .unwrap();
    let mut r = s
        .get(&errdex_model::record_id("a/b", "x failed"))
        .unwrap()
        .unwrap();
    r.documentation = Some("What it means.".into());
    r.severity = Severity::Info;
    r.analyzer = Some("llm:local/m".into());
    r.analyzed_at = "2026-02-01T00:00:00.000Z".into();
    r.content_changed_at = "2026-02-01T00:00:00.000Z".into();
    // A record that is no longer stored is skipped, not inserted.
    let gone = record("a/b", "gone", 3);
    let v2 = s
        .update_records(&[r.clone(), gone.clone()])
        .unwrap()
        .unwrap();
    assert!(v2 > v1);
    assert_eq!(s.repos().unwrap()[0].dataset_version, v2);
    let got = s.get(&r.id).unwrap().unwrap();
    assert_eq!(got.documentation.as_deref(), Some("What it means."));
    assert_eq!(got.content_changed_at, "2026-02-01T00:00:00.000Z");
    assert!(s.get(&gone.id).unwrap().is_none());
    let q = ListQuery {
        severity: Some("info".into()),
        ..ListQuery::default()
    };
    assert_eq!(
        s.count(&q).unwrap(),
        1,
        "the severity column follows the record"
    );

    // Writing the same content again keeps its change date.
    let mut again = got.clone();
    again.analyzed_at = "2026-03-01T00:00:00.000Z".into();
    again.content_changed_at = "2026-03-01T00:00:00.000Z".into();
    s.update_records(&[again]).unwrap();
    let kept = s.get(&r.id).unwrap().unwrap();
    assert_eq!(kept.content_changed_at, "2026-02-01T00:00:00.000Z");
    assert_eq!(s.update_records(&[]).unwrap(), None);
}

#[test]
fn tag_family_and_code_filters() {
    let s = SqliteStore::open_in_memory().unwrap();
    let mut a = record("a/b", "x timed out", 1);
    a.tags = vec!["timeout".into(), "wrapped-error".into()];
    a.background_tag = Some("timeout".into());
    a.error_code = Some("codes.DeadlineExceeded".into());
    let b = record("a/b", "y", 2);
    s.replace_repo(&dataset("a/b", vec![a, b])).unwrap();
    let count = |q: ListQuery| s.count(&q).unwrap();
    assert_eq!(
        count(ListQuery {
            tag: Some("wrapped-error".into()),
            ..ListQuery::default()
        }),
        1
    );
    assert_eq!(
        count(ListQuery {
            tag: Some("wrapped".into()),
            ..ListQuery::default()
        }),
        0
    );
    assert_eq!(
        count(ListQuery {
            family: Some("timeout".into()),
            ..ListQuery::default()
        }),
        1
    );
    assert_eq!(
        count(ListQuery {
            error_code: Some("codes.DeadlineExceeded".into()),
            ..ListQuery::default()
        }),
        1
    );
}

#[test]
fn llm_cache_round_trips() {
    let s = SqliteStore::open_in_memory().unwrap();
    assert_eq!(s.cache_get("k").unwrap(), None);
    s.cache_put("k", "local", "m", "{\"a\":1}").unwrap();
    s.cache_put("k", "local", "m", "{\"a\":2}").unwrap();
    assert_eq!(s.cache_get("k").unwrap().as_deref(), Some("{\"a\":2}"));
}

/// `record` pinned to `sha` at run time `at`, as an index run makes it.
fn pinned(mut r: Record, sha: &str, at: &str) -> Record {
    r.analyzed_sha = Some(sha.into());
    r.github_url = Some(format!("https://github.com/a/a/blob/{sha}/a.go#L1-L3"));
    r.analyzed_at = at.into();
    r.content_changed_at = at.into();
    r
}

fn pinned_dataset(sha: &str, records: Vec<Record>) -> RepoDataset {
    RepoDataset {
        commit: Some(sha.into()),
        ..dataset("a/a", records)
    }
}

/// Each row's pattern and its `error_code` column, which the tests set by
/// hand to tell a row left alone from one written again.
fn rows(s: &SqliteStore) -> Vec<(String, Option<String>)> {
    s.conn()
        .prepare("SELECT message_pattern, error_code FROM records ORDER BY message_pattern")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<std::result::Result<_, _>>()
        .unwrap()
}

#[test]
fn a_new_commit_rewrites_only_the_records_it_changed_and_reads_pin_the_rest_to_it() {
    let s = SqliteStore::open_in_memory().unwrap();
    let (c1, c2) = ("1".repeat(40), "2".repeat(40));
    let (t1, t2) = ("2026-01-01T00:00:00.000Z", "2026-02-02T00:00:00.000Z");
    let first = |p: &str, line| pinned(record("a/a", p, line), &c1, t1);
    s.replace_repo(&pinned_dataset(
        &c1,
        vec![first("kept", 1), first("moved", 2), first("dropped", 3)],
    ))
    .unwrap();
    s.conn()
        .execute("UPDATE records SET error_code = 'untouched'", [])
        .unwrap();

    let second = |p: &str, line| pinned(record("a/a", p, line), &c2, t2);
    s.replace_repo(&pinned_dataset(
        &c2,
        vec![second("kept", 1), second("moved", 9), second("added", 4)],
    ))
    .unwrap();
    let untouched = Some("untouched".to_string());
    assert_eq!(
        rows(&s),
        vec![
            ("added".into(), None),
            ("kept".into(), untouched),
            ("moved".into(), None),
        ],
        "only the unchanged record is the row stored before"
    );

    // The untouched row reads as of the new run: its commit, its links,
    // its time; its content date stays.
    let kept = s.get(&record("a/a", "kept", 1).id).unwrap().unwrap();
    assert_eq!(kept, {
        let mut want = second("kept", 1);
        want.content_changed_at = t1.into();
        want
    });
    let traced = s.trace_rows(None).unwrap();
    let kept_trace = traced.iter().find(|t| t.message_pattern == "kept").unwrap();
    assert!(kept_trace
        .sites
        .iter()
        .all(|site| site.github_url.as_deref().is_none_or(|u| u.contains(&c2))));
    let listed = s.list(&ListQuery::default()).unwrap();
    assert!(listed
        .iter()
        .all(|r| r.analyzed_sha.as_deref() == Some(c2.as_str()) && r.analyzed_at == t2));
    assert_eq!(s.search("kept", None, 5).unwrap()[0], kept);
    assert_eq!(s.find_slug(None, "kept").unwrap()[0], kept);
}

#[test]
fn an_atlas_written_before_marked_rows_reads_the_same_after_the_migration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v6.db");
    let sha = "3".repeat(40);
    let mut r = pinned(traced_record(), &sha, "2026-01-01T00:00:00.000Z");
    r.content_changed_at = "2025-12-12T00:00:00.000Z".into();
    {
        let conn = Connection::open(&path).unwrap();
        for m in &MIGRATIONS[..6] {
            conn.execute_batch(m).unwrap();
        }
        conn.pragma_update(None, "user_version", 6).unwrap();
        conn.execute(
            "INSERT INTO repos (repo, commit_sha, dataset_version, indexed_at, stats)
             VALUES ('a/a', ?1, 'v', 'v', '{}')",
            [&sha],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO records (id, repo, slug, message_pattern, error_message, error_type,
               severity, file_path, line_number, content_hash, record, content_changed_at)
             VALUES (?1, 'a/a', ?2, ?3, ?3, 'exception', 'error', 'b.go', 7, 'h', ?4, ?5)",
            params![
                r.id,
                r.slug,
                r.message_pattern,
                serde_json::to_string(&r).unwrap(),
                r.content_changed_at
            ],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO record_traces (seq, trace) VALUES (1, ?1)",
            [serde_json::to_string(&encode::TraceFields::of(&r)).unwrap()],
        )
        .unwrap();
    }
    let migrated = SqliteStore::open(&path).unwrap();
    assert_eq!(migrated.get(&r.id).unwrap(), Some(r.clone()));
    let stored: String = migrated
        .conn()
        .query_row("SELECT record FROM records", [], |row| row.get(0))
        .unwrap();
    assert!(!stored.contains(&sha), "the commit is a mark in the row");
    let trace = &migrated.trace_rows(None).unwrap()[0];
    assert_eq!(trace.sites[0].github_url, r.sites[0].github_url);
}
