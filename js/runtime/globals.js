// The globals extensions see, installed before any extension runs: Node's
// (js/platform/, from Deno's platform crates), pihost's hidden helpers, and
// the rule that an error nobody catches is reported, never fatal.
import { core, ops } from "pihost:runtime/ops.js";
import { nodeModule, timerHooks } from "pihost:platform/bootstrap.js";
import { adoptTimer, currentOwner, enterExtensionSync, sessionOf } from "pihost:runtime/entries.js";
import "pihost:runtime/intl.js";
import { setHostEnvSource } from "pihost:pi/host-env.js";
import { ReflectApply } from "pihost:runtime/primordials.js";

// pi's own code reads the runtime's environment directly (js/pi/host-env.js).
setHostEnvSource(() => ops.op_pihost_runtime_env());

function defineHidden(name, value) {
  Object.defineProperty(globalThis, name, { __proto__: null, value, writable: true, configurable: true, enumerable: false });
}

// The grep and find tools' searches (js/pi/coding-agent/search-backend.js),
// done in Rust so that rg and fd need not be installed.
defineHidden("__pihostSearch", {
  grep: (searchPath, request) => ops.op_pihost_search_grep(searchPath, request),
  find: (searchPath, request) => ops.op_pihost_search_find(searchPath, request),
});

// node:process, once an extension (or the platform) has loaded it; reporting
// an error must not be what loads it.
const internals = globalThis.__bootstrap.internals;
let processLoaded = false;

// An error nobody catches (a throwing timer or nextTick callback, a rejected
// promise nobody awaits) goes to the extension's own process listeners, as
// in Node; without one it is reported as an extension error instead of
// ending the host, as Node would. Which extension caused it is not known here.
function reportUncaught(event, error, promise) {
  processLoaded ||= Boolean(internals.__nodeProcessBootstrapped);
  let process;
  try {
    process = processLoaded ? nodeModule("process").default : undefined;
  } catch {
    // node:process is still evaluating: nobody can be listening yet.
  }
  if (process && process.listenerCount(event) > 0) {
    if (event === "unhandledRejection") process.emit(event, error, promise);
    else process.emit(event, error, "uncaughtException");
    return;
  }
  ops.op_pihost_report_error(sessionOf(currentOwner()), {
    extensionPath: "<unknown>",
    event,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
}

// A timer's callback is the code of whichever extension set the timer, which
// names it when the host has to stop the callback, and is cancelled with it.
timerHooks.wrap = (callback) => {
  const creator = currentOwner();
  const owner = { __proto__: null, path: creator?.path ?? "<unknown>", session: creator?.session, where: "in a timer callback", event: "timer" };
  return function (...args) {
    return enterExtensionSync(owner, () => ReflectApply(callback, this, args));
  };
};
timerHooks.adopt = adoptTimer;

core.setReportExceptionCallback((error) => reportUncaught("uncaughtException", error));
core.setUnhandledPromiseRejectionHandler((promise, reason) => {
  reportUncaught("unhandledRejection", reason, promise);
  return true;
});

// Libraries sniff the runtime (`typeof Deno`, `globalThis.__bootstrap`) and
// must see Node. pihost reached the engine through ops.js above and the
// platform through deno_core's internals; the engine's own JS captured what
// it needs at start-up. The QuickJS backend's `__v8x*` helpers are looked up
// by name at run time, so they stay, but out of sight of enumeration.
for (const name of ["Deno", "__bootstrap"]) delete globalThis[name];
for (const name of Object.getOwnPropertyNames(globalThis)) {
  if (name.startsWith("__v8x")) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (descriptor.configurable && descriptor.enumerable) {
      Object.defineProperty(globalThis, name, { __proto__: null, ...descriptor, enumerable: false });
    }
  }
}
