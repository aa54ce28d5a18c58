//! The stack-trace callback every runtime of pihost's gets (the engine's,
//! and each codemode sandbox's): deno_core's, guarded against what the
//! engine hands it while a run is stopped or after a realm's built-ins were
//! replaced.

use deno_core::v8;

/// deno_core's stack traces, except for errors made while a run is being
/// terminated: formatting one calls back into JavaScript, which the engine
/// refuses then, and deno_core prints a warning that calls it a bug. (A run
/// squeezed for its CPU limit makes such errors: src/limits.rs.) And except
/// when the call sites are not call sites: the engine makes them with the
/// realm's live `Array.prototype.map` (engine note 42), and deno_core
/// unwraps what it reads of them where a panic aborts the process, so an
/// extension that replaced `map` could kill the host with any error. Such
/// an error's stack is then its first line alone.
pub(crate) fn stack_trace_unless_terminating<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    error: v8::Local<'s, v8::Value>,
    callsites: v8::Local<'s, v8::Array>,
) -> v8::Local<'s, v8::Value> {
    if scope.is_execution_terminating() {
        return v8::undefined(scope).into();
    }
    if !are_call_sites(scope, callsites) {
        return error
            .to_string(scope)
            .map_or_else(|| v8::undefined(scope).into(), Into::into);
    }
    deno_core::error::prepare_stack_trace_callback(scope, error, callsites)
}

/// Whether `callsites` is an array of objects with the methods deno_core
/// calls on each (the engine's own call sites, not what a replaced
/// `Array.prototype.map` answered).
fn are_call_sites<'s>(scope: &mut v8::PinScope<'s, '_>, callsites: v8::Local<'s, v8::Array>) -> bool {
    const METHODS: [&str; 12] = [
        "getFileName",
        "getScriptNameOrSourceURL",
        "getLineNumber",
        "getColumnNumber",
        "getFunctionName",
        "getTypeName",
        "getMethodName",
        "getEvalOrigin",
        "isToplevel",
        "isEval",
        "isNative",
        "isConstructor",
    ];
    let value: v8::Local<v8::Value> = callsites.into();
    if !value.is_array() {
        return false;
    }
    let Some(names) = METHODS
        .iter()
        .map(|name| v8::String::new(scope, name))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    for index in 0..callsites.length() {
        let Some(site) = callsites.get_index(scope, index) else {
            return false;
        };
        let Ok(site) = v8::Local::<v8::Object>::try_from(site) else {
            return false;
        };
        for name in &names {
            let method = site.get(scope, (*name).into());
            if !method.is_some_and(|method| method.is_function()) {
                return false;
            }
        }
    }
    true
}
