//! What happens to a touch that no grant settles: in a session that
//! prompts, the host is asked (`permission.request`) and answers allow once,
//! allow always or deny; otherwise, or when the host does not answer in
//! time, the touch is denied. Every such decision goes to the audit stream
//! (`audit.rs`), which also hears from here of the touches grants and deny
//! lists settle.
//!
//! deno_permissions asks one process-wide prompter, synchronously, inside
//! the op that makes the touch. So the prompter finds the session of the
//! runtime whose thread asks (a thread-local set by the engine), blocks that
//! thread while the host decides (the CPU limit does not count the wait),
//! and names the extension by the entry mark that pihost's runtime puts in
//! the async context of all extension code (js/runtime/entries.js).

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use deno_core::v8;

use super::audit::{AuditLog, AuditScope, Decision, SessionAudit};
use crate::host::{DecidedBy, Host, HostRequest, PermissionAnswer, PermissionOutcome};
use crate::limits::WatchdogClock;

/// How long the host has to answer a `permission.request` by default.
pub const DEFAULT_PROMPT_TIMEOUT: Duration = Duration::from_millis(60_000);

/// The async-context key under which js/runtime/entries.js keeps the entry
/// of the extension whose code runs (a registered symbol).
const ENTRY_MARK: &str = "pihost.entry";

/// The session a runtime's thread prompts in.
pub(crate) struct PromptSession {
    /// Who is asked and told; a host that does not handle
    /// `permission.request` answers headless pi's way: deny.
    /// Shared with the session's guest runtimes (per-extension grants), so
    /// that a host bound later is the one they ask too.
    pub(crate) host: SessionHost,
    /// Whether the host is asked at all.
    pub(crate) prompts: bool,
    pub(crate) timeout: Duration,
    /// Which runtime's session this is (an engine's own number).
    pub(crate) runtime: u64,
    /// The runtime's isolate and main context, to read which extension's code runs.
    pub(crate) isolate: v8::UnsafeRawIsolatePtr,
    pub(crate) context: v8::Global<v8::Context>,
    /// Stops the CPU limit while the host decides.
    pub(crate) clock: Option<WatchdogClock>,
    /// What and where the session's decisions are reported.
    pub(crate) audit: SessionAudit,
    /// The extension whose code started this runtime (a worker's), named
    /// for the touches none of its own code can be told for.
    pub(crate) started_by: Option<String>,
}

/// The host a session asks, replaced in place when another is bound.
pub(crate) type SessionHost = Arc<std::sync::RwLock<Arc<dyn Host>>>;

/// Makes the cell a session keeps its host in.
pub(crate) fn session_host(host: Arc<dyn Host>) -> SessionHost {
    Arc::new(std::sync::RwLock::new(host))
}

fn current_host(host: &SessionHost) -> Arc<dyn Host> {
    host.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
}

/// What a guest runtime (an extension with a grant of its own, on a thread
/// of its own) takes from its session to prompt in it.
pub(crate) struct GuestPrompting {
    host: SessionHost,
    prompts: bool,
    timeout: Duration,
    runtime: u64,
    audit_scope: AuditScope,
    audit_log: Option<AuditLog>,
}

/// This thread's session, for a guest runtime it starts; `None` outside a session.
pub(crate) fn guest_prompting() -> Option<GuestPrompting> {
    SESSION.with(|slot| {
        slot.borrow().as_ref().map(|session| GuestPrompting {
            host: session.host.clone(),
            prompts: session.prompts,
            timeout: session.timeout,
            runtime: session.runtime,
            audit_scope: session.audit.scope,
            audit_log: session.audit.log.clone(),
        })
    })
}

/// Makes the guest runtime on this thread prompt in its parent's session;
/// `audit_mirror` is its own grants' (`Permissions::audit_mirror`).
pub(crate) fn start_guest_session(
    prompting: GuestPrompting,
    audit_mirror: Option<super::audit::AuditMirror>,
    isolate: v8::UnsafeRawIsolatePtr,
    context: v8::Global<v8::Context>,
    clock: Option<WatchdogClock>,
) {
    set_session(Some(PromptSession {
        host: prompting.host,
        prompts: prompting.prompts,
        timeout: prompting.timeout,
        runtime: prompting.runtime,
        isolate,
        context,
        clock,
        audit: SessionAudit::new(prompting.audit_scope, prompting.audit_log, audit_mirror),
        started_by: None,
    }));
}

/// What a worker's runtime takes from the session of the runtime whose
/// code starts it: the same host, grants (it shares its parent's
/// permissions) and audit, and the extension that started it.
pub(crate) struct WorkerPrompting {
    prompting: GuestPrompting,
    audit: SessionAudit,
    started_by: Option<String>,
}

/// This thread's session, for a worker it starts; `None` outside a session.
pub(crate) fn worker_prompting() -> Option<WorkerPrompting> {
    let prompting = guest_prompting()?;
    SESSION.with(|slot| {
        let session = slot.try_borrow().ok()?;
        let session = session.as_ref()?;
        Some(WorkerPrompting {
            prompting,
            audit: session.audit.for_worker(),
            started_by: current_extension(session.isolate, &session.context).or_else(|| session.started_by.clone()),
        })
    })
}

/// Makes the worker runtime on this thread audit in its parent's session.
/// It does not ask the host: what a host allows once is taken back when a
/// run of the engine's ends, which a worker's thread never sees, and the
/// worker shares its parent's permissions; so a touch no grant covers is
/// refused (`noPrompt`), as before workers were audited.
pub(crate) fn start_worker_session(
    worker: WorkerPrompting,
    isolate: v8::UnsafeRawIsolatePtr,
    context: v8::Global<v8::Context>,
) {
    let WorkerPrompting {
        prompting,
        audit,
        started_by,
    } = worker;
    set_session(Some(PromptSession {
        host: prompting.host,
        prompts: false,
        timeout: prompting.timeout,
        runtime: prompting.runtime,
        isolate,
        context,
        clock: None,
        audit,
        started_by,
    }));
}

thread_local! {
    static SESSION: RefCell<Option<PromptSession>> = const { RefCell::new(None) };
    /// Targets allowed once, to take back when the run that asked ends.
    static ALLOWED_ONCE: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Makes `session` the one this thread's runtime prompts in (`None`: none,
/// when the runtime goes away).
pub(crate) fn set_session(session: Option<PromptSession>) {
    SESSION.with(|slot| *slot.borrow_mut() = session);
    ALLOWED_ONCE.with(|once| once.borrow_mut().clear());
}

/// Ends the session of `runtime`, if it is still this thread's (a restart
/// may have made the next one already).
pub(crate) fn end_session_of(runtime: u64) {
    let ours = SESSION.with(|slot| slot.borrow().as_ref().is_some_and(|session| session.runtime == runtime));
    if ours {
        set_session(None);
    }
}

/// Points this thread's session at another host (the one bound later).
pub(crate) fn set_session_host(host: Arc<dyn Host>) {
    SESSION.with(|slot| {
        if let Some(session) = slot.borrow_mut().as_mut() {
            *session.host.write().unwrap_or_else(std::sync::PoisonError::into_inner) = host;
        }
    });
}

/// Decides a touch no grant settled: `kind` is Deno's flag name, `message`
/// Deno's description (`read access to "/x"`).
pub(crate) fn decide(kind: &str, message: &str) -> Decision {
    let target = target_of(kind, message);
    let asked = SESSION.with(|slot| {
        let session = slot.try_borrow().ok()?;
        session.as_ref().map(|session| {
            (
                current_host(&session.host),
                session.prompts,
                session.timeout,
                current_extension(session.isolate, &session.context).or_else(|| session.started_by.clone()),
                session.clock.clone(),
            )
        })
    });
    let Some((host, prompts, timeout, extension, clock)) = asked else {
        return Decision {
            extension: None,
            kind: kind.to_string(),
            target,
            outcome: PermissionOutcome::Denied,
            decided_by: DecidedBy::NoPrompt,
        };
    };
    let (outcome, decided_by) = if prompts {
        let request = HostRequest::PermissionRequest {
            extension: extension.clone(),
            permission: kind.to_string(),
            target: target.clone(),
            message: message.to_string(),
        };
        let answer = match &clock {
            Some(clock) => clock.paused(|| ask(host.as_ref(), request, timeout)),
            None => ask(host.as_ref(), request, timeout),
        };
        match answer {
            Ok(PermissionAnswer::AllowOnce) => {
                ALLOWED_ONCE.with(|once| once.borrow_mut().push((kind.to_string(), target.clone())));
                (PermissionOutcome::AllowedOnce, DecidedBy::Host)
            }
            Ok(PermissionAnswer::AllowAlways) => (PermissionOutcome::AllowedAlways, DecidedBy::Host),
            Ok(PermissionAnswer::Deny) => (PermissionOutcome::Denied, DecidedBy::Host),
            Err(by) => (PermissionOutcome::Denied, by),
        }
    } else {
        (PermissionOutcome::Denied, DecidedBy::NoPrompt)
    };
    let decision = Decision {
        extension,
        kind: kind.to_string(),
        target,
        outcome,
        decided_by,
    };
    let log = SESSION.with(|slot| {
        let session = slot.try_borrow().ok()?;
        let session = session.as_ref()?;
        session.audit.remember(&decision);
        session.audit.log.clone()
    });
    super::audit::report(host.as_ref(), log.as_ref(), &decision);
    decision
}

/// Runs `report` with this thread's session, its host and a way to name
/// the extension whose code runs; nothing outside a session.
pub(crate) fn with_session(report: impl FnOnce(&PromptSession, &dyn Host, &dyn Fn() -> Option<String>)) {
    SESSION.with(|slot| {
        // A touch made while the session is being replaced is not audited.
        let Ok(session) = slot.try_borrow() else {
            return;
        };
        let Some(session) = session.as_ref() else {
            return;
        };
        let host = current_host(&session.host);
        let extension = || current_extension(session.isolate, &session.context).or_else(|| session.started_by.clone());
        report(session, host.as_ref(), &extension);
    });
}

/// Asks `host` and waits at most `timeout`. The host's future runs on a
/// thread of its own: this thread is the engine's, inside an op, and may
/// already be driving an async runtime.
fn ask(host: &dyn Host, request: HostRequest, timeout: Duration) -> Result<PermissionAnswer, DecidedBy> {
    let future = host.request(request);
    let waited = std::thread::scope(|scope| {
        scope
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .ok()?;
                // The timer is made inside the runtime: it needs its clock.
                Some(runtime.block_on(async move { tokio::time::timeout(timeout, future).await }))
            })
            .join()
            .ok()
            .flatten()
    });
    match waited {
        None => Err(DecidedBy::HostError),
        Some(Err(_elapsed)) => Err(DecidedBy::Timeout),
        Some(Ok(Err(error))) => {
            tracing::warn!("the host failed to answer permission.request: {error}");
            Err(DecidedBy::HostError)
        }
        Some(Ok(Ok(answer))) => serde_json::from_value(answer).map_err(|error| {
            tracing::warn!("the host's answer to permission.request is not allowOnce, allowAlways or deny: {error}");
            DecidedBy::HostError
        }),
    }
}

/// What was asked for, out of Deno's description: `read access to "/x"`
/// names `/x`; a request for a whole kind (`env access`) names `<all>`.
fn target_of(kind: &str, message: &str) -> String {
    let described = message
        .strip_prefix(kind)
        .and_then(|rest| rest.strip_prefix(" access"))
        .map(str::trim_start);
    match described {
        Some("") => "<all>".to_string(),
        Some(rest) => {
            let rest = rest.strip_prefix("to ").unwrap_or(rest);
            rest.strip_prefix('"')
                .and_then(|quoted| quoted.strip_suffix('"'))
                .unwrap_or(rest)
                .to_string()
        }
        None => message.to_string(),
    }
}

/// Takes back what was allowed once on this thread since the last call:
/// the engine calls it whenever a run of JavaScript ends.
pub(crate) fn take_back_allowed_once(permissions: &deno_permissions::PermissionsContainer) {
    let allowed = ALLOWED_ONCE.with(|once| std::mem::take(&mut *once.borrow_mut()));
    SESSION.with(|slot| {
        if let Ok(session) = slot.try_borrow()
            && let Some(session) = session.as_ref()
        {
            session.audit.forget_allowed_once();
        }
    });
    for (kind, target) in allowed {
        let target = (target != "<all>").then_some(target.as_str());
        fn taken_back<E: std::fmt::Display>(
            revoked: Result<deno_permissions::PermissionState, E>,
        ) -> Result<(), String> {
            revoked.map(|_| ()).map_err(|error| error.to_string())
        }
        let revoked = match kind.as_str() {
            "read" => taken_back(permissions.revoke_read(target)),
            "write" => taken_back(permissions.revoke_write(target)),
            "net" => taken_back(permissions.revoke_net(target)),
            "env" => {
                permissions.revoke_env(target);
                Ok(())
            }
            "sys" => taken_back(permissions.revoke_sys(target)),
            "run" => taken_back(permissions.revoke_run(target)),
            _ => Ok(()),
        };
        if let Err(error) = revoked {
            tracing::warn!("cannot take back {kind} access to {target:?} allowed once: {error}");
        }
    }
}

/// Whether something allowed once waits to be taken back (cheap: the
/// engine asks after every run).
#[inline]
pub(crate) fn has_allowed_once() -> bool {
    ALLOWED_ONCE.with(|once| !once.borrow().is_empty())
}

/// The path of the extension whose code runs on `isolate` now: the entry
/// js/runtime/entries.js marks in the async context, which every
/// continuation of that code carries. `None` for pihost's own code.
fn current_extension(isolate: v8::UnsafeRawIsolatePtr, context: &v8::Global<v8::Context>) -> Option<String> {
    if isolate.is_null() {
        return None;
    }
    // SAFETY: the engine sets the pointer of the isolate it owns on this
    // thread and ends the session before the isolate goes away; the
    // prompter runs on that thread, inside an op, while the isolate is
    // entered. `Isolate` is a non-owning handle: dropping it frees nothing.
    let mut isolate = unsafe { v8::Isolate::from_raw_isolate_ptr(isolate) };
    let isolate = &mut isolate;
    v8::scope_with_context!(let scope, isolate, context);
    let async_context = scope.get_continuation_preserved_embedder_data();
    if !async_context.is_object() {
        return None;
    }
    let async_context = async_context.to_object(scope)?;
    let name = v8::String::new(scope, ENTRY_MARK)?;
    let mark = v8::Symbol::for_key(scope, name);
    let entry = async_context.get(scope, mark.into())?;
    if !entry.is_object() {
        return None;
    }
    let entry = entry.to_object(scope)?;
    let path_key = v8::String::new(scope, "path")?;
    let path = entry.get(scope, path_key.into())?;
    path.is_string().then(|| path.to_rust_string_lossy(scope))
}

#[cfg(test)]
mod tests {
    use super::target_of;

    #[test]
    fn the_target_is_what_deno_quotes() {
        assert_eq!(target_of("read", "read access to \"/etc/hosts\""), "/etc/hosts");
        assert_eq!(target_of("net", "net access to \"127.0.0.1:8080\""), "127.0.0.1:8080");
        assert_eq!(target_of("env", "env access"), "<all>");
        assert_eq!(target_of("run", "something else"), "something else");
    }
}
