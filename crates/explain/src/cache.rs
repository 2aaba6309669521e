//! An [`Explainer`] kept on disk between runs.
//!
//! Building one for a large atlas (every record read and parsed, every
//! site's pattern parsed into a template, the set compiled) takes longer
//! than explaining a million log lines' worth of work would allow; reading
//! it back from a file takes a few milliseconds. The file sits next to the
//! database and says which database contents and which `errdex` build it
//! was made from: any other contents or build rebuild it, so it is never
//! stale. It is a cache: deleting it costs one rebuild.
//!
//! Layout: a magic line, the key (format, build, dataset version, repo
//! filter), a checksum of the rest, then the explainer in the
//! [`codec`](errdex_match::codec) form. The file is mapped, not read: the
//! records' text stays in it (see `records`), and only the template set is
//! decoded into memory.

use crate::records::{offset_in, Backing, Records};
use crate::{Explainer, Result};
use errdex_match::codec::{checksum, Decoder, Encoder};
use errdex_match::TemplateSet;
use errdex_store::Store;
use std::path::{Path, PathBuf};

const MAGIC: &[u8] = b"errdex trace cache\n";
/// Bumped whenever the layout below changes.
const FORMAT: u32 = 16;

/// The cache file of the database at `db`: beside it, named after it.
pub fn path_for(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".trace-cache");
    PathBuf::from(name)
}

/// The explainer for the store's records (of `repo` only, if given): read
/// from `cache` when that file was made from these contents by this build,
/// else built and, best effort, written there. A cache that cannot be read
/// or written only costs time, never an answer.
pub fn load(store: &dyn Store, repo: Option<&str>, cache: Option<&Path>) -> Result<Explainer> {
    let key = match cache {
        Some(_) => cache_key(store, repo)?,
        None => None,
    };
    if let (Some(path), Some(key)) = (cache, &key) {
        if let Some(ex) = open(path).and_then(|b| read(b, key)) {
            return Ok(ex);
        }
    }
    let ex = Explainer::new(store.trace_rows(repo)?).with_raises(store.dynamic_sites(repo)?);
    if let (Some(path), Some(key)) = (cache, &key) {
        if ex.records() > 0 {
            write(path, key, &ex);
        }
    }
    Ok(ex)
}

/// The explainer for the records version `version` prints (records of
/// repositories indexed without history are all kept), built afresh:
/// `explain --at`.
pub fn load_at(store: &dyn Store, repo: Option<&str>, version: &str) -> Result<Explainer> {
    let rows = store
        .trace_rows(repo)?
        .into_iter()
        .filter(|r| r.presence.as_ref().is_none_or(|p| p.includes(version)))
        .collect();
    Ok(Explainer::new(rows))
}

/// What the cache must have been made from; `None` when that cannot be
/// told (no dataset yet, or this program's file unreadable), and then no
/// cache is used.
fn cache_key(store: &dyn Store, repo: Option<&str>) -> Result<Option<String>> {
    let Some(version) = store.dataset_version()? else {
        return Ok(None);
    };
    Ok(build_id().map(|build| format!("{FORMAT} {build} {version} {}", repo.unwrap_or("*"))))
}

/// This build of the program: its file's size and modification time, so
/// that a rebuilt `errdex` (whose templates may parse differently) never
/// reads an older one's cache.
fn build_id() -> Option<String> {
    let meta = std::env::current_exe().ok()?.metadata().ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{}-{}-{}.{:09}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    ))
}

/// The cache file's bytes: mapped, so that its pages are the page cache's
/// and not fresh memory to fill (on these machines, a fresh page costs more
/// than reading it), else read.
fn open(path: &Path) -> Option<Backing> {
    let file = std::fs::File::open(path).ok()?;
    // SAFETY: a mapping is undefined behaviour if the file changes while
    // mapped. errdex never changes a cache file in place: it writes a new
    // one beside it and renames it over (see `write`), which leaves the
    // mapped file as it was. Only someone writing into the file by hand
    // while a run reads it could break this.
    #[allow(unsafe_code)]
    let mapped = unsafe { memmap2::Mmap::map(&file) };
    match mapped {
        Ok(m) => Some(Backing::Mapped(m)),
        Err(_) => std::fs::read(path).ok().map(Backing::Owned),
    }
}

fn read(backing: Backing, key: &str) -> Option<Explainer> {
    let file = backing.bytes();
    let mut d = Decoder::new(file.strip_prefix(MAGIC)?);
    if d.str()? != key {
        return None;
    }
    let sum = d.u64()?;
    let body = d.bytes()?;
    if !d.is_empty() || checksum(body) != sum {
        return None;
    }
    let start = offset_in(file, body);
    let range = (start, start + body.len());
    Explainer::decode_from(backing, range)
}

/// Writes the cache beside the database, through a temporary file renamed
/// into place, so a reader never sees half a file. Failure (a read-only
/// folder, a full disk) leaves no file and is not an error: the next run
/// builds again.
fn write(path: &Path, key: &str, ex: &Explainer) {
    let body = ex.encode();
    let mut head = Encoder::new();
    head.str(key);
    head.u64(checksum(&body));
    head.usize(body.len());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        use std::io::Write;
        f.write_all(MAGIC)?;
        f.write_all(&head.finish())?;
        f.write_all(&body)
    });
    if written.is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

impl Explainer {
    /// The explainer as bytes, for [`Explainer::decode`].
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::new();
        self.records.encode(&mut e);
        self.set.encode(&mut e);
        self.raises.encode(&mut e);
        e.finish()
    }

    /// Reads what [`Explainer::encode`] wrote; `None` for anything else,
    /// including bytes whose indices would lead outside the explainer.
    pub fn decode(bytes: &[u8]) -> Option<Explainer> {
        Explainer::decode_from(Backing::Owned(bytes.to_vec()), (0, bytes.len()))
    }

    /// [`Explainer::decode`] of `backing`'s bytes `[start, end)`, which the
    /// explainer keeps: its records' text is not copied out of them.
    fn decode_from(backing: Backing, (start, end): (usize, usize)) -> Option<Explainer> {
        let file = backing.bytes();
        let mut d = Decoder::new(file.get(start..end)?);
        let raw = Records::read(&mut d, file)?;
        let set = TemplateSet::decode(&mut d)?;
        let raises = crate::raised::Raises::decode(&mut d)?;
        if !d.is_empty() {
            return None;
        }
        let records = Records::assemble(backing, raw)?;
        let payloads_ok = set
            .max_payload()
            .is_none_or(|p| (p as usize) < records.sites());
        payloads_ok.then(|| Explainer::assemble(records, set, raises))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::Lang;
    use errdex_store::{TraceRow, TraceSite};

    fn rows() -> Vec<TraceRow> {
        let site = |file: &str, line: u32, args: &[&str]| TraceSite {
            file_path: file.into(),
            line_number: line,
            function: Some("run".into()),
            callee: "fmt.Errorf".into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            github_url: Some(format!("https://github.com/o/r/blob/abc/{file}#L{line}")),
            guards: Vec::new(),
            fills: None,
            fields: Vec::new(),
            closed_holes: Vec::new(),
        };
        vec![
            TraceRow {
                id: "a".into(),
                repo: "o/r".into(),
                slug: "serving-readiness-probe-w".into(),
                message_pattern: "serving readiness probe: %w".into(),
                language: Lang::Go,
                documentation: Some("The probe port is taken.".into()),
                sites: vec![site("cmd/apply.go", 130, &["err"])],
                presence: None,
            },
            TraceRow {
                id: "b".into(),
                repo: "o/r".into(),
                slug: "stop-requested".into(),
                message_pattern: "stop requested".into(),
                language: Lang::Go,
                documentation: None,
                sites: vec![site("dns/c.go", 265, &[]), site("dns/c.go", 306, &[])],
                presence: None,
            },
        ]
    }

    #[test]
    fn an_explainer_read_back_explains_as_the_one_written() {
        let ex = Explainer::new(rows());
        let bytes = ex.encode();
        let back = Explainer::decode(&bytes).expect("reads back");
        assert_eq!(back.encode(), bytes);
        for line in [
            "E1129 12:00:03.1 1 c.go:306] stop requested",
            "serving readiness probe: listen tcp :80: bind: address already in use",
            "stop requested",
            "unknown text",
        ] {
            let (a, b) = (ex.explain(line), back.explain(line));
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(&b).unwrap()
            );
        }
    }

    #[test]
    fn a_cut_explainer_does_not_read_back() {
        let bytes = Explainer::new(rows()).encode();
        for cut in 0..bytes.len() {
            assert!(Explainer::decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn a_cache_file_answers_only_to_its_own_key_and_intact() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(&dir.path().join("atlas.db"));
        assert!(path.ends_with("atlas.db.trace-cache"));
        let ex = Explainer::new(rows());
        write(&path, "key 1", &ex);
        // Mapped, as `load` reads it, and read into memory.
        let mapped = read(open(&path).unwrap(), "key 1").expect("reads back mapped");
        assert_eq!(mapped.encode(), ex.encode());
        let file = std::fs::read(&path).unwrap();
        assert!(read(Backing::Owned(file.clone()), "key 1").is_some());
        assert!(read(Backing::Owned(file.clone()), "key 2").is_none());
        let mut damaged = file.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(read(Backing::Owned(damaged), "key 1").is_none());
        // Nothing left behind but the file itself.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
