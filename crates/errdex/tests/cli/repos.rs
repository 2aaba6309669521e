//! Repositories as git objects, by URL, over history, incrementally, and
//! many of them through `errdex crawl`. Repositories are built here with
//! `git` from real sources: the kops files behind the seed pages, and ten
//! releases of a PyPI package (bench/history).

use super::{errdex, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The real kops files behind both seed pages.
fn kops() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/kops")
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.email=t@errdex",
            "-c",
            "user.name=t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A work tree at `dir` holding a copy of `from`, committed.
fn repo_of(from: &Path, dir: &Path) {
    errdex_testkit::copy_tree(from, dir);
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "import"]);
}

/// The export of `db` as records by id, timestamps left out.
pub(super) fn exported(db: &Path) -> Vec<Value> {
    let o = errdex(db, &["export", "--format", "jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let m = v.as_object_mut().unwrap();
            m.remove("analyzedAt");
            m.remove("contentChangedAt");
            v
        })
        .collect()
}

/// The answers an index run reused and computed, from its `cache:` line.
fn cache_counts(out: &str) -> (u64, u64) {
    let n: Vec<u64> = out
        .split("cache: ")
        .nth(1)
        .map(|s| {
            s.split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .take(2)
                .collect()
        })
        .unwrap_or_default();
    match n[..] {
        [reused, computed] => (reused, computed),
        _ => panic!("no cache line in {out}"),
    }
}

fn index(db: &Path, cache: &Path, args: &[&str]) -> String {
    let mut all = vec!["index", "--cache-dir", cache.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = errdex(db, &all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    stderr(&o)
}

#[test]
fn a_repository_reads_alike_bare_by_file_url_and_as_a_work_tree() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("kops");
    repo_of(&kops(), &work);
    // A tracked file that .gitignore names: left out both ways.
    std::fs::write(work.join(".gitignore"), "generated/\n").unwrap();
    std::fs::create_dir_all(work.join("generated")).unwrap();
    std::fs::write(
        work.join("generated/gen.go"),
        "package generated\n\nimport \"errors\"\n\nvar ErrGenerated = errors.New(\"generated: ignored by .gitignore\")\n",
    )
    .unwrap();
    git(&work, &["add", "-f", "-A"]);
    git(&work, &["commit", "-qm", "generated code"]);
    let bare = t.path().join("kops.git");
    git(
        t.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let url = format!("file://{}", bare.display());
    let mut exports = Vec::new();
    for (i, what) in [work.to_str().unwrap(), bare.to_str().unwrap(), &url]
        .iter()
        .enumerate()
    {
        // Each with its own cache: nothing is reused between the three.
        let db = t.path().join(format!("{i}.db"));
        let cache = t.path().join(format!("cache{i}"));
        index(&db, &cache, &[what, "--repo", "kubernetes/kops"]);
        exports.push(exported(&db));
    }
    assert!(
        exports[0].len() >= 2,
        "the seed errors are found: {}",
        exports[0].len()
    );
    assert!(
        exports[0]
            .iter()
            .any(|r| r["messagePattern"] == "serving readiness probe: %w"),
        "the seed record"
    );
    assert!(
        !exports
            .iter()
            .flatten()
            .any(|r| r["filePath"].as_str().unwrap().starts_with("generated/")),
        "a file .gitignore names is not indexed"
    );
    assert_eq!(exports[0], exports[1], "bare repository = work tree");
    assert_eq!(exports[0], exports[2], "file:// URL = work tree");
    let sha = exports[0][0]["analyzedSha"].as_str().unwrap().to_string();
    assert_eq!(sha.len(), 40, "pinned to the commit");
}

#[test]
fn an_empty_repository_a_bad_ref_and_a_tree_with_no_code_are_errors_that_say_why() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("a.db");
    let cache = t.path().join("cache");
    let empty = t.path().join("empty.git");
    git(t.path(), &["init", "-q", "--bare", empty.to_str().unwrap()]);
    let o = errdex(
        &db,
        &[
            "index",
            "--cache-dir",
            cache.to_str().unwrap(),
            empty.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no commits"), "{}", stderr(&o));

    let work = t.path().join("kops");
    repo_of(&kops(), &work);
    let o = errdex(&db, &["index", work.to_str().unwrap(), "--ref", "v9.9.9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--ref \"v9.9.9\""), "{}", stderr(&o));

    let docs = t.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join("README.md"), "# nothing to index\n").unwrap();
    git(&docs, &["init", "-q"]);
    git(&docs, &["add", "-A"]);
    git(&docs, &["commit", "-qm", "docs"]);
    let o = errdex(&db, &["index", docs.to_str().unwrap(), "--ref", "HEAD"]);
    assert_eq!(o.status.code(), Some(2), "never a silent zero");
    assert!(
        stderr(&o).contains("no source file in a language errdex reads"),
        "{}",
        stderr(&o)
    );

    let o = errdex(
        &db,
        &[
            "index",
            "file:///no/such/repo.git",
            "--cache-dir",
            cache.to_str().unwrap(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(3),
        "an unreachable remote: {}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("cannot clone or fetch"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_reindex_after_a_commit_parses_only_the_changed_blobs_and_keeps_timestamps() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("kops");
    repo_of(&kops(), &work);
    let (db, cache) = (t.path().join("a.db"), t.path().join("cache"));
    let first = index(
        &db,
        &cache,
        &[work.to_str().unwrap(), "--repo", "kubernetes/kops"],
    );
    assert!(first.contains(" 0 answers reused"), "{first}");
    let before = exported(&db);
    // A commit that adds one file with one new error, in a function whose
    // name the callers pass now searches: no other file's answers depend
    // on the set of names searched, only on the names each file calls.
    let new = work.join("pkg/added.go");
    std::fs::write(&new, "package pkg\n\nimport \"errors\"\n\nfunc addedCheck() error { return errors.New(\"an added error\") }\n").unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "one file more"]);
    let second = index(
        &db,
        &cache,
        &[work.to_str().unwrap(), "--repo", "kubernetes/kops"],
    );
    let (_, computed) = cache_counts(&second);
    // Its parse, the names it calls, its snippet, its flows (the cause
    // graph); every file's callers scan again would be five more.
    assert!(computed <= 4, "only the new file is read: {second}");
    let after = errdex(&db, &["export", "--format", "jsonl"]);
    let after: Vec<Value> = stdout(&after)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(after.len(), before.len() + 1);
    let old = |id: &Value| before.iter().any(|b| b["id"] == *id);
    let kept: Vec<&Value> = after.iter().filter(|r| old(&r["id"])).collect();
    let unchanged = kept
        .iter()
        .filter(|r| r["contentChangedAt"] != r["analyzedAt"])
        .count();
    assert_eq!(
        unchanged,
        kept.len(),
        "records the commit did not touch keep contentChangedAt"
    );
    // Untouched records are not written again, yet read as of the new run.
    let head = Command::new("git")
        .args(["-C", work.to_str().unwrap(), "rev-parse", "HEAD"])
        .output()
        .unwrap();
    let head = String::from_utf8(head.stdout).unwrap();
    let added = after
        .iter()
        .find(|r| r["messagePattern"] == "an added error")
        .unwrap();
    for r in &after {
        assert_eq!(r["analyzedSha"].as_str(), Some(head.trim()), "{}", r["id"]);
        assert_eq!(r["analyzedAt"], added["analyzedAt"], "{}", r["id"]);
        let link = r["githubUrl"].as_str().unwrap_or(head.trim());
        assert!(link.contains(head.trim()), "{link}");
    }
}

/// The ten releases of bench/history (semver 2.11.0 … 3.1.2) as tagged
/// commits, or `None` (a notice; a failure under CI) without the corpus.
fn semver_history(dir: &Path) -> Option<PathBuf> {
    let corpus = Path::new("/var/tmp/errdex-corpora/history");
    let releases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/history/releases.txt");
    if !corpus.join(".done").is_file() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI needs the history corpus: bash bench/history/setup.sh"
        );
        eprintln!("skipped: no history corpus (bash bench/history/setup.sh)");
        return None;
    }
    let repo = dir.join("semver");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    for v in std::fs::read_to_string(releases)
        .unwrap()
        .split_whitespace()
    {
        git(&repo, &["rm", "-rqf", "--ignore-unmatch", "."]);
        errdex_testkit::copy_tree(&corpus.join(format!("semver-{v}")), &repo);
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-qm", v]);
        git(&repo, &["tag", v]);
    }
    Some(repo)
}

#[test]
fn ten_real_releases_give_each_message_its_versions_and_an_old_one_its_last() {
    let t = tempfile::tempdir().unwrap();
    let Some(repo) = semver_history(t.path()) else {
        return;
    };
    let (db, cache) = (t.path().join("h.db"), t.path().join("cache"));
    let out = index(
        &db,
        &cache,
        &[
            repo.to_str().unwrap(),
            "--tags",
            "*",
            "--repo",
            "python-semver/python-semver",
        ],
    );
    assert!(out.contains("versions: 10 (2.11.0 … 3.1.2)"), "{out}");
    let records = exported(&db);
    let find = |pattern: &str| {
        records
            .iter()
            .find(|r| r["messagePattern"] == pattern)
            .unwrap_or_else(|| panic!("{pattern} not indexed"))
            .clone()
    };
    // Read from the sources (bench/history/README.md): `raise TypeError(`
    // at semver.py:200, its literal on 201, in 2.11.0–2.13.0 only.
    let old = find("other type %r must be in %r");
    assert_eq!(
        (
            old["firstSeen"].as_str(),
            old["lastSeen"].as_str(),
            old["removedIn"].as_str()
        ),
        (Some("2.11.0"), Some("2.13.0"), Some("3.0.0"))
    );
    assert_eq!(old["filePath"], "semver.py");
    assert!(
        [200, 201].contains(&old["lineNumber"].as_u64().unwrap()),
        "{}",
        old["lineNumber"]
    );
    // `Invalid version %r`: semver.py:1117 (2.11.0), :1132 (2.12.0–2.13.0),
    // src/semver/cli.py:59 (3.0.0–3.1.2).
    let moved = find("Invalid version %r");
    let places: Vec<(String, String, String, u64)> = moved["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["from"].as_str().unwrap().into(),
                v["to"].as_str().unwrap().into(),
                v["filePath"].as_str().unwrap().into(),
                v["lineNumber"].as_u64().unwrap(),
            )
        })
        .collect();
    let files: Vec<(&str, &str, &str)> = places
        .iter()
        .map(|(a, b, f, _)| (a.as_str(), b.as_str(), f.as_str()))
        .collect();
    assert_eq!(
        files,
        [
            ("2.11.0", "2.11.0", "semver.py"),
            ("2.12.0", "2.13.0", "semver.py"),
            ("3.0.0", "3.1.2", "src/semver/cli.py")
        ]
    );
    assert!(
        [1116, 1117].contains(&places[0].3)
            && [1131, 1132].contains(&places[1].3)
            && [58, 59].contains(&places[2].3),
        "{places:?}"
    );
    assert_eq!(moved["removedIn"], Value::Null);

    // explain answers the old message with its last version, not as
    // unknown and not as printed by the newest.
    let line = "TypeError: other type 'int' must be in (str, bytes)";
    let o = errdex(&db, &["explain", line]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("printed by 2.11.0 – 2.13.0; removed in 3.0.0"),
        "{}",
        stdout(&o)
    );
    let o = errdex(&db, &["explain", "--json", line]);
    let v: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    let c = &v["frames"][0]["candidates"][0];
    assert_eq!(
        (
            c["firstSeen"].as_str(),
            c["lastSeen"].as_str(),
            c["removedIn"].as_str()
        ),
        (Some("2.11.0"), Some("2.13.0"), Some("3.0.0"))
    );
    let o = errdex(&db, &["explain", "--at", "2.12.0", line]);
    assert!(o.status.success(), "2.12.0 prints it: {}", stdout(&o));
    let o = errdex(&db, &["explain", "--at", "3.1.2", line]);
    assert_eq!(o.status.code(), Some(1), "3.1.2 does not: {}", stdout(&o));
    let o = errdex(&db, &["explain", "--at", "4.0", line]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("indexed versions: 2.11.0, 2.12.0"),
        "{}",
        stderr(&o)
    );

    // The page says it, and the repository lists its versions.
    let o = errdex(&db, &["show", old["id"].as_str().unwrap()]);
    assert!(
        stdout(&o).contains("present in 2.11.0 – 2.13.0, removed in 3.0.0"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn releases_parse_only_the_blobs_an_earlier_release_did_not_have() {
    let t = tempfile::tempdir().unwrap();
    let Some(repo) = semver_history(t.path()) else {
        return;
    };
    let (db, cache) = (t.path().join("h.db"), t.path().join("cache"));
    // Ten versions of about ten files each: a blob an earlier release had
    // is not parsed again...
    let (reused, _) = cache_counts(&index(
        &db,
        &cache,
        &[repo.to_str().unwrap(), "--tags", "*"],
    ));
    assert!(reused > 30, "{reused} answers reused across releases");
    // ...and indexing them again parses nothing.
    let again = index(&db, &cache, &[repo.to_str().unwrap(), "--tags", "*"]);
    assert_eq!(cache_counts(&again).1, 0, "{again}");
}

#[test]
fn a_vendored_copy_ranks_after_its_origin() {
    let t = tempfile::tempdir().unwrap();
    let origin = t.path().join("origin");
    std::fs::create_dir_all(origin.join("lib")).unwrap();
    let code = "package lib\n\nimport \"fmt\"\n\nfunc Open(name string) error {\n\treturn fmt.Errorf(\"lib: cannot open bucket %q\", name)\n}\n";
    std::fs::write(origin.join("lib/open.go"), code).unwrap();
    let user = t.path().join("user");
    std::fs::create_dir_all(user.join("vendor/example.org/lib")).unwrap();
    std::fs::write(user.join("vendor/example.org/lib/open.go"), code).unwrap();
    std::fs::write(
        user.join("main.go"),
        "package main\n\nfunc main() { panic(\"user: giving up\") }\n",
    )
    .unwrap();
    let (db, cache) = (t.path().join("a.db"), t.path().join("cache"));
    // The copy is indexed first, so only the rule can put the origin first.
    index(
        &db,
        &cache,
        &[
            user.to_str().unwrap(),
            "--repo",
            "a/user",
            "--include-vendor",
        ],
    );
    index(
        &db,
        &cache,
        &[origin.to_str().unwrap(), "--repo", "z/origin"],
    );
    let o = errdex(
        &db,
        &["explain", "--json", "lib: cannot open bucket \"logs\""],
    );
    let v: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    let repos: Vec<&str> = v["frames"][0]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["repo"].as_str().unwrap())
        .collect();
    assert_eq!(repos, ["z/origin", "a/user"]);
}

/// `n` small repositories (copies of the kops files under their own
/// names) and a crawl list of them.
fn crawl_list(dir: &Path, n: usize) -> PathBuf {
    let mut list = String::new();
    for i in 0..n {
        let r = dir.join(format!("r{i}"));
        repo_of(&kops(), &r);
        list.push_str(&format!("{}\n", r.display()));
    }
    let file = dir.join("list.txt");
    std::fs::write(&file, list).unwrap();
    file
}

fn crawl(db: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_errdex"));
    c.arg("--db")
        .arg(db)
        .arg("crawl")
        .args(args)
        .env_remove("ERRDEX_DB");
    c
}

/// Each stored repository and its record count, through `export`.
fn crawled(db: &Path) -> Vec<(String, u64)> {
    let o = errdex(db, &["export", "--format", "jsonl"]);
    let mut by_repo: std::collections::BTreeMap<String, u64> = Default::default();
    for l in stdout(&o).lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        *by_repo
            .entry(v["repo"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    by_repo.into_iter().collect()
}

#[test]
fn a_crawl_killed_at_any_point_resumes_and_indexes_each_repository_once() {
    let t = tempfile::tempdir().unwrap();
    let list = crawl_list(t.path(), 6);
    let cache = t.path().join("cache");
    let reference = t.path().join("ref.db");
    let o = crawl(
        &reference,
        &[
            list.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = crawled(&reference);
    assert_eq!(want.len(), 6);
    let mut x = 0x9e37_79b9_u32;
    for trial in 0..20 {
        let db = t.path().join(format!("t{trial}.db"));
        let mut child = crawl(
            &db,
            &[
                list.to_str().unwrap(),
                "--cache-dir",
                cache.to_str().unwrap(),
            ],
        )
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        std::thread::sleep(std::time::Duration::from_millis(u64::from(x % 900)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let o = crawl(
            &db,
            &[
                list.to_str().unwrap(),
                "--cache-dir",
                cache.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap();
        assert!(
            o.status.success(),
            "trial {trial}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let got = crawled(&db);
        assert_eq!(
            got, want,
            "trial {trial}: every repository indexed once, whole"
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("6 done, 0 failed, 0 left"),
            "trial {trial}: {err}"
        );
    }
}

#[test]
fn a_crawl_records_a_stuck_or_unreachable_repository_as_failed_and_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let good = t.path().join("good");
    repo_of(&kops(), &good);
    let list = t.path().join("list.toml");
    std::fs::write(
        &list,
        format!(
            "[[repo]]\nsource = \"file:///no/such/repo.git\"\n\n[[repo]]\nsource = \"{}\"\n",
            good.display()
        ),
    )
    .unwrap();
    let db = t.path().join("a.db");
    let o = crawl(
        &db,
        &[
            list.to_str().unwrap(),
            "--retries",
            "1",
            "--cache-dir",
            t.path().join("c").to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("1 done, 1 failed, 0 left"), "{err}");
    assert!(
        err.contains("failed: file:///no/such/repo.git") && err.contains("(after 2 tries)"),
        "{err}"
    );
    // A time limit stops a repository and records why.
    let o = crawl(
        &db,
        &[
            list.to_str().unwrap(),
            "--again",
            "--timeout",
            "0",
            "--retries",
            "0",
        ],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("took longer than 0 s (--timeout)"), "{err}");
}

/// A release packed with Windows line ends (`\r\n`) yields what the same
/// text with Unix ones yields: no `\r` in a message that spans lines, the
/// same records, and its files' facts come from the cache the Unix
/// release filled.
#[test]
fn windows_line_ends_yield_what_unix_ones_do() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("app");
    std::fs::create_dir_all(&work).unwrap();
    let text = "def load(path):\n    raise ValueError(\"\"\"cannot load the settings file:\nit is not valid TOML\"\"\")\n";
    std::fs::write(work.join("app.py"), text).unwrap();
    git(&work, &["init", "-q"]);
    git(&work, &["-c", "core.autocrlf=false", "add", "-A"]);
    git(&work, &["commit", "-qm", "unix"]);
    git(&work, &["tag", "v1"]);
    std::fs::write(work.join("app.py"), text.replace('\n', "\r\n")).unwrap();
    git(&work, &["-c", "core.autocrlf=false", "add", "-A"]);
    git(&work, &["commit", "-qm", "windows"]);
    git(&work, &["tag", "v2"]);
    let cache = t.path().join("cache");
    let (unix_db, windows_db) = (t.path().join("unix.db"), t.path().join("windows.db"));
    index(&unix_db, &cache, &[work.to_str().unwrap(), "--ref", "v1"]);
    let out = index(
        &windows_db,
        &cache,
        &[work.to_str().unwrap(), "--ref", "v2"],
    );
    let (reused, _) = cache_counts(&out);
    assert!(reused >= 1, "the facts of v1 are reused: {out}");
    let strip = |records: Vec<Value>| -> Vec<Value> {
        records
            .into_iter()
            .map(|mut v| {
                let m = v.as_object_mut().unwrap();
                for k in ["analyzedSha", "sites", "githubUrl", "id", "slug"] {
                    m.remove(k);
                }
                v
            })
            .collect()
    };
    let (unix, windows) = (exported(&unix_db), exported(&windows_db));
    assert_eq!(
        unix[0]["messagePattern"],
        "cannot load the settings file:\nit is not valid TOML"
    );
    assert_eq!(strip(unix), strip(windows));
}

#[test]
fn a_reindex_takes_unchanged_records_over_and_reads_as_a_full_analysis() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("kops");
    repo_of(&kops(), &work);
    let (db, cache) = (t.path().join("a.db"), t.path().join("cache"));
    let args = [work.to_str().unwrap(), "--repo", "kubernetes/kops"];
    let first = index(&db, &cache, &args);
    assert!(!first.contains("unchanged since the last run"), "{first}");
    // A new error in a file that prints others: they share the file, so
    // their related records change and they are analysed again.
    let file = work.join("channels/pkg/cmd/readiness.go");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(
        "\nfunc addedCheck() error { return fmt.Errorf(\"an added controller error\") }\n",
    );
    std::fs::write(&file, text).unwrap();
    git(&work, &["commit", "-qam", "one error more"]);
    let second = index(&db, &cache, &args);
    let Some((unchanged, records)) = taken_over(&second) else {
        panic!("no unchanged count: {second}")
    };
    assert!(
        unchanged > 0 && unchanged + 2 <= records,
        "some records are taken over, the new one and its neighbours are not: {second}"
    );
    let fresh = t.path().join("fresh.db");
    let o = errdex(&fresh, &["index", "--no-cache", args[0], "--repo", args[2]]);
    assert!(o.status.success(), "{}", stderr(&o));
    let every = |db: &Path| {
        let o = errdex(db, &["export", "--format", "jsonl", "--all-levels"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut all: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for r in &mut all {
            let m = r.as_object_mut().unwrap();
            m.remove("analyzedAt");
            m.remove("contentChangedAt");
        }
        all
    };
    let after = every(&db);
    assert_eq!(after.len(), records);
    // --no-cache analyses every record again.
    let third = index(&db, &cache, &["--no-cache", args[0], "--repo", args[2]]);
    assert!(!third.contains("unchanged since the last run"), "{third}");
    assert_eq!(
        after,
        every(&fresh),
        "a re-index reads as a full analysis of the same commit"
    );
}

/// The summary's "unchanged since the last run: N of M records".
fn taken_over(summary: &str) -> Option<(usize, usize)> {
    let counts: Vec<usize> = summary
        .split("unchanged since the last run: ")
        .nth(1)?
        .split(' ')
        .filter_map(|n| n.parse().ok())
        .take(2)
        .collect();
    Some((*counts.first()?, *counts.get(1)?))
}

#[test]
fn after_an_upgrade_the_second_reindex_takes_every_record_over() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("kops");
    repo_of(&kops(), &work);
    let (db, cache) = (t.path().join("a.db"), t.path().join("cache"));
    let args = [work.to_str().unwrap(), "--repo", "kubernetes/kops"];
    index(&db, &cache, &args);
    // Another build of errdex: a copy of the executable has its own time.
    let upgraded = t.path().join("errdex-upgraded");
    std::fs::copy(env!("CARGO_BIN_EXE_errdex"), &upgraded).unwrap();
    let run = || {
        let o = std::process::Command::new(&upgraded)
            .args(["--db", db.to_str().unwrap(), "index", "--cache-dir"])
            .arg(&cache)
            .args(args)
            .env_remove("ERRDEX_DB")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    let first = run();
    assert_eq!(
        taken_over(&first).map_or(0, |c| c.0),
        0,
        "the new build analyses every record: {first}"
    );
    let second = run();
    let (unchanged, records) = taken_over(&second).unwrap();
    assert_eq!(unchanged, records, "{second}");
}
