//! Typed errors of the library. Extension failures are not errors of the
//! library: they are reported per extension in [`crate::report::LoadError`].

use std::path::PathBuf;

/// Why a call into pihost failed.
#[derive(Debug, thiserror::Error)]
pub enum PihostError {
    /// The session's permissions could not be understood.
    #[error(transparent)]
    Permissions(#[from] crate::permissions::PermissionsError),
    /// The JavaScript isolate could not be created.
    #[error("the JavaScript runtime failed to start: {0}")]
    RuntimeStart(String),
    /// `pihost prepare` could not make what it keeps beside the binary.
    #[error("pihost prepare failed: {0}")]
    Prepare(String),
    /// pihost's runtime, not an extension, failed or answered something
    /// unexpected: a bug in pihost.
    #[error("pihost's own JavaScript failed ({context}): {message}")]
    Internal {
        /// The call or step that failed.
        context: String,
        /// The error text.
        message: String,
    },
    /// A file pihost needed could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// The engine thread's tokio runtime could not be built.
    #[error("cannot build the async runtime: {0}")]
    AsyncRuntime(#[source] std::io::Error),
    /// Extension code threw or rejected where pi lets the error reach the
    /// caller (a tool_call handler, E3; a user_bash result; a tool; a command).
    #[error("{message}")]
    Extension {
        /// The error's message.
        message: String,
        /// Its stack, mapped to the original `.ts` lines, when it had one.
        stack: Option<String>,
    },
    /// The engine thread has stopped (shutdown, or every handle dropped).
    #[error("the pihost engine has stopped")]
    Stopped,
    /// A dispatch waits on a promise nothing can ever settle (no timer, no
    /// pending I/O): it is reported at once instead of waited on.
    #[error("{call} can never settle: its handlers wait on a promise nothing will resolve")]
    NeverSettles {
        /// The call, e.g. `emit(<type>)`, `tool <name>` or `/<command>`.
        call: String,
    },
    /// The engine thread died (a panic in pihost or the engine); every call
    /// pending then failed with this. [`crate::Pihost::restart`] starts a new
    /// engine with the same extensions.
    #[error("the pihost engine crashed: {message}")]
    EngineCrashed {
        /// Why it died.
        message: String,
    },
    /// The runtime had to be replaced while this call was in flight (an
    /// extension filled the heap beyond recovery); the new runtime has the
    /// same extensions and answers later calls.
    #[error("{call} was cut off: an extension filled the heap and pihost restarted the engine")]
    EngineRestarted {
        /// The call that was in flight.
        call: String,
    },
    /// Extension code stopped for its CPU limit went on regardless (a loop
    /// of native calls the engine cannot interrupt), so pihost gave up the
    /// runtime; the next call starts a new one with the same extensions.
    #[error("{call} was cut off: {message}")]
    EngineStuck {
        /// The call that was in flight.
        call: String,
        /// What went on, naming the extension when pihost knows it.
        message: String,
    },
    /// No extension component on pihost's screen has this id (it never
    /// existed, or it is closed); for a close, no open `ctx.ui.custom`
    /// component has it.
    #[error("no extension component has id {id} (it is closed, or never was open)")]
    UnknownComponent {
        /// The id asked for.
        id: u64,
    },
    /// [`crate::Pihost::open_session`] on a runtime whose permissions
    /// restrict something: its permission prompts, audit and isolated
    /// extensions are the runtime's, not a session's, so its sessions are
    /// not shared.
    #[error("a session cannot be opened in this runtime: {reason}")]
    SessionNotShared {
        /// Why.
        reason: String,
    },
    /// A dispatch did not settle within the embedder's timeout; its handlers
    /// keep running in the isolate, and their late results are dropped.
    #[error("{call} did not settle within {millis} ms")]
    Timeout {
        /// The dispatch: `emit(<type>)`, `tool <name>` or `/<command>`.
        call: String,
        /// The timeout it exceeded, in milliseconds.
        millis: u128,
    },
}
