//! `errdex.toml`: what a project tells errdex about itself. Everything is
//! optional; without the file the defaults work.
//!
//! ```toml
//! [paths]
//! include = ["src/**", "lib/**"]   # only these (globs on repo paths)
//! exclude = ["src/generated/**"]   # never these
//!
//! [[function]]                     # a message function of the project
//! name = "die"                     # called name (or callee as written)
//! lang = "c"                       # only in this language (default: all)
//! message = 1                      # index of the message argument
//! type = "exit"                    # exception | panic | log | exit | http
//! severity = "critical"            # critical | error | warning | info | debug
//! format = true                    # printf format filled by later arguments
//! ```

use errdex_lang::CustomFunction;
use errdex_model::{ErrorType, Lang, Severity};
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file errdex looks for at the root of an indexed folder.
pub const FILE_NAME: &str = "errdex.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    paths: RawPaths,
    #[serde(default)]
    function: Vec<RawFunction>,
    /// `errdex analyze` reads these sections of the same file.
    #[allow(dead_code)]
    llm: Option<toml::Value>,
    #[allow(dead_code)]
    providers: Option<toml::Value>,
    /// `errdex lint` reads this one.
    #[allow(dead_code)]
    lint: Option<toml::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPaths {
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFunction {
    name: String,
    lang: Option<String>,
    #[serde(default)]
    message: usize,
    #[serde(rename = "type", default = "default_type")]
    error_type: String,
    severity: Option<String>,
    #[serde(default = "yes")]
    format: bool,
}

fn default_type() -> String {
    "log".into()
}

fn yes() -> bool {
    true
}

/// A project's configuration, checked and compiled.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Where it was read from, if anywhere.
    pub source: Option<PathBuf>,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    /// Declared message functions.
    pub functions: Arc<[CustomFunction]>,
}

impl Config {
    /// Reads `explicit` (which must exist), else `root/errdex.toml` when
    /// there is one, else the defaults.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Config, String> {
        let path = match explicit {
            Some(p) => p.to_path_buf(),
            None => {
                let p = root.join(FILE_NAME);
                if !p.is_file() {
                    return Ok(Config::default());
                }
                p
            }
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read the configuration: {e}", path.display()))?;
        let mut c = Config::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        c.source = Some(path);
        Ok(c)
    }

    /// Parses and checks a configuration's text.
    pub fn parse(text: &str) -> Result<Config, String> {
        let raw: Raw = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
        let globs = |list: &[String], what: &str| -> Result<Option<GlobSet>, String> {
            if list.is_empty() {
                return Ok(None);
            }
            let mut b = GlobSetBuilder::new();
            for g in list {
                let glob = Glob::new(g.trim_start_matches("./"))
                    .map_err(|e| format!("paths.{what}: {g:?} is not a glob: {e}"))?;
                b.add(glob);
            }
            b.build()
                .map(Some)
                .map_err(|e| format!("paths.{what}: {e}"))
        };
        let mut functions = Vec::new();
        for (i, f) in raw.function.into_iter().enumerate() {
            let at = |field: &str| format!("function #{} ({:?}): {field}", i + 1, f.name);
            if f.name.trim().is_empty() {
                return Err(format!("function #{}: name is empty", i + 1));
            }
            let lang = match f.lang.as_deref() {
                None => None,
                Some(l) => Some(Lang::named(l).ok_or_else(|| {
                    format!(
                        "{}: unknown language {l:?}; use one of {}",
                        at("lang"),
                        Lang::ALL
                            .iter()
                            .map(|l| l.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?),
            };
            let error_type = match f.error_type.as_str() {
                "exception" => ErrorType::Exception,
                "panic" => ErrorType::Panic,
                "log" => ErrorType::Log,
                "exit" => ErrorType::Exit,
                "http" => ErrorType::Http,
                other => {
                    return Err(format!(
                        "{}: unknown type {other:?}; use exception, panic, log, exit or http",
                        at("type")
                    ))
                }
            };
            let severity = match f.severity.as_deref() {
                None if matches!(error_type, ErrorType::Exit | ErrorType::Panic) => {
                    Severity::Critical
                }
                None => Severity::Error,
                Some("critical") => Severity::Critical,
                Some("error") => Severity::Error,
                Some("warning") => Severity::Warning,
                Some("info") => Severity::Info,
                Some("debug") => Severity::Debug,
                Some(other) => {
                    return Err(format!(
                    "{}: unknown severity {other:?}; use critical, error, warning, info or debug",
                    at("severity")
                ))
                }
            };
            functions.push(CustomFunction {
                lang,
                name: f.name.trim().to_string(),
                message: f.message,
                error_type,
                severity,
                format: f.format,
            });
        }
        Ok(Config {
            source: None,
            include: globs(&raw.paths.include, "include")?,
            exclude: globs(&raw.paths.exclude, "exclude")?,
            functions: functions.into(),
        })
    }

    /// Whether a repo-relative file path is to be indexed.
    pub fn wants(&self, rel: &str) -> bool {
        self.include.as_ref().is_none_or(|g| g.is_match(rel))
            && !self.exclude.as_ref().is_some_and(|g| g.is_match(rel))
    }

    /// Whether a repo-relative folder is excluded as a whole.
    pub fn excludes_dir(&self, rel: &str) -> bool {
        self.exclude
            .as_ref()
            .is_some_and(|g| g.is_match(rel) || g.is_match(format!("{rel}/")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_paths_and_functions() {
        let c = Config::parse(
            r#"
[paths]
include = ["src/**"]
exclude = ["src/gen/**"]

[[function]]
name = "die"
lang = "c"
message = 1
type = "exit"

[[function]]
name = "bark"
severity = "warning"
format = false
"#,
        )
        .unwrap();
        assert!(c.wants("src/a.c"));
        assert!(!c.wants("src/gen/x.c"));
        assert!(!c.wants("docs/x.c"));
        assert_eq!(c.functions.len(), 2);
        assert_eq!(c.functions[0].lang, Some(Lang::C));
        assert_eq!(c.functions[0].severity, Severity::Critical);
        assert_eq!(c.functions[1].error_type, ErrorType::Log);
        assert_eq!(c.functions[1].severity, Severity::Warning);
        assert!(!c.functions[1].format);
    }

    #[test]
    fn the_analysers_sections_may_share_the_file() {
        let c =
            Config::parse("[llm]\nprimary = \"x\"\n[providers.x]\nkind = \"command\"\n").unwrap();
        assert!(c.functions.is_empty());
    }

    #[test]
    fn mistakes_are_named() {
        let e = Config::parse("[[function]]\nnmae = \"x\"\n").unwrap_err();
        assert!(e.contains("nmae"), "{e}");
        let e = Config::parse("[[function]]\nname = \"x\"\ntype = \"boom\"\n").unwrap_err();
        assert!(e.contains("unknown type \"boom\""), "{e}");
        let e = Config::parse("[[function]]\nname = \"x\"\nlang = \"cobol\"\n").unwrap_err();
        assert!(e.contains("unknown language"), "{e}");
        let e = Config::parse("[paths]\ninclude = [\"src/[\"]\n").unwrap_err();
        assert!(e.contains("not a glob"), "{e}");
    }
}
