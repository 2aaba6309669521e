//! The binary on a PostgreSQL atlas (`--db postgres://…`): the same records
//! as in SQLite, read by every command, and never the password printed.
//! Needs `ERRDEX_TEST_POSTGRES` (`.ci/run` starts a cluster); without it
//! the tests skip with a notice, and fail under `CI=true`.

use super::repos::exported;
use super::{errdex, stderr, stdout};
use serde_json::Value;
use std::path::Path;

/// A schema of its own in the test database, dropped after.
struct Atlas {
    url: String,
    /// `url` with every table in the schema.
    scoped: String,
    schema: String,
}

impl Atlas {
    fn new(name: &str) -> Option<Atlas> {
        let url = match std::env::var("ERRDEX_TEST_POSTGRES") {
            Ok(u) if !u.is_empty() => u,
            _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("CI runs the PostgreSQL tests: set ERRDEX_TEST_POSTGRES (.ci/run starts a cluster)")
            }
            _ => {
                eprintln!("notice: ERRDEX_TEST_POSTGRES is not set; PostgreSQL CLI tests skipped");
                return None;
            }
        };
        let schema = format!("cli_{}_{name}", std::process::id());
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        Some(Atlas {
            url,
            scoped,
            schema,
        })
    }

    fn db(&self) -> &Path {
        Path::new(&self.scoped)
    }
}

impl Drop for Atlas {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.url, postgres::NoTls) {
            let _ = c.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema));
        }
    }
}

#[test]
fn an_atlas_in_postgresql_holds_what_sqlite_holds_and_never_shows_the_password() {
    let Some(pg) = Atlas::new("same") else {
        return;
    };
    let env = super::Env::new("constructs");
    let (tree, lite) = (env.tree(), env.db());
    for db in [lite.as_path(), pg.db()] {
        let o = errdex(
            db,
            &["index", tree.to_str().unwrap(), "--repo", "acme/constructs"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let password = pg.url.split(':').nth(2).and_then(|p| p.split('@').next());
        if let Some(pw) = password.filter(|p| p.len() >= 3) {
            assert!(!stderr(&o).contains(&format!(":{pw}@")), "{}", stderr(&o));
        }
    }
    let (a, b) = (exported(&lite), exported(pg.db()));
    assert!(!a.is_empty());
    assert_eq!(a, b, "the same records, apart from the times of the runs");

    // Every reading command reads it: list, show, explain, search.
    let listed = errdex(pg.db(), &["list", "--json"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let first: Value = serde_json::from_str(stdout(&listed).lines().next().unwrap()).unwrap();
    let slug = first["slug"].as_str().unwrap();
    let shown = errdex(pg.db(), &["show", slug, "--json"]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let shown: Value = serde_json::from_str(&stdout(&shown)).unwrap();
    let record = &shown["record"];
    assert_eq!(record["id"], first["id"]);
    let message = record["errorMessage"].as_str().unwrap();
    let explained = errdex(pg.db(), &["explain", message, "--json"]);
    assert!(explained.status.success(), "{}", stderr(&explained));
    assert!(stdout(&explained).contains(first["id"].as_str().unwrap()));
}

#[test]
fn a_bad_postgresql_url_is_an_error_that_names_it_without_its_password() {
    let o = errdex(
        Path::new("postgres://errdex:hunter2@127.0.0.1:1/none"),
        &["list"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("postgres://errdex:***@127.0.0.1:1/none"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}

/// `/healthz`'s dataset version from the server at `url`.
fn served_version(url: &str) -> String {
    let answer = super::serve::http_get(url, "/healthz");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let v: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    v["datasetVersion"].as_str().unwrap_or_default().to_string()
}

#[test]
fn two_servers_on_one_atlas_see_a_new_index_within_a_second() {
    let Some(pg) = Atlas::new("servers") else {
        return;
    };
    let env = super::Env::new("constructs");
    let index = || {
        let o = errdex(
            pg.db(),
            &[
                "index",
                env.tree().to_str().unwrap(),
                "--repo",
                "acme/constructs",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    };
    index();
    let servers: Vec<_> = (0..2)
        .map(|_| super::serve::start(pg.db(), &["serve", "--addr", "127.0.0.1:0"]))
        .collect();
    let before = served_version(&servers[0].1);
    assert!(!before.is_empty());
    std::fs::write(
        env.tree().join("later.go"),
        "package constructs\n\nimport \"errors\"\n\nvar errLater = errors.New(\"indexed later\")\n",
    )
    .unwrap();
    index();
    let indexed = std::time::Instant::now();
    for (_, url) in &servers {
        while served_version(url) == before {
            assert!(
                indexed.elapsed() < std::time::Duration::from_secs(1),
                "{url} still serves {before}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let found = super::serve::http_get(url, "/api/search?q=indexed+later");
        assert!(found.contains("indexed later"), "{found}");
    }
    for (mut child, _) in servers {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Count of crawl jobs in `state`, and the first one's sequence number.
fn jobs_in(pg: &Atlas, state: &str) -> (i64, Option<i64>) {
    let mut c = postgres::Client::connect(&pg.url, postgres::NoTls).unwrap();
    let row = c
        .query_one(
            &format!(
                "SELECT count(*), min(seq) FROM {}.crawl_jobs WHERE state = $1",
                pg.schema
            ),
            &[&state],
        )
        .unwrap();
    (row.get(0), row.get(1))
}

#[test]
fn a_killed_workers_job_is_finished_by_another_and_indexed_once() {
    let Some(pg) = Atlas::new("workers") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let mut list = String::new();
    for i in 0..6 {
        let dir = t.path().join(format!("repo{i}"));
        errdex_testkit::copy_tree(&super::fixture("constructs"), &dir);
        let own = format!("package constructs\n\nimport \"errors\"\n\nvar errOwn = errors.New(\"repository {i} fails\")\n");
        std::fs::write(dir.join("own.go"), own).unwrap();
        list.push_str(&format!("{}\n", dir.display()));
    }
    let file = t.path().join("list.txt");
    std::fs::write(&file, list).unwrap();
    let o = errdex(pg.db(), &["crawl", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("errdex worker"), "{}", stderr(&o));
    assert_eq!(jobs_in(&pg, "queued").0, 6, "crawl only queues");

    // A worker killed while it holds a job.
    let mut doomed = std::process::Command::new(env!("CARGO_BIN_EXE_errdex"))
        .arg("--db")
        .arg(pg.db())
        .args(["worker", "--lease", "2"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let held = loop {
        if let (1.., Some(seq)) = jobs_in(&pg, "running") {
            break seq;
        }
        assert!(started.elapsed().as_secs() < 20, "the worker took no job");
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    doomed.kill().unwrap();
    doomed.wait().unwrap();

    // Another takes the rest, and the dead one's job once its lease passed.
    let o = errdex(pg.db(), &["worker", "--lease", "2", "--exit-when-idle"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(jobs_in(&pg, "done").0, 6, "{}", stderr(&o));
    let status = errdex(pg.db(), &["status"]);
    assert!(
        stdout(&status).contains("0 queued, 0 running, 6 done, 0 failed"),
        "{}",
        stdout(&status)
    );
    let mut c = postgres::Client::connect(&pg.url, postgres::NoTls).unwrap();
    let attempts: i32 = c
        .query_one(
            &format!(
                "SELECT attempts FROM {}.crawl_jobs WHERE seq = $1",
                pg.schema
            ),
            &[&held],
        )
        .unwrap()
        .get(0);
    assert!(attempts >= 1);
    // Every repository once, each with the same records: none half
    // written, none twice.
    let records = exported(pg.db());
    let mut per_repo: std::collections::BTreeMap<String, usize> = Default::default();
    for r in &records {
        *per_repo
            .entry(r["repo"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(per_repo.len(), 6, "{per_repo:?}");
    let counts: std::collections::BTreeSet<usize> = per_repo.values().copied().collect();
    assert_eq!(counts.len(), 1, "{per_repo:?}");
    let ids: std::collections::BTreeSet<&str> =
        records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), records.len());
}
