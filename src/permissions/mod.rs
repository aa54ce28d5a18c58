//! What extensions may touch on the machine, in Deno's terms and checked by
//! deno_permissions inside each op (files, processes, network, environment,
//! system facts), with pihost's own ops (`pi.exec`, the search behind the
//! grep and find tools, `process.env`) checked the same way.
//!
//! The default is pi's: everything allowed. A sandboxed session denies
//! whatever is not granted, or asks the host (`prompt`, see [`prompt`]), and
//! every denial is recorded so that the host can show what an extension
//! asked for (`pihost inspect --sandbox`).
pub(crate) mod audit;
pub(crate) mod policy;
pub(crate) mod prompt;

pub use audit::AuditScope;

pub use policy::{ExtensionGrant, POLICY_FILE, read_policy_file};
pub use prompt::DEFAULT_PROMPT_TIMEOUT;

use std::cell::RefCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use deno_permissions::prompter::{PermissionPrompter, PromptResponse};
use deno_permissions::{PermissionsContainer, PermissionsOptions};
use serde::{Deserialize, Serialize};

/// The permissions of a session. Each list is `None` (not granted), empty
/// (granted for everything of that kind), or the granted paths, programs,
/// hosts or names — Deno's `--allow-*` / `--deny-*` spelling.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Permissions {
    /// Deny every touch that is not granted. Without it everything is
    /// allowed (pi's behaviour) but what a `deny*` list names.
    #[serde(default)]
    pub sandbox: bool,
    /// Grant everything (`-A`).
    #[serde(default)]
    pub allow_all: bool,
    /// Ask the host (`permission.request`) about a touch that is not
    /// granted, instead of denying it.
    #[serde(default)]
    pub prompt: bool,
    /// How long the host has to answer a prompt before the touch is denied
    /// (default [`DEFAULT_PROMPT_TIMEOUT`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_timeout_ms: Option<u64>,
    /// Files and folders that may be read (`--allow-read`).
    #[serde(default)]
    pub allow_read: Option<Vec<String>>,
    /// Files and folders that may be written (`--allow-write`).
    #[serde(default)]
    pub allow_write: Option<Vec<String>>,
    /// Programs that may be run, by name or path (`--allow-run`).
    #[serde(default)]
    pub allow_run: Option<Vec<String>>,
    /// Hosts (`host[:port]`) that may be reached or listened on (`--allow-net`).
    #[serde(default)]
    pub allow_net: Option<Vec<String>>,
    /// Environment variables that may be read or set (`--allow-env`).
    #[serde(default)]
    pub allow_env: Option<Vec<String>>,
    /// System facts (`hostname`, `osRelease`, …) that may be read (`--allow-sys`).
    #[serde(default)]
    pub allow_sys: Option<Vec<String>>,
    /// Files and folders that may never be read (`--deny-read`).
    #[serde(default)]
    pub deny_read: Option<Vec<String>>,
    /// Files and folders that may never be written (`--deny-write`).
    #[serde(default)]
    pub deny_write: Option<Vec<String>>,
    /// Programs that may never be run (`--deny-run`).
    #[serde(default)]
    pub deny_run: Option<Vec<String>>,
    /// Hosts that may never be reached (`--deny-net`).
    #[serde(default)]
    pub deny_net: Option<Vec<String>>,
    /// Environment variables that may never be read (`--deny-env`).
    #[serde(default)]
    pub deny_env: Option<Vec<String>>,
    /// System facts that may never be read (`--deny-sys`).
    #[serde(default)]
    pub deny_sys: Option<Vec<String>>,
    /// In a sandbox, environment variables whose names match one of these
    /// patterns (`*` matches any run of characters; case does not matter)
    /// are hidden from extensions and from the programs they run, as if
    /// unset, unless `allow_env` names them. `None`: [`SECRET_ENV_PATTERNS`];
    /// empty: hide nothing (`--secret-env=PATTERNS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_env: Option<Vec<String>>,
    /// In a sandbox, whether the programs extensions start run confined by
    /// the kernel to the file and network grants (`--confine`; see
    /// [`crate::confine`]).
    #[serde(default)]
    pub confine: crate::confine::ConfineMode,
    /// Which decisions the audit stream (`permission.decision`) reports:
    /// refusals and the host's answers (the default), or every decision,
    /// what grants allowed too (`--audit=all`).
    #[serde(default)]
    pub audit: AuditScope,
    /// A file the audit stream is also written to, a JSON line per decision
    /// (appended; relative to the session's cwd; `--audit-file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit_file: Option<PathBuf>,
    /// Grants of single extensions, by path or package name, on top of the
    /// rest (a policy: `.pi/pihost-permissions.json`'s `extensions`). Each
    /// extension granted more than the session runs in a runtime of its own.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub extensions: std::collections::BTreeMap<String, ExtensionGrant>,
}

/// Names of environment variables that hold credentials by convention,
/// hidden in a sandbox unless the session names them (see
/// [`Permissions::secret_env`]): API keys, tokens, secrets and passwords of
/// any service, cloud credentials, and the SSH agent's socket (which signs
/// with the user's keys).
pub const SECRET_ENV_PATTERNS: &[&str] = &[
    "*_API_KEY",
    "*_APIKEY",
    "*_TOKEN",
    "*_SECRET",
    "*_SECRET_KEY",
    "*_SECRET_ACCESS_KEY",
    "*_ACCESS_KEY",
    "*_ACCESS_KEY_ID",
    "*_PASSWORD",
    "*_PASSWD",
    "*_CREDENTIALS",
    "*_PRIVATE_KEY",
    "AWS_*",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "SSH_AUTH_SOCK",
];

/// Whether `name` matches `pattern`, where `*` matches any run of
/// characters, ignoring ASCII case.
fn matches_pattern(pattern: &str, name: &str) -> bool {
    fn matches(pattern: &[u8], name: &[u8]) -> bool {
        match pattern.split_first() {
            None => name.is_empty(),
            Some((b'*', rest)) => (0..=name.len()).any(|skip| matches(rest, &name[skip..])),
            Some((first, rest)) => name
                .split_first()
                .is_some_and(|(head, tail)| head.eq_ignore_ascii_case(first) && matches(rest, tail)),
        }
    }
    matches(pattern.as_bytes(), name.as_bytes())
}

impl Permissions {
    /// Whether a variable is hidden from extensions and the programs they
    /// run: in a sandbox (not `allow_all`), a name matching
    /// [`Permissions::secret_env`] that `allow_env` does not name.
    pub fn hides_env(&self, name: &str) -> bool {
        if !self.sandbox || self.allow_all {
            return false;
        }
        if self
            .allow_env
            .as_ref()
            .is_some_and(|named| named.iter().any(|allowed| allowed == name))
        {
            return false;
        }
        match &self.secret_env {
            Some(patterns) => patterns.iter().any(|pattern| matches_pattern(pattern, name)),
            None => SECRET_ENV_PATTERNS.iter().any(|pattern| matches_pattern(pattern, name)),
        }
    }
}

/// How the programs of a runtime start (see [`crate::confine`]).
#[derive(Debug, Clone)]
pub(crate) enum Confinement {
    /// As they are: no sandbox, `--allow-all` or `--confine=off`.
    Unconfined,
    /// Through the launcher, with these rules. The launcher is allowed to
    /// run for that; extensions may run it as a program of their own only
    /// when the grants name it (`launcher_granted`).
    Confined {
        launcher: PathBuf,
        rules: crate::confine::ConfineRules,
        launcher_granted: bool,
    },
    /// Confinement was asked for and cannot be had; `require` refuses
    /// every program, otherwise they start as they are.
    Unavailable { reason: String, require: bool },
}

impl Permissions {
    /// The kernel rules of this sandbox's programs, when it confines them.
    pub fn confine_rules(&self, cwd: &Path) -> Option<crate::confine::ConfineRules> {
        use crate::confine::ConfineMode;
        if !self.sandbox || self.allow_all || self.confine == ConfineMode::Off {
            return None;
        }
        let paths = |list: &Option<Vec<String>>| -> Vec<PathBuf> {
            match list {
                None => Vec::new(),
                Some(paths) if paths.is_empty() => vec![PathBuf::from("/")],
                Some(paths) => paths
                    .iter()
                    .map(|path| PathBuf::from(resolved_path(path, cwd)))
                    .collect(),
            }
        };
        // Landlock filters TCP by port: a grant naming a host without a
        // port, or every host, leaves the port open.
        let connect_ports = match &self.allow_net {
            None => Some(Vec::new()),
            Some(hosts) if hosts.is_empty() => None,
            Some(hosts) => hosts
                .iter()
                .map(|host| host.rsplit_once(':').and_then(|(_, port)| port.parse::<u16>().ok()))
                .collect::<Option<Vec<u16>>>(),
        };
        Some(crate::confine::ConfineRules {
            read: paths(&self.allow_read),
            write: paths(&self.allow_write),
            connect_ports,
            require: self.confine == ConfineMode::Require,
        })
    }

    pub(crate) fn confinement(&self, cwd: &Path) -> Confinement {
        let Some(rules) = self.confine_rules(cwd) else {
            return Confinement::Unconfined;
        };
        let require = rules.require;
        let unavailable = |reason: String| {
            if !require {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    tracing::warn!("programs extensions start are not confined: {reason}");
                    eprintln!(
                        "pihost: programs extensions start are not confined: {reason} (--confine=require refuses to run them)"
                    );
                });
            }
            Confinement::Unavailable { reason, require }
        };
        if crate::confine::kernel_abi() == 0 {
            return unavailable("this kernel has no Landlock".to_string());
        }
        match crate::confine::launcher() {
            Some(launcher) => Confinement::Confined {
                launcher: launcher.to_path_buf(),
                rules,
                launcher_granted: self.allow_run.as_ref().is_some_and(|programs| {
                    programs.is_empty()
                        || programs
                            .iter()
                            .any(|program| Path::new(&resolved_path(program, cwd)) == launcher)
                }),
            },
            None => unavailable(
                "no launcher (the embedding program's main must call pihost::confine::run_launcher_if_asked)"
                    .to_string(),
            ),
        }
    }
}

/// Grants that could not be understood.
#[derive(Debug, thiserror::Error)]
#[error("invalid permissions: {0}")]
pub struct PermissionsError(pub(crate) String);

impl Permissions {
    /// How long the host has to answer a prompt.
    pub fn prompt_timeout(&self) -> std::time::Duration {
        self.prompt_timeout_ms
            .map(std::time::Duration::from_millis)
            .unwrap_or(DEFAULT_PROMPT_TIMEOUT)
    }

    /// Whether nothing is restricted: the runtime then skips every check.
    /// A `deny*` list restricts even with `allow_all`, as in Deno.
    pub fn allows_everything(&self) -> bool {
        !self.has_deny_lists() && (self.allow_all || !self.sandbox)
    }

    /// Whether any `deny*` list is given.
    fn has_deny_lists(&self) -> bool {
        [
            &self.deny_read,
            &self.deny_write,
            &self.deny_run,
            &self.deny_net,
            &self.deny_env,
            &self.deny_sys,
        ]
        .iter()
        .any(|list| list.is_some())
    }

    /// deno_permissions' container for a runtime whose relative paths
    /// mean `cwd`. Granted and denied paths are resolved, symlinks
    /// included, so that a link cannot stand for what it points to.
    pub(crate) fn container(&self, cwd: &Path) -> Result<PermissionsContainer, PermissionsError> {
        let Some(options) = self.restricting_options(cwd) else {
            return Ok(PermissionsContainer::allow_all(descriptor_parser()));
        };
        install_recorder();
        audit::install_hook();
        container_of(&options)
    }

    /// The same grants and deny lists as [`Permissions::container`], in a
    /// container that never prompts: what the audit asks what settles a
    /// touch (`audit.rs`). `None` when nothing is restricted.
    pub(crate) fn audit_mirror(&self, cwd: &Path) -> Result<Option<audit::AuditMirror>, PermissionsError> {
        let Some(mut options) = self.restricting_options(cwd) else {
            return Ok(None);
        };
        options.prompt = false;
        Ok(Some(audit::AuditMirror {
            container: container_of(&options)?,
            denies: self.has_deny_lists(),
        }))
    }

    /// The audit file, opened; `None` without one.
    pub(crate) fn audit_log(&self, cwd: &Path) -> Result<Option<audit::AuditLog>, PermissionsError> {
        self.audit_file
            .as_deref()
            .map(|file| audit::AuditLog::open(&cwd.join(file)))
            .transpose()
    }

    /// deno_permissions' options for a runtime that restricts something;
    /// `None` when everything is allowed.
    fn restricting_options(&self, cwd: &Path) -> Option<PermissionsOptions> {
        if self.allows_everything() {
            return None;
        }
        // Outside a sandbox, or with everything granted, only the deny lists restrict.
        let granted = |list: &Option<Vec<String>>| {
            if self.sandbox && !self.allow_all {
                list.clone()
            } else {
                Some(Vec::new())
            }
        };
        let paths = |list: &Option<Vec<String>>| {
            list.as_ref()
                .map(|paths| paths.iter().map(|path| resolved_path(path, cwd)).collect::<Vec<_>>())
        };
        // Programs start through the launcher, which must be allowed too
        // (src/ops/process.rs refuses it as a program of the extensions' own).
        let mut allow_run = granted(&self.allow_run);
        if let Confinement::Confined { launcher, .. } = self.confinement(cwd) {
            match allow_run.as_mut() {
                None => allow_run = Some(vec![launcher.display().to_string()]),
                Some(programs) if !programs.is_empty() => programs.push(launcher.display().to_string()),
                Some(_) => {}
            }
        }
        Some(PermissionsOptions {
            allow_read: paths(&granted(&self.allow_read)),
            allow_write: paths(&granted(&self.allow_write)),
            allow_run,
            allow_net: granted(&self.allow_net),
            allow_env: granted(&self.allow_env),
            allow_sys: granted(&self.allow_sys),
            deny_read: paths(&self.deny_read),
            deny_write: paths(&self.deny_write),
            deny_run: self.deny_run.clone(),
            deny_net: self.deny_net.clone(),
            deny_env: self.deny_env.clone(),
            deny_sys: self.deny_sys.clone(),
            // Nothing may be loaded from the network or through FFI.
            allow_ffi: None,
            deny_ffi: None,
            allow_import: None,
            deny_import: None,
            ignore_env: None,
            ignore_read: None,
            // Denials reach the recorder below instead of a terminal.
            prompt: true,
        })
    }
}

fn descriptor_parser() -> Arc<deno_permissions::RuntimePermissionDescriptorParser<sys_traits::impls::RealSys>> {
    Arc::new(deno_permissions::RuntimePermissionDescriptorParser::new(
        sys_traits::impls::RealSys,
    ))
}

/// A container checking `options`.
fn container_of(options: &PermissionsOptions) -> Result<PermissionsContainer, PermissionsError> {
    let parser = descriptor_parser();
    let permissions = deno_permissions::Permissions::from_options(parser.as_ref(), options)
        .map_err(|error| PermissionsError(error.to_string()))?;
    Ok(PermissionsContainer::new(parser, permissions))
}

/// Where a runtime's restricting permissions go once they are known (its
/// file system and module loader are made before them); empty when
/// everything is allowed.
pub(crate) type PermissionSlot = Arc<std::sync::OnceLock<Restrictions>>;

/// What a runtime's file system and loader check beyond Deno's own checks.
#[derive(Clone, Debug)]
pub(crate) struct Restrictions {
    pub(crate) container: PermissionsContainer,
    /// In a sandbox no process's environment file (`/proc/<pid>/environ`)
    /// may be read, whatever the grants: it is the host's environment, the
    /// credentials the sandbox hides included, not the runtime's own.
    /// deno_permissions refuses it today only because its exception for
    /// `environ` files (the environment grant alone) never matches, so they
    /// need every permission like the rest of `/proc`; this holds if that
    /// changes (tests/permissions.rs tries every way to the file).
    pub(crate) sandboxed: bool,
}

impl Restrictions {
    /// Refuses what no grant may open (see [`Restrictions::sandboxed`]);
    /// `real` is the path with its links resolved.
    pub(crate) fn check_never_granted(&self, real: &Path) -> Result<(), NeverGranted> {
        if self.sandboxed && is_environment_file(real) {
            return Err(NeverGranted::HostEnvironment(real.to_path_buf()));
        }
        Ok(())
    }
}

/// A path no grant opens in a sandbox.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NeverGranted {
    #[error(
        "pihost: {} is the host's environment, which a sandbox never shows (process.env is the extension's own)",
        .0.display()
    )]
    HostEnvironment(PathBuf),
}

/// Whether `path` (links resolved) is a process's or thread's environment
/// file: `/proc/<pid>/environ`, `/proc/<pid>/task/<tid>/environ`.
fn is_environment_file(path: &Path) -> bool {
    let Ok(rest) = path.strip_prefix("/proc") else {
        return false;
    };
    let parts: Vec<&str> = rest.iter().filter_map(|part| part.to_str()).collect();
    let number = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    match parts.as_slice() {
        [pid, "environ"] => number(pid),
        [pid, "task", tid, "environ"] => number(pid) && number(tid),
        _ => false,
    }
}

/// The folders of the loaded extensions, with the `node_modules` folders
/// their imports resolve from: an extension's own files and its packages
/// load in a sandbox without a read grant, any other file only with one.
#[derive(Clone, Default)]
pub(crate) struct ExtensionFolders {
    folders: std::rc::Rc<RefCell<Vec<PathBuf>>>,
    /// The entries whose folders are in `folders`.
    entries: std::rc::Rc<RefCell<HashSet<PathBuf>>>,
}

impl ExtensionFolders {
    /// Replaces the folders with those of the extensions at `entries`, or,
    /// with `keep_known` (another session of the runtime still has its
    /// extensions), adds those.
    pub(crate) fn set(&self, entries: impl Iterator<Item = PathBuf>, keep_known: bool) {
        let mut folders = if keep_known { self.snapshot() } else { Vec::new() };
        let mut known_entries = self.entries.borrow_mut();
        if !keep_known {
            known_entries.clear();
        }
        // Entries of one folder share its packages' folders: each folder's
        // ancestors are searched once (a search resolves every ancestor's links).
        let mut searched = HashSet::new();
        for entry in entries {
            // Another session's load of the same entry added its folders.
            if !known_entries.insert(entry.clone()) {
                continue;
            }
            let Some(own) = own_folder(&entry) else { continue };
            if !searched.insert(own.clone()) {
                continue;
            }
            for folder in std::iter::once(own.clone()).chain(package_folders(&own)) {
                if !folders.contains(&folder) {
                    folders.push(folder);
                }
            }
        }
        *self.folders.borrow_mut() = folders;
    }

    /// The same folders, for a worker the runtime starts.
    pub(crate) fn snapshot(&self) -> Vec<PathBuf> {
        self.folders.borrow().clone()
    }

    /// Takes a parent runtime's folders (a worker's runtime).
    pub(crate) fn replace(&self, folders: Vec<PathBuf>) {
        *self.folders.borrow_mut() = folders;
    }

    fn contains(&self, path: &Path) -> bool {
        self.folders.borrow().iter().any(|folder| path.starts_with(folder))
    }
}

/// An extension's own folder (the package folder pi was given, or the
/// entry file's folder), links resolved.
fn own_folder(entry: &Path) -> Option<PathBuf> {
    let entry = std::fs::canonicalize(entry).ok()?;
    if entry.is_dir() {
        Some(entry)
    } else {
        entry.parent().map(Path::to_path_buf)
    }
}

/// Every `node_modules` folder Node's resolution would search from `own`; links resolved.
fn package_folders(own: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    own.ancestors()
        .filter_map(|folder| std::fs::canonicalize(folder.join("node_modules")).ok())
}

/// Checks that a module file may be loaded (`import`, `require`, a worker's
/// script): inside an extension's folder always, elsewhere with a read grant.
pub(crate) fn check_module_read(
    permissions: &PermissionSlot,
    folders: &ExtensionFolders,
    path: &Path,
) -> Result<(), deno_error::JsErrorBox> {
    let Some(restrictions) = permissions.get() else {
        return Ok(());
    };
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    restrictions
        .check_never_granted(&real)
        .map_err(|refused| deno_error::JsErrorBox::new("NotCapable", refused.to_string()))?;
    if folders.contains(&real) {
        return Ok(());
    }
    check_read(&restrictions.container, &real, "import")
}

/// A grant's path, absolute and with its links resolved where it exists.
fn resolved_path(path: &str, cwd: &Path) -> String {
    let absolute = if Path::new(path).is_absolute() {
        PathBuf::from(path)
    } else {
        cwd.join(path)
    };
    std::fs::canonicalize(&absolute)
        .unwrap_or(absolute)
        .display()
        .to_string()
}

/// A touch that was refused: `kind` is Deno's flag name (`read`, `net`, …),
/// `message` Deno's description of what was asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Denial {
    /// `read`, `write`, `run`, `net`, `env` or `sys`.
    pub kind: String,
    /// What was asked, as Deno words it (`read access to "/etc/hosts"`).
    pub target: String,
}

thread_local! {
    /// Denials on this thread (a runtime's) since they were last taken.
    static DENIALS: RefCell<Vec<Denial>> = const { RefCell::new(Vec::new()) };
}

/// Whether this thread's runtime recorded denials since the last
/// [`op_pihost_take_denials`]: the loader takes them only then.
#[deno_core::op2(fast)]
pub(crate) fn op_pihost_has_denials() -> bool {
    DENIALS.with(|denials| !denials.borrow().is_empty())
}

/// Takes the denials this thread's runtime recorded since the last call:
/// the loader asks after each extension, whose touches they were.
#[deno_core::op2]
#[serde]
pub(crate) fn op_pihost_take_denials() -> Vec<Denial> {
    DENIALS.with(|denials| std::mem::take(&mut *denials.borrow_mut()))
}

/// deno_permissions asks its (process-wide) prompter before refusing a
/// touch that was not granted; pihost's decides it in the session of the
/// runtime on whose thread it was asked ([`prompt::decide`]) and records
/// each refusal for that runtime.
struct DenialRecorder;

impl PermissionPrompter for DenialRecorder {
    fn prompt(
        &mut self,
        message: &str,
        name: &str,
        _api_name: Option<&str>,
        _is_unary: bool,
        _get_stack: Option<deno_permissions::prompter::GetFormattedStackFn>,
    ) -> PromptResponse {
        let decision = prompt::decide(name, message);
        match decision.outcome {
            crate::host::PermissionOutcome::AllowedOnce
            | crate::host::PermissionOutcome::AllowedAlways
            | crate::host::PermissionOutcome::Granted => PromptResponse::Allow,
            crate::host::PermissionOutcome::Denied => {
                remember_denial(Denial {
                    kind: name.to_string(),
                    target: message.to_string(),
                });
                PromptResponse::Deny
            }
        }
    }
}

fn remember_denial(denial: Denial) {
    DENIALS.with(|denials| {
        let mut denials = denials.borrow_mut();
        if !denials.contains(&denial) {
            denials.push(denial);
        }
    });
}

/// Records a refusal a deny list made (no prompter hears of those), in
/// Deno's words, for the loader's report.
pub(crate) fn record_denial(kind: &str, target: &str) {
    let target = if target == audit::ALL {
        format!("{kind} access")
    } else {
        format!("{kind} access to \"{target}\"")
    };
    remember_denial(Denial {
        kind: kind.to_string(),
        target,
    });
}

fn install_recorder() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| deno_permissions::prompter::set_prompter(Box::new(DenialRecorder)));
}

/// Checks that the runtime may run `command` (a name looked up on `PATH`, or
/// a path relative to `cwd`), as deno_process checks its spawns.
pub(crate) fn check_run(
    permissions: &PermissionsContainer,
    command: &str,
    cwd: &Path,
    api_name: &str,
) -> Result<(), deno_error::JsErrorBox> {
    use deno_permissions::{PathQueryDescriptor, RunQueryDescriptor};
    use std::borrow::Cow;
    let descriptor = if command.contains('/') {
        let path = if Path::new(command).is_absolute() {
            PathBuf::from(command)
        } else {
            cwd.join(command)
        };
        RunQueryDescriptor::Path(
            PathQueryDescriptor::new_known_absolute(Cow::Owned(path)).with_requested(command.to_string()),
        )
    } else {
        RunQueryDescriptor::parse(command, &sys_traits::impls::RealSys).map_err(deno_error::JsErrorBox::from_err)?
    };
    // deno_permissions' hook is not called for programs.
    audit::touched("run", command);
    permissions
        .check_run(&descriptor, api_name)
        .map_err(deno_error::JsErrorBox::from_err)
}

/// Checks that the runtime may read `path`, as deno_fs checks its reads.
pub(crate) fn check_read(
    permissions: &PermissionsContainer,
    path: &Path,
    api_name: &str,
) -> Result<(), deno_error::JsErrorBox> {
    permissions
        .check_open(
            std::borrow::Cow::Borrowed(path),
            deno_permissions::OpenAccessKind::Read,
            Some(api_name),
        )
        .map(|_| ())
        .map_err(deno_error::JsErrorBox::from_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_files_of_processes_and_threads_are_told_apart() {
        for path in ["/proc/1/environ", "/proc/42/task/43/environ"] {
            assert!(is_environment_file(Path::new(path)), "{path}");
        }
        for path in [
            "/proc/self/environ",
            "/proc/1/status",
            "/proc/environ",
            "/tmp/environ",
            "/proc/1/task/environ",
        ] {
            assert!(!is_environment_file(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn credential_names_are_hidden_in_a_sandbox_unless_named_or_not_matched() {
        let sandbox = Permissions {
            sandbox: true,
            allow_env: Some(Vec::new()),
            ..Permissions::default()
        };
        for name in [
            "OPENAI_API_KEY",
            "github_token",
            "AWS_REGION",
            "DB_PASSWORD",
            "SSH_AUTH_SOCK",
        ] {
            assert!(sandbox.hides_env(name), "{name}");
        }
        for name in ["HOME", "PATH", "TOKENIZER_PATH", "API_KEY_FILE_DIR"] {
            assert!(!sandbox.hides_env(name), "{name}");
        }
        let named = Permissions {
            allow_env: Some(vec!["OPENAI_API_KEY".into()]),
            ..sandbox.clone()
        };
        assert!(!named.hides_env("OPENAI_API_KEY"));
        assert!(named.hides_env("ANTHROPIC_API_KEY"));
        let own = Permissions {
            secret_env: Some(vec!["MY_*".into()]),
            ..sandbox.clone()
        };
        assert!(own.hides_env("MY_THING") && !own.hides_env("OPENAI_API_KEY"));
        assert!(
            !Permissions::default().hides_env("OPENAI_API_KEY"),
            "no sandbox, nothing hidden"
        );
    }
}
