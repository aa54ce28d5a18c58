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
}
