//! Ops that deno_node's modules import from crates pihost leaves out
//! (deno_runtime, deno_http, deno_napi); the worker host's are pihost's own
//! (workers.rs). A module whose import names an op that does not exist
//! fails to link, so each is here: with pihost's answer where there is one
//! (no terminal, no colours, no serve-address override), else failing with
//! a clear error when called.

use std::borrow::Cow;
use std::path::Path;

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use deno_permissions::PermissionsContainer;

/// This thread's user and system CPU time in microseconds, into `out`.
#[op2(fast)]
pub fn op_current_thread_cpu_usage(#[buffer] out: &mut [f64]) {
    if out.len() < 2 {
        return;
    }
    // SAFETY: getrusage only writes into the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage
    };
    let micros = |time: libc::timeval| time.tv_sec as f64 * 1e6 + time.tv_usec as f64;
    out[0] = micros(usage.ru_utime);
    out[1] = micros(usage.ru_stime);
}

/// Extensions write to pipes, never to a terminal: no colours.
#[op2(fast)]
pub fn op_bootstrap_color_depth() -> i32 {
    1
}

/// pihost passes no `--unstable-*` flags to anything it spawns.
#[op2]
#[serde]
pub fn op_bootstrap_unstable_args() -> Vec<String> {
    Vec::new()
}

/// Extensions have no terminal of their own to put in raw mode.
#[op2(fast)]
pub fn op_set_raw(_rid: u32, _is_raw: bool, _cbreak: bool) -> Result<(), JsErrorBox> {
    Err(JsErrorBox::new(
        "NotSupported",
        "pihost: extensions have no terminal to set raw mode on",
    ))
}

/// Node's native addons (`.node` files) cannot load in pihost's engine;
/// a sandbox refuses them first, as Deno refuses FFI without `--allow-ffi`.
#[op2(fast, stack_trace)]
pub fn op_napi_open(state: &mut OpState, #[string] path: &str) -> Result<(), JsErrorBox> {
    state
        .borrow_mut::<PermissionsContainer>()
        .check_ffi(Cow::Borrowed(Path::new(path)))
        .map_err(JsErrorBox::from_err)?;
    Err(JsErrorBox::generic(
        "pihost: native addons (.node files) cannot be loaded; use a JavaScript or WebAssembly build of the package",
    ))
}

/// No `DENO_SERVE_ADDRESS` override: servers listen where they ask.
#[op2]
#[serde]
pub fn op_http_serve_address_override() -> (u8, String, u32, bool) {
    (0, String::new(), 0, false)
}

/// Nothing waits for the first server to start.
#[op2(fast)]
pub fn op_http_notify_serving(#[smi] _kind: u32) {}
