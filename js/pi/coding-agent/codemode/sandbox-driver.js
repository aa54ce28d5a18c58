// The first code of a codemode sandbox: a runtime of its own, on a thread of
// its own, made for one script (src/ops/codemode_sandbox.rs). Evaluated as a
// classic script before the prelude and the script exist, it takes the only
// two ways out (the ops to the runtime that started the script), then removes
// every global the language does not have, so that the script sees a world
// like pi's QuickJS VM: the built-ins, and what the prelude adds.
//
// It evaluates to a function the sandbox calls once, with the prelude (a
// compiled function, see prelude.js), the script (a compiled function, or the
// JSON of its compile error) and the scope the prelude builds its globals
// from. It then drives the script the way script-vm.js drives pi's VM: the
// host's answers to tool calls arrive one by one, and after each the
// promise jobs run out before the stall check.
//
// Messages to the host are JSON text, in script-vm.js's shapes:
//   { type: "call", target, id, name, args }, { type: "output", item },
//   { type: "done", ok, value, writes } / { type: "done", ok: false, error },
//   { type: "crash", message }.
(() => {
  "use strict";
  const { ops } = globalThis.Deno.core;
  const post = ops.op_codemode_post;
  const nextAnswer = ops.op_codemode_next_answer;
  const turn = ops.op_codemode_turn;
  const { stringify } = JSON;
  const { parse } = JSON;

  // What pi's VM has beyond the language (quickjs-wasi): kept where this
  // engine has them too.
  const KEPT = new Set(["globalThis", "queueMicrotask", "atob", "btoa", "performance", "DOMException"]);
  const isLanguage = (name) => KEPT.has(name) || LANGUAGE.has(name);
  const LANGUAGE = new Set([
    "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "BigInt", "BigInt64Array",
    "BigUint64Array", "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError",
    "FinalizationRegistry", "Float16Array", "Float32Array", "Float64Array", "Function", "Infinity",
    "Int16Array", "Int32Array", "Int8Array", "InternalError", "Iterator", "JSON", "Map", "Math", "NaN",
    "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set",
    "SharedArrayBuffer", "String", "SuppressedError", "Symbol", "SyntaxError", "TypeError", "URIError",
    "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet",
    "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "isFinite",
    "isNaN", "parseFloat", "parseInt", "undefined", "unescape",
  ]);
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (!isLanguage(name)) delete globalThis[name];
  }
  for (const symbol of Object.getOwnPropertySymbols(globalThis)) {
    if (symbol !== Symbol.toStringTag) delete globalThis[symbol];
  }

  // The name src/ops/codemode_sandbox.rs evaluates this file as.
  const DRIVER_FILE = "pihost:codemode/sandbox-driver.js";

  // Stack frames as QuickJS writes them, which is what pi's scripts see:
  // frames only (no "Name: message" head), `at name (file:line:column)`,
  // `<anonymous>` for a nameless function, `(native)` for a built-in. This
  // engine writes the head in front of them (V8's way); the prelude's
  // errorText() leaves it out again.
  // The driver's own frames are left out, as pi's VM has none.
  const frameText = (site) => {
    const name = site.getFunctionName() || "<anonymous>";
    const file = site.getFileName();
    if (file === DRIVER_FILE) return "";
    if (!file || site.isNative()) return `    at ${name} (native)`;
    return `    at ${name} (${file}:${site.getLineNumber()}:${site.getColumnNumber()})`;
  };
  // Assigned, not defined: the engine keeps the function behind an accessor.
  Error.prepareStackTrace = (_error, sites) => {
    let text = "";
    for (let index = 0; index < sites.length; index++) {
      const frame = frameText(sites[index]);
      if (frame) text += `${frame}\n`;
    }
    return text;
  };

  const send = (message) => post(stringify(message));
  const text = (value) => (value === undefined ? undefined : String(value));

  /** One bridge call of the prelude, as script-vm.js turns it into a message. */
  function bridge(kind, a, b, c) {
    switch (kind) {
      case "call":
      case "global":
        send({ type: "call", target: kind === "call" ? "tool" : "global", id: Number(a), name: String(b), args: text(c) });
        return;
      case "output":
        if (a === "image") send({ type: "output", item: { type: "image", data: String(b), mimeType: String(c) } });
        else send({ type: "output", item: a === "console" ? { type: "text", text: String(b), console: true } : { type: "text", text: String(b) } });
        return;
      case "done":
        if (a) send({ type: "done", ok: true, value: text(b), writes: String(c) });
        else send({ type: "done", ok: false, error: String(b) });
        return;
    }
  }

  return async (prelude, script, scopeJson) => {
    const scope = parse(scopeJson);
    let settled = false;
    const reportingBridge = (kind, a, b, c) => {
      if (kind === "done") settled = true;
      bridge(kind, a, b, c);
    };
    const driver = prelude(reportingBridge, stringify(scope.tools), stringify(scope.globals), stringify(scope.store));
    if (typeof script === "string") {
      send({ type: "done", ok: false, error: script });
      return;
    }
    driver.start(script);
    for (;;) {
      // An op that completes on a later turn of the event loop: by then every
      // promise job the last step queued has run.
      await turn();
      if (!settled) driver.checkStalled();
      if (settled) return;
      const answer = await nextAnswer();
      if (answer === null) return;
      const { id, ok, payload } = parse(answer);
      driver.resolveCall(id, ok, payload);
    }
  };
})();
