//! Guest runtimes: an extension that a policy grants more than the session
//! (`Permissions::extensions`) runs alone in a runtime of its own, on a
//! thread of its own, made as a worker's is (workers.rs) but with the
//! session's permissions and that extension's grant, and with
//! `pihost:runtime/guest.js` as its entry.
//!
//! The grant is then only ever exercised by code of that realm: another
//! extension cannot patch its built-ins, and no function crosses between
//! runtimes, only JSON text. What crosses is pihost's membrane
//! (js/runtime/membrane.js): the main runtime calls the guest's handlers,
//! tools and commands asynchronously; the guest calls what the main runtime
//! handed it (`ctx`, the runner's actions) synchronously, blocking its
//! thread until the main runtime answers on a reply channel of its own.
//! The main runtime never blocks on a guest, so the two cannot deadlock.
//!
//! A guest's CPU limit is the session's: a turn of its event loop that runs
//! longer ends the guest, and its extension's pending calls fail.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use deno_core::{CancelFuture, CancelHandle, JsRuntime, OpDecl, OpState, op2};
use std::future::poll_fn;
use std::task::Poll;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::workers::{Control, Failure, LimitStop, NEXT_THREAD_ID, Shared, WorkerStart, run_thread};
use crate::permissions::policy::GuestPolicies;
use crate::permissions::prompt::GuestPrompting;

/// The guest's entry module.
const GUEST_ENTRY: &str = "pihost:runtime/guest.js";

/// How long a blocked guest waits between looks at whether it was stopped.
const STOP_POLL: Duration = Duration::from_millis(20);

/// The stack of a guest's thread: an extension's own, as much as the main thread's usually has.
const GUEST_STACK_MB: usize = 8;

pub(super) fn ops() -> Vec<OpDecl> {
    vec![
        op_pihost_guest_policy(),
        op_pihost_has_guest_policies(),
        op_pihost_start_guest(),
        op_pihost_guest_send(),
        op_pihost_guest_reply(),
        op_pihost_guest_recv(),
        op_pihost_guest_stop(),
        op_pihost_guest_facts(),
        op_pihost_guest_post(),
        op_pihost_guest_next(),
        op_pihost_guest_wait_reply(),
    ]
}

#[derive(Debug, thiserror::Error, deno_error::JsError)]
pub enum GuestError {
    #[class(type)]
    #[error("pihost: no policy grants {0:?} a runtime of its own")]
    NoPolicy(String),
    #[class(generic)]
    #[error("pihost: the permissions granted to {0:?} are not valid: {1}")]
    Permissions(String, String),
    #[class(generic)]
    #[error("pihost: cannot start the runtime of {0:?}: {1}")]
    Thread(String, std::io::Error),
    #[class(type)]
    #[error("pihost: this runtime is not a guest")]
    NotAGuest,
    #[class(generic)]
    #[error("pihost: the extension's runtime was stopped while it waited for the host")]
    Stopped,
    #[class(generic)]
    #[error("pihost: the main runtime went away while the extension waited for it")]
    ParentGone,
    #[class(generic)]
    #[error("pihost: this runtime does not say how an isolated extension's runtime is made")]
    NoRecipe,
}

/// What guest.js starts from.
#[derive(Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GuestFacts {
    path: String,
    resolved_path: String,
    module_url: String,
    cwd: PathBuf,
    /// The policy key whose grant the guest has.
    policy: String,
    /// The heap limit that the guest's allocation failures are reported
    /// against, in MiB (0: none).
    heap_mb: usize,
}

/// The guest's ends of its channels, handed to its thread.
pub(crate) struct GuestLink {
    to_parent: UnboundedSender<String>,
    from_parent: UnboundedReceiver<String>,
    replies: std::sync::mpsc::Receiver<String>,
    cpu_limit: Option<Duration>,
    /// The guest's heap limit in MiB: the main runtime's.
    heap_limit_mb: Option<usize>,
    prompting: Option<GuestPrompting>,
    /// The guest's own grants, to audit its touches (`Permissions::audit_mirror`).
    audit_mirror: Option<crate::permissions::audit::AuditMirror>,
    facts: GuestFacts,
    shared: Arc<Shared>,
}

/// A guest runtime's link to the main one, in its op state.
struct GuestSelf {
    to_parent: UnboundedSender<String>,
    from_parent: Rc<RefCell<UnboundedReceiver<String>>>,
    replies: std::sync::mpsc::Receiver<String>,
    facts: Option<GuestFacts>,
    clock: crate::limits::WatchdogClock,
    shared: Arc<Shared>,
}

/// The CPU limit over a guest's turns.
pub(crate) struct GuestWatchdog {
    watchdog: crate::limits::Watchdog,
    limit_ms: u128,
    heap_mb: usize,
}

impl GuestWatchdog {
    pub(super) fn enter(&self) {
        self.watchdog.enter();
    }

    /// The failure that ends the guest if its turn was stopped. Its name
    /// tells js/runtime/isolation.js which limit it was.
    pub(super) fn leave(&self) -> Option<Failure> {
        self.watchdog.leave().map(|stop| {
            Failure::limit(match stop {
                crate::limits::Stop::Cpu => LimitStop::Cpu {
                    limit_ms: u64::try_from(self.limit_ms).unwrap_or(u64::MAX),
                },
                crate::limits::Stop::Heap => LimitStop::Heap { heap_mb: self.heap_mb },
            })
        })
    }
}

impl GuestLink {
    /// Sets the guest's runtime up on its own thread: its link, its CPU
    /// limit and its prompts (in the session that started it).
    pub(super) fn install(self, runtime: &mut JsRuntime, control: UnboundedSender<Control>) -> GuestWatchdog {
        let isolate = runtime.v8_isolate().thread_safe_handle();
        let heap_limit = self.heap_limit_mb.map(|mb| mb.saturating_mul(1024 * 1024));
        let watchdog = if cfg!(feature = "quickjs") {
            // SAFETY: the guest's isolate outlives its watchdog: the guest
            // thread drops the watchdog before its runtime, and the watchdog
            // touches the isolate only while a run of it goes on.
            let raw_isolate = unsafe { runtime.v8_isolate().as_raw_isolate_ptr() };
            unsafe { crate::limits::Watchdog::new_squeezing(isolate, raw_isolate, self.cpu_limit, heap_limit) }
        } else {
            crate::limits::Watchdog::new(isolate, self.cpu_limit)
        };
        // A squeezed run ends the guest; its entry code still needs the signal
        // to fail a call that came back from it (js/runtime/entries.js).
        runtime.op_state().borrow_mut().put(watchdog.squeeze_signal());
        // A stopped run that goes on regardless ends the guest as its CPU
        // stop would; its thread is left to finish at the lowest priority.
        let limit_ms = self.cpu_limit.map_or(0, |limit| limit.as_millis());
        watchdog.on_stuck(Box::new(move |_| {
            let limit_ms = u64::try_from(limit_ms).unwrap_or(u64::MAX);
            let _ = control.send(Control::Failed(Failure::limit(LimitStop::Cpu { limit_ms })));
        }));
        if let Some(mb) = self.heap_limit_mb {
            crate::limits::watch_heap(runtime, &watchdog, mb);
        }
        if let Some(prompting) = self.prompting {
            // SAFETY: the pointer is of the guest's isolate, which outlives
            // the prompt session (the thread's runtime goes first).
            let isolate = unsafe { runtime.v8_isolate().as_raw_isolate_ptr() };
            crate::permissions::prompt::start_guest_session(
                prompting,
                self.audit_mirror,
                isolate,
                runtime.main_context(),
                Some(watchdog.clock()),
            );
        }
        runtime.op_state().borrow_mut().put(GuestSelf {
            to_parent: self.to_parent,
            from_parent: Rc::new(RefCell::new(self.from_parent)),
            replies: self.replies,
            facts: Some(self.facts),
            clock: watchdog.clock(),
            shared: self.shared,
        });
        GuestWatchdog {
            watchdog,
            limit_ms: self.cpu_limit.map_or(0, |limit| limit.as_millis()),
            heap_mb: self.heap_limit_mb.unwrap_or_default(),
        }
    }
}

// ---------------------------------------------------------------------------
// The main runtime's side.
// ---------------------------------------------------------------------------

/// A guest as the main runtime holds it; dropping it stops the guest.
struct GuestHandle {
    to_guest: UnboundedSender<String>,
    replies: std::sync::mpsc::Sender<String>,
    from_guest: Rc<RefCell<UnboundedReceiver<String>>>,
    control: Rc<RefCell<UnboundedReceiver<Control>>>,
    cancel: Rc<CancelHandle>,
    shared: Arc<Shared>,
}

impl Drop for GuestHandle {
    fn drop(&mut self) {
        self.shared.terminate();
        self.cancel.cancel();
    }
}

#[derive(Default)]
struct Guests(std::collections::HashMap<u32, GuestHandle>);

fn guests(state: &mut OpState) -> &mut Guests {
    if !state.has::<Guests>() {
        state.put(Guests::default());
    }
    state.borrow_mut::<Guests>()
}

/// The policy key whose grant makes the extension at `resolved_path` a
/// guest in the current load; null for an extension that runs here.
#[op2]
#[string]
fn op_pihost_guest_policy(state: &mut OpState, #[string] resolved_path: &str) -> Option<String> {
    state
        .borrow::<GuestPolicies>()
        .get(std::path::Path::new(resolved_path))
        .map(|policy| policy.key)
}

/// Whether any extension of the current load is a guest: the loader asks
/// [`op_pihost_guest_policy`] for each entry only then.
#[op2(fast)]
fn op_pihost_has_guest_policies(state: &mut OpState) -> bool {
    state
        .try_borrow::<GuestPolicies>()
        .is_some_and(|policies| !policies.is_empty())
}

/// Starts the runtime of the extension at `resolved_path`, which the
/// current load's policy makes a guest; answers its id. The permissions
/// are the engine's choice (`GuestPolicies`), never the caller's.
#[op2(fast)]
#[smi]
fn op_pihost_start_guest(
    state: &mut OpState,
    #[string] path: &str,
    #[string] resolved_path: &str,
    #[string] module_url: &str,
) -> Result<u32, GuestError> {
    let (path, resolved_path, module_url) = (path.to_string(), resolved_path.to_string(), module_url.to_string());
    let policies = state.borrow::<GuestPolicies>().clone();
    let policy = policies
        .get(std::path::Path::new(&resolved_path))
        .ok_or_else(|| GuestError::NoPolicy(path.clone()))?;
    let container = policy
        .permissions
        .container(&policy.cwd)
        .map_err(|error| GuestError::Permissions(policy.key.clone(), error.to_string()))?;
    let audit_mirror = policy
        .permissions
        .audit_mirror(&policy.cwd)
        .map_err(|error| GuestError::Permissions(policy.key.clone(), error.to_string()))?;
    let inherited = super::InheritedPermissions {
        container,
        restricts: !policy.permissions.allows_everything(),
        sandboxed: policy.permissions.sandbox && !policy.permissions.allow_all,
        extension_folders: state.borrow::<crate::permissions::ExtensionFolders>().snapshot(),
        env: super::ops::process_env_without(|name| policy.permissions.hides_env(name)),
        confinement: policy.permissions.confinement(&policy.cwd),
    };
    let thread_id = NEXT_THREAD_ID.fetch_add(1, Ordering::Relaxed);
    let (to_guest, from_parent) = unbounded_channel();
    let (to_parent, from_guest) = unbounded_channel();
    let (reply_sender, replies) = std::sync::mpsc::channel();
    let (control_sender, control) = unbounded_channel();
    let recipe = super::RuntimeRecipe::of(state).ok_or(GuestError::NoRecipe)?;
    let heap_limit_mb = recipe.heap_limit.map(|bytes| bytes / (1024 * 1024));
    let shared = Arc::new(Shared::default());
    // The guest has a worker's message port too; nothing uses its other end.
    let (_unused, guest_port) = deno_web::create_entangled_message_port();
    let link = GuestLink {
        to_parent,
        from_parent,
        replies,
        cpu_limit: policies.cpu_limit(),
        heap_limit_mb,
        prompting: crate::permissions::prompt::guest_prompting(),
        audit_mirror,
        facts: GuestFacts {
            path: path.clone(),
            resolved_path,
            module_url: module_url.clone(),
            cwd: policy.cwd.clone(),
            policy: policy.key.clone(),
            heap_mb: heap_limit_mb.unwrap_or_default(),
        },
        shared: shared.clone(),
    };
    let start = WorkerStart {
        prompting: None,
        thread_id,
        name: path.clone(),
        specifier: module_url,
        source_code: None,
        metadata: None,
        permissions: Some(inherited),
        entry: GUEST_ENTRY,
        guest: Some(link),
        recipe,
    };
    let thread_shared = shared.clone();
    std::thread::Builder::new()
        .name(format!("pihost-guest-{thread_id}"))
        .stack_size(GUEST_STACK_MB * 1024 * 1024)
        .spawn(move || run_thread(start, guest_port, control_sender, thread_shared))
        .map_err(|error| GuestError::Thread(path.clone(), error))?;
    tracing::debug!(thread_id, extension = %path, policy = %policy.key, "guest runtime started");
    guests(state).0.insert(
        thread_id,
        GuestHandle {
            to_guest,
            replies: reply_sender,
            from_guest: Rc::new(RefCell::new(from_guest)),
            control: Rc::new(RefCell::new(control)),
            cancel: CancelHandle::new_rc(),
            shared,
        },
    );
    Ok(thread_id)
}

/// Sends the guest one message (JSON text); a guest that is gone drops it.
#[op2(fast)]
fn op_pihost_guest_send(state: &mut OpState, #[smi] id: u32, #[string] text: String) {
    if let Some(guest) = guests(state).0.get(&id) {
        let _ = guest.to_guest.send(text);
    }
}

/// Answers the guest's synchronous call it is blocked on.
#[op2(fast)]
fn op_pihost_guest_reply(state: &mut OpState, #[smi] id: u32, #[string] text: String) {
    if let Some(guest) = guests(state).0.get(&id) {
        let _ = guest.replies.send(text);
    }
}

/// What came from a guest: a message, or how it ended.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct GuestEvent {
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ended: Option<Failure>,
}

/// The guest's next message; once it has ended, every message it sent
/// first, then how it ended.
#[op2]
#[serde]
async fn op_pihost_guest_recv(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> GuestEvent {
    let found = guests(&mut state.borrow_mut())
        .0
        .get(&id)
        .map(|guest| (guest.from_guest.clone(), guest.control.clone(), guest.cancel.clone()));
    let stopped = || GuestEvent {
        message: None,
        ended: Some(Failure::generic("pihost: the extension's runtime was stopped")),
    };
    let Some((messages, control, cancel)) = found else {
        return stopped();
    };
    // The guest's last word comes after its messages end, except from a
    // guest given up (its run went on past its stop, its thread holds the
    // message channel open): then the last word is the end.
    let received = poll_fn(|cx| match messages.borrow_mut().poll_recv(cx) {
        Poll::Ready(message) => Poll::Ready(Ok(message)),
        Poll::Pending => match control.borrow_mut().poll_recv(cx) {
            Poll::Ready(Some(last_word)) => Poll::Ready(Err(last_word)),
            _ => Poll::Pending,
        },
    })
    .or_cancel(cancel.clone())
    .await;
    match received {
        Ok(Err(last_word)) => GuestEvent {
            message: None,
            ended: Some(match last_word {
                Control::Failed(failure) => failure,
                Control::Exited(code) => Failure::generic(format!("pihost: the extension's runtime exited ({code})")),
            }),
        },
        Ok(Ok(Some(message))) => GuestEvent {
            message: Some(message),
            ended: None,
        },
        Ok(Ok(None)) => {
            let last = poll_fn(|cx| control.borrow_mut().poll_recv(cx)).await;
            let ended = match last {
                Some(Control::Failed(failure)) => failure,
                Some(Control::Exited(code)) => {
                    Failure::generic(format!("pihost: the extension's runtime exited ({code})"))
                }
                None => Failure::generic("pihost: the extension's runtime stopped unexpectedly"),
            };
            GuestEvent {
                message: None,
                ended: Some(ended),
            }
        }
        Err(_) => stopped(),
    }
}

/// Stops a guest (a reload, a new load, or its extension was stopped).
#[op2(fast)]
fn op_pihost_guest_stop(state: &mut OpState, #[smi] id: u32) {
    guests(state).0.remove(&id);
}

// ---------------------------------------------------------------------------
// The guest's side, in its own runtime.
// ---------------------------------------------------------------------------

fn guest_self(state: &mut OpState) -> Result<&mut GuestSelf, GuestError> {
    state.try_borrow_mut::<GuestSelf>().ok_or(GuestError::NotAGuest)
}

/// Which extension the guest runs; answered once.
#[op2]
#[serde]
fn op_pihost_guest_facts(state: &mut OpState) -> Result<Option<GuestFacts>, GuestError> {
    Ok(guest_self(state)?.facts.take())
}

/// Sends the main runtime one message (JSON text).
#[op2(fast)]
fn op_pihost_guest_post(state: &mut OpState, #[string] text: String) -> Result<(), GuestError> {
    let _ = guest_self(state)?.to_parent.send(text);
    Ok(())
}

/// The main runtime's next message; null when it went away.
#[op2]
#[string]
async fn op_pihost_guest_next(state: Rc<RefCell<OpState>>) -> Result<Option<String>, GuestError> {
    let messages = guest_self(&mut state.borrow_mut())?.from_parent.clone();
    Ok(poll_fn(|cx| messages.borrow_mut().poll_recv(cx)).await)
}

/// Blocks until the main runtime answers the synchronous call the guest
/// just sent. The CPU limit does not count the wait.
#[op2]
#[string]
fn op_pihost_guest_wait_reply(state: &mut OpState) -> Result<String, GuestError> {
    let guest = guest_self(state)?;
    let (replies, shared) = (&guest.replies, &guest.shared);
    guest.clock.paused(|| {
        loop {
            match replies.recv_timeout(STOP_POLL) {
                Ok(reply) => return Ok(reply),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) if shared.stop_requested() => {
                    return Err(GuestError::Stopped);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(GuestError::ParentGone),
            }
        }
    })
}
