//! The behaviour every backend of [`Store`] owes, asserted once and run on
//! each: on SQLite always, on PostgreSQL when `ERRDEX_TEST_POSTGRES`
//! names a database (`postgres://errdex:errdex@127.0.0.1/errdex_test`;
//! `.ci/run` starts one, and under `CI=true` its absence is a failure).
//! Each PostgreSQL test gets a schema of its own, dropped after.

use crate::{CrawlQueue, JobOutcome, JobState, ListQuery, Store};
use errdex_model::{ErrorType, Lang, Record, RepoDataset, Severity, SCHEMA_VERSION};

pub(crate) fn record(repo: &str, pattern: &str, line: u32) -> Record {
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

pub(crate) fn dataset(repo: &str, records: Vec<Record>) -> RepoDataset {
    RepoDataset {
        repo: repo.into(),
        records,
        ..Default::default()
    }
}

/// `record` pinned to `sha` at run time `at`, as an index run makes it.
pub(crate) fn pinned(mut r: Record, sha: &str, at: &str) -> Record {
    r.analyzed_sha = Some(sha.into());
    r.github_url = Some(format!("https://github.com/a/a/blob/{sha}/a.go#L1-L3"));
    r.analyzed_at = at.into();
    r.content_changed_at = at.into();
    r
}

pub(crate) fn pinned_dataset(sha: &str, records: Vec<Record>) -> RepoDataset {
    RepoDataset {
        commit: Some(sha.into()),
        ..dataset("a/a", records)
    }
}

pub(crate) fn replace_is_per_repo_and_versions_increase(s: &dyn Store) {
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

pub(crate) fn unchanged_records_keep_content_changed_at(s: &dyn Store) {
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

pub(crate) fn search_treats_user_text_as_words(s: &dyn Store) {
    s.replace_repo(&dataset(
        "a/a",
        vec![record("a/a", "serving readiness probe: %w", 1)],
    ))
    .unwrap();
    assert_eq!(s.search("readiness probe", None, 5).unwrap().len(), 1);
    assert_eq!(s.search("\"readiness* (probe:", None, 5).unwrap().len(), 1);
    assert!(s.search("***", None, 5).unwrap().is_empty());
}

pub(crate) fn filters_and_slugs(s: &dyn Store) {
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

pub(crate) fn info_and_debug_records_are_a_trace_only_tier(s: &dyn Store) {
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

pub(crate) fn analysis_updates_records_in_place_and_bumps_the_version(s: &dyn Store) {
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

pub(crate) fn tag_family_and_code_filters(s: &dyn Store) {
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

pub(crate) fn llm_cache_round_trips(s: &dyn Store) {
    assert_eq!(s.cache_get("k").unwrap(), None);
    s.cache_put("k", "local", "m", "{\"a\":1}").unwrap();
    s.cache_put("k", "local", "m", "{\"a\":2}").unwrap();
    assert_eq!(s.cache_get("k").unwrap().as_deref(), Some("{\"a\":2}"));
}

/// Two runs at two commits; `between` runs after the first. The record
/// the second did not change reads as of the second run.
pub(crate) fn a_new_commit_reads_untouched_records_as_of_itself(s: &dyn Store, between: &dyn Fn()) {
    let (c1, c2) = ("1".repeat(40), "2".repeat(40));
    let (t1, t2) = ("2026-01-01T00:00:00.000Z", "2026-02-02T00:00:00.000Z");
    let first = |p: &str, line| pinned(record("a/a", p, line), &c1, t1);
    s.replace_repo(&pinned_dataset(
        &c1,
        vec![first("kept", 1), first("moved", 2), first("dropped", 3)],
    ))
    .unwrap();
    between();
    let second = |p: &str, line| pinned(record("a/a", p, line), &c2, t2);
    s.replace_repo(&pinned_dataset(
        &c2,
        vec![second("kept", 1), second("moved", 9), second("added", 4)],
    ))
    .unwrap();
    // Its commit, its links, its time; its content date stays.
    let kept = s.get(&record("a/a", "kept", 1).id).unwrap().unwrap();
    assert_eq!(kept, {
        let mut want = second("kept", 1);
        want.content_changed_at = t1.into();
        want
    });
    let traced = s.trace_rows(None).unwrap();
    let patterns: Vec<&str> = traced.iter().map(|t| t.message_pattern.as_str()).collect();
    assert_eq!(patterns, ["added", "kept", "moved"]);
    assert!(traced
        .iter()
        .flat_map(|t| &t.sites)
        .all(|site| site.github_url.as_deref().is_none_or(|u| u.contains(&c2))));
    let listed = s.list(&ListQuery::default()).unwrap();
    assert_eq!(listed.len(), 3);
    assert!(listed
        .iter()
        .all(|r| r.analyzed_sha.as_deref() == Some(c2.as_str()) && r.analyzed_at == t2));
    assert_eq!(s.search("kept", None, 5).unwrap(), vec![kept.clone()]);
    assert_eq!(s.find_slug(None, "kept").unwrap(), vec![kept]);
}

/// A history run's versions, and each record's presence, come back.
pub(crate) fn history_versions_round_trip(s: &dyn Store) {
    let versions: Vec<errdex_model::RepoVersion> = ["v1", "v2", "v3"]
        .iter()
        .map(|v| errdex_model::RepoVersion {
            name: v.to_string(),
            commit: v.repeat(10),
            date: Some("2026-01-01T00:00:00Z".into()),
        })
        .collect();
    let mut old = record("a/a", "only in v1", 1);
    old.first_seen = Some("v1".into());
    old.last_seen = Some("v1".into());
    old.removed_in = Some("v2".into());
    old.analyzed_sha = Some(versions[0].commit.clone());
    old.versions = vec![errdex_model::VersionRange {
        from: "v1".into(),
        to: "v1".into(),
        commit: versions[0].commit.clone(),
        file_path: "a.go".into(),
        line_number: 1,
        github_url: None,
    }];
    let ds = RepoDataset {
        commit: Some(versions[2].commit.clone()),
        versions: versions.clone(),
        ..dataset("a/a", vec![old.clone(), record("a/a", "always", 2)])
    };
    s.replace_repo(&ds).unwrap();
    assert_eq!(s.repos().unwrap()[0].versions, versions);
    assert_eq!(s.get(&old.id).unwrap(), Some(old.clone()));
    let rows = s.trace_rows(Some("a/a")).unwrap();
    let presence = rows
        .iter()
        .find(|r| r.id == old.id)
        .and_then(|r| r.presence.clone())
        .unwrap();
    assert_eq!(presence.removed_in.as_deref(), Some("v2"));
    assert!(!presence.includes("v3"));
}

/// Dynamic sites are replaced with the repository, in path order.
pub(crate) fn dynamic_sites_round_trip(s: &dyn Store) {
    let site = |path: &str, line| errdex_model::DynamicSite {
        file_path: path.into(),
        line_number: line,
        function: Some("f".into()),
        callee: "errors.New".into(),
        expression: "msg".into(),
    };
    let ds = RepoDataset {
        dynamic_sites: vec![site("b.go", 2), site("a.go", 9)],
        ..dataset("a/a", vec![record("a/a", "x", 1)])
    };
    s.replace_repo(&ds).unwrap();
    let got: Vec<(String, u32)> = s
        .dynamic_sites(Some("a/a"))
        .unwrap()
        .into_iter()
        .map(|(_, d)| (d.file_path, d.line_number))
        .collect();
    assert_eq!(got, [("a.go".to_string(), 9), ("b.go".to_string(), 2)]);
    s.replace_repo(&dataset("a/a", vec![])).unwrap();
    assert!(s.dynamic_sites(None).unwrap().is_empty());
    assert_eq!(s.count(&ListQuery::default()).unwrap(), 0);
}

/// Every conformance test, for one backend: `$open` gives a fresh store
/// or `None` (the backend is not here: a notice, or under CI a failure).
macro_rules! for_backend {
    ($open:expr) => {
        for_backend!($open; store:
            replace_is_per_repo_and_versions_increase,
            unchanged_records_keep_content_changed_at,
            search_treats_user_text_as_words,
            filters_and_slugs,
            info_and_debug_records_are_a_trace_only_tier,
            analysis_updates_records_in_place_and_bumps_the_version,
            tag_family_and_code_filters,
            llm_cache_round_trips,
            history_versions_round_trip,
            dynamic_sites_round_trip,
            reads_as_of_a_new_commit
        );
        for_backend!($open; backend: a_job_taken_again_fences_out_its_first_taker);
    };
    ($open:expr; store: $($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                if let Some(b) = $open(stringify!($name)) {
                    crate::conformance::$name(crate::conformance::Backend::store(&b));
                }
            }
        )*
    };
    ($open:expr; backend: $($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                if let Some(b) = $open(stringify!($name)) {
                    crate::conformance::$name(&b);
                }
            }
        )*
    };
}

pub(crate) fn reads_as_of_a_new_commit(s: &dyn Store) {
    a_new_commit_reads_untouched_records_as_of_itself(s, &|| {});
}

/// A worker whose job was taken again (its lease ran out, or on SQLite its
/// process died) writes nothing and records nothing: the repository is
/// written once, by the job's current taker, which marks it done in the
/// same transaction.
pub(crate) fn a_job_taken_again_fences_out_its_first_taker(b: &dyn Backend) {
    let (s, q) = (b.store(), b.queue());
    q.enqueue(&[("/src/a".into(), None)], false).unwrap();
    let first = q.claim_job(1, &|_| true).unwrap().unwrap();
    b.outlive_the_lease();
    let second = q.claim_job(2, &|p| p != 1).unwrap().expect("taken again");
    assert_eq!((second.seq, second.attempts), (first.seq, 2));
    assert!(!q.renew(first.ticket()).unwrap(), "the first lease is gone");

    q.hold_ticket(Some(first.ticket()));
    let late = s.replace_repo(&dataset("a/a", vec![record("a/a", "late", 1)]));
    assert!(
        matches!(late, Err(crate::Error::JobTaken(t)) if t == first.ticket()),
        "{late:?}"
    );
    assert!(
        s.repos().unwrap().is_empty(),
        "the refused write left nothing"
    );
    let done = JobOutcome::Done {
        repo: "a/a".into(),
        seconds: 1.0,
    };
    assert!(!q.finish_job(first.ticket(), &done).unwrap());
    assert_eq!(q.jobs().unwrap()[0].state, JobState::Running);

    q.hold_ticket(Some(second.ticket()));
    s.replace_repo(&dataset("a/a", vec![record("a/a", "kept", 1)]))
        .unwrap();
    let job = &q.jobs().unwrap()[0];
    assert_eq!(
        (job.state, job.repo.as_deref()),
        (JobState::Done, Some("a/a")),
        "the write marked its job done"
    );
    assert!(q.finish_job(second.ticket(), &done).unwrap());
    assert!(q.claim_job(3, &|_| false).unwrap().is_none(), "done once");
    q.hold_ticket(None);
    assert_eq!(s.repos().unwrap()[0].records, 1);
}

/// What a backend's `open` gives: its store and queue, and how a test
/// waits for a job's lease to run out.
pub(crate) trait Backend {
    fn store(&self) -> &dyn Store;
    fn queue(&self) -> &dyn CrawlQueue;
    /// SQLite leases nothing (a job's process is asked whether it lives).
    fn outlive_the_lease(&self) {}
}

impl Backend for crate::SqliteStore {
    fn store(&self) -> &dyn Store {
        self
    }
    fn queue(&self) -> &dyn CrawlQueue {
        self
    }
}

mod sqlite {
    fn open(_: &str) -> Option<crate::SqliteStore> {
        Some(crate::SqliteStore::open_in_memory().unwrap())
    }
    for_backend!(open);
}

pub(crate) mod postgres {
    use crate::PgStore;

    /// A store in a schema of its own, dropped with it.
    struct Scoped {
        store: PgStore,
        url: String,
        schema: String,
    }

    impl crate::conformance::Backend for Scoped {
        fn store(&self) -> &dyn crate::Store {
            &self.store
        }
        fn queue(&self) -> &dyn crate::CrawlQueue {
            &self.store
        }
        fn outlive_the_lease(&self) {
            std::thread::sleep(std::time::Duration::from_millis(1100));
        }
    }

    impl Drop for Scoped {
        fn drop(&mut self) {
            if let Ok(mut c) = postgres::Client::connect(&self.url, postgres::NoTls) {
                let _ = c.batch_execute(&format!(
                    "DROP SCHEMA IF EXISTS \"{}\" CASCADE",
                    self.schema
                ));
            }
        }
    }

    pub(crate) fn url() -> Option<String> {
        match std::env::var("ERRDEX_TEST_POSTGRES") {
            Ok(url) if !url.is_empty() => Some(url),
            _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("CI runs the store's conformance suite on PostgreSQL: set ERRDEX_TEST_POSTGRES (.ci/run starts a cluster)")
            }
            _ => {
                eprintln!(
                    "notice: ERRDEX_TEST_POSTGRES is not set; PostgreSQL conformance tests skipped"
                );
                None
            }
        }
    }

    fn open(name: &str) -> Option<Scoped> {
        let url = url()?;
        let schema = format!("t_{}_{name}", std::process::id());
        if let Ok(mut c) = postgres::Client::connect(&url, postgres::NoTls) {
            let _ = c.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"));
        }
        let store = PgStore::open_in_schema(&url, Some(&schema)).unwrap();
        store.set_lease_seconds(1);
        Some(Scoped { store, url, schema })
    }
    for_backend!(open);
}

mod tls {
    use crate::conformance::postgres::url;
    use crate::PgStore;

    fn with_param(url: &str, param: &str) -> String {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}{param}")
    }

    #[test]
    fn sslmode_require_encrypts_and_verify_full_checks_the_certificate() {
        let Some(url) = url() else {
            return;
        };
        // Encrypted when the server offers TLS (Debian's cluster does,
        // with its snakeoil certificate); unchecked, as libpq's `require`.
        let store = PgStore::open_in_schema(&with_param(&url, "sslmode=require"), None);
        match store {
            Ok(store) => {
                let mut c = store.pool.get().unwrap();
                let ssl: bool = c
                    .query_one(
                        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                        &[],
                    )
                    .unwrap()
                    .get(0);
                assert!(ssl, "the connection is encrypted");
                // The web's roots do not vouch for a snakeoil certificate.
                let err = PgStore::open(&with_param(&url, "sslmode=verify-full"))
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("cannot connect"), "{err}");
            }
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("cannot connect"), "a server without TLS: {e}");
            }
        }
    }
}
