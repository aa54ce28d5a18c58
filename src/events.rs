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
    /// The tool the model called: a built-in (`bash`, `read`, `edit`, …) or
    /// an extension's tool.
    pub tool_name: String,
    /// The call's id; `<parent id>/<n>` for a call another tool made.
    pub tool_call_id: String,
    /// The call's arguments, as the model gave them.
    #[serde(default)]
    pub input: Value,
    /// Fields not named here (`parentToolCallId`, anything pi adds later), passed through.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The merged `tool_call` result: the first handler result that blocks, else
/// the last one a handler returned (E3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallResult {
    /// Whether to block the call: the tool does not run, and the model gets
    /// an error result instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<bool>,
    /// The text of that error result; pi's default is `Tool execution was blocked`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Fields not named here, passed through: `terminate` (stop after this
    /// tool batch when every result in it asks to), anything pi adds later.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `tool_result`: content, details, structured content, error flag and usage chain (E4).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultEvent {
    /// The tool that ran.
    pub tool_name: String,
    /// The call's id; `<parent id>/<n>` for a call another tool made.
    pub tool_call_id: String,
    /// The arguments the tool ran with.
    #[serde(default)]
    pub input: Value,
    /// What the model will see: text and image content parts.
    #[serde(default)]
    pub content: Vec<Value>,
    /// The tool's own data for renderers and extensions (not sent to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// The machine-readable result of a tool that declares an `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default)]
    pub is_error: bool,
    /// Fields not named here (`usage`, `parentToolCallId`, anything pi adds
    /// later), passed through.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What handlers changed in a tool result; `None` from the dispatch means nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultPatch {
    /// The content after every handler's changes.
    #[serde(default)]
    pub content: Option<Vec<Value>>,
    /// The details after every handler's changes.
    #[serde(default)]
    pub details: Option<Value>,
    /// The structured content after every handler's changes; `None` when a
    /// handler replaced `content` without returning structured content too
    /// (it may no longer match, so pi drops it).
    #[serde(default)]
    pub structured_content: Option<Value>,
    /// The error flag after every handler's changes.
    #[serde(default)]
    pub is_error: Option<bool>,
    /// The usage of the tool execution, as handlers left it.
    #[serde(default)]
    pub usage: Option<Value>,
}

/// `input`: the user's text before the agent sees it (E5).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputEvent {
    /// The text the user entered.
    pub text: String,
    /// Images attached to it, as image content parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images: Option<Vec<Value>>,
    /// Where the input came from: `interactive`, `rpc` or `extension`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// How the input is delivered while the agent streams (`steer` or
    /// `followUp`); `None` when the agent is idle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming_behavior: Option<String>,
}

/// The merged `input` result (E5): transforms chain, and the first `handled`
/// ends the dispatch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum InputResult {
    /// Go on with the input unchanged.
    Continue,
    /// Go on with this text and these images instead.
    Transform {
        /// The text after every transform.
        text: String,
        /// The images after every transform.
        #[serde(default)]
        images: Option<Vec<Value>>,
    },
    /// An extension dealt with the input: the agent does not see it.
    Handled {
        /// Whatever else the handler's result held, passed through.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
}

/// Paths an extension contributed in `resources_discover` (E11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcePath {
    /// The path as the handler returned it.
    pub path: String,
    /// The extension that contributed it (its `Extension.path`).
    pub extension_path: String,
}

/// The merged `resources_discover` result (E11): every handler's paths, in
/// extension and handler order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveredResources {
    /// Skill files or directories to load.
    pub skill_paths: Vec<ResourcePath>,
    /// Prompt template files or directories to load.
    pub prompt_paths: Vec<ResourcePath>,
    /// Theme files or directories to load.
    pub theme_paths: Vec<ResourcePath>,
}

/// `project_trust`: the first yes/no answer, and the errors of handlers that threw (E9).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectTrustOutcome {
    /// The first answer that is not `undecided`: `{ trusted: "yes" | "no",
    /// remember? }`; `None` when every handler was undecided or threw.
    #[serde(default)]
    pub result: Option<Value>,
    /// The errors of the handlers that threw before that answer.
    #[serde(default)]
    pub errors: Vec<crate::host::ExtensionError>,
}

/// `turn_end` / `agent_before_settle`: the entries and continue flag handlers
/// built, validated by the host after each handler (E10).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoundaryResult {
    /// The entry drafts to append to the session; empty when the last
    /// validation failed.
    pub entries: Vec<Value>,
    /// Whether the agent must make one more provider request (JSON `continue`);
    /// false when the last validation failed.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// The context the host built for the last draft (the answer to
    /// `HostRequest::BuildBoundaryContext`).
    #[serde(default)]
    pub context: Value,
    /// Whether the host accepted the final draft.
    pub valid: bool,
}

/// `before_agent_start`: collected messages and the prompt options after
/// every handler's `systemPrompt` override (E11).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BeforeAgentStartResult {
    /// The custom messages handlers returned (`customType`, `content`,
    /// `display`, `details`), in order, to add before the run.
    pub messages: Vec<Value>,
    /// The system prompt options after every handler; a `systemPrompt`
    /// override is in `forceSystemPrompt`, the last one winning.
    pub system_prompt_options: Value,
}

/// Provider request headers, edited in place by handlers (E8).
pub type Headers = BTreeMap<String, String>;
