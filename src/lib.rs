//! pihost: run unmodified pi coding-agent extensions from Rust.
//!
//! The data flows one way: [`discovery`] finds extension entry points,
//! [`transpile`] turns TypeScript into JavaScript, [`modules`] resolves every
//! import (pi's virtual modules, Node built-ins, files), the isolate's
//! JavaScript (`js/`) gives extensions pi's API, and [`engine`] reports what
//! loaded as plain serde types ([`report`]).

pub mod compat;
pub mod discovery;
pub mod engine;
pub mod error;
pub mod events;
pub mod handle;
pub mod host;
pub mod modules;
pub mod ops;
pub mod report;
pub mod serve;
pub mod transpile;

pub use engine::{Engine, EngineOptions};
pub use error::PihostError;
pub use handle::Pihost;
pub use report::{ExtensionReport, InspectReport, LoadError};
