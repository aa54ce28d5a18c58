// The globals of Node 22, from Deno's platform crates. Each one is a getter
// that loads the module providing it on first use and then becomes a plain
// value (Node itself defines `process`, `Buffer`, `crypto`, `performance`
// and `navigator` as getters), so a runtime only pays for what its
// extensions touch.

import { fixGlobal, performanceWithOrigin } from "pihost:platform/node-fixes.js";

// A lazy global is installed when first touched, maybe after an extension
// replaced Object's or Function.prototype's methods: what installs it and
// what the timers call through is captured now.
const { defineProperty } = Object;
const apply = Reflect.apply;

/** `[first, ...rest]` without the array iterator anyone can replace. */
function withFirst(first, rest) {
  const args = [first];
  for (let index = 0; index < rest.length; index++) args[index + 1] = rest[index];
  return args;
}

const WEB = {
  "ext:deno_web/00_url.js": ["URL", "URLSearchParams"],
  "ext:deno_web/01_dom_exception.js": ["DOMException"],
  "ext:deno_web/02_event.js": ["Event", "EventTarget", "CustomEvent", "MessageEvent"],
  "ext:deno_web/03_abort_signal.js": ["AbortController", "AbortSignal"],
  "ext:deno_web/06_streams.js": [
    "ReadableStream",
    "ReadableStreamDefaultReader",
    "ReadableStreamBYOBReader",
    "ReadableStreamBYOBRequest",
    "ReadableByteStreamController",
    "ReadableStreamDefaultController",
    "TransformStream",
    "TransformStreamDefaultController",
    "WritableStream",
    "WritableStreamDefaultWriter",
    "WritableStreamDefaultController",
    "ByteLengthQueuingStrategy",
    "CountQueuingStrategy",
  ],
  "ext:deno_web/08_text_encoding.js": ["TextEncoder", "TextDecoder", "TextEncoderStream", "TextDecoderStream"],
  "ext:deno_web/09_file.js": ["Blob", "File"],
  "ext:deno_web/13_message_port.js": ["MessageChannel", "MessagePort"],
  "ext:deno_web/01_broadcast_channel.js": ["BroadcastChannel"],
  "ext:deno_web/14_compression.js": ["CompressionStream", "DecompressionStream"],
  "ext:deno_web/15_performance.js": [
    "Performance",
    "PerformanceEntry",
    "PerformanceMark",
    "PerformanceMeasure",
  ],
  "ext:deno_fetch/20_headers.js": ["Headers"],
  "ext:deno_fetch/21_formdata.js": ["FormData"],
  "ext:deno_fetch/23_request.js": ["Request"],
  "ext:deno_fetch/23_response.js": ["Response"],
  "ext:deno_crypto/00_crypto.js": ["Crypto", "CryptoKey", "SubtleCrypto"],
};

/** Node's enumerable globals that are plain values there. */
const ENUMERABLE_FUNCTIONS = {
  "ext:deno_web/02_structured_clone.js": ["structuredClone"],
  "ext:deno_web/05_base64.js": ["atob", "btoa"],
  "ext:deno_fetch/26_fetch.js": ["fetch"],
};

const NODE_TIMERS = ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate"];

function lazyGlobal(name, load, { enumerable = false, getter = false } = {}) {
  defineProperty(globalThis, name, {
    __proto__: null,
    configurable: true,
    enumerable,
    get() {
      const value = load();
      defineProperty(
        globalThis,
        name,
        getter
          ? { __proto__: null, configurable: true, enumerable, get: () => value, set: (replacement) => replaceWith(name, replacement, enumerable) }
          : { __proto__: null, configurable: true, enumerable, writable: true, value },
      );
      return value;
    },
    set(value) {
      replaceWith(name, value, enumerable);
    },
  });
}

function replaceWith(name, value, enumerable) {
  defineProperty(globalThis, name, { __proto__: null, configurable: true, enumerable, writable: true, value });
}

/**
 * Installs the globals. `nodeModule(name)` is the `node:` module's
 * namespace; `navigatorFacts` what `navigator` reports; `timerHooks` let
 * the host tie a timer's callback to the code that set it (`wrap`) and
 * cancel it with that code (`adopt`).
 */
export function installGlobals(core, { nodeModule, navigatorFacts, console, timerHooks }) {
  const load = (specifier, name) => () => fixGlobal(name, core.loadExtScript(specifier)[name], core);
  for (const [specifier, names] of Object.entries(WEB)) {
    for (const name of names) lazyGlobal(name, load(specifier, name));
  }
  for (const [specifier, names] of Object.entries(ENUMERABLE_FUNCTIONS)) {
    for (const name of names) lazyGlobal(name, load(specifier, name), { enumerable: true });
  }
  // A function that loads node:timers on its first call, so that
  // `typeof setTimeout` or passing it around costs nothing.
  for (const name of NODE_TIMERS) {
    let implementation;
    const scheduling = !name.startsWith("clear");
    const clear = name.replace("set", "clear");
    const deferred = {
      [name](callback, ...args) {
        implementation ??= nodeModule("timers")[name];
        if (!scheduling || typeof callback !== "function") return apply(implementation, this, withFirst(callback, args));
        const handle = apply(implementation, this, withFirst(timerHooks.wrap(callback), args));
        timerHooks.adopt(() => nodeModule("timers")[clear](handle));
        return handle;
      },
    }[name];
    Object.defineProperty(globalThis, name, { __proto__: null, configurable: true, enumerable: true, writable: true, value: deferred });
  }
  lazyGlobal("WebSocket", () => core.createLazyLoader("ext:deno_websocket/01_websocket.js")().WebSocket);
  lazyGlobal("process", () => nodeModule("process").default, { getter: true });
  lazyGlobal("Buffer", () => nodeModule("buffer").Buffer, { getter: true });
  lazyGlobal("performance", () => performanceWithOrigin(core), {
    enumerable: true,
    getter: true,
  });
  lazyGlobal("crypto", () => core.loadExtScript("ext:deno_crypto/00_crypto.js").crypto, {
    enumerable: true,
    getter: true,
  });
  lazyGlobal("navigator", () => navigator(navigatorFacts), { enumerable: true, getter: true });
  Object.defineProperty(globalThis, "global", { __proto__: null, configurable: true, enumerable: true, writable: true, value: globalThis });
  Object.defineProperty(globalThis, "console", { __proto__: null, configurable: true, enumerable: false, writable: true, value: console });
}

function navigator({ hardwareConcurrency, language, platform, userAgent }) {
  class Navigator {
    get hardwareConcurrency() {
      return hardwareConcurrency;
    }
    get language() {
      return language;
    }
    get languages() {
      return [language];
    }
    get platform() {
      return platform;
    }
    get userAgent() {
      return userAgent;
    }
  }
  Object.defineProperty(globalThis, "Navigator", { __proto__: null, configurable: true, writable: true, value: Navigator });
  return new Navigator();
}
