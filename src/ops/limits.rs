//! What js/runtime/entries.js tells the engine about a limit's stop.

use deno_core::{op2, v8};

/// An allocation the heap limit refused threw in an extension's code and
/// ended its run there; the termination the limit also asked for has no
/// run left to stop and would land in pihost's own code, in the middle of
/// failing that extension's call. So it is withdrawn. (The engine still
/// learns of the stop: the heap signal stays set until the run ends.)
#[op2(fast)]
pub fn op_pihost_heap_stop_landed(scope: &mut v8::PinScope<'_, '_>) {
    scope.cancel_terminate_execution();
}
