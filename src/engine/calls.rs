//! The call table: every call Rust makes into pihost's runtime, one type per
//! function of `js/runtime/main.js`, naming the export, what it takes, what
//! it answers and whether extension code runs in it (so the dispatch timeout
//! bounds it).
//!
//! The engine resolves every export once, when the runtime starts: a missing
//! one fails the start, never a call in the middle of a session. Arguments
//! cross as values: serialized here, made into JavaScript values by the
//! engine's own JSON parser (not the global `JSON`, which an extension can
//! replace). Answers come back as JSON text, made by `main.js` with the JSON
//! functions it captured before any extension ran, and are read into the
//! call's answer type here. Both executors (the engine on its own and the
//! [`Pihost`](crate::Pihost) handle's thread) go through these types.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::PihostError;
use crate::host::HostState;
use crate::session::{FIRST_SESSION, SessionId};

/// The functions of `js/runtime/main.js` Rust calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Export {
    ConfigureLimits,
    LoadExtensions,
    Reload,
    ClearExtensionCache,
    BindHost,
    SetHostState,
    EmitEvent,
    EmitContext,
    EmitBeforeProviderRequest,
    ExecuteTool,
    AbortTool,
    RunCommand,
    ListRegistrations,
    SetFlag,
    ResolveShortcuts,
    Invalidate,
    AttachTerminal,
    WaitForComponent,
    FocusedUiComponent,
    SendUiInput,
    SendUiInputTo,
    ResizeUiComponent,
    CloseUiComponent,
    TakeUiFrames,
    CloseUiComponents,
    EncodeKeys,
    FailTerminated,
    FailStalled,
    OpenSession,
    CloseSession,
}

impl Export {
    /// Every export, in the order the engine keeps their functions.
    pub(crate) const ALL: [Export; 30] = [
        Export::ConfigureLimits,
        Export::LoadExtensions,
        Export::Reload,
        Export::ClearExtensionCache,
        Export::BindHost,
        Export::SetHostState,
        Export::EmitEvent,
        Export::EmitContext,
        Export::EmitBeforeProviderRequest,
        Export::ExecuteTool,
        Export::AbortTool,
        Export::RunCommand,
        Export::ListRegistrations,
        Export::SetFlag,
        Export::ResolveShortcuts,
        Export::Invalidate,
        Export::AttachTerminal,
        Export::WaitForComponent,
        Export::FocusedUiComponent,
        Export::SendUiInput,
        Export::SendUiInputTo,
        Export::ResizeUiComponent,
        Export::CloseUiComponent,
        Export::TakeUiFrames,
        Export::CloseUiComponents,
        Export::EncodeKeys,
        Export::FailTerminated,
        Export::FailStalled,
        Export::OpenSession,
        Export::CloseSession,
    ];

    /// The export's name in `main.js`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Export::ConfigureLimits => "configureLimits",
            Export::LoadExtensions => "loadExtensions",
            Export::Reload => "reload",
            Export::ClearExtensionCache => "clearExtensionCache",
            Export::BindHost => "bindHost",
            Export::SetHostState => "setHostState",
            Export::EmitEvent => "emitEvent",
            Export::EmitContext => "emitContext",
            Export::EmitBeforeProviderRequest => "emitBeforeProviderRequest",
            Export::ExecuteTool => "executeTool",
            Export::AbortTool => "abortTool",
            Export::RunCommand => "runCommand",
            Export::ListRegistrations => "listRegistrations",
            Export::SetFlag => "setFlag",
            Export::ResolveShortcuts => "resolveShortcuts",
            Export::Invalidate => "invalidate",
            Export::AttachTerminal => "attachTerminal",
            Export::WaitForComponent => "waitForComponent",
            Export::FocusedUiComponent => "focusedUiComponent",
            Export::SendUiInput => "sendUiInput",
            Export::SendUiInputTo => "sendUiInputTo",
            Export::ResizeUiComponent => "resizeUiComponent",
            Export::CloseUiComponent => "closeUiComponent",
            Export::TakeUiFrames => "takeUiFrames",
            Export::CloseUiComponents => "closeUiComponents",
            Export::EncodeKeys => "encodeKeys",
            Export::FailTerminated => "failTerminated",
            Export::FailStalled => "failStalled",
            Export::OpenSession => "openSession",
            Export::CloseSession => "closeSession",
        }
    }

    /// Where the engine keeps this export's function.
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// Whether the export takes its argument as the text itself, not as the
    /// value that text is the JSON of.
    pub(crate) const fn takes_text(self) -> bool {
        matches!(self, Export::EmitContext | Export::EmitBeforeProviderRequest)
    }
}

/// A call ready for the engine thread: the export, its argument as JSON
/// text (the value's, or for an export that [takes text](Export::takes_text)
/// the text it is given), and the session it is for.
#[derive(Debug, Clone)]
pub(crate) struct Encoded {
    pub(crate) export: Export,
    pub(crate) argument: String,
    pub(crate) session: SessionId,
}

/// One call into the runtime: its export, argument (the value itself,
/// serialized) and answer.
pub(crate) trait RuntimeCall: Serialize {
    const EXPORT: Export;
    /// Whether extension code runs in it: the dispatch timeout bounds it,
    /// and its failure names the call by [`RuntimeCall::label`].
    const RUNS_EXTENSION_CODE: bool = false;
    type Answer: DeserializeOwned;

    /// What an error names the call by.
    fn label(&self) -> String {
        Self::EXPORT.name().to_string()
    }

    fn encode(&self) -> Result<Encoded, PihostError> {
        let argument = serde_json::to_string(self).map_err(|error| PihostError::Internal {
            context: format!("the argument of {}", Self::EXPORT.name()),
            message: error.to_string(),
        })?;
        Ok(Encoded {
            export: Self::EXPORT,
            argument,
            session: FIRST_SESSION,
        })
    }

    fn decode(answer: &str) -> Result<Self::Answer, PihostError> {
        crate::isolate_json::parse(answer).map_err(|error| PihostError::Internal {
            context: format!("the answer of {}", Self::EXPORT.name()),
            message: error.to_string(),
        })
    }
}

/// What extension code produced: `None` is pi's `undefined`, kept apart from
/// `null` (`Some(Value::Null)`).
#[derive(Debug, Deserialize)]
pub(crate) struct Outcome {
    #[serde(default, deserialize_with = "present")]
    pub(crate) result: Option<Value>,
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The limits the runtime's JavaScript keeps.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConfigureLimits {
    pub(crate) load_timeout_ms: Option<u128>,
    pub(crate) heap_mb: usize,
}
impl RuntimeCall for ConfigureLimits {
    const EXPORT: Export = Export::ConfigureLimits;
    type Answer = ();
}

/// What `loadExtensions` and `reload` take.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LoadRequest {
    pub(crate) cwd: std::path::PathBuf,
    pub(crate) use_cache: bool,
    pub(crate) entries: Vec<LoadEntry>,
}

/// One extension of a [`LoadRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LoadEntry {
    /// The path as discovered (configured or found), which errors name.
    pub(crate) path: String,
    pub(crate) resolved_path: std::path::PathBuf,
    pub(crate) module_url: String,
}

/// Loads extensions in order (L4, L5).
#[derive(Serialize)]
pub(crate) struct LoadExtensions<'a>(pub(crate) &'a LoadRequest);
impl RuntimeCall for LoadExtensions<'_> {
    const EXPORT: Export = Export::LoadExtensions;
    type Answer = crate::report::JsLoadReport;
    fn label(&self) -> String {
        "load".to_string()
    }
}

/// Reloads (H1).
#[derive(Serialize)]
pub(crate) struct Reload<'a>(pub(crate) &'a LoadRequest);
impl RuntimeCall for Reload<'_> {
    const EXPORT: Export = Export::Reload;
    type Answer = crate::report::JsLoadReport;
}

#[derive(Serialize)]
pub(crate) struct ClearExtensionCache;
impl RuntimeCall for ClearExtensionCache {
    const EXPORT: Export = Export::ClearExtensionCache;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct BindHost<'a>(pub(crate) &'a HostState);
impl RuntimeCall for BindHost<'_> {
    const EXPORT: Export = Export::BindHost;
    type Answer = ();
    fn label(&self) -> String {
        "bind".to_string()
    }
}

#[derive(Serialize)]
pub(crate) struct SetHostState<'a>(pub(crate) &'a HostState);
impl RuntimeCall for SetHostState<'_> {
    const EXPORT: Export = Export::SetHostState;
    type Answer = ();
}

/// One event (`{ "type": …, … }`), dispatched with its family's merge rule.
#[derive(Serialize)]
pub(crate) struct EmitEvent<'a>(pub(crate) &'a Value);

impl EmitEvent<'_> {
    /// Whether pi's answer is already known without entering the isolate:
    /// `undefined`, for an event of a family that answers so when no
    /// extension handles it, and none does (H3).
    pub(crate) fn answered_without_the_isolate(&self, handlers: &crate::ops::host::HandlerCounts) -> bool {
        let event_type = self.0.get("type").and_then(Value::as_str).unwrap_or("?");
        // After session_start the runner reports the MCP servers nothing
        // connects, handlers or not (js/runtime/main.js).
        event_type != "session_start"
            && super::answers_undefined_without_handlers(event_type)
            && !handlers.has_handlers(event_type)
    }
}
impl RuntimeCall for EmitEvent<'_> {
    const EXPORT: Export = Export::EmitEvent;
    const RUNS_EXTENSION_CODE: bool = true;
    type Answer = Outcome;
    fn label(&self) -> String {
        format!("emit({})", self.0.get("type").and_then(Value::as_str).unwrap_or("?"))
    }
}

/// An event family whose one large field (a context event's messages, a
/// provider request's payload) crosses as its JSON text, which the runtime
/// compares its answer with: when the handlers left it as it was, the
/// runtime answers so instead of sending it back, and the host's own value
/// is the answer (js/runtime/main.js, `emitKept`). With no handler of the
/// families that could change it, the value is the answer without entering
/// the isolate at all.
pub(crate) trait KeptEvent {
    const EXPORT: Export;
    /// The event's `type`.
    const TYPE: &'static str;
    /// The field that crosses as text and comes back.
    const FIELD: &'static str;
    /// The handlers that see it (pi answers it unchanged without any).
    const FAMILIES: &'static [&'static str];
    /// Whether only a list is one (pi's context merge works on arrays).
    const LIST_ONLY: bool;
}

/// `context` then `context_with_system` (E6): the messages.
pub(crate) struct Context;
impl KeptEvent for Context {
    const EXPORT: Export = Export::EmitContext;
    const TYPE: &'static str = "context";
    const FIELD: &'static str = "messages";
    const FAMILIES: &'static [&'static str] = &["context", "context_with_system"];
    const LIST_ONLY: bool = true;
}

/// `before_provider_request` (E8): the payload.
pub(crate) struct ProviderRequest;
impl KeptEvent for ProviderRequest {
    const EXPORT: Export = Export::EmitBeforeProviderRequest;
    const TYPE: &'static str = "before_provider_request";
    const FIELD: &'static str = "payload";
    const FAMILIES: &'static [&'static str] = &["before_provider_request"];
    const LIST_ONLY: bool = false;
}

/// The kept field as the caller holds it.
#[derive(Clone, Copy)]
pub(crate) enum Kept<'a> {
    Value(&'a Value),
    List(&'a [Value]),
}

impl Kept<'_> {
    fn to_value(self) -> Value {
        match self {
            Kept::Value(value) => value.clone(),
            Kept::List(list) => Value::Array(list.to_vec()),
        }
    }
}

/// One event of a [`KeptEvent`] family; its field is written as JSON text
/// (its argument, which the export [takes as text](Export::takes_text)) only
/// when the call enters the isolate.
pub(crate) struct EmitKept<'a, K> {
    kept: Kept<'a>,
    family: std::marker::PhantomData<K>,
}

impl<'a, K: KeptEvent> EmitKept<'a, K> {
    /// The call for `event` when it is of this family (a context event with
    /// a list of messages; any other field of it no handler sees).
    pub(crate) fn of(event: &'a Value) -> Option<Self> {
        if event.get("type").and_then(Value::as_str) != Some(K::TYPE) {
            return None;
        }
        let field = event.get(K::FIELD)?;
        if K::LIST_ONLY && !field.is_array() {
            return None;
        }
        Some(Self::new(Kept::Value(field)))
    }

    pub(crate) fn new(kept: Kept<'a>) -> Self {
        EmitKept {
            kept,
            family: std::marker::PhantomData,
        }
    }

    /// The answer when no handler could change the field: the field itself.
    pub(crate) fn answered_without_the_isolate(&self, handlers: &crate::ops::host::HandlerCounts) -> Option<Value> {
        (!K::FAMILIES.iter().any(|family| handlers.has_handlers(family))).then(|| self.kept.to_value())
    }

    /// What the handlers left, as [`Outcome::result`] would hold it.
    pub(crate) fn value_after(&self, answer: KeptOutcome) -> Option<Value> {
        if answer.unchanged {
            Some(self.kept.to_value())
        } else {
            answer.result
        }
    }
}

impl<K> Serialize for EmitKept<'_, K> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.kept {
            Kept::Value(value) => value.serialize(serializer),
            Kept::List(list) => list.serialize(serializer),
        }
    }
}

impl<K: KeptEvent> RuntimeCall for EmitKept<'_, K> {
    const EXPORT: Export = K::EXPORT;
    const RUNS_EXTENSION_CODE: bool = true;
    type Answer = KeptOutcome;
    fn label(&self) -> String {
        format!("emit({})", K::TYPE)
    }
}

/// What a [`KeptEvent`] answers: its field's new value, or that it is the host's.
#[derive(Debug, Deserialize)]
pub(crate) struct KeptOutcome {
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    #[serde(default)]
    unchanged: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExecuteTool<'a> {
    pub(crate) name: &'a str,
    pub(crate) tool_call_id: &'a str,
    pub(crate) args: &'a Value,
}
impl RuntimeCall for ExecuteTool<'_> {
    const EXPORT: Export = Export::ExecuteTool;
    const RUNS_EXTENSION_CODE: bool = true;
    type Answer = Outcome;
    fn label(&self) -> String {
        format!("tool {}", self.name)
    }
}

/// The id of the tool call whose signal to abort.
#[derive(Serialize)]
pub(crate) struct AbortTool<'a>(pub(crate) &'a str);
impl RuntimeCall for AbortTool<'_> {
    const EXPORT: Export = Export::AbortTool;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct RunCommand<'a> {
    pub(crate) name: &'a str,
    pub(crate) args: &'a str,
}
impl RuntimeCall for RunCommand<'_> {
    const EXPORT: Export = Export::RunCommand;
    const RUNS_EXTENSION_CODE: bool = true;
    type Answer = Outcome;
    fn label(&self) -> String {
        format!("/{}", self.name)
    }
}

/// Opens the call's session in the runtime (shared mode).
#[derive(Serialize)]
pub(crate) struct OpenSession;
impl RuntimeCall for OpenSession {
    const EXPORT: Export = Export::OpenSession;
    type Answer = ();
}

/// Ends the call's session: its extensions' ctx and pi objects go stale (R3).
#[derive(Serialize)]
pub(crate) struct CloseSession;
impl RuntimeCall for CloseSession {
    const EXPORT: Export = Export::CloseSession;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct ListRegistrations;
impl RuntimeCall for ListRegistrations {
    const EXPORT: Export = Export::ListRegistrations;
    type Answer = super::Registrations;
    fn label(&self) -> String {
        "registrations".to_string()
    }
}

#[derive(Serialize)]
pub(crate) struct SetFlag<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: &'a Value,
}
impl RuntimeCall for SetFlag<'_> {
    const EXPORT: Export = Export::SetFlag;
    type Answer = ();
}

/// The host's resolved keybindings (`{ "app.interrupt": "escape", … }`).
#[derive(Serialize)]
pub(crate) struct ResolveShortcuts<'a>(pub(crate) &'a Value);
impl RuntimeCall for ResolveShortcuts<'_> {
    const EXPORT: Export = Export::ResolveShortcuts;
    type Answer = Value;
    fn label(&self) -> String {
        "shortcuts".to_string()
    }
}

/// The message stale objects throw; `None`: pi's default text.
#[derive(Serialize)]
pub(crate) struct Invalidate<'a>(pub(crate) Option<&'a str>);
impl RuntimeCall for Invalidate<'_> {
    const EXPORT: Export = Export::Invalidate;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct AttachTerminal {
    pub(crate) columns: u16,
    pub(crate) rows: u16,
    /// Frames go to the bound host as they are drawn (else kept to be taken).
    pub(crate) push: bool,
}
impl RuntimeCall for AttachTerminal {
    const EXPORT: Export = Export::AttachTerminal;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct WaitForComponent;
impl RuntimeCall for WaitForComponent {
    const EXPORT: Export = Export::WaitForComponent;
    type Answer = ();
}

#[derive(Serialize)]
pub(crate) struct FocusedUiComponent;
impl RuntimeCall for FocusedUiComponent {
    const EXPORT: Export = Export::FocusedUiComponent;
    type Answer = Option<crate::ui::FocusedComponent>;
}

/// A raw key sequence for the focused component; answers the id of the
/// component that got it.
#[derive(Serialize)]
pub(crate) struct SendUiInput<'a>(pub(crate) &'a str);
impl RuntimeCall for SendUiInput<'_> {
    const EXPORT: Export = Export::SendUiInput;
    type Answer = Option<u64>;
}

#[derive(Serialize)]
pub(crate) struct SendUiInputTo<'a> {
    pub(crate) id: u64,
    pub(crate) data: &'a str,
}
/// What became of a key sent to one component.
#[derive(Deserialize)]
pub(crate) struct Delivery {
    /// No component has the id.
    #[serde(default)]
    pub(crate) unknown: bool,
    /// The component had focus and got the key.
    #[serde(default)]
    pub(crate) delivered: bool,
}
impl RuntimeCall for SendUiInputTo<'_> {
    const EXPORT: Export = Export::SendUiInputTo;
    type Answer = Delivery;
}

/// Answers whether a component has the id.
#[derive(Serialize)]
pub(crate) struct ResizeUiComponent {
    pub(crate) id: u64,
    pub(crate) columns: u16,
    pub(crate) rows: u16,
}
impl RuntimeCall for ResizeUiComponent {
    const EXPORT: Export = Export::ResizeUiComponent;
    type Answer = bool;
}

/// Answers whether a component has the id.
#[derive(Serialize)]
pub(crate) struct CloseUiComponent<'a> {
    pub(crate) id: u64,
    pub(crate) reason: &'a str,
}
impl RuntimeCall for CloseUiComponent<'_> {
    const EXPORT: Export = Export::CloseUiComponent;
    type Answer = bool;
}

#[derive(Serialize)]
pub(crate) struct TakeUiFrames;
impl RuntimeCall for TakeUiFrames {
    const EXPORT: Export = Export::TakeUiFrames;
    type Answer = Vec<crate::ui::Frame>;
}

/// The reason the closed components' promises reject with; answers their ids.
#[derive(Serialize)]
pub(crate) struct CloseUiComponents<'a>(pub(crate) &'a str);
impl RuntimeCall for CloseUiComponents<'_> {
    const EXPORT: Export = Export::CloseUiComponents;
    type Answer = Vec<u64>;
}

/// pi-tui key names; answers their raw sequences.
#[derive(Serialize)]
pub(crate) struct EncodeKeys<'a>(pub(crate) &'a [String]);
impl RuntimeCall for EncodeKeys<'_> {
    const EXPORT: Export = Export::EncodeKeys;
    type Answer = Vec<String>;
}

/// Which limit stopped a run.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum StopKind {
    Cpu,
    Heap,
}

/// After the engine stopped a run: fails the extension code that ran.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FailTerminated {
    pub(crate) kind: StopKind,
    pub(crate) limit_ms: Option<u128>,
    pub(crate) heap_mb: usize,
}
/// Whose code a stop failed, and with what message.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Blame {
    pub(crate) extension_path: String,
    pub(crate) message: String,
    /// The stopped code was the extension's load.
    pub(crate) loading: bool,
}
impl RuntimeCall for FailTerminated {
    const EXPORT: Export = Export::FailTerminated;
    type Answer = Blame;
}

/// Fails the extension code nothing can settle any more; answers how many
/// entries failed.
#[derive(Serialize)]
pub(crate) struct FailStalled;
impl RuntimeCall for FailStalled {
    const EXPORT: Export = Export::FailStalled;
    type Answer = usize;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names `js/runtime/main.js` exports as functions (`export function
    /// f`, `export async function f`, `export { f, g } from …`).
    fn main_js_function_exports() -> Vec<String> {
        let source = include_str!("../../js/runtime/main.js");
        let mut names = Vec::new();
        for line in source.lines() {
            let declared = line
                .strip_prefix("export async function ")
                .or_else(|| line.strip_prefix("export function "));
            if let Some(rest) = declared {
                names.extend(rest.split('(').next().map(|name| name.trim().to_string()));
            } else if let Some(rest) = line.strip_prefix("export {") {
                let list = rest.split('}').next().unwrap_or_default();
                names.extend(
                    list.split(',')
                        .map(|name| name.trim().to_string())
                        .filter(|name| !name.is_empty()),
                );
            }
        }
        names
    }

    #[test]
    fn the_table_names_every_function_main_js_exports_and_nothing_else() {
        // What every call goes through (js/runtime/call-settlement.js), not calls.
        let machinery = ["CALL_PENDING", "reportingCall"];
        let mut exported: Vec<String> = main_js_function_exports()
            .into_iter()
            .filter(|name| !machinery.contains(&name.as_str()))
            .collect();
        exported.sort();
        let mut table: Vec<String> = Export::ALL.iter().map(|export| export.name().to_string()).collect();
        table.sort();
        assert_eq!(table, exported, "src/engine/calls.rs and js/runtime/main.js disagree");
        for (index, export) in Export::ALL.iter().enumerate() {
            assert_eq!(export.index(), index, "{export:?} is out of place in Export::ALL");
        }
    }

    #[test]
    fn undefined_and_null_stay_apart() {
        let undefined: Outcome = serde_json::from_str("{}").expect("outcome");
        let null: Outcome = serde_json::from_str(r#"{"result":null}"#).expect("outcome");
        assert_eq!(undefined.result, None);
        assert_eq!(null.result, Some(Value::Null));
    }

    #[test]
    fn arguments_are_the_values_main_js_reads() {
        let args = serde_json::json!({ "path": "a.txt" });
        let call = ExecuteTool {
            name: "read",
            tool_call_id: "call-1",
            args: &args,
        };
        assert_eq!(call.label(), "tool read");
        let encoded = call.encode().expect("encoded");
        assert_eq!(encoded.export, Export::ExecuteTool);
        assert_eq!(
            encoded.argument,
            r#"{"name":"read","toolCallId":"call-1","args":{"path":"a.txt"}}"#
        );
        assert_eq!(ListRegistrations.encode().expect("encoded").argument, "null");
        assert_eq!(AbortTool("call-1").encode().expect("encoded").argument, r#""call-1""#);
    }

    #[test]
    fn an_answer_with_half_a_surrogate_pair_decodes_with_a_replacement_character() {
        let outcome = ExecuteTool::decode(r#"{"result":{"text":"cut \ud83d"}}"#).expect("decoded");
        assert_eq!(outcome.result, Some(serde_json::json!({ "text": "cut \u{fffd}" })));
    }
}
