//! What an embedder gives pihost: a [`Host`] that receives the actions
//! extensions take and answers the questions they ask, plus the
//! [`HostState`] their synchronous getters read (`ctx.model`,
//! `pi.getActiveTools()`).
//!
//! Three kinds of calls cross from extensions to the host:
//! - [`HostNotification`]s: fire-and-forget actions and UI updates
//!   (`sendMessage`, `setActiveTools`, `ui.notify`, …);
//! - [`HostRequest`]s: calls an extension awaits (`ui.confirm`, `setModel`,
//!   `newSession`, nested `executeTool`, …); the isolate keeps running while
//!   the host answers;
//! - [`ProviderChange`]s: provider and virtual-model registrations, which pi
//!   applies synchronously and whose failures it reports as extension errors.
//!
//! Every method has a default that behaves like headless pi (R4): a host that
//! implements nothing gets `confirm → false`, `select/input → undefined`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Fire-and-forget calls from extensions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "method")]
pub enum HostNotification {
    #[serde(rename = "sendMessage")]
    SendMessage {
        message: Value,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "sendUserMessage")]
    SendUserMessage {
        content: Value,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "appendEntry", rename_all = "camelCase")]
    AppendEntry {
        custom_type: String,
        #[serde(default)]
        data: Option<Value>,
    },
    #[serde(rename = "setSessionName")]
    SetSessionName { name: String },
    #[serde(rename = "setLabel", rename_all = "camelCase")]
    SetLabel {
        entry_id: String,
        #[serde(default)]
        label: Option<String>,
    },
    #[serde(rename = "setActiveTools", rename_all = "camelCase")]
    SetActiveTools { tool_names: Vec<String> },
    #[serde(rename = "refreshTools")]
    RefreshTools,
    #[serde(rename = "setThinkingLevel")]
    SetThinkingLevel { level: String },
    #[serde(rename = "abort")]
    Abort,
    #[serde(rename = "shutdown")]
    Shutdown,
    #[serde(rename = "compact")]
    Compact {
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "ui.notify")]
    UiNotify {
        message: String,
        #[serde(default, rename = "type")]
        kind: Option<String>,
    },
    #[serde(rename = "ui.setStatus")]
    UiSetStatus {
        key: String,
        #[serde(default)]
        text: Option<String>,
    },
    #[serde(rename = "ui.setWidget")]
    UiSetWidget {
        key: String,
        #[serde(default)]
        content: Option<Value>,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "ui.setTitle")]
    UiSetTitle { title: String },
    #[serde(rename = "ui.setEditorText")]
    UiSetEditorText { text: String },
    #[serde(rename = "ui.pasteToEditor")]
    UiPasteToEditor { text: String },
    #[serde(rename = "ui.setWorkingMessage")]
    UiSetWorkingMessage {
        #[serde(default)]
        message: Option<String>,
    },
    #[serde(rename = "ui.setWorkingVisible")]
    UiSetWorkingVisible { visible: bool },
    #[serde(rename = "ui.setWorkingIndicator")]
    UiSetWorkingIndicator {
        #[serde(default)]
        indicator: Option<Value>,
    },
    #[serde(rename = "ui.setHiddenThinkingLabel")]
    UiSetHiddenThinkingLabel {
        #[serde(default)]
        label: Option<String>,
    },
    #[serde(rename = "ui.setFooter")]
    UiSetFooter,
    #[serde(rename = "ui.setHeader")]
    UiSetHeader,
    #[serde(rename = "ui.setToolsExpanded")]
    UiSetToolsExpanded { expanded: bool },
}

/// Calls whose answer an extension awaits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "method")]
pub enum HostRequest {
    /// Answer `true` when the model was set (pi's `setModel` resolves a boolean).
    #[serde(rename = "setModel")]
    SetModel { model: Value },
    /// Answer the chosen option, or null.
    #[serde(rename = "ui.select")]
    UiSelect {
        title: String,
        options: Vec<Value>,
        #[serde(default)]
        opts: Option<Value>,
    },
    /// Answer `true` or `false`.
    #[serde(rename = "ui.confirm")]
    UiConfirm {
        title: String,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        opts: Option<Value>,
    },
    /// Answer the text, or null.
    #[serde(rename = "ui.input")]
    UiInput {
        title: String,
        #[serde(default)]
        placeholder: Option<String>,
        #[serde(default)]
        opts: Option<Value>,
    },
    /// A custom UI component; only its options cross (the component factory
    /// stays in JS). Answer what the component would resolve to, or null.
    #[serde(rename = "ui.custom")]
    UiCustom {
        #[serde(default)]
        options: Option<Value>,
    },
    /// Answer the edited text, or null.
    #[serde(rename = "ui.editor")]
    UiEditor {
        title: String,
        #[serde(default)]
        prefill: Option<String>,
    },
    /// A nested tool call from a tool's `ctx.executeTool` (R5).
    #[serde(rename = "executeTool", rename_all = "camelCase")]
    ExecuteTool {
        tool_call_id: String,
        name: String,
        #[serde(default)]
        args: Value,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "waitForIdle")]
    WaitForIdle,
    /// Answer `{ "cancelled": bool }`.
    #[serde(rename = "newSession")]
    NewSession {
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "fork", rename_all = "camelCase")]
    Fork {
        entry_id: String,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "navigateTree", rename_all = "camelCase")]
    NavigateTree {
        target_id: String,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "switchSession", rename_all = "camelCase")]
    SwitchSession {
        session_path: String,
        #[serde(default)]
        options: Option<Value>,
    },
    #[serde(rename = "reload")]
    Reload,
    /// Validate the draft entries of a turn_end / agent_before_settle boundary
    /// (E10) and answer the context handlers see next; a [`HostError`] marks
    /// the draft invalid (`Invalid boundary entries: <message>`).
    #[serde(rename = "buildBoundaryContext", rename_all = "camelCase")]
    BuildBoundaryContext { event_type: String, entries: Vec<Value> },
}

impl HostRequest {
    /// What headless pi answers (R4 and the runner's defaults).
    pub fn headless_answer(&self) -> Value {
        match self {
            HostRequest::SetModel { .. } => Value::Bool(false),
            HostRequest::UiConfirm { .. } => Value::Bool(false),
            HostRequest::UiSelect { .. }
            | HostRequest::UiInput { .. }
            | HostRequest::UiCustom { .. }
            | HostRequest::UiEditor { .. }
            | HostRequest::WaitForIdle
            | HostRequest::Reload => Value::Null,
            HostRequest::BuildBoundaryContext { .. } => serde_json::json!({}),
            HostRequest::ExecuteTool { name, .. } => serde_json::json!({
                "isError": true,
                "result": {
                    "content": [{ "type": "text", "text": format!("The host cannot execute tool {name}") }],
                    "details": {}
                }
            }),
            HostRequest::NewSession { .. }
            | HostRequest::Fork { .. }
            | HostRequest::NavigateTree { .. }
            | HostRequest::SwitchSession { .. } => serde_json::json!({ "cancelled": false }),
        }
    }
}

/// Provider and virtual-model registrations after binding (A7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "method")]
pub enum ProviderChange {
    #[serde(rename = "registerProvider")]
    RegisterProvider { name: String, config: Value },
    /// A provider object; only its id crosses (its functions stay in JS).
    #[serde(rename = "registerNativeProvider")]
    RegisterNativeProvider {
        #[serde(default)]
        id: Option<String>,
    },
    #[serde(rename = "unregisterProvider")]
    UnregisterProvider { name: String },
    #[serde(rename = "registerVirtualModel")]
    RegisterVirtualModel { definition: Value },
    #[serde(rename = "unregisterVirtualModel")]
    UnregisterVirtualModel { provider: String, id: String },
}

/// A host's refusal or failure; extensions see it as a rejected promise or a
/// thrown error with this message.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct HostError(pub String);

pub type HostFuture = Pin<Box<dyn Future<Output = Result<Value, HostError>> + Send>>;

/// The embedder's side of pihost. Implement what your agent supports; the
/// rest behaves like headless pi.
pub trait Host: Send + Sync + 'static {
    fn notify(&self, notification: HostNotification) {
        let _ = notification;
    }

    fn request(&self, request: HostRequest) -> HostFuture {
        let answer = request.headless_answer();
        Box::pin(async move { Ok(answer) })
    }

    fn provider(&self, change: ProviderChange) -> Result<(), HostError> {
        let _ = change;
        Ok(())
    }
}

/// A host that implements nothing: headless pi.
pub struct HeadlessHost;

impl Host for HeadlessHost {}

/// What the synchronous getters of `pi` and `ctx` read. Send it with
/// `bind`, and again whenever it changes; fields left out keep their value.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HostState {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scoped_models: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_tools: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_tools: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settings: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commands: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_idle: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_trusted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_messages: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_usage: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt_options: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callable_tools: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editor_text: Option<String>,
    /// Whether the host shows a UI (`ctx.hasUI`); without one, the no-op UI of R4.
    #[serde(rename = "hasUI", skip_serializing_if = "Option::is_none")]
    pub has_ui: Option<bool>,
    /// What `ctx.ui.setTheme` answers (it is synchronous in pi); default
    /// `{ success: false, error: "UI not available" }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_theme_result: Option<Value>,
    /// Whether nested `ctx.executeTool` reaches the host (R5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_execute_tools: Option<bool>,
}

/// One call as a [`RecordingHost`] saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum RecordedCall {
    Notification(HostNotification),
    Request(HostRequest),
    Provider(ProviderChange),
}

/// A host that records every call and answers requests from a table of
/// canned answers (by method name, e.g. "ui.confirm" → true); for tests, the
/// CLI and examples.
#[derive(Default)]
pub struct RecordingHost {
    calls: Mutex<Vec<RecordedCall>>,
    answers: Mutex<std::collections::HashMap<String, Value>>,
}

fn method_name<T: Serialize>(call: &T) -> String {
    serde_json::to_value(call)
        .ok()
        .and_then(|value| value.get("method").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_default()
}

impl RecordingHost {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers requests of `method` with `answer` from now on.
    pub fn answer(&self, method: &str, answer: Value) {
        if let Ok(mut answers) = self.answers.lock() {
            answers.insert(method.to_string(), answer);
        }
    }

    /// Every call so far, in order.
    pub fn calls(&self) -> Vec<RecordedCall> {
        self.calls.lock().map(|calls| calls.clone()).unwrap_or_default()
    }

    fn record(&self, call: RecordedCall) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push(call);
        }
    }
}

impl Host for RecordingHost {
    fn notify(&self, notification: HostNotification) {
        self.record(RecordedCall::Notification(notification));
    }

    fn request(&self, request: HostRequest) -> HostFuture {
        let answer = self
            .answers
            .lock()
            .ok()
            .and_then(|answers| answers.get(&method_name(&request)).cloned())
            .unwrap_or_else(|| request.headless_answer());
        self.record(RecordedCall::Request(request));
        Box::pin(async move { Ok(answer) })
    }

    fn provider(&self, change: ProviderChange) -> Result<(), HostError> {
        self.record(RecordedCall::Provider(change));
        Ok(())
    }
}

/// An error an extension caused after loading (a throwing handler, an invalid
/// result, a refused provider), as pi's runner reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionError {
    pub extension_path: String,
    pub event: String,
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
}
