//! Which session of a runtime something is for. A runtime starts with
//! session [`FIRST_SESSION`] (pihost's isolated mode has no other); the
//! shared mode opens more ([`crate::Pihost::open_session`]), and every call
//! into the runtime and every op out of it names its session.

/// A session's number in its runtime.
pub type SessionId = u32;

/// The session every runtime has from its start.
pub const FIRST_SESSION: SessionId = 0;
