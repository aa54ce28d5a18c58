//! pihost's side of the platform: the few facts Deno's crates leave to
//! deno_runtime (CPU and memory use), and the ops of Deno's crates that
//! must behave differently inside an embedded host, swapped in by
//! [`middleware`].

use deno_core::{OpDecl, OpState, op2, v8};
use deno_error::JsErrorBox;

/// What the platform's bootstrap (js/platform/bootstrap.js) needs to know
/// of the machine and of pihost.
#[op2]
#[serde]
pub fn op_pihost_platform_facts() -> serde_json::Value {
    // Rust's names for the architectures are deno's (x86_64, aarch64).
    let arch = std::env::consts::ARCH;
    let node_version = env!("PIHOST_NODE_VERSION");
    serde_json::json!({
        "platform": std::env::consts::OS,
        "target": format!("{arch}-unknown-{}-gnu", std::env::consts::OS),
        "pid": std::process::id(),
        // SAFETY: getppid has no preconditions.
        "ppid": unsafe { libc::getppid() },
        "pihostVersion": env!("CARGO_PKG_VERSION"),
        "nodeVersion": node_version,
        "nodeMajor": node_version.split('.').next().unwrap_or(node_version),
        "nodeExecPath": node_exec_path(),
        "hardwareConcurrency": std::thread::available_parallelism().map(usize::from).unwrap_or(1),
    })
}

/// `process.execPath`: the Node on PATH, so that extensions spawning
/// `process.execPath` with a script run it with Node, as under pi.
fn node_exec_path() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|candidate| candidate.is_file())
        .map(|found| found.display().to_string())
        .unwrap_or_else(|| "/usr/bin/node".to_string())
}

/// The `node:` modules extensions can import, without the scheme: name to
/// the `ext:` script behind it for deno_node's synthetic modules, else null.
#[op2]
#[serde]
pub fn op_pihost_node_modules() -> std::collections::BTreeMap<&'static str, Option<&'static str>> {
    super::node_modules().collect()
}

/// `Deno.cpuUsage()`: this process's user and system time, in microseconds.
#[op2]
#[serde]
pub fn op_pihost_cpu_usage() -> serde_json::Value {
    // SAFETY: getrusage only writes into the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let micros = |time: libc::timeval| time.tv_sec as f64 * 1e6 + time.tv_usec as f64;
    serde_json::json!({ "user": micros(usage.ru_utime), "system": micros(usage.ru_stime) })
}

/// `Deno.memoryUsage()`: the process's resident set and this isolate's heap.
#[op2]
#[serde]
pub fn op_pihost_memory_usage(scope: &mut v8::PinScope<'_, '_>) -> serde_json::Value {
    let heap = scope.get_heap_statistics();
    serde_json::json!({
        "rss": resident_set_bytes(),
        "heapTotal": heap.total_heap_size(),
        "heapUsed": heap.used_heap_size(),
        "external": heap.external_memory(),
    })
}

/// Stands in for deno_os's `op_exit`, which ends the process: an extension
/// never ends the host.
#[op2(fast)]
fn op_pihost_exit() -> Result<(), JsErrorBox> {
    Err(JsErrorBox::generic(
        "pihost: process.exit() was called; extensions cannot end the host process",
    ))
}

/// Stands in for deno_node's `op_vm_create_context` and
/// `op_vm_create_context_without_contextify`: they make every new context
/// from the context template deno_runtime puts in its snapshot, which
/// pihost's startup snapshot (src/startup_snapshot.rs) does not have, and
/// unwrap the missing context, which aborts the host process. An extension gets an error it
/// can catch instead (docs/engine-notes.md, note 22).
#[op2(fast)]
fn op_pihost_no_vm_contexts() -> Result<(), JsErrorBox> {
    Err(JsErrorBox::generic(
        "pihost: node:vm cannot make new contexts (createContext, runInNewContext, runInContext): \
         they need a V8 startup snapshot that pihost's runtime does not have; \
         runInThisContext, Script#runInThisContext and compileFunction work",
    ))
}

/// Stands in for deno_node's `op_homedir`: `os.homedir()` answers `HOME`
/// from the environment the runtime's code sees whenever it is set, empty
/// or not, as Node's does (an extension that sets `process.env.HOME` moves
/// it), else the system's home directory; checked as deno_node checks it.
#[op2(stack_trace)]
#[string]
fn op_pihost_homedir(state: &mut OpState) -> Result<Option<String>, JsErrorBox> {
    state
        .borrow_mut::<deno_permissions::PermissionsContainer>()
        .check_sys("homedir", "node:os.homedir()")
        .map_err(JsErrorBox::from_err)?;
    if let Some(home) = state.borrow::<RuntimeEnv>().0.get("HOME") {
        return Ok(Some(home.clone()));
    }
    Ok(sys_traits::EnvHomeDir::env_home_dir(&sys_traits::impls::RealSys)
        .map(|path| path.to_string_lossy().into_owned()))
}

/// Stands in for deno_node's `op_node_process_kill`, which lets a process
/// signal itself without a check: in pihost that process is the host, so a
/// sandboxed extension needs the run permission for it as for any other.
#[op2(fast)]
fn op_pihost_process_kill(state: &mut OpState, #[smi] pid: i32, #[smi] signal: i32) -> Result<i32, JsErrorBox> {
    state
        .borrow_mut::<deno_permissions::PermissionsContainer>()
        .check_run_all("process.kill")
        .map_err(JsErrorBox::from_err)?;
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    if unsafe { libc::kill(pid, signal) } < 0 {
        return Ok(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EPERM));
    }
    Ok(0)
}

/// Stands in for deno_node's `op_node_translate_cli_args`, which rewrites
/// the arguments of a spawned `node` into `deno run …`: pihost's
/// `process.execPath` is a real Node, whose arguments stay as they are.
#[op2]
#[serde]
fn op_pihost_keep_cli_args(#[serde] args: Vec<String>, _in_npm_package: bool, _wrap_eval: bool) -> serde_json::Value {
    serde_json::json!({
        "denoArgs": args,
        "nodeOptions": [],
        "caStores": null,
        "useOpensslCa": false,
        "needsNpmProcessState": false,
        "traceEventCategories": null,
    })
}

/// Stands in for deno_node's questions about npm packages, which need
/// deno's own resolver: pihost resolves packages itself.
#[op2(fast)]
fn op_pihost_not_in_npm_package(#[string] _path: &str) -> bool {
    false
}

/// Stands in for deno_node's call-site check behind deprecation warnings
/// for dependencies, which needs deno's resolver.
#[op2(fast)]
fn op_pihost_not_from_dependency() -> bool {
    false
}

/// A runtime's own environment: `process.env` starts as the host's and
/// changes stay in the runtime (children it spawns get it), as pihost gave
/// it before. Writing the real environment from an isolate's thread would
/// race every other thread of an embedding host that reads it.
pub(super) struct RuntimeEnv(std::collections::BTreeMap<String, String>);

impl RuntimeEnv {
    fn from_process() -> Self {
        Self(
            std::env::vars_os()
                .filter_map(|(key, value)| Some((key.into_string().ok()?, value.into_string().ok()?)))
                .collect(),
        )
    }
}

/// Removes the variables `hides` names from a runtime's environment: the
/// sandbox's secrets (`Permissions::hides_env`) are then unset for its
/// extensions and for every program they start.
pub(crate) fn hide_env(state: &mut OpState, hides: impl Fn(&str) -> bool) {
    state.borrow_mut::<RuntimeEnv>().0.retain(|name, _| !hides(name));
}

/// A runtime's environment, as the programs it starts get it.
pub(crate) fn runtime_env(state: &OpState) -> std::collections::BTreeMap<String, String> {
    state.borrow::<RuntimeEnv>().0.clone()
}

/// Gives a worker its parent's environment, as Node copies `process.env`
/// into a new worker.
pub(crate) fn set_runtime_env(state: &mut OpState, env: std::collections::BTreeMap<String, String>) {
    state.put(RuntimeEnv(env));
}

/// The host process's environment without what `hides` names.
pub(crate) fn process_env_without(hides: impl Fn(&str) -> bool) -> std::collections::BTreeMap<String, String> {
    let mut env = RuntimeEnv::from_process().0;
    env.retain(|name, _| !hides(name));
    env
}

fn env_key(key: &str) -> Result<(), JsErrorBox> {
    if key.is_empty() || key.contains(['=', '\0']) {
        return Err(JsErrorBox::type_error(format!(
            "Key contains invalid characters: {key:?}"
        )));
    }
    Ok(())
}

#[op2]
#[serde]
fn op_pihost_env(state: &mut OpState) -> Result<std::collections::BTreeMap<String, String>, JsErrorBox> {
    state
        .borrow::<deno_permissions::PermissionsContainer>()
        .check_env_all()
        .map_err(JsErrorBox::from_err)?;
    Ok(state.borrow::<RuntimeEnv>().0.clone())
}

/// Variables deno_node itself reads while it sets a module up or spawns a
/// child (Node's own settings): reading them is the platform's doing, not
/// the extension's, so a sandbox does not refuse it.
const NODE_SETTINGS: &[&str] = &["NODE_OPTIONS", "NODE_V8_COVERAGE", "NODE_DEBUG", "NODE_DEBUG_NATIVE"];

fn may_use_env(state: &OpState, key: &str) -> Result<(), JsErrorBox> {
    state
        .borrow::<deno_permissions::PermissionsContainer>()
        .check_env(key)
        .map_err(JsErrorBox::from_err)
}

/// The runtime's environment for pi's own code (the colour mode, the agent
/// directory: js/pi/host-env.js), which reads the host's settings, not the
/// extension's: no check, and no node:process needed to get it.
#[op2]
#[serde]
pub(super) fn op_pihost_runtime_env(state: &mut OpState) -> std::collections::BTreeMap<String, String> {
    state.borrow::<RuntimeEnv>().0.clone()
}

/// deno_node's own reads of its settings (`NODE_EXTRA_CA_CERTS`, …), which
/// are the host's configuration, not an extension's touch.
#[op2]
#[string]
fn op_pihost_get_env_unchecked(state: &mut OpState, #[string] key: &str) -> Result<Option<String>, JsErrorBox> {
    env_key(key)?;
    Ok(state.borrow::<RuntimeEnv>().0.get(key).cloned())
}

#[op2]
#[string]
fn op_pihost_get_env(state: &mut OpState, #[string] key: &str) -> Result<Option<String>, JsErrorBox> {
    env_key(key)?;
    if !NODE_SETTINGS.contains(&key) {
        may_use_env(state, key)?;
    }
    Ok(state.borrow::<RuntimeEnv>().0.get(key).cloned())
}

#[op2(fast)]
fn op_pihost_set_env(state: &mut OpState, #[string] key: &str, #[string] value: &str) -> Result<(), JsErrorBox> {
    env_key(key)?;
    may_use_env(state, key)?;
    if value.contains('\0') {
        return Err(JsErrorBox::type_error(format!(
            "Value contains invalid characters: {value:?}"
        )));
    }
    state
        .borrow_mut::<RuntimeEnv>()
        .0
        .insert(key.to_string(), value.to_string());
    Ok(())
}

#[op2(fast)]
fn op_pihost_delete_env(state: &mut OpState, #[string] key: &str) -> Result<(), JsErrorBox> {
    env_key(key)?;
    may_use_env(state, key)?;
    state.borrow_mut::<RuntimeEnv>().0.remove(key);
    Ok(())
}

/// deno_node's ops that need the services of deno's own module resolution
/// (its `require`, npm resolver and package.json cache), which pihost does
/// not give it: it resolves and loads modules itself (src/modules). They
/// answer "op is disabled" instead of reaching for services that are not there.
const NEEDS_DENO_RESOLUTION: &[&str] = &[
    "op_require_is_deno_dir_package",
    "op_require_is_maybe_cjs",
    "op_require_node_module_paths",
    "op_require_package_imports_resolve",
    "op_require_read_file",
    "op_require_read_package_scope",
    "op_require_real_path",
    "op_require_resolve_deno_dir",
    "op_require_resolve_exports",
    "op_require_stat",
    "op_require_try_self",
];

/// Swaps the ops above into every extension's table.
pub(super) fn middleware(op: OpDecl) -> OpDecl {
    match op.name {
        "op_exit" => op.with_implementation_from(&op_pihost_exit()),
        "op_node_process_kill" => op.with_implementation_from(&op_pihost_process_kill()),
        "op_vm_create_context" | "op_vm_create_context_without_contextify" => {
            op.with_implementation_from(&op_pihost_no_vm_contexts())
        }
        "op_node_translate_cli_args" => op.with_implementation_from(&op_pihost_keep_cli_args()),
        "op_node_in_npm_package" => op.with_implementation_from(&op_pihost_not_in_npm_package()),
        "op_node_call_is_from_dependency" => op.with_implementation_from(&op_pihost_not_from_dependency()),
        "op_env" => op.with_implementation_from(&op_pihost_env()),
        "op_homedir" => op.with_implementation_from(&op_pihost_homedir()),
        "op_get_env" => op.with_implementation_from(&op_pihost_get_env()),
        "op_get_env_no_permission_check" => op.with_implementation_from(&op_pihost_get_env_unchecked()),
        "op_set_env" => op.with_implementation_from(&op_pihost_set_env()),
        "op_delete_env" => op.with_implementation_from(&op_pihost_delete_env()),
        name if NEEDS_DENO_RESOLUTION.contains(&name) => op.disable(),
        _ => op,
    }
}

/// What deno_node's ops borrow from the op state even without deno's module
/// resolution: the system they read (cgroup limits, CA files).
pub(super) fn put_state(state: &mut OpState) {
    state.put(sys_traits::impls::RealSys);
    state.put(RuntimeEnv::from_process());
}

/// The host process's resident set, in bytes (0 where it cannot be read).
pub fn resident_set_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}
