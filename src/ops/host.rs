//! The ops behind `js/runtime/host-bridge.js`: calls from extensions to the
//! embedder's [`Host`], extension errors, and streamed tool updates. Each op
//! names the session of the runtime it is for (`js/runtime/main.js`): the
//! first session's host, errors and counts are the engine's own; the shared
//! mode's other sessions are in [`SharedSessions`]. JavaScript names no
//! session (-1) where it cannot tell whose code ran.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use serde::de::DeserializeOwned;

use crate::host::{ExtensionError, HeadlessHost, Host, HostNotification, HostRequest, ProviderChange};
use crate::session::{FIRST_SESSION, SessionId};

/// The host the runner is bound to; headless until `bind`.
pub struct BoundHost(pub Arc<dyn Host>);

impl Default for BoundHost {
    fn default() -> Self {
        Self(Arc::new(HeadlessHost))
    }
}

/// Where extension errors go (the engine's error stream).
#[derive(Default)]
pub struct ErrorSink(pub Option<tokio::sync::mpsc::UnboundedSender<ExtensionError>>);

/// Streams of `onUpdate` calls of running tools, by session and tool call id.
#[derive(Default)]
pub struct ToolUpdateSinks(pub HashMap<(SessionId, String), tokio::sync::mpsc::UnboundedSender<serde_json::Value>>);

/// A session of the shared mode: its host (headless until bound), where its
/// extensions' errors go, and its handler counts.
pub struct SharedSession {
    pub host: Arc<dyn Host>,
    pub errors: tokio::sync::broadcast::Sender<ExtensionError>,
    pub handler_counts: HandlerCounts,
}

/// The sessions of a runtime besides the first, by id.
#[derive(Default)]
pub struct SharedSessions(pub HashMap<SessionId, SharedSession>);

/// The session a JavaScript session number names: -1 (no session known)
/// is the first when no other is open, none otherwise.
fn session_named(state: &OpState, session: i32) -> Option<SessionId> {
    match SessionId::try_from(session) {
        Ok(id) => Some(id),
        Err(_) if state.borrow::<SharedSessions>().0.is_empty() => Some(FIRST_SESSION),
        Err(_) => None,
    }
}

/// `{ "method": method, ...fields }` as one of the host call enums.
fn decode<T: DeserializeOwned>(method: &str, fields: &str) -> Result<T, JsErrorBox> {
    let mut value: serde_json::Value = crate::isolate_json::parse(fields)
        .map_err(|error| JsErrorBox::type_error(format!("pihost: bad arguments for {method}: {error}")))?;
    let object = value
        .as_object_mut()
        .ok_or_else(|| JsErrorBox::type_error(format!("pihost: arguments for {method} must be an object")))?;
    object.insert("method".to_string(), serde_json::Value::String(method.to_string()));
    serde_json::from_value(value).map_err(|error| JsErrorBox::type_error(format!("pihost: {method}: {error}")))
}

/// The host of session `session` (a JavaScript session number).
fn host_of(state: &OpState, session: i32, method: &str) -> Result<Arc<dyn Host>, JsErrorBox> {
    let unknown = || JsErrorBox::generic(format!("pihost: {method} came from code of no open session"));
    match session_named(state, session).ok_or_else(unknown)? {
        FIRST_SESSION => Ok(state.borrow::<BoundHost>().0.clone()),
        id => state
            .borrow::<SharedSessions>()
            .0
            .get(&id)
            .map(|shared| shared.host.clone())
            .ok_or_else(unknown),
    }
}

#[op2(fast)]
pub fn op_pihost_host_notify(
    state: &mut OpState,
    session: i32,
    #[string] method: &str,
    #[string] fields: &str,
) -> Result<(), JsErrorBox> {
    let notification: HostNotification = decode(method, fields)?;
    host_of(state, session, method)?.notify(notification);
    Ok(())
}

#[op2]
#[string]
pub async fn op_pihost_host_request(
    state: Rc<RefCell<OpState>>,
    session: i32,
    #[string] method: String,
    #[string] fields: String,
) -> Result<String, JsErrorBox> {
    let request: HostRequest = decode(&method, &fields)?;
    let host = host_of(&state.borrow(), session, &method)?;
    let answer = host
        .request(request)
        .await
        .map_err(|error| JsErrorBox::generic(error.0))?;
    if answer.is_null() {
        return Ok(String::new());
    }
    serde_json::to_string(&answer).map_err(|error| JsErrorBox::generic(error.to_string()))
}

#[op2(fast)]
pub fn op_pihost_host_provider(
    state: &mut OpState,
    session: i32,
    #[string] method: &str,
    #[string] fields: &str,
) -> Result<(), JsErrorBox> {
    let change: ProviderChange = decode(method, fields)?;
    host_of(state, session, method)?
        .provider(change)
        .map_err(|error| JsErrorBox::generic(error.0))
}

/// An extension error to session `session`'s subscribers; one whose session
/// is not known goes to every session's.
#[op2]
pub fn op_pihost_report_error(state: &mut OpState, session: i32, #[serde] error: ExtensionError) {
    let shared = &state.borrow::<SharedSessions>().0;
    let heard = match session_named(state, session) {
        Some(FIRST_SESSION) => report_to_first_session(state, &error),
        Some(id) => shared
            .get(&id)
            .is_some_and(|shared| shared.errors.send(error.clone()).is_ok()),
        None => {
            let mut heard = report_to_first_session(state, &error);
            for shared in shared.values() {
                heard |= shared.errors.send(error.clone()).is_ok();
            }
            heard
        }
    };
    // Nobody listening is fine; the error is not lost to the engine's own log.
    if !heard {
        tracing::warn!(extension = %error.extension_path, event = %error.event, "{}", error.error);
    }
}

fn report_to_first_session(state: &OpState, error: &ExtensionError) -> bool {
    state
        .borrow::<ErrorSink>()
        .0
        .as_ref()
        .is_some_and(|sink| sink.send(error.clone()).is_ok())
}

#[op2]
pub fn op_pihost_tool_update(
    state: &mut OpState,
    #[smi] session: SessionId,
    #[string] tool_call_id: &str,
    #[serde] update: serde_json::Value,
) {
    if let Some(sink) = state
        .borrow::<ToolUpdateSinks>()
        .0
        .get(&(session, tool_call_id.to_string()))
    {
        let _ = sink.send(update);
    }
}

/// How many handlers are registered per event name, across every extension
/// ever loaded in this engine. It may over-count (handlers of an extension
/// that failed to load stay counted), never under-count, so "zero" safely
/// means nobody can handle the event.
#[derive(Clone, Default)]
pub struct HandlerCounts(pub Arc<std::sync::Mutex<HashMap<String, i64>>>);

impl HandlerCounts {
    fn add(&self, event: &str, delta: i32) {
        if let Ok(mut counts) = self.0.lock() {
            *counts.entry(event.to_string()).or_insert(0) += i64::from(delta);
        }
    }

    pub fn has_handlers(&self, event: &str) -> bool {
        self.0
            .lock()
            .map(|counts| counts.get(event).copied().unwrap_or(0) > 0)
            .unwrap_or(true)
    }
}

/// Counts a handler (un)registered in session `session`; one of no known
/// session counts in every session (over-counting is safe).
#[op2(fast)]
pub fn op_pihost_handler_count(state: &mut OpState, session: i32, #[string] event: &str, delta: i32) {
    let first = state.borrow::<HandlerCounts>();
    let shared = &state.borrow::<SharedSessions>().0;
    let counts: Vec<&HandlerCounts> = match session_named(state, session) {
        Some(FIRST_SESSION) => vec![first],
        Some(id) => shared
            .get(&id)
            .map(|shared| &shared.handler_counts)
            .into_iter()
            .collect(),
        None => std::iter::once(first)
            .chain(shared.values().map(|shared| &shared.handler_counts))
            .collect(),
    };
    for counts in counts {
        counts.add(event, delta);
    }
}
