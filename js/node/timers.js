// node:timers: the isolate's global timers (installed before any node:
// module is evaluated), plus Node's legacy enroll API as no-ops.
import * as promises from "./timers/promises.js";

export const setTimeout = globalThis.setTimeout;
export const clearTimeout = globalThis.clearTimeout;
export const setInterval = globalThis.setInterval;
export const clearInterval = globalThis.clearInterval;
export const setImmediate = globalThis.setImmediate;
export const clearImmediate = globalThis.clearImmediate;

const promisesDefault = promises.default;
export { promisesDefault as promises };

// Deprecated internals some old libraries still call; nothing to schedule.
export function active() {}
export function _unrefActive() {}
export function enroll() {}
export function unenroll() {}

export default {
  setTimeout,
  clearTimeout,
  setImmediate,
  clearImmediate,
  setInterval,
  clearInterval,
  _unrefActive,
  active,
  unenroll,
  enroll,
  promises: promisesDefault,
};
