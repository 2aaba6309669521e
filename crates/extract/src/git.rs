//! A repository's commits read from git objects: resolving a ref, listing
//! one commit's tree by the walk's rules (no checkout: bare repositories
//! work alike), and the tags or refs a history run indexes, oldest first.

use crate::config::Config;
use crate::source::GitTree;
use crate::walk::{Candidate, Walked};
use crate::{Error, Options, Warning};
use errdex_lang::language_for_path;
use errdex_model::version_order;
use gix::bstr::ByteSlice;
use gix::traverse::tree::recorder::Entry;
use gix::ObjectId;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Opens the repository at `path` (a work tree, its `.git`, or a bare
/// repository).
pub(crate) fn open(path: &Path) -> Result<gix::ThreadSafeRepository, Error> {
    gix::open(path)
        .map(|r| r.into_sync())
        .map_err(|e| Error::Git {
            path: path.to_path_buf(),
            message: format!("not a git repository ({e})"),
        })
}

/// A commit a run reads from git objects: the repository, the commit, and
/// the indexed folder's path inside the tree.
#[derive(Debug)]
pub(crate) struct At {
    pub(crate) repo: gix::ThreadSafeRepository,
    pub(crate) commit: ObjectId,
    pub(crate) prefix: String,
}

/// The commit to read for a run over `root`: `spec` when given, HEAD of a
/// bare repository, or `None` for a work tree read from disk.
pub(crate) fn at(root: &Path, spec: Option<&str>) -> Result<Option<At>, Error> {
    let discovered = gix::discover(root);
    let repo = match (discovered, spec) {
        (Ok(r), _) => r,
        (Err(_), None) => return Ok(None),
        (Err(e), Some(_)) => {
            return Err(Error::Git {
                path: root.to_path_buf(),
                message: format!("--ref needs a git repository ({e})"),
            })
        }
    };
    let bare = repo.workdir().is_none();
    let spec = match (spec, bare) {
        (Some(s), _) => s,
        (None, true) => "HEAD",
        (None, false) => return Ok(None),
    };
    let prefix = match repo.workdir().and_then(|w| w.canonicalize().ok()) {
        Some(w) => root
            .canonicalize()
            .ok()
            .and_then(|r| r.strip_prefix(&w).ok().map(crate::walk::slashed))
            .unwrap_or_default(),
        None => String::new(),
    };
    let commit = resolve(&repo, spec).map_err(|e| match (&e, bare, spec) {
        (Error::BadRef { .. }, true, "HEAD") => Error::Git {
            path: root.to_path_buf(),
            message: "a bare repository with no commits: nothing to index".into(),
        },
        _ => e,
    })?;
    Ok(Some(At {
        repo: repo.into_sync(),
        commit,
        prefix,
    }))
}

/// The commit `spec` names (a branch, tag, `HEAD`, an id, `v1.2^`).
pub(crate) fn resolve(repo: &gix::Repository, spec: &str) -> Result<ObjectId, Error> {
    let id = repo
        .rev_parse_single(spec.as_bytes().as_bstr())
        .map_err(|e| Error::BadRef {
            spec: spec.to_string(),
            message: e.to_string(),
        })?;
    let commit = id
        .object()
        .and_then(|o| o.peel_to_kind(gix::object::Kind::Commit))
        .map_err(|e| Error::BadRef {
            spec: spec.to_string(),
            message: format!("does not name a commit ({e})"),
        })?;
    Ok(commit.id)
}

/// The files of `commit`'s tree under `prefix` that a walk of its checkout
/// would choose, with the same rules: `.gitignore`, hidden, vendored and
/// test-data folders, `errdex.toml` exclusions, test files, the size limit.
/// Symbolic links and submodules are not files of the tree and are left
/// out.
pub(crate) fn list(
    repo: &gix::Repository,
    commit: ObjectId,
    prefix: &str,
    opts: &Options,
    config: &Config,
) -> Result<(Walked, HashMap<String, ObjectId>), String> {
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree_id())
        .map_err(|e| format!("cannot read the tree of {commit}: {e}"))?;
    let mut memo = TreeMemo::of(repo);
    let entries = memo
        .listing(repo, tree.detach())
        .map_err(|e| format!("cannot read the tree of {commit}: {e}"))?;
    let mut walked = Walked {
        files: Vec::new(),
        skipped: 0,
        warnings: Vec::new(),
    };
    let mut blobs = HashMap::new();
    let ignores = Ignores::of(repo, &entries);
    for entry in entries.iter() {
        if !entry.mode.is_blob() {
            continue;
        }
        let Ok(path) = entry.filepath.to_str() else {
            continue;
        };
        let rel = match prefix {
            "" => path,
            p => match path.strip_prefix(p).and_then(|r| r.strip_prefix('/')) {
                Some(r) => r,
                None => continue,
            },
        };
        // Go's cause graph reads each module's go.mod.
        if rel == "go.mod" || rel.ends_with("/go.mod") {
            blobs.insert(rel.to_string(), entry.oid);
        }
        let Some(lang) = language_for_path(rel) else {
            continue;
        };
        if !chosen(rel, opts, config)
            || (!opts.include_tests && lang.is_test_path(rel))
            || ignores.ignored(path)
        {
            continue;
        }
        let size = memo.size(repo, entry.oid);
        if size > opts.max_file_size {
            walked.skipped += 1;
            walked.warnings.push(Warning {
                path: rel.to_string(),
                message: crate::walk::too_large(size, opts.max_file_size),
            });
            continue;
        }
        blobs.insert(rel.to_string(), entry.oid);
        walked.files.push(Candidate {
            rel: rel.to_string(),
            lang,
            size,
            blob: entry.oid.into(),
            unix_blob: std::sync::OnceLock::new(),
            names: std::sync::OnceLock::new(),
        });
    }
    walked.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok((walked, blobs))
}

/// What listing a repository's trees found, kept for the next listing of
/// the same repository in this process: the releases of a history share
/// most of their folders, and a tree or blob id names its content, so a
/// folder whose id did not change is not read again, nor a blob's size.
struct TreeMemo {
    git_dir: std::path::PathBuf,
    /// Every entry of a tree and of the trees inside it, by the tree's id,
    /// paths relative to it.
    listings: HashMap<ObjectId, Listing>,
    sizes: HashMap<ObjectId, u64>,
}

type Listing = Arc<Vec<Entry>>;

/// Past this many trees kept, the memo starts again: a crawl of many
/// repositories keeps what one of them needs, not all of them.
const MEMO_TREES: usize = 200_000;

static MEMO: Mutex<Option<TreeMemo>> = Mutex::new(None);

impl TreeMemo {
    /// The memo for `repo`, emptied when it last listed another
    /// repository or grew past [`MEMO_TREES`]; held until dropped.
    fn of(repo: &gix::Repository) -> MemoGuard {
        let mut guard = MEMO.lock().unwrap_or_else(|e| e.into_inner());
        let stale = guard
            .as_ref()
            .is_none_or(|m| m.git_dir != repo.git_dir() || m.listings.len() > MEMO_TREES);
        if stale {
            *guard = Some(TreeMemo {
                git_dir: repo.git_dir().to_path_buf(),
                listings: HashMap::new(),
                sizes: HashMap::new(),
            });
        }
        MemoGuard(guard)
    }
}

/// The locked memo of [`TreeMemo::of`].
struct MemoGuard(std::sync::MutexGuard<'static, Option<TreeMemo>>);

impl MemoGuard {
    fn memo(&mut self) -> &mut TreeMemo {
        self.0.as_mut().expect("TreeMemo::of fills the memo")
    }

    /// Every entry under tree `id`, its subtrees' entries after each
    /// subtree, paths relative to it.
    fn listing(&mut self, repo: &gix::Repository, id: ObjectId) -> Result<Listing, String> {
        if let Some(known) = self.memo().listings.get(&id) {
            return Ok(known.clone());
        }
        let tree = repo.find_tree(id).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for e in tree.iter() {
            let e = e.map_err(|e| e.to_string())?;
            let (name, mode, oid) = (e.filename().to_owned(), e.mode(), e.oid().to_owned());
            out.push(Entry {
                mode,
                filepath: name.clone(),
                oid,
            });
            if mode.is_tree() {
                for inner in self.listing(repo, oid)?.iter() {
                    let mut path = name.clone();
                    path.push(b'/');
                    path.extend_from_slice(&inner.filepath);
                    out.push(Entry {
                        mode: inner.mode,
                        filepath: path,
                        oid: inner.oid,
                    });
                }
            }
        }
        let listing = Arc::new(out);
        self.memo().listings.insert(id, listing.clone());
        Ok(listing)
    }

    /// The size of blob `id` (0 when it cannot be read).
    fn size(&mut self, repo: &gix::Repository, id: ObjectId) -> u64 {
        *self
            .memo()
            .sizes
            .entry(id)
            .or_insert_with(|| repo.find_header(id).map(|h| h.size()).unwrap_or(0))
    }
}

/// The tree's `.gitignore` files, deepest folder first: a tracked file
/// they match is left out, as the walk of a checkout leaves it out.
struct Ignores(Vec<(String, ignore::gitignore::Gitignore)>);

impl Ignores {
    fn of(repo: &gix::Repository, entries: &[Entry]) -> Ignores {
        let mut out = Vec::new();
        for e in entries.iter().filter(|e| e.mode.is_blob()) {
            let Ok(path) = e.filepath.to_str() else {
                continue;
            };
            let dir = match path.strip_suffix(".gitignore") {
                Some("") => "",
                Some(d) if d.ends_with('/') => &d[..d.len() - 1],
                _ => continue,
            };
            let Ok(blob) = repo.find_object(e.oid) else {
                continue;
            };
            let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
            for line in String::from_utf8_lossy(&blob.data).lines() {
                let _ = b.add_line(None, line);
            }
            if let Ok(g) = b.build() {
                out.push((dir.to_string(), g));
            }
        }
        out.sort_by_key(|(d, _)| {
            std::cmp::Reverse(d.matches('/').count() + usize::from(!d.is_empty()))
        });
        Ignores(out)
    }

    /// Whether the nearest `.gitignore` with a say ignores `path`
    /// (repository-relative).
    fn ignored(&self, path: &str) -> bool {
        for (dir, g) in &self.0 {
            let inside = dir.is_empty()
                || path
                    .strip_prefix(dir.as_str())
                    .is_some_and(|r| r.starts_with('/'));
            if !inside {
                continue;
            }
            match g.matched_path_or_any_parents(path, false) {
                ignore::Match::Ignore(_) => return true,
                ignore::Match::Whitelist(_) => return false,
                ignore::Match::None => {}
            }
        }
        false
    }
}

/// Whether the walk would go into every folder of `rel` and keep the file.
fn chosen(rel: &str, opts: &Options, config: &Config) -> bool {
    let mut dir = String::new();
    let parts: Vec<&str> = rel.split('/').collect();
    let (file, folders) = parts.split_last().expect("split gives one part");
    if file.starts_with('.') {
        return false;
    }
    for name in folders {
        if !dir.is_empty() {
            dir.push('/');
        }
        dir.push_str(name);
        let vendored = crate::walk::VENDOR_DIRS.contains(name);
        let test_data = crate::walk::TEST_DIRS.contains(name);
        if name.starts_with('.')
            || (vendored && !opts.include_vendor)
            || (test_data && !opts.include_tests)
            || config.excludes_dir(&dir)
        {
            return false;
        }
    }
    config.wants(rel)
}

/// The configuration of a commit: `explicit` when given, else the
/// `errdex.toml` its tree holds in the indexed folder.
pub(crate) fn config(
    repo: &gix::Repository,
    at: &At,
    explicit: Option<&Path>,
) -> Result<Config, Error> {
    if let Some(p) = explicit {
        return Config::load(Path::new("/nonexistent"), Some(p)).map_err(Error::Config);
    }
    let path = match at.prefix.as_str() {
        "" => crate::config::FILE_NAME.to_string(),
        p => format!("{p}/{}", crate::config::FILE_NAME),
    };
    let entry = repo
        .find_commit(at.commit)
        .ok()
        .and_then(|c| c.tree().ok())
        .and_then(|t| t.lookup_entry_by_path(&path).ok().flatten());
    let Some(entry) = entry else {
        return Ok(Config::default());
    };
    let text = entry
        .object()
        .map(|o| String::from_utf8_lossy(&o.data).into_owned())
        .map_err(|e| Error::Config(format!("{path} at {}: cannot read it: {e}", at.commit)))?;
    Config::parse(&text).map_err(|e| Error::Config(format!("{path} at {}: {e}", at.commit)))
}

/// The tree as a source of file contents.
pub(crate) fn source(repo: gix::ThreadSafeRepository, blobs: HashMap<String, ObjectId>) -> GitTree {
    GitTree::new(repo, blobs)
}

/// A ref a history run indexes: its short name and commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// `v1.2.0`, `release-3.1`.
    pub name: String,
    /// The commit it points at (a tag peeled to its commit).
    pub commit: String,
    /// The commit's time (seconds since the epoch).
    pub time: i64,
}

/// The tags (`tags`) or refs matching `glob`, oldest first: in version
/// order of their names (`v1.10.0` after `v1.9.3`).
pub fn matching_refs(path: &Path, glob: &str, tags: bool) -> Result<Vec<Version>, Error> {
    let matcher = globset::Glob::new(glob)
        .map_err(|e| Error::BadRef {
            spec: glob.to_string(),
            message: format!("not a glob: {e}"),
        })?
        .compile_matcher();
    let repo = open(path)?.to_thread_local();
    let git_err = |e: &dyn std::fmt::Display| Error::Git {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let platform = repo.references().map_err(|e| git_err(&e))?;
    let iter = if tags {
        platform.tags()
    } else {
        platform.all()
    }
    .map_err(|e| git_err(&e))?;
    let mut out = Vec::new();
    for r in iter {
        let mut r = r.map_err(|e| git_err(&e))?;
        let full = r.name().as_bstr().to_string();
        let short = r.name().shorten().to_string();
        if !matcher.is_match(&short) && !matcher.is_match(&full) {
            continue;
        }
        let Ok(commit) = r.peel_to_commit() else {
            continue; // a tag of a tree or a blob
        };
        let time = commit.time().map(|t| t.seconds).unwrap_or(0);
        out.push(Version {
            name: short,
            commit: commit.id.to_string(),
            time,
        });
    }
    // Release order is version order (a 1.9.4 backport tagged after 2.0.0
    // still comes before it); commit time orders names that are equal as
    // versions.
    out.sort_by(|a, b| version_order(&a.name, &b.name).then_with(|| a.time.cmp(&b.time)));
    out.dedup_by(|a, b| a.name == b.name);
    Ok(out)
}

/// Each of `specs` as a version, in the order given.
pub fn named_versions(path: &Path, specs: &[String]) -> Result<Vec<Version>, Error> {
    let repo = open(path)?.to_thread_local();
    specs
        .iter()
        .map(|spec| {
            let id = resolve(&repo, spec)?;
            let time = repo
                .find_commit(id)
                .ok()
                .and_then(|c| c.time().ok())
                .map_or(0, |t| t.seconds);
            Ok(Version {
                name: spec.clone(),
                commit: id.to_string(),
                time,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walks_rules_choose_the_trees_files() {
        let opts = Options::new("/x", "t");
        let config = Config::default();
        assert!(chosen("pkg/a.go", &opts, &config));
        assert!(!chosen("vendor/x/a.go", &opts, &config));
        assert!(!chosen("pkg/testdata/a.go", &opts, &config));
        assert!(!chosen(".github/a.py", &opts, &config));
        assert!(!chosen("pkg/.hidden.go", &opts, &config));
        let mut with_vendor = opts.clone();
        with_vendor.include_vendor = true;
        assert!(chosen("vendor/x/a.go", &with_vendor, &config));
    }
}
