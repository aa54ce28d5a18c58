//! One JavaScript isolate with pihost's runtime in it, and the calls that
//! cross into it. The isolate is `!Send`: an [`Engine`] lives on the thread
//! that made it, inside a current-thread async runtime.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, v8};

use crate::discovery::{self, DiscoveredExtension, DiscoveryOptions};
use crate::error::PihostError;
use crate::host::{ExtensionError, Host, HostState};
use crate::limits::{Limits, Stop, Watchdog};
use crate::modules::PihostModuleLoader;
use crate::ops::host::{BoundHost, ErrorSink, HandlerCounts, SharedSession, SharedSessions, ToolUpdateSinks};
use crate::report::InspectReport;
use crate::session::{FIRST_SESSION, SessionId};

pub(crate) mod calls;
use calls::{Encoded, Export, RuntimeCall};

/// Where extensions are looked for and which directories they run against.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// The project directory: `<cwd>/.pi/extensions` is searched and `pi.exec` runs here.
    pub cwd: PathBuf,
    /// pi's agent directory: `<agent_dir>/extensions` is searched.
    pub agent_dir: PathBuf,
    /// The name of pi's config directory (`.pi`), a setting in pi too (D1).
    pub config_dir_name: String,
    /// CPU, heap and load-time limits for the extensions ([`Limits::default`]).
    pub limits: Limits,
    /// What extensions may touch ([`Permissions::default`]: everything, as in pi).
    pub permissions: crate::Permissions,
    /// Who is asked about a touch no grant covers when `permissions.prompt`
    /// is set, and told every such decision (the audit stream). `None`: the
    /// host bound later ([`Engine::bind`]); until then, touches are denied.
    pub permission_host: Option<PermissionHost>,
}

/// The host that decides a sandbox's prompts (see [`EngineOptions::permission_host`]).
#[derive(Clone)]
pub struct PermissionHost(pub Arc<dyn Host>);

impl std::fmt::Debug for PermissionHost {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("PermissionHost")
    }
}

impl EngineOptions {
    /// Options for `cwd` with pi's defaults: the agent directory from
    /// `PI_CODING_AGENT_DIR`, else `~/.pi/agent`.
    pub fn for_cwd(cwd: &Path) -> Self {
        let config_dir_name = discovery::DEFAULT_CONFIG_DIR_NAME.to_string();
        let env_value = std::env::var(discovery::AGENT_DIR_ENV).ok();
        let agent_dir = discovery::agent_dir_from_env(env_value.as_deref(), &discovery::home_dir(), &config_dir_name);
        Self {
            cwd: discovery::resolve_user_path(&cwd.display().to_string(), &current_dir()),
            agent_dir,
            config_dir_name,
            limits: Limits::default(),
            permissions: crate::Permissions::default(),
            permission_host: None,
        }
    }
}

fn current_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// Whether pi's dispatch of this event type answers `undefined` when no
/// handler exists, so it can be answered without entering the isolate (H3).
/// Families whose result is built from the event itself (context, input,
/// provider payloads, boundaries, …) are not among them.
pub(crate) fn answers_undefined_without_handlers(event_type: &str) -> bool {
    !matches!(
        event_type,
        "context"
            | "context_with_system"
            | "input"
            | "before_provider_request"
            | "before_provider_headers"
            | "before_agent_start"
            | "resources_discover"
            | "cache_warming_decision"
            | "project_trust"
            | "turn_end"
            | "agent_before_settle"
    )
}

/// What the runner has registered, as the host lists it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Registrations {
    /// Every command of every extension, in load order.
    pub commands: Vec<RegisteredCommand>,
    /// Every tool; of tools sharing a name, the first registered.
    pub tools: Vec<crate::report::ToolReport>,
    /// Every flag; of flags sharing a name, the first registered.
    pub flags: Vec<RegisteredFlag>,
    /// The current value of each flag that has one: set by `set_flag`, else
    /// the first registered default (A9).
    pub flag_values: BTreeMap<String, serde_json::Value>,
}

/// A command as the host lists it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredCommand {
    /// The command's name as registered, without the `/`.
    pub name: String,
    /// The name to run it by: `name`, or `name:N` when extensions share a name (N2).
    pub invocation_name: String,
    /// The description shown in the command list.
    #[serde(default)]
    pub description: Option<String>,
    /// The extension that registered it.
    #[serde(default)]
    pub extension_path: Option<String>,
}

/// A CLI flag as the host lists it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredFlag {
    /// The flag's name, as `--name` on pi's command line.
    pub name: String,
    /// `boolean` or `string` (JSON `type`).
    #[serde(rename = "type")]
    pub flag_type: String,
    /// The help text.
    #[serde(default)]
    pub description: Option<String>,
    /// The extension that registered it.
    #[serde(default)]
    pub extension_path: Option<String>,
}

/// What pihost provides of one of pi's virtual modules.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ModuleStatus {
    /// Export names pihost implements.
    pub implemented: Vec<String>,
    /// Export names that exist but throw `not implemented yet` when used.
    pub not_implemented: Vec<String>,
    /// Exports that cannot mean anything inside a host (pi's own process
    /// and package); using one throws the reason.
    #[serde(default)]
    pub not_in_a_host: Vec<NotInAHost>,
}

/// An export of pi's packages that cannot work inside a host, and why.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct NotInAHost {
    /// The export's name.
    pub name: String,
    /// Why it cannot work inside a host.
    pub reason: String,
}

/// One isolate with pihost's runtime, driven on the caller's own thread: the
/// single-thread form of the calls [`Pihost`](crate::Pihost) makes, through
/// the same call table (`calls.rs`). Tests, benchmarks and the CLI's one-shot
/// verbs use it; an embedder wants [`Pihost`](crate::Pihost), which adds a
/// thread of its own, concurrency between calls, crash isolation and the
/// replacement of a runtime a limit could not save. Make one engine per
/// thread: engines made one after another on one thread go wrong (engine
/// note 29).
pub struct Engine {
    runtime: JsRuntime,
    /// The functions of `js/runtime/main.js` Rust calls, by [`Export::index`],
    /// each wrapped to report a promise's outcome through an op
    /// (`js/runtime/call-settlement.js`, engine note 45).
    functions: Vec<v8::Global<v8::Function>>,
    /// What a wrapped function answers while its promise is pending.
    call_pending: v8::Global<v8::Value>,
    /// The number of the next call whose outcome an op reports (0 is never used).
    next_call_id: u32,
    options: EngineOptions,
    dispatch_timeout: Option<Duration>,
    errors: Option<tokio::sync::mpsc::UnboundedReceiver<ExtensionError>>,
    /// Namespaces of modules evaluated on first use, by specifier: what only
    /// one CLI verb or a test needs stays out of every runtime's start-up.
    side_modules: HashMap<String, v8::Global<v8::Object>>,
    /// Keeps the CPU limit; declared after `runtime` would let it outlive
    /// the isolate, so it is dropped first by hand in [`Drop`].
    watchdog: Option<Watchdog>,
    /// Set when a heap stop left the runtime as full as before: only a new
    /// runtime helps ([`Engine::restart`]).
    beyond_saving: bool,
    /// The extension whose run filled the heap beyond saving, when known.
    heap_filled_by: Option<String>,
    /// This engine's number in the process, which names its permission
    /// prompt session.
    number: u64,
    /// What to do again on a new runtime to get back to where this one is.
    replay: Replay,
    /// The shared mode's session numbers as the engine's values, by session.
    session_numbers: HashMap<SessionId, v8::Global<v8::Value>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        // The watchdog holds a handle of the isolate; stop it before the isolate goes.
        self.watchdog.take();
        crate::permissions::prompt::end_session_of(self.number);
    }
}

/// What a runtime was asked to become (the last load, flag values, the bound
/// host and its state), so that a new runtime can be made the same: after a
/// heap limit it could not recover from, or after the engine thread died.
#[derive(Clone, Default)]
pub(crate) struct Replay {
    /// The last `loadExtensions` (or `reload`) request.
    load: Option<calls::LoadRequest>,
    flags: BTreeMap<String, serde_json::Value>,
    host: Option<Arc<dyn Host>>,
    /// The host state as bound and updated since, merged.
    state: serde_json::Map<String, serde_json::Value>,
    /// The screen pihost draws extension components on, when the host gave
    /// one (the last `attachTerminal` call).
    terminal: Option<Encoded>,
}

impl Replay {
    /// Records a call the runtime was sent, if it shapes the session.
    pub(crate) fn record(&mut self, call: &Encoded) {
        match call.export {
            Export::LoadExtensions | Export::Reload => {
                self.load = serde_json::from_str(&call.argument).ok();
            }
            Export::SetFlag => {
                if let Ok(serde_json::Value::Object(request)) =
                    serde_json::from_str::<serde_json::Value>(&call.argument)
                    && let (Some(serde_json::Value::String(name)), Some(value)) =
                        (request.get("name"), request.get("value"))
                {
                    self.flags.insert(name.clone(), value.clone());
                }
            }
            Export::SetHostState => self.merge_state(&call.argument),
            Export::AttachTerminal => self.terminal = Some(call.clone()),
            _ => {}
        }
    }

    /// Leaves the extension at `path` (as the load request names it) out of
    /// the recorded load: its load cannot be stopped. Whether it was in it.
    pub(crate) fn leave_out(&mut self, path: &str) -> bool {
        let Some(load) = &mut self.load else { return false };
        let before = load.entries.len();
        load.entries.retain(|entry| entry.path != path);
        load.entries.len() != before
    }

    /// The paths of the recorded load, in load order.
    pub(crate) fn load_order(&self) -> Vec<String> {
        let entries = self
            .load
            .as_ref()
            .map(|load| load.entries.as_slice())
            .unwrap_or_default();
        entries.iter().map(|entry| entry.path.clone()).collect()
    }

    /// Records the host bound with `state` (JSON).
    pub(crate) fn record_bind(&mut self, host: Arc<dyn Host>, state: &str) {
        self.host = Some(host);
        self.state.clear();
        self.merge_state(state);
    }

    fn merge_state(&mut self, state: &str) {
        if let Ok(serde_json::Value::Object(fields)) = serde_json::from_str::<serde_json::Value>(state) {
            self.state.extend(fields);
        }
    }

    /// Brings session `session` of a fresh engine (opened there already) to
    /// the recorded session: load, flags, bind, and `session_start` with
    /// reason "reload" (H1) when a host is bound.
    pub(crate) async fn apply(
        &self,
        engine: &mut Engine,
        session: SessionId,
    ) -> Result<Option<InspectReport>, PihostError> {
        let Some(load) = &self.load else { return Ok(None) };
        let started = Instant::now();
        let report = engine.call_in(session, &calls::LoadExtensions(load)).await?;
        for (name, value) in &self.flags {
            engine.call_in(session, &calls::SetFlag { name, value }).await?;
        }
        if let Some(host) = &self.host {
            let state: HostState = serde_json::from_value(serde_json::Value::Object(self.state.clone()))
                .map_err(|error| internal("host state", error))?;
            engine.put_host(session, host.clone());
            engine.call_in(session, &calls::BindHost(&state)).await?;
            if let Some(terminal) = &self.terminal {
                let terminal = Encoded {
                    session,
                    ..terminal.clone()
                };
                engine.call_encoded(terminal, "attachTerminal".to_string()).await?;
            }
            let started = serde_json::json!({ "type": "session_start", "reason": "reload" });
            engine.call_in(session, &calls::EmitEvent(&started)).await?;
        }
        if session == FIRST_SESSION {
            engine.replay = self.clone();
        }
        Ok(Some(report.into_report(
            &engine.options.cwd,
            &engine.options.agent_dir,
            started.elapsed(),
        )))
    }
}

fn internal(context: &str, error: impl std::fmt::Display) -> PihostError {
    PihostError::Internal {
        context: context.to_string(),
        message: error.to_string(),
    }
}

impl Engine {
    /// Creates an isolate and starts pihost's runtime in it.
    pub async fn new(options: EngineOptions) -> Result<Self, PihostError> {
        let heap_limit = options.limits.max_heap_mb.map(|mb| mb.saturating_mul(1024 * 1024));
        let permissions = options.permissions.container(&options.cwd)?;
        let allows_everything = options.permissions.allows_everything();
        let mut runtime = js_runtime(heap_limit).map_err(|error| PihostError::RuntimeStart(error.to_string()))?;
        let main_url = ModuleSpecifier::parse("pihost:runtime/main.js").map_err(|error| internal("main url", error))?;
        let module_id = runtime
            .load_main_es_module(&main_url)
            .await
            .map_err(|error| internal("loading runtime/main.js", error))?;
        let evaluation = runtime.mod_evaluate(module_id);
        runtime
            .run_event_loop(PollEventLoopOptions::default())
            .await
            .map_err(|error| internal("starting runtime/main.js", error))?;
        evaluation
            .await
            .map_err(|error| internal("evaluating runtime/main.js", error))?;
        let namespace = runtime
            .get_module_namespace(module_id)
            .map_err(|error| internal("runtime/main.js exports", error))?;
        let reporting_call = function_of(&mut runtime, &namespace, "reportingCall")?;
        let call_pending = export_of(&mut runtime, &namespace, "CALL_PENDING")?;
        let functions = Export::ALL
            .iter()
            .map(|export| {
                let function = function_of(&mut runtime, &namespace, export.name())?;
                reporting(&mut runtime, &reporting_call, &function, export.name())
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (error_sender, errors) = tokio::sync::mpsc::unbounded_channel();
        runtime.op_state().borrow_mut().put(ErrorSink(Some(error_sender)));
        // pihost's own start-up ran with every permission; from here on
        // every touch is the extensions' and is checked.
        crate::platform::use_permissions(
            &mut runtime.op_state().borrow_mut(),
            permissions,
            !allows_everything,
            options.permissions.sandbox && !options.permissions.allow_all,
        );
        crate::platform::hide_secret_env(&mut runtime.op_state().borrow_mut(), &options.permissions);
        runtime
            .op_state()
            .borrow_mut()
            .put(options.permissions.confinement(&options.cwd));
        // A guest runtime's turns have the session's CPU limit.
        runtime
            .op_state()
            .borrow()
            .borrow::<crate::permissions::policy::GuestPolicies>()
            .set_cpu_limit(options.limits.cpu);
        let isolate = runtime.v8_isolate().thread_safe_handle();
        // Only QuickJS needs the squeeze (V8 interrupts its built-ins), and
        // only QuickJS lets another thread change the heap limit.
        let watchdog = if cfg!(feature = "quickjs") {
            // SAFETY: the pointer is of the runtime's isolate, which the
            // engine owns as long as the watchdog (the engine drops both
            // together, and the watchdog uses it only while a run of this
            // isolate goes on).
            let raw_isolate = unsafe { runtime.v8_isolate().as_raw_isolate_ptr() };
            unsafe { Watchdog::new_squeezing(isolate, raw_isolate, options.limits.cpu, heap_limit) }
        } else {
            Watchdog::new(isolate, options.limits.cpu)
        };
        runtime.op_state().borrow_mut().put(watchdog.squeeze_signal());
        runtime.op_state().borrow_mut().put(watchdog.loading_mark());
        runtime
            .v8_isolate()
            .set_prepare_stack_trace_callback(crate::stack_traces::stack_trace_unless_terminating);
        let mut engine = Self {
            runtime,
            functions,
            call_pending,
            next_call_id: 0,
            options,
            dispatch_timeout: None,
            errors: Some(errors),
            side_modules: HashMap::new(),
            watchdog: Some(watchdog),
            beyond_saving: false,
            heap_filled_by: None,
            number: {
                static ENGINES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                ENGINES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
            replay: Replay::default(),
            session_numbers: HashMap::new(),
        };
        engine.watch_heap();
        if !allows_everything {
            engine.start_prompt_session()?;
        }
        let limits = calls::ConfigureLimits {
            load_timeout_ms: engine.options.limits.load_timeout.map(|limit| limit.as_millis()),
            heap_mb: engine.options.limits.max_heap_mb.unwrap_or(0),
        };
        engine.call(&limits).await?;
        Ok(engine)
    }

    /// (Re)installs the heap limit's callback at the configured limit.
    fn watch_heap(&mut self) {
        if let (Some(mb), Some(watchdog)) = (self.options.limits.max_heap_mb, &self.watchdog) {
            crate::limits::watch_heap(&mut self.runtime, watchdog, mb);
        }
    }

    fn isolate_ptr(&mut self) -> v8::UnsafeRawIsolatePtr {
        // SAFETY: the pointer is of the isolate itself, which stays where it
        // is while the engine (and so the `OwnedIsolate` holding it) moves.
        unsafe { self.runtime.v8_isolate().as_raw_isolate_ptr() }
    }

    /// Makes this runtime's thread decide the touches no grant covers in
    /// this session: by asking the permission host, or by denying them.
    fn start_prompt_session(&mut self) -> Result<(), PihostError> {
        let host: Arc<dyn Host> = match &self.options.permission_host {
            Some(PermissionHost(host)) => host.clone(),
            None => Arc::new(crate::host::HeadlessHost),
        };
        let audit = crate::permissions::audit::SessionAudit::new(
            self.options.permissions.audit,
            self.options.permissions.audit_log(&self.options.cwd)?,
            self.options.permissions.audit_mirror(&self.options.cwd)?,
        );
        let session = crate::permissions::prompt::PromptSession {
            runtime: self.number,
            host: crate::permissions::prompt::session_host(host),
            prompts: self.options.permissions.prompt,
            timeout: self.options.permissions.prompt_timeout(),
            isolate: self.isolate_ptr(),
            context: self.runtime.main_context(),
            clock: self.watchdog.as_ref().map(Watchdog::clock),
            audit,
            started_by: None,
        };
        crate::permissions::prompt::set_session(Some(session));
        Ok(())
    }

    /// Calls `listener` (on another thread) if a run this engine stopped
    /// for its CPU limit goes on regardless: this runtime is then beyond
    /// use, its thread left to finish at the lowest priority.
    pub(crate) fn on_stuck(&self, listener: crate::limits::StuckListener) {
        if let Some(watchdog) = &self.watchdog {
            watchdog.on_stuck(listener);
        }
    }

    /// Whether a heap stop left this runtime unusable; [`Engine::restart`]
    /// makes a new one with the same extensions.
    pub fn needs_restart(&self) -> bool {
        self.beyond_saving
    }

    /// The extension (its path as loaded) whose run left the heap full, when
    /// [`Engine::needs_restart`] says so and the stop could name it.
    pub fn heap_filled_by(&self) -> Option<&str> {
        self.heap_filled_by.as_deref().filter(|_| self.beyond_saving)
    }

    /// Replaces the runtime with a new one and brings it to where this one
    /// was: the same extensions loaded, flag values, the host bound again,
    /// and `session_start` (reason "reload", H1). The error stream stays.
    pub async fn restart(&mut self) -> Result<Option<InspectReport>, PihostError> {
        let replay = self.replay.clone();
        let mut fresh = Engine::new(self.options.clone()).await?;
        fresh.dispatch_timeout = self.dispatch_timeout;
        // The error stream the embedder holds keeps working: the new
        // runtime reports into the old sink.
        let sink = self.runtime.op_state().borrow_mut().try_take::<ErrorSink>();
        if let Some(sink) = sink {
            fresh.runtime.op_state().borrow_mut().put(sink);
            fresh.errors = self.errors.take();
        }
        let report = replay.apply(&mut fresh, FIRST_SESSION).await?;
        *self = fresh;
        Ok(report)
    }

    /// The options the engine runs with (the cwd as last set by [`Engine::set_cwd`]).
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the project directory later loads run against; a cached load
    /// under a new cwd starts with an empty factory cache (L6).
    pub fn set_cwd(&mut self, cwd: PathBuf) {
        self.options.cwd = cwd;
    }

    /// Forgets every cached extension factory, as pi's clearExtensionCache() (L6).
    pub async fn clear_extension_cache(&mut self) -> Result<(), PihostError> {
        self.call(&calls::ClearExtensionCache).await
    }

    /// Which export names of each of pi's virtual modules pihost implements,
    /// and which are stubs that throw `not implemented yet` when used.
    pub async fn virtual_module_status(&mut self) -> Result<BTreeMap<String, ModuleStatus>, PihostError> {
        let ids: BTreeSet<&str> = crate::modules::virtual_map::specifiers().map(|(_, id)| id).collect();
        let ids = serde_json::to_string(&ids).map_err(|error| internal("module ids", error))?;
        let response = self
            .call_side_module("pihost:runtime/module-status.js", "describeVirtualModules", &ids)
            .await?;
        serde_json::from_str(&response).map_err(|error| internal("module status", error))
    }

    /// Extension errors reported after loading (R6, E2 and every swallowed
    /// handler error), in order. Taken once; later calls get `None`.
    pub fn take_error_stream(&mut self) -> Option<tokio::sync::mpsc::UnboundedReceiver<ExtensionError>> {
        self.errors.take()
    }

    /// Bounds every later dispatch (emit, tool, command): one that does not
    /// settle in time fails with [`PihostError::Timeout`] instead of hanging.
    pub fn set_dispatch_timeout(&mut self, timeout: Option<Duration>) {
        self.dispatch_timeout = timeout;
    }

    /// Binds `host` to the loaded extensions (R1, A7): actions reach the host
    /// from now on, queued providers are flushed, getters read `state`.
    pub async fn bind(&mut self, host: Arc<dyn Host>, state: &HostState) -> Result<(), PihostError> {
        self.put_host(FIRST_SESSION, host.clone());
        let call = calls::BindHost(state);
        self.replay.record_bind(host, &call.encode()?.argument);
        self.call(&call).await
    }

    /// Updates the state the extensions' getters read.
    pub async fn set_host_state(&mut self, state: &HostState) -> Result<(), PihostError> {
        self.call(&calls::SetHostState(state)).await
    }

    /// Dispatches one event (`{ "type": ..., ... }`) with its family's merge
    /// rule and returns the merged result (`None` for pi's `undefined`).
    /// Events pihost does not know go through the generic emit untouched.
    pub async fn emit(&mut self, event: &serde_json::Value) -> Result<Option<serde_json::Value>, PihostError> {
        let call = calls::EmitEvent(event);
        if call.answered_without_the_isolate(&self.handler_counts()) {
            return Ok(None);
        }
        if let Some(kept) = calls::EmitKept::<calls::Context>::of(event) {
            return self.emit_kept(kept).await;
        }
        if let Some(kept) = calls::EmitKept::<calls::ProviderRequest>::of(event) {
            return self.emit_kept(kept).await;
        }
        Ok(self.call(&call).await?.result)
    }

    /// An event whose large field crosses as text (`calls::KeptEvent`).
    async fn emit_kept<K: calls::KeptEvent>(
        &mut self,
        kept: calls::EmitKept<'_, K>,
    ) -> Result<Option<serde_json::Value>, PihostError> {
        if let Some(answer) = kept.answered_without_the_isolate(&self.handler_counts()) {
            return Ok(Some(answer));
        }
        let answer = self.call(&kept).await?;
        Ok(kept.value_after(answer))
    }

    /// Executes a registered tool. Each `onUpdate` is sent on `updates`.
    pub async fn execute_tool(
        &mut self,
        name: &str,
        tool_call_id: &str,
        args: &serde_json::Value,
        updates: Option<tokio::sync::mpsc::UnboundedSender<serde_json::Value>>,
    ) -> Result<Option<serde_json::Value>, PihostError> {
        self.set_tool_updates(FIRST_SESSION, tool_call_id, updates);
        let call = calls::ExecuteTool {
            name,
            tool_call_id,
            args,
        };
        let response = self.call(&call).await;
        self.set_tool_updates(FIRST_SESSION, tool_call_id, None);
        if let Err(PihostError::Timeout { .. }) = &response {
            // A tool that outlived its time is told so through its signal.
            let _ = self.abort_tool(tool_call_id).await;
        }
        Ok(response?.result)
    }

    /// Aborts the signal of a running tool call.
    pub async fn abort_tool(&mut self, tool_call_id: &str) -> Result<(), PihostError> {
        self.call(&calls::AbortTool(tool_call_id)).await
    }

    /// Runs a command by its invocation name (`name`, or `name:2` when two
    /// extensions share it, N2).
    pub async fn run_command(&mut self, name: &str, args: &str) -> Result<Option<serde_json::Value>, PihostError> {
        Ok(self.call(&calls::RunCommand { name, args }).await?.result)
    }

    /// Commands (with invocation names), tools, flags and flag values of the loaded extensions.
    pub async fn registrations(&mut self) -> Result<Registrations, PihostError> {
        self.call(&calls::ListRegistrations).await
    }

    /// Sets a flag's value, as pi does for `--name value` on its command
    /// line; `pi.getFlag(name)` answers it from now on, and a reload keeps it.
    pub async fn set_flag(&mut self, name: &str, value: &serde_json::Value) -> Result<(), PihostError> {
        self.call(&calls::SetFlag { name, value }).await
    }

    /// Extension shortcuts for the host's resolved keybindings (`{ "app.interrupt": "escape", … }`), with N3's diagnostics.
    pub async fn shortcuts(&mut self, keybindings: &serde_json::Value) -> Result<serde_json::Value, PihostError> {
        self.call(&calls::ResolveShortcuts(keybindings)).await
    }

    /// Makes every captured ctx and pi object throw `message` (or pi's default text), R3.
    pub async fn invalidate(&mut self, message: Option<&str>) -> Result<(), PihostError> {
        self.call(&calls::Invalidate(message)).await
    }

    /// Makes `call` and awaits its answer, running the event loop meanwhile;
    /// a call that runs extension code is bounded by the dispatch timeout.
    pub(crate) async fn call<C: RuntimeCall>(&mut self, call: &C) -> Result<C::Answer, PihostError> {
        self.call_in(FIRST_SESSION, call).await
    }

    /// [`Engine::call`] for session `session` of the runtime.
    pub(crate) async fn call_in<C: RuntimeCall>(
        &mut self,
        session: SessionId,
        call: &C,
    ) -> Result<C::Answer, PihostError> {
        let label = call.label();
        let encoded = Encoded {
            session,
            ..call.encode()?
        };
        let answer = match (C::RUNS_EXTENSION_CODE, self.dispatch_timeout) {
            (true, Some(limit)) => tokio::time::timeout(limit, self.call_encoded(encoded, label.clone()))
                .await
                .map_err(|_| PihostError::Timeout {
                    call: label,
                    millis: limit.as_millis(),
                })??,
            _ => self.call_encoded(encoded, label).await?,
        };
        C::decode(&answer)
    }

    /// Makes an encoded call and awaits its answer (JSON text).
    async fn call_encoded(&mut self, call: Encoded, label: String) -> Result<String, PihostError> {
        let pending = self.start_call(&call)?;
        self.settle(&label, pending).await
    }

    /// Finds extensions as pi does (D1–D7): project, agent directory, then `configured_paths`.
    pub fn discover(&self, configured_paths: &[String]) -> Vec<DiscoveredExtension> {
        discovery::discover(&DiscoveryOptions {
            cwd: self.options.cwd.clone(),
            agent_dir: self.options.agent_dir.clone(),
            config_dir_name: self.options.config_dir_name.clone(),
            configured_paths: configured_paths.to_vec(),
        })
    }

    /// Discovers and loads extensions, and reports what each registered.
    pub async fn inspect(&mut self, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
        let started = Instant::now();
        let discovered = self.discover(configured_paths);
        let mut report = self.load(&discovered, false).await?;
        report.total_load_ms = started.elapsed().as_secs_f64() * 1000.0;
        Ok(report)
    }

    /// Loads `extensions` in order (L4, L5). With `use_cache`, factories are
    /// reused across loads for the same cwd (L6).
    pub async fn load(
        &mut self,
        extensions: &[DiscoveredExtension],
        use_cache: bool,
    ) -> Result<InspectReport, PihostError> {
        let started = Instant::now();
        let request = load_request(&self.options.cwd, extensions, use_cache);
        let report = self.call(&calls::LoadExtensions(&request)).await?;
        Ok(report.into_report(&self.options.cwd, &self.options.agent_dir, started.elapsed()))
    }

    /// Reloads (H1): `session_shutdown` (reason "reload") to the loaded
    /// extensions, invalidates them, loads `extensions` anew keeping flag
    /// values, binds the same host again and emits `session_start` (reason
    /// "reload"). Later calls reach the new extensions (H2).
    pub async fn reload(&mut self, extensions: &[DiscoveredExtension]) -> Result<InspectReport, PihostError> {
        let started = Instant::now();
        let request = load_request(&self.options.cwd, extensions, false);
        let report = self.call(&calls::Reload(&request)).await?;
        Ok(report.into_report(&self.options.cwd, &self.options.agent_dir, started.elapsed()))
    }

    /// Prepares the runtime for the extensions a load request names
    /// (whoever sends it: [`Engine::load`], the handle, a restart): they
    /// may load their own files in a sandbox, and those a policy grants
    /// more run in runtimes of their own; outside a sandbox, their module
    /// graphs are read ahead (`modules::prefetch::ahead_of`).
    fn prepare_load_of(&mut self, load_request: &str) {
        let Ok(request) = serde_json::from_str::<calls::LoadRequest>(load_request) else {
            return;
        };
        let paths: Vec<PathBuf> = request.entries.into_iter().map(|entry| entry.resolved_path).collect();
        // Reading ahead reads files before any permission check: only a
        // load that may read everything gets it.
        if self.options.permissions.allows_everything() {
            crate::modules::prefetch::ahead_of(
                paths
                    .iter()
                    .filter_map(|path| deno_core::ModuleSpecifier::from_file_path(path).ok()),
            );
        }
        let state = self.runtime.op_state();
        let state = state.borrow();
        // Other sessions' extensions keep their folders and policies.
        let shared = !state.borrow::<SharedSessions>().0.is_empty();
        state
            .borrow::<crate::permissions::ExtensionFolders>()
            .set(paths.iter().cloned(), shared);
        // Which of them a policy grants more than the session: those run
        // in runtimes of their own (src/platform/guests.rs).
        let policies = state.borrow::<crate::permissions::policy::GuestPolicies>();
        policies.set(&self.options.permissions, &self.options.cwd, paths.into_iter(), shared);
    }

    /// Calls `function` of the module `specifier` (one of pihost's own, under
    /// `pihost:`) with the value `argument` (JSON) encodes, as the call
    /// table's calls are made, evaluating the module first if this is its
    /// first use.
    /// Layers above the engine (compat scenarios, CLI verbs) bring their JS
    /// this way instead of through `runtime/main.js`.
    pub(crate) async fn call_side_module(
        &mut self,
        specifier: &str,
        function: &str,
        argument: &str,
    ) -> Result<String, PihostError> {
        let namespace = self.side_module(specifier).await?;
        let function = function_of(&mut self.runtime, &namespace, function)?;
        let argument = self.value_argument(specifier, argument)?;
        let call = self.call_function(&function, argument, FIRST_SESSION);
        self.settle(specifier, call).await
    }

    async fn side_module(&mut self, specifier: &str) -> Result<v8::Global<v8::Object>, PihostError> {
        if let Some(namespace) = self.side_modules.get(specifier) {
            return Ok(namespace.clone());
        }
        let url = ModuleSpecifier::parse(specifier).map_err(|error| internal(specifier, error))?;
        let module_id = self
            .runtime
            .load_side_es_module(&url)
            .await
            .map_err(|error| internal(specifier, error))?;
        let evaluation = self.runtime.mod_evaluate(module_id);
        self.runtime
            .with_event_loop_future(evaluation, PollEventLoopOptions::default())
            .await
            .map_err(|error| internal(specifier, error))?;
        let namespace = self
            .runtime
            .get_module_namespace(module_id)
            .map_err(|error| internal(specifier, error))?;
        self.side_modules.insert(specifier.to_string(), namespace.clone());
        Ok(namespace)
    }

    /// Runs the event loop until `call` settles; its value as a string.
    /// When nothing is left that could settle it, the extension code it
    /// waits on fails (and the call goes on, e.g. to the next extension's
    /// load); a call that still waits on nothing is [`PihostError::NeverSettles`].
    async fn settle(&mut self, name: &str, mut call: PendingCall) -> Result<String, PihostError> {
        let result = std::future::poll_fn(|cx| {
            loop {
                if let Poll::Ready(result) = call.as_mut().poll(cx) {
                    return Poll::Ready(Ok(result));
                }
                match self.poll_event_loop(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                    Poll::Ready(Ok(())) => {
                        if let Poll::Ready(result) = call.as_mut().poll(cx) {
                            return Poll::Ready(Ok(result));
                        }
                        match self.fail_stalled() {
                            Ok(0) => {
                                return Poll::Ready(Err(PihostError::NeverSettles { call: name.to_string() }));
                            }
                            Ok(_) => continue,
                            Err(error) => return Poll::Ready(Err(error)),
                        }
                    }
                }
            }
        })
        .await?;
        match result {
            Ok(value) => Ok(self.value_to_string(value)),
            Err(js_error) => Err(self.call_error(name, &js_error)),
        }
    }

    /// What a rejected call is: the extension's error, or (when pihost had to
    /// stop the code it ran) pihost's.
    pub(crate) fn call_error(&self, name: &str, js_error: &deno_core::error::JsError) -> PihostError {
        if was_terminated(js_error) {
            return internal(name, "its JavaScript was terminated");
        }
        extension_error(js_error)
    }

    /// Starts a call. The returned future settles with the function's
    /// promise, as long as the event loop is polled; it does not borrow the
    /// engine, so several calls can be in flight at once (the handle's
    /// thread does that). What shapes the session is recorded for a restart.
    pub(crate) fn start_call(&mut self, call: &Encoded) -> Result<PendingCall, PihostError> {
        if matches!(call.export, Export::LoadExtensions | Export::Reload) {
            self.prepare_load_of(&call.argument);
        }
        // A restart brings back the first session (the shared mode's other
        // sessions are not replayed: docs/architecture.md).
        if call.session == FIRST_SESSION {
            self.replay.record(call);
        }
        let function = self.functions[call.export.index()].clone();
        let argument = self.argument(call.export, &call.argument)?;
        Ok(self.call_function(&function, argument, call.session))
    }

    /// Calls into the isolate under the CPU limit. A function that answers
    /// at once settles the call at once; one that answers with a promise
    /// reports its outcome through `op_pihost_call_settled` under the call's
    /// number, which the returned future waits for.
    fn call_function(
        &mut self,
        function: &v8::Global<v8::Function>,
        argument: v8::Global<v8::Value>,
        session: SessionId,
    ) -> PendingCall {
        self.next_call_id = self.next_call_id.wrapping_add(1).max(1);
        let id = self.next_call_id;
        let slot = std::rc::Rc::new(crate::ops::settle::CallSlot::default());
        self.runtime
            .op_state()
            .borrow_mut()
            .borrow_mut::<crate::ops::settle::PendingCalls>()
            .0
            .insert(id, slot.clone());
        let number = {
            deno_core::scope!(scope, &mut self.runtime);
            let number: v8::Local<v8::Value> = v8::Integer::new_from_unsigned(scope, id).into();
            v8::Global::new(scope, number)
        };
        // The first session's calls name none (main.js takes that as the
        // first); another session's number is made once: each handle the
        // engine drops scans every live one (engine note 41).
        let mut arguments = vec![argument, number];
        if session != FIRST_SESSION {
            arguments.push(self.take_session_number(session));
        }
        self.enter();
        let mut answered = Box::pin(self.runtime.call_with_args(function, &arguments));
        if session != FIRST_SESSION
            && let Some(number) = arguments.pop()
        {
            self.session_numbers.insert(session, number);
        }
        self.leave();
        // The wrapped function never answers with a promise, so deno_core's future is ready now.
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let answer = match answered.as_mut().poll(&mut cx) {
            Poll::Ready(answer) => answer,
            Poll::Pending => {
                return Box::pin(answered);
            }
        };
        if let Ok(value) = &answer
            && self.is_call_pending(value)
        {
            return Box::pin(crate::ops::settle::SettlingCall(slot));
        }
        self.runtime
            .op_state()
            .borrow_mut()
            .borrow_mut::<crate::ops::settle::PendingCalls>()
            .0
            .remove(&id);
        Box::pin(std::future::ready(answer))
    }

    /// Whether a call's answer is the mark of a pending promise.
    fn is_call_pending(&mut self, value: &v8::Global<v8::Value>) -> bool {
        deno_core::scope!(scope, &mut self.runtime);
        let value = v8::Local::new(scope, value);
        let pending = v8::Local::new(scope, &self.call_pending);
        value.strict_equals(pending)
    }

    #[inline]
    fn enter(&self) {
        if let Some(watchdog) = &self.watchdog {
            watchdog.enter();
        }
    }

    /// Ends a run under the CPU limit; if it was stopped, the extension whose
    /// code ran is told so (its entry fails, or the stop is reported).
    #[inline]
    fn leave(&mut self) -> bool {
        if crate::permissions::prompt::has_allowed_once() {
            let permissions = self
                .runtime
                .op_state()
                .borrow()
                .borrow::<deno_permissions::PermissionsContainer>()
                .clone();
            crate::permissions::prompt::take_back_allowed_once(&permissions);
        }
        let stop = self.watchdog.as_ref().and_then(Watchdog::leave);
        if let Some(watchdog) = &self.watchdog
            && watchdog.take_squeezed()
        {
            crate::limits::unsqueeze(&mut self.runtime, watchdog, self.options.limits.max_heap_mb);
        }
        match stop {
            None => false,
            Some(stop) => {
                self.after_stop(stop);
                true
            }
        }
    }

    fn after_stop(&mut self, stop: Stop) {
        let heap_mb = self.options.limits.max_heap_mb.unwrap_or_default();
        let mut still_full = false;
        if stop == Stop::Heap {
            // What the stopped run held is garbage now; if the heap is as
            // full after collecting it, something live holds it all.
            self.runtime.v8_isolate().low_memory_notification();
            let statistics = self.runtime.v8_isolate().get_heap_statistics();
            let limit = heap_mb.saturating_mul(1024 * 1024);
            still_full = statistics.used_heap_size() >= limit / 10 * 9;
            if still_full {
                crate::limits::give_heap_room_until_replaced(&mut self.runtime, heap_mb);
            } else {
                self.watch_heap();
            }
        }
        let request = calls::FailTerminated {
            kind: if stop == Stop::Heap {
                calls::StopKind::Heap
            } else {
                calls::StopKind::Cpu
            },
            limit_ms: self.options.limits.cpu.map(|limit| limit.as_millis()),
            heap_mb,
        };
        let blamed = self.call_now(&request);
        // Only a heap stop's run can have filled the heap; a CPU stop forgets
        // an earlier heap stop's blame.
        self.heap_filled_by = match (&stop, &blamed) {
            (Stop::Heap, Ok(blamed)) => Some(blamed.extension_path.clone()),
            _ => None,
        };
        let while_loading = match &blamed {
            Ok(blamed) => {
                tracing::warn!(
                    "stopped extension code of {}: {}",
                    blamed.extension_path,
                    blamed.message
                );
                blamed.loading
            }
            Err(error) => {
                tracing::warn!("stopped extension code, and could not say whose: {error}");
                false
            }
        };
        // A new runtime would load the same extensions and fill up again if
        // the heap filled while loading; after a handler or a tool it starts clean.
        if still_full && !while_loading {
            self.beyond_saving = true;
        }
        // A second stop while reporting the first is left to the restart.
        if let Some(watchdog) = &self.watchdog
            && watchdog.leave().is_some()
        {
            self.beyond_saving = !while_loading;
        }
    }

    /// Makes a call of pihost's own bookkeeping that answers synchronously
    /// (outside the CPU limit: no extension code runs in it).
    fn call_now<C: RuntimeCall>(&mut self, call: &C) -> Result<C::Answer, PihostError> {
        let name = C::EXPORT.name();
        let encoded = call.encode()?;
        let function = self.functions[C::EXPORT.index()].clone();
        let argument = self.value_argument(name, &encoded.argument)?;
        // Call number 0: nobody waits for it, so a promise it answers with is an error here.
        let mut pending: PendingCall = Box::pin(self.runtime.call_with_args(&function, &[argument]));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match pending.as_mut().poll(&mut cx) {
            Poll::Ready(Ok(value)) if self.is_call_pending(&value) => Err(internal(name, "did not answer at once")),
            Poll::Ready(Ok(value)) => {
                let answer = self.value_to_string(value);
                C::decode(&answer)
            }
            Poll::Ready(Err(error)) => Err(internal(name, error)),
            Poll::Pending => Err(internal(name, "did not answer at once")),
        }
    }

    /// Fails the extension code nothing can settle any more; how many entries.
    fn fail_stalled(&mut self) -> Result<usize, PihostError> {
        self.call_now(&calls::FailStalled)
    }

    /// A call's argument: the value its text encodes, or the text itself
    /// for an export that [takes text](Export::takes_text).
    fn argument(&mut self, export: Export, text: &str) -> Result<v8::Global<v8::Value>, PihostError> {
        self.made_argument(export.name(), text, !export.takes_text())
    }

    /// A call's argument as the value it encodes, made by the engine's own
    /// JSON parser (an extension's replacement of `JSON.parse` never sees it).
    fn value_argument(&mut self, name: &str, json: &str) -> Result<v8::Global<v8::Value>, PihostError> {
        self.made_argument(name, json, true)
    }

    fn made_argument(&mut self, name: &str, text: &str, parse: bool) -> Result<v8::Global<v8::Value>, PihostError> {
        deno_core::scope!(scope, &mut self.runtime);
        let text = v8::String::new(scope, text).ok_or_else(|| internal(name, "argument too large"))?;
        let value = if parse {
            v8::json::parse(scope, text).ok_or_else(|| internal(name, "the engine could not read its argument"))?
        } else {
            text.into()
        };
        Ok(v8::Global::new(scope, value))
    }

    /// A settled call's value as the string it is (runtime functions answer
    /// JSON text). A string is written out as UTF-8 in one piece: on the
    /// QuickJS backend `to_rust_string_lossy` goes through a view that
    /// re-encodes the text four times (docs/engine-notes.md, note 49).
    pub(crate) fn value_to_string(&mut self, value: v8::Global<v8::Value>) -> String {
        deno_core::scope!(scope, &mut self.runtime);
        let value = v8::Local::new(scope, value);
        let Ok(text) = v8::Local::<v8::String>::try_from(value) else {
            return value.to_rust_string_lossy(scope);
        };
        let mut utf8 = vec![0; text.utf8_length(scope)];
        let written = text.write_utf8_v2(scope, &mut utf8, v8::WriteFlags::kReplaceInvalidUtf8, None);
        utf8.truncate(written);
        String::from_utf8(utf8).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }

    /// One turn of the event loop under the CPU limit. A turn in which
    /// extension code was stopped is never "idle": the failures it made
    /// still have to run.
    pub(crate) fn poll_event_loop(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), PihostError>> {
        self.enter();
        let turn = self.runtime.poll_event_loop(cx, PollEventLoopOptions::default());
        if self.leave() {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        turn.map_err(|error| internal("event loop", error))
    }

    /// Fails the extension code of in-flight calls that nothing can settle
    /// any more (the event loop is idle); how many entries failed.
    pub(crate) fn fail_stalled_calls(&mut self) -> usize {
        self.fail_stalled().unwrap_or_else(|error| {
            tracing::warn!("cannot fail stalled extension code: {error}");
            0
        })
    }

    /// Counts handlers into `counts` from now on (a handle keeps one set of
    /// counts across engine restarts; over-counting is safe).
    pub(crate) fn share_handler_counts(&mut self, counts: HandlerCounts) {
        self.runtime.op_state().borrow_mut().put(counts);
    }

    /// The live per-event handler counts (shared with the handle).
    pub(crate) fn handler_counts(&self) -> HandlerCounts {
        self.runtime.op_state().borrow().borrow::<HandlerCounts>().clone()
    }

    /// Binds `host` to session `session`'s extensions. The first session's
    /// host also answers permission prompts (unless the options name another).
    pub(crate) fn put_host(&mut self, session: SessionId, host: Arc<dyn Host>) {
        let state = self.runtime.op_state();
        let mut state = state.borrow_mut();
        if session != FIRST_SESSION {
            if let Some(shared) = state.borrow_mut::<SharedSessions>().0.get_mut(&session) {
                shared.host = host;
            }
            return;
        }
        if self.options.permission_host.is_none() {
            crate::permissions::prompt::set_session_host(host.clone());
        }
        state.put(BoundHost(host));
    }

    /// Makes room for session `session` of the shared mode: headless, its
    /// errors going to `errors`, its handlers counted in `handler_counts`.
    /// The runtime's side is the [`calls::OpenSession`] call that follows.
    pub(crate) fn add_shared_session(
        &mut self,
        session: SessionId,
        errors: tokio::sync::broadcast::Sender<ExtensionError>,
        handler_counts: HandlerCounts,
    ) {
        let shared = SharedSession {
            host: Arc::new(crate::host::HeadlessHost),
            errors,
            handler_counts,
        };
        self.runtime
            .op_state()
            .borrow_mut()
            .borrow_mut::<SharedSessions>()
            .0
            .insert(session, shared);
    }

    /// Session `session`'s number as the engine's value, made once per
    /// session and taken out for a call (a clone would be a new handle).
    fn take_session_number(&mut self, session: SessionId) -> v8::Global<v8::Value> {
        if let Some(number) = self.session_numbers.remove(&session) {
            return number;
        }
        deno_core::scope!(scope, &mut self.runtime);
        let number: v8::Local<v8::Value> = v8::Integer::new_from_unsigned(scope, session).into();
        v8::Global::new(scope, number)
    }

    /// Forgets session `session` of the shared mode (after its
    /// [`calls::CloseSession`] call): its host, error stream and tool updates.
    pub(crate) fn remove_shared_session(&mut self, session: SessionId) {
        self.session_numbers.remove(&session);
        let state = self.runtime.op_state();
        let mut state = state.borrow_mut();
        state.borrow_mut::<SharedSessions>().0.remove(&session);
        state
            .borrow_mut::<ToolUpdateSinks>()
            .0
            .retain(|(owner, _), _| *owner != session);
    }

    pub(crate) fn set_tool_updates(
        &mut self,
        session: SessionId,
        tool_call_id: &str,
        updates: Option<tokio::sync::mpsc::UnboundedSender<serde_json::Value>>,
    ) {
        let state = self.runtime.op_state();
        let mut state = state.borrow_mut();
        let sinks = &mut state.borrow_mut::<ToolUpdateSinks>().0;
        let key = (session, tool_call_id.to_string());
        match updates {
            Some(updates) => {
                sinks.insert(key, updates);
            }
            None => {
                sinks.remove(&key);
            }
        }
    }
}

/// A runtime with pihost's platform, ops and module loader, its heap
/// bounded by `heap_limit` bytes, as every one has: the engine's, and each
/// worker's and guest's (src/platform/workers.rs), whose runtimes must be
/// the same.
fn js_runtime(heap_limit: Option<usize>) -> Result<JsRuntime, crate::platform::RuntimeStartError> {
    let permissions = crate::platform::PermissionSlot::default();
    let extension_folders = crate::permissions::ExtensionFolders::default();
    let mut options = runtime_options(&permissions, &extension_folders)?;
    options.create_params = heap_limit.map(|bytes| v8::Isolate::create_params().heap_limits(0, bytes));
    options.startup_snapshot = crate::startup_snapshot::kept(&options.extensions);
    let from_source = options.startup_snapshot.is_none();
    let runtime = JsRuntime::try_new(options)?;
    crate::startup_snapshot::note_runtime_start(!from_source);
    if from_source {
        crate::startup_snapshot::make_in_background(snapshot_runtime_options);
    }
    crate::platform::put_state(&mut runtime.op_state().borrow_mut(), permissions);
    runtime.op_state().borrow_mut().put(extension_folders);
    // Workers and guests this runtime starts get runtimes made the same way.
    runtime.op_state().borrow_mut().put(crate::platform::RuntimeRecipe {
        heap_limit,
        make: js_runtime,
    });
    Ok(runtime)
}

/// Makes this binary's startup snapshot ahead of time (`pihost prepare`):
/// beside the binary, or in `$PIHOST_STARTUP_SNAPSHOT_DIR`, so that no first
/// start pays for making it. The path of the file it kept.
pub fn prepare_startup_snapshot() -> Result<std::path::PathBuf, PihostError> {
    crate::startup_snapshot::prepare(snapshot_runtime_options)
        .map_err(|error| PihostError::Prepare(format!("the startup snapshot: {error}")))
}

/// The options of the runtime a snapshot is made of: every runtime's.
fn snapshot_runtime_options() -> Option<RuntimeOptions> {
    runtime_options(
        &crate::platform::PermissionSlot::default(),
        &crate::permissions::ExtensionFolders::default(),
    )
    .ok()
}

/// What every runtime is made of (a snapshot's runtime too, whose
/// extensions must be the same).
fn runtime_options(
    permissions: &crate::platform::PermissionSlot,
    extension_folders: &crate::permissions::ExtensionFolders,
) -> Result<RuntimeOptions, crate::platform::RuntimeStartError> {
    let mut extensions = crate::platform::extensions(permissions)?;
    extensions.push(crate::ops::pihost_ops::init());
    Ok(RuntimeOptions {
        module_loader: Some(Rc::new(PihostModuleLoader::sandboxed(
            permissions.clone(),
            extension_folders.clone(),
        ))),
        extensions,
        // Transferred ArrayBuffers move between runtimes (workers) through it.
        shared_array_buffer_store: Some(crate::platform::shared_array_buffers()),
        ..Default::default()
    })
}

/// A call into the isolate that has started and not settled yet.
pub(crate) type PendingCall =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<v8::Global<v8::Value>, Box<deno_core::error::JsError>>>>>;

/// Whether the engine's termination (a limit's stop) ended the call's own
/// JavaScript. deno_core gives no other sign of it than the error it makes
/// up then, `new Error("execution terminated")` (deno_core's error.rs, where
/// it builds the exception of a terminated run).
fn was_terminated(js_error: &deno_core::error::JsError) -> bool {
    js_error.message.as_deref() == Some("execution terminated")
        || js_error.exception_message.ends_with("Error: execution terminated")
}

/// A rejection from extension code, not a failure of pihost.
pub(crate) fn extension_error(js_error: &deno_core::error::JsError) -> PihostError {
    PihostError::Extension {
        message: js_error
            .message
            .clone()
            .unwrap_or_else(|| thrown_value_text(&js_error.exception_message)),
        stack: js_error.stack.clone(),
    }
}

/// What pi shows for a thrown value that is not an Error (`String(value)`):
/// the engine's text without the "Uncaught" it puts in front.
fn thrown_value_text(exception_message: &str) -> String {
    exception_message
        .strip_prefix("Uncaught (in promise) ")
        .or_else(|| exception_message.strip_prefix("Uncaught "))
        .unwrap_or(exception_message)
        .to_string()
}

/// The JSON request `loadExtensions` in the isolate takes.
pub(crate) fn load_request(cwd: &Path, extensions: &[DiscoveredExtension], use_cache: bool) -> calls::LoadRequest {
    let mut urls = crate::modules::ModuleUrls::default();
    let entries = extensions
        .iter()
        .map(|extension| calls::LoadEntry {
            path: extension.path.clone(),
            resolved_path: extension.resolved_path.clone(),
            module_url: urls.of(&extension.resolved_path),
        })
        .collect();
    calls::LoadRequest {
        cwd: cwd.to_path_buf(),
        use_cache,
        entries,
    }
}

pub use crate::modules::module_url;

/// The export `name` of `js/runtime/main.js`'s namespace, whatever it is.
fn export_of(
    runtime: &mut JsRuntime,
    namespace: &v8::Global<v8::Object>,
    name: &str,
) -> Result<v8::Global<v8::Value>, PihostError> {
    deno_core::scope!(scope, runtime);
    let namespace = v8::Local::new(scope, namespace);
    let key = v8::String::new(scope, name).ok_or_else(|| internal(name, "cannot make the key"))?;
    let value = namespace
        .get(scope, key.into())
        .ok_or_else(|| internal("runtime/main.js", format!("no export {name}")))?;
    Ok(v8::Global::new(scope, value))
}

/// `function` wrapped by `reportingCall` (js/runtime/call-settlement.js).
fn reporting(
    runtime: &mut JsRuntime,
    reporting_call: &v8::Global<v8::Function>,
    function: &v8::Global<v8::Function>,
    name: &str,
) -> Result<v8::Global<v8::Function>, PihostError> {
    deno_core::scope!(scope, runtime);
    let reporting_call = v8::Local::new(scope, reporting_call);
    let function: v8::Local<v8::Value> = v8::Local::new(scope, function).into();
    let undefined = v8::undefined(scope).into();
    let wrapped = reporting_call
        .call(scope, undefined, &[function])
        .ok_or_else(|| internal(name, "could not be wrapped"))?;
    let wrapped =
        v8::Local::<v8::Function>::try_from(wrapped).map_err(|_| internal(name, "wrapped is not a function"))?;
    Ok(v8::Global::new(scope, wrapped))
}

/// The function `name` of `js/runtime/main.js`'s namespace.
fn function_of(
    runtime: &mut JsRuntime,
    namespace: &v8::Global<v8::Object>,
    name: &str,
) -> Result<v8::Global<v8::Function>, PihostError> {
    let value = export_of(runtime, namespace, name)?;
    deno_core::scope!(scope, runtime);
    let value = v8::Local::new(scope, value);
    let function = v8::Local::<v8::Function>::try_from(value)
        .map_err(|_| internal("runtime/main.js", format!("{name} is not a function")))?;
    Ok(v8::Global::new(scope, function))
}

#[cfg(test)]
mod tests {
    use super::{Engine, EngineOptions, answers_undefined_without_handlers, calls};

    /// Every event family js/runtime/dispatch.js names, and one it does not.
    fn dispatched_event_types() -> Vec<String> {
        let source = include_str!("../../js/runtime/dispatch.js");
        let mut types: Vec<String> = source
            .lines()
            .filter_map(|line| line.trim().strip_prefix("case \"")?.split('"').next().map(String::from))
            .collect();
        types.push("agent_start".to_string());
        types
    }

    /// The shortcut that answers without entering the isolate (H3) must agree
    /// with what the isolate's dispatch answers when no extension handles the
    /// event: `undefined` exactly for the families the shortcut covers.
    #[test]
    fn the_no_handler_shortcut_agrees_with_the_isolates_dispatch() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio runtime");
        let cwd = std::env::temp_dir();
        runtime.block_on(async {
            let mut engine = Engine::new(EngineOptions::for_cwd(&cwd)).await.expect("engine");
            engine.load(&[], false).await.expect("load nothing");
            let types = dispatched_event_types();
            assert!(types.len() > 10, "the switch of dispatch.js was not found: {types:?}");
            for event_type in types {
                let event = serde_json::json!({
                    "type": event_type,
                    "messages": [],
                    "text": "hello",
                    "images": [],
                    "source": "interactive",
                    "payload": {},
                    "headers": {},
                    "cwd": cwd,
                    "reason": "startup",
                    "prompt": "hello",
                    "systemPrompt": "system",
                    "systemPromptOptions": {},
                    "toolName": "read",
                    "toolCallId": "call-1",
                    "input": {},
                    "content": [],
                    "isError": false,
                    "command": "ls",
                    "message": { "role": "user", "content": "hello", "timestamp": 0 },
                    "entries": [],
                    "action": "warm",
                });
                let result = engine
                    .call(&calls::EmitEvent(&event))
                    .await
                    .unwrap_or_else(|error| panic!("{event_type}: {error}"))
                    .result;
                assert_eq!(
                    answers_undefined_without_handlers(&event_type),
                    result.is_none(),
                    "{event_type}: the isolate answers {result:?} without handlers"
                );
            }
        });
    }
}
