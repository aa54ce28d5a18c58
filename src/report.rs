//! What a load produced, as serde types: the registrations of each extension,
//! the load errors and the shared runtime's queues. Field names follow pi's
//! own (camelCase in JSON); `pihost inspect --json` prints this.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InspectReport {
    pub cwd: PathBuf,
    pub agent_dir: PathBuf,
    pub extensions: Vec<ExtensionReport>,
    pub errors: Vec<LoadError>,
    /// Flag values after load: the first registered default of each flag (A9).
    pub flag_values: BTreeMap<String, serde_json::Value>,
    /// Providers registered during load, waiting for a host to bind (A7).
    pub pending_providers: Vec<PendingProvider>,
    /// Wall time in milliseconds of the call that produced the report: the
    /// load alone (`Engine::load`), discovery plus load (`Engine::inspect`),
    /// or runtime creation, discovery and load (`inspect_blocking`, the CLI).
    pub total_load_ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionReport {
    /// The path as discovered or as the user wrote it (D6).
    pub path: String,
    pub resolved_path: PathBuf,
    pub load_time_ms: f64,
    pub tools: Vec<ToolReport>,
    pub commands: Vec<CommandReport>,
    pub flags: Vec<FlagReport>,
    pub shortcuts: Vec<ShortcutReport>,
    pub message_renderers: Vec<String>,
    pub entry_renderers: Vec<String>,
    pub tool_renderers: usize,
    pub markdown_transformer: bool,
    /// Number of handlers per event name, sorted by name.
    pub handlers: BTreeMap<String, usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolReport {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The parameter JSON Schema as JSON (TypeBox's symbol-keyed marks do not cross).
    pub parameters: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct CommandReport {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct FlagReport {
    pub name: String,
    #[serde(rename = "type")]
    pub flag_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct ShortcutReport {
    pub shortcut: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadError {
    /// The path as the user wrote it (D6, L4).
    pub path: String,
    /// pi's text: `Failed to load extension: …` or `Extension does not export a valid factory function: …`.
    pub error: String,
    /// The stack, mapped to the original `.ts` lines, when the error had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_time_ms: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingProvider {
    #[serde(default)]
    pub name: Option<String>,
    pub extension_path: String,
}

/// The part of a load that JS reports; the engine adds the rest.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JsLoadReport {
    pub extensions: Vec<ExtensionReport>,
    pub errors: Vec<LoadError>,
    pub flag_values: BTreeMap<String, serde_json::Value>,
    pub pending_providers: Vec<PendingProvider>,
}

impl JsLoadReport {
    /// The full report: what JS said plus the engine's options and the wall time.
    pub(crate) fn into_report(
        self,
        options: &crate::engine::EngineOptions,
        elapsed: std::time::Duration,
    ) -> InspectReport {
        InspectReport {
            cwd: options.cwd.clone(),
            agent_dir: options.agent_dir.clone(),
            extensions: self.extensions,
            errors: self.errors,
            flag_values: self.flag_values,
            pending_providers: self.pending_providers,
            total_load_ms: elapsed.as_secs_f64() * 1000.0,
        }
    }
}
