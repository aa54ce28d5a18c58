// The stream function agents and agent loops fall back on when their caller
// names none. pi-agent-core itself has no default; pi's coding agent installs
// pi-ai's streamSimple when it loads, and extensions always run inside it, so
// the fallback they see is pi-ai's. pihost starts from the same one.
import { streamSimple } from "../ai/dispatch.js";

let fallbackStreamFn = streamSimple;

/** Replaces the fallback; `undefined` leaves agents without one. */
export function setDefaultStreamFn(streamFn) {
  fallbackStreamFn = streamFn;
}

export function getDefaultStreamFn() {
  if (!fallbackStreamFn) {
    throw new Error("No default stream function configured. Pass streamFn explicitly or call setDefaultStreamFn().");
  }
  return fallbackStreamFn;
}
