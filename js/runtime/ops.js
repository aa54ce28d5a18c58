// pihost's Rust ops, captured once at start-up so that the engine's own
// globals can later be hidden from extensions without cutting pihost off.
// (Under Node, where tests/pi-packages/*-differential.mjs import js/pi,
// there is no `Deno`: the modules still load, and only what calls an op fails.)
export const ops = globalThis.Deno?.core.ops;
export const core = globalThis.Deno?.core;

// The session (of pihost's runtime) whose extension code runs now, which
// an op made for that code names: -1 until js/runtime/main.js says how to
// find it, and whenever it cannot tell.
let runningSession = () => -1;

/** The session number an op made for the running extension code carries. */
export function opSession() {
  return runningSession();
}

/** `resolve()` answers the running extension code's session number (-1: none known). */
export function resolveOpSession(resolve) {
  runningSession = resolve;
}
