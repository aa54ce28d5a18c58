// pihost's Rust ops, captured once at start-up so that the engine's own
// globals can later be hidden from extensions without cutting pihost off.
export const ops = globalThis.Deno.core.ops;
export const core = globalThis.Deno.core;
