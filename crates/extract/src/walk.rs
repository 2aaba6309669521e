//! Finding the files to index: a parallel walk that respects `.gitignore`,
//! skips vendored, generated-test and out-of-tree content, and never follows
//! a symlink out of the root or round a loop.

use crate::config::Config;
use crate::{Options, Warning};
use errdex_lang::{language_for_path, LanguageSupport};
use ignore::{WalkBuilder, WalkState};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// Folders skipped unless asked for: other people's code and test data.
pub const VENDOR_DIRS: &[&str] = &["vendor", "third_party", "node_modules"];
/// Test-data folders, skipped unless tests are included.
pub const TEST_DIRS: &[&str] = &["testdata"];

/// A file chosen for extraction.
pub struct Candidate {
    /// Path relative to the indexed root, `/`-separated.
    pub rel: String,
    /// The language that claims it.
    pub lang: &'static dyn LanguageSupport,
    /// Size in bytes when walked.
    pub size: u64,
    /// Its git blob id: known from the tree when read from git objects,
    /// from the bytes once read from disk.
    pub blob: OnceLock<gix::ObjectId>,
    /// The blob id of its text with Unix line ends, where that differs
    /// from [`Candidate::blob`] and a run computed it: what the file
    /// yields is cached under it.
    pub unix_blob: OnceLock<gix::ObjectId>,
    /// The names its text holds, once parsed (Go): the cause graph asks
    /// them before reading the file.
    pub names: OnceLock<errdex_lang::names::NameFilter>,
}

impl Candidate {
    /// The id answers about this file's text are cached under: its text
    /// with Unix line ends, where that is known, else its blob.
    pub fn content_id(&self) -> Option<&gix::ObjectId> {
        self.unix_blob.get().or_else(|| self.blob.get())
    }
}

/// What the walk found.
pub struct Walked {
    /// Files to extract, in path order.
    pub files: Vec<Candidate>,
    /// Files in a supported language that were skipped.
    pub skipped: u64,
    /// Why files or folders were skipped or unreadable.
    pub warnings: Vec<Warning>,
}

/// Walks `root` in parallel.
pub fn walk(root: &Path, opts: &Options, config: &Config) -> Walked {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        // Honour .gitignore in plain folders too (a copied tree, a tarball).
        .require_git(false)
        .follow_links(false)
        .threads(opts.threads);
    let include_vendor = opts.include_vendor;
    let include_tests = opts.include_tests;
    let excluded = config.clone();
    let dir_root = root.to_path_buf();
    builder.filter_entry(move |e| {
        if !e.file_type().is_some_and(|t| t.is_dir()) || e.depth() == 0 {
            return true;
        }
        if excluded.excludes_dir(&relative(&dir_root, e.path())) {
            return false;
        }
        let name = e.file_name().to_string_lossy();
        let vendored = VENDOR_DIRS.contains(&name.as_ref());
        let test_data = TEST_DIRS.contains(&name.as_ref());
        (include_vendor || !vendored) && (include_tests || !test_data)
    });
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let found = Mutex::new(Vec::new());
    let warnings = Mutex::new(Vec::new());
    let skipped = Mutex::new(0u64);
    builder.build_parallel().run(|| {
        let found = &found;
        let warnings = &warnings;
        let skipped = &skipped;
        let canonical_root = &canonical_root;
        Box::new(move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    warnings.lock().unwrap().push(Warning {
                        path: err_path(&err),
                        message: err.to_string(),
                    });
                    return WalkState::Continue;
                }
            };
            let Some(ft) = entry.file_type() else {
                return WalkState::Continue;
            };
            if ft.is_dir() {
                return WalkState::Continue;
            }
            let abs = entry.path().to_path_buf();
            let rel = relative(root, &abs);
            let Some(lang) = language_for_path(&rel) else {
                return WalkState::Continue;
            };
            if !config.wants(&rel) {
                return WalkState::Continue;
            }
            if !include_tests && lang.is_test_path(&rel) {
                return WalkState::Continue;
            }
            let warn = |message: String| {
                warnings.lock().unwrap().push(Warning {
                    path: rel.clone(),
                    message,
                });
                *skipped.lock().unwrap() += 1;
            };
            if !ft.is_file() && !ft.is_symlink() {
                warn("not a regular file (a FIFO, socket or device); skipped".into());
                return WalkState::Continue;
            }
            if ft.is_symlink() {
                match abs.canonicalize() {
                    Ok(target) if !target.starts_with(canonical_root) => {
                        warn("symlink leaves the indexed folder; skipped".into());
                        return WalkState::Continue;
                    }
                    Ok(target) if target.is_dir() => return WalkState::Continue,
                    Ok(target) if !target.is_file() => {
                        warn("symlink to something that is not a regular file; skipped".into());
                        return WalkState::Continue;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        warn(format!("broken or looping symlink ({e}); skipped"));
                        return WalkState::Continue;
                    }
                }
            }
            let size = match std::fs::metadata(&abs) {
                Ok(m) if m.len() > opts.max_file_size => {
                    warn(too_large(m.len(), opts.max_file_size));
                    return WalkState::Continue;
                }
                Ok(m) => m.len(),
                Err(e) => {
                    warn(format!("cannot read: {e}"));
                    return WalkState::Continue;
                }
            };
            found.lock().unwrap().push(Candidate {
                rel,
                lang,
                size,
                blob: OnceLock::new(),
                unix_blob: OnceLock::new(),
                names: OnceLock::new(),
            });
            WalkState::Continue
        })
    });
    let mut files = found.into_inner().unwrap();
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    let mut warnings = warnings.into_inner().unwrap();
    warnings.sort_by(|a, b| a.path.cmp(&b.path));
    Walked {
        files,
        skipped: skipped.into_inner().unwrap(),
        warnings,
    }
}

/// Why a file over `--max-file-size` is skipped.
pub(crate) fn too_large(size: u64, limit: u64) -> String {
    format!(
        "{:.1} MB is over the size limit of {:.1} MB (--max-file-size); skipped",
        size as f64 / 1e6,
        limit as f64 / 1e6
    )
}

fn relative(root: &Path, abs: &Path) -> String {
    slashed(abs.strip_prefix(root).unwrap_or(abs))
}

/// A relative path written with `/`.
pub(crate) fn slashed(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn err_path(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { path, .. } => path.display().to_string(),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            err_path(err)
        }
        ignore::Error::Loop { child, .. } => child.display().to_string(),
        _ => String::new(),
    }
}
