//! Blob ids of a work tree's files read from git's index instead of
//! hashed: a file whose stat is the one the index recorded for it is the
//! content that was staged, as `git status` assumes, so a re-index finds
//! its cached facts by the index's id without reading the file.
//!
//! The index is trusted only where git trusts it: a stage-0 entry of a
//! regular file, not marked assume-valid, skip-worktree or intent-to-add,
//! whose stat matches and is not racy (written in the same instant as the
//! index, so a later change could leave the stat unchanged). And only
//! where the staged blob is the file's text: no attributes file may name
//! a filter (git-lfs), `ident` or `working-tree-encoding`, which make the
//! blob differ from what is on disk. Line-end conversion is harmless:
//! files are read with Unix line ends anyway.

use crate::snapshot::Snapshot;
use crate::walk::Candidate;
use gix::bstr::{BStr, ByteSlice};
use gix::index::entry::{stat, Flags, Mode, Stat};
use rayon::prelude::*;

/// The index of the work tree `snap` looks at, when its ids can stand for
/// the files' contents.
pub(crate) struct StagedIds {
    index: gix::index::File,
    options: stat::Options,
    /// `snap.prefix` with a trailing `/`, or empty.
    prefix: String,
}

/// Attribute words that make a staged blob differ from the file on disk.
const CONTENT_CHANGING: [&str; 3] = ["filter", "ident", "working-tree-encoding"];

impl StagedIds {
    /// The index of the repository whose work tree holds `snap.root`;
    /// `None` outside a work tree, or where attributes may make a staged
    /// blob differ from its file.
    pub(crate) fn open(snap: &Snapshot) -> Option<StagedIds> {
        snap.commit.as_ref()?;
        let repo = gix::discover(&snap.root).ok()?;
        let workdir = repo.workdir()?.to_path_buf();
        if repo
            .config_snapshot()
            .string("core.attributesFile")
            .is_some()
        {
            return None;
        }
        let index = repo.open_index().ok()?;
        let attribute_files = index
            .entries()
            .iter()
            .map(|e| e.path(&index))
            .filter(|p| p.ends_with(b".gitattributes"))
            .map(|p| workdir.join(p.to_path_lossy()))
            .chain([repo.git_dir().join("info").join("attributes")]);
        for file in attribute_files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            if CONTENT_CHANGING.iter().any(|w| text.contains(w)) {
                return None;
            }
        }
        Some(StagedIds {
            index,
            options: stat::Options::default(),
            prefix: match snap.prefix.as_str() {
                "" => String::new(),
                p => format!("{p}/"),
            },
        })
    }

    /// Sets the blob id of each of `files` (under `root`) whose stat the
    /// index vouches for; returns how many.
    pub(crate) fn fill(&self, root: &std::path::Path, files: &[Candidate]) -> usize {
        files
            .par_iter()
            .filter(|c| {
                self.staged_id(root, c)
                    .is_some_and(|id| c.blob.set(id).is_ok())
            })
            .count()
    }

    fn staged_id(&self, root: &std::path::Path, c: &Candidate) -> Option<gix::ObjectId> {
        let path = format!("{}{}", self.prefix, c.rel);
        let entry = self.index.entry_by_path(BStr::new(path.as_bytes()))?;
        let untrusted = Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD;
        if entry.stage_raw() != 0
            || entry.flags.intersects(untrusted)
            || !matches!(entry.mode, Mode::FILE | Mode::FILE_EXECUTABLE)
            || entry.stat.is_racy(self.index.timestamp(), self.options)
        {
            return None;
        }
        let meta = gix::index::fs::Metadata::from_path_no_follow(&root.join(&c.rel)).ok()?;
        let on_disk = Stat::from_fs(&meta).ok()?;
        (meta.is_file() && entry.stat.matches(&on_disk, self.options)).then_some(entry.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::blob_id;
    use crate::{config::Config, walk, Options};
    use std::path::Path;
    use std::time::{Duration, SystemTime};

    fn git(dir: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git is installed");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// A work tree whose `files` were written a minute ago (so that no
    /// entry is racy) and committed.
    fn committed(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let then = SystemTime::now() - Duration::from_secs(60);
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::write(&p, text).unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(then).unwrap();
        }
        git(dir.path(), &["init", "-q"]);
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-qm", "c"]);
        dir
    }

    /// Each walked file with the id the index vouched for.
    fn staged(root: &Path) -> Option<Vec<(String, Option<gix::ObjectId>)>> {
        let snap = Snapshot::open(root).unwrap();
        let ids = StagedIds::open(&snap)?;
        let walked = walk::walk(&snap.root, &Options::new(root, "t"), &Config::default());
        ids.fill(&snap.root, &walked.files);
        Some(
            walked
                .files
                .into_iter()
                .map(|c| (c.rel, c.blob.get().copied()))
                .collect(),
        )
    }

    const A: &str = "package p\n\nfunc a() error { return errors.New(\"a failed\") }\n";
    const B: &str = "package p\n\nfunc b() error { return errors.New(\"b failed\") }\n";

    #[test]
    fn an_unchanged_file_takes_the_index_id_and_a_changed_or_new_one_none() {
        let dir = committed(&[("a.go", A), ("b.go", B)]);
        std::fs::write(dir.path().join("b.go"), B.replace("b failed", "b broke!")).unwrap();
        std::fs::write(dir.path().join("c.go"), A).unwrap();
        let got = staged(dir.path()).expect("a plain work tree's index is used");
        assert_eq!(
            got,
            [
                ("a.go".to_string(), Some(blob_id(A.as_bytes()))),
                ("b.go".to_string(), None),
                ("c.go".to_string(), None),
            ]
        );
    }

    #[test]
    fn a_file_changed_at_once_after_its_commit_never_takes_the_old_id() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.go"), B).unwrap();
        git(dir.path(), &["init", "-q"]);
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-qm", "c"]);
        // Same size, same second: only the racy check tells it changed.
        let changed = B.replace("b failed", "b FAILED");
        std::fs::write(dir.path().join("b.go"), &changed).unwrap();
        let got = staged(dir.path()).unwrap();
        assert_ne!(got[0].1, Some(blob_id(B.as_bytes())), "{got:?}");
    }

    #[test]
    fn attributes_that_change_content_turn_it_off() {
        for attributes in ["*.go filter=lfs diff=lfs merge=lfs -text\n", "*.go ident\n"] {
            let dir = committed(&[("a.go", A), (".gitattributes", attributes)]);
            assert!(staged(dir.path()).is_none(), "{attributes}");
        }
        let plain = committed(&[("a.go", A), (".gitattributes", "*.go text eol=lf\n")]);
        assert!(staged(plain.path()).is_some());
    }

    #[test]
    fn a_folder_outside_git_has_no_index() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.go"), A).unwrap();
        assert!(staged(dir.path()).is_none());
    }
}
