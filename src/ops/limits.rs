//! What js/runtime/entries.js tells the engine about a limit's stop.

use deno_core::{OpState, op2, v8};

/// An allocation the heap limit refused threw in an extension's code and
/// ended its run there; the termination the limit also asked for has no
/// run left to stop and would land in pihost's own code, in the middle of
/// failing that extension's call. So it is withdrawn. (The engine still
/// learns of the stop: the heap signal stays set until the run ends.)
#[op2(fast)]
pub fn op_pihost_heap_stop_landed(scope: &mut v8::PinScope<'_, '_>) {
    scope.cancel_terminate_execution();
}

/// Extension code that ran past its CPU limit and was squeezed
/// (src/limits.rs, `Squeeze`) came back to pihost's entry code, by a
/// refused allocation's error or by catching it and returning: gives the
/// heap its limit back and withdraws the termination, which would otherwise
/// land in pihost's own code, as the heap limit's does. False when the run
/// was not squeezed. (A fast op: the engine refuses other calls while a
/// termination is pending.)
#[op2(fast)]
pub fn op_pihost_cpu_stop_landed(state: &mut OpState, scope: &mut v8::PinScope<'_, '_>) -> bool {
    state
        .try_borrow::<crate::limits::SqueezeSignal>()
        .is_some_and(|signal| signal.landed(scope))
}
