//! What is known about the tree being indexed: its git commit and remote
//! (read in-process with gix), and how to link to a file at that commit.

use std::path::{Path, PathBuf};

/// The repository an index run looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The folder being indexed (canonical).
    pub root: PathBuf,
    /// Path of `root` inside the git work tree (`""` at the top, `sub/dir`
    /// below it), so file paths and links are repository-relative.
    pub prefix: String,
    /// Full HEAD commit id, when the tree is a git work tree with commits.
    pub commit: Option<String>,
    /// The `origin` remote's URL.
    pub remote_url: Option<String>,
    /// Where the repository is hosted, parsed from the remote.
    pub remote: Option<Remote>,
}

/// A hosted repository parsed from a remote URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// `github.com`, `gitlab.com`, …
    pub host: String,
    /// `owner/name` (GitLab subgroups keep their full path).
    pub path: String,
}

impl Snapshot {
    /// Reads commit and remote from the git work tree that contains `root`,
    /// if any. A plain folder gives a snapshot with neither.
    pub fn open(root: &Path) -> std::io::Result<Snapshot> {
        let root = root.canonicalize()?;
        let mut snap = Snapshot {
            root: root.clone(),
            prefix: String::new(),
            commit: None,
            remote_url: None,
            remote: None,
        };
        let Ok(repo) = gix::discover(&root) else {
            return Ok(snap);
        };
        if let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) {
            if let Ok(rel) = root.strip_prefix(&workdir) {
                snap.prefix = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
            }
        }
        snap.commit = repo.head_id().ok().map(|id| id.detach().to_string());
        snap.read_remote(&repo);
        Ok(snap)
    }

    /// The snapshot of `commit` read from git objects, the folder `prefix`
    /// of its tree indexed.
    pub(crate) fn of_commit(
        root: &Path,
        repo: &gix::Repository,
        commit: gix::ObjectId,
        prefix: &str,
    ) -> Snapshot {
        let mut snap = Snapshot {
            root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()),
            prefix: prefix.to_string(),
            commit: Some(commit.to_string()),
            remote_url: None,
            remote: None,
        };
        snap.read_remote(repo);
        snap
    }

    fn read_remote(&mut self, repo: &gix::Repository) {
        if let Ok(remote) = repo.find_remote("origin") {
            if let Some(url) = remote.url(gix::remote::Direction::Fetch) {
                let url = url.to_bstring().to_string();
                self.remote = parse_remote(&url);
                self.remote_url = Some(url);
            }
        }
    }

    /// The repository-relative path of a path relative to `root`.
    pub fn repo_path(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.prefix)
        }
    }
}

/// Parses `https://host/owner/name(.git)`, `git@host:owner/name.git`,
/// `ssh://git@host[:port]/owner/name.git` and `git://host/owner/name`.
pub fn parse_remote(url: &str) -> Option<Remote> {
    let url = url.trim();
    let (host, path) = if let Some((scheme, rest)) = url.split_once("://") {
        if !matches!(scheme, "https" | "http" | "ssh" | "git" | "git+ssh") {
            return None;
        }
        let (authority, path) = rest.split_once('/')?;
        let host = authority.rsplit('@').next()?;
        let host = host.split(':').next()?;
        (host.to_string(), path.to_string())
    } else {
        // scp-like: user@host:owner/name.git
        let (authority, path) = url.split_once(':')?;
        if authority.contains('/') {
            return None;
        }
        let host = authority.rsplit('@').next()?;
        (host.to_string(), path.to_string())
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    if host.is_empty() || path.split('/').filter(|s| !s.is_empty()).count() < 2 {
        return None;
    }
    Some(Remote {
        host: host.to_ascii_lowercase(),
        path: path.to_string(),
    })
}

/// A link to lines `start..=end` of `path` at `commit`, in the host's own
/// form: GitHub (`/blob/SHA/path#L1-L9`), GitLab (`/-/blob/SHA/path#L1-9`),
/// Bitbucket (`/src/SHA/path#lines-1:9`), Gitea and Codeberg
/// (`/src/commit/SHA/path#L1-L9`). Unknown hosts get no link.
pub fn blob_url(remote: &Remote, commit: &str, path: &str, start: u32, end: u32) -> Option<String> {
    let base = format!("https://{}/{}", remote.host, remote.path);
    let h = remote.host.as_str();
    let url = if h == "github.com" || h.starts_with("github.") {
        format!("{base}/blob/{commit}/{path}#L{start}-L{end}")
    } else if h == "gitlab.com" || h.starts_with("gitlab.") {
        format!("{base}/-/blob/{commit}/{path}#L{start}-{end}")
    } else if h == "bitbucket.org" {
        format!("{base}/src/{commit}/{path}#lines-{start}:{end}")
    } else if h == "codeberg.org" || h.starts_with("gitea.") {
        format!("{base}/src/commit/{commit}/{path}#L{start}-L{end}")
    } else {
        return None;
    };
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(host: &str, path: &str) -> Option<Remote> {
        Some(Remote {
            host: host.into(),
            path: path.into(),
        })
    }

    #[test]
    fn parses_github_remotes_in_every_form() {
        let want = remote("github.com", "kubernetes/kops");
        for url in [
            "https://github.com/kubernetes/kops",
            "https://github.com/kubernetes/kops.git",
            "https://user:token@github.com/kubernetes/kops.git/",
            "git@github.com:kubernetes/kops.git",
            "ssh://git@github.com/kubernetes/kops.git",
            "ssh://git@github.com:22/kubernetes/kops",
            "git://github.com/kubernetes/kops",
        ] {
            assert_eq!(parse_remote(url), want, "{url}");
        }
    }

    #[test]
    fn gitlab_subgroups_keep_their_path() {
        assert_eq!(
            parse_remote("git@gitlab.com:group/sub/project.git"),
            remote("gitlab.com", "group/sub/project")
        );
    }

    #[test]
    fn local_paths_are_not_remotes() {
        assert_eq!(parse_remote("/srv/git/project.git"), None);
        assert_eq!(parse_remote("file:///srv/git/project.git"), None);
        assert_eq!(parse_remote("../other"), None);
    }

    #[test]
    fn links_in_each_hosts_form() {
        let sha = "4c8573c808a73d578c5eadc86d410646ea0b0d73";
        let gh = parse_remote("git@github.com:kubernetes/kops.git").unwrap();
        assert_eq!(
            blob_url(&gh, sha, "channels/pkg/cmd/apply_channel.go", 112, 148).unwrap(),
            "https://github.com/kubernetes/kops/blob/4c8573c808a73d578c5eadc86d410646ea0b0d73/channels/pkg/cmd/apply_channel.go#L112-L148"
        );
        let gl = parse_remote("https://gitlab.com/g/p.git").unwrap();
        assert_eq!(
            blob_url(&gl, sha, "a.go", 1, 9).unwrap(),
            format!("https://gitlab.com/g/p/-/blob/{sha}/a.go#L1-9")
        );
        let other = parse_remote("https://git.example.org/g/p.git").unwrap();
        assert_eq!(blob_url(&other, sha, "a.go", 1, 9), None);
    }
}
