//! Repositories named by URL: cloned bare into a cache folder the first
//! time, fetched on later runs, shallowly (the tip only) unless history is
//! asked for. Everything goes through gix: `file://` and `ssh://` speak to
//! the remote's `git-upload-pack`, `https://` to its smart HTTP server.

use crate::Error;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Branches and tags as the remote has them: the cache mirrors it.
const REFSPECS: [&str; 2] = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];

/// Whether `s` names a remote repository rather than a path.
pub fn is_url(s: &str) -> bool {
    ["https://", "http://", "ssh://", "git://", "file://"]
        .iter()
        .any(|p| s.starts_with(p))
        || scp_like(s)
}

/// `git@host:owner/name.git`.
fn scp_like(s: &str) -> bool {
    match s.split_once(':') {
        Some((authority, rest)) => {
            authority.contains('@') && !authority.contains('/') && !rest.starts_with("//")
        }
        None => false,
    }
}

/// The cache folder of `url` under `cache_dir`: `repos/HOST/PATH.git`,
/// with anything but letters, digits, `-`, `_` and `.` written as `_`.
pub fn cache_path(cache_dir: &Path, url: &str) -> PathBuf {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let mut out = cache_dir.join("repos");
    for part in rest
        .split(['/', ':'])
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
    {
        out.push(crate::safe_name(part, '_'));
    }
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".git").to_string())
        .unwrap_or_else(|| "repo".into());
    out.set_file_name(format!("{name}.git"));
    out
}

/// Clones `url` into its cache folder, or fetches into the clone already
/// there; `history` fetches every commit and tag (deepening a shallow
/// clone), otherwise the tip alone. Returns the bare repository's path.
pub fn fetch(url: &str, cache_dir: &Path, history: bool) -> Result<PathBuf, Error> {
    let dest = cache_path(cache_dir, url);
    let failed = |message: String| Error::Fetch {
        url: url.to_string(),
        message,
    };
    let interrupt = AtomicBool::new(false);
    let depth = |history: bool| {
        if history {
            gix::remote::fetch::Shallow::undo()
        } else {
            gix::remote::fetch::Shallow::DepthAtRemote(NonZeroU32::MIN)
        }
    };
    if dest.join("HEAD").is_file() {
        let repo = gix::open(&dest).map_err(|e| {
            failed(format!(
                "the cached clone at {} is unreadable ({e}); delete it",
                dest.display()
            ))
        })?;
        let shallow = if history && repo.is_shallow().unwrap_or(false) {
            depth(true)
        } else if history {
            gix::remote::fetch::Shallow::NoChange
        } else {
            depth(false)
        };
        let remote = repo
            .find_remote("origin")
            .map_err(|e| failed(e.to_string()))?
            .with_refspecs(REFSPECS, gix::remote::Direction::Fetch)
            .map_err(|e| failed(e.to_string()))?
            .with_fetch_tags(gix::remote::fetch::Tags::All);
        remote
            .connect(gix::remote::Direction::Fetch)
            .map_err(|e| failed(e.to_string()))?
            .prepare_fetch(gix::progress::Discard, Default::default())
            .map_err(|e| failed(e.to_string()))?
            .with_shallow(shallow)
            .receive(gix::progress::Discard, &interrupt)
            .map_err(|e| failed(e.to_string()))?;
        return Ok(dest);
    }
    std::fs::create_dir_all(&dest).map_err(|e| failed(format!("{}: {e}", dest.display())))?;
    let result = gix::prepare_clone_bare(url, &dest)
        .map_err(|e| failed(e.to_string()))
        .and_then(|p| {
            p.with_shallow(depth(history))
                .configure_remote(|r| Ok(r.with_fetch_tags(gix::remote::fetch::Tags::All)))
                .fetch_only(gix::progress::Discard, &interrupt)
                .map_err(|e| failed(e.to_string()))
        });
    if let Err(e) = result {
        // A failed first clone leaves nothing a later run would mistake
        // for a clone.
        let _ = std::fs::remove_dir_all(&dest);
        return Err(e);
    }
    Ok(dest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths_are_told_apart() {
        for url in [
            "https://github.com/etcd-io/etcd",
            "ssh://git@github.com/etcd-io/etcd.git",
            "file:///srv/git/etcd.git",
            "git@github.com:etcd-io/etcd.git",
        ] {
            assert!(is_url(url), "{url}");
        }
        for path in ["/srv/etcd", "etcd", "./a:b", "C:/x"] {
            assert!(!is_url(path), "{path}");
        }
    }

    #[test]
    fn each_url_has_its_own_cache_folder() {
        let dir = Path::new("/c");
        assert_eq!(
            cache_path(dir, "https://github.com/etcd-io/etcd"),
            Path::new("/c/repos/github.com/etcd-io/etcd.git")
        );
        assert_eq!(
            cache_path(dir, "git@github.com:etcd-io/etcd.git"),
            Path::new("/c/repos/github.com/etcd-io/etcd.git")
        );
        assert_eq!(
            cache_path(dir, "file:///srv/../x y/p.git"),
            Path::new("/c/repos/srv/x_y/p.git")
        );
    }
}
