//! The ops behind `js/runtime/host-bridge.js`: calls from extensions to the
//! embedder's [`Host`], extension errors, and streamed tool updates.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use serde::de::DeserializeOwned;

use crate::host::{ExtensionError, HeadlessHost, Host, HostNotification, HostRequest, ProviderChange};

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

/// Streams of `onUpdate` calls of running tools, by tool call id.
#[derive(Default)]
pub struct ToolUpdateSinks(pub HashMap<String, tokio::sync::mpsc::UnboundedSender<serde_json::Value>>);

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

fn host_of(state: &OpState) -> Arc<dyn Host> {
    state.borrow::<BoundHost>().0.clone()
}

#[op2(fast)]
pub fn op_pihost_host_notify(
    state: &mut OpState,
    #[string] method: &str,
    #[string] fields: &str,
) -> Result<(), JsErrorBox> {
    let notification: HostNotification = decode(method, fields)?;
    host_of(state).notify(notification);
    Ok(())
}

#[op2]
#[string]
pub async fn op_pihost_host_request(
    state: Rc<RefCell<OpState>>,
    #[string] method: String,
    #[string] fields: String,
) -> Result<String, JsErrorBox> {
    let request: HostRequest = decode(&method, &fields)?;
    let host = host_of(&state.borrow());
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
    #[string] method: &str,
    #[string] fields: &str,
) -> Result<(), JsErrorBox> {
    let change: ProviderChange = decode(method, fields)?;
    host_of(state)
        .provider(change)
        .map_err(|error| JsErrorBox::generic(error.0))
}

#[op2]
pub fn op_pihost_report_error(state: &mut OpState, #[serde] error: ExtensionError) {
    if let Some(sink) = &state.borrow::<ErrorSink>().0 {
        // A dropped receiver means nobody listens; the error is not lost to
        // the engine's own log.
        if sink.send(error.clone()).is_err() {
            tracing::warn!(extension = %error.extension_path, event = %error.event, "{}", error.error);
        }
    } else {
        tracing::warn!(extension = %error.extension_path, event = %error.event, "{}", error.error);
    }
}

#[op2]
pub fn op_pihost_tool_update(state: &mut OpState, #[string] tool_call_id: &str, #[serde] update: serde_json::Value) {
    if let Some(sink) = state.borrow::<ToolUpdateSinks>().0.get(tool_call_id) {
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
    pub fn has_handlers(&self, event: &str) -> bool {
        self.0
            .lock()
            .map(|counts| counts.get(event).copied().unwrap_or(0) > 0)
            .unwrap_or(true)
    }
}

#[op2(fast)]
pub fn op_pihost_handler_count(state: &mut OpState, #[string] event: &str, delta: i32) {
    if let Ok(mut counts) = state.borrow::<HandlerCounts>().0.lock() {
        *counts.entry(event.to_string()).or_insert(0) += i64::from(delta);
    }
}
