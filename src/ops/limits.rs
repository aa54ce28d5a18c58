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

/// What the squeeze flag's memory is handed to JavaScript with: the memory
/// belongs to the watchdog, so deleting the backing store frees nothing.
unsafe extern "C" fn keep_watchdog_memory(
    _data: *mut std::ffi::c_void,
    _length: usize,
    _deleter_data: *mut std::ffi::c_void,
) {
}

/// A one-byte view of the watchdog's `squeezed` flag, which entries.js
/// reads whenever extension code settles: non-zero only after a squeeze,
/// and only then does it call [`op_pihost_cpu_stop_landed`] (an op call per
/// settled handler was a tenth of a dispatch). Without a squeezing
/// watchdog, a byte that stays zero.
#[op2]
pub fn op_pihost_squeeze_flag<'s>(state: &mut OpState, scope: &mut v8::PinScope<'s, '_>) -> v8::Local<'s, v8::Value> {
    let store = match state.try_borrow::<crate::limits::SqueezeSignal>() {
        // SAFETY: the flag is memory of the watchdog's shared state, which
        // the signal in this op state keeps alive for the runtime's life:
        // no JavaScript of the runtime runs after its op state is gone. The
        // null deleter data makes the engine use this memory, not a copy
        // (engine note 43), and the deleter leaves it to its owner.
        Some(signal) => unsafe {
            v8::ArrayBuffer::new_backing_store_from_ptr(
                signal.flag_ptr().cast(),
                1,
                keep_watchdog_memory,
                std::ptr::null_mut(),
            )
        },
        None => v8::ArrayBuffer::new_backing_store_from_boxed_slice(Box::new([0u8])),
    };
    let buffer = v8::ArrayBuffer::with_backing_store(scope, &store.make_shared());
    // No view (the engine refused it): undefined, and entries.js asks the op each time.
    v8::Uint8Array::new(scope, buffer, 0, 1).map_or_else(|| v8::undefined(scope).into(), Into::into)
}
