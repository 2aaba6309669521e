//! The one error type of errdex-llm: a configuration problem (naming the
//! file and what to do) or why one call to a provider gave no answer.

use std::time::Duration;

/// What can go wrong configuring or calling a provider.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file cannot be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The file is not valid TOML or has unknown or missing keys.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What toml said.
        message: String,
    },
    /// A provider name that `[providers]` does not define.
    #[error("{path}: no provider named {name:?} in [providers] (defined: {defined})")]
    UnknownProvider {
        /// The file.
        path: String,
        /// The missing name.
        name: String,
        /// The names that exist.
        defined: String,
    },
    /// A value out of range.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A provider asked for by name that the configuration does not define.
    #[error("no provider named {0:?}")]
    NoProvider(String),
    /// The environment variable holding a provider's API key is not set.
    #[error("provider {provider:?}: environment variable {var} (api_key_env) is not set")]
    MissingKey {
        /// The provider.
        provider: String,
        /// The variable.
        var: String,
    },
    /// 429 (or a command exiting 75, EX_TEMPFAIL): wait and try again.
    #[error("rate limited{}", .retry_after.map(|d| format!(" (retry after {} s)", d.as_secs())).unwrap_or_default())]
    RateLimited {
        /// What `Retry-After` asked for.
        retry_after: Option<Duration>,
    },
    /// The call ran past the timeout and was abandoned (a command is
    /// killed).
    #[error("no answer within {0} s")]
    Timeout(u64),
    /// An HTTP status other than 200 and 429.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// The model declined.
    #[error("refused: {0}")]
    Refused(String),
    /// Connection problems, a command that cannot start or fails.
    #[error("{0}")]
    Failed(String),
}
