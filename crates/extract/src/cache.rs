//! What reading a file found, kept by the file's content: a later run (a
//! new commit, another release, the same blob under a vendored copy's
//! path) takes a blob it has seen from here instead of parsing it again.
//!
//! Keys are hashes of the build of errdex (its executable's size and
//! time: a rebuilt errdex never reads an older build's answers), the
//! options that change extraction, the kind of answer, the file's path
//! (sites carry it) and its git blob id. Values are JSON. The file is a
//! SQLite database in the cache folder, shared by concurrent runs (WAL).
//!
//! Each row names the build that wrote it. A build's answers are never
//! read by another, so the file keeps only the [`BUILDS_KEPT`] builds used
//! last: an upgrade or a rebuild would otherwise add a full copy of every
//! answer each time, and the file would only grow.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{de::DeserializeOwned, Serialize};
use sha2::{Digest, Sha256};
use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How long a run waits for another that writes the file.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// How many builds of errdex keep their answers in the file.
const BUILDS_KEPT: usize = 3;

/// The layout of the file (`PRAGMA user_version`); a file of another
/// layout starts empty.
const LAYOUT: i64 = 4;

/// The file's page size. Answers are a few KiB each, and one larger than a
/// page spills into overflow pages, which SQLite copies together on every
/// read. With 64 KiB pages nearly every answer is read where the mapped
/// page holds it.
const PAGE_SIZE: i64 = 65536;

/// An answer already decoded (or computed) in this process.
type Memo = Arc<dyn Any + Send + Sync>;

/// The cache of one run: reads go to the file, writes wait for
/// [`FactsCache::flush`] and land in one transaction.
pub(crate) struct FactsCache {
    path: std::path::PathBuf,
    /// The connection that writes, at [`FactsCache::flush`].
    conn: Mutex<Connection>,
    /// One reading connection per thread: lookups of a run's threads do
    /// not wait for each other (WAL lets readers run side by side). Each
    /// reads in one transaction until [`FactsCache::flush`]: a lookup in a
    /// transaction of its own took a shared-memory lock and checked the
    /// log, which cost as much as the lookup.
    readers: thread_local::ThreadLocal<Mutex<Option<Connection>>>,
    fresh: Mutex<Vec<([u8; 32], Vec<u8>)>>,
    /// Answers decoded or computed in this process, when remembering: the
    /// versions of a history run share most blobs, and each is decoded
    /// once. Off for a run of one commit, which asks for each answer once.
    memo: Option<Mutex<HashMap<[u8; 32], Memo>>>,
    fingerprint: String,
    /// This build's number in the `builds` table.
    build: i64,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// What one run took from the cache and added to it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Answers read from the cache.
    pub hits: u64,
    /// Answers computed (and then stored).
    pub misses: u64,
}

impl FactsCache {
    /// Opens (creating) the cache at `path` for runs with `options`
    /// (a description of every option that changes what a file yields).
    pub(crate) fn open(path: &Path, options: &str) -> Result<FactsCache, String> {
        Self::open_as(path, options, build_id())
    }

    /// [`FactsCache::open`] for the build named `build_name`.
    fn open_as(path: &Path, options: &str, build_name: &str) -> Result<FactsCache, String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let named = |e: rusqlite::Error| format!("{}: {e}", path.display());
        let conn = Connection::open(path).map_err(named)?;
        conn.busy_timeout(BUSY_WAIT)
            .and_then(|_| conn.pragma_update(None, "page_size", PAGE_SIZE))
            .and_then(|_| conn.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
            // One run's answers are written in one transaction: without a
            // limit the write-ahead log keeps that size after checkpoints.
            .and_then(|_| conn.pragma_update(None, "journal_size_limit", 64i64 << 20))
            // A run reads thousands of answers at random: mapped, a read is
            // a memory access, not a system call and a copy per page.
            .and_then(|_| conn.pragma_update(None, "mmap_size", 1i64 << 32))
            .and_then(|_| lay_out(&conn))
            .map_err(named)?;
        let build = register_build(&conn, build_name).map_err(named)?;
        Ok(FactsCache {
            path: path.to_path_buf(),
            conn: Mutex::new(conn),
            readers: thread_local::ThreadLocal::new(),
            fresh: Mutex::new(Vec::new()),
            memo: None,
            fingerprint: format!("{build_name}\n{options}"),
            build,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        })
    }

    /// The key of answer `kind` for the blob `blob` at `path`, with
    /// `extra` (anything else the answer depends on).
    pub(crate) fn key(&self, kind: &str, path: &str, blob: &[u8], extra: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        for part in [
            self.fingerprint.as_bytes(),
            kind.as_bytes(),
            path.as_bytes(),
            blob,
            extra.as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        h.finalize().into()
    }

    /// The answer stored under `key`, if any (an entry that no longer
    /// reads is a miss).
    pub(crate) fn get<T>(&self, key: &[u8; 32]) -> Option<T>
    where
        T: DeserializeOwned + Clone + Send + Sync + 'static,
    {
        self.get_shared::<T>(key).map(Arc::unwrap_or_clone)
    }

    /// [`FactsCache::get`] without a copy of a remembered answer: for
    /// answers that are only read.
    pub(crate) fn get_shared<T>(&self, key: &[u8; 32]) -> Option<Arc<T>>
    where
        T: DeserializeOwned + Send + Sync + 'static,
    {
        if let Some(v) = self.recalled::<T>(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some(v);
        }
        // Decoded where SQLite holds it (mapped), without a copy.
        let reader = self.reader();
        let reader = reader.lock().unwrap_or_else(|e| e.into_inner());
        let value: Option<Arc<T>> = reader.as_ref().and_then(|conn| {
            // A flush ended the last transaction: the next lookup starts one.
            if conn.is_autocommit() {
                conn.execute_batch("BEGIN").ok()?;
            }
            let mut stmt = conn
                .prepare_cached("SELECT value FROM facts WHERE key = ?1")
                .ok()?;
            stmt.query_row(params![&key[..]], |r| {
                Ok(r.get_ref(0)?
                    .as_blob()
                    .ok()
                    .and_then(|v| rmp_serde::from_slice(v).ok()))
            })
            .optional()
            .ok()
            .flatten()
            .flatten()
            .map(Arc::new)
        });
        let counter = if value.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if let Some(v) = &value {
            self.remember(*key, v.clone());
        }
        value
    }

    /// This thread's reading connection (`None` when the file cannot be
    /// opened again: every lookup is then a miss).
    fn reader(&self) -> &Mutex<Option<Connection>> {
        self.readers.get_or(|| {
            let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(&self.path, flags)
                .ok()
                .filter(|c| c.busy_timeout(BUSY_WAIT).is_ok())
                .filter(|c| c.pragma_update(None, "mmap_size", 1i64 << 32).is_ok());
            Mutex::new(conn)
        })
    }

    /// Ends every reader's transaction, so the checkpoint after a write
    /// finds no reader of an older snapshot.
    fn end_reads(&self) {
        for reader in self.readers.iter() {
            let mut reader = reader.lock().unwrap_or_else(|e| e.into_inner());
            let Some(conn) = reader.as_ref() else {
                continue;
            };
            let ended = conn.is_autocommit()
                || conn.execute_batch("COMMIT").is_ok()
                || conn.execute_batch("ROLLBACK").is_ok();
            if !ended {
                *reader = None;
            }
        }
    }

    /// Keeps every answer decoded in memory from now on: for a run over
    /// several versions.
    pub(crate) fn remembering(mut self) -> FactsCache {
        self.memo = Some(Mutex::new(HashMap::new()));
        self
    }

    fn recalled<T: Send + Sync + 'static>(&self, key: &[u8; 32]) -> Option<Arc<T>> {
        let memo = self
            .memo
            .as_ref()?
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        memo.get(key)?.clone().downcast::<T>().ok()
    }

    fn remember<T: Send + Sync + 'static>(&self, key: [u8; 32], value: Arc<T>) {
        if let Some(memo) = &self.memo {
            let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
            memo.insert(key, value);
        }
    }

    /// Keeps `value` under `key` once the run ends.
    pub(crate) fn put<T: Serialize + Clone + Send + Sync + 'static>(
        &self,
        key: [u8; 32],
        value: &T,
    ) {
        if let Ok(v) = rmp_serde::to_vec_named(value) {
            self.fresh
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((key, v));
        }
        self.remember(key, Arc::new(value.clone()));
    }

    /// Writes what the run added, in one transaction, then drops the
    /// answers of builds no longer kept. A cache that cannot be written
    /// costs the next run time, never this run its result.
    pub(crate) fn flush(&self) -> Result<(), String> {
        self.end_reads();
        let fresh = std::mem::take(&mut *self.fresh.lock().unwrap_or_else(|e| e.into_inner()));
        if fresh.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction().map_err(|e| e.to_string())?;
        {
            let mut stmt = tx
                .prepare("INSERT OR REPLACE INTO facts (key, value, build) VALUES (?1, ?2, ?3)")
                .map_err(|e| e.to_string())?;
            for (k, v) in &fresh {
                stmt.execute(params![&k[..], v, self.build])
                    .map_err(|e| e.to_string())?;
            }
        }
        tx.commit().map_err(|e| e.to_string())?;
        evict_old_builds(&mut conn).map_err(|e| e.to_string())?;
        empty_the_log(&conn);
        Ok(())
    }

    /// Hits and misses so far.
    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

/// Makes the file's tables, emptying a file of another layout first. The
/// file gives freed pages back (incremental auto-vacuum), so dropping a
/// build's answers shrinks it. Answers sit in a table with row ids, found
/// through the index of their keys: in a table without row ids the rows
/// are the index, and a lookup that passes a row whose answer overflows
/// its page reads that whole answer to compare keys.
fn lay_out(conn: &Connection) -> rusqlite::Result<()> {
    let layout: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if layout != LAYOUT {
        conn.execute_batch("DROP TABLE IF EXISTS facts; DROP TABLE IF EXISTS builds;")?;
        // auto_vacuum and the page size take effect on an existing file
        // only through VACUUM (quick once the tables are gone), and the
        // page size outside WAL mode.
        conn.pragma_update(None, "journal_mode", "DELETE")?;
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        conn.execute_batch("VACUUM")?;
        conn.pragma_update(None, "user_version", LAYOUT)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS builds (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, used INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS facts (key BLOB NOT NULL UNIQUE, build INTEGER NOT NULL DEFAULT 0, value BLOB NOT NULL);
         CREATE INDEX IF NOT EXISTS facts_by_build ON facts (build);",
    )
}

/// Records that `name` uses the file now; its number in `builds`.
fn register_build(conn: &Connection, name: &str) -> rusqlite::Result<i64> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64);
    conn.query_row(
        "INSERT INTO builds (name, used) VALUES (?1, ?2)
         ON CONFLICT (name) DO UPDATE SET used = max(used, excluded.used) RETURNING id",
        params![name, now],
        |r| r.get(0),
    )
}

/// Drops the answers of every build but the [`BUILDS_KEPT`] used last
/// (and of builds older than this layout, which write build 0), and gives
/// their pages back to the file system.
fn evict_old_builds(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let mut stale: Vec<i64> = tx
        .prepare("SELECT id FROM builds ORDER BY used DESC, id DESC LIMIT -1 OFFSET ?1")?
        .query_map(params![BUILDS_KEPT as i64], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    stale.push(0);
    let mut dropped = 0;
    for id in stale {
        dropped += tx.execute("DELETE FROM facts WHERE build = ?1", params![id])?;
        tx.execute("DELETE FROM builds WHERE id = ?1", params![id])?;
    }
    tx.commit()?;
    if dropped > 0 {
        conn.execute_batch("PRAGMA incremental_vacuum;")?;
    }
    Ok(())
}

/// Moves the write-ahead log into the file and empties it. Pages still in
/// the log are read with a system call and a copy each, pages in the file
/// are mapped: a run that added a full index's answers would otherwise
/// leave the next run reading most of them from the log (a re-index of
/// golang.org/x after ten changed files: 0.35 s, 0.30 s with this). A
/// passive checkpoint leaves the log in use and gains nothing. The
/// checkpoint waits for readers of older snapshots, at most a second; a
/// busy file keeps its log until a later run.
fn empty_the_log(conn: &Connection) {
    let wait = std::time::Duration::from_secs(1);
    if conn.busy_timeout(wait).is_ok() {
        let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
    }
    let _ = conn.busy_timeout(BUSY_WAIT);
}

/// This build of errdex: its version and its executable's size and
/// modification time, so answers of another build are never read.
pub fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(|p| p.metadata())
            .map(|m| {
                let time = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{time}", m.len())
            })
            .unwrap_or_else(|_| "unknown".into());
        format!("errdex {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// The git blob id of `bytes` (the id the file has in a commit), so a work
/// tree's files and a commit's blobs share answers.
pub(crate) fn blob_id(bytes: &[u8]) -> gix::ObjectId {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes)
        .unwrap_or_else(|_| gix::ObjectId::null(gix::hash::Kind::Sha1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_survive_a_reopen_and_keys_tell_paths_and_kinds_apart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.sqlite3");
        let blob = blob_id(b"package p\n");
        assert_eq!(
            blob.to_string(),
            // `printf 'package p\n' | git hash-object --stdin`
            "c89cd18d0fe7d777c6008d0d9133c5bb808be6fc"
        );
        let cache = FactsCache::open(&path, "levels=error").unwrap();
        let k = cache.key("facts", "a.go", blob.as_bytes(), "");
        assert_ne!(k, cache.key("facts", "b.go", blob.as_bytes(), ""));
        assert_ne!(k, cache.key("flows", "a.go", blob.as_bytes(), ""));
        assert_eq!(cache.get::<Vec<String>>(&k), None);
        cache.put(k, &vec!["x".to_string()]);
        cache.flush().unwrap();
        drop(cache);
        let again = FactsCache::open(&path, "levels=error").unwrap();
        assert_eq!(again.get::<Vec<String>>(&k), Some(vec!["x".to_string()]));
        assert_eq!(again.stats(), CacheStats { hits: 1, misses: 0 });
        // Remembering, an answer is decoded once: the second read does
        // not go to the file (its row is gone by then).
        let memo = FactsCache::open(&path, "levels=error")
            .unwrap()
            .remembering();
        assert_eq!(memo.get::<Vec<String>>(&k), Some(vec!["x".to_string()]));
        memo.conn
            .lock()
            .unwrap()
            .execute("DELETE FROM facts", [])
            .unwrap();
        assert_eq!(memo.get::<Vec<String>>(&k), Some(vec!["x".to_string()]));
        let other_options = FactsCache::open(&path, "levels=all").unwrap();
        let k2 = other_options.key("facts", "a.go", blob.as_bytes(), "");
        assert_ne!(k, k2, "options are part of the key");
    }

    #[test]
    fn lookups_go_on_across_flushes_and_see_what_each_wrote() {
        // A history run flushes after every version and reads on.
        let dir = tempfile::tempdir().unwrap();
        let cache = FactsCache::open(&dir.path().join("facts.sqlite3"), "levels=error").unwrap();
        let keys: Vec<[u8; 32]> = (0..3u8)
            .map(|i| cache.key("facts", "a.go", &[i], ""))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(cache.get::<u32>(k), None, "version {i}: not written yet");
            cache.put(*k, &(i as u32));
            cache.flush().unwrap();
            for (j, earlier) in keys[..=i].iter().enumerate() {
                assert_eq!(cache.get::<u32>(earlier), Some(j as u32), "after flush {i}");
            }
        }
        assert_eq!(cache.stats(), CacheStats { hits: 6, misses: 3 });
    }

    fn rows(path: &Path) -> i64 {
        let conn = Connection::open(path).unwrap();
        conn.query_row("SELECT count(*) FROM facts", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn the_file_keeps_the_answers_of_the_builds_used_last() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.sqlite3");
        let blob = blob_id(b"x");
        let mut keys = Vec::new();
        for build in ["b1", "b2", "b3", "b4"] {
            let cache = FactsCache::open_as(&path, "", build).unwrap();
            for file in 0..50 {
                let k = cache.key("facts", &format!("{file}.go"), blob.as_bytes(), "");
                cache.put(k, &vec![build.to_string(); 20]);
            }
            keys.push(cache.key("facts", "0.go", blob.as_bytes(), ""));
            cache.flush().unwrap();
        }
        assert_eq!(rows(&path), 150, "b1's answers are dropped");
        let b1 = FactsCache::open_as(&path, "", "b1").unwrap();
        assert_eq!(b1.get::<Vec<String>>(&keys[0]), None);
        let b4 = FactsCache::open_as(&path, "", "b4").unwrap();
        assert_eq!(b4.get::<Vec<String>>(&keys[3]).unwrap()[0], "b4");
        // b1 came back: it is used last now, and b2 (used least lately)
        // makes room once b1 writes.
        b1.put(keys[0], &vec!["again".to_string()]);
        b1.flush().unwrap();
        assert_eq!(rows(&path), 101);
        let b2 = FactsCache::open_as(&path, "", "b2").unwrap();
        assert_eq!(b2.get::<Vec<String>>(&keys[1]), None);
    }

    #[test]
    fn a_file_of_the_older_layout_starts_empty_and_old_writers_are_evicted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.sqlite3");
        {
            let old = Connection::open(&path).unwrap();
            old.execute_batch(
                "CREATE TABLE facts (key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
                 INSERT INTO facts SELECT randomblob(32), zeroblob(1000) FROM n;",
            )
            .unwrap();
        }
        assert!(std::fs::metadata(&path).unwrap().len() > 4_000_000);
        let cache = FactsCache::open_as(&path, "", "new").unwrap();
        assert_eq!(rows(&path), 0);
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(
            size < 1_000_000,
            "the old answers' pages are given back: {size}"
        );
        let page: i64 = Connection::open(&path)
            .unwrap()
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap();
        assert_eq!(page, PAGE_SIZE, "the file is laid out again in large pages");
        let with_row_ids = Connection::open(&path)
            .unwrap()
            .prepare("SELECT rowid FROM facts")
            .is_ok();
        assert!(with_row_ids, "answers are found through an index of keys");
        // An errdex of the older layout still writes (key, value) rows.
        Connection::open(&path)
            .unwrap()
            .execute("INSERT INTO facts (key, value) VALUES (x'03', x'5b5d')", [])
            .unwrap();
        let k = cache.key("facts", "a.go", b"1", "");
        cache.put(k, &1u32);
        cache.flush().unwrap();
        assert_eq!(rows(&path), 1);
        assert_eq!(cache.get::<u32>(&k), Some(1));
    }
}
