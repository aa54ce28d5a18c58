//! [`Pihost`]: the Send + Clone handle an embedder holds. The isolate is
//! `!Send`, so an [`Engine`] lives on a thread of its own with a
//! current-thread async runtime; the handle sends it requests and awaits the
//! answers. Calls run concurrently inside the isolate: a tool can be aborted
//! while it runs, and an event can be emitted while a command waits on a UI
//! answer.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::discovery::DiscoveredExtension;
use crate::engine::calls::{self, Encoded, RuntimeCall};
use crate::engine::{Engine, EngineOptions, PendingCall, Registrations, Replay};
use crate::error::PihostError;
use crate::events::{
    BeforeAgentStartResult, BoundaryResult, DiscoveredResources, Headers, InputEvent, InputResult, ProjectTrustOutcome,
    ToolCallEvent, ToolCallResult, ToolResultEvent, ToolResultPatch,
};
use crate::host::{ExtensionError, Host, HostState};
use crate::limits::Stuck;
use crate::report::{InspectReport, JsLoadReport, LoadError};
use crate::session::{FIRST_SESSION, SessionId};

type Reply = oneshot::Sender<Result<String, PihostError>>;

enum Request {
    /// Make a call of the call table (src/engine/calls.rs).
    Call {
        call: Encoded,
        /// What to call it in a "can never settle" error.
        label: String,
        tool_updates: Option<(String, Option<mpsc::UnboundedSender<Value>>)>,
        reply: Reply,
    },
    Bind {
        host: Arc<dyn Host>,
        call: Encoded,
        reply: Reply,
    },
    /// Open a session of the shared mode in the runtime.
    OpenSession {
        session: SessionId,
        errors: broadcast::Sender<ExtensionError>,
        handler_counts: crate::ops::host::HandlerCounts,
        reply: Reply,
    },
    /// End a session of the shared mode; the runtime and its other sessions go on.
    CloseSession { session: SessionId, reply: Reply },
    /// Stop the engine: calls still in flight are answered with an error.
    Shutdown { reply: oneshot::Sender<()> },
    /// Panic on the engine thread (crash-isolation tests).
    Panic,
}

/// A call in flight inside the isolate.
struct InFlight {
    call: PendingCall,
    label: String,
    /// The session and id of the tool call it runs, if it runs one.
    tool_call: Option<(SessionId, String)>,
    reply: Reply,
}

/// A handle to a pihost engine on its own thread. Cheap to clone; every clone
/// talks to the same engine. The engine stops when the last handle is dropped.
///
/// One bad extension cannot hang or kill the handle: its runaway code is
/// stopped by the [`Limits`](crate::Limits) of [`EngineOptions`], a runtime
/// whose heap cannot be recovered is replaced by a new one with the same
/// extensions, and if the engine thread dies every pending call fails with
/// [`PihostError::EngineCrashed`] and [`Pihost::restart`] brings it back.
///
/// A handle is one session. [`Pihost::start`] makes an engine whose runtime
/// holds one session (the isolated mode: a runtime per session);
/// [`Pihost::open_session`] opens another session in the same runtime (the
/// shared mode: modules and cached factories evaluated once, each session
/// with its own extension instances, runner, host and host state).
#[derive(Clone)]
pub struct Pihost {
    engine: Arc<Mutex<EngineThread>>,
    /// Which session of the engine's runtime this handle is.
    session: SessionId,
    /// Closes a session opened with [`Pihost::open_session`] when its last
    /// handle is dropped (the first session's last handle stops the engine).
    _closer: Option<Arc<SessionCloser>>,
    /// The number the next session opened in this runtime gets.
    next_session: Arc<std::sync::atomic::AtomicU32>,
    errors: broadcast::Sender<ExtensionError>,
    options: EngineOptions,
    dispatch_timeout: Arc<Mutex<Option<Duration>>>,
    handler_counts: crate::ops::host::HandlerCounts,
    /// What the engine was brought to, to bring a new one there too.
    replay: Arc<Mutex<Replays>>,
    /// Held while a given-up engine is replaced, so only one caller does it.
    replacing: Arc<tokio::sync::Mutex<()>>,
}

/// What brings every session of a runtime back on a new engine: the first
/// session's [`Replay`], and each shared session's with where its errors go
/// and its handler counts.
#[derive(Clone, Default)]
struct Replays {
    first: Replay,
    /// Where the first session's errors go.
    first_errors: Option<broadcast::Sender<ExtensionError>>,
    shared: BTreeMap<SessionId, SharedSessionRecord>,
}

#[derive(Clone)]
struct SharedSessionRecord {
    errors: broadcast::Sender<ExtensionError>,
    handler_counts: crate::ops::host::HandlerCounts,
    replay: Replay,
}

impl Replays {
    /// Session `session`'s replay, if it is open.
    fn of(&mut self, session: SessionId) -> Option<&mut Replay> {
        match session {
            FIRST_SESSION => Some(&mut self.first),
            session => self.shared.get_mut(&session).map(|shared| &mut shared.replay),
        }
    }

    fn record(&mut self, call: &Encoded) {
        if let Some(replay) = self.of(call.session) {
            replay.record(call);
        }
    }

    fn record_bind(&mut self, session: SessionId, host: Arc<dyn Host>, state: &str) {
        if let Some(replay) = self.of(session) {
            replay.record_bind(host, state);
        }
    }

    /// Leaves the extension at `path` out of every session's recorded load;
    /// whether the first session's had it.
    fn leave_out(&mut self, path: &str) -> bool {
        for shared in self.shared.values_mut() {
            shared.replay.leave_out(path);
        }
        self.first.leave_out(path)
    }

    fn load_order(&self) -> Vec<String> {
        self.first.load_order()
    }

    /// Tells every session's subscribers what happened to the engine they share.
    fn tell_every_session(&self, error: &ExtensionError) {
        // No subscriber is fine: errors are also in the engine's log.
        let streams = self
            .first_errors
            .iter()
            .chain(self.shared.values().map(|shared| &shared.errors));
        for errors in streams {
            let _ = errors.send(error.clone());
        }
    }

    /// Brings a fresh engine to every recorded session; the first session's load report.
    async fn apply(&self, engine: &mut Engine) -> Result<Option<InspectReport>, PihostError> {
        let report = self.first.apply(engine, FIRST_SESSION).await?;
        for (session, shared) in &self.shared {
            engine.add_shared_session(*session, shared.errors.clone(), shared.handler_counts.clone());
            let opened = engine.call_in(*session, &calls::OpenSession).await;
            let back = match opened {
                Ok(()) => shared.replay.apply(engine, *session).await.map(|_| ()),
                Err(error) => Err(error),
            };
            // One session that cannot come back does not keep the others away.
            if let Err(error) = back {
                let _ = shared.errors.send(ExtensionError {
                    extension_path: "<pihost>".to_string(),
                    event: "engineRestarted".to_string(),
                    error: format!("this session could not be brought back on the new runtime: {error}"),
                    stack: None,
                });
                engine.remove_shared_session(*session);
            }
        }
        Ok(report)
    }
}

/// Closes a shared session in its runtime when the last handle of the
/// session is dropped, as [`Pihost::shutdown`] would (without waiting).
struct SessionCloser {
    session: SessionId,
    engine: Arc<Mutex<EngineThread>>,
}

impl Drop for SessionCloser {
    fn drop(&mut self) {
        if let Ok(engine) = self.engine.lock() {
            let (reply, _) = oneshot::channel();
            // A closed session, or an engine gone, leaves nothing to close.
            let _ = engine.requests.send(Request::CloseSession {
                session: self.session,
                reply,
            });
        }
    }
}

/// The engine thread a handle talks to, and why it died if it did.
struct EngineThread {
    requests: mpsc::UnboundedSender<Request>,
    crash: Arc<Mutex<Option<String>>>,
    /// Set once a run its engine stopped went on regardless: the thread is
    /// given up (it finishes on its own, at the lowest priority).
    stuck: watch::Receiver<Option<Stuck>>,
}

impl EngineThread {
    fn given_up(&self) -> Option<Stuck> {
        self.stuck.borrow().clone()
    }
}

/// What a caller is told when the run that was stopped in its engine went on regardless.
fn stuck_message(stuck: &Stuck, cpu_limit: Option<Duration>) -> String {
    let limit = cpu_limit.map_or_else(String::new, |limit| format!(" of {} ms", limit.as_millis()));
    const WHY: &str = "it is in a loop of native calls the engine cannot interrupt (docs/engine-notes.md, note 34)";
    match &stuck.loading {
        Some(path) => format!(
            "Extension \"{path}\" did not stop at its CPU limit{limit} while loading: {WHY}, so pihost gave up its runtime and loaded the other extensions in a new one"
        ),
        None => format!(
            "extension code did not stop at its CPU limit{limit}: {WHY}, so pihost gave up its runtime; the next call goes to a new one with the same extensions"
        ),
    }
}

/// `report` with the load errors of extensions left out because their load
/// got stuck, each in its place in `order` (the load order).
fn with_left_out(mut report: InspectReport, left_out: Vec<LoadError>, order: &[String]) -> InspectReport {
    if left_out.is_empty() {
        return report;
    }
    report.errors.extend(left_out);
    let place = |error: &LoadError| order.iter().position(|path| *path == error.path).unwrap_or(usize::MAX);
    report.errors.sort_by_key(place);
    report
}

/// What tells a caller that the engine thread its request went to died or was given up.
struct ThreadFate {
    crash: Arc<Mutex<Option<String>>>,
    stuck: watch::Receiver<Option<Stuck>>,
}

impl ThreadFate {
    /// The error for a request whose answer will never come.
    fn gone(&self) -> PihostError {
        match self.crash.lock().ok().and_then(|slot| slot.clone()) {
            Some(message) => PihostError::EngineCrashed { message },
            None => stopped(),
        }
    }
}

/// Resolves when `stuck` says the engine was given up; never if it ends otherwise.
async fn given_up(mut stuck: watch::Receiver<Option<Stuck>>) -> Stuck {
    let notice = match stuck.wait_for(Option::is_some).await {
        Ok(notice) => notice.clone(),
        Err(_) => None,
    };
    match notice {
        Some(notice) => notice,
        None => std::future::pending().await,
    }
}

fn stopped() -> PihostError {
    PihostError::Stopped
}

fn internal_error(context: &str, error: impl std::fmt::Display) -> PihostError {
    PihostError::Internal {
        context: context.to_string(),
        message: error.to_string(),
    }
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

impl Pihost {
    /// Starts an engine on a new thread and waits until its runtime is ready.
    pub async fn start(options: EngineOptions) -> Result<Self, PihostError> {
        let (errors, _) = broadcast::channel(1024);
        let handler_counts = crate::ops::host::HandlerCounts::default();
        let replay = Arc::new(Mutex::new(Replays {
            first_errors: Some(errors.clone()),
            ..Replays::default()
        }));
        let (engine, _) = match spawn_engine(&options, &errors, &handler_counts, &replay).await? {
            Spawned::Ready(engine, report) => (engine, report),
            Spawned::GivenUp(stuck) => {
                return Err(PihostError::EngineCrashed {
                    message: stuck_message(&stuck, options.limits.cpu),
                });
            }
        };
        Ok(Self {
            engine: Arc::new(Mutex::new(engine)),
            session: FIRST_SESSION,
            _closer: None,
            next_session: Arc::new(std::sync::atomic::AtomicU32::new(FIRST_SESSION + 1)),
            errors,
            options,
            dispatch_timeout: Arc::new(Mutex::new(None)),
            handler_counts,
            replay,
            replacing: Arc::new(tokio::sync::Mutex::new(())),
        })
    }

    /// Starts a new engine thread in place of the current one (which is
    /// stopped if it still runs) and brings it to the same session: the
    /// extensions of the last load, flag values, the bound host and its
    /// state, then `session_start` with reason "reload" (H1). Every clone of
    /// the handle talks to the new engine. The report is the new load's.
    pub async fn restart(&self) -> Result<Option<InspectReport>, PihostError> {
        let _one = self.replacing.lock().await;
        self.restart_now().await
    }

    /// [`Pihost::restart`] if the engine thread died, and not again when
    /// another handle (another session of the runtime) already restarted it
    /// since; whether this call did.
    pub async fn restart_if_crashed(&self) -> Result<bool, PihostError> {
        let _one = self.replacing.lock().await;
        if !self.is_crashed() {
            return Ok(false);
        }
        self.restart_now().await.map(|_| true)
    }

    async fn restart_now(&self) -> Result<Option<InspectReport>, PihostError> {
        let old = self
            .engine
            .lock()
            .ok()
            .map(|engine| (engine.requests.clone(), engine.given_up().is_some()));
        if let Some((old, given_up)) = old {
            let (reply, done) = oneshot::channel();
            // A given-up thread answers when its run ends, maybe minutes later.
            if old.send(Request::Shutdown { reply }).is_ok() && !given_up {
                let _ = done.await;
            }
        }
        let order = self.load_order();
        let (report, left_out) = self.start_past_stuck_loads().await?;
        Ok(report.map(|report| with_left_out(report, left_out, &order)))
    }

    /// Starts an engine thread brought to the recorded session in place of
    /// the current one. An extension whose load gets stuck on the way is
    /// left out of the session and answered for in the returned errors.
    async fn start_past_stuck_loads(&self) -> Result<(Option<InspectReport>, Vec<LoadError>), PihostError> {
        let mut left_out = Vec::new();
        loop {
            match spawn_engine(&self.options, &self.errors, &self.handler_counts, &self.replay).await? {
                Spawned::Ready(engine, report) => {
                    if let Ok(mut slot) = self.engine.lock() {
                        *slot = engine;
                    }
                    return Ok((report.map(|report| *report), left_out));
                }
                Spawned::GivenUp(stuck) => {
                    let message = stuck_message(&stuck, self.options.limits.cpu);
                    match self.leave_out(&stuck, &message) {
                        Some(error) => left_out.push(error),
                        None => return Err(PihostError::EngineCrashed { message }),
                    }
                }
            }
        }
    }

    /// Leaves the extension whose load got stuck out of the recorded
    /// session; its load error, or `None` when no load was stuck.
    fn leave_out(&self, stuck: &Stuck, message: &str) -> Option<LoadError> {
        let path = stuck.loading.as_ref()?;
        let mut replay = self.replay.lock().ok()?;
        replay.leave_out(path).then(|| LoadError {
            path: path.clone(),
            error: format!("Failed to load extension: {message}"),
            stack: None,
            load_time_ms: None,
            denied: Vec::new(),
            timing: None,
        })
    }

    /// Replaces the engine if it was given up (a stopped run went on
    /// regardless), so that calls reach a working one: the session is
    /// brought back as after a restart, less an extension whose load got
    /// stuck, and subscribers hear `engineRestarted`. The new load's report
    /// with the left-out extensions' errors, if there was a load to bring
    /// back; `Ok(None)` too when nothing had to be replaced.
    async fn replace_if_given_up(&self) -> Result<Option<InspectReport>, PihostError> {
        if !self.is_given_up() {
            return Ok(None);
        }
        let _one = self.replacing.lock().await;
        let Some(stuck) = self.engine.lock().ok().and_then(|engine| engine.given_up()) else {
            return Ok(None);
        };
        let order = self.load_order();
        let message = stuck_message(&stuck, self.options.limits.cpu);
        let mut left_out: Vec<LoadError> = self.leave_out(&stuck, &message).into_iter().collect();
        let (report, more) = self.start_past_stuck_loads().await?;
        left_out.extend(more);
        let restarted = ExtensionError {
            extension_path: stuck.loading.clone().unwrap_or_else(|| "<pihost>".to_string()),
            event: "engineRestarted".to_string(),
            error: format!("{message}; pihost restarted the engine with the other extensions"),
            stack: None,
        };
        if let Ok(replay) = self.replay.lock() {
            replay.tell_every_session(&restarted);
        }
        Ok(report.map(|report| with_left_out(report, left_out, &order)))
    }

    /// The paths of the session's load, in order.
    fn load_order(&self) -> Vec<String> {
        self.replay.lock().map(|replay| replay.load_order()).unwrap_or_default()
    }

    fn is_given_up(&self) -> bool {
        self.engine
            .lock()
            .ok()
            .is_some_and(|engine| engine.given_up().is_some())
    }

    /// Extension errors reported after loading (a throwing handler, an invalid
    /// result, a refused provider, code stopped at a limit…), to every
    /// subscriber. A restart of the engine is reported here too, as event
    /// `engineRestarted` (or `engineCrashed` when the thread died).
    pub fn errors(&self) -> broadcast::Receiver<ExtensionError> {
        self.errors.subscribe()
    }

    /// Bounds later emits, tool executions and commands of this handle and
    /// the clones sharing its timeout: one that does not settle in time fails
    /// with [`PihostError::Timeout`] (a tool is aborted through its signal;
    /// handlers keep running in the isolate, their late results are dropped).
    pub fn set_dispatch_timeout(&self, timeout: Option<Duration>) {
        if let Ok(mut slot) = self.dispatch_timeout.lock() {
            *slot = timeout;
        }
    }

    /// A handle to the same engine whose dispatches are bounded by `timeout`
    /// instead, for one call or a group of calls.
    pub fn with_dispatch_timeout(&self, timeout: Option<Duration>) -> Pihost {
        Pihost {
            dispatch_timeout: Arc::new(Mutex::new(timeout)),
            ..self.clone()
        }
    }

    /// Sends `request` to the engine thread; what tells its caller that the
    /// thread died or was given up.
    fn send(&self, mut request: Request) -> Result<ThreadFate, PihostError> {
        if let Request::Call { call, .. } | Request::Bind { call, .. } = &mut request {
            call.session = self.session;
        }
        let engine = self.engine.lock().map_err(|_| stopped())?;
        let crash = engine.crash.clone();
        if let Some(message) = crash.lock().ok().and_then(|slot| slot.clone()) {
            return Err(PihostError::EngineCrashed { message });
        }
        engine.requests.send(request).map_err(|_| stopped())?;
        Ok(ThreadFate {
            crash,
            stuck: engine.stuck.clone(),
        })
    }

    /// Makes `call` on the engine thread and reads its answer; a call that
    /// runs extension code is bounded by the dispatch timeout.
    async fn call<C: RuntimeCall>(&self, call: &C) -> Result<C::Answer, PihostError> {
        let answer = self
            .send_call(call.encode()?, call.label(), None, C::RUNS_EXTENSION_CODE)
            .await?;
        C::decode(&answer)
    }

    async fn send_call(
        &self,
        call: Encoded,
        label: String,
        tool_updates: Option<(String, Option<mpsc::UnboundedSender<Value>>)>,
        bounded: bool,
    ) -> Result<String, PihostError> {
        self.replace_if_given_up().await?;
        let (reply, answer) = oneshot::channel();
        let tool_call_id = tool_updates.as_ref().map(|(id, _)| id.clone());
        let fate = self.send(Request::Call {
            call,
            label: label.clone(),
            tool_updates,
            reply,
        })?;
        let cpu_limit = self.options.limits.cpu;
        let call_label = label.clone();
        let answer = async move {
            tokio::select! {
                answer = answer => answer.map_err(|_| fate.gone()),
                stuck = given_up(fate.stuck.clone()) => Err(PihostError::EngineStuck {
                    call: call_label,
                    message: stuck_message(&stuck, cpu_limit),
                }),
            }
        };
        let limit = if bounded {
            self.dispatch_timeout.lock().ok().and_then(|slot| *slot)
        } else {
            None
        };
        match limit {
            None => answer.await?,
            Some(limit) => match tokio::time::timeout(limit, answer).await {
                Ok(answer) => answer?,
                Err(_) => {
                    if let Some(id) = tool_call_id {
                        // A tool that outlived its time is told so through its signal.
                        let (reply, _answer) = oneshot::channel();
                        let abort = calls::AbortTool(&id);
                        if let Ok(call) = abort.encode() {
                            let _ = self.send(Request::Call {
                                call,
                                label: abort.label(),
                                tool_updates: None,
                                reply,
                            });
                        }
                    }
                    Err(PihostError::Timeout {
                        call: label,
                        millis: limit.as_millis(),
                    })
                }
            },
        }
    }

    /// Whether the engine thread died; [`Pihost::restart`] brings it back.
    pub fn is_crashed(&self) -> bool {
        self.engine
            .lock()
            .ok()
            .and_then(|engine| engine.crash.lock().ok().map(|slot| slot.is_some()))
            .unwrap_or(true)
    }

    /// Panics on the engine thread, as a bug in pihost or deno_core would:
    /// for tests of crash isolation.
    #[doc(hidden)]
    pub fn crash_engine_for_tests(&self) {
        let _ = self.send(Request::Panic);
    }

    /// Discovers extensions as pi does (D1–D7) and loads them (L1–L8).
    pub async fn load(&self, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
        self.load_extensions(&self.discover(configured_paths), false).await
    }

    /// Finds extensions as pi does (D1–D7) for this engine's cwd and agent directory.
    pub fn discover(&self, configured_paths: &[String]) -> Vec<DiscoveredExtension> {
        crate::discovery::discover(&crate::discovery::DiscoveryOptions {
            cwd: self.options.cwd.clone(),
            agent_dir: self.options.agent_dir.clone(),
            config_dir_name: self.options.config_dir_name.clone(),
            configured_paths: configured_paths.to_vec(),
        })
    }

    /// Loads the given extensions in order; with `use_cache`, factories are reused (L6).
    pub async fn load_extensions(
        &self,
        extensions: &[DiscoveredExtension],
        use_cache: bool,
    ) -> Result<InspectReport, PihostError> {
        let request = crate::engine::load_request(&self.options.cwd, extensions, use_cache);
        self.load_call(&calls::LoadExtensions(&request)).await
    }

    /// Sends a load (or reload) and reads its report. A load that cannot be
    /// stopped (an extension's factory stuck past its CPU limit) gives its
    /// engine up; the other extensions then load in a new one, and the
    /// report says why the stuck one did not.
    async fn load_call<C: RuntimeCall<Answer = JsLoadReport>>(&self, call: &C) -> Result<InspectReport, PihostError> {
        let started = std::time::Instant::now();
        let report = match self.call(call).await {
            Err(PihostError::EngineStuck { call, message }) => {
                return match self.replace_if_given_up().await? {
                    Some(mut report) => {
                        report.total_load_ms = started.elapsed().as_secs_f64() * 1000.0;
                        Ok(report)
                    }
                    None => Err(PihostError::EngineStuck { call, message }),
                };
            }
            answer => answer?,
        };
        Ok(report.into_report(&self.options.cwd, &self.options.agent_dir, started.elapsed()))
    }

    /// Opens another session in this handle's runtime (the shared mode) and
    /// returns its handle: nothing loaded, headless until bound. Its loads
    /// evaluate a module only if no session of the runtime has yet, with
    /// `use_cache` its factories come from pi's cache (L6), and its
    /// extension instances, runner, flags, event bus, host, host state and
    /// errors are its own. It shares the runtime's limits: a stopped run
    /// fails only the call it was in, and an engine restart (a heap that
    /// stayed full, a run that would not stop, a crash, [`Pihost::restart`])
    /// brings every session of the runtime back, each to where it was.
    ///
    /// A runtime whose permissions restrict anything does not share: its
    /// prompts, its audit and its isolated extensions are the runtime's
    /// ([`PihostError::SessionNotShared`]).
    pub async fn open_session(&self) -> Result<Pihost, PihostError> {
        if !self.options.permissions.allows_everything() {
            return Err(PihostError::SessionNotShared {
                reason: "its permissions restrict extensions (a sandbox or deny lists), and permission prompts, the audit and isolated extensions are not built per session".to_string(),
            });
        }
        self.replace_if_given_up().await?;
        let session = self.next_session.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (errors, _) = broadcast::channel(1024);
        let handler_counts = crate::ops::host::HandlerCounts::default();
        let (reply, answer) = oneshot::channel();
        let fate = self.send(Request::OpenSession {
            session,
            errors: errors.clone(),
            handler_counts: handler_counts.clone(),
            reply,
        })?;
        let closer = SessionCloser {
            session,
            engine: self.engine.clone(),
        };
        // A session that failed to open is forgotten again (the closer's drop).
        answer.await.map_err(|_| fate.gone())??;
        Ok(Pihost {
            session,
            _closer: Some(Arc::new(closer)),
            errors,
            handler_counts,
            dispatch_timeout: Arc::new(Mutex::new(None)),
            ..self.clone()
        })
    }

    /// Which session of its runtime this handle is: 0 for the one
    /// [`Pihost::start`] made, another number for each [`Pihost::open_session`].
    pub fn session(&self) -> SessionId {
        self.session
    }

    /// Ends this handle's session. For the first session (the handle
    /// [`Pihost::start`] gave) that stops the engine thread: calls still in
    /// flight fail, and every handle of the runtime, each of its sessions,
    /// answers "stopped" from now on. A session opened with
    /// [`Pihost::open_session`] ends alone: its extensions' ctx and pi
    /// objects go stale (R3), its running tools are aborted, the runtime and
    /// the other sessions go on (dropping the last clone of its handle does
    /// the same).
    pub async fn shutdown(&self) -> Result<(), PihostError> {
        if self.session != FIRST_SESSION {
            let (reply, answer) = oneshot::channel();
            let fate = self.send(Request::CloseSession {
                session: self.session,
                reply,
            })?;
            return answer.await.map_err(|_| fate.gone())?.map(|_| ());
        }
        let (reply, done) = oneshot::channel();
        let fate = self.send(Request::Shutdown { reply })?;
        // A given-up thread stops when its run ends, maybe minutes later.
        if fate.stuck.borrow().is_some() {
            return Ok(());
        }
        done.await.map_err(|_| stopped())
    }

    /// Reloads the extensions found for `configured_paths` (H1): the old ones
    /// get `session_shutdown` and go stale, flag values are kept, the host is
    /// bound again and the new ones get `session_start`. Every later call
    /// reaches the new extensions (H2).
    pub async fn reload(&self, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
        let request = crate::engine::load_request(&self.options.cwd, &self.discover(configured_paths), false);
        self.load_call(&calls::Reload(&request)).await
    }

    /// Binds `host` (R1, A7); getters read `state` until it is updated.
    pub async fn bind(&self, host: Arc<dyn Host>, state: &HostState) -> Result<(), PihostError> {
        let call = calls::BindHost(state).encode()?;
        self.replace_if_given_up().await?;
        let (reply, answer) = oneshot::channel();
        let fate = self.send(Request::Bind { host, call, reply })?;
        tokio::select! {
            answer = answer => answer.map_err(|_| fate.gone())?.map(|_| ()),
            stuck = given_up(fate.stuck.clone()) => Err(PihostError::EngineStuck {
                call: "bind".to_string(),
                message: stuck_message(&stuck, self.options.limits.cpu),
            }),
        }
    }

    /// Updates the state the extensions' getters read.
    pub async fn set_host_state(&self, state: &HostState) -> Result<(), PihostError> {
        self.call(&calls::SetHostState(state)).await
    }

    /// Dispatches one event with its family's merge rule (E1–E11); `None` is
    /// pi's `undefined`. Unknown event types pass through untouched.
    pub async fn emit(&self, event: &Value) -> Result<Option<Value>, PihostError> {
        let call = calls::EmitEvent(event);
        if call.answered_without_the_isolate(&self.handler_counts) {
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
    async fn emit_kept<K: calls::KeptEvent>(&self, kept: calls::EmitKept<'_, K>) -> Result<Option<Value>, PihostError> {
        if let Some(answer) = kept.answered_without_the_isolate(&self.handler_counts) {
            return Ok(Some(answer));
        }
        let answer = self.call(&kept).await?;
        Ok(kept.value_after(answer))
    }

    async fn emit_typed<E: serde::Serialize, R: serde::de::DeserializeOwned>(
        &self,
        event_type: &str,
        event: &E,
    ) -> Result<Option<R>, PihostError> {
        let bad = |error: serde_json::Error| PihostError::Internal {
            context: format!("{event_type} event"),
            message: error.to_string(),
        };
        let mut value = serde_json::to_value(event).map_err(bad)?;
        match value.as_object_mut() {
            Some(object) => {
                object.insert("type".to_string(), Value::String(event_type.to_string()));
            }
            None => {
                return Err(PihostError::Internal {
                    context: format!("{event_type} event"),
                    message: "an event must be a JSON object".to_string(),
                });
            }
        }
        match self.emit(&value).await? {
            None => Ok(None),
            Some(result) => serde_json::from_value(result).map(Some).map_err(bad),
        }
    }

    async fn emit_always<E: serde::Serialize, R: serde::de::DeserializeOwned>(
        &self,
        event_type: &str,
        event: &E,
    ) -> Result<R, PihostError> {
        self.emit_typed(event_type, event)
            .await?
            .ok_or_else(|| PihostError::Internal {
                context: event_type.to_string(),
                message: "the dispatch answered nothing".to_string(),
            })
    }

    /// `tool_call` (E3): `Some` with `block: true` means do not run the tool.
    /// A throwing handler is an `Err` here: pi blocks the tool in that case.
    pub async fn emit_tool_call(&self, event: &ToolCallEvent) -> Result<Option<ToolCallResult>, PihostError> {
        self.emit_typed("tool_call", event).await
    }

    /// `tool_result` (E4): `None` when no handler changed anything.
    pub async fn emit_tool_result(&self, event: &ToolResultEvent) -> Result<Option<ToolResultPatch>, PihostError> {
        self.emit_typed("tool_result", event).await
    }

    /// `input` (E5): continue, transform (new text and images) or handled.
    pub async fn emit_input(&self, event: &InputEvent) -> Result<InputResult, PihostError> {
        self.emit_always("input", event).await
    }

    /// `context` then `context_with_system` (E6): the messages to send.
    pub async fn emit_context(&self, messages: &[Value]) -> Result<Vec<Value>, PihostError> {
        let kept = calls::EmitKept::<calls::Context>::new(calls::Kept::List(messages));
        let bad = |message: String| PihostError::Internal {
            context: "context".to_string(),
            message,
        };
        match self.emit_kept(kept).await? {
            Some(Value::Array(messages)) => Ok(messages),
            Some(other) => serde_json::from_value(other).map_err(|error| bad(error.to_string())),
            None => Err(bad("the dispatch answered nothing".to_string())),
        }
    }

    /// `message_end` (E7): the replacement message, if a handler made one.
    pub async fn emit_message_end(&self, message: &Value) -> Result<Option<Value>, PihostError> {
        self.emit_typed("message_end", &serde_json::json!({ "message": message }))
            .await
    }

    /// `before_provider_request` (E8): the payload to send.
    pub async fn emit_before_provider_request(&self, payload: &Value) -> Result<Value, PihostError> {
        let kept = calls::EmitKept::<calls::ProviderRequest>::new(calls::Kept::Value(payload));
        Ok(self.emit_kept(kept).await?.unwrap_or(Value::Null))
    }

    /// `before_provider_headers` (E8): the headers after handlers edited them.
    pub async fn emit_before_provider_headers(&self, headers: &Headers) -> Result<Headers, PihostError> {
        self.emit_always("before_provider_headers", &serde_json::json!({ "headers": headers }))
            .await
    }

    /// `resources_discover` (E11): paths collected with the extension that gave them.
    pub async fn emit_resources_discover(&self, cwd: &str, reason: &str) -> Result<DiscoveredResources, PihostError> {
        self.emit_always(
            "resources_discover",
            &serde_json::json!({ "cwd": cwd, "reason": reason }),
        )
        .await
    }

    /// `user_bash` (E11): the first valid result; an invalid one is an `Err`.
    pub async fn emit_user_bash(&self, event: &Value) -> Result<Option<Value>, PihostError> {
        self.emit_typed("user_bash", event).await
    }

    /// `cache_warming_decision` (E11): the action, the last override winning.
    pub async fn emit_cache_warming_decision(&self, event: &Value) -> Result<Value, PihostError> {
        Ok(self
            .emit_typed("cache_warming_decision", event)
            .await?
            .unwrap_or(Value::Null))
    }

    /// `project_trust` (E9): the first yes/no answer and the handlers' errors.
    pub async fn emit_project_trust(&self, event: &Value) -> Result<ProjectTrustOutcome, PihostError> {
        self.emit_always("project_trust", event).await
    }

    /// `turn_end` or `agent_before_settle` (E10); the host validates each
    /// draft through `HostRequest::BuildBoundaryContext`.
    pub async fn emit_boundary(&self, event_type: &str, event: &Value) -> Result<BoundaryResult, PihostError> {
        self.emit_always(event_type, event).await
    }

    /// `before_agent_start` (E11): collected messages and the prompt options.
    pub async fn emit_before_agent_start(&self, event: &Value) -> Result<BeforeAgentStartResult, PihostError> {
        self.emit_always("before_agent_start", event).await
    }

    /// Executes a registered tool with a context made for this call (W1);
    /// each `onUpdate` goes to `updates`.
    pub async fn execute_tool(
        &self,
        name: &str,
        tool_call_id: &str,
        args: &Value,
        updates: Option<mpsc::UnboundedSender<Value>>,
    ) -> Result<Option<Value>, PihostError> {
        let call = calls::ExecuteTool {
            name,
            tool_call_id,
            args,
        };
        let answer = self
            .send_call(
                call.encode()?,
                call.label(),
                Some((tool_call_id.to_string(), updates)),
                true,
            )
            .await?;
        Ok(calls::ExecuteTool::decode(&answer)?.result)
    }

    /// Aborts the signal of a running tool call.
    pub async fn abort_tool(&self, tool_call_id: &str) -> Result<(), PihostError> {
        self.call(&calls::AbortTool(tool_call_id)).await
    }

    /// Runs a command by invocation name (N2) with a command context (R2).
    pub async fn run_command(&self, name: &str, args: &str) -> Result<Option<Value>, PihostError> {
        Ok(self.call(&calls::RunCommand { name, args }).await?.result)
    }

    /// Commands (with invocation names), tools, flags and flag values of the
    /// loaded extensions.
    pub async fn registrations(&self) -> Result<Registrations, PihostError> {
        self.call(&calls::ListRegistrations).await
    }

    /// Sets a flag's value, as pi does for `--name value` on its command
    /// line; `pi.getFlag(name)` answers it from now on, and a reload keeps it.
    pub async fn set_flag(&self, name: &str, value: &Value) -> Result<(), PihostError> {
        self.call(&calls::SetFlag { name, value }).await
    }

    /// Extension shortcuts for the host's resolved keybindings, with N3's diagnostics.
    pub async fn shortcuts(&self, keybindings: &BTreeMap<String, Value>) -> Result<Value, PihostError> {
        let keybindings = serde_json::to_value(keybindings).map_err(|error| internal_error("keybindings", error))?;
        self.call(&calls::ResolveShortcuts(&keybindings)).await
    }

    /// Gives pihost a screen of `size` to draw extension components on (a
    /// second call resizes it): the extensions' UI becomes pi's TUI
    /// (`ctx.mode` `"tui"`, `ctx.hasUI` true) and `ctx.ui.custom` shows the
    /// extension's own component, whose frames [`Pihost::take_frames`] hands
    /// over and which [`Pihost::send_key`] sends keys to. Prompts
    /// (`ui.select`, `ui.confirm`, …) still go to the host.
    pub async fn attach_terminal(&self, size: crate::ui::TerminalSize) -> Result<(), PihostError> {
        self.attach_screen(size, crate::ui::FrameDelivery::Pull).await
    }

    /// [`Pihost::attach_terminal`] with a choice of how the frames reach
    /// the embedder: kept for [`Pihost::take_frames`], or pushed to the bound
    /// [`Host`] as [`HostNotification::UiFrame`](crate::host::HostNotification::UiFrame)s
    /// while they are drawn. Again with another size: a resize, after which
    /// every shown component is drawn again (a frame each, changed or not).
    pub async fn attach_screen(
        &self,
        size: crate::ui::TerminalSize,
        delivery: crate::ui::FrameDelivery,
    ) -> Result<(), PihostError> {
        self.call(&calls::AttachTerminal {
            columns: size.columns,
            rows: size.rows,
            push: delivery == crate::ui::FrameDelivery::Push,
        })
        .await
    }

    /// Sends one key (a raw sequence, as [`Pihost::send_key`]) to component
    /// `component`, and lets the event loop turn so what it started is
    /// drawn. Keys only reach the component that has focus, as in pi-tui:
    /// answers whether this one had it and got the key.
    pub async fn send_key_to(&self, component: u64, data: &str) -> Result<bool, PihostError> {
        let delivery = self.call(&calls::SendUiInputTo { id: component, data }).await?;
        if delivery.unknown {
            return Err(PihostError::UnknownComponent { id: component });
        }
        Ok(delivery.delivered)
    }

    /// Draws component `component` at `size` from now on, whatever the
    /// screen's size (a host that gives it a pane of its own), and again at
    /// once; its `tui.terminal` still reports the screen's size.
    pub async fn resize_component(&self, component: u64, size: crate::ui::TerminalSize) -> Result<(), PihostError> {
        let resize = calls::ResizeUiComponent {
            id: component,
            columns: size.columns,
            rows: size.rows,
        };
        match self.call(&resize).await? {
            true => Ok(()),
            false => Err(PihostError::UnknownComponent { id: component }),
        }
    }

    /// Closes the open `ctx.ui.custom` component `component`: it is
    /// disposed, and the extension's promise rejects with an `Error` of
    /// `reason` (as [`Pihost::close_components`] does for all of them).
    pub async fn close_component(&self, component: u64, reason: &str) -> Result<(), PihostError> {
        match self.call(&calls::CloseUiComponent { id: component, reason }).await? {
            true => Ok(()),
            false => Err(PihostError::UnknownComponent { id: component }),
        }
    }

    /// Resolves once an extension component has focus and can take keys.
    pub async fn wait_for_component(&self) -> Result<(), PihostError> {
        self.call(&calls::WaitForComponent).await
    }

    /// The component that has focus now (`None`: none, or no screen is
    /// attached), without waiting for one.
    pub async fn focused_component(&self) -> Result<Option<crate::ui::FocusedComponent>, PihostError> {
        self.call(&calls::FocusedUiComponent).await
    }

    /// Sends one key (the raw sequence a terminal sends, e.g. `"\x1b[B"` for
    /// down; see [`Pihost::key_sequences`]) to the focused component, and
    /// lets the event loop turn so what it started is drawn. Answers the id
    /// of the component that got it, `None` when no component had focus.
    pub async fn send_key(&self, data: &str) -> Result<Option<u64>, PihostError> {
        self.call(&calls::SendUiInput(data)).await
    }

    /// The frames extension components drew since the last call, oldest first.
    pub async fn take_frames(&self) -> Result<Vec<crate::ui::Frame>, PihostError> {
        self.call(&calls::TakeUiFrames).await
    }

    /// Closes every open component: each is disposed, and the extension's
    /// `ctx.ui.custom` promise rejects with an `Error` of `reason` (pi itself
    /// never closes a component from outside, so there is no answer of the
    /// component's own to give). Answers their ids.
    pub async fn close_components(&self, reason: &str) -> Result<Vec<u64>, PihostError> {
        self.call(&calls::CloseUiComponents(reason)).await
    }

    /// pi-tui key names (`down`, `enter`, `ctrl+c`, `shift+tab`, `a`) as the
    /// raw sequences a terminal sends, each one that pi-tui's `matchesKey`
    /// takes for the name; an unknown name is an error.
    pub async fn key_sequences(&self, names: &[String]) -> Result<Vec<String>, PihostError> {
        self.call(&calls::EncodeKeys(names)).await
    }

    /// Makes every captured ctx and pi object throw (R3).
    pub async fn invalidate(&self, message: Option<&str>) -> Result<(), PihostError> {
        self.call(&calls::Invalidate(message)).await
    }
}

/// Discovers and loads extensions in a fresh engine, as `pihost inspect`
/// does, and stops it. (Through a handle: a load the engine cannot stop
/// gives that engine up and the other extensions load in a new one.)
pub fn inspect_blocking(options: EngineOptions, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
    let started = std::time::Instant::now();
    let async_runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(PihostError::AsyncRuntime)?;
    let mut report = async_runtime.block_on(async {
        let pihost = Pihost::start(options).await?;
        let runtime_start = crate::startup_snapshot::latest_runtime_from_snapshot().map(|from_startup_snapshot| {
            crate::report::RuntimeStart {
                ms: started.elapsed().as_secs_f64() * 1000.0,
                from_startup_snapshot,
            }
        });
        let mut report = pihost.load(configured_paths).await;
        if let Ok(report) = report.as_mut() {
            report.runtime_start = runtime_start;
        }
        let _ = pihost.shutdown().await;
        report
    })?;
    report.total_load_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(report)
}

/// Starts an engine thread and waits until its runtime is ready (and, when
/// `replay` holds a session, brought to it).
async fn spawn_engine(
    options: &EngineOptions,
    errors: &broadcast::Sender<ExtensionError>,
    handler_counts: &crate::ops::host::HandlerCounts,
    replay: &Arc<Mutex<Replays>>,
) -> Result<Spawned, PihostError> {
    let (requests, receiver) = mpsc::unbounded_channel();
    let (ready, is_ready) = oneshot::channel::<Result<Option<InspectReport>, PihostError>>();
    let crash = Arc::new(Mutex::new(None));
    let (stuck_sender, stuck) = watch::channel(None);
    let thread = ThreadParts {
        options: options.clone(),
        requests: receiver,
        errors: errors.clone(),
        handler_counts: handler_counts.clone(),
        replay: replay.clone(),
        crash: crash.clone(),
        stuck: Arc::new(stuck_sender),
    };
    std::thread::Builder::new()
        .name("pihost-engine".to_string())
        // A main thread's stack: transpiling and evaluating deeply nested
        // real-world modules needs more than a spawned thread's default.
        .stack_size(ENGINE_THREAD_STACK)
        .spawn(move || run_engine_thread(thread, ready))
        .map_err(PihostError::AsyncRuntime)?;
    let fate = ThreadFate {
        crash: crash.clone(),
        stuck: stuck.clone(),
    };
    // Bringing the engine to the session runs extension code, which may
    // get stuck: the thread is then given up before it is ever ready.
    let report = tokio::select! {
        ready = is_ready => ready.map_err(|_| fate.gone())??,
        stuck = given_up(stuck.clone()) => return Ok(Spawned::GivenUp(stuck)),
    };
    Ok(Spawned::Ready(
        EngineThread { requests, crash, stuck },
        report.map(Box::new),
    ))
}

/// The engine thread's stack size: what Linux gives a main thread.
const ENGINE_THREAD_STACK: usize = 8 * 1024 * 1024;

/// How starting an engine thread ended.
enum Spawned {
    /// Ready, brought to the session: the report of its load, if it had one.
    Ready(EngineThread, Option<Box<InspectReport>>),
    /// Given up while brought to the session: an extension's run went on past its stop.
    GivenUp(Stuck),
}

/// What an engine thread owns.
struct ThreadParts {
    options: EngineOptions,
    requests: mpsc::UnboundedReceiver<Request>,
    errors: broadcast::Sender<ExtensionError>,
    handler_counts: crate::ops::host::HandlerCounts,
    replay: Arc<Mutex<Replays>>,
    crash: Arc<Mutex<Option<String>>>,
    /// Told when a run the engine stopped goes on regardless.
    stuck: Arc<watch::Sender<Option<Stuck>>>,
}

/// Marks the thread crashed while it unwinds, before the calls in flight are
/// dropped, so their callers learn why.
struct CrashMark(Arc<Mutex<Option<String>>>);

impl Drop for CrashMark {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Ok(mut slot) = self.0.lock()
        {
            *slot = Some("the engine thread panicked".to_string());
        }
    }
}

/// How many times one extension may fill the heap beyond recovery before a
/// restart leaves it out of the session.
const HEAP_FILLS_BEFORE_LEAVING_OUT: u32 = 3;

fn run_engine_thread(parts: ThreadParts, ready: oneshot::Sender<Result<Option<InspectReport>, PihostError>>) {
    let crash = parts.crash.clone();
    let replay = parts.replay.clone();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || engine_thread_body(parts, ready)));
    if let Err(payload) = outcome {
        let message = format!("the engine thread panicked: {}", panic_text(payload.as_ref()));
        tracing::error!("{message}");
        if let Ok(mut slot) = crash.lock() {
            *slot = Some(message.clone());
        }
        let crashed = ExtensionError {
            extension_path: "<pihost>".to_string(),
            event: "engineCrashed".to_string(),
            error: message,
            stack: None,
        };
        if let Ok(replay) = replay.lock() {
            replay.tell_every_session(&crashed);
        }
    }
}

/// A new engine brought to the recorded session.
async fn engine_for(parts: &ThreadParts) -> Result<(Engine, Option<InspectReport>), PihostError> {
    let mut engine = Engine::new(parts.options.clone()).await?;
    engine.share_handler_counts(parts.handler_counts.clone());
    let (stuck, replays, cpu_limit) = (parts.stuck.clone(), parts.replay.clone(), parts.options.limits.cpu);
    engine.on_stuck(Box::new(move |notice| {
        let stuck_error = ExtensionError {
            extension_path: notice.loading.clone().unwrap_or_else(|| "<pihost>".to_string()),
            event: "engineStuck".to_string(),
            error: stuck_message(&notice, cpu_limit),
            stack: None,
        };
        if let Ok(replays) = replays.lock() {
            replays.tell_every_session(&stuck_error);
        }
        stuck.send_replace(Some(notice));
    }));
    let replay = parts.replay.lock().map(|replay| replay.clone()).unwrap_or_default();
    let report = replay.apply(&mut engine).await?;
    Ok((engine, report))
}

fn engine_thread_body(mut parts: ThreadParts, ready: oneshot::Sender<Result<Option<InspectReport>, PihostError>>) {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            let _ = ready.send(Err(PihostError::AsyncRuntime(error)));
            return;
        }
    };
    runtime.block_on(async move {
        let (mut engine, report) = match engine_for(&parts).await {
            Ok(made) => made,
            Err(error) => {
                let _ = ready.send(Err(error));
                return;
            }
        };
        if ready.send(Ok(report)).is_err() {
            return;
        }
        let mut in_flight: Vec<InFlight> = Vec::new();
        let _crash_mark = CrashMark(parts.crash.clone());
        let mut heap_fills: BTreeMap<String, u32> = BTreeMap::new();
        loop {
            let mut extension_errors = engine.take_error_stream();
            let turned = std::future::poll_fn(|cx| {
                serve(
                    &mut engine,
                    &mut parts.requests,
                    &mut in_flight,
                    extension_errors.as_mut(),
                    &parts.errors,
                    &parts.replay,
                    cx,
                )
            })
            .await;
            if turned == Served::Finished {
                return;
            }
            // The heap stayed full after the stop: only a new runtime helps.
            // Each runtime dropped full keeps most of that heap (engine note
            // 50), so an extension that fills it again and again is left out
            // before the process runs out of memory.
            let filled_by = engine.heap_filled_by().map(str::to_string);
            let left_out = match &filled_by {
                Some(path) => {
                    let fills = heap_fills.entry(path.clone()).or_default();
                    *fills += 1;
                    let leave_out = *fills >= HEAP_FILLS_BEFORE_LEAVING_OUT
                        && parts.replay.lock().is_ok_and(|mut replay| replay.leave_out(path));
                    leave_out.then_some(path)
                }
                None => None,
            };
            let reason = match left_out {
                Some(path) => format!(
                    "extension \"{path}\" filled the heap beyond recovery {HEAP_FILLS_BEFORE_LEAVING_OUT} times; pihost restarted the engine without it"
                ),
                None => "an extension filled the heap beyond recovery; pihost restarted the engine with the same extensions"
                    .to_string(),
            };
            for done in in_flight.drain(..) {
                let _ = done.reply.send(Err(PihostError::EngineRestarted {
                    call: done.label.clone(),
                }));
            }
            let restarted = ExtensionError {
                extension_path: filled_by.unwrap_or_else(|| "<pihost>".to_string()),
                event: "engineRestarted".to_string(),
                error: reason,
                stack: None,
            };
            if let Ok(replay) = parts.replay.lock() {
                replay.tell_every_session(&restarted);
            }
            drop(engine);
            engine = match engine_for(&parts).await {
                Ok((engine, _)) => engine,
                Err(error) => {
                    let message = format!("the engine could not be restarted: {error}");
                    tracing::error!("{message}");
                    if let Ok(mut slot) = parts.crash.lock() {
                        *slot = Some(message);
                    }
                    return;
                }
            };
        }
    });
}

/// How a run of the engine thread's loop ended.
#[derive(PartialEq)]
enum Served {
    /// Every handle is gone, or shutdown was asked.
    Finished,
    /// The runtime must be replaced.
    Restart,
}

/// One turn of the engine thread: take new requests, run the event loop,
/// answer the calls that settled. Ready when every handle is gone, or when
/// the runtime has to be replaced.
fn serve(
    engine: &mut Engine,
    requests: &mut mpsc::UnboundedReceiver<Request>,
    in_flight: &mut Vec<InFlight>,
    mut extension_errors: Option<&mut mpsc::UnboundedReceiver<ExtensionError>>,
    errors: &broadcast::Sender<ExtensionError>,
    replay: &Arc<Mutex<Replays>>,
    cx: &mut Context<'_>,
) -> Poll<Served> {
    let mut handles_gone = false;
    let mut shutdown: Option<oneshot::Sender<()>> = None;
    // Starting a call or settling one queues JS work that the next turn of
    // the event loop runs; keep turning while anything moves.
    loop {
        let mut progressed = false;
        loop {
            match requests.poll_recv(cx) {
                Poll::Ready(Some(Request::Shutdown { reply })) => {
                    shutdown = Some(reply);
                    handles_gone = true;
                    break;
                }
                Poll::Ready(Some(Request::Panic)) => panic!("asked to panic (crash-isolation test)"),
                Poll::Ready(Some(request)) => {
                    start(engine, request, in_flight, replay);
                    progressed = true;
                }
                Poll::Ready(None) => {
                    handles_gone = true;
                    break;
                }
                Poll::Pending => break,
            }
        }
        let event_loop = engine.poll_event_loop(cx);
        // Errors go out before the answers of the calls that caused them.
        forward_errors(extension_errors.as_deref_mut(), errors, cx);
        let mut index = 0;
        while index < in_flight.len() {
            match in_flight[index].call.as_mut().poll(cx) {
                Poll::Ready(result) => {
                    let done = in_flight.swap_remove(index);
                    finish(engine, done, result);
                    progressed = true;
                }
                Poll::Pending => index += 1,
            }
        }
        match event_loop {
            // Nothing is left that could settle what is still in flight: the
            // extension code it waits on fails (a tool that listens for an
            // abort is left to the abort or the caller's timeout).
            Poll::Ready(Ok(())) if !in_flight.is_empty() && engine.fail_stalled_calls() > 0 => {
                progressed = true;
            }
            Poll::Ready(Err(error)) => {
                for done in in_flight.drain(..) {
                    if let Some((session, id)) = &done.tool_call {
                        engine.set_tool_updates(*session, id, None);
                    }
                    let _ = done.reply.send(Err(PihostError::Internal {
                        context: done.label.clone(),
                        message: error.to_string(),
                    }));
                }
            }
            _ => {}
        }
        if engine.needs_restart() && !handles_gone {
            forward_errors(extension_errors.as_deref_mut(), errors, cx);
            return Poll::Ready(Served::Restart);
        }
        if !progressed || handles_gone {
            break;
        }
    }
    // With every handle gone (or a shutdown) nobody gets an answer any more.
    if !handles_gone {
        return Poll::Pending;
    }
    for done in in_flight.drain(..) {
        let _ = done.reply.send(Err(stopped()));
    }
    requests.close();
    if let Some(reply) = shutdown {
        let _ = reply.send(());
    }
    Poll::Ready(Served::Finished)
}

fn forward_errors(
    extension_errors: Option<&mut mpsc::UnboundedReceiver<ExtensionError>>,
    errors: &broadcast::Sender<ExtensionError>,
    cx: &mut Context<'_>,
) {
    if let Some(receiver) = extension_errors {
        while let Poll::Ready(Some(error)) = receiver.poll_recv(cx) {
            // No subscriber is fine: errors are also in the engine's log.
            let _ = errors.send(error);
        }
    }
}

fn start(engine: &mut Engine, request: Request, in_flight: &mut Vec<InFlight>, replay: &Arc<Mutex<Replays>>) {
    match request {
        Request::Bind { host, call, reply } => {
            if let Ok(mut replay) = replay.lock() {
                replay.record_bind(call.session, host.clone(), &call.argument);
            }
            engine.put_host(call.session, host);
            match engine.start_call(&call) {
                Ok(call) => in_flight.push(InFlight {
                    call,
                    label: "bind".to_string(),
                    tool_call: None,
                    reply,
                }),
                Err(error) => {
                    let _ = reply.send(Err(error));
                }
            }
        }
        Request::Shutdown { reply } => {
            // Handled in serve(); answering here keeps the match total.
            let _ = reply.send(());
        }
        Request::Panic => {}
        Request::OpenSession {
            session,
            errors,
            handler_counts,
            reply,
        } => {
            if let Ok(mut replay) = replay.lock() {
                let record = SharedSessionRecord {
                    errors: errors.clone(),
                    handler_counts: handler_counts.clone(),
                    replay: Replay::default(),
                };
                replay.shared.insert(session, record);
            }
            engine.add_shared_session(session, errors, handler_counts);
            start_session_call(engine, &calls::OpenSession, session, reply, in_flight);
        }
        Request::CloseSession { session, reply } => {
            if let Ok(mut replay) = replay.lock() {
                replay.shared.remove(&session);
            }
            start_session_call(engine, &calls::CloseSession, session, reply, in_flight);
            engine.remove_shared_session(session);
        }
        Request::Call {
            call,
            label,
            tool_updates,
            reply,
        } => {
            if let Ok(mut replay) = replay.lock() {
                replay.record(&call);
            }
            let tool_call = tool_updates.map(|(id, updates)| {
                engine.set_tool_updates(call.session, &id, updates);
                (call.session, id)
            });
            match engine.start_call(&call) {
                Ok(call) => in_flight.push(InFlight {
                    call,
                    label,
                    tool_call,
                    reply,
                }),
                Err(error) => {
                    let _ = reply.send(Err(error));
                }
            }
        }
    }
}

/// Starts `call`, one of pihost's own, for session `session`.
fn start_session_call<C: RuntimeCall>(
    engine: &mut Engine,
    call: &C,
    session: SessionId,
    reply: Reply,
    in_flight: &mut Vec<InFlight>,
) {
    let started = call.encode().and_then(|mut encoded| {
        encoded.session = session;
        engine.start_call(&encoded)
    });
    match started {
        Ok(pending) => in_flight.push(InFlight {
            call: pending,
            label: call.label(),
            tool_call: None,
            reply,
        }),
        Err(error) => {
            let _ = reply.send(Err(error));
        }
    }
}

fn finish(
    engine: &mut Engine,
    done: InFlight,
    result: Result<deno_core::v8::Global<deno_core::v8::Value>, Box<deno_core::error::JsError>>,
) {
    if let Some((session, id)) = &done.tool_call {
        engine.set_tool_updates(*session, id, None);
    }
    let answer = match result {
        Ok(value) => Ok(engine.value_to_string(value)),
        Err(js_error) => Err(engine.call_error(&done.label, &js_error)),
    };
    // The caller may have given up (timeout); its answer is dropped.
    let _ = done.reply.send(answer);
}
