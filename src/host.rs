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
    /// `pi.sendMessage(message, options)`: add a custom message to the
    /// session, and start a turn if the options ask for one.
    #[serde(rename = "sendMessage")]
    SendMessage {
        /// The message: `customType`, `content`, `display` and `details`.
        message: Value,
        /// `triggerTurn` (start a turn when idle) and `deliverAs` (`steer`,
        /// `followUp` or `nextTurn` while the agent streams).
        #[serde(default)]
        options: Option<Value>,
    },
    /// `pi.sendUserMessage(content, options)`: send a user message to the
    /// agent; it always triggers a turn.
    #[serde(rename = "sendUserMessage")]
    SendUserMessage {
        /// A string, or an array of text and image content parts.
        content: Value,
        /// `deliverAs` (`steer` or `followUp` while the agent streams) and
        /// `expandPromptTemplates` (run commands and expand prompt templates
        /// and skills in the text first).
        #[serde(default)]
        options: Option<Value>,
    },
    /// `pi.appendEntry(customType, data)`: persist a custom entry in the
    /// session; it is state for the extension, never sent to the model.
    #[serde(rename = "appendEntry", rename_all = "camelCase")]
    AppendEntry {
        /// The kind of entry, by which the extension finds it again.
        custom_type: String,
        /// The state to store.
        #[serde(default)]
        data: Option<Value>,
        /// The entry as pihost added it to `ctx.sessionManager` (pi's
        /// `custom` session entry: `type`, `customType`, `data`, `id`,
        /// `parentId` (the leaf it was appended to), `timestamp`): keep it as
        /// it is, so the extension finds the same entry after the host sends
        /// [`HostState::session`] again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entry: Option<Value>,
    },
    /// `pi.setSessionName(name)`: the session's display name; already applied
    /// to [`HostState::session_name`].
    #[serde(rename = "setSessionName")]
    SetSessionName {
        /// The new name, as the session selector shows it.
        name: String,
    },
    /// `pi.setLabel(entryId, label)`: set or clear the bookmark label of a
    /// session entry.
    #[serde(rename = "setLabel", rename_all = "camelCase")]
    SetLabel {
        /// The id of the session entry to label.
        entry_id: String,
        /// The label; `None` clears it.
        #[serde(default)]
        label: Option<String>,
    },
    /// `pi.setActiveTools(toolNames)`: the tools declared to the model from
    /// now on (pi ignores unknown and hidden names); already applied to
    /// [`HostState::active_tools`].
    #[serde(rename = "setActiveTools", rename_all = "camelCase")]
    SetActiveTools {
        /// Names of the tools to activate; every other tool becomes inactive.
        tool_names: Vec<String>,
    },
    /// An extension registered a tool after binding (`pi.registerTool`):
    /// re-read the tool list (`Pihost::registrations`) and refresh the tools
    /// the model sees.
    #[serde(rename = "refreshTools")]
    RefreshTools,
    /// `pi.setThinkingLevel(level)`: the session's thinking level, to clamp to
    /// what the model supports; already applied to [`HostState::thinking_level`].
    #[serde(rename = "setThinkingLevel")]
    SetThinkingLevel {
        /// `off`, `minimal`, `low`, `medium`, `high`, `xhigh` or `max`.
        level: String,
    },
    /// `ctx.abort()`: abort the current agent operation.
    #[serde(rename = "abort")]
    Abort,
    /// `ctx.shutdown()`: shut the agent down gracefully and exit.
    #[serde(rename = "shutdown")]
    Shutdown,
    /// `ctx.compact(options)`: start compacting the context, without the
    /// extension waiting for it.
    #[serde(rename = "compact")]
    Compact {
        /// `customInstructions` for the summary; the `onComplete` and
        /// `onError` callbacks stay in JS.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.ui.notify(message, type)`: show the user a notification.
    #[serde(rename = "ui.notify")]
    UiNotify {
        /// The text to show.
        message: String,
        /// `info`, `warning` or `error` (JSON `type`), when the extension gave one.
        #[serde(default, rename = "type")]
        kind: Option<String>,
    },
    /// `ctx.ui.setStatus(key, text)`: set or clear a status text in the footer.
    #[serde(rename = "ui.setStatus")]
    UiSetStatus {
        /// Which status entry; each extension keeps its own under its keys.
        key: String,
        /// The text; `None` clears the entry.
        #[serde(default)]
        text: Option<String>,
    },
    /// `ctx.ui.setWidget(key, content, options)`: show, replace or remove a
    /// widget above or below the editor.
    #[serde(rename = "ui.setWidget")]
    UiSetWidget {
        /// Which widget; setting the same key again replaces it.
        key: String,
        /// The widget's lines (an array of strings); `None` removes it. A
        /// component factory cannot cross and also arrives as `None`.
        #[serde(default)]
        content: Option<Value>,
        /// `placement`: `aboveEditor` (pi's default) or `belowEditor`.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.ui.setTitle(title)`: the terminal window or tab title.
    #[serde(rename = "ui.setTitle")]
    UiSetTitle {
        /// The new title.
        title: String,
    },
    /// `ctx.ui.setEditorText(text)`: replace the text of the input editor;
    /// already applied to [`HostState::editor_text`].
    #[serde(rename = "ui.setEditorText")]
    UiSetEditorText {
        /// The editor's new content.
        text: String,
    },
    /// The user submitted `text` in the extension's editor component
    /// (`ctx.ui.setEditorComponent`, on pihost's screen): what pi's editor
    /// hands on when Enter is pressed, already trimmed, never blank. pi
    /// prompts with it (slash commands, `!` bash, otherwise a user prompt
    /// that goes through the `input` event first); the editor is empty again.
    #[serde(rename = "ui.editorSubmit")]
    UiEditorSubmit {
        /// The submitted text, pasted blocks expanded.
        text: String,
    },
    /// `ctx.ui.pasteToEditor(text)`: paste into the input editor, with paste
    /// handling (pi collapses large pastes).
    #[serde(rename = "ui.pasteToEditor")]
    UiPasteToEditor {
        /// The pasted text.
        text: String,
    },
    /// `ctx.ui.setWorkingMessage(message)`: the message shown while the agent streams.
    #[serde(rename = "ui.setWorkingMessage")]
    UiSetWorkingMessage {
        /// The message; `None` restores the default.
        #[serde(default)]
        message: Option<String>,
    },
    /// `ctx.ui.setWorkingVisible(visible)`: show or hide the working loader
    /// row while the agent streams.
    #[serde(rename = "ui.setWorkingVisible")]
    UiSetWorkingVisible {
        /// Whether the loader row is shown.
        visible: bool,
    },
    /// `ctx.ui.setWorkingIndicator(options)`: the animation of the working indicator.
    #[serde(rename = "ui.setWorkingIndicator")]
    UiSetWorkingIndicator {
        /// `frames` (an empty array hides the indicator) and `intervalMs`;
        /// `None` restores the default spinner.
        #[serde(default)]
        indicator: Option<Value>,
    },
    /// `ctx.ui.setHiddenThinkingLabel(label)`: the label shown for hidden
    /// thinking blocks.
    #[serde(rename = "ui.setHiddenThinkingLabel")]
    UiSetHiddenThinkingLabel {
        /// The label; `None` restores the default.
        #[serde(default)]
        label: Option<String>,
    },
    /// `ctx.ui.setFooter(factory)`: the extension set or cleared a custom
    /// footer; the component factory stays in JS, only the call crosses.
    #[serde(rename = "ui.setFooter")]
    UiSetFooter,
    /// `ctx.ui.setHeader(factory)`: the extension set or cleared a custom
    /// header; the component factory stays in JS, only the call crosses.
    #[serde(rename = "ui.setHeader")]
    UiSetHeader,
    /// `ctx.ui.setToolsExpanded(expanded)`: expand or collapse tool output;
    /// `ctx.ui.getToolsExpanded()` already reads the new value.
    #[serde(rename = "ui.setToolsExpanded")]
    UiSetToolsExpanded {
        /// Whether tool output is shown expanded.
        expanded: bool,
    },
    /// What an extension component on pihost's screen drew, sent only when
    /// the screen pushes its frames (`FrameDelivery::Push`; over serve, a
    /// declared `capabilities.ui`): its id, extension, kind and lines, ANSI
    /// styling kept. A component's first frame says it opened; a `closed`
    /// one, that it is gone. A `ctx.ui.custom` component takes keys through
    /// `Pihost::send_key_to` (serve: `ui/input`).
    #[serde(rename = "ui.frame")]
    UiFrame(crate::ui::Frame),
    /// The audit stream of a session that restricts anything: how a touch
    /// was decided. Always: every refusal (by a `deny*` list, because the
    /// session does not prompt, or by the host) and every answer of the
    /// host to `permission.request`; with `Permissions::audit` `all`, every
    /// touch a grant (or the host's earlier answer) allowed too.
    #[serde(rename = "permission.decision", rename_all = "camelCase")]
    PermissionDecision {
        /// The path of the extension whose code asked, when pihost can tell.
        extension: Option<String>,
        /// Deno's permission name: `read`, `write`, `run`, `net`, `env` or
        /// `sys` (not `kind`, which the CLI's `hostCalls` use for the call's kind).
        permission: String,
        /// What was touched, as in `permission.request`.
        target: String,
        /// `allowedOnce`, `allowedAlways`, `granted` or `denied`.
        outcome: PermissionOutcome,
        /// `grant`, `denyList`, `systemFile`, `host`, `noPrompt`, `timeout` or `hostError`.
        decided_by: DecidedBy,
    },
}

/// Calls whose answer an extension awaits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "method")]
pub enum HostRequest {
    /// `pi.setModel(model)`: switch the session's model.
    /// Answer `true` when the model was set (pi's `setModel` resolves a boolean).
    #[serde(rename = "setModel")]
    SetModel {
        /// The model to switch to, as pi's `Model` object (`provider`, `id`, …).
        model: Value,
    },
    /// `ctx.ui.select(title, options, opts)`: let the user pick one option.
    /// Answer the chosen option, or null.
    #[serde(rename = "ui.select")]
    UiSelect {
        /// The question shown above the options.
        title: String,
        /// The choices (strings in pi).
        options: Vec<Value>,
        /// Dialog options: `timeout` in milliseconds, after which the dialog
        /// dismisses itself (the `signal` stays in JS).
        #[serde(default)]
        opts: Option<Value>,
    },
    /// `ctx.ui.confirm(title, message, opts)`: a yes/no question.
    /// Answer `true` or `false`.
    #[serde(rename = "ui.confirm")]
    UiConfirm {
        /// The question.
        title: String,
        /// The text under the question.
        #[serde(default)]
        message: Option<String>,
        /// Dialog options: `timeout` in milliseconds, after which the dialog
        /// dismisses itself (the `signal` stays in JS).
        #[serde(default)]
        opts: Option<Value>,
    },
    /// `ctx.ui.input(title, placeholder, opts)`: ask for a line of text.
    /// Answer the text, or null.
    #[serde(rename = "ui.input")]
    UiInput {
        /// The prompt shown above the field.
        title: String,
        /// The hint shown in the empty field.
        #[serde(default)]
        placeholder: Option<String>,
        /// Dialog options: `timeout` in milliseconds, after which the dialog
        /// dismisses itself (the `signal` stays in JS).
        #[serde(default)]
        opts: Option<Value>,
    },
    /// `ctx.ui.custom(factory, options)`: a custom UI component; only its
    /// options cross (the component factory stays in JS). Answer what the
    /// component would resolve to, or null.
    #[serde(rename = "ui.custom")]
    UiCustom {
        /// `overlay`, `overlayOptions` and `blocked`, without the functions
        /// (`onHandle`, an `overlayOptions` callback).
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.ui.editor(title, prefill)`: a multi-line text editor.
    /// Answer the edited text, or null.
    #[serde(rename = "ui.editor")]
    UiEditor {
        /// The editor's title.
        title: String,
        /// The text the editor starts with.
        #[serde(default)]
        prefill: Option<String>,
    },
    /// A nested tool call from a tool's `ctx.executeTool` (R5).
    /// Sent only when [`HostState::can_execute_tools`] is true. Answer pi's
    /// `AgentToolCallOutcome` (`{ "isError": bool, "result": { "content", "details" } }`):
    /// failures (an unknown tool, invalid arguments, a blocked call) are
    /// outcomes with `isError`, not errors.
    #[serde(rename = "executeTool", rename_all = "camelCase")]
    ExecuteTool {
        /// The id of the calling tool's call; pi names the nested call
        /// `<this id>/<n>` and sets it as `parentToolCallId` in its events.
        tool_call_id: String,
        /// The tool to run.
        name: String,
        /// Its arguments, not yet validated.
        #[serde(default)]
        args: Value,
        /// The extension's `ExecuteToolOptions` without `signal` and
        /// `onUpdate`, which cannot cross.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.waitForIdle()` in a command: answer (null) once the agent has
    /// finished streaming.
    #[serde(rename = "waitForIdle")]
    WaitForIdle,
    /// `ctx.newSession(options)` in a command: start a new session.
    /// Answer `{ "cancelled": bool }`.
    #[serde(rename = "newSession")]
    NewSession {
        /// `parentSession`; the `setup` and `withSession` callbacks stay in JS.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.fork(entryId, options)` in a command: fork a new session file from
    /// an entry. Answer `{ "cancelled": bool }`.
    #[serde(rename = "fork", rename_all = "camelCase")]
    Fork {
        /// The entry to fork from.
        entry_id: String,
        /// `position`: fork `before` the entry or `at` it; the `withSession`
        /// callback stays in JS.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.navigateTree(targetId, options)` in a command: move to another
    /// point of the session tree. Answer `{ "cancelled": bool }`.
    #[serde(rename = "navigateTree", rename_all = "camelCase")]
    NavigateTree {
        /// The entry to move to.
        target_id: String,
        /// `summarize` (the branch left behind), `customInstructions`,
        /// `replaceInstructions` and `label`.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.switchSession(sessionPath, options)` in a command: open another
    /// session file. Answer `{ "cancelled": bool }`.
    #[serde(rename = "switchSession", rename_all = "camelCase")]
    SwitchSession {
        /// The session file to open.
        session_path: String,
        /// The options as the extension gave them; pi's only one, the
        /// `withSession` callback, stays in JS.
        #[serde(default)]
        options: Option<Value>,
    },
    /// `ctx.reload()` in a command: reload extensions, skills, prompts, themes
    /// and context files (for the extensions, `Pihost::reload`); answer (null)
    /// when done.
    #[serde(rename = "reload")]
    Reload,
    /// Validate the draft entries of a turn_end / agent_before_settle boundary
    /// (E10) and answer the context handlers see next; a [`HostError`] marks
    /// the draft invalid (`Invalid boundary entries: <message>`).
    #[serde(rename = "buildBoundaryContext", rename_all = "camelCase")]
    BuildBoundaryContext {
        /// `turn_end` or `agent_before_settle`.
        event_type: String,
        /// The drafts handlers have built so far (`custom`, `custom_message`,
        /// `context_edit` or `compaction` entries).
        entries: Vec<Value>,
    },
    /// pi-ai's `complete`, `completeSimple`, `stream` or `streamSimple`
    /// called by an extension: pihost has no model providers of its own, so
    /// the host runs the model. Answer pi's `AssistantMessage` (a message
    /// with `stopReason: "error"` and `errorMessage` reports a failed call);
    /// null means no provider, and the extension gets pi's "No API provider
    /// registered for api: …" error. `stream*` calls get the answer replayed
    /// as pi's event sequence, not streamed as it is produced.
    #[serde(rename = "model.complete")]
    ModelComplete {
        /// Which pi-ai function was called.
        kind: String,
        /// pi's `Model` (`id`, `provider`, `api`, …).
        model: Value,
        /// pi-ai's transcript of the call's `Context`: `messages`, led by a
        /// `system` message (the system prompt, and the tools as `toolsAdded`)
        /// when the context has either.
        context: Value,
        /// The call's options (`reasoning`, `maxTokens`, …) without `signal`.
        #[serde(default)]
        options: Option<Value>,
    },
    /// pi-ai's `classify` with a classifier model of pi's catalog (through
    /// `ctx.modelRegistry`, a `ModelRuntime`, or a session's model calls):
    /// the host holds the credentials, so it runs the classification. Answer
    /// pi's `ClassifierResult` (`answers`, `stopReason`, `errorMessage` when
    /// it failed); null, the headless answer, gives the extension a failed
    /// result saying no host answered.
    #[serde(rename = "model.classify")]
    ModelClassify {
        /// pi's classifier `Model` (`id`, `provider`, `api`, `type`, …).
        model: Value,
        /// pi-ai's `ClassifierContext`: `state`, `questions`, `images`.
        context: Value,
        /// The call's options without `signal`.
        #[serde(default)]
        options: Option<Value>,
    },
    /// pi-ai's `generateImages` with an image model of pi's catalog, as
    /// `model.classify`: answer pi's `ImagesResult` (`output`, `stopReason`,
    /// `errorMessage` when it failed); null gives a failed result.
    #[serde(rename = "model.generateImages")]
    ModelGenerateImages {
        /// pi's image `Model`.
        model: Value,
        /// pi-ai's images context (`prompt` or `input`, …).
        context: Value,
        /// The call's options without `signal`.
        #[serde(default)]
        options: Option<Value>,
    },
    /// pi-coding-agent's `copyToClipboard(text)`: the clipboard is the
    /// user's, which the agent knows and pihost does not. Answer `true` once
    /// copied; headless (null), pihost tries the system's clipboard programs
    /// as pi does on Linux, and the extension's call fails with pi's
    /// "Clipboard unavailable" error when none works.
    #[serde(rename = "clipboard.copy")]
    ClipboardCopy {
        /// The text to copy.
        text: String,
    },
    /// A sandboxed session that prompts (`permissions.prompt`) asks before
    /// an extension touches what no grant covers. The extension's code waits
    /// for the answer (its CPU limit does not count the wait), at most
    /// `permissions.promptTimeoutMs`, then the touch is denied.
    /// Answer `"allowOnce"`, `"allowAlways"` or `"deny"`; headless: deny.
    #[serde(rename = "permission.request")]
    PermissionRequest {
        /// The path of the extension whose code asked, when pihost can tell
        /// (null for pihost's own code).
        extension: Option<String>,
        /// Deno's permission name: `read`, `write`, `run`, `net`, `env` or
        /// `sys` (not `kind`, which the CLI's `hostCalls` use for the call's kind).
        permission: String,
        /// What is touched: a path, a program, `host:port`, a variable
        /// name, a system fact, or `<all>` for the whole kind.
        target: String,
        /// Deno's description, as its prompt shows it (`read access to "/x"`).
        message: String,
    },
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
            | HostRequest::Reload
            | HostRequest::ClipboardCopy { .. }
            | HostRequest::ModelComplete { .. }
            | HostRequest::ModelClassify { .. }
            | HostRequest::ModelGenerateImages { .. } => Value::Null,
            HostRequest::BuildBoundaryContext { .. } => serde_json::json!({}),
            HostRequest::PermissionRequest { .. } => serde_json::json!("deny"),
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
    /// `pi.registerProvider(name, config)`: register a model provider, or
    /// override one (its `baseUrl`, its models).
    #[serde(rename = "registerProvider")]
    RegisterProvider {
        /// The provider's id (`anthropic`, `my-proxy`, …).
        name: String,
        /// pi's `ProviderConfig` (`baseUrl`, `apiKey`, `api`, `models`, …)
        /// without its functions (`oauth` callbacks, `streamSimple`), which
        /// stay in JS.
        config: Value,
    },
    /// `pi.registerProvider(provider)`, the one-argument form:
    /// a provider object; only its id crosses (its functions stay in JS).
    #[serde(rename = "registerNativeProvider")]
    RegisterNativeProvider {
        /// The provider object's `id`, if it has one.
        #[serde(default)]
        id: Option<String>,
    },
    /// `pi.unregisterProvider(name)`: remove the provider's models and
    /// restore the built-in models it overrode.
    #[serde(rename = "unregisterProvider")]
    UnregisterProvider {
        /// The provider's id.
        name: String,
    },
    /// `pi.registerVirtualModel(model)`: a selectable model that routes each
    /// request to a physical model; registering the same provider and id
    /// again replaces it.
    #[serde(rename = "registerVirtualModel")]
    RegisterVirtualModel {
        /// The virtual model (`provider`, `id`, …) without its functions
        /// (`route`), which stay in JS.
        definition: Value,
    },
    /// `pi.unregisterVirtualModel(provider, id)`: remove a virtual model.
    #[serde(rename = "unregisterVirtualModel")]
    UnregisterVirtualModel {
        /// The provider the virtual model was registered under.
        provider: String,
        /// The virtual model's id.
        id: String,
    },
}

/// The host's answer to `permission.request`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PermissionAnswer {
    /// Allow this touch; the next touch of the same target is asked again.
    AllowOnce,
    /// Allow this target for the rest of the session (Deno's `y`).
    AllowAlways,
    /// Refuse it; the same target is refused from now on without asking.
    Deny,
}

/// How a touch was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PermissionOutcome {
    /// The host allowed it this once.
    AllowedOnce,
    /// The host allowed the target for the rest of the session.
    AllowedAlways,
    /// A grant allowed it, or the host's earlier answer did (reported only
    /// when the session audits everything, `Permissions::audit`).
    Granted,
    /// It was refused.
    Denied,
}

/// Why the decision was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DecidedBy {
    /// The host answered `permission.request`.
    Host,
    /// The session does not prompt: whatever is not granted is denied.
    NoPrompt,
    /// The host did not answer within the prompt timeout.
    Timeout,
    /// The host failed to answer (an error, or an answer that is not one of
    /// `allowOnce`, `allowAlways`, `deny`).
    HostError,
    /// A grant of the session or of the extension settled it.
    Grant,
    /// A `deny*` list of the session or of the extension settled it.
    DenyList,
    /// A device, process or kernel file (under `/dev`, `/proc`, `/sys`),
    /// which Deno opens only with every permission, whatever the grants.
    SystemFile,
}

/// A host's refusal or failure; extensions see it as a rejected promise or a
/// thrown error with this message.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct HostError(pub String);

/// What [`Host::request`] returns: the JSON answer (null is JS `undefined`),
/// or a [`HostError`] the extension sees as a rejection.
pub type HostFuture = Pin<Box<dyn Future<Output = Result<Value, HostError>> + Send>>;

/// The embedder's side of pihost. Implement what your agent supports; the
/// rest behaves like headless pi.
pub trait Host: Send + Sync + 'static {
    /// Takes an action or UI update an extension does not wait on. It is
    /// called on the engine's thread while the extension runs: return quickly.
    /// Default: ignore it, as headless pi does.
    fn notify(&self, notification: HostNotification) {
        let _ = notification;
    }

    /// Answers a call an extension awaits; the isolate keeps running while
    /// the future is pending. Default: [`HostRequest::headless_answer`].
    fn request(&self, request: HostRequest) -> HostFuture {
        let answer = request.headless_answer();
        Box::pin(async move { Ok(answer) })
    }

    /// Applies a provider or virtual-model registration, synchronously as pi
    /// does. An `Err` is thrown in the calling extension, or, for a
    /// registration queued during loading and applied at bind, reported as an
    /// extension error (event `register_provider` or `register_virtual_model`).
    /// Default: accept it.
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
    /// `ctx.model`: the current model, as pi's `Model` object; unset, `undefined`.
    pub model: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.scopedModels`: the models this session is scoped to (`--models`,
    /// `enabledModels`); empty (the default) when every model is usable.
    pub scoped_models: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getActiveTools()`: names of the tools declared to the model.
    pub active_tools: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getAllTools()`: every configured tool as pi's `ToolInfo` (name,
    /// description, parameters, source, …).
    pub all_tools: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getSettings()`: the effective settings (global and project merged).
    pub settings: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getSessionName()` when [`HostState::session`] has no `session_info`
    /// entry: pi answers from the session's entries (the latest
    /// `session_info`), and so does pihost whenever the session has one.
    pub session_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getThinkingLevel()` and `ctx.thinkingLevel`; default `off`.
    pub thinking_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `pi.getCommands()`: the slash commands of the session, as pi's `SlashCommandInfo`.
    pub commands: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.isIdle()`: whether the agent is idle (not streaming); default true.
    pub is_idle: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.isProjectTrusted()`: whether project-local trust is active; default true.
    pub project_trusted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.hasPendingMessages()`: whether queued messages are waiting.
    pub pending_messages: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.getContextUsage()`: `{ tokens, contextWindow, percent }` for the
    /// current model; unset, `undefined`.
    pub context_usage: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.getSystemPrompt()`: the current effective system prompt.
    pub system_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.getSystemPromptOptions()` in commands: the base options the system
    /// prompt is built from.
    pub system_prompt_options: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.tools` in a tool's context: the tools `ctx.executeTool` can call.
    pub callable_tools: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `ctx.ui.getEditorText()`: the text in the input editor.
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
    /// What `ctx.sessionManager` reads: the session's header and entries.
    /// Sent again, it replaces the whole session (what extensions appended
    /// since is then whatever the host kept of their `appendEntry`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionState>,
}

/// The session as `ctx.sessionManager` (pi's `ReadonlySessionManager`)
/// shows it to extensions. Entries are pi's session entry JSON, as a
/// session file holds them (`type`, `id`, `parentId`, `timestamp`, and the
/// fields of their type); pihost indexes them as pi does and never changes
/// them. Entries extensions append (`pi.appendEntry`, `pi.setLabel`,
/// `pi.setSessionName`) are added to this view at once, as in pi.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionState {
    /// `getHeader()`: the session header (`{ type: "session", version, id,
    /// timestamp, cwd, parentSession? }`); `getSessionId()` is its `id`.
    /// Unset, `getHeader()` answers null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Value>,
    /// `getEntries()`: every entry of the session (all branches), in file order.
    #[serde(default)]
    pub entries: Vec<Value>,
    /// `getLeafId()`: the entry the current branch ends at (`getBranch()`
    /// walks `parentId` from it). Unset, the last entry, as pi's leaf is
    /// after loading a session file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_id: Option<String>,
    /// `getSessionFile()`: the session's file; unset for a session kept in
    /// memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_file: Option<String>,
    /// `getSessionDir()`: the folder of the session files; unset, `""`, as
    /// for pi's in-memory sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_dir: Option<String>,
    /// `getCwd()`: the session's working directory; unset, the header's
    /// `cwd`, else the cwd the extensions were loaded for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

/// One call as a [`RecordingHost`] saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum RecordedCall {
    /// A [`Host::notify`] call.
    Notification(HostNotification),
    /// A [`Host::request`] call.
    Request(HostRequest),
    /// A [`Host::provider`] call.
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
    /// A host with no canned answers yet: every request gets headless pi's answer.
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
    /// The extension's path, as discovered (pi's `Extension.path`).
    pub extension_path: String,
    /// What failed: the event whose handler threw (`tool_result`, …),
    /// `register_provider`, `register_virtual_model`, or `events:<channel>`
    /// for a `pi.events` subscriber.
    pub event: String,
    /// The error message, in pi's words.
    pub error: String,
    /// The stack, mapped to the original `.ts` lines, when the error had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
}
