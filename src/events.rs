//! Typed events and merged results for the event families whose dispatch
//! has its own rule (E3–E11), mirroring pi's JSON. Every struct keeps the
//! fields it does not name in `extra`, so a field pi adds tomorrow passes
//! through untouched. Events of any other type go through
//! [`crate::Pihost::emit`] as JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `tool_call`: an extension may block the call (E3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallEvent {
    pub tool_name: String,
    pub tool_call_id: String,
    #[serde(default)]
    pub input: Value,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `tool_result`: content, details, structured content, error flag and usage chain (E4).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultEvent {
    pub tool_name: String,
    pub tool_call_id: String,
    #[serde(default)]
    pub input: Value,
    #[serde(default)]
    pub content: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    #[serde(default)]
    pub is_error: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What handlers changed in a tool result; `None` from the dispatch means nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultPatch {
    #[serde(default)]
    pub content: Option<Vec<Value>>,
    #[serde(default)]
    pub details: Option<Value>,
    #[serde(default)]
    pub structured_content: Option<Value>,
    #[serde(default)]
    pub is_error: Option<bool>,
    #[serde(default)]
    pub usage: Option<Value>,
}

/// `input`: the user's text before the agent sees it (E5).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputEvent {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming_behavior: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum InputResult {
    Continue,
    Transform {
        text: String,
        #[serde(default)]
        images: Option<Vec<Value>>,
    },
    Handled {
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
}

/// Paths an extension contributed in `resources_discover` (E11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcePath {
    pub path: String,
    pub extension_path: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveredResources {
    pub skill_paths: Vec<ResourcePath>,
    pub prompt_paths: Vec<ResourcePath>,
    pub theme_paths: Vec<ResourcePath>,
}

/// `project_trust`: the first yes/no answer, and the errors of handlers that threw (E9).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectTrustOutcome {
    #[serde(default)]
    pub result: Option<Value>,
    #[serde(default)]
    pub errors: Vec<crate::host::ExtensionError>,
}

/// `turn_end` / `agent_before_settle`: the entries and continue flag handlers
/// built, validated by the host after each handler (E10).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoundaryResult {
    pub entries: Vec<Value>,
    #[serde(rename = "continue")]
    pub continue_: bool,
    #[serde(default)]
    pub context: Value,
    pub valid: bool,
}

/// `before_agent_start`: collected messages and the prompt options after
/// every handler's `systemPrompt` override (E11).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BeforeAgentStartResult {
    pub messages: Vec<Value>,
    pub system_prompt_options: Value,
}

/// Provider request headers, edited in place by handlers (E8).
pub type Headers = BTreeMap<String, String>;
