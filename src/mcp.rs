//! `pihost mcp`: the loaded extensions' tools served over the Model Context
//! Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0; revision
//! 2025-11-25, and the earlier revisions a client may ask for), for agents
//! that speak MCP rather than pihost's own protocol. One server is one pihost
//! session, the engine `serve` runs, with the MCP client as its host:
//!
//! - `tools/list` lists the active tools (`notifications/tools/list_changed`
//!   when an extension registers a tool or calls `setActiveTools`);
//!   `tools/call` runs pi's tool execution: validation failures and thrown
//!   errors are tool results with `isError`, `onUpdate` becomes progress,
//!   `notifications/cancelled` aborts the tool's signal.
//! - The extensions' dialogs (`confirm`, `select`, `input`, `editor`) and the
//!   sandbox's permission prompts become elicitation requests when the client
//!   offers elicitation; `notify`, extension errors and console output
//!   become log messages;
//!   pi-ai model calls become sampling requests when the client offers
//!   sampling. Without a capability, headless pi's answers.
//! - Commands and events (`tool_call`, `context`, …) have no MCP counterpart:
//!   hooks need `serve` or the crate (docs/mcp.md).

mod sampling;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{mpsc, oneshot};

use crate::engine::EngineOptions;
use crate::error::PihostError;
use crate::handle::Pihost;
use crate::host::{Host, HostError, HostFuture, HostNotification, HostRequest, HostState, ProviderChange};

/// The MCP revision pihost implements, and answers with unless the client
/// asks for one of [`SUPPORTED_VERSIONS`].
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// Revisions a client may ask for in `initialize`.
pub const SUPPORTED_VERSIONS: [&str; 4] = [PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];

/// JSON-RPC error codes the server answers with.
pub mod codes {
    /// The line is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a request, or a request before `initialize`, or `initialize` twice.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Bad params, or an unknown tool (as the MCP specification says).
    pub const INVALID_PARAMS: i64 = -32602;
    /// pihost could not do what was asked (its engine stopped, …).
    pub const INTERNAL_ERROR: i64 = -32603;
}

/// What `pihost mcp` serves.
#[derive(Debug, Clone)]
pub struct McpOptions {
    /// The session's engine: cwd, agent directory, limits, permissions.
    pub engine: EngineOptions,
    /// Extension files or folders to load besides pi's discovery (D1–D7).
    pub paths: Vec<String>,
    /// How long one tool call may run; `None` is unbounded.
    pub dispatch_timeout: Option<Duration>,
    /// How long the client may take to answer an elicitation or sampling request.
    pub client_timeout: Duration,
}

/// MCP's log levels, in increasing severity (RFC 5424's).
const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

type Pending = crate::stdio::PendingRequests;

/// Which tools the client sees: pi's active tools. A tool is active from
/// its registration when its exposure is `direct` (the default) or
/// `model-only`, as pi activates it; `codemode` and `deferred` tools only
/// when an extension names them in `setActiveTools`; `hidden` never.
#[derive(Default)]
struct ToolSet {
    /// What `setActiveTools` named last; `None` before any call.
    named: Option<HashSet<String>>,
    /// Tools seen at the last look, to tell new registrations.
    known: HashSet<String>,
}

fn active_on_registration(exposure: Option<&str>) -> bool {
    matches!(exposure, None | Some("direct" | "model-only"))
}

impl ToolSet {
    /// The active tools among `registered` (name, exposure), in their order.
    fn active(&mut self, registered: &[(String, Option<String>)]) -> Vec<String> {
        if let Some(named) = self.named.as_mut() {
            for (name, exposure) in registered {
                if !self.known.contains(name) && active_on_registration(exposure.as_deref()) {
                    named.insert(name.clone());
                }
            }
        }
        self.known = registered.iter().map(|(name, _)| name.clone()).collect();
        registered
            .iter()
            .filter(|(name, exposure)| match (&self.named, exposure.as_deref()) {
                (_, Some("hidden")) => false,
                (Some(named), _) => named.contains(name),
                (None, exposure) => active_on_registration(exposure),
            })
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// The MCP client on the other end of stdio, as pihost's [`Host`].
struct McpClient {
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    next_id: AtomicU64,
    elicitation: bool,
    sampling: bool,
    /// `mode` in elicitation requests appeared in 2025-11-25.
    form_mode_field: bool,
    /// The client sent `notifications/initialized`: before it, requests to
    /// the client get headless answers (the specification allows only pings).
    ready: AtomicBool,
    /// Index into [`LEVELS`] of the least severe message the client wants.
    log_level: AtomicUsize,
    tools: Mutex<ToolSet>,
    /// The active tools the extensions' `pi.getActiveTools()` last read.
    bound_active_tools: Mutex<Vec<String>>,
    timeout: Duration,
    closed: Arc<AtomicBool>,
}

impl McpClient {
    fn send_notification(&self, method: &str, params: Value) {
        let line = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        let _ = self.out.send(line.to_string());
    }

    fn log(&self, level: &str, data: Value) {
        self.log_as("pihost", level, data);
    }

    /// A log message from `logger`: `pihost` (notify, extension errors) or
    /// `console` (what extensions print).
    fn log_as(&self, logger: &str, level: &str, data: Value) {
        let wanted = self.log_level.load(Ordering::Relaxed);
        if LEVELS.iter().position(|known| *known == level).unwrap_or(0) >= wanted {
            self.send_notification(
                "notifications/message",
                json!({ "level": level, "logger": logger, "data": data }),
            );
        }
    }

    /// Sends a request to the client and waits for its answer.
    fn ask(&self, method: &'static str, params: Value, timeout: Duration) -> HostFuture {
        if self.closed.load(Ordering::SeqCst) {
            return Box::pin(
                async move { Err(HostError(format!("the client closed stdin before answering {method}"))) },
            );
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id, reply);
        }
        let line = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let _ = self.out.send(line.to_string());
        let pending = self.pending.clone();
        Box::pin(async move {
            match tokio::time::timeout(timeout, answer).await {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err(HostError(format!("the client closed stdin before answering {method}"))),
                Err(_) => {
                    if let Ok(mut pending) = pending.lock() {
                        pending.remove(&id);
                    }
                    Err(HostError(format!(
                        "the client did not answer {method} within {} ms",
                        timeout.as_millis()
                    )))
                }
            }
        })
    }

    /// A form with one field; the answer is that field's value, or what
    /// headless pi answers when the user declines or cancels.
    fn elicit(
        &self,
        message: String,
        field: &'static str,
        schema: Value,
        opts: Option<&Value>,
        headless: Value,
    ) -> HostFuture {
        let mut params = json!({
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": { field: schema },
                "required": [field],
            },
        });
        if self.form_mode_field {
            params["mode"] = json!("form");
        }
        // A dialog with pi's `timeout` option dismisses itself then.
        let timeout = opts
            .and_then(|opts| opts.get("timeout"))
            .and_then(Value::as_u64)
            .map(Duration::from_millis)
            .map_or(self.timeout, |dialog| dialog.min(self.timeout));
        let asked = self.ask("elicitation/create", params, timeout);
        Box::pin(async move {
            let answer = match asked.await {
                Ok(answer) => answer,
                // pi's dialogs resolve to their cancel answer on timeout.
                Err(error) if error.0.contains("did not answer") => return Ok(headless),
                Err(error) => return Err(error),
            };
            if answer.get("action").and_then(Value::as_str) != Some("accept") {
                return Ok(headless);
            }
            Ok(answer
                .get("content")
                .and_then(|content| content.get(field))
                .cloned()
                .unwrap_or(headless))
        })
    }
}

fn dialog_message(title: &str, text: Option<&str>) -> String {
    match text {
        Some(text) if !text.is_empty() => format!("{title}\n\n{text}"),
        _ => title.to_string(),
    }
}

impl Host for McpClient {
    fn notify(&self, notification: HostNotification) {
        if !self.ready.load(Ordering::SeqCst) {
            return;
        }
        match notification {
            HostNotification::UiNotify { message, kind } => {
                let level = match kind.as_deref() {
                    Some("error") => "error",
                    Some("warning") => "warning",
                    _ => "info",
                };
                self.log(level, Value::String(message));
            }
            HostNotification::SetActiveTools { tool_names } => {
                if let Ok(mut tools) = self.tools.lock() {
                    tools.named = Some(tool_names.into_iter().collect());
                }
                self.send_notification("notifications/tools/list_changed", json!({}));
            }
            HostNotification::RefreshTools => {
                self.send_notification("notifications/tools/list_changed", json!({}));
            }
            _ => {}
        }
    }

    fn request(&self, request: HostRequest) -> HostFuture {
        let ready = self.ready.load(Ordering::SeqCst);
        let headless = request.headless_answer();
        match request {
            HostRequest::UiConfirm { title, message, opts } if ready && self.elicitation => self.elicit(
                dialog_message(&title, message.as_deref()),
                "confirmed",
                json!({ "type": "boolean", "title": title }),
                opts.as_ref(),
                headless,
            ),
            HostRequest::UiSelect { title, options, opts } if ready && self.elicitation => {
                let choices: Vec<String> = options
                    .iter()
                    .map(|option| option.as_str().map_or_else(|| option.to_string(), str::to_string))
                    .collect();
                self.elicit(
                    title.clone(),
                    "choice",
                    json!({ "type": "string", "title": title, "enum": choices }),
                    opts.as_ref(),
                    headless,
                )
            }
            HostRequest::UiInput {
                title,
                placeholder,
                opts,
            } if ready && self.elicitation => {
                let mut field = json!({ "type": "string", "title": title });
                if let Some(placeholder) = placeholder {
                    field["description"] = Value::String(placeholder);
                }
                self.elicit(title, "value", field, opts.as_ref(), headless)
            }
            HostRequest::UiEditor { title, prefill } if ready && self.elicitation => {
                let mut field = json!({ "type": "string", "title": title });
                if let Some(prefill) = prefill {
                    field["default"] = Value::String(prefill);
                }
                self.elicit(title, "value", field, None, headless)
            }
            HostRequest::PermissionRequest { extension, message, .. } if ready && self.elicitation => {
                let who = extension.unwrap_or_else(|| "pihost".to_string());
                self.elicit(
                    format!("{who} asks for {message}"),
                    "decision",
                    json!({ "type": "string", "title": "Allow?", "enum": ["allowOnce", "allowAlways", "deny"] }),
                    None,
                    headless,
                )
            }
            HostRequest::ModelComplete {
                model,
                context,
                options,
                ..
            } if ready && self.sampling => {
                let params = sampling::request(&model, &context, options.as_ref());
                let asked = self.ask("sampling/createMessage", params, self.timeout);
                Box::pin(async move {
                    Ok(match asked.await {
                        Ok(answer) => sampling::assistant_message(&model, &answer),
                        Err(error) => sampling::failed_message(&model, &error.0),
                    })
                })
            }
            _ => Box::pin(async move { Ok(headless) }),
        }
    }

    fn provider(&self, _change: ProviderChange) -> Result<(), HostError> {
        Ok(())
    }
}

fn error_line(id: &Value, code: i64, message: impl Into<String>) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message.into() } }).to_string()
}

fn result_line(id: &Value, result: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string()
}

/// The session, once `initialize` has started it.
struct Session {
    pihost: Pihost,
    client: Arc<McpClient>,
}

/// What every request handler shares.
struct Server {
    options: McpOptions,
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    closed: Arc<AtomicBool>,
    session: tokio::sync::RwLock<Option<Session>>,
    /// Running `tools/call` requests (JSON-RPC id as text → tool call id).
    running: Mutex<HashMap<String, String>>,
    /// Requests the client cancelled: they get no response.
    cancelled: Mutex<HashSet<String>>,
}

/// Serves MCP on stdin/stdout until stdin closes.
pub async fn serve_mcp(options: McpOptions) {
    crate::stdio::route_extension_stdout_to_stderr(true);
    let (writer, out) = crate::stdio::ProtocolWriter::start();
    let server = Arc::new(Server {
        options,
        out: out.clone(),
        pending: Arc::new(Mutex::new(HashMap::new())),
        closed: Arc::new(AtomicBool::new(false)),
        session: tokio::sync::RwLock::new(None),
        running: Mutex::new(HashMap::new()),
        cancelled: Mutex::new(HashSet::new()),
    });
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    let mut tasks = tokio::task::JoinSet::new();
    // Requests past the cap wait here, in the order they came; stdin is still
    // read meanwhile, for cancellations and the client's answers to the
    // server's own requests, which running tools may be waiting on.
    let mut waiting: VecDeque<(String, Value, Value)> = VecDeque::new();
    loop {
        crate::stdio::forget_finished_requests(&mut tasks);
        while tasks.len() < crate::stdio::REQUESTS_IN_FLIGHT
            && let Some((method, id, params)) = waiting.pop_front()
        {
            start_request(&server, &mut tasks, method, id, params);
        }
        let next = match crate::stdio::next_message_or_room(&mut stdin, &mut tasks, !waiting.is_empty()).await {
            crate::stdio::Next::Message(message) => message,
            crate::stdio::Next::Room => continue,
        };
        let message = match next {
            Some(Ok(message)) => message,
            Some(Err(error)) => {
                let _ = out.send(error_line(&Value::Null, codes::PARSE_ERROR, error.to_string()));
                continue;
            }
            None => {
                // Sent before the end: they run (bounded by the drain below) as if there were no cap.
                for (method, id, params) in waiting.drain(..) {
                    start_request(&server, &mut tasks, method, id, params);
                }
                break;
            }
        };
        if !message.is_object() {
            let _ = out.send(error_line(
                &Value::Null,
                codes::INVALID_REQUEST,
                "invalid request: not an object",
            ));
            continue;
        }
        let id = message.get("id").filter(|id| !id.is_null()).cloned();
        let Some(method) = message.get("method").and_then(Value::as_str).map(str::to_string) else {
            // A response to one of the server's requests (elicitation, sampling).
            if message.get("result").is_some() || message.get("error").is_some() {
                crate::stdio::answer_pending(&server.pending, &message, "client");
            } else {
                let id = id.unwrap_or(Value::Null);
                let _ = out.send(error_line(&id, codes::INVALID_REQUEST, "invalid request: no method"));
            }
            continue;
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = id else {
            if method == "notifications/cancelled"
                && let Some(target) = params.get("requestId")
            {
                // Not started yet: it never will, and gets no response, as a cancelled request.
                waiting.retain(|(_, waiting_id, _)| waiting_id != target);
            }
            notification(&server, &method, &params).await;
            continue;
        };
        if method == "initialize" {
            // Everything after initialize waits for the extensions to load:
            // handled here, before the next line is read.
            let response = initialize(&server, &id, params).await;
            let _ = out.send(response);
            continue;
        }
        waiting.push_back((method, id, params));
    }
    server.closed.store(true, Ordering::SeqCst);
    if let Ok(mut pending) = server.pending.lock() {
        pending.clear();
    }
    let drain = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(10), drain).await.is_err() {
        tracing::warn!("tool calls still running 10 s after stdin closed; stopping them");
    }
    tasks.shutdown().await;
    crate::stdio::tap_extension_console(None);
    if let Some(session) = server.session.write().await.take() {
        let _ = session.pihost.shutdown().await;
    }
    drop(out);
    drop(server);
    writer.finish().await;
}

/// Runs one request beside the others; its response goes out when it is done.
fn start_request(server: &Arc<Server>, tasks: &mut tokio::task::JoinSet<()>, method: String, id: Value, params: Value) {
    let server = server.clone();
    tasks.spawn(async move {
        if let Some(response) = request(&server, &method, &id, params).await {
            let _ = server.out.send(response);
        }
    });
}

async fn notification(server: &Server, method: &str, params: &Value) {
    match method {
        "notifications/initialized" => {
            if let Some(session) = server.session.read().await.as_ref() {
                session.client.ready.store(true, Ordering::SeqCst);
            }
        }
        "notifications/cancelled" => {
            let Some(target) = params.get("requestId").map(Value::to_string) else {
                return;
            };
            let tool_call_id = server
                .running
                .lock()
                .ok()
                .and_then(|running| running.get(&target).cloned());
            let Some(tool_call_id) = tool_call_id else {
                return;
            };
            if let Ok(mut cancelled) = server.cancelled.lock() {
                cancelled.insert(target);
            }
            let pihost = server
                .session
                .read()
                .await
                .as_ref()
                .map(|session| session.pihost.clone());
            if let Some(pihost) = pihost {
                let _ = pihost.abort_tool(&tool_call_id).await;
            }
        }
        // Others (progress from the client, roots changes) need no answer.
        _ => {}
    }
}

async fn initialize(server: &Server, id: &Value, params: Value) -> String {
    if server.session.read().await.is_some() {
        return error_line(id, codes::INVALID_REQUEST, "already initialized");
    }
    let asked = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or(PROTOCOL_VERSION);
    let version = SUPPORTED_VERSIONS
        .iter()
        .find(|known| **known == asked)
        .copied()
        .unwrap_or(PROTOCOL_VERSION);
    let capabilities = params.get("capabilities").cloned().unwrap_or(Value::Null);
    // `elicitation: {}` is form mode (2025-06-18); 2025-11-25 may also name
    // `form` and `url`: pihost asks only with forms.
    let elicitation = capabilities
        .get("elicitation")
        .is_some_and(|elicitation| elicitation.get("form").is_some() || elicitation.get("url").is_none());
    let client = Arc::new(McpClient {
        out: server.out.clone(),
        pending: server.pending.clone(),
        next_id: AtomicU64::new(1),
        elicitation,
        sampling: capabilities.get("sampling").is_some(),
        form_mode_field: version == PROTOCOL_VERSION,
        ready: AtomicBool::new(false),
        log_level: AtomicUsize::new(1),
        tools: Mutex::new(ToolSet::default()),
        bound_active_tools: Mutex::new(Vec::new()),
        timeout: server.options.client_timeout,
        closed: server.closed.clone(),
    });
    let mut options = server.options.engine.clone();
    options.permission_host = Some(crate::PermissionHost(client.clone()));
    let pihost = match Pihost::start(options).await {
        Ok(pihost) => pihost,
        Err(error) => return error_line(id, codes::INTERNAL_ERROR, format!("pihost could not start: {error}")),
    };
    pihost.set_dispatch_timeout(server.options.dispatch_timeout);
    match pihost.load(&server.options.paths).await {
        Ok(report) => {
            for failure in &report.errors {
                eprintln!("pihost mcp: {}: {}", failure.path, failure.error);
            }
            tracing::info!(
                "loaded {} extensions ({} failed) in {:.0} ms",
                report.extensions.len(),
                report.errors.len(),
                report.total_load_ms
            );
        }
        Err(error) => {
            return error_line(
                id,
                codes::INTERNAL_ERROR,
                format!("pihost could not load extensions: {error}"),
            );
        }
    }
    let active = match visible_tools(&pihost, &client).await {
        Ok(tools) => tools.into_iter().map(|tool| tool.name).collect::<Vec<_>>(),
        Err(error) => {
            return error_line(
                id,
                codes::INTERNAL_ERROR,
                format!("pihost could not list tools: {error}"),
            );
        }
    };
    if let Ok(mut bound) = client.bound_active_tools.lock() {
        bound.clone_from(&active);
    }
    let state = HostState {
        active_tools: Some(active),
        has_ui: Some(elicitation),
        ..HostState::default()
    };
    if let Err(error) = pihost.bind(client.clone(), &state).await {
        return error_line(
            id,
            codes::INTERNAL_ERROR,
            format!("pihost could not bind the session: {error}"),
        );
    }
    forward_extension_errors(&pihost, client.clone());
    let console = client.clone();
    crate::stdio::tap_extension_console(Some(Box::new(move |text, to_stderr| {
        if console.ready.load(Ordering::SeqCst) {
            let text = text.strip_suffix('\n').unwrap_or(text);
            console.log_as(
                "console",
                if to_stderr { "warning" } else { "info" },
                Value::String(text.to_string()),
            );
        }
    })));
    *server.session.write().await = Some(Session { pihost, client });
    result_line(
        id,
        json!({
            "protocolVersion": version,
            "capabilities": { "tools": { "listChanged": true }, "logging": {} },
            "serverInfo": {
                "name": "pihost",
                "title": "pi extensions (pihost)",
                "version": env!("CARGO_PKG_VERSION"),
            },
        }),
    )
}

/// Errors of extension handlers reach the client's log, and stderr.
fn forward_extension_errors(pihost: &Pihost, client: Arc<McpClient>) {
    let mut errors = pihost.errors();
    tokio::spawn(async move {
        loop {
            match errors.recv().await {
                Ok(error) => {
                    eprintln!("pihost mcp: {}: {}: {}", error.extension_path, error.event, error.error);
                    if client.ready.load(Ordering::SeqCst) {
                        client.log("error", serde_json::to_value(&error).unwrap_or(Value::Null));
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!("{missed} extension errors were not forwarded: too many at once");
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });
}

async fn request(server: &Server, method: &str, id: &Value, params: Value) -> Option<String> {
    if method == "ping" {
        return Some(result_line(id, json!({})));
    }
    let session = server
        .session
        .read()
        .await
        .as_ref()
        .map(|session| (session.pihost.clone(), session.client.clone()));
    let Some((pihost, client)) = session else {
        return Some(error_line(
            id,
            codes::INVALID_REQUEST,
            "not initialized: send initialize first",
        ));
    };
    match method {
        "tools/list" => Some(list_tools(id, &pihost, &client).await),
        "tools/call" => call_tool(server, id, params, &pihost, &client).await,
        "logging/setLevel" => {
            let level = params.get("level").and_then(Value::as_str).unwrap_or_default();
            match LEVELS.iter().position(|known| *known == level) {
                Some(index) => {
                    client.log_level.store(index, Ordering::Relaxed);
                    Some(result_line(id, json!({})))
                }
                None => Some(error_line(
                    id,
                    codes::INVALID_PARAMS,
                    format!("unknown log level: {level:?}"),
                )),
            }
        }
        other => Some(error_line(
            id,
            codes::METHOD_NOT_FOUND,
            format!("method not found: {other}"),
        )),
    }
}

/// The registered tools the client may see, in registration order.
async fn visible_tools(pihost: &Pihost, client: &McpClient) -> Result<Vec<crate::report::ToolReport>, PihostError> {
    let registered = pihost.registrations().await?.tools;
    let exposures: Vec<(String, Option<String>)> = registered
        .iter()
        .map(|tool| (tool.name.clone(), tool.exposure.clone()))
        .collect();
    let active: HashSet<String> = match client.tools.lock() {
        Ok(mut tools) => tools.active(&exposures).into_iter().collect(),
        Err(_) => HashSet::new(),
    };
    Ok(registered
        .into_iter()
        .filter(|tool| active.contains(&tool.name))
        .collect())
}

async fn list_tools(id: &Value, pihost: &Pihost, client: &McpClient) -> String {
    match visible_tools(pihost, client).await {
        Ok(tools) => {
            let tools: Vec<Value> = tools
                .into_iter()
                .map(|tool| {
                    let mut listed = json!({ "name": tool.name, "inputSchema": input_schema(tool.parameters) });
                    if let Some(label) = tool.label {
                        listed["title"] = Value::String(label);
                    }
                    if let Some(description) = tool.description {
                        listed["description"] = Value::String(description);
                    }
                    if let Some(schema) = tool.output_schema.filter(Value::is_object) {
                        listed["outputSchema"] = schema;
                    }
                    listed
                })
                .collect();
            result_line(id, json!({ "tools": tools }))
        }
        Err(error) => error_line(id, codes::INTERNAL_ERROR, error.to_string()),
    }
}

/// MCP requires an object schema; pi's parameters nearly always are one.
fn input_schema(parameters: Value) -> Value {
    match parameters {
        Value::Object(schema) if schema.get("type").and_then(Value::as_str) == Some("object") => Value::Object(schema),
        Value::Object(schema) if !schema.contains_key("type") && schema.contains_key("properties") => {
            let mut schema = schema;
            schema.insert("type".to_string(), json!("object"));
            Value::Object(schema)
        }
        _ => json!({ "type": "object" }),
    }
}

async fn call_tool(server: &Server, id: &Value, params: Value, pihost: &Pihost, client: &McpClient) -> Option<String> {
    let Some(name) = params.get("name").and_then(Value::as_str).map(str::to_string) else {
        return Some(error_line(
            id,
            codes::INVALID_PARAMS,
            "tools/call needs the tool's name",
        ));
    };
    let known = match visible_tools(pihost, client).await {
        Ok(tools) => tools.iter().any(|tool| tool.name == name),
        Err(error) => return Some(error_line(id, codes::INTERNAL_ERROR, error.to_string())),
    };
    if !known {
        return Some(error_line(id, codes::INVALID_PARAMS, format!("Unknown tool: {name}")));
    }
    let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
    let progress_token = params.get("_meta").and_then(|meta| meta.get("progressToken")).cloned();
    let key = id.to_string();
    let tool_call_id = format!("mcp-{}", key.trim_matches('"'));
    if let Ok(mut running) = server.running.lock() {
        running.insert(key.clone(), tool_call_id.clone());
    }
    let (updates, mut received) = mpsc::unbounded_channel::<Value>();
    let out = server.out.clone();
    let forward = tokio::spawn(async move {
        let mut progress = 0u64;
        while let Some(update) = received.recv().await {
            let Some(token) = progress_token.as_ref() else {
                continue;
            };
            progress += 1;
            let mut params = json!({ "progressToken": token, "progress": progress });
            let text = text_of(&update);
            if !text.is_empty() {
                params["message"] = Value::String(text);
            }
            let line = json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": params });
            let _ = out.send(line.to_string());
        }
    });
    let result = pihost.execute_tool(&name, &tool_call_id, &args, Some(updates)).await;
    // A tool that timed out may run on and keep its update channel open.
    if matches!(
        result,
        Err(PihostError::Timeout { .. } | PihostError::EngineStuck { .. })
    ) {
        forward.abort();
    } else {
        let _ = forward.await;
    }
    if let Ok(mut running) = server.running.lock() {
        running.remove(&key);
    }
    share_active_tools(pihost, client).await;
    if server
        .cancelled
        .lock()
        .is_ok_and(|mut cancelled| cancelled.remove(&key))
    {
        return None;
    }
    Some(match result {
        Ok(result) => result_line(id, call_result(result.unwrap_or(Value::Null))),
        Err(
            error @ (PihostError::Extension { .. }
            | PihostError::Timeout { .. }
            | PihostError::NeverSettles { .. }
            | PihostError::EngineStuck { .. }
            | PihostError::EngineRestarted { .. }),
        ) => result_line(
            id,
            json!({ "content": [{ "type": "text", "text": error.to_string() }], "isError": true }),
        ),
        Err(error) => error_line(id, codes::INTERNAL_ERROR, error.to_string()),
    })
}

/// A tool the call registered is active, as pi activates a tool on
/// registration: the extensions' `pi.getActiveTools()` says so from the
/// next call on.
async fn share_active_tools(pihost: &Pihost, client: &McpClient) {
    let Ok(visible) = visible_tools(pihost, client).await else {
        return;
    };
    let active: Vec<String> = visible.into_iter().map(|tool| tool.name).collect();
    let changed = client.bound_active_tools.lock().is_ok_and(|mut bound| {
        let changed = *bound != active;
        if changed {
            bound.clone_from(&active);
        }
        changed
    });
    if changed {
        let state = HostState {
            active_tools: Some(active),
            ..HostState::default()
        };
        if let Err(error) = pihost.set_host_state(&state).await {
            tracing::warn!("cannot share the active tools with the extensions: {error}");
        }
    }
}

/// The text blocks of a pi tool result (or update), joined by newlines.
fn text_of(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|block| block.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// pi's tool result as MCP's `CallToolResult`: its content, its
/// `structuredContent` (what pi gives programmatic callers; MCP wants an
/// object) and its `isError` (a failure reported without throwing). pi's
/// `details` are for its own UI and do not cross.
fn call_result(result: Value) -> Value {
    let content: Vec<Value> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| blocks.iter().map(content_block).collect())
        .unwrap_or_default();
    let mut answer = json!({
        "content": content,
        "isError": result.get("isError").and_then(Value::as_bool).unwrap_or(false),
    });
    if let Some(structured) = result
        .get("structuredContent")
        .filter(|structured| structured.is_object())
    {
        answer["structuredContent"] = structured.clone();
    }
    answer
}

fn content_block(block: &Value) -> Value {
    match block.get("type").and_then(Value::as_str) {
        Some("text") => {
            json!({ "type": "text", "text": block.get("text").and_then(Value::as_str).unwrap_or_default() })
        }
        Some("image") => json!({
            "type": "image",
            "data": block.get("data").cloned().unwrap_or(Value::Null),
            "mimeType": block.get("mimeType").cloned().unwrap_or(Value::Null),
        }),
        // pi's content is text and images; anything else reaches the client as its JSON.
        _ => json!({ "type": "text", "text": block.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_active_as_pi_activates_them_by_exposure_and_set_active_tools() {
        let tool = |name: &str, exposure: Option<&str>| (name.to_string(), exposure.map(str::to_string));
        let mut tools = ToolSet::default();
        let first = [tool("a", None), tool("b", Some("deferred")), tool("h", Some("hidden"))];
        assert_eq!(tools.active(&first), ["a"]);
        tools.named = Some(["b", "h"].iter().map(|name| name.to_string()).collect());
        let later = [
            tool("a", None),
            tool("b", Some("deferred")),
            tool("h", Some("hidden")),
            tool("c", Some("model-only")),
            tool("d", Some("codemode")),
        ];
        assert_eq!(tools.active(&later), ["b", "c"]);
    }

    #[test]
    fn pi_results_become_mcp_results_with_their_structured_content_and_not_their_details() {
        let result = call_result(json!({
            "content": [{ "type": "text", "text": "hi" }, { "type": "image", "data": "AA==", "mimeType": "image/png" }],
            "details": { "ui": true },
            "structuredContent": { "count": 3 },
        }));
        assert_eq!(result["content"][0]["text"], "hi");
        assert_eq!(result["content"][1]["mimeType"], "image/png");
        assert_eq!(result["structuredContent"], json!({ "count": 3 }));
        assert_eq!(result["isError"], false);
        let failed = call_result(json!({ "content": [], "details": { "ui": true }, "isError": true }));
        assert!(failed.get("structuredContent").is_none());
        assert_eq!(failed["isError"], true);
    }
}
