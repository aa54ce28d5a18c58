#![warn(missing_docs)]
//! pihost: run unmodified pi coding-agent extensions from Rust.
//!
//! The data flows one way: [`discovery`] finds extension entry points,
//! [`transpile`] turns TypeScript into JavaScript, [`modules`] resolves every
//! import (pi's virtual modules, Node built-ins, files), the isolate's
//! JavaScript (`js/`) gives extensions pi's API, and [`engine`] reports what
//! loaded as plain serde types ([`report`]).
//!
//! An embedder holds a [`Pihost`] handle (Send + Clone; the isolate runs on
//! its own thread) and gives it a [`host::Host`]. The whole life cycle:
//!
//! ```
//! use std::sync::Arc;
//! use pihost::events::ToolCallEvent;
//! use pihost::host::{HostRequest, HostState, RecordingHost, RecordedCall};
//! use pihost::{EngineOptions, Pihost};
//! use serde_json::json;
//!
//! # let project = tempfile::tempdir().unwrap();
//! # std::fs::write(project.path().join("guard.ts"), r#"
//! #   export default function (pi) {
//! #     pi.on("tool_call", async (event) =>
//! #       event.input.command.includes("rm -rf") ? { block: true, reason: "not here" } : undefined);
//! #     pi.registerCommand("hello", { handler: async (args, ctx) => ctx.ui.confirm("Say hello?", args) });
//! #   }"#).unwrap();
//! # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! # runtime.block_on(async {
//! // 1. Start an engine for a project directory.
//! let pihost = Pihost::start(EngineOptions::for_cwd(project.path())).await?;
//!
//! // 2. Load: <cwd>/.pi/extensions, the agent dir, then these paths (as `pi -e`).
//! let report = pihost.load(&["guard.ts".to_string()]).await?;
//! assert!(report.errors.is_empty());
//!
//! // 3. Bind your host: it receives actions and answers what extensions ask.
//! let host = Arc::new(RecordingHost::new());
//! host.answer("ui.confirm", json!(true));
//! let state = HostState { has_ui: Some(true), ..HostState::default() };
//! pihost.bind(host.clone(), &state).await?;
//!
//! // 4. Dispatch events with pi's merge rules; run tools and commands.
//! let call = ToolCallEvent {
//!     tool_name: "bash".into(),
//!     tool_call_id: "1".into(),
//!     input: json!({ "command": "rm -rf /" }),
//!     ..Default::default()
//! };
//! let decision = pihost.emit_tool_call(&call).await?.expect("a decision");
//! assert_eq!(decision.block, Some(true));
//! assert_eq!(pihost.run_command("hello", "world").await?, Some(json!(true)));
//! assert!(matches!(&host.calls()[0], RecordedCall::Request(HostRequest::UiConfirm { .. })));
//!
//! // 5. Reload when extensions change (H1), and stop.
//! pihost.reload(&["guard.ts".to_string()]).await?;
//! pihost.shutdown().await?;
//! # Ok::<(), pihost::PihostError>(())
//! # }).unwrap();
//! ```

pub mod cache_folder;
pub mod compat;
pub mod confine;
pub mod discovery;
pub(crate) mod embedded;
pub mod engine;
pub mod engine_cache;
pub mod error;
pub mod events;
pub(crate) mod freed_memory;
pub(crate) mod function_modules;
pub mod handle;
pub mod host;
pub(crate) mod isolate_json;
pub mod limits;
pub mod mcp;
pub(crate) mod modules;
pub(crate) mod ops;
pub mod permissions;
pub(crate) mod platform;
pub mod prepare;
pub mod protocol;
pub mod report;
pub mod serve;
pub mod session;
pub(crate) mod stack_traces;
pub mod startup_snapshot;
mod stdio;
pub mod transpile;
pub mod ui;

pub use engine::{Engine, EngineOptions, PermissionHost};
pub use error::PihostError;
pub use handle::Pihost;
pub use limits::Limits;
pub use permissions::Permissions;
pub use report::{ExtensionReport, InspectReport, LoadError};
pub use session::SessionId;
pub use stdio::route_extension_stdout_to_stderr;
