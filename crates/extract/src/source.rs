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
    /// The bytes of the file at `rel` (`/`-separated, relative to the
    /// root), with Windows line ends read as `\n`: every language errdex
    /// reads takes `\r\n` in source for a line end (Python's and Go's raw
    /// strings and JavaScript's templates hold `\n`), so what a file yields
    /// does not depend on how it was checked out.
    pub(crate) fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
        self.read_as_stored(rel).map(unix_line_ends)
    }

    fn read_as_stored(&self, rel: &str) -> io::Result<Vec<u8>> {
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

/// `\r\n` as `\n`; every other byte, a lone `\r` too, as it is.
pub(crate) fn unix_line_ends(bytes: Vec<u8>) -> Vec<u8> {
    if memchr::memmem::find(&bytes, b"\r\n").is_none() {
        return bytes;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = &bytes[..];
    while let Some(at) = memchr::memmem::find(rest, b"\r\n") {
        out.extend_from_slice(&rest[..at]);
        out.push(b'\n');
        rest = &rest[at + 2..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::unix_line_ends;

    #[test]
    fn windows_line_ends_read_as_unix_ones_and_lone_returns_stay() {
        assert_eq!(unix_line_ends(b"a\r\nb\r\n".to_vec()), b"a\nb\n");
        assert_eq!(unix_line_ends(b"meter\r50%\n".to_vec()), b"meter\r50%\n");
        assert_eq!(unix_line_ends(b"x\r\r\ny".to_vec()), b"x\r\ny");
        assert_eq!(unix_line_ends(Vec::new()), b"");
    }
}
