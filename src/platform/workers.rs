//! pihost's worker host: `node:worker_threads`' `Worker`.
//!
//! deno_node's `worker_threads` polyfill talks to a host through a fixed set
//! of ops (`op_create_worker`, `op_host_*`, `op_node_worker_thread_*`) that
//! Deno's own runtime provides; pihost provides them here. Each worker is a
//! thread of its own with a runtime of its own (the QuickJS backend keeps
//! per-thread state, and about 200 runtimes fit on one thread), built like
//! the main one: Deno's platform crates, pihost's bootstrap and pihost's
//! module loader, so a worker's file is resolved and loaded as an
//! extension's is. Its entry module is `js/platform/worker.js`.
//!
//! Between a parent and its worker there are two channels: deno_web's
//! entangled `MessagePort` pair for messages (with transferables), and a
//! control channel on which the worker sends its one last word, an exit
//! code or the error that ended it. Nothing here runs or is allocated
//! until the first `new Worker()`: a runtime that never uses workers pays
//! for its op table entries only.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::rc::Rc;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};
use std::task::Poll;

use deno_core::{
    CancelFuture, CancelHandle, DetachedBuffer, JsBuffer, JsRuntime, ModuleSpecifier, OpDecl, OpState,
    PollEventLoopOptions, RcRef, Resource, ResourceId, SharedArrayBufferStore, op2, v8,
};
use deno_web::{JsMessageData, MessagePort, MessagePortError, RecvMessageData, Transferable};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// The worker's entry module.
const ENTRY: &str = "pihost:platform/worker.js";

/// Node's default stack for a worker's thread (its `resourceLimits.stackSizeMb`).
const DEFAULT_STACK_MB: usize = 4;

/// Thread ids as Node numbers them: the main thread is 0, workers count
/// from 1 across the whole process.
pub(super) static NEXT_THREAD_ID: AtomicU32 = AtomicU32::new(1);

/// Where an `ArrayBuffer` transferred in a message waits for the runtime
/// that receives it. Every runtime of the process shares this one store, so
/// a buffer can move from any runtime to any other (deno_core detaches it
/// on the sender only when a store exists).
pub(crate) fn shared_array_buffers() -> SharedArrayBufferStore {
    static STORE: LazyLock<SharedArrayBufferStore> = LazyLock::new(SharedArrayBufferStore::default);
    STORE.clone()
}

/// The ops deno_node's `worker_threads` calls, and the worker side's own.
pub(super) fn ops() -> Vec<OpDecl> {
    vec![
        op_create_worker(),
        op_host_post_message(),
        op_host_post_message_raw(),
        op_host_recv_message(),
        op_host_recv_message_sync(),
        op_host_recv_ctrl(),
        op_host_terminate_worker(),
        op_host_get_worker_cpu_usage(),
        op_node_worker_thread_register(),
        op_node_worker_thread_set_listener_count(),
        op_node_worker_thread_post_message(),
        op_node_worker_thread_recv_message(),
        op_pihost_worker_start(),
        op_pihost_worker_post_message(),
        op_pihost_worker_post_message_raw(),
        op_pihost_worker_recv_message(),
        op_pihost_worker_recv_message_sync(),
        op_pihost_worker_exit(),
    ]
}

#[derive(Debug, thiserror::Error, deno_error::JsError)]
pub enum WorkerError {
    #[class(type)]
    #[error("pihost: a worker's module must be a file: or data: URL, not {0:?}")]
    Specifier(String),
    #[class(generic)]
    #[error("pihost: this runtime is not a worker")]
    NotAWorker,
    #[class(inherit)]
    #[error(transparent)]
    MessagePort(#[from] MessagePortError),
    #[class(generic)]
    #[error("pihost: this runtime does not say how its workers' runtimes are made")]
    NoRecipe,
}

/// A worker's last word to its parent.
#[derive(Debug)]
pub(super) enum Control {
    /// It ended with this exit code (its event loop ran dry, or `process.exit()`).
    Exited(i32),
    /// An error nobody caught ended it (exit code 1).
    Failed(Failure),
}

/// The error that ended a worker, as deno_node's `Worker` reads it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    pub name: String,
    pub message: String,
    /// Set when one of pihost's limits stopped the runtime (a guest's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<LimitStop>,
}

/// Which of pihost's limits stopped a guest's runtime.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LimitStop {
    /// A run went past the CPU limit. (u64: serde_v8, which carries it to
    /// the main runtime, has no u128.)
    Cpu {
        #[serde(rename = "limitMs")]
        limit_ms: u64,
    },
    /// The heap filled past the heap limit.
    Heap {
        #[serde(rename = "heapMb")]
        heap_mb: usize,
    },
}

impl Failure {
    pub(super) fn generic(message: impl Into<String>) -> Self {
        Self {
            name: "Error".to_string(),
            message: message.into(),
            limit: None,
        }
    }

    /// The runtime was stopped by one of pihost's limits.
    pub(super) fn limit(limit: LimitStop) -> Self {
        let message = match limit {
            LimitStop::Cpu { limit_ms } => format!("pihost: the runtime was stopped at its CPU limit of {limit_ms} ms"),
            LimitStop::Heap { heap_mb } => format!("pihost: the runtime was stopped at its heap limit of {heap_mb} MB"),
        };
        Self {
            name: "PihostLimit".to_string(),
            message,
            limit: Some(limit),
        }
    }
}

impl Control {
    /// `[type, data]` as deno_node's `Worker` reads its control events:
    /// 1 a terminal error (`{ name, message, errorMessage, exitCode }`), 3 a close.
    fn to_json(&self) -> serde_json::Value {
        match self {
            Control::Exited(code) => serde_json::json!([3, code]),
            Control::Failed(failure) => serde_json::json!([1, {
                "name": failure.name,
                "message": failure.message,
                "errorMessage": failure.message,
                "exitCode": 1,
            }]),
        }
    }
}

/// What both sides of a worker share: the parent's request to stop, the
/// worker's isolate (so a stop interrupts even a loop that never yields),
/// and the worker thread's id for its CPU time.
#[derive(Default)]
pub(super) struct Shared {
    stop: Mutex<Stop>,
    /// Wakes the worker's event loop when a stop is requested.
    woken: tokio::sync::Notify,
    /// Set when the worker's runtime is gone, with everything it sent.
    finished: tokio::sync::Notify,
    finished_flag: std::sync::atomic::AtomicBool,
    /// The worker thread's kernel id, 0 until it runs.
    tid: AtomicI32,
}

#[derive(Default)]
struct Stop {
    requested: bool,
    isolate: Option<v8::IsolateHandle>,
}

impl Shared {
    fn stop(&self) -> MutexGuard<'_, Stop> {
        self.stop.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the worker to stop now: its JavaScript is interrupted wherever
    /// it is and its event loop is woken.
    pub(super) fn terminate(&self) {
        let mut stop = self.stop();
        stop.requested = true;
        if let Some(isolate) = &stop.isolate {
            isolate.terminate_execution();
        }
        drop(stop);
        self.woken.notify_one();
    }

    /// Records the worker's isolate; false when a stop came first.
    fn attach(&self, isolate: v8::IsolateHandle) -> bool {
        let mut stop = self.stop();
        if stop.requested {
            return false;
        }
        stop.isolate = Some(isolate);
        true
    }

    pub(super) fn stop_requested(&self) -> bool {
        self.stop().requested
    }

    /// Interrupts the worker's own JavaScript (after `process.exit()`).
    fn interrupt(&self) {
        if let Some(isolate) = &self.stop().isolate {
            isolate.terminate_execution();
        }
    }

    pub(super) fn mark_finished(&self) {
        self.finished_flag.store(true, Ordering::SeqCst);
        self.finished.notify_waiters();
    }

    fn is_finished(&self) -> bool {
        self.finished_flag.load(Ordering::SeqCst)
    }
}

// ---------------------------------------------------------------------------
// The parent's side.
// ---------------------------------------------------------------------------

/// A worker as its parent holds it. Dropping it (terminate, or the parent's
/// runtime going away) stops the worker.
struct WorkerHandle {
    port: Rc<MessagePort>,
    control: Rc<RefCell<UnboundedReceiver<Control>>>,
    /// Cancels the parent's pending receive ops once the worker is terminated.
    cancel: Rc<CancelHandle>,
    /// Set when the parent has received every message the worker sent.
    messages_done: Rc<Cell<bool>>,
    messages_done_notify: Rc<tokio::sync::Notify>,
    shared: Arc<Shared>,
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        self.shared.terminate();
        self.cancel.cancel();
    }
}

/// A runtime's workers, put in its op state by its first `new Worker()`.
#[derive(Default)]
struct Workers(HashMap<u32, WorkerHandle>);

fn workers(state: &mut OpState) -> &mut Workers {
    if !state.has::<Workers>() {
        state.put(Workers::default());
    }
    state.borrow_mut::<Workers>()
}

/// The handle parts a receive op needs, without holding the op state.
fn lookup<T>(state: &Rc<RefCell<OpState>>, id: u32, pick: impl FnOnce(&WorkerHandle) -> T) -> Option<T> {
    let state = state.borrow();
    state.try_borrow::<Workers>()?.0.get(&id).map(pick)
}

/// `op_create_worker`'s first argument, as deno_node's `Worker` passes it.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateWorkerArgs {
    specifier: String,
    has_source_code: bool,
    source_code: String,
    name: Option<String>,
    resource_limits: Option<ResourceLimits>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ResourceLimits {
    stack_size_mb: Option<f64>,
}

/// What the worker thread starts from.
pub(super) struct WorkerStart {
    pub(super) thread_id: u32,
    pub(super) name: String,
    pub(super) specifier: String,
    pub(super) source_code: Option<String>,
    pub(super) metadata: Option<(DetachedBuffer, Vec<Transferable>)>,
    /// The parent's permissions, shared: a worker never has more, and what
    /// either is refused stays refused for both.
    pub(super) permissions: Option<super::InheritedPermissions>,
    /// The parent's session, to prompt and audit in (a worker's; a guest
    /// gets its own through its link).
    pub(super) prompting: Option<crate::permissions::prompt::WorkerPrompting>,
    /// The module the thread evaluates first ([`ENTRY`], or a guest's).
    pub(super) entry: &'static str,
    /// Set for a guest runtime (an extension with a grant of its own).
    pub(super) guest: Option<super::guests::GuestLink>,
    /// How the worker's runtime is made: as its parent's was.
    pub(super) recipe: RuntimeRecipe,
}

/// How a runtime was made, kept in its op state: the runtimes of the
/// workers and guests it starts are made the same way, with the same heap
/// limit, so they have the same platform, ops and module loader. (The
/// engine makes the first; the platform cannot name the engine, so the
/// engine's constructor travels here.)
#[derive(Clone, Copy)]
pub(crate) struct RuntimeRecipe {
    /// The heap limit in bytes.
    pub(crate) heap_limit: Option<usize>,
    /// Makes a runtime whose heap is bounded by the given bytes.
    pub(crate) make: fn(Option<usize>) -> Result<JsRuntime, super::RuntimeStartError>,
}

impl RuntimeRecipe {
    /// The recipe of the runtime whose op state this is.
    pub(crate) fn of(state: &OpState) -> Option<RuntimeRecipe> {
        state.try_borrow::<RuntimeRecipe>().copied()
    }
}

/// Starts a worker and answers its thread id. A worker that cannot start
/// still gets an id: its failure arrives as its `'error'` event, as any
/// other failure of a worker does.
#[op2]
#[smi]
fn op_create_worker(
    state: &mut OpState,
    #[serde] args: CreateWorkerArgs,
    #[serde] metadata: Option<JsMessageData>,
) -> Result<u32, WorkerError> {
    let specifier = if args.has_source_code {
        None
    } else {
        let url =
            ModuleSpecifier::parse(&args.specifier).map_err(|_| WorkerError::Specifier(args.specifier.clone()))?;
        if !matches!(url.scheme(), "file" | "data") {
            return Err(WorkerError::Specifier(args.specifier));
        }
        Some(url.to_string())
    };
    // The metadata's transferables (ports in `transferList`) leave this
    // runtime's resource table now, as a posted message's do.
    let metadata = match metadata {
        Some(data) => Some((
            data.data,
            deno_web::deserialize_js_transferables(state, data.transferables)?,
        )),
        None => None,
    };
    let thread_id = NEXT_THREAD_ID.fetch_add(1, Ordering::Relaxed);
    let (parent_port, worker_port) = deno_web::create_entangled_message_port();
    let (control_sender, control) = unbounded_channel();
    let shared = Arc::new(Shared::default());
    let stack_mb = args
        .resource_limits
        .and_then(|limits| limits.stack_size_mb)
        .filter(|mb| mb.is_finite() && *mb >= 1.0)
        .map_or(DEFAULT_STACK_MB, |mb| mb.min(1024.0) as usize);
    let start = WorkerStart {
        thread_id,
        name: args.name.unwrap_or_default(),
        specifier: specifier.unwrap_or_default(),
        source_code: args.has_source_code.then_some(args.source_code),
        metadata,
        permissions: Some(super::inherited_permissions(state)),
        prompting: crate::permissions::prompt::worker_prompting(),
        entry: ENTRY,
        guest: None,
        recipe: RuntimeRecipe::of(state).ok_or(WorkerError::NoRecipe)?,
    };
    let thread_shared = shared.clone();
    let thread_control = control_sender.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("pihost-worker-{thread_id}"))
        .stack_size(stack_mb * 1024 * 1024)
        .spawn(move || run_thread(start, worker_port, thread_control, thread_shared));
    if let Err(error) = spawned {
        tracing::warn!(thread_id, %error, "cannot start a worker thread");
        let _ = control_sender.send(Control::Failed(Failure::generic(format!(
            "pihost: cannot start the worker's thread: {error}"
        ))));
        shared.mark_finished();
    }
    tracing::debug!(thread_id, "worker started");
    workers(state).0.insert(
        thread_id,
        WorkerHandle {
            port: Rc::new(parent_port),
            control: Rc::new(RefCell::new(control)),
            cancel: CancelHandle::new_rc(),
            messages_done: Rc::new(Cell::new(false)),
            messages_done_notify: Rc::new(tokio::sync::Notify::new()),
            shared,
        },
    );
    Ok(thread_id)
}

#[op2]
fn op_host_post_message(
    state: &mut OpState,
    #[smi] id: u32,
    #[serde] data: JsMessageData,
) -> Result<(), MessagePortError> {
    let Some(port) = state
        .try_borrow::<Workers>()
        .and_then(|workers| workers.0.get(&id))
        .map(|worker| worker.port.clone())
    else {
        // A worker that is gone drops what is sent to it, as in Node.
        return Ok(());
    };
    port.send(state, data)
}

#[op2]
fn op_host_post_message_raw(state: &mut OpState, #[smi] id: u32, #[buffer(detach)] data: JsBuffer) {
    if let Some(worker) = state.try_borrow::<Workers>().and_then(|workers| workers.0.get(&id)) {
        send_raw(&worker.port, data);
    }
}

fn send_raw(port: &MessagePort, data: JsBuffer) {
    if let Some(sender) = &*port.tx.borrow() {
        let _ = sender.send((DetachedBuffer::from_v8slice(data.into_parts()), Vec::new()));
    }
}

/// The next message from worker `id`; null once it has sent its last.
#[op2]
async fn op_host_recv_message(
    state: Rc<RefCell<OpState>>,
    #[smi] id: u32,
) -> Result<Option<RecvMessageData>, MessagePortError> {
    let Some((port, cancel, done, notify)) = lookup(&state, id, |worker| {
        (
            worker.port.clone(),
            worker.cancel.clone(),
            worker.messages_done.clone(),
            worker.messages_done_notify.clone(),
        )
    }) else {
        return Ok(None);
    };
    match port.recv(state.clone()).or_cancel(cancel).await {
        Ok(Ok(None)) => {
            done.set(true);
            notify.notify_waiters();
            Ok(None)
        }
        Ok(received) => received,
        // Terminated meanwhile.
        Err(_) => Ok(None),
    }
}

#[op2]
fn op_host_recv_message_sync(state: &mut OpState, #[smi] id: u32) -> Result<Option<JsMessageData>, MessagePortError> {
    let Some(port) = state
        .try_borrow::<Workers>()
        .and_then(|workers| workers.0.get(&id))
        .map(|worker| worker.port.clone())
    else {
        return Ok(None);
    };
    port.try_recv_sync(state)
}

/// Worker `id`'s last word. It is answered once every message the worker
/// sent before it has been received, so `'message'` events always come
/// before the `'error'` and `'exit'` that end a worker.
#[op2]
#[serde]
async fn op_host_recv_ctrl(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> serde_json::Value {
    let Some((control, cancel, done, notify, port, shared)) = lookup(&state, id, |worker| {
        (
            worker.control.clone(),
            worker.cancel.clone(),
            worker.messages_done.clone(),
            worker.messages_done_notify.clone(),
            worker.port.clone(),
            worker.shared.clone(),
        )
    }) else {
        return Control::Exited(0).to_json();
    };
    let received = poll_fn(|cx| control.borrow_mut().poll_recv(cx))
        .or_cancel(cancel.clone())
        .await;
    let event = match received {
        Ok(Some(event)) => event,
        // The worker's thread ended without a word: it died.
        Ok(None) => Control::Failed(Failure::generic("pihost: the worker's thread stopped unexpectedly")),
        // Terminated: deno_node's Worker ignores what comes after.
        Err(_) => return Control::Exited(0).to_json(),
    };
    let drained = async {
        loop {
            let waiting = notify.notified();
            let finished = shared.finished.notified();
            // The parent's message loop saw the end of the channel; or, if it
            // stopped reading early, the worker is gone and nothing is left.
            if done.get() || (shared.is_finished() && port.rx.borrow().is_empty()) {
                return;
            }
            tokio::select! {
                _ = waiting => {}
                _ = finished => {}
            }
        }
    };
    let _ = drained.or_cancel(cancel).await;
    if let Some(workers) = RefCell::borrow_mut(&state).try_borrow_mut::<Workers>() {
        // Its handle goes once both its channels are done; it keeps no
        // thread alive any more (dropping it only asks an ended worker to stop).
        workers.0.remove(&id);
    }
    event.to_json()
}

#[op2(fast)]
fn op_host_terminate_worker(state: &mut OpState, #[smi] id: u32) {
    if let Some(workers) = state.try_borrow_mut::<Workers>()
        && workers.0.remove(&id).is_some()
    {
        tracing::debug!(thread_id = id, "worker terminated");
    }
}

/// Worker `id`'s user and system CPU time in microseconds, into `out`.
#[op2(fast)]
fn op_host_get_worker_cpu_usage(state: &mut OpState, #[smi] id: u32, #[buffer] out: &mut [f64]) {
    if out.len() < 2 {
        return;
    }
    let tid = state
        .try_borrow::<Workers>()
        .and_then(|workers| workers.0.get(&id))
        .map_or(0, |worker| worker.shared.tid.load(Ordering::Acquire));
    let (user, system) = thread_cpu_micros(tid).unwrap_or((0.0, 0.0));
    out[0] = user;
    out[1] = system;
}

/// A thread's CPU time from `/proc/self/task/<tid>/stat` (fields 14 and 15,
/// in clock ticks).
fn thread_cpu_micros(tid: i32) -> Option<(f64, f64)> {
    if tid <= 0 {
        return None;
    }
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // The command name may contain spaces: the fields start after its ')'.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split_whitespace().collect();
    let ticks = |index: usize| fields.get(index)?.parse::<f64>().ok();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    if per_second <= 0.0 {
        return None;
    }
    Some((ticks(11)? / per_second * 1e6, ticks(12)? / per_second * 1e6))
}

// ---------------------------------------------------------------------------
// postMessageToThread: any thread can address any other by its id.
// ---------------------------------------------------------------------------

type ThreadMessage = (DetachedBuffer, Vec<Transferable>);

struct Inbox {
    sender: UnboundedSender<ThreadMessage>,
    /// How many `workerMessage` listeners the thread has; none means a post fails.
    listeners: AtomicU32,
}

static INBOXES: LazyLock<Mutex<HashMap<u32, Arc<Inbox>>>> = LazyLock::new(Default::default);

fn inboxes() -> MutexGuard<'static, HashMap<u32, Arc<Inbox>>> {
    INBOXES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The receiving end of a thread's inbox, in its resource table.
struct InboxResource {
    thread_id: u32,
    inbox: Arc<Inbox>,
    receiver: RefCell<UnboundedReceiver<ThreadMessage>>,
    cancel: CancelHandle,
}

impl Resource for InboxResource {
    fn name(&self) -> std::borrow::Cow<'_, str> {
        "pihostThreadInbox".into()
    }

    fn close(self: Rc<Self>) {
        self.cancel.cancel();
    }
}

impl Drop for InboxResource {
    fn drop(&mut self) {
        let mut inboxes = inboxes();
        // Only this inbox's own entry: a thread registered anew keeps its new one.
        if inboxes
            .get(&self.thread_id)
            .is_some_and(|registered| Arc::ptr_eq(registered, &self.inbox))
        {
            inboxes.remove(&self.thread_id);
        }
    }
}

#[op2(fast)]
#[smi]
fn op_node_worker_thread_register(state: &mut OpState, #[smi] thread_id: u32) -> ResourceId {
    let (sender, receiver) = unbounded_channel();
    let inbox = Arc::new(Inbox {
        sender,
        listeners: AtomicU32::new(0),
    });
    inboxes().insert(thread_id, inbox.clone());
    state.resource_table.add(InboxResource {
        thread_id,
        inbox,
        receiver: RefCell::new(receiver),
        cancel: CancelHandle::default(),
    })
}

#[op2(fast)]
fn op_node_worker_thread_set_listener_count(#[smi] thread_id: u32, #[smi] count: u32) {
    if let Some(inbox) = inboxes().get(&thread_id) {
        inbox.listeners.store(count, Ordering::SeqCst);
    }
}

/// Posts to thread `target`: 0 when no such thread listens for messages, 1
/// when it has no `workerMessage` listener (unless `force`, for replies),
/// 2 when the message is on its way.
#[op2]
fn op_node_worker_thread_post_message(
    state: &mut OpState,
    #[smi] target: u32,
    #[serde] data: JsMessageData,
    force: bool,
) -> Result<u8, MessagePortError> {
    let Some(inbox) = inboxes().get(&target).cloned() else {
        return Ok(0);
    };
    if !force && inbox.listeners.load(Ordering::SeqCst) == 0 {
        return Ok(1);
    }
    let transferables = deno_web::deserialize_js_transferables(state, data.transferables)?;
    Ok(if inbox.sender.send((data.data, transferables)).is_ok() {
        2
    } else {
        0
    })
}

#[op2]
async fn op_node_worker_thread_recv_message(
    state: Rc<RefCell<OpState>>,
    #[smi] rid: ResourceId,
) -> Result<Option<JsMessageData>, MessagePortError> {
    let Ok(resource) = state.borrow().resource_table.get::<InboxResource>(rid) else {
        return Ok(None);
    };
    let cancel = RcRef::map(resource.clone(), |resource| &resource.cancel);
    let received = poll_fn(|cx| resource.receiver.borrow_mut().poll_recv(cx))
        .or_cancel(cancel)
        .await;
    let Ok(Some((data, transferables))) = received else {
        return Ok(None);
    };
    let transferables = deno_web::serialize_transferables(&mut state.borrow_mut(), transferables);
    Ok(Some(JsMessageData { data, transferables }))
}

// ---------------------------------------------------------------------------
// The worker's side, in the worker's own runtime.
// ---------------------------------------------------------------------------

/// A worker runtime's link to its parent, in its op state.
struct WorkerSelf {
    port: Rc<MessagePort>,
    control: UnboundedSender<Control>,
    start: Option<WorkerStart>,
    shared: Arc<Shared>,
    /// The worker has sent its last word and is stopping.
    closing: bool,
}

/// What js/platform/worker.js starts from.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct StartFacts {
    thread_id: u32,
    name: String,
    specifier: String,
    source_code: Option<String>,
    metadata: Option<JsMessageData>,
}

/// The worker's start: which module or source to run, with the
/// `workerData` and transferred ports its parent gave. Null on the main
/// thread; answered once.
#[op2]
#[serde]
fn op_pihost_worker_start(state: &mut OpState) -> Option<StartFacts> {
    let start = state.try_borrow_mut::<WorkerSelf>()?.start.take()?;
    let metadata = start.metadata.map(|(data, transferables)| JsMessageData {
        data,
        transferables: deno_web::serialize_transferables(state, transferables),
    });
    Some(StartFacts {
        thread_id: start.thread_id,
        name: start.name,
        specifier: start.specifier,
        source_code: start.source_code,
        metadata,
    })
}

fn worker_port(state: &OpState) -> Result<Rc<MessagePort>, WorkerError> {
    state
        .try_borrow::<WorkerSelf>()
        .map(|worker| worker.port.clone())
        .ok_or(WorkerError::NotAWorker)
}

#[op2]
fn op_pihost_worker_post_message(state: &mut OpState, #[serde] data: JsMessageData) -> Result<(), WorkerError> {
    let port = worker_port(state)?;
    Ok(port.send(state, data)?)
}

#[op2]
fn op_pihost_worker_post_message_raw(state: &mut OpState, #[buffer(detach)] data: JsBuffer) -> Result<(), WorkerError> {
    let port = worker_port(state)?;
    send_raw(&port, data);
    Ok(())
}

#[op2]
async fn op_pihost_worker_recv_message(state: Rc<RefCell<OpState>>) -> Result<Option<RecvMessageData>, WorkerError> {
    let port = worker_port(&state.borrow())?;
    Ok(port.recv(state).await?)
}

#[op2]
fn op_pihost_worker_recv_message_sync(state: &mut OpState) -> Result<Option<JsMessageData>, WorkerError> {
    let port = worker_port(state)?;
    Ok(port.try_recv_sync(state)?)
}

/// The worker ends itself: with `code` (`process.exit()`), or with the
/// error nobody caught. Its JavaScript stops at once; the thread winds down.
#[op2]
fn op_pihost_worker_exit(
    state: &mut OpState,
    #[smi] code: i32,
    #[serde] error: Option<Failure>,
) -> Result<(), WorkerError> {
    let worker = state.try_borrow_mut::<WorkerSelf>().ok_or(WorkerError::NotAWorker)?;
    if worker.closing {
        return Ok(());
    }
    worker.closing = true;
    let event = match error {
        Some(failure) => Control::Failed(failure),
        None => Control::Exited(code),
    };
    let _ = worker.control.send(event);
    worker.shared.interrupt();
    Ok(())
}

/// The worker thread: its own async runtime and JsRuntime, dropped when
/// the worker ends, whatever ends it.
pub(super) fn run_thread(
    start: WorkerStart,
    port: MessagePort,
    control: UnboundedSender<Control>,
    shared: Arc<Shared>,
) {
    // SAFETY: gettid has no preconditions.
    shared.tid.store(unsafe { libc::gettid() }, Ordering::Release);
    let thread_id = start.thread_id;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
        match runtime {
            Ok(runtime) => runtime.block_on(run_worker(start, port, control.clone(), shared.clone())),
            Err(error) => Some(Control::Failed(Failure::generic(format!(
                "pihost: cannot start the worker's event loop: {error}"
            )))),
        }
    }));
    let last_word = match run {
        Ok(last_word) => last_word,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            tracing::error!(thread_id, "worker thread panicked: {message}");
            Some(Control::Failed(Failure::generic(format!(
                "pihost: the worker's runtime failed: {message}"
            ))))
        }
    };
    if let Some(event) = last_word {
        let _ = control.send(event);
    }
    // The runtime is gone; glibc keeps the freed heap of a thread's arena
    // otherwise, and a host that runs many short workers grows for nothing.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
    shared.mark_finished();
    tracing::debug!(thread_id, "worker thread ends");
}

/// How a worker's run ended.
enum Ended {
    /// Its parent terminated it: nothing more is said.
    Terminated,
    /// It said its last word itself (`process.exit()`, an uncaught error).
    Closed,
    /// Nothing is left to do and nobody listens for messages.
    Idle,
    /// An error escaped to the event loop.
    Failed(Failure),
}

/// Runs the worker; answers its last word unless it already said it (or
/// was terminated). The runtime is dropped before this returns, so every
/// message the worker sent is in the channel by then.
async fn run_worker(
    start: WorkerStart,
    port: MessagePort,
    control: UnboundedSender<Control>,
    shared: Arc<Shared>,
) -> Option<Control> {
    let mut runtime = match new_runtime(start.recipe) {
        Ok(runtime) => runtime,
        Err(error) => {
            return Some(Control::Failed(Failure::generic(format!(
                "pihost: the worker's runtime could not start: {error}"
            ))));
        }
    };
    if !shared.attach(runtime.v8_isolate().thread_safe_handle()) {
        return None;
    }
    let mut start = start;
    if let Some(inherited) = start.permissions.take() {
        super::inherit_permissions(&mut runtime.op_state().borrow_mut(), inherited);
    }
    if let Some(prompting) = start.prompting.take() {
        // SAFETY: the pointer is of the worker's isolate, which outlives
        // the prompt session (the thread's session ends with the thread,
        // after the runtime's last run).
        let isolate = unsafe { runtime.v8_isolate().as_raw_isolate_ptr() };
        crate::permissions::prompt::start_worker_session(prompting, isolate, runtime.main_context());
    }
    let entry_module = start.entry;
    let watchdog = start
        .guest
        .take()
        .map(|link| link.install(&mut runtime, control.clone()));
    runtime.op_state().borrow_mut().put(WorkerSelf {
        port: Rc::new(port),
        control,
        start: Some(start),
        shared: shared.clone(),
        closing: false,
    });
    let entry = match entry_functions(&mut runtime, &shared, entry_module).await {
        Ok(Some(entry)) => entry,
        Ok(None) => return None,
        Err(failure) => return Some(Control::Failed(failure)),
    };
    match drive(&mut runtime, &shared, &entry, watchdog.as_ref()).await {
        Ended::Terminated | Ended::Closed => None,
        Ended::Failed(failure) => Some(Control::Failed(failure)),
        Ended::Idle => Some(Control::Exited(call_finish(&mut runtime, &entry.finish))),
    }
}

fn new_runtime(recipe: RuntimeRecipe) -> Result<JsRuntime, super::RuntimeStartError> {
    let runtime = (recipe.make)(recipe.heap_limit)?;
    // Where deno_os keeps `process.exitCode`, which a worker's exit reports
    // (the main runtime never exits, so it has none).
    runtime.op_state().borrow_mut().put(deno_os::ExitCode::default());
    Ok(runtime)
}

/// js/platform/worker.js's exports that the thread calls.
struct Entry {
    start: v8::Global<v8::Function>,
    keeps_alive: v8::Global<v8::Function>,
    finish: v8::Global<v8::Function>,
}

/// Evaluates the entry module; None when the worker was terminated meanwhile.
async fn entry_functions(runtime: &mut JsRuntime, shared: &Shared, entry: &str) -> Result<Option<Entry>, Failure> {
    let url = ModuleSpecifier::parse(entry).map_err(|error| Failure::generic(error.to_string()))?;
    let failed =
        |error: &dyn std::fmt::Display| Failure::generic(format!("pihost: the worker's bootstrap failed: {error}"));
    let evaluated = async {
        let id = runtime
            .load_main_es_module(&url)
            .await
            .map_err(|error| failed(&error))?;
        let evaluation = runtime.mod_evaluate(id);
        runtime
            .with_event_loop_future(evaluation, PollEventLoopOptions::default())
            .await
            .map_err(|error| failed(&error))?;
        runtime.get_module_namespace(id).map_err(|error| failed(&error))
    };
    let namespace = tokio::select! {
        biased;
        _ = shared.woken.notified() => return Ok(None),
        namespace = evaluated => namespace?,
    };
    deno_core::scope!(scope, runtime);
    let namespace = v8::Local::new(scope, namespace);
    let function = |name: &str| -> Result<v8::Global<v8::Function>, Failure> {
        let key = v8::String::new(scope, name).ok_or_else(|| Failure::generic("pihost: cannot make a key"))?;
        let value = namespace
            .get(scope, key.into())
            .ok_or_else(|| Failure::generic(format!("pihost: {entry} has no {name}")))?;
        let function = v8::Local::<v8::Function>::try_from(value)
            .map_err(|_| Failure::generic(format!("pihost: {entry}'s {name} is not a function")))?;
        Ok(v8::Global::new(scope, function))
    };
    Ok(Some(Entry {
        start: function("start")?,
        keeps_alive: function("keepsAlive")?,
        finish: function("finish")?,
    }))
}

/// Runs the worker's code and its event loop until it ends. A worker whose
/// loop runs dry stays while something listens for its parent's messages
/// (or a referenced port's), as a Node worker does.
async fn drive(
    runtime: &mut JsRuntime,
    shared: &Shared,
    entry: &Entry,
    watchdog: Option<&super::guests::GuestWatchdog>,
) -> Ended {
    if let Some(watchdog) = watchdog {
        watchdog.enter();
    }
    let mut started = Some(Box::pin(runtime.call_with_args(&entry.start, &[])));
    let woken = shared.woken.notified();
    let mut woken = std::pin::pin!(woken);
    poll_fn(|cx| {
        if shared.stop_requested() || woken.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Ended::Terminated);
        }
        if let Some(watchdog) = watchdog {
            watchdog.enter();
        }
        let ended = drive_turn(runtime, shared, entry, &mut started, cx);
        // A guest's run past the CPU limit ends the guest: its extension's
        // calls fail with the limit's error (js/runtime/isolation.js).
        if let Some(failure) = watchdog.and_then(|watchdog| watchdog.leave()) {
            return Poll::Ready(Ended::Failed(failure));
        }
        ended
    })
    .await
}

/// One turn of a worker's event loop, and whether the worker ended in it.
fn drive_turn<F>(
    runtime: &mut JsRuntime,
    shared: &Shared,
    entry: &Entry,
    started: &mut Option<std::pin::Pin<Box<F>>>,
    cx: &mut std::task::Context<'_>,
) -> Poll<Ended>
where
    F: Future<Output = Result<v8::Global<v8::Value>, Box<deno_core::error::JsError>>>,
{
    {
        let turn = runtime.poll_event_loop(cx, PollEventLoopOptions::default());
        if shared.stop_requested() {
            return Poll::Ready(Ended::Terminated);
        }
        if closing(runtime) {
            return Poll::Ready(Ended::Closed);
        }
        // start() reports the worker's own errors itself; one escaping it
        // is pihost's fault, reported all the same.
        if let Some(call) = started
            && let Poll::Ready(result) = call.as_mut().poll(cx)
        {
            *started = None;
            if let Err(error) = result {
                return Poll::Ready(Ended::Failed(failure_of_js(&error)));
            }
        }
        match turn {
            Poll::Ready(Err(error)) => Poll::Ready(Ended::Failed(failure_of_core(&error))),
            Poll::Ready(Ok(())) => match keeps_alive(runtime, &entry.keeps_alive) {
                KeepsAlive::No => Poll::Ready(Ended::Idle),
                KeepsAlive::Yes => Poll::Pending,
                KeepsAlive::AndHasWork => {
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            },
            Poll::Pending => Poll::Pending,
        }
    }
}

/// What `keepsAlive()` answered when the event loop ran dry.
enum KeepsAlive {
    No,
    Yes,
    /// Yes, and it queued work (a guest failed calls nothing could settle).
    AndHasWork,
}

fn closing(runtime: &mut JsRuntime) -> bool {
    runtime
        .op_state()
        .borrow()
        .try_borrow::<WorkerSelf>()
        .is_some_and(|worker| worker.closing)
}

/// `true`/`false`, or a guest's 2 for "yes, and there is work queued".
fn keeps_alive(runtime: &mut JsRuntime, function: &v8::Global<v8::Function>) -> KeepsAlive {
    deno_core::scope!(scope, runtime);
    let function = v8::Local::new(scope, function);
    let undefined = v8::undefined(scope).into();
    match function.call(scope, undefined, &[]) {
        Some(value) if value.is_number() && value.int32_value(scope) == Some(2) => KeepsAlive::AndHasWork,
        Some(value) if value.is_true() => KeepsAlive::Yes,
        _ => KeepsAlive::No,
    }
}

/// Emits the worker's `process` `'exit'` and answers its exit code.
fn call_finish(runtime: &mut JsRuntime, finish: &v8::Global<v8::Function>) -> i32 {
    deno_core::scope!(scope, runtime);
    let finish = v8::Local::new(scope, finish);
    let undefined = v8::undefined(scope).into();
    finish
        .call(scope, undefined, &[])
        .and_then(|code| code.int32_value(scope))
        .unwrap_or(1)
}

fn failure_of_js(error: &deno_core::error::JsError) -> Failure {
    Failure {
        limit: None,
        name: error.name.clone().unwrap_or_else(|| "Error".to_string()),
        message: error.message.clone().unwrap_or_else(|| error.exception_message.clone()),
    }
}

fn failure_of_core(error: &deno_core::error::CoreError) -> Failure {
    match &*error.0 {
        deno_core::error::CoreErrorKind::Js(js_error) => failure_of_js(js_error),
        _ => Failure::generic(error.to_string()),
    }
}
