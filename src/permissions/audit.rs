//! The audit stream: every decision about a touch, with the extension whose
//! code made it, to the host (`permission.decision`) and, when asked, to a
//! file of JSON lines.
//!
//! Three things decide a touch, and pihost hears of each differently. The
//! host's answers (and refusals because the session does not prompt) pass
//! through pihost's prompter (`prompt::decide`). What a grant or a deny
//! list settles never reaches a prompter: deno_permissions calls its
//! process-wide audit hook before each check instead, with the permission
//! and the target but not the outcome (the hook runs inside the check, its
//! container locked). So each runtime's session keeps a mirror of its
//! grants and deny lists, a second container that never prompts, and asks
//! it what will settle the touch: a grant, a deny list, an answer the host
//! gave before (Deno remembers those without asking again), or nothing
//! yet, in which case the prompter decides and reports. Programs are
//! checked without the hook; pihost's own check before each spawn reports
//! them the same way.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use deno_permissions::{PermissionState, PermissionsContainer};
use serde::{Deserialize, Serialize};

use crate::host::{DecidedBy, Host, HostNotification, PermissionOutcome};

/// Which decisions the audit stream reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum AuditScope {
    /// Every refusal (by a deny list, for want of a grant, or by the host)
    /// and every answer of the host (the default).
    #[default]
    Refusals,
    /// Every decision: what a grant allowed too (`--audit=all`).
    All,
}

/// A touch and its decision, as the audit stream reports it.
#[derive(Debug, Clone)]
pub(crate) struct Decision {
    pub(crate) extension: Option<String>,
    pub(crate) kind: String,
    pub(crate) target: String,
    pub(crate) outcome: PermissionOutcome,
    pub(crate) decided_by: DecidedBy,
}

/// The file a session's decisions are also written to, a line of JSON
/// each; shared by the session's runtimes.
#[derive(Clone, Debug)]
pub(crate) struct AuditLog {
    path: PathBuf,
    file: Arc<Mutex<std::fs::File>>,
}

/// A line of the audit file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AuditLine<'a> {
    time: String,
    extension: Option<&'a str>,
    permission: &'a str,
    target: &'a str,
    outcome: PermissionOutcome,
    decided_by: DecidedBy,
}

impl AuditLog {
    /// Opens `path` to append to, made if missing.
    pub(crate) fn open(path: &Path) -> Result<Self, super::PermissionsError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| {
                super::PermissionsError(format!("cannot open the audit file {}: {error}", path.display()))
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            file: Arc::new(Mutex::new(file)),
        })
    }

    fn write(&self, decision: &Decision) {
        let line = AuditLine {
            time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            extension: decision.extension.as_deref(),
            permission: &decision.kind,
            target: &decision.target,
            outcome: decision.outcome,
            decided_by: decision.decided_by,
        };
        let Ok(mut text) = serde_json::to_string(&line) else {
            return;
        };
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // One write per line, in append mode: lines of concurrent writers
        // never interleave.
        if let Err(error) = file.write_all(text.as_bytes()) {
            tracing::warn!("cannot write to the audit file {}: {error}", self.path.display());
        }
    }
}

/// A runtime's grants and deny lists in a container that never prompts,
/// asked what settles each touch.
#[derive(Clone)]
pub(crate) struct AuditMirror {
    pub(crate) container: PermissionsContainer,
    /// Whether any deny list is there to refuse something.
    pub(crate) denies: bool,
}

/// What a runtime's session audits with.
pub(crate) struct SessionAudit {
    pub(crate) scope: AuditScope,
    pub(crate) log: Option<AuditLog>,
    /// `None` when the runtime restricts nothing.
    mirror: Option<AuditMirror>,
    /// The prompter's decisions, which Deno remembers in the runtime's
    /// container: a later touch of the same target is settled by them
    /// without a prompt. Shared with the workers that share the container.
    remembered: Arc<Mutex<Vec<Remembered>>>,
}

struct Remembered {
    kind: String,
    target: String,
    allowed: bool,
    decided_by: DecidedBy,
    /// Taken back when the run that asked ends.
    once: bool,
}

impl SessionAudit {
    pub(crate) fn new(scope: AuditScope, log: Option<AuditLog>, mirror: Option<AuditMirror>) -> Self {
        Self {
            scope,
            log,
            mirror,
            remembered: Arc::default(),
        }
    }

    /// The audit of a worker, which shares this runtime's permissions.
    pub(crate) fn for_worker(&self) -> Self {
        Self {
            scope: self.scope,
            log: self.log.clone(),
            mirror: self.mirror.clone(),
            remembered: self.remembered.clone(),
        }
    }

    fn remembered(&self) -> std::sync::MutexGuard<'_, Vec<Remembered>> {
        self.remembered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Remembers what the prompter decided about a target.
    pub(crate) fn remember(&self, decision: &Decision) {
        let (allowed, once) = match decision.outcome {
            PermissionOutcome::AllowedOnce => (true, true),
            PermissionOutcome::AllowedAlways | PermissionOutcome::Granted => (true, false),
            PermissionOutcome::Denied => (false, false),
        };
        self.remembered().push(Remembered {
            kind: decision.kind.clone(),
            target: decision.target.clone(),
            allowed,
            decided_by: decision.decided_by,
            once,
        });
    }

    /// Forgets what was allowed for one run (it ended).
    pub(crate) fn forget_allowed_once(&self) {
        self.remembered().retain(|decision| !decision.once);
    }

    /// What settles a touch of `target` before any prompt: a grant, a deny
    /// list or an earlier answer of the host; `None` when the prompter will
    /// decide (and report) it, or when it cannot be told.
    fn settled(&self, kind: &str, target: &str) -> Option<(PermissionOutcome, DecidedBy)> {
        let mirror = self.mirror.as_ref()?;
        // Refusals only, and nothing to refuse this before the prompter: the
        // check every touch of a sandbox makes stays as cheap as it was.
        if self.scope == AuditScope::Refusals
            && !mirror.denies
            && !is_system_path(target)
            && self.remembered().is_empty()
        {
            return None;
        }
        let mirror = &mirror.container;
        let queried = (target != ALL).then_some(target);
        let state = match kind {
            "read" => mirror.query_read(queried).ok()?,
            "write" => mirror.query_write(queried).ok()?,
            "net" => mirror.query_net(queried.map(net_host).as_deref()).ok()?,
            "env" => mirror.query_env(queried),
            "sys" => mirror.query_sys(queried).ok()?,
            "run" => mirror.query_run(queried).ok()?,
            "ffi" => mirror.query_ffi(queried).ok()?,
            "import" => mirror.query_import(queried.map(net_host).as_deref()).ok()?,
            _ => return None,
        };
        match state {
            PermissionState::Granted if matches!(kind, "read" | "write") && is_system_path(target) => {
                Some(self.system_file(kind, target))
            }
            PermissionState::Granted => Some((PermissionOutcome::Granted, DecidedBy::Grant)),
            PermissionState::Denied | PermissionState::Ignored => {
                Some((PermissionOutcome::Denied, DecidedBy::DenyList))
            }
            // Partly granted or denied below the target: the check's own
            // rule (strict or partial) decides, which the query cannot tell.
            PermissionState::GrantedPartial | PermissionState::DeniedPartial => None,
            PermissionState::Prompt => self.answered(kind, target),
        }
    }

    /// Deno opens a device, process or kernel file (`/dev`, `/proc`,
    /// `/sys`) only with every permission, which a runtime that restricts
    /// anything never has (FFI is never granted), a few harmless files
    /// aside. The check itself cannot be asked from here: it reports to
    /// this hook, whose lock it would wait on.
    fn system_file(&self, kind: &str, target: &str) -> (PermissionOutcome, DecidedBy) {
        if system_file_without_every_permission(Path::new(target), kind == "write") {
            (PermissionOutcome::Granted, DecidedBy::Grant)
        } else {
            (PermissionOutcome::Denied, DecidedBy::SystemFile)
        }
    }

    fn answered(&self, kind: &str, target: &str) -> Option<(PermissionOutcome, DecidedBy)> {
        let paths = matches!(kind, "read" | "write" | "ffi");
        let remembered = self.remembered();
        let decision = remembered.iter().rev().find(|decision| {
            decision.kind == kind
                && (decision.target == target
                    || decision.target == ALL
                    || (paths && Path::new(target).starts_with(Path::new(&decision.target))))
        })?;
        let outcome = if decision.allowed {
            PermissionOutcome::Granted
        } else {
            PermissionOutcome::Denied
        };
        Some((outcome, decision.decided_by))
    }
}

fn is_system_path(target: &str) -> bool {
    let path = Path::new(target);
    ["/dev", "/proc", "/sys"].iter().any(|root| path.starts_with(root))
}

/// The system files Deno opens with the path's grant alone
/// (deno_permissions' `check_special_file`): the random and null devices,
/// the terminal for reading, a descriptor that is a pipe (above stdio),
/// and the pressure figures. `tests` checks this against Deno's own check.
fn system_file_without_every_permission(path: &Path, write: bool) -> bool {
    // As Deno: a path under /proc or /dev is taken as written (its magic
    // links, /dev/fd/1 say, must not resolve to what they point at), any
    // other with its links resolved, as far as it exists.
    let real = if path.starts_with("/proc") || path.starts_with("/dev") {
        path.to_path_buf()
    } else {
        canonicalized_as_far_as_it_exists(path)
    };
    let is_pipe_descriptor = |folder: &str| {
        let Ok(rest) = path.strip_prefix(folder) else {
            return false;
        };
        let Some(fd) = rest.to_str().and_then(|fd| fd.parse::<i32>().ok()) else {
            return false;
        };
        fd > 2
            && std::fs::metadata(format!("/proc/self/fd/{fd}")).is_ok_and(|metadata| {
                use std::os::unix::fs::FileTypeExt;
                metadata.file_type().is_fifo()
            })
    };
    ["/dev/random", "/dev/urandom", "/dev/zero", "/dev/null"]
        .iter()
        .any(|device| real == Path::new(device))
        || (!write && real == Path::new("/dev/tty"))
        || is_pipe_descriptor("/dev/fd")
        || is_pipe_descriptor("/proc/self/fd")
        || real.starts_with("/proc/pressure")
        || !["/dev", "/proc", "/sys"].iter().any(|root| real.starts_with(root))
}

/// `path` with the links of its longest existing part resolved, the rest
/// appended as written.
fn canonicalized_as_far_as_it_exists(path: &Path) -> std::path::PathBuf {
    let mut missing = Vec::new();
    let mut existing = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return missing.iter().rev().fold(real, |joined, part| joined.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// The target of a touch of a whole kind (`env access`, all of it).
pub(crate) const ALL: &str = "<all>";

/// `host[:port]` of a URL, as net grants name hosts; other text as it is.
fn net_host(target: &str) -> String {
    match deno_core::url::Url::parse(target) {
        Ok(url) if url.host_str().is_some() => {
            let host = url.host_str().unwrap_or_default();
            match url.port_or_known_default() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_string(),
            }
        }
        _ => target.to_string(),
    }
}

/// Tells the host, and writes the audit file.
pub(crate) fn report(host: &dyn Host, log: Option<&AuditLog>, decision: &Decision) {
    if let Some(log) = log {
        log.write(decision);
    }
    host.notify(HostNotification::PermissionDecision {
        extension: decision.extension.clone(),
        permission: decision.kind.clone(),
        target: decision.target.clone(),
        outcome: decision.outcome,
        decided_by: decision.decided_by,
    });
}

thread_local! {
    /// Set while a check repeats one already reported.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs a check that repeats one just made (the same target, checked
/// again), keeping it out of the audit stream.
pub(crate) fn quietly<T>(check: impl FnOnce() -> T) -> T {
    let was = QUIET.with(|quiet| quiet.replace(true));
    let checked = check();
    QUIET.with(|quiet| quiet.set(was));
    checked
}

/// Reports a touch a grant, a deny list or an earlier answer settles, in
/// the session of this thread's runtime (nothing outside a session, or
/// when the prompter will decide it). Called before the check.
pub(crate) fn touched(kind: &str, target: &str) {
    if QUIET.with(std::cell::Cell::get) {
        return;
    }
    super::prompt::with_session(|session, host, extension| {
        let Some((outcome, decided_by)) = session.audit.settled(kind, target) else {
            return;
        };
        if outcome == PermissionOutcome::Granted && session.audit.scope == AuditScope::Refusals {
            return;
        }
        if outcome == PermissionOutcome::Denied {
            super::record_denial(kind, target);
        }
        let decision = Decision {
            extension: extension(),
            kind: kind.to_string(),
            target: target.to_string(),
            outcome,
            decided_by,
        };
        report(host, session.audit.log.as_ref(), &decision);
    });
}

/// deno_permissions' audit hook: `value` is the target as JSON text made
/// plain (`null` for a whole kind).
fn on_check(permission: &str, value: &str, _stack: Option<&[String]>) {
    let target = if value == "null" || value.is_empty() {
        ALL
    } else {
        value
    };
    touched(permission, target);
}

/// Makes deno_permissions tell pihost of every check, once per process. An
/// embedder that set Deno's audit sink first keeps it; pihost then hears
/// only of the decisions its prompter makes, and says so once.
pub(crate) fn install_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        if deno_permissions::AUDIT_SINK
            .set(deno_permissions::AuditSink::Otel(on_check))
            .is_err()
        {
            tracing::warn!(
                "deno_permissions' audit sink is taken: what grants and deny lists settle is not in pihost's audit stream"
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{net_host, system_file_without_every_permission};
    use std::path::Path;

    #[test]
    fn system_files_are_told_apart_as_deno_tells_them() {
        let parser = std::sync::Arc::new(deno_permissions::RuntimePermissionDescriptorParser::new(
            sys_traits::impls::RealSys,
        ));
        let options = deno_permissions::PermissionsOptions {
            allow_read: Some(Vec::new()),
            allow_write: Some(Vec::new()),
            allow_env: Some(Vec::new()),
            ..Default::default()
        };
        let permissions = deno_permissions::Permissions::from_options(parser.as_ref(), &options).expect("options");
        let container = deno_permissions::PermissionsContainer::new(parser, permissions);
        let (reader, _writer) = std::io::pipe().expect("pipe");
        let pipe = format!("/dev/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&reader));
        // A descriptor on an ordinary file: /dev/fd/N must not count as the file.
        let folder = tempfile::tempdir().expect("temp dir");
        let file = std::fs::File::create(folder.path().join("plain.txt")).expect("file");
        let file_descriptor = format!("/dev/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&file));
        let link = folder.path().join("environ-link");
        std::os::unix::fs::symlink("/proc/self/environ", &link).expect("symlink");
        let link = link.display().to_string();
        let missing = folder.path().join("missing/deeper.txt").display().to_string();
        for path in [
            "/dev/null",
            "/dev/urandom",
            "/dev/tty",
            "/dev/sda",
            "/proc/self/environ",
            "/proc/1/environ",
            "/proc/self/status",
            "/proc/pressure/cpu",
            "/sys/kernel",
            "/etc/hostname",
            "/dev/fd/1",
            &pipe,
            &file_descriptor,
            &link,
            &missing,
        ] {
            for write in [false, true] {
                let access = if write {
                    deno_permissions::OpenAccessKind::Write
                } else {
                    deno_permissions::OpenAccessKind::Read
                };
                let deno = container
                    .check_open(std::borrow::Cow::Borrowed(Path::new(path)), access, None)
                    .is_ok();
                assert_eq!(
                    system_file_without_every_permission(Path::new(path), write),
                    deno,
                    "{path}, write: {write}"
                );
            }
        }
    }

    #[test]
    fn a_url_is_audited_as_the_host_and_port_grants_name() {
        assert_eq!(net_host("https://example.com/a?b"), "example.com:443");
        assert_eq!(net_host("http://127.0.0.1:8080/"), "127.0.0.1:8080");
        assert_eq!(net_host("example.com:22"), "example.com:22");
    }
}
