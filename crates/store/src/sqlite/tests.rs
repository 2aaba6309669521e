use super::*;
use crate::conformance::{dataset, pinned, record};
use errdex_model::ErrorType;

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
fn a_new_commit_rewrites_only_the_records_it_changed() {
    let s = SqliteStore::open_in_memory().unwrap();
    let mark = || {
        s.conn()
            .execute("UPDATE records SET error_code = 'untouched'", [])
            .unwrap();
    };
    crate::conformance::a_new_commit_reads_untouched_records_as_of_itself(&s, &mark);
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

/// What the stored rows' analyses were made from, as a run is handed it.
fn memos(s: &SqliteStore, repo: &str) -> HashMap<String, AnalysisMemo> {
    let mut seen = HashMap::new();
    s.replace_repo_reusing::<RepoDataset>(repo, |m| {
        seen = m;
        None
    })
    .unwrap();
    seen
}

#[test]
fn a_taken_over_row_stays_and_a_row_another_writer_rewrote_is_analysed_again() {
    let s = SqliteStore::open_in_memory().unwrap();
    let memo = AnalysisMemo {
        input: "in".into(),
        related: "rel".into(),
        family: "timeout".into(),
    };
    let (kept, other) = (record("a/a", "kept", 1), record("a/a", "other", 2));
    let ds = dataset("a/a", vec![kept.clone(), other.clone()]);
    let fresh = vec![Analysed::Fresh(memo.clone()); 2];
    s.replace_repo_reusing("a/a", |_| Some((&ds, fresh)))
        .unwrap();
    assert_eq!(memos(&s, "a/a").get(&kept.id), Some(&memo));
    // Taken over: the stored row is kept even though the record in memory
    // says something else (it was not analysed).
    let mut unanalysed = kept.clone();
    unanalysed.documentation = Some("not what is stored".into());
    let ds = dataset("a/a", vec![unanalysed, other.clone()]);
    let how = vec![Analysed::TakenOver, Analysed::Fresh(memo.clone())];
    s.replace_repo_reusing("a/a", |_| Some((&ds, how))).unwrap();
    let q = ListQuery {
        repo: Some("a/a".into()),
        ..Default::default()
    };
    let listed = s.list(&q).unwrap();
    let stored = listed.iter().find(|r| r.id == kept.id).unwrap();
    assert_eq!(stored.documentation, kept.documentation);
    // An LLM pass rewrites a row: the next index run analyses it again.
    let mut by_llm = kept.clone();
    by_llm.documentation = Some("written by a model".into());
    s.update_records(&[by_llm]).unwrap();
    let left = memos(&s, "a/a");
    assert_eq!(left.get(&kept.id), None);
    assert_eq!(left.get(&other.id), Some(&memo));
}

#[test]
fn a_record_taken_over_without_a_stored_row_is_an_error_not_a_lost_record() {
    let s = SqliteStore::open_in_memory().unwrap();
    let ds = dataset("a/a", vec![record("a/a", "never stored", 1)]);
    let e = s
        .replace_repo_reusing("a/a", |_| Some((&ds, vec![Analysed::TakenOver])))
        .unwrap_err();
    assert!(e.to_string().contains("run the index again"), "{e}");
}

#[test]
fn a_row_that_stays_takes_the_memo_of_its_new_analysis() {
    // After an upgrade every record is analysed again, with a new input
    // hash, and most rows come out as they were stored.
    let s = SqliteStore::open_in_memory().unwrap();
    let memo = |input: &str| AnalysisMemo {
        input: input.into(),
        related: "rel".into(),
        family: "timeout".into(),
    };
    let r = record("a/a", "stays", 1);
    let ds = dataset("a/a", vec![r.clone()]);
    s.replace_repo_reusing("a/a", |_| {
        Some((&ds, vec![Analysed::Fresh(memo("old build"))]))
    })
    .unwrap();
    let seq = |s: &SqliteStore| -> i64 {
        s.conn()
            .query_row("SELECT seq FROM records", [], |row| row.get(0))
            .unwrap()
    };
    let before = seq(&s);
    s.replace_repo_reusing("a/a", |_| {
        Some((&ds, vec![Analysed::Fresh(memo("new build"))]))
    })
    .unwrap();
    assert_eq!(seq(&s), before, "the row itself is not rewritten");
    assert_eq!(memos(&s, "a/a").get(&r.id), Some(&memo("new build")));
}

#[test]
fn a_small_log_is_left_at_close_and_read_back_and_a_large_one_is_moved_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    let log = dir.path().join("a.db-wal");
    let q = ListQuery {
        repo: Some("a/a".into()),
        ..Default::default()
    };
    let s = SqliteStore::open(&path).unwrap();
    s.replace_repo(&dataset("a/a", vec![record("a/a", "kept", 1)]))
        .unwrap();
    drop(s);
    assert!(log.exists(), "a run that wrote little leaves its log");
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.list(&q).unwrap().len(), 1, "and its records are read");
    // A log over the limit: written by another connection, which closes
    // first, so the store's close is the last.
    let other = Connection::open(&path).unwrap();
    other
        .execute_batch(
            "CREATE TABLE scratch (b BLOB); INSERT INTO scratch VALUES (zeroblob(5000000));",
        )
        .unwrap();
    drop(other);
    assert!(std::fs::metadata(&log).unwrap().len() > LOG_LEFT_AT_CLOSE);
    drop(s);
    assert!(!log.exists(), "a large log is moved into the file at close");
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.list(&q).unwrap().len(), 1);
}
