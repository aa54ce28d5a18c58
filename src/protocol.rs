//! The messages of `pihost serve` as Rust types. `serve` decodes every
//! request's params into these and builds every result from them, so the JSON
//! Schema generated from them ([`schema`], `pihost serve --schema`,
//! `docs/protocol.schema.json`) is the protocol the binary speaks.

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::{JsonSchema, Schema, SchemaGenerator, generate::SchemaSettings};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::engine::{RegisteredCommand, RegisteredFlag};
use crate::host::{ExtensionError, HostNotification, HostRequest, HostState, ProviderChange};
use crate::report::{InspectReport, ToolReport};
use crate::ui::TerminalSize;

/// The protocol version `initialize` answers with; it changes when a message
/// changes incompatibly.
pub const PROTOCOL_VERSION: &str = "2026-12-06";

/// `initialize`: where the session runs and what the agent can answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    /// The project directory (`ctx.cwd`, where `.pi/extensions/` is looked for);
    /// default: the directory `pihost serve` runs in (or its `--cwd`).
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// pi's agent directory (`~/.pi/agent` unless `PI_CODING_AGENT_DIR` says otherwise).
    #[serde(default)]
    pub agent_dir: Option<String>,
    /// Extension paths (files or folders, as `pi -e` takes them) that `load`
    /// and `reload` use when they name none.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    /// What the agent answers and wants to hear about.
    #[serde(default)]
    pub capabilities: Capabilities,
    /// How long one dispatch (an event's handlers, a tool, a command) may run
    /// before it fails with a timeout error (a tool is aborted through its
    /// signal); 0 is no limit; default [`DEFAULT_SERVE_DISPATCH_TIMEOUT_MS`].
    /// A request's own `timeoutMs` overrides it.
    #[serde(default)]
    pub dispatch_timeout_ms: Option<u64>,
    /// How long one synchronous run of extension code may take before it is
    /// terminated; 0 is no limit; default 10 000.
    #[serde(default)]
    pub cpu_limit_ms: Option<u64>,
    /// The runtime's heap limit in MiB: a run that reaches it is terminated,
    /// and a runtime that cannot be saved is restarted with the same
    /// extensions (`engineRestarted`); 0 is no limit; default 1 024.
    #[serde(default)]
    pub max_heap_mb: Option<u64>,
    /// How long one extension's module and factory may take to settle before
    /// that extension fails and the next one loads; 0 is no limit; default 30 000.
    #[serde(default)]
    pub load_timeout_ms: Option<u64>,
    /// What extensions may touch (Deno's grants: `sandbox`, `allowRead`,
    /// `denyNet`, …); default: the server's (`pihost serve --sandbox …`),
    /// else everything, as in pi.
    #[serde(default)]
    pub permissions: Option<crate::Permissions>,
}

/// The dispatch timeout of a `pihost serve` session that names none.
pub const DEFAULT_SERVE_DISPATCH_TIMEOUT_MS: u64 = 300_000;

/// `engineRestarted`: the engine was replaced by a new one with the same
/// extensions (a heap it could not recover, or a crash); requests in flight
/// then failed, later ones reach the new engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EngineRestartedParams {
    /// Why.
    pub reason: String,
}

/// What the agent declares in `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    /// Host requests the agent answers (`ui.confirm`, `setModel`, … with or
    /// without the `host/` prefix); the others get headless pi's answers.
    #[serde(default)]
    pub requests: Option<Vec<String>>,
    /// Whether pihost sends `host/*` notifications (sendMessage, ui.notify,
    /// provider changes, …).
    #[serde(default)]
    pub notifications: Option<bool>,
    /// How long pihost waits for the agent's answer to a host request before
    /// the waiting extension call fails; default 60 000.
    #[serde(default)]
    pub request_timeout_ms: Option<u64>,
    /// A screen the agent draws extension components on, `{ columns, rows }`
    /// in terminal cells. With it the extensions run as under pi's TUI
    /// (`ctx.mode` `"tui"`, `ctx.hasUI` true): `ctx.ui.custom` builds the
    /// extension's own component, whose frames come as `host/ui.frame`
    /// notifications (sent whatever `notifications` says) and which takes
    /// keys through `ui/input`. Without it, `ctx.ui.custom` is the
    /// `host/ui.custom` request (or headless pi's `undefined`).
    #[serde(default)]
    pub ui: Option<TerminalSize>,
}

/// `ui/input`: one key for one extension component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UiInputParams {
    /// The component's id (`component` of its frames).
    pub id: u64,
    /// The raw sequence a terminal sends for the key (`"\u001b[B"` for
    /// down, `"\r"` for enter, `"a"`), read with pi-tui's `matchesKey`.
    pub data: String,
}

/// The answer to `ui/input`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UiInputResult {
    /// Whether the component had focus and got the key (keys only reach
    /// the focused component, as in pi-tui); a frame follows when it drew
    /// something new.
    pub delivered: bool,
}

/// `ui/resize`: a new size for the screen, or for one component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UiResizeParams {
    /// One component to draw at this size from now on (a pane of its own);
    /// absent: the whole screen, which every shown component is drawn for.
    #[serde(default)]
    pub id: Option<u64>,
    /// The width in terminal cells (at least 1).
    pub columns: u16,
    /// The height in terminal cells (at least 1).
    pub rows: u16,
}

/// `ui/close`: close an open `ctx.ui.custom` component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UiCloseParams {
    /// The component's id.
    pub id: u64,
}

/// The answer to `initialize`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    /// [`PROTOCOL_VERSION`].
    pub protocol_version: String,
    /// Which program answers.
    pub server_info: ServerInfo,
    /// The project directory the session uses.
    pub cwd: PathBuf,
    /// The agent directory the session uses.
    pub agent_dir: PathBuf,
    /// Whether the session shares a runtime with the process's other sessions
    /// of the same options (`pihost serve --shared-sessions`; never for
    /// permissions that restrict anything).
    #[serde(default)]
    pub shared_runtime: bool,
}

/// The name and version of the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ServerInfo {
    /// Always `pihost`.
    pub name: String,
    /// The crate version.
    pub version: String,
}

/// `load` and `reload`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LoadParams {
    /// Extension paths; absent or empty: the paths given to `initialize`.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

/// `bind` and `setHostState`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateParams {
    /// What the synchronous getters of `pi` and `ctx` read; fields left out
    /// keep their value.
    #[serde(default)]
    pub state: HostState,
}

/// `emit`: one event, dispatched with pi's merge rule for its type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmitParams {
    /// The event as pi's extensions receive it.
    pub event: EventMessage,
    /// This request's dispatch timeout in milliseconds (0: none); default:
    /// the session's `dispatchTimeoutMs`.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// An event: its `type` and whatever fields that type carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EventMessage {
    /// The event name (`tool_call`, `context`, `session_start`, …).
    #[serde(rename = "type")]
    pub event_type: String,
    /// The event's other fields, passed through unchanged.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

/// The answer to `emit`, `executeTool` and `runCommand`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CallResult {
    /// The merged result; absent is pi's `undefined`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

/// `executeTool`: run a registered tool (through pi's tool wrapping).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExecuteToolParams {
    /// The tool's name.
    pub name: String,
    /// The id the tool and its updates carry; default `call-<request id>`.
    #[serde(default)]
    pub tool_call_id: Option<String>,
    /// The tool's arguments; default `{}`.
    #[serde(default)]
    pub args: Option<Value>,
    /// This request's timeout in milliseconds (0: none), after which the tool
    /// is aborted through its signal; default: the session's `dispatchTimeoutMs`.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// `runCommand`: run a registered slash command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunCommandParams {
    /// The command's invocation name (`name`, or `name:N` when names clash).
    pub name: String,
    /// The text after the command name; default empty.
    #[serde(default)]
    pub args: Option<String>,
    /// This request's dispatch timeout in milliseconds (0: none); default:
    /// the session's `dispatchTimeoutMs`.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// The answer to `listFlags`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ListFlagsResult {
    /// Every registered flag.
    pub flags: Vec<RegisteredFlag>,
    /// The current value of each flag.
    pub values: BTreeMap<String, Value>,
}

/// `setFlag`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SetFlagParams {
    /// The flag's name.
    pub name: String,
    /// Its new value (a boolean or a string, as the flag's type says).
    #[serde(default)]
    pub value: Value,
}

/// `shortcuts`: the extension shortcuts for the agent's keybindings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ShortcutsParams {
    /// The agent's resolved keybindings, `{ "app.interrupt": "escape", … }`.
    #[serde(default)]
    pub keybindings: BTreeMap<String, Value>,
}

/// `invalidate`: make every context captured so far stale.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InvalidateParams {
    /// The text stale contexts throw; default pi's.
    #[serde(default)]
    pub message: Option<String>,
}

/// `$/cancelRequest` (a notification): abort a running `executeTool`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CancelParams {
    /// The JSON-RPC id of the `executeTool` request.
    pub id: Value,
}

/// The `toolUpdate` notification: a running tool's `onUpdate` call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolUpdateParams {
    /// The tool call the update belongs to.
    pub tool_call_id: String,
    /// What the tool passed to `onUpdate`.
    pub update: Value,
}

/// The methods `pihost serve` answers: the one list the server, its
/// schema and their tests read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Starts the session: options, the agent's capabilities.
    Initialize,
    /// Discovers and loads extensions.
    Load,
    /// Reloads them (H1).
    Reload,
    /// Binds the agent as the extensions' host, with its state.
    Bind,
    /// Updates the state the extensions' getters read.
    SetHostState,
    /// Dispatches one event with its family's merge rule.
    Emit,
    /// Runs a registered tool, its updates streamed as `toolUpdate`.
    ExecuteTool,
    /// Runs a command by its invocation name.
    RunCommand,
    /// The registered tools.
    ListTools,
    /// The registered commands.
    ListCommands,
    /// The registered flags and their values.
    ListFlags,
    /// Sets a flag's value.
    SetFlag,
    /// Extension shortcuts for the agent's keybindings.
    Shortcuts,
    /// Makes captured contexts stale (R3).
    Invalidate,
    /// A key for an extension component.
    UiInput,
    /// The screen's (or one component's) new size.
    UiResize,
    /// Closes an extension component.
    UiClose,
    /// Ends the session it names, or every session and the process.
    Shutdown,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 18] = [
        Method::Initialize,
        Method::Load,
        Method::Reload,
        Method::Bind,
        Method::SetHostState,
        Method::Emit,
        Method::ExecuteTool,
        Method::RunCommand,
        Method::ListTools,
        Method::ListCommands,
        Method::ListFlags,
        Method::SetFlag,
        Method::Shortcuts,
        Method::Invalidate,
        Method::UiInput,
        Method::UiResize,
        Method::UiClose,
        Method::Shutdown,
    ];

    /// The method's name on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Initialize => "initialize",
            Method::Load => "load",
            Method::Reload => "reload",
            Method::Bind => "bind",
            Method::SetHostState => "setHostState",
            Method::Emit => "emit",
            Method::ExecuteTool => "executeTool",
            Method::RunCommand => "runCommand",
            Method::ListTools => "listTools",
            Method::ListCommands => "listCommands",
            Method::ListFlags => "listFlags",
            Method::SetFlag => "setFlag",
            Method::Shortcuts => "shortcuts",
            Method::Invalidate => "invalidate",
            Method::UiInput => "ui/input",
            Method::UiResize => "ui/resize",
            Method::UiClose => "ui/close",
            Method::Shutdown => "shutdown",
        }
    }

    /// The method named `name`, if pihost serves one.
    pub fn named(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|method| method.name() == name)
    }

    /// Whether it changes the session: such requests take effect in the
    /// order they were sent, each after the changes sent before it.
    pub const fn changes_session(self) -> bool {
        matches!(
            self,
            Method::Initialize
                | Method::Load
                | Method::Reload
                | Method::Bind
                | Method::SetHostState
                | Method::SetFlag
                | Method::Invalidate
        )
    }

    /// Whether it goes to the screen: such requests take effect in the
    /// order they were sent, among themselves.
    pub const fn uses_screen(self) -> bool {
        matches!(self, Method::UiInput | Method::UiResize | Method::UiClose)
    }
}

/// Decodes a request's params; `null` or absent params count as `{}`.
pub fn decode<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, serde_json::Error> {
    match params {
        Value::Null => serde_json::from_value(json!({})),
        params => serde_json::from_value(params),
    }
}

/// The JSON Schema (draft 2020-12) of every message of `pihost serve`:
/// per method its params and result, the host requests and notifications
/// pihost sends, and the shared definitions.
pub fn schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let none = json!({ "type": "null" });
    let mut methods = Map::new();
    for method in Method::ALL {
        let g = &mut generator;
        let (params, result) = match method {
            Method::Initialize => (sub::<InitializeParams>(g), sub::<InitializeResult>(g)),
            Method::Load | Method::Reload => (sub::<LoadParams>(g), sub::<InspectReport>(g)),
            Method::Bind | Method::SetHostState => (sub::<StateParams>(g), none.clone()),
            Method::Emit => (sub::<EmitParams>(g), sub::<CallResult>(g)),
            Method::ExecuteTool => (sub::<ExecuteToolParams>(g), sub::<CallResult>(g)),
            Method::RunCommand => (sub::<RunCommandParams>(g), sub::<CallResult>(g)),
            Method::ListTools => (none.clone(), sub::<Vec<ToolReport>>(g)),
            Method::ListCommands => (none.clone(), sub::<Vec<RegisteredCommand>>(g)),
            Method::ListFlags => (none.clone(), sub::<ListFlagsResult>(g)),
            Method::SetFlag => (sub::<SetFlagParams>(g), none.clone()),
            Method::Shortcuts => (sub::<ShortcutsParams>(g), json!({ "type": "object" })),
            Method::Invalidate => (sub::<InvalidateParams>(g), none.clone()),
            Method::UiInput => (sub::<UiInputParams>(g), sub::<UiInputResult>(g)),
            Method::UiResize => (sub::<UiResizeParams>(g), none.clone()),
            Method::UiClose => (sub::<UiCloseParams>(g), none.clone()),
            Method::Shutdown => (none.clone(), none.clone()),
        };
        let params = if params == none {
            json!({ "anyOf": [none, { "$ref": SESSION_ADDRESS }] })
        } else {
            addressed(params)
        };
        methods.insert(method.name().to_string(), json!({ "params": params, "result": result }));
    }
    let methods = Value::Object(methods);
    let notifications = json!({
        "$/cancelRequest": addressed(sub::<CancelParams>(&mut generator)),
    });
    let to_agent = json!({
        "requests": addressed(sub::<HostRequest>(&mut generator)),
        "notifications": {
            "host": addressed(sub::<HostNotification>(&mut generator)),
            "provider": addressed(sub::<ProviderChange>(&mut generator)),
            "toolUpdate": addressed(sub::<ToolUpdateParams>(&mut generator)),
            "extensionError": addressed(sub::<ExtensionError>(&mut generator)),
            "engineRestarted": addressed(sub::<EngineRestartedParams>(&mut generator)),
        },
    });
    let mut definitions: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    definitions.insert(
        "SessionAddress".to_string(),
        json!({
            "type": "object",
            "properties": {
                "session": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The session the message is for. One `pihost serve` process holds several sessions, each started by an `initialize` that names it and ended by a `shutdown` that names it; a request without `session` is for the default session, and what pihost sends for the default session never carries the member."
                }
            }
        }),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "pihost serve protocol",
        "description": "Newline-delimited JSON-RPC 2.0 on stdio. `methods`: agent → pihost requests (params and result); `notifications`: agent → pihost notifications; `toAgent`: pihost → agent (requests are sent as host/<method> with the variant's fields as params, minus `method`). Every message's params may name the session it is for (`session`, `$defs/SessionAddress`).",
        "version": PROTOCOL_VERSION,
        "methods": methods,
        "notifications": notifications,
        "toAgent": to_agent,
        "$defs": definitions,
    })
}

const SESSION_ADDRESS: &str = "#/$defs/SessionAddress";

/// A message's schema with the session it may name (`session`).
fn addressed(schema: Value) -> Value {
    json!({ "allOf": [schema, { "$ref": SESSION_ADDRESS }] })
}

fn sub<T: JsonSchema>(generator: &mut SchemaGenerator) -> Value {
    let schema: Schema = generator.subschema_for::<T>();
    schema.to_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_served_method_has_a_schema_and_its_name_finds_it() {
        let schema = schema();
        let methods = schema["methods"].as_object().expect("methods");
        assert_eq!(methods.len(), Method::ALL.len());
        for method in Method::ALL {
            assert!(methods[method.name()].is_object(), "{method:?}");
            assert_eq!(Method::named(method.name()), Some(method));
        }
        assert_eq!(Method::named("listtools"), None);
    }

    #[test]
    fn absent_params_decode_as_defaults() {
        let params: LoadParams = decode(Value::Null).expect("null params");
        assert_eq!(params.paths, None);
        let error = decode::<ExecuteToolParams>(json!({ "args": {} })).expect_err("name is required");
        assert!(error.to_string().contains("name"), "{error}");
    }
}
