//! Typed errors of the library. Extension failures are not errors of the
//! library: they are reported per extension in [`crate::report::LoadError`].

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum PihostError {
    #[error("the JavaScript runtime failed to start: {0}")]
    RuntimeStart(String),
    #[error("pihost's own JavaScript failed ({context}): {message}")]
    Internal { context: String, message: String },
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot build the async runtime: {0}")]
    AsyncRuntime(#[source] std::io::Error),
    /// Extension code threw or rejected where pi lets the error reach the
    /// caller (a tool_call handler, E3; a user_bash result; a tool; a command).
    #[error("{message}")]
    Extension { message: String, stack: Option<String> },
    /// The engine thread has stopped (shutdown, or every handle dropped).
    #[error("the pihost engine has stopped")]
    Stopped,
    /// A dispatch waits on a promise nothing can ever settle (no timer, no
    /// pending I/O): it is reported at once instead of waited on.
    #[error("{call} can never settle: its handlers wait on a promise nothing will resolve")]
    NeverSettles { call: String },
    /// A dispatch did not settle within the embedder's timeout; its handlers
    /// keep running in the isolate, and their late results are dropped.
    #[error("{call} did not settle within {millis} ms")]
    Timeout { call: String, millis: u128 },
}
