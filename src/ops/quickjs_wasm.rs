//! The QuickJS-NG WebAssembly build that pi's codemode runs scripts in
//! (quickjs-wasi, vendored unmodified under `js/vendor/quickjs-wasi/`).
//! It ships inside pihost as bytes; the isolate asks for it the first time
//! a codemode script runs (`js/pi/coding-agent/codemode/quickjs-wasm.js`)
//! and compiles it once per runtime.

use deno_core::op2;

static QUICKJS_WASM: &[u8] = include_bytes!("../../js/vendor/quickjs-wasi/quickjs.wasm");

/// A copy of quickjs.wasm: a fresh buffer, since WebAssembly.compile may
/// keep a reference to what it is given.
#[op2]
#[buffer]
pub fn op_pihost_quickjs_wasm() -> Vec<u8> {
    QUICKJS_WASM.to_vec()
}
