//! `pihost serve`: newline-delimited JSON-RPC 2.0 on stdin/stdout (the MCP
//! stdio convention), for agents written in any language. Logs go to stderr
//! only. Both directions carry requests: the agent calls pihost (initialize,
//! load, bind, emit, executeTool, …), and pihost calls the agent for the host
//! requests it declared in `initialize` (`host/ui.confirm`, `host/setModel`,
//! …); undeclared ones get headless pi's answers. Host notifications
//! (`host/sendMessage`, …) and extension errors (`extensionError`) are
//! JSON-RPC notifications to the agent. An agent that declares a screen
//! (`capabilities.ui`) gets the frames of extension components as
//! `host/ui.frame` notifications and sends keys, sizes and closes back
//! (`ui/input`, `ui/resize`, `ui/close`).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{mpsc, oneshot};

use crate::host::ExtensionError;

use crate::engine::EngineOptions;
use crate::error::PihostError;
use crate::handle::Pihost;
use crate::host::{Host, HostError, HostFuture, HostNotification, HostRequest, ProviderChange};
use crate::limits::Limits;
use crate::protocol::{
    CallResult, CancelParams, EmitParams, EngineRestartedParams, ExecuteToolParams, InitializeParams, InitializeResult,
    InvalidateParams, ListFlagsResult, LoadParams, Method, RunCommandParams, ServerInfo, SetFlagParams,
    ShortcutsParams, StateParams, ToolUpdateParams, UiCloseParams, UiInputParams, UiInputResult, UiResizeParams,
    decode,
};
use crate::ui::{FrameDelivery, TerminalSize};

mod sessions;

use sessions::{AllGates, Registry, SessionKey, addressed, describe, take_session};

pub use crate::protocol::PROTOCOL_VERSION;

/// JSON-RPC error codes pihost answers with.
pub mod codes {
    /// The line is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The message is not a request (no method), or `initialize` came twice.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The params do not match the method's schema.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Extension code threw or rejected (a tool_call handler, a tool, a command).
    pub const EXTENSION_ERROR: i64 = -32000;
    /// A dispatch did not settle in time.
    pub const TIMEOUT: i64 = -32001;
    /// pihost could not do what was asked (not initialized, engine stopped…).
    pub const SERVER_ERROR: i64 = -32002;
}

type Pending = crate::stdio::PendingRequests;

/// The agent on the other end of stdio, as pihost's [`Host`].
struct AgentHost {
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    /// The ids of pihost's requests, shared by every session: the agent
    /// answers them all on one stdin.
    next_id: Arc<AtomicU64>,
    /// The session this host is for, named in everything it sends.
    session: SessionKey,
    requests: HashSet<String>,
    notifications: bool,
    /// Whether the agent declared a screen (`capabilities.ui`): its
    /// `host/ui.frame` notifications go out whatever `notifications` says.
    screen: bool,
    timeout: Duration,
    /// Set when stdin closes: the agent can no longer answer anything.
    closed: Arc<std::sync::atomic::AtomicBool>,
}

fn method_of<T: serde::Serialize>(call: &T) -> (String, Value) {
    let mut value = serde_json::to_value(call).unwrap_or(Value::Null);
    let method = value
        .as_object_mut()
        .and_then(|object| object.remove("method"))
        .and_then(|method| method.as_str().map(str::to_string))
        .unwrap_or_default();
    (method, value)
}

impl Host for AgentHost {
    fn notify(&self, notification: HostNotification) {
        // The screen's own traffic (its frames, what its editor submits)
        // goes to an agent that declared a screen, notifications or not:
        // without it the screen cannot be used.
        let screen_traffic = matches!(
            notification,
            HostNotification::UiFrame(_) | HostNotification::UiEditorSubmit { .. }
        );
        if self.notifications || (screen_traffic && self.screen) {
            let (method, params) = method_of(&notification);
            let params = addressed(&self.session, params);
            let line = json!({ "jsonrpc": "2.0", "method": format!("host/{method}"), "params": params });
            let _ = self.out.send(line.to_string());
        }
    }

    fn request(&self, request: HostRequest) -> HostFuture {
        let (method, params) = method_of(&request);
        let params = addressed(&self.session, params);
        if !self.requests.contains(&method) {
            let answer = request.headless_answer();
            return Box::pin(async move { Ok(answer) });
        }
        if self.closed.load(Ordering::SeqCst) {
            return Box::pin(async move {
                Err(HostError(format!(
                    "the agent closed stdin before answering host/{method}"
                )))
            });
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id, reply);
        }
        let line = json!({ "jsonrpc": "2.0", "id": id, "method": format!("host/{method}"), "params": params });
        let _ = self.out.send(line.to_string());
        let timeout = self.timeout;
        let pending = self.pending.clone();
        Box::pin(async move {
            match tokio::time::timeout(timeout, answer).await {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err(HostError(format!(
                    "the agent closed stdin before answering host/{method}"
                ))),
                Err(_) => {
                    if let Ok(mut pending) = pending.lock() {
                        pending.remove(&id);
                    }
                    Err(HostError(format!(
                        "the agent did not answer host/{method} within {} ms",
                        timeout.as_millis()
                    )))
                }
            }
        })
    }

    fn provider(&self, change: ProviderChange) -> Result<(), HostError> {
        if self.notifications {
            let (method, params) = method_of(&change);
            let params = addressed(&self.session, params);
            let line = json!({ "jsonrpc": "2.0", "method": format!("host/{method}"), "params": params });
            let _ = self.out.send(line.to_string());
        }
        Ok(())
    }
}

/// One session of the process: its runtime, its agent host, the extension
/// errors it has not written yet.
struct Session {
    state: tokio::sync::Mutex<SessionState>,
    errors: UnwrittenErrors,
    /// Its place among the process's `max_sessions`, freed with it.
    _room: tokio::sync::OwnedSemaphorePermit,
}

struct SessionState {
    pihost: Option<Pihost>,
    host: Option<Arc<AgentHost>>,
    default_paths: Vec<String>,
    /// Running executeTool requests by JSON-RPC id, for `$/cancelRequest`.
    running_tools: HashMap<String, String>,
    /// Ends the forwarding of extension errors: an engine thread given up
    /// (src/handle.rs) keeps their channel open until its run ends.
    stop_forwarding_errors: Option<oneshot::Sender<()>>,
    /// The session shares a runtime: its loads take pi's cached factories.
    cached_factories: bool,
}

fn error_response(id: &Value, code: i64, message: impl Into<String>) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message.into() } }).to_string()
}

fn result_response(id: &Value, result: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string()
}

fn pihost_error(id: &Value, error: PihostError) -> String {
    let code = match &error {
        PihostError::Extension { .. } | PihostError::NeverSettles { .. } => codes::EXTENSION_ERROR,
        PihostError::Timeout { .. } => codes::TIMEOUT,
        // The engine was replaced or died: pihost's trouble, reported as such.
        _ => codes::SERVER_ERROR,
    };
    error_response(id, code, error.to_string())
}

fn params_error(id: &Value, error: impl std::fmt::Display) -> String {
    error_response(id, codes::INVALID_PARAMS, format!("invalid params: {error}"))
}

/// Decodes a method's params, or answers with invalid params.
macro_rules! params {
    ($params:expr) => {
        match decode($params) {
            Ok(params) => params,
            Err(error) => return fail(move |id| params_error(id, error)),
        }
    };
}

fn encode<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// How many sessions a `serve` process holds at once unless told otherwise
/// (`--max-sessions`): each is a runtime on a thread of its own, about
/// 20 MiB with a small extension set and more with a heavy one, so an agent
/// that opened sessions without bound would exhaust the machine.
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// Runs the protocol until stdin closes or the agent asks for shutdown.
/// `default_options` and `default_dispatch_timeout_ms` (0: none) hold for
/// sessions whose `initialize` names no others; at most
/// [`DEFAULT_MAX_SESSIONS`] sessions are open at once.
pub async fn serve(default_options: EngineOptions, default_dispatch_timeout_ms: u64) {
    serve_sessions(default_options, default_dispatch_timeout_ms, DEFAULT_MAX_SESSIONS).await;
}

/// [`serve`], holding at most `max_sessions` sessions at once: an
/// `initialize` past them fails (-32002) until one is shut down.
pub async fn serve_sessions(default_options: EngineOptions, default_dispatch_timeout_ms: u64, max_sessions: usize) {
    let policy = SessionPolicy {
        max_sessions,
        share_runtimes: false,
    };
    serve_with(default_options, default_dispatch_timeout_ms, policy).await;
}

/// How a `serve` process holds its sessions.
#[derive(Debug, Clone, Copy)]
pub struct SessionPolicy {
    /// At most this many open at once: an `initialize` past them fails
    /// (-32002) until one is shut down.
    pub max_sessions: usize,
    /// The shared mode (`--shared-sessions`): sessions whose `initialize`
    /// gives the same cwd, agent directory, limits and permissions share a
    /// runtime ([`crate::Pihost::open_session`]) and load with pi's factory
    /// cache (L6), so each module is evaluated once for all of them. A
    /// session whose permissions restrict anything still gets a runtime of
    /// its own (`initialize` answers `sharedRuntime: false`).
    pub share_runtimes: bool,
}

/// [`serve`] with the sessions held as `policy` says.
pub async fn serve_with(default_options: EngineOptions, default_dispatch_timeout_ms: u64, policy: SessionPolicy) {
    let SessionPolicy {
        max_sessions,
        share_runtimes,
    } = policy;
    // stdout carries the protocol: what extensions print must not land there.
    crate::stdio::route_extension_stdout_to_stderr(true);
    let (writer, out) = crate::stdio::ProtocolWriter::start();
    let pending: Pending = Arc::new(Mutex::new(HashMap::new()));
    let closed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    let mut tasks = tokio::task::JoinSet::new();
    let shared = Shared {
        sessions: Arc::new(Registry::default()),
        session_room: Arc::new(tokio::sync::Semaphore::new(
            max_sessions.min(tokio::sync::Semaphore::MAX_PERMITS),
        )),
        max_sessions,
        out: out.clone(),
        pending: pending.clone(),
        next_request_id: Arc::new(AtomicU64::new(1)),
        defaults: default_options.clone(),
        default_dispatch_timeout_ms,
        closed: closed.clone(),
        runtimes: share_runtimes.then(|| Arc::new(tokio::sync::Mutex::new(HashMap::new()))),
    };
    // Requests that change a session (initialize, load, bind, …) take effect
    // in the order they were sent: every request of the session starts only
    // after the changes sent before it are done. Other requests run side by
    // side, so a tool can run while the agent answers a UI request; sessions
    // never wait on one another.
    let mut gates = AllGates::default();
    // Requests past the cap wait here, in the order they came.
    let mut waiting: std::collections::VecDeque<Request> = std::collections::VecDeque::new();
    loop {
        crate::stdio::forget_finished_requests(&mut tasks);
        while tasks.len() < crate::stdio::REQUESTS_IN_FLIGHT
            && let Some(request) = waiting.pop_front()
        {
            start_request(request, &shared, &mut gates, &mut tasks);
        }
        let next = match crate::stdio::next_message_or_room(&mut stdin, &mut tasks, !waiting.is_empty()).await {
            crate::stdio::Next::Message(message) => message,
            crate::stdio::Next::Room => continue,
        };
        let message = match next {
            Some(Ok(message)) => message,
            Some(Err(error)) => {
                let _ = out.send(error_response(&Value::Null, codes::PARSE_ERROR, error.to_string()));
                continue;
            }
            None => {
                // Sent before the end: they run (bounded, below) as if there were no cap.
                for earlier in waiting.drain(..) {
                    start_request(earlier, &shared, &mut gates, &mut tasks);
                }
                break;
            }
        };
        // A response to one of pihost's requests to the agent.
        if message.get("method").is_none() && (message.get("result").is_some() || message.get("error").is_some()) {
            crate::stdio::answer_pending(&pending, &message, "agent");
            continue;
        }
        let id = message.get("id").cloned();
        let Some(method) = message.get("method").and_then(Value::as_str).map(str::to_string) else {
            let _ = out.send(error_response(
                id.as_ref().unwrap_or(&Value::Null),
                codes::INVALID_REQUEST,
                "invalid request: no method",
            ));
            continue;
        };
        let mut params = message.get("params").cloned().unwrap_or(Value::Null);
        let session = match take_session(&mut params) {
            Ok(session) => session,
            Err(error) => {
                if let Some(id) = &id {
                    let _ = out.send(params_error(id, error));
                }
                continue;
            }
        };
        let request = Request {
            id,
            params,
            known: Method::named(&method),
            method,
            session,
        };
        if request.known == Some(Method::Shutdown) && request.session.is_none() {
            // What came before the shutdown runs (bounded, below) as it would have without the cap.
            for earlier in waiting.drain(..) {
                start_request(earlier, &shared, &mut gates, &mut tasks);
            }
            shutdown_all(&shared).await;
            if let Some(id) = &request.id {
                let _ = out.send(result_response(id, Value::Null));
            }
            break;
        }
        // A cancellation and the screen's input never wait behind the requests they are for.
        if request.method == "$/cancelRequest" || request.known.is_some_and(Method::uses_screen) {
            start_request(request, &shared, &mut gates, &mut tasks);
        } else {
            waiting.push_back(request);
        }
    }
    // EOF (or shutdown). The agent can no longer answer, so its pending
    // requests fail now; the calls already sent finish (bounded), then the
    // extensions get session_shutdown and the engines stop.
    closed.store(true, Ordering::SeqCst);
    if let Ok(mut pending) = pending.lock() {
        pending.clear();
    }
    let drain = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(10), drain).await.is_err() {
        tracing::warn!("requests still running 10 s after stdin closed; stopping them");
    }
    shutdown_all(&shared).await;
    tasks.shutdown().await;
    // Agent hosts hold senders of the output; the writer ends when the last
    // sender is gone.
    drop(shared);
    drop(out);
    writer.finish().await;
}

/// Ends every session, side by side: each one's extensions get
/// `session_shutdown` and its engine stops.
async fn shutdown_all(shared: &Shared) {
    let mut ending = tokio::task::JoinSet::new();
    for (_, session) in shared.sessions.drain() {
        let out = shared.out.clone();
        ending.spawn(async move { session.shut_down(&out).await });
    }
    while ending.join_next().await.is_some() {}
}

impl Session {
    /// The session's id on the wire, as its messages name it.
    fn key(&self) -> &SessionKey {
        &self.errors.session
    }

    /// Ends the session: its extensions get `session_shutdown`, its engine
    /// stops, and what it reported goes out.
    async fn shut_down(&self, out: &mpsc::UnboundedSender<String>) {
        let pihost = self.state.lock().await.pihost.take();
        if let Some(pihost) = pihost {
            let _ = pihost
                .emit(&json!({ "type": "session_shutdown", "reason": "quit" }))
                .await;
            let _ = pihost.shutdown().await;
        }
        let mut state = self.state.lock().await;
        if let Some(stop) = state.stop_forwarding_errors.take() {
            let _ = stop.send(());
        }
        // Its host holds a sender of the output.
        state.host = None;
        drop(state);
        self.errors.write(out);
    }
}

type Respond = Box<dyn FnOnce(&Value) -> String + Send>;

fn ok(result: Value) -> Option<Respond> {
    Some(Box::new(move |id| result_response(id, result)))
}

fn fail(make: impl FnOnce(&Value) -> String + Send + 'static) -> Option<Respond> {
    Some(Box::new(make))
}

fn envelope(result: Option<Value>) -> Value {
    encode(&CallResult { result })
}

/// The session's extension errors not written yet. Whatever writes a
/// response first writes these, so an error goes out before the answer of
/// the call that caused it (the engine reports the error before it answers
/// the call, but a separate forwarding task may run after the response's);
/// the forwarding task writes them in between.
#[derive(Clone)]
struct UnwrittenErrors {
    errors: Arc<Mutex<Option<tokio::sync::broadcast::Receiver<ExtensionError>>>>,
    session: SessionKey,
}

impl UnwrittenErrors {
    fn of(session: SessionKey) -> Self {
        Self {
            errors: Arc::default(),
            session,
        }
    }

    fn watch(&self, errors: tokio::sync::broadcast::Receiver<ExtensionError>) {
        if let Ok(mut slot) = self.errors.lock() {
            *slot = Some(errors);
        }
    }

    /// Writes every error received so far, in order.
    fn write(&self, out: &mpsc::UnboundedSender<String>) {
        let Ok(mut slot) = self.errors.lock() else {
            return;
        };
        let Some(errors) = slot.as_mut() else {
            return;
        };
        loop {
            match errors.try_recv() {
                Ok(error) => {
                    if error.event == "engineRestarted" {
                        let _ = out.send(restarted_notification(&self.session, &error.error));
                    }
                    let params = addressed(&self.session, encode(&error));
                    let line = json!({ "jsonrpc": "2.0", "method": "extensionError", "params": params });
                    let _ = out.send(line.to_string());
                }
                Err(tokio::sync::broadcast::error::TryRecvError::Lagged(missed)) => {
                    tracing::warn!("{missed} extension errors were not forwarded: too many at once");
                }
                Err(_) => break,
            }
        }
    }
}

/// What every request handler shares.
#[derive(Clone)]
struct Shared {
    sessions: Arc<Registry<Session>>,
    /// A permit per open session, held until the session is gone.
    session_room: Arc<tokio::sync::Semaphore>,
    max_sessions: usize,
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    next_request_id: Arc<AtomicU64>,
    defaults: EngineOptions,
    default_dispatch_timeout_ms: u64,
    closed: Arc<std::sync::atomic::AtomicBool>,
    /// The shared mode's runtimes, by what their sessions' options have in
    /// common: each a first session that loads nothing, so that no agent
    /// session's shutdown stops the others (`None`: a runtime per session).
    runtimes: Option<Arc<tokio::sync::Mutex<HashMap<String, Pihost>>>>,
}

impl Shared {
    /// A new session for `options`: in the shared mode, opened in the
    /// runtime of the sessions with the same options (started on first
    /// use), unless its permissions restrict anything; otherwise a runtime
    /// of its own. Whether it shares one.
    async fn start_session(&self, options: &EngineOptions) -> Result<(Pihost, bool), PihostError> {
        let Some(runtimes) = self
            .runtimes
            .as_ref()
            .filter(|_| options.permissions.allows_everything())
        else {
            return Ok((Pihost::start(options.clone()).await?, false));
        };
        let key = format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}",
            options.cwd, options.agent_dir, options.config_dir_name, options.limits, options.permissions
        );
        let mut runtimes = runtimes.lock().await;
        let first = match runtimes.get(&key) {
            Some(first) => first.clone(),
            None => {
                // Nobody's prompts: its permissions restrict nothing.
                let first = Pihost::start(EngineOptions {
                    permission_host: None,
                    ..options.clone()
                })
                .await?;
                runtimes.insert(key, first.clone());
                first
            }
        };
        Ok((first.open_session().await?, true))
    }
}

/// A request read from the agent, not started yet.
struct Request {
    method: String,
    id: Option<Value>,
    params: Value,
    known: Option<Method>,
    session: SessionKey,
}

fn start_request(request: Request, shared: &Shared, gates: &mut AllGates, tasks: &mut tokio::task::JoinSet<()>) {
    let Request {
        method,
        id,
        params,
        known,
        session,
    } = request;
    let gates = gates.of(&session, &shared.sessions);
    let mut wait_for = gates.session.clone();
    let mut wait_for_screen = None;
    // A session's own shutdown is a change of it: it comes after the changes
    // sent before it, and what is sent after it finds the session gone.
    let finished = if known.is_some_and(|method| method.changes_session() || method == Method::Shutdown) {
        let (finished, next_gate) = tokio::sync::watch::channel(false);
        gates.session = next_gate;
        Some(finished)
    } else if known.is_some_and(Method::uses_screen) {
        let (finished, next_gate) = tokio::sync::watch::channel(false);
        wait_for_screen = Some(std::mem::replace(&mut gates.screen, next_gate));
        Some(finished)
    } else {
        None
    };
    let shared = shared.clone();
    tasks.spawn(async move {
        // A dropped sender (the change before finished) also opens the gate.
        let _ = wait_for.wait_for(|open| *open).await;
        if let Some(mut previous) = wait_for_screen {
            let _ = previous.wait_for(|open| *open).await;
        }
        let response = handle(&method, id.clone(), params, &session, &shared).await;
        if let (Some(id), Some(response)) = (id, response) {
            if let Some(session) = shared.sessions.get(&session) {
                session.errors.write(&shared.out);
            }
            let _ = shared.out.send(response(&id));
        }
        if let Some(finished) = finished {
            let _ = finished.send(true);
        }
    });
}

async fn handle(method: &str, id: Option<Value>, params: Value, key: &SessionKey, shared: &Shared) -> Option<Respond> {
    if method == "$/cancelRequest" {
        let Ok(CancelParams { id: target }) = decode(params) else {
            return None;
        };
        let session = shared.sessions.get(key)?;
        let target = target.to_string();
        let (pihost, tool_call_id) = {
            let state = session.state.lock().await;
            (state.pihost.clone(), state.running_tools.get(&target).cloned())
        };
        if let (Some(pihost), Some(tool_call_id)) = (pihost, tool_call_id) {
            let _ = pihost.abort_tool(&tool_call_id).await;
        }
        return None;
    }
    let Some(method) = Method::named(method) else {
        let method = method.to_string();
        return fail(move |id| error_response(id, codes::METHOD_NOT_FOUND, format!("method not found: {method}")));
    };
    if method == Method::Initialize {
        return initialize(params, key, shared).await;
    }
    let session = shared.sessions.get(key);
    let pihost = match &session {
        Some(session) => session.state.lock().await.pihost.clone(),
        None => None,
    };
    let (Some(session), Some(pihost)) = (session, pihost) else {
        let message = match key {
            None => "not initialized: send initialize first".to_string(),
            Some(_) => format!(
                "no {}: send initialize with it first (a session that was shut down is gone)",
                describe(key)
            ),
        };
        return fail(move |id| error_response(id, codes::SERVER_ERROR, message));
    };
    let session = &session;
    match method {
        Method::Load | Method::Reload => {
            let LoadParams { paths } = params!(params);
            let paths = match paths {
                Some(paths) if !paths.is_empty() => paths,
                _ => session.state.lock().await.default_paths.clone(),
            };
            let cached_factories = session.state.lock().await.cached_factories;
            let report = match method {
                // A shared runtime's sessions take their factories from pi's cache (L6).
                Method::Load if cached_factories => pihost.load_extensions(&pihost.discover(&paths), true).await,
                Method::Load => pihost.load(&paths).await,
                _ => pihost.reload(&paths).await,
            };
            match report {
                Ok(report) => ok(encode(&report)),
                Err(error) => fail(move |id| pihost_error(id, error)),
            }
        }
        Method::Bind | Method::SetHostState => {
            let StateParams { state } = params!(params);
            let result = if method == Method::Bind {
                let host = session.state.lock().await.host.clone();
                match host {
                    Some(host) => pihost.bind(host, &state).await,
                    None => return fail(|id| error_response(id, codes::SERVER_ERROR, "not initialized")),
                }
            } else {
                pihost.set_host_state(&state).await
            };
            match result {
                Ok(()) => ok(Value::Null),
                Err(error) => fail(move |id| pihost_error(id, error)),
            }
        }
        Method::Emit => {
            let EmitParams { event, timeout_ms } = params!(params);
            match within(&pihost, timeout_ms).emit(&encode(&event)).await {
                Ok(result) => ok(envelope(result)),
                Err(error) => failed(error, session, shared).await,
            }
        }
        Method::ExecuteTool => execute_tool(id.as_ref(), params!(params), &pihost, session, shared).await,
        Method::RunCommand => {
            let RunCommandParams { name, args, timeout_ms } = params!(params);
            match within(&pihost, timeout_ms)
                .run_command(&name, args.as_deref().unwrap_or_default())
                .await
            {
                Ok(result) => ok(envelope(result)),
                Err(error) => failed(error, session, shared).await,
            }
        }
        Method::ListTools | Method::ListCommands | Method::ListFlags => match pihost.registrations().await {
            Ok(registrations) => ok(match method {
                Method::ListTools => json!(registrations.tools),
                Method::ListCommands => json!(registrations.commands),
                _ => encode(&ListFlagsResult {
                    flags: registrations.flags,
                    values: registrations.flag_values,
                }),
            }),
            Err(error) => fail(move |id| pihost_error(id, error)),
        },
        Method::SetFlag => {
            let SetFlagParams { name, value } = params!(params);
            match pihost.set_flag(&name, &value).await {
                Ok(()) => ok(Value::Null),
                Err(error) => fail(move |id| pihost_error(id, error)),
            }
        }
        Method::Shortcuts => {
            let ShortcutsParams { keybindings } = params!(params);
            match pihost.shortcuts(&keybindings).await {
                Ok(result) => ok(result),
                Err(error) => fail(move |id| pihost_error(id, error)),
            }
        }
        Method::Invalidate => {
            let InvalidateParams { message } = params!(params);
            match pihost.invalidate(message.as_deref()).await {
                Ok(()) => ok(Value::Null),
                Err(error) => fail(move |id| pihost_error(id, error)),
            }
        }
        Method::UiInput | Method::UiResize | Method::UiClose => {
            let has_screen = session.state.lock().await.host.as_ref().is_some_and(|host| host.screen);
            if !has_screen {
                return fail(|id| {
                    error_response(
                        id,
                        codes::SERVER_ERROR,
                        "no screen: declare capabilities.ui { columns, rows } in initialize",
                    )
                });
            }
            screen_request(method, params, &pihost).await
        }
        // One session ends; the others and the process go on (a shutdown
        // that names no session ends the loop before it gets here).
        Method::Shutdown => {
            shared.sessions.remove(key);
            session.shut_down(&shared.out).await;
            ok(Value::Null)
        }
        // Answered before: it needs no engine.
        Method::Initialize => ok(Value::Null),
    }
}

/// `executeTool`: runs the tool with its updates streamed to the agent as
/// `toolUpdate` notifications, all of them before the answer; the request
/// can be cancelled (`$/cancelRequest` aborts the tool's signal).
async fn execute_tool(
    id: Option<&Value>,
    params: ExecuteToolParams,
    pihost: &Pihost,
    session: &Session,
    shared: &Shared,
) -> Option<Respond> {
    let ExecuteToolParams {
        name,
        tool_call_id,
        args,
        timeout_ms,
    } = params;
    let request_key = id.map(Value::to_string).unwrap_or_default();
    let tool_call_id = tool_call_id.unwrap_or_else(|| format!("call-{request_key}"));
    let args = args.unwrap_or_else(|| json!({}));
    session
        .state
        .lock()
        .await
        .running_tools
        .insert(request_key.clone(), tool_call_id.clone());
    let (updates, forwarder) = ToolUpdates::forward(shared.out.clone(), session.key().clone(), tool_call_id.clone());
    let result = within(pihost, timeout_ms)
        .execute_tool(&name, &tool_call_id, &args, Some(updates))
        .await;
    // The updates end with the tool; one that timed out, or whose runtime
    // was given up, has not ended.
    let still_running = matches!(
        result,
        Err(PihostError::Timeout { .. } | PihostError::EngineStuck { .. })
    );
    forwarder.finish(still_running).await;
    session.state.lock().await.running_tools.remove(&request_key);
    match result {
        Ok(result) => ok(envelope(result)),
        Err(error) => failed(error, session, shared).await,
    }
}

/// Sends a tool's updates to the agent as `toolUpdate` notifications, in order.
struct ToolUpdates {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl ToolUpdates {
    /// The sender the tool's updates go to, and what forwards them.
    fn forward(
        out: mpsc::UnboundedSender<String>,
        session: SessionKey,
        tool_call_id: String,
    ) -> (mpsc::UnboundedSender<Value>, ToolUpdates) {
        let (updates, mut received) = mpsc::unbounded_channel::<Value>();
        let (stop, mut stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let send = |update| {
                let params = ToolUpdateParams {
                    tool_call_id: tool_call_id.clone(),
                    update,
                };
                let params = addressed(&session, encode(&params));
                let line = json!({ "jsonrpc": "2.0", "method": "toolUpdate", "params": params });
                let _ = out.send(line.to_string());
            };
            loop {
                tokio::select! {
                    biased;
                    update = received.recv() => match update {
                        Some(update) => send(update),
                        None => break,
                    },
                    // A timed-out tool may run on in the isolate: what it
                    // sent so far goes out, its late updates are dropped.
                    _ = &mut stopped => {
                        while let Ok(update) = received.try_recv() {
                            send(update);
                        }
                        break;
                    }
                }
            }
        });
        (updates, ToolUpdates { stop, task })
    }

    /// Waits until every update the tool sent went out: all of them when it
    /// ended, those sent so far when it is `still_running` (its later ones
    /// are dropped).
    async fn finish(self, still_running: bool) {
        if still_running {
            let _ = self.stop.send(());
            let _ = self.task.await;
        } else {
            let _ = self.task.await;
            drop(self.stop);
        }
    }
}

/// Why a component the agent closed rejects its extension's promise.
const CLOSED_BY_AGENT: &str = "pihost: the agent closed this component (ui/close) before it called done";

fn component_error(id: &Value, error: PihostError) -> String {
    match error {
        // The agent named a component that is not there: its params are wrong.
        PihostError::UnknownComponent { .. } => error_response(id, codes::INVALID_PARAMS, error.to_string()),
        error => pihost_error(id, error),
    }
}

fn screen_size(columns: u16, rows: u16) -> Result<TerminalSize, String> {
    if columns == 0 || rows == 0 {
        return Err(format!(
            "a screen needs at least one column and one row, not {columns} × {rows}"
        ));
    }
    Ok(TerminalSize { columns, rows })
}

/// `ui/input`, `ui/resize` and `ui/close`, for a session with a screen.
async fn screen_request(method: Method, params: Value, pihost: &Pihost) -> Option<Respond> {
    let outcome = match method {
        Method::UiInput => {
            let UiInputParams { id, data } = params!(params);
            pihost
                .send_key_to(id, &data)
                .await
                .map(|delivered| encode(&UiInputResult { delivered }))
        }
        Method::UiResize => {
            let UiResizeParams { id, columns, rows } = params!(params);
            let size = match screen_size(columns, rows) {
                Ok(size) => size,
                Err(error) => return fail(move |id| params_error(id, error)),
            };
            match id {
                Some(component) => pihost.resize_component(component, size).await,
                None => pihost.attach_screen(size, FrameDelivery::Push).await,
            }
            .map(|()| Value::Null)
        }
        _ => {
            let UiCloseParams { id } = params!(params);
            pihost.close_component(id, CLOSED_BY_AGENT).await.map(|()| Value::Null)
        }
    };
    match outcome {
        Ok(result) => ok(result),
        Err(error) => fail(move |id| component_error(id, error)),
    }
}

/// The handle bounded by a request's own timeout, when it names one.
fn within(pihost: &Pihost, timeout_ms: Option<u64>) -> Pihost {
    match timeout_ms {
        Some(ms) => pihost.with_dispatch_timeout(Limits::millis(ms)),
        None => pihost.clone(),
    }
}

fn restarted_notification(session: &SessionKey, reason: &str) -> String {
    let params = EngineRestartedParams {
        reason: reason.to_string(),
    };
    let params = addressed(session, encode(&params));
    json!({ "jsonrpc": "2.0", "method": "engineRestarted", "params": params }).to_string()
}

/// Answers a failed request; when the engine died under it, a new one is
/// started with the same extensions first, so the session goes on.
async fn failed(error: PihostError, session: &Session, shared: &Shared) -> Option<Respond> {
    if let PihostError::EngineCrashed { message } = &error {
        // One restart per crash, however many requests saw it.
        let state = session.state.lock().await;
        // (Sessions sharing a runtime: the first to see the crash restarts it.)
        if let Some(pihost) = &state.pihost {
            match pihost.restart_if_crashed().await {
                Ok(true) => {
                    let _ = shared.out.send(restarted_notification(session.key(), message));
                }
                Ok(false) => {}
                Err(restart_error) => tracing::error!("cannot restart the crashed engine: {restart_error}"),
            }
        }
    }
    fail(move |id| pihost_error(id, error))
}

async fn initialize(params: Value, key: &SessionKey, shared: &Shared) -> Option<Respond> {
    let (out, pending) = (&shared.out, &shared.pending);
    let defaults = shared.defaults.clone();
    if shared.sessions.contains(key) {
        let message = match key {
            None => "already initialized".to_string(),
            Some(_) => format!("{} is already initialized", describe(key)),
        };
        return fail(move |id| error_response(id, codes::INVALID_REQUEST, message));
    }
    let Ok(room) = shared.session_room.clone().try_acquire_owned() else {
        let max = shared.max_sessions;
        return fail(move |id| {
            error_response(
                id,
                codes::SERVER_ERROR,
                format!(
                    "too many sessions: {max} are open, the most this process holds (pihost serve --max-sessions); shut one down first"
                ),
            )
        });
    };
    let InitializeParams {
        cwd,
        agent_dir,
        paths,
        capabilities,
        dispatch_timeout_ms,
        cpu_limit_ms,
        max_heap_mb,
        load_timeout_ms,
        permissions,
    } = params!(params);
    let mut options = defaults.clone();
    if let Some(cwd) = cwd {
        options = EngineOptions::for_cwd(&cwd);
        options.limits = defaults.limits;
        options.permissions = defaults.permissions.clone();
    }
    if let Some(permissions) = permissions {
        options.permissions = permissions;
    }
    if let Some(ms) = cpu_limit_ms {
        options.limits.cpu = Limits::millis(ms);
    }
    if let Some(mb) = max_heap_mb {
        options.limits.max_heap_mb = (mb > 0).then_some(mb as usize);
    }
    if let Some(ms) = load_timeout_ms {
        options.limits.load_timeout = Limits::millis(ms);
    }
    if let Some(agent_dir) = agent_dir {
        options.agent_dir = crate::discovery::resolve_user_path(&agent_dir, &options.cwd);
    }
    let requests = capabilities
        .requests
        .unwrap_or_default()
        .into_iter()
        .map(|method| method.trim_start_matches("host/").to_string())
        .collect();
    let timeout = capabilities.request_timeout_ms.unwrap_or(60_000);
    let screen = match capabilities
        .ui
        .map(|size| screen_size(size.columns, size.rows))
        .transpose()
    {
        Ok(screen) => screen,
        Err(error) => return fail(move |id| params_error(id, format!("capabilities.ui: {error}"))),
    };
    let host = Arc::new(AgentHost {
        out: out.clone(),
        pending: pending.clone(),
        next_id: shared.next_request_id.clone(),
        session: key.clone(),
        requests,
        notifications: capabilities.notifications.unwrap_or(false),
        screen: screen.is_some(),
        timeout: Duration::from_millis(timeout),
        closed: shared.closed.clone(),
    });
    // Prompts while loading, before `bind`, reach the agent too.
    options.permission_host = Some(crate::PermissionHost(host.clone()));
    let (pihost, shared_runtime) = match shared.start_session(&options).await {
        Ok(started) => started,
        Err(error) => return fail(move |id| pihost_error(id, error)),
    };
    pihost.set_dispatch_timeout(Limits::millis(
        dispatch_timeout_ms.unwrap_or(shared.default_dispatch_timeout_ms),
    ));
    if let Some(size) = screen
        && let Err(error) = pihost.attach_screen(size, FrameDelivery::Push).await
    {
        return fail(move |id| pihost_error(id, error));
    }
    // One receiver holds the errors to write; a second only wakes the
    // forwarding task when one arrives.
    let errors = UnwrittenErrors::of(key.clone());
    errors.watch(pihost.errors());
    let mut arrived = pihost.errors();
    let unwritten = errors.clone();
    let error_out = out.clone();
    let (stop_forwarding_errors, mut stop) = oneshot::channel::<()>();
    tokio::spawn(async move {
        loop {
            let stopped = tokio::select! {
                biased;
                arrival = arrived.recv() => matches!(arrival, Err(tokio::sync::broadcast::error::RecvError::Closed)),
                _ = &mut stop => true,
            };
            unwritten.write(&error_out);
            if stopped {
                break;
            }
        }
    });
    shared.sessions.get_or_insert(key, || Session {
        state: tokio::sync::Mutex::new(SessionState {
            pihost: Some(pihost),
            host: Some(host),
            default_paths: paths.unwrap_or_default(),
            running_tools: HashMap::new(),
            stop_forwarding_errors: Some(stop_forwarding_errors),
            cached_factories: shared_runtime,
        }),
        errors,
        _room: room,
    });
    ok(encode(&InitializeResult {
        protocol_version: PROTOCOL_VERSION.to_string(),
        server_info: ServerInfo {
            name: "pihost".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        },
        cwd: options.cwd,
        agent_dir: options.agent_dir,
        shared_runtime,
    }))
}
