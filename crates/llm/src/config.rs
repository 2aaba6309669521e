//! The `[llm]` section of `errdex.toml` and its providers.
//!
//! ```toml
//! [llm]
//! primary = "local"          # provider that writes the prose
//! fallback = "agent"         # tried when the primary's answer fails twice
//! verifier = "local"         # reviews records under --verify
//! concurrency = 2            # calls in flight
//! batch = 4                  # records per call
//! timeout_secs = 120         # per call; hung calls and subprocesses are killed
//! token_budget = 200000      # stop sending once this many tokens were used
//!
//! [providers.local]
//! kind = "openai"            # any OpenAI-compatible chat-completions endpoint
//! base_url = "http://localhost:8080/v1"
//! model = "qwen2.5-coder"
//! api_key_env = "OPENAI_API_KEY"   # optional
//!
//! [providers.agent]
//! kind = "command"           # reads the prompt on stdin, prints JSON
//! command = ["claude", "-p"]
//! model = "claude-cli"
//! ```

use crate::error::Error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The whole file (only the parts errdex-llm reads).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// How analysis runs.
    pub llm: Settings,
    /// Providers by name.
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderConfig>,
}

/// How analysis runs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The provider that writes the prose.
    pub primary: String,
    /// Tried when the primary fails twice for a record.
    #[serde(default)]
    pub fallback: Option<String>,
    /// Reviews records under `--verify` (default: the primary).
    #[serde(default)]
    pub verifier: Option<String>,
    /// Calls in flight at once.
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Records per call.
    #[serde(default = "default_batch")]
    pub batch: usize,
    /// Seconds one call may take.
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    /// Tokens the run may use in all (as providers report them).
    #[serde(default)]
    pub token_budget: Option<u64>,
    /// Longest wait a `Retry-After` may ask for, in seconds.
    #[serde(default = "default_max_backoff")]
    pub max_backoff_secs: u64,
}

fn default_concurrency() -> usize {
    2
}
fn default_batch() -> usize {
    4
}
fn default_timeout() -> u64 {
    120
}
fn default_max_backoff() -> u64 {
    60
}

/// One provider.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum ProviderConfig {
    /// An OpenAI-compatible chat-completions endpoint (OpenAI, vLLM,
    /// llama.cpp server, Ollama).
    #[serde(rename = "openai")]
    OpenAi {
        /// Up to and including `/v1`.
        base_url: String,
        /// The model name sent in each request.
        model: String,
        /// Environment variable holding the API key, if one is needed.
        #[serde(default)]
        api_key_env: Option<String>,
        /// Answer length limit.
        #[serde(default)]
        max_tokens: Option<u32>,
        /// Ask for `response_format: json_object` (some servers reject it).
        #[serde(default = "yes")]
        json_mode: bool,
    },
    /// A command that reads the prompt on stdin and prints JSON.
    #[serde(rename = "command")]
    Command {
        /// Program and arguments.
        command: Vec<String>,
        /// What to call the model in `analyzer` and the cache key.
        model: String,
    },
}

fn yes() -> bool {
    true
}

impl Config {
    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<Config, Error> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Read {
            path: p.clone(),
            message: format!("{e}; write an [llm] section there (see `errdex analyze --help`) or pass --config FILE"),
        })?;
        Config::parse(&text, &p)
    }

    /// Parses and checks configuration text; `path` names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<Config, Error> {
        let c: Config = toml::from_str(text).map_err(|e| Error::Parse {
            path: path.to_string(),
            message: e.to_string().trim().to_string(),
        })?;
        for name in [
            Some(&c.llm.primary),
            c.llm.fallback.as_ref(),
            c.llm.verifier.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            c.provider(name).map_err(|_| Error::UnknownProvider {
                path: path.to_string(),
                name: name.clone(),
                defined: c.providers.keys().cloned().collect::<Vec<_>>().join(", "),
            })?;
        }
        let invalid = |message: &str| Error::Invalid {
            path: path.to_string(),
            message: message.to_string(),
        };
        if c.llm.concurrency == 0 || c.llm.batch == 0 || c.llm.timeout_secs == 0 {
            return Err(invalid(
                "concurrency, batch and timeout_secs must be at least 1",
            ));
        }
        for (name, pc) in &c.providers {
            if let ProviderConfig::Command { command, .. } = pc {
                if command.is_empty() {
                    return Err(invalid(&format!("provider {name:?}: command is empty")));
                }
            }
        }
        Ok(c)
    }

    /// A provider's configuration by name.
    pub fn provider(&self, name: &str) -> Result<&ProviderConfig, Error> {
        self.providers
            .get(name)
            .ok_or_else(|| Error::NoProvider(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let doc = include_str!("config.rs");
        let example: String = doc
            .lines()
            .skip_while(|l| !l.starts_with("//! ```toml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        let c = Config::parse(&example, "errdex.toml").unwrap();
        assert_eq!(c.llm.primary, "local");
        assert_eq!(c.llm.batch, 4);
        assert!(matches!(
            c.provider("agent"),
            Ok(ProviderConfig::Command { .. })
        ));
    }

    #[test]
    fn mistakes_are_named() {
        let e = Config::parse("[llm]\nprimary = \"x\"\n", "e.toml").unwrap_err();
        assert!(e.to_string().contains("no provider named \"x\""), "{e}");
        let e = Config::parse("[llm]\nprimary = \"x\"\ncolour = 1\n", "e.toml").unwrap_err();
        assert!(
            e.to_string().starts_with("e.toml: ") && e.to_string().contains("colour"),
            "{e}"
        );
        let e = Config::parse(
            "[llm]\nprimary = \"a\"\n[providers.a]\nkind = \"command\"\ncommand = []\nmodel = \"m\"\n",
            "e.toml",
        )
        .unwrap_err();
        assert!(e.to_string().contains("command is empty"), "{e}");
    }
}
