// pihost's Rust ops, captured once at start-up so that the engine's own
// globals can later be hidden from extensions without cutting pihost off.
// (Under Node, where tests/pi-packages/*-differential.mjs import js/pi,
// there is no `Deno`: the modules still load, and only what calls an op fails.)
export const ops = globalThis.Deno?.core.ops;
export const core = globalThis.Deno?.core;
