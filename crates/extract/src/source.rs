//! Where a run reads its files: a folder on disk (a work tree with its
//! uncommitted changes, a plain folder) or one commit's tree read straight
//! from git objects (a bare repository, a ref of any repository), with no
//! checkout.

use gix::ObjectId;
use std::collections::HashMap;
use std::io;
use std::path::PathBuf;
use thread_local::ThreadLocal;

/// The files of one run, by path relative to the indexed root.
pub(crate) enum Source {
    /// Files on disk under this folder.
    Dir(PathBuf),
    /// Blobs of one commit's tree.
    Git(Box<GitTree>),
}

/// One commit's tree: its blobs by path, read from any thread.
pub(crate) struct GitTree {
    repo: gix::ThreadSafeRepository,
    local: ThreadLocal<gix::Repository>,
    blobs: HashMap<String, ObjectId>,
}

impl GitTree {
    /// The tree whose blobs are `blobs` (path → id), in `repo`.
    pub(crate) fn new(repo: gix::ThreadSafeRepository, blobs: HashMap<String, ObjectId>) -> Self {
        GitTree {
            repo,
            local: ThreadLocal::new(),
            blobs,
        }
    }

    fn repo(&self) -> &gix::Repository {
        self.local.get_or(|| {
            let mut r = self.repo.to_thread_local();
            // Source blobs are read once each; the pack's delta cache, not
            // an object cache, is what saves work.
            r.object_cache_size(0);
            r
        })
    }

    /// The blob at `rel`, if the tree has one there.
    pub(crate) fn blob_id(&self, rel: &str) -> Option<ObjectId> {
        self.blobs.get(rel).copied()
    }
}

impl Source {
    /// The bytes of the file at `rel` (`/`-separated, relative to the root).
    pub(crate) fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
        match self {
            Source::Dir(root) => std::fs::read(root.join(rel)),
            Source::Git(tree) => {
                let id = tree.blob_id(rel).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::NotFound, "not in the commit's tree")
                })?;
                let blob = tree
                    .repo()
                    .find_object(id)
                    .map_err(|e| io::Error::other(e.to_string()))?;
                Ok(blob.detach().data)
            }
        }
    }

    /// The file at `rel` as text (invalid UTF-8 replaced), or empty.
    pub(crate) fn text(&self, rel: &str) -> String {
        match self.read(rel) {
            Ok(b) => String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            Err(_) => String::new(),
        }
    }
}
