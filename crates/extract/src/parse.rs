//! Reading one file: its bytes from the source (through the facts
//! cache), binary sniffing, decoding, and its language's extraction with a
//! panic turned into the reason the file is skipped.

use crate::cache::{self, FactsCache};
use crate::config::Config;
use crate::snapshot::Snapshot;
use crate::source::Source;
use crate::{walk, Options, Warning};
use errdex_lang::{ExtractOptions, FileFacts};

/// Bytes looked at for a NUL byte to call a file binary.
const BINARY_SNIFF: usize = 8192;

#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub(crate) enum Parsed {
    Ok {
        facts: Box<FileFacts>,
        rel: String,
        lines: u32,
        bytes: u64,
        warning: Option<Warning>,
    },
    Skipped(Option<Warning>),
}

pub(crate) fn parse_one(
    c: &walk::Candidate,
    source: &Source,
    snap: &Snapshot,
    opts: &Options,
    config: &Config,
) -> Parsed {
    let rel = snap.repo_path(&c.rel);
    let warn = |message: String| {
        Some(Warning {
            path: rel.clone(),
            message,
        })
    };
    let bytes = match source.read(&c.rel) {
        Ok(b) => b,
        Err(e) => return Parsed::Skipped(warn(format!("cannot read: {e}; skipped"))),
    };
    parse_bytes(c, bytes, &rel, opts, config)
}

/// Reads one file's bytes: binary sniffing, decoding, extraction.
fn parse_bytes(
    c: &walk::Candidate,
    bytes: Vec<u8>,
    rel: &str,
    opts: &Options,
    config: &Config,
) -> Parsed {
    let rel = rel.to_string();
    let warn = |message: String| {
        Some(Warning {
            path: rel.clone(),
            message,
        })
    };
    let head = &bytes[..bytes.len().min(BINARY_SNIFF)];
    if head.contains(&0) {
        return Parsed::Skipped(None);
    }
    if let Some(share) = binary_share(head) {
        return Parsed::Skipped(warn(format!(
            "looks binary ({share}% of its first bytes are control characters or not UTF-8); skipped"
        )));
    }
    let (text, mut warning) = match String::from_utf8(bytes) {
        Ok(t) => (t, None),
        Err(e) => (
            String::from_utf8_lossy(e.as_bytes()).into_owned(),
            warn("not valid UTF-8; invalid bytes were replaced with U+FFFD".into()),
        ),
    };
    let options = ExtractOptions {
        all_levels: opts.all_levels,
        whole_file: false,
        custom: config.functions.clone(),
        reuse_trees: opts.reuse_trees,
    };
    let facts = match extract_guarded(c.lang, &rel, &text, &options) {
        Ok(facts) => facts,
        Err(why) => return Parsed::Skipped(warn(why)),
    };
    if let Some(why) = facts.refused {
        return Parsed::Skipped(warn(why));
    }
    if facts.syntax_errors > 0 && warning.is_none() {
        warning = warn(format!(
            "{} syntax error(s); sites in the parts that parsed were kept",
            facts.syntax_errors
        ));
    }
    Parsed::Ok {
        facts: Box::new(facts),
        lines: line_count(&text),
        bytes: text.len() as u64,
        rel,
        warning,
    }
}

/// The facts cache at `opts.cache`, if one is asked for and opens.
pub(crate) fn open_cache(
    opts: &Options,
    config: &Config,
    warnings: &mut Vec<Warning>,
) -> Option<FactsCache> {
    let path = opts.cache.as_deref()?;
    FactsCache::open(path, &cache_options(opts, config))
        .map_err(|e| {
            warnings.push(Warning {
                path: path.display().to_string(),
                message: format!("the facts cache cannot be opened ({e}); every file is parsed"),
            })
        })
        .ok()
}

/// Writes what a run added to the cache; a failure is a warning.
pub(crate) fn flush_cache(cache: &FactsCache, opts: &Options, warnings: &mut Vec<Warning>) {
    flush_cache_at(cache, opts.cache.as_deref(), warnings);
}

/// [`flush_cache`] for the cache file at `path`.
pub(crate) fn flush_cache_at(
    cache: &FactsCache,
    path: Option<&std::path::Path>,
    warnings: &mut Vec<Warning>,
) {
    if let Err(e) = cache.flush() {
        warnings.push(Warning {
            path: path.map(|p| p.display().to_string()).unwrap_or_default(),
            message: format!("the facts cache was not written ({e}); the next run parses again"),
        });
    }
}

/// Everything that changes what a file yields besides its path and
/// content: a cache written with other options is never read.
pub(crate) fn cache_options(opts: &Options, config: &Config) -> String {
    format!(
        "all_levels={} functions={:?}",
        opts.all_levels, config.functions
    )
}

/// [`parse_one`], through the cache: a blob seen before at this path is
/// not read again (from git objects, not even decompressed).
pub(crate) fn cached_parse(
    c: &walk::Candidate,
    source: &Source,
    snap: &Snapshot,
    opts: &Options,
    config: &Config,
    cache: Option<&FactsCache>,
) -> Parsed {
    let Some(cache) = cache else {
        return parse_one(c, source, snap, opts, config);
    };
    let rel = snap.repo_path(&c.rel);
    let key_of = |id: &gix::ObjectId| cache.key("facts", &rel, id.as_bytes(), "");
    // From git objects the tree names the blob: a hit needs no read.
    let stored = c.blob.get().map(key_of);
    if let Some(hit) = stored.as_ref().and_then(|k| cache.get(k)) {
        return hit;
    }
    let Ok(bytes) = source.read(&c.rel) else {
        return parse_one(c, source, snap, opts, config);
    };
    // The text read has Unix line ends: its id keys the answer too, so a
    // blob packed with Windows ones (a release built on Windows) and the
    // same text with Unix ones share it. From disk it is the file's id.
    let unix = cache::blob_id(&bytes);
    let _ = c.blob.set(unix);
    if c.blob.get() != Some(&unix) {
        let _ = c.unix_blob.set(unix);
    }
    let unix_key = key_of(&unix);
    let other = stored.filter(|k| *k != unix_key);
    if stored != Some(unix_key) {
        if let Some(hit) = cache.get::<Parsed>(&unix_key) {
            if let Some(k) = other {
                cache.put(k, &hit);
            }
            return hit;
        }
    }
    let parsed = parse_bytes(c, bytes, &rel, opts, config);
    if !matches!(parsed, Parsed::Skipped(_)) {
        cache.put(unix_key, &parsed);
        if let Some(k) = other {
            cache.put(k, &parsed);
        }
    }
    parsed
}

/// The second, whole-file read of a file parsed in part that calls one of
/// the repository's wrappers (`wrappers` matches their names), through the
/// cache; `None` when the file does not call one or cannot be read whole.
pub(crate) fn whole_parse(
    c: &walk::Candidate,
    path: &str,
    source: &Source,
    wrappers: &aho_corasick::AhoCorasick,
    whole: &ExtractOptions,
    cache: Option<&FactsCache>,
    wrapper_key: &str,
) -> Option<FileFacts> {
    let blob = c.content_id().map(|b| b.as_bytes().to_vec());
    let key = |kind: &str, extra: &str| Some(cache?.key(kind, path, blob.as_deref()?, extra));
    let (match_key, whole_key) = (key("calls-wrapper", wrapper_key), key("whole", ""));
    let calls: Option<bool> = match_key.and_then(|k| cache?.get(&k));
    let calls = calls.unwrap_or_else(|| {
        let calls = wrappers.is_match(&source.text(&c.rel));
        if let (Some(cache), Some(k)) = (cache, match_key) {
            cache.put(k, &calls);
        }
        calls
    });
    if !calls {
        return None;
    }
    if let Some(hit) = whole_key.and_then(|k| cache?.get::<Option<FileFacts>>(&k)) {
        return hit;
    }
    // A whole file too deep or too slow to read keeps the declarations its
    // first parse read.
    let again = extract_guarded(c.lang, path, &source.text(&c.rel), whole)
        .ok()
        .filter(|f| f.refused.is_none());
    if let (Some(cache), Some(k)) = (cache, whole_key) {
        cache.put(k, &again);
    }
    again
}

/// A language's extraction of one file, with a panic in it (a bug errdex
/// has on some construct) turned into the reason the file is skipped: one
/// file never ends the run.
pub(crate) fn extract_guarded(
    lang: &dyn errdex_lang::LanguageSupport,
    path: &str,
    text: &str,
    options: &ExtractOptions,
) -> Result<FileFacts, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut facts = lang.extract(path, text, options);
        drop_tables(&mut facts.constants);
        facts
    }))
    .map_err(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        format!("errdex failed reading this file ({what}); skipped: please report it with the file")
    })
}

/// Constants longer than this are data (Unicode name tables, translated
/// strings by the megabyte), not a message's text.
const MAX_CONSTANT_BYTES: usize = 16 << 10;

/// Leaves out the constants no message is made of: kept, they were half
/// the cached facts of golang.org/x, decoded again on every run.
fn drop_tables(constants: &mut errdex_lang::message::Constants) {
    constants.retain(|_, parts| {
        let bytes: usize = parts
            .iter()
            .map(|p| match p {
                errdex_lang::message::MsgPart::Text { text, .. } => text.len(),
                _ => 0,
            })
            .sum();
        bytes <= MAX_CONSTANT_BYTES
    });
}

/// The share (percent) of characters in `head` that no source file has
/// many of (control characters, bytes that are not UTF-8), when it is over
/// a tenth: random bytes named `.go` are skipped at once instead of being
/// parsed as thousands of syntax errors.
fn binary_share(head: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(head);
    let (mut odd, mut all) = (0usize, 0usize);
    for c in text.chars() {
        all += 1;
        let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1b');
        if control || c == char::REPLACEMENT_CHARACTER {
            odd += 1;
        }
    }
    // A cut multi-byte character at the end of the window is no sign.
    let share = odd.saturating_sub(1) * 100 / all.max(1);
    (all >= 64 && share >= 10).then_some(share)
}

/// Lines in a text as an editor numbers them.
pub(crate) fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count() as u32;
    if text.is_empty() || text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python, except that reading a file panics.
    struct Panicking;
    impl errdex_lang::LanguageSupport for Panicking {
        fn lang(&self) -> errdex_model::Lang {
            errdex_model::Lang::Python
        }
        fn extensions(&self) -> &'static [&'static str] {
            &[".py"]
        }
        fn is_test_path(&self, _: &str) -> bool {
            false
        }
        fn template(&self, p: &str, a: &[String], c: &str) -> errdex_model::Template {
            errdex_lang::language(self.lang()).template(p, a, c)
        }
        fn grammar(&self) -> tree_sitter::Language {
            errdex_lang::language(self.lang()).grammar()
        }
        fn extract(&self, _: &str, _: &str, _: &ExtractOptions) -> FileFacts {
            panic!("index out of range on line 3")
        }
        fn conventions(&self) -> &'static errdex_lang::Conventions {
            errdex_lang::language(self.lang()).conventions()
        }
    }

    #[test]
    fn constants_the_size_of_a_table_are_left_out() {
        let table = "x".repeat(MAX_CONSTANT_BYTES + 1);
        let text = format!(
            "package p\n\nconst table = \"{table}\"\nconst prefix = \"dial failed\"\n\nfunc f() error {{ return fmt.Errorf(prefix + \": %w\", err) }}\n"
        );
        let go = errdex_lang::language(errdex_model::Lang::Go);
        let facts = extract_guarded(go, "p.go", &text, &ExtractOptions::default()).unwrap();
        assert!(
            facts.constants.contains_key("prefix"),
            "{:?}",
            facts.constants.keys()
        );
        assert!(!facts.constants.contains_key("table"));
    }

    #[test]
    fn a_panic_reading_one_file_skips_that_file_with_its_reason() {
        let why =
            extract_guarded(&Panicking, "a.py", "x = 1\n", &ExtractOptions::default()).unwrap_err();
        assert!(
            why.contains("index out of range on line 3") && why.contains("skipped"),
            "{why}"
        );
        let python = errdex_lang::language(errdex_model::Lang::Python);
        let ok = extract_guarded(
            python,
            "a.py",
            "raise ValueError(\"bad thing\")\n",
            &ExtractOptions::default(),
        );
        assert_eq!(ok.unwrap().sites.len(), 1);
    }

    #[test]
    fn random_bytes_look_binary_and_source_with_stray_bytes_does_not() {
        let mut x = 0x2545_f491_u32;
        let random: Vec<u8> = (0..8192)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x % 255 + 1) as u8 // no NUL
            })
            .collect();
        assert!(binary_share(&random).is_some());
        let mut latin1 =
            b"package p\n// caf\xe9 na\xefve\nfunc f() error { return errors.New(\"x\") }\n"
                .repeat(40);
        latin1.extend_from_slice("// é".as_bytes());
        assert_eq!(binary_share(&latin1), None);
        assert_eq!(
            binary_share(&latin1[..latin1.len() - 1]),
            None,
            "a cut character"
        );
        assert_eq!(binary_share(b"\x01\x02"), None, "too short to tell");
    }

    #[test]
    fn lines_are_counted_like_an_editor() {
        assert_eq!(line_count(""), 0);
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("a\n"), 1);
        assert_eq!(line_count("a\nb"), 2);
    }
}
