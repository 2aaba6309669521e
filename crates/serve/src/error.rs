//! What goes wrong, and what a client is told about it.
//!
//! A client's mistake (a bad query, a missing page) is answered with a
//! message for the client. Anything else is the server's: it is logged in
//! full with the request's id, and the client gets generic text with that
//! id, never the store's or the file system's own words.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// What can go wrong serving or exporting the atlas.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A query could not be answered.
    #[error(transparent)]
    Atlas(#[from] errdex_atlas::Error),
    /// The store could not answer.
    #[error(transparent)]
    Store(#[from] errdex_store::Error),
    /// A file or folder of an export could not be written or moved.
    #[error("{doing}")]
    Io {
        /// What was being done, naming the path.
        doing: String,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// A document could not be written or read as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// An export cannot be made as asked; the message says what to do.
    #[error("{0}")]
    Export(String),
    /// An answer's body could not be read back to be cached.
    #[error("reading an answer's body: {0}")]
    Body(String),
    /// Work moved off the async threads did not finish.
    #[error("a worker task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Result of exports.
pub type Result<T> = std::result::Result<T, Error>;

/// Adds what was being done to an I/O error.
pub(crate) trait Doing<T> {
    fn doing(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T> Doing<T> for std::io::Result<T> {
    fn doing(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|source| Error::Io {
            doing: what(),
            source,
        })
    }
}

/// A failure a handler answers with.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The client's: the status and a message for the client.
    Client(StatusCode, String),
    /// The server's: logged, and answered with generic text.
    Internal(Error),
}

impl<E: Into<Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Internal(e.into())
    }
}

impl Failure {
    /// The failure as an error of a whole run (an export), where there is
    /// no client to answer.
    pub(crate) fn into_error(self) -> Error {
        match self {
            Failure::Client(_, message) => Error::Export(message),
            Failure::Internal(e) => e,
        }
    }
}

/// An internal error riding on its response to the middleware that knows
/// the request id, logs it and writes the generic answer.
#[derive(Debug, Clone)]
pub(crate) struct InternalError(pub Arc<Error>);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::Client(status, message) => {
                let body = serde_json::json!({"error": message});
                (status, axum::Json(body)).into_response()
            }
            Failure::Internal(e) => {
                let mut r = StatusCode::INTERNAL_SERVER_ERROR.into_response();
                r.extensions_mut().insert(InternalError(Arc::new(e)));
                r
            }
        }
    }
}

/// The error and every cause under it, for the log.
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    out
}
