//! Indexing a repository: snapshot (commit, remote), parallel walk and
//! parse, constant resolution per package, and grouping of sites into
//! records with snippets and pinned links.
//!
//! ```no_run
//! use errdex_extract::{index, Options, NoProgress};
//! let out = index(&Options::new("/src/project", "2026-01-01T00:00:00.000Z"), &NoProgress).unwrap();
//! println!("{} records", out.dataset.records.len());
//! ```
#![deny(missing_docs)]

mod cache;
mod callers;
mod causes;
mod checks;
mod closed;
pub mod config;
pub mod fetch;
mod field_keys;
mod git;
mod group;
mod history;
mod parse;
pub mod snapshot;
mod source;
mod staged;
mod walk;

use checks::attach_checks;
pub(crate) use checks::names_site;

use config::Config;
use errdex_lang::{
    apply_wrappers, resolve_package, wrapper_matters, ErrorCheck, ExtractOptions, FileFacts,
};
use errdex_model::{IndexStats, RepoDataset};
use rayon::prelude::*;
use snapshot::{Remote, Snapshot};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use cache::FactsCache;
pub use cache::{build_id, CacheStats};
pub use git::{matching_refs, named_versions, Version};
pub use history::{index_versions, merge};
use parse::{cached_parse, flush_cache, open_cache, whole_parse, Parsed};
use source::Source;
pub use walk::{TEST_DIRS, VENDOR_DIRS};

/// Lines of context on each side of a site in a record's snippet.
pub const SNIPPET_CONTEXT: u32 = 18;
/// Default `--max-file-size`: larger files are almost always generated.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// What to index and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The folder to index.
    pub root: PathBuf,
    /// `owner/name` to use instead of the one read from the remote.
    pub repo: Option<String>,
    /// Commit to pin to instead of HEAD.
    pub commit: Option<String>,
    /// A ref (branch, tag, commit) to read from git objects instead of the
    /// files on disk; a bare repository is read at HEAD without one.
    pub git_ref: Option<String>,
    /// Index `vendor/`, `third_party/`, `node_modules/`.
    pub include_vendor: bool,
    /// Index test files and `testdata/`.
    pub include_tests: bool,
    /// Files larger than this are skipped with a warning.
    pub max_file_size: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Also index info and debug log statements.
    pub all_levels: bool,
    /// The run's timestamp (RFC 3339, UTC, milliseconds) for
    /// `analyzedAt`/`contentChangedAt`.
    pub timestamp: String,
    /// A configuration file to use instead of the root's `errdex.toml`.
    pub config: Option<PathBuf>,
    /// The file that keeps what each blob yielded, so a later run parses
    /// only the blobs it has not seen (none: parse everything).
    pub cache: Option<PathBuf>,
    /// Keep each file's syntax tree for the next parse of its path: the
    /// next release of a history run parses only what changed
    /// ([`errdex_lang::kept_trees`]).
    pub reuse_trees: bool,
}

impl Options {
    /// Defaults for indexing `root` at `timestamp`.
    pub fn new(root: impl Into<PathBuf>, timestamp: impl Into<String>) -> Options {
        Options {
            root: root.into(),
            repo: None,
            commit: None,
            git_ref: None,
            include_vendor: false,
            include_tests: false,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            threads: 0,
            all_levels: false,
            timestamp: timestamp.into(),
            config: None,
            cache: None,
            reuse_trees: false,
        }
    }
}

/// A file or folder that was skipped or only partly understood.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
    /// Path relative to the root (or absolute where the walk reported it).
    pub path: String,
    /// What happened and what errdex did about it.
    pub message: String,
}

/// Progress of a run, reported from worker threads.
pub trait Progress: Sync {
    /// The walk is done: `total` files will be parsed.
    fn start(&self, _total: u64) {}
    /// One more file was parsed.
    fn advance(&self) {}
    /// A phase (`snapshot`, `walk`, `parse`, `resolve`, `group`) ended,
    /// `seconds` after the run started.
    fn phase(&self, _phase: &str, _seconds: f64) {}
    /// A history run starts on version `name`, number `i` of `total`.
    fn version(&self, _name: &str, _i: usize, _total: usize) {}
}

/// Reports nothing.
pub struct NoProgress;
impl Progress for NoProgress {}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The path does not exist.
    #[error("{0}: no such file or folder")]
    NotFound(PathBuf),
    /// The path is not a folder.
    #[error("{0}: not a folder; give the root folder of a repository")]
    NotADirectory(PathBuf),
    /// `--repo` is not `owner/name`.
    #[error("--repo {0:?}: expected OWNER/NAME")]
    BadRepo(String),
    /// `--commit` is not a 40-hex id.
    #[error("--commit {0:?}: expected a full 40-hex commit id")]
    BadCommit(String),
    /// The configuration file is unreadable or wrong.
    #[error("{0}")]
    Config(String),
    /// The repository cannot be read.
    #[error("{path}: {message}")]
    Git {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// `--ref` names nothing, or not a commit.
    #[error("--ref {spec:?}: {message}")]
    BadRef {
        /// The ref as given.
        spec: String,
        /// Why it cannot be used.
        message: String,
    },
    /// A repository named by URL could not be cloned or fetched.
    #[error("{url}: cannot clone or fetch: {message}")]
    Fetch {
        /// The URL.
        url: String,
        /// Why.
        message: String,
    },
    /// The tree has no file errdex reads.
    #[error("{0}")]
    Empty(String),
    /// Reading the root failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// What a run produced.
#[derive(Debug)]
pub struct Indexed {
    /// Records, dynamic sites and counts.
    pub dataset: RepoDataset,
    /// Skipped or partly parsed files.
    pub warnings: Vec<Warning>,
    /// What the run took from the facts cache.
    pub cache: CacheStats,
    /// The facts cache's write of what the run added.
    pub cache_write: CacheWrite,
}

/// The facts cache's write at the end of a run, made on a thread of its
/// own while the run's records are analysed and stored (it is mostly
/// waiting on the disk). Dropping it waits for it.
#[derive(Debug)]
pub struct CacheWrite(Option<std::thread::JoinHandle<Vec<Warning>>>);

impl CacheWrite {
    /// A write made already.
    pub(crate) fn done() -> CacheWrite {
        CacheWrite(None)
    }

    /// Waits for the write: a warning if the cache could not be written.
    pub fn wait(mut self) -> Vec<Warning> {
        self.0
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for CacheWrite {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}

/// The source files an index run over the work tree `opts.root` reads, by
/// the walk's rules (ignore files, vendor, tests, `errdex.toml`): each
/// path relative to the root, with its language. For other readers of the
/// same files (`errdex lint`).
pub fn source_files(opts: &Options) -> Result<Vec<(String, errdex_model::Lang)>, Error> {
    let config = Config::load(&opts.root, opts.config.as_deref()).map_err(Error::Config)?;
    let walked = walk::walk(&opts.root, opts, &config);
    Ok(walked
        .files
        .into_iter()
        .map(|c| (c.rel, c.lang.lang()))
        .collect())
}

/// Indexes one repository: [`prepare`], then [`Job::run`].
pub fn index(opts: &Options, progress: &dyn Progress) -> Result<Indexed, Error> {
    prepare(opts)?.run(progress)
}

/// A run whose input was checked and whose repository is known, before
/// any file is read. Callers that write the result somewhere can use
/// [`Job::repo`] to get ready while the run goes on.
#[derive(Debug)]
pub struct Job<'a> {
    opts: &'a Options,
    started: Instant,
    snap: Snapshot,
    repo: String,
    commit: Option<String>,
    remote: Option<Remote>,
    config: Config,
    at: Option<git::At>,
}

/// Checks the options and reads the snapshot (commit, remote): everything
/// that can fail before the long part of a run.
pub fn prepare(opts: &Options) -> Result<Job<'_>, Error> {
    let started = Instant::now();
    let root = &opts.root;
    let meta = std::fs::metadata(root).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::NotFound(root.clone()),
        _ => Error::Io {
            path: root.clone(),
            source: e,
        },
    })?;
    if !meta.is_dir() {
        return Err(Error::NotADirectory(root.clone()));
    }
    if let Some(r) = &opts.repo {
        if !valid_repo_name(r) {
            return Err(Error::BadRepo(r.clone()));
        }
    }
    if let Some(c) = &opts.commit {
        if c.len() != 40 || !c.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::BadCommit(c.clone()));
        }
    }
    let at = git::at(root, opts.git_ref.as_deref())?;
    let (config, snap) = match &at {
        Some(at) => {
            let repo = at.repo.to_thread_local();
            let config = git::config(&repo, at, opts.config.as_deref())?;
            (
                config,
                Snapshot::of_commit(root, &repo, at.commit, &at.prefix),
            )
        }
        None => {
            let config = Config::load(root, opts.config.as_deref()).map_err(Error::Config)?;
            let snap = Snapshot::open(root).map_err(|e| Error::Io {
                path: root.clone(),
                source: e,
            })?;
            (config, snap)
        }
    };
    let repo = opts
        .repo
        .clone()
        .or_else(|| snap.remote.as_ref().map(|r| r.path.clone()))
        .unwrap_or_else(|| local_repo_name(&snap.root));
    let commit = opts
        .commit
        .clone()
        .map(|c| c.to_ascii_lowercase())
        .or(snap.commit.clone());
    // With --repo and no remote, links point at GitHub, the common host.
    let remote = snap.remote.clone().or_else(|| {
        opts.repo.as_ref().map(|r| Remote {
            host: "github.com".into(),
            path: r.clone(),
        })
    });
    Ok(Job {
        opts,
        started,
        snap,
        repo,
        commit,
        remote,
        config,
        at,
    })
}

impl Job<'_> {
    /// The `owner/name` the records will belong to.
    pub fn repo(&self) -> &str {
        &self.repo
    }

    /// Walks, parses, resolves and groups.
    pub fn run(self, progress: &dyn Progress) -> Result<Indexed, Error> {
        self.run_with(progress, None)
    }

    /// [`Job::run`] with the facts cache of a run over several versions
    /// (`None`: the run opens `opts.cache` itself).
    pub(crate) fn run_with(
        self,
        progress: &dyn Progress,
        shared: Option<&FactsCache>,
    ) -> Result<Indexed, Error> {
        let Job {
            opts,
            started,
            snap,
            repo,
            commit,
            remote,
            config,
            at,
        } = self;
        let t = |phase: &str| progress.phase(phase, started.elapsed().as_secs_f64());
        t("snapshot");
        let (walked, source) = match at {
            Some(at) => {
                let (walked, blobs) = git::list(
                    &at.repo.to_thread_local(),
                    at.commit,
                    &at.prefix,
                    opts,
                    &config,
                )
                .map_err(|message| Error::Git {
                    path: opts.root.clone(),
                    message,
                })?;
                (walked, Source::Git(Box::new(git::source(at.repo, blobs))))
            }
            None => (
                walk::walk(&snap.root, opts, &config),
                Source::Dir(snap.root.clone()),
            ),
        };
        if walked.files.is_empty() && walked.skipped == 0 {
            return Err(Error::Empty(nothing_found(opts, &snap)));
        }
        t("walk");
        let mut warnings = walked.warnings;
        let owned = match shared {
            Some(_) => None,
            None => open_cache(opts, &config, &mut warnings),
        };
        let cache = shared.or(owned.as_ref());
        progress.start(walked.files.len() as u64);

        // The walkers recurse once per level of a file's tree: every
        // thread gets the stack the deepest tree errdex reads needs.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .stack_size(errdex_lang::PARSE_STACK)
            .build()
            .expect("a thread pool can be built");
        // Largest files first, so no thread is left parsing a big file alone
        // at the end.
        // A work tree's unchanged files are known by the index's ids: their
        // cached facts need no read.
        if matches!(source, Source::Dir(_)) {
            if let Some(staged) = staged::StagedIds::open(&snap) {
                pool.install(|| staged.fill(&snap.root, &walked.files));
            }
        }
        let mut order: Vec<&walk::Candidate> = walked.files.iter().collect();
        order.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.rel.cmp(&b.rel)));
        let parsed: Vec<Parsed> = pool.install(|| {
            order
                .par_iter()
                // Sizes vary by three orders of magnitude: hand out files one by
                // one instead of in halves, or one thread ends up with the big
                // ones.
                .with_max_len(1)
                .map(|c| {
                    let r = cached_parse(c, &source, &snap, opts, &config, cache);
                    progress.advance();
                    r
                })
                .collect()
        });

        t("parse");
        // Second pass: calls of the repository's own printf wrappers can sit
        // in declarations the prefilter skipped; files parsed only in part that
        // mention a wrapper by name are parsed again, whole.
        let wrapper_names: Vec<String> = parsed
            .iter()
            .filter_map(|p| match p {
                Parsed::Ok { facts, .. } => Some(
                    facts
                        .wrappers
                        .iter()
                        .filter(|w| wrapper_matters(w, opts.all_levels))
                        .map(|w| format!("{}(", w.name)),
                ),
                Parsed::Skipped(_) => None,
            })
            .flatten()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut parsed = parsed;
        if !wrapper_names.is_empty() {
            let ac = aho_corasick::AhoCorasick::new(&wrapper_names).expect("wrapper names build");
            let wrapper_key = wrapper_names.join("\n");
            let whole = ExtractOptions {
                all_levels: opts.all_levels,
                whole_file: true,
                custom: config.functions.clone(),
                reuse_trees: false,
            };
            pool.install(|| {
                parsed
                    .par_iter_mut()
                    .zip(order.par_iter())
                    .for_each(|(p, c)| {
                        if let Parsed::Ok { facts, .. } = p {
                            if !facts.partial {
                                return;
                            }
                            let path = snap.repo_path(&c.rel);
                            if let Some(again) =
                                whole_parse(c, &path, &source, &ac, &whole, cache, &wrapper_key)
                            {
                                **facts = again;
                            }
                        }
                    })
            });
        }
        t("wrappers");
        let mut stats = IndexStats {
            files_seen: walked.files.len() as u64 + walked.skipped,
            files_skipped: walked.skipped,
            ..IndexStats::default()
        };
        let mut all_facts: Vec<FileFacts> = Vec::with_capacity(parsed.len());
        let mut line_counts = HashMap::new();
        let mut readable: Vec<(&walk::Candidate, String)> = Vec::with_capacity(parsed.len());
        for (p, c) in parsed.into_iter().zip(&order) {
            match p {
                Parsed::Ok {
                    mut facts,
                    rel,
                    lines,
                    bytes,
                    warning,
                } => {
                    if let Some(names) = facts.names.take() {
                        let _ = c.names.set(names);
                    }
                    stats.files_indexed += 1;
                    stats.bytes += bytes;
                    if facts.syntax_errors > 0 {
                        stats.files_with_syntax_errors += 1;
                    }
                    warnings.extend(warning);
                    readable.push((*c, rel.clone()));
                    line_counts.insert(rel, lines);
                    all_facts.push(*facts);
                }
                Parsed::Skipped(w) => {
                    stats.files_skipped += 1;
                    warnings.extend(w);
                }
            }
        }
        // Printf wrappers defined anywhere in the repository make their calls
        // sites everywhere, and its exception classes say what exceptions
        // raised with several arguments print; then constants resolve
        // package by package.
        apply_wrappers(&mut all_facts, opts.all_levels);
        errdex_lang::exception_classes::apply_exception_classes(&mut all_facts);
        let checks: Vec<ErrorCheck> = all_facts
            .iter_mut()
            .flat_map(|f| std::mem::take(&mut f.checks))
            .collect();
        let declared_keys: Vec<errdex_model::FieldKey> = all_facts
            .iter_mut()
            .flat_map(|f| std::mem::take(&mut f.field_keys))
            .collect();
        let option_setters: Vec<(String, String, String)> = all_facts
            .iter_mut()
            .flat_map(|f| {
                let dir = f.scope.split('\0').next().unwrap_or_default().to_string();
                let setters = std::mem::take(&mut f.option_setters);
                setters
                    .into_iter()
                    .map(move |(field, o)| (dir.clone(), field, o))
            })
            .collect();
        let mut by_scope: HashMap<String, Vec<FileFacts>> = HashMap::new();
        for f in all_facts {
            by_scope.entry(f.scope.clone()).or_default().push(f);
        }
        let resolved: Vec<_> = pool.install(|| {
            by_scope
                .into_par_iter()
                .map(|(_, files)| resolve_package(files))
                .collect()
        });
        let mut sites = Vec::new();
        let mut dynamic = Vec::new();
        for (s, d) in resolved {
            sites.extend(s);
            dynamic.extend(d);
        }
        dynamic.sort_by(|a, b| {
            (&a.file_path, a.line_number, &a.callee).cmp(&(&b.file_path, b.line_number, &b.callee))
        });
        attach_checks(&mut sites, &checks);
        field_keys::attach_field_keys(&mut sites, &declared_keys);
        field_keys::attach_field_options(&mut sites, &option_setters);
        let returns: Vec<ErrorCheck> = checks
            .into_iter()
            .filter(|c| matches!(c.how, "return" | "translates"))
            .collect();
        pool.install(|| callers::attach_callers(&mut sites, &readable, &source, cache));
        closed::attach_closed_holes(&mut sites, &readable, &source, cache, &|rel| {
            snap.repo_path(rel)
        });
        t("resolve");
        stats.sites = sites.len() as u64;
        stats.dynamic_sites = dynamic.len() as u64;

        let blobs: HashMap<&str, gix::ObjectId> = readable
            .iter()
            .filter_map(|(c, rel)| Some((rel.as_str(), *c.content_id()?)))
            .collect();
        let ctx = group::Context {
            repo: &repo,
            commit: commit.as_deref(),
            remote: remote.as_ref(),
            snap: &snap,
            source: &source,
            line_counts: &line_counts,
            timestamp: &opts.timestamp,
            blobs: &blobs,
            cache,
        };
        let (mut records, snippet_warnings) = pool.install(|| group::records(sites, &ctx));
        warnings.extend(snippet_warnings);
        t("group");
        pool.install(|| causes::attach_causes(&mut records, &returns, &readable, &source, cache));
        t("causes");
        stats.records = records.len() as u64;
        stats.seconds = started.elapsed().as_secs_f64();
        let cache_stats = match (shared, cache) {
            // A shared cache's counts are the whole history run's.
            (Some(_), _) | (None, None) => CacheStats::default(),
            (None, Some(c)) => c.stats(),
        };
        let cache_write = match (shared, owned) {
            (Some(c), _) => {
                flush_cache(c, opts, &mut warnings);
                CacheWrite::done()
            }
            (None, Some(c)) => {
                let path = opts.cache.clone();
                CacheWrite(Some(std::thread::spawn(move || {
                    let mut warnings = Vec::new();
                    parse::flush_cache_at(&c, path.as_deref(), &mut warnings);
                    warnings
                })))
            }
            (None, None) => CacheWrite::done(),
        };
        Ok(Indexed {
            dataset: RepoDataset {
                repo,
                commit,
                remote_url: snap.remote_url.clone(),
                records,
                dynamic_sites: dynamic,
                stats,
                versions: Vec::new(),
            },
            warnings,
            cache: cache_stats,
            cache_write,
        })
    }
}

/// Why a run found no file to read, naming what it looked at.
fn nothing_found(opts: &Options, snap: &Snapshot) -> String {
    let at = match &snap.commit {
        Some(c) if opts.git_ref.is_some() || snap.prefix.is_empty() => format!(" at commit {c}"),
        _ => String::new(),
    };
    format!(
        "{}: no source file in a language errdex reads{at} (after skipping hidden, vendored and \
         test folders{}); check the path{}",
        opts.root.display(),
        if opts.include_tests {
            ""
        } else {
            " and test files: --include-tests reads them"
        },
        if opts.git_ref.is_some() {
            " and the ref"
        } else {
            ""
        },
    )
}

fn valid_repo_name(r: &str) -> bool {
    let parts: Vec<&str> = r.split('/').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        })
}

/// A name for a tree with no remote: `local/<folder>`.
fn local_repo_name(root: &Path) -> String {
    // A bare repository's folder is `name.git`.
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".git").to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "root".into());
    format!("local/{}", safe_name(&name, '-'))
}

/// `name` with every character but ASCII letters, digits, `-`, `_` and
/// `.` replaced by `with`: a name fit for a path segment.
pub(crate) fn safe_name(name: &str, with: char) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                with
            }
        })
        .collect()
}

/// The folder of a repository path (`a/b/c.go` → `a/b`; `""` at the
/// root).
pub(crate) fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_names() {
        assert!(valid_repo_name("kubernetes/kops"));
        assert!(valid_repo_name("group/sub/project"));
        assert!(!valid_repo_name("kops"));
        assert!(!valid_repo_name("a/../b"));
        assert!(!valid_repo_name("a/b c"));
        assert_eq!(local_repo_name(Path::new("/tmp/my tree")), "local/my-tree");
    }
}
