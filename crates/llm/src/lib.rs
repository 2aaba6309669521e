//! Optional LLM analysis of records, off by default. Providers are
//! configured in `errdex.toml` ([`config`]): any OpenAI-compatible
//! chat-completions endpoint, or a command that reads the prompt on stdin.
//! The prompt carries only the facts the static analyser used ([`prompt`]);
//! every answer is validated before it replaces anything ([`validate`]);
//! answers are cached by facts, provider, model and prompt version, so
//! re-runs send nothing ([`run`]).
#![deny(missing_docs)]

pub mod config;
mod error;
pub mod json;
pub mod prompt;
pub mod provider;
pub mod run;
pub mod validate;

pub use config::{Config, ProviderConfig, Settings};
pub use error::Error;
pub use provider::{build, Completion, Provider};
pub use run::{AnswerCache, Session, Stats};
