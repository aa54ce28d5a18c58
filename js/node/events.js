// Node-compatible EventEmitter for the pihost isolate. EventEmitter is a plain
// function rather than a class so that both `class X extends EventEmitter`
// and the pre-ES2015 `EventEmitter.call(this)` idiom keep working. State
// lives in the same `_events` / `_eventsCount` / `_maxListeners` fields Node
// uses, because some libraries read them directly.

/** Symbol for listeners that observe 'error' events without handling them. */
export const errorMonitor = Symbol("events.errorMonitor");
export const captureRejectionSymbol = Symbol.for("nodejs.rejection");
/** Exported for API parity; promise-rejection capture is not implemented. */
export const captureRejections = false;
export const usingDomains = false;
/** Live binding: kept in sync with `EventEmitter.defaultMaxListeners`. */
export let defaultMaxListeners = 10;

function describeReceived(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === "function") return ` Received function ${value.name}`;
  if (typeof value === "object") {
    const name = value.constructor?.name;
    return name ? ` Received an instance of ${name}` : " Received [Object: null prototype] {}";
  }
  let shown = inspectShallow(value);
  if (typeof value === "string" && value.length > 28) shown = `'${value.slice(0, 25)}...'`;
  return ` Received type ${typeof value} (${shown})`;
}

function typeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

function checkListener(listener) {
  if (typeof listener !== "function") {
    throw typeError("ERR_INVALID_ARG_TYPE", `The "listener" argument must be of type function.${describeReceived(listener)}`);
  }
}

function checkMaxListeners(n, name) {
  if (typeof n !== "number") {
    throw typeError("ERR_INVALID_ARG_TYPE", `The "${name}" argument must be of type number.${describeReceived(n)}`);
  }
  if (!(n >= 0)) {
    const err = new RangeError(`The value of "${name}" is out of range. It must be >= 0. Received ${n}`);
    err.code = "ERR_OUT_OF_RANGE";
    throw err;
  }
}

// A small stand-in for util.inspect, only used to build the message of the
// error thrown for unhandled non-Error 'error' events.
function inspectShallow(value, nested = false) {
  switch (typeof value) {
    case "string":
      return `'${value}'`;
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return `[Function: ${value.name || "(anonymous)"}]`;
    case "object":
      if (value === null) return "null";
      if (nested) return Array.isArray(value) ? "[Array]" : "[Object]";
      if (Array.isArray(value)) {
        return value.length === 0 ? "[]" : `[ ${value.map((v) => inspectShallow(v, true)).join(", ")} ]`;
      }
      {
        const keys = Object.keys(value);
        const body = keys.map((k) => `${k}: ${inspectShallow(value[k], true)}`).join(", ");
        return keys.length === 0 ? "{}" : `{ ${body} }`;
      }
    default:
      return String(value);
  }
}

// Lazily creates the listener table so that emitters whose constructor never
// ran EventEmitter (e.g. Object.create(EventEmitter.prototype)) still work.
function eventsOf(target) {
  let events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  }
  return events;
}

function warnLeak(target, type, list) {
  const max = target._maxListeners === undefined ? defaultMaxListeners : target._maxListeners;
  if (max <= 0 || list.length <= max || list.warned) return;
  list.warned = true;
  const err = new Error(
    `Possible EventEmitter memory leak detected. ${list.length} ${String(type)} listeners added to ` +
      `[${target.constructor?.name ?? "EventEmitter"}]. MaxListeners is ${max}. ` +
      "Use emitter.setMaxListeners() to increase limit",
  );
  err.name = "MaxListenersExceededWarning";
  err.emitter = target;
  err.type = type;
  err.count = list.length;
  if (typeof globalThis.process?.emitWarning === "function") globalThis.process.emitWarning(err);
  else console.warn(`${err.name}: ${err.message}`);
}

function insertListener(target, type, listener, prepend) {
  checkListener(listener);
  const events = eventsOf(target);
  // Announced before insertion so a 'newListener' handler that adds
  // listeners for the same event lands in front of this one, as in Node.
  if (events.newListener !== undefined) {
    target.emit("newListener", type, listener.listener ?? listener);
  }
  const list = target._events[type];
  if (list === undefined) {
    target._events[type] = [listener];
    target._eventsCount++;
  } else {
    if (prepend) list.unshift(listener);
    else list.push(listener);
    warnLeak(target, type, list);
  }
  return target;
}

function onceWrapper(target, type, listener) {
  const state = { fired: false, target, type, listener };
  function wrapped(...args) {
    // `fired` guards re-entrant emits that still hold a copy containing us.
    if (state.fired) return undefined;
    state.fired = true;
    state.target.removeListener(state.type, wrapped);
    return Reflect.apply(state.listener, state.target, args);
  }
  // Same name as Node's wrapper, for code and logs that look at it.
  Object.defineProperty(wrapped, "name", { value: "bound onceWrapper" });
  wrapped.listener = listener;
  return wrapped;
}

/**
 * Node's EventEmitter. Usable with `new`, `extends` and `EventEmitter.call(this)`.
 * @param {object} [options]
 */
export function EventEmitter(options) {
  EventEmitter.init.call(this, options);
}

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

/** Initializes emitter state on `this`; called by the constructor. */
EventEmitter.init = function init() {
  // An emitter used as a prototype (Child.prototype = new EventEmitter())
  // must not share its listener table with the objects built from it.
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
};

const proto = EventEmitter.prototype;

/**
 * Sets the per-emitter leak-warning threshold (0 = unlimited).
 * @param {number} n
 */
proto.setMaxListeners = function setMaxListeners(n) {
  checkMaxListeners(n, "setMaxListeners");
  this._maxListeners = n;
  return this;
};

/** @returns {number} the effective leak-warning threshold */
proto.getMaxListeners = function getMaxListeners() {
  return this._maxListeners === undefined ? defaultMaxListeners : this._maxListeners;
};

/**
 * Calls every listener of `type` synchronously.
 * @param {string|symbol} type
 * @param {...unknown} args
 * @returns {boolean} whether any listener existed
 */
proto.emit = function emit(type, ...args) {
  const events = this._events;
  let unhandledError = type === "error";
  if (events !== undefined) {
    if (unhandledError && events[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
    unhandledError = unhandledError && events.error === undefined;
  } else if (!unhandledError) {
    return false;
  }

  if (unhandledError) {
    const er = args[0];
    if (er instanceof Error) throw er;
    const err = new Error(`Unhandled error. (${inspectShallow(er)})`);
    err.code = "ERR_UNHANDLED_ERROR";
    err.context = er;
    throw err;
  }

  const list = events[type];
  if (list === undefined) return false;
  if (list.length === 1) {
    Reflect.apply(list[0], this, args);
  } else {
    // Snapshot: listeners added or removed by a listener only take effect
    // from the next emit.
    for (const listener of list.slice()) Reflect.apply(listener, this, args);
  }
  return true;
};

/**
 * Appends `listener` for `type`.
 * @param {string|symbol} type
 * @param {Function} listener
 */
proto.addListener = function addListener(type, listener) {
  return insertListener(this, type, listener, false);
};
proto.on = proto.addListener;

/**
 * Inserts `listener` at the front of the list for `type`.
 * @param {string|symbol} type
 * @param {Function} listener
 */
proto.prependListener = function prependListener(type, listener) {
  return insertListener(this, type, listener, true);
};

/**
 * Adds a listener that removes itself before its first call.
 * @param {string|symbol} type
 * @param {Function} listener
 */
proto.once = function once(type, listener) {
  checkListener(listener);
  return this.on(type, onceWrapper(this, type, listener));
};

/**
 * Like `once`, but inserted at the front.
 * @param {string|symbol} type
 * @param {Function} listener
 */
proto.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  return this.prependListener(type, onceWrapper(this, type, listener));
};

/**
 * Removes the most recently added matching listener (or its `once` wrapper).
 * @param {string|symbol} type
 * @param {Function} listener
 */
proto.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;

  let index = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i] === listener || (list[i].listener && list[i].listener === listener)) {
      index = i;
      break;
    }
  }
  if (index < 0) return this;
  const wasSingle = list.length === 1;
  const [removed] = list.splice(index, 1);
  if (list.length === 0) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else delete events[type];
  }
  if (this._events.removeListener !== undefined) {
    // Node reports the unwrapped function only when the event had a single
    // listener; otherwise it passes along whatever the caller removed (the
    // once-wrapper itself when a once listener fires). Kept for parity.
    this.emit("removeListener", type, wasSingle ? removed.listener || listener : listener);
  }
  return this;
};
proto.off = proto.removeListener;

/**
 * Removes all listeners, or all listeners of `type`.
 * @param {string|symbol} [type]
 */
proto.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;

  // Without 'removeListener' observers nobody can see the order, so skip
  // the one-by-one removal.
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }

  if (arguments.length === 0) {
    // 'removeListener' goes last so its listeners observe every removal.
    for (const key of Reflect.ownKeys(events)) {
      if (key !== "removeListener") this.removeAllListeners(key);
    }
    this.removeAllListeners("removeListener");
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }

  const list = events[type];
  if (list !== undefined) {
    // Last-in first-out, matching Node's notification order.
    // Iterates a snapshot because 'removeListener' observers may remove
    // other listeners while we go.
    const snapshot = list.slice();
    for (let i = snapshot.length - 1; i >= 0; i--) this.removeListener(type, snapshot[i]);
  }
  return this;
};

/**
 * Copy of the listeners for `type`, with `once` wrappers unwrapped.
 * @param {string|symbol} type
 * @returns {Function[]}
 */
proto.listeners = function listeners(type) {
  const list = this._events?.[type];
  return list === undefined ? [] : list.map((l) => l.listener || l);
};

/**
 * Copy of the listeners for `type`, including `once` wrappers.
 * @param {string|symbol} type
 * @returns {Function[]}
 */
proto.rawListeners = function rawListeners(type) {
  const list = this._events?.[type];
  return list === undefined ? [] : list.slice();
};

/**
 * Number of listeners for `type`, optionally only those matching `listener`.
 * @param {string|symbol} type
 * @param {Function} [listener]
 * @returns {number}
 */
proto.listenerCount = function listenerCount(type, listener) {
  const list = this._events?.[type];
  if (list === undefined) return 0;
  if (listener == null) return list.length;
  return list.filter((l) => l === listener || l.listener === listener).length;
};

/** @returns {(string|symbol)[]} events that currently have listeners */
proto.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

Object.defineProperty(EventEmitter, "defaultMaxListeners", {
  enumerable: true,
  get() {
    return defaultMaxListeners;
  },
  set(n) {
    checkMaxListeners(n, "defaultMaxListeners");
    defaultMaxListeners = n;
  },
});

function abortError(signal) {
  const err = new Error("The operation was aborted", { cause: signal?.reason });
  err.name = "AbortError";
  err.code = "ABORT_ERR";
  return err;
}

function checkSignal(signal) {
  if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
    throw typeError(
      "ERR_INVALID_ARG_TYPE",
      `The "options.signal" property must be an instance of AbortSignal.${describeReceived(signal)}`,
    );
  }
}

/**
 * Resolves with the arguments of the next `name` event; rejects if 'error'
 * fires first or `options.signal` aborts.
 * @param {EventEmitter|EventTarget} emitter
 * @param {string|symbol} name
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<unknown[]>}
 */
export async function once(emitter, name, options = {}) {
  const signal = options?.signal;
  checkSignal(signal);
  if (signal?.aborted) throw abortError(signal);

  return new Promise((resolvePromise, rejectPromise) => {
    const isEventTarget = typeof emitter.on !== "function" && typeof emitter.addEventListener === "function";
    const cleanup = () => {
      if (isEventTarget) emitter.removeEventListener(name, resolver);
      else {
        emitter.removeListener(name, resolver);
        if (name !== "error") emitter.removeListener("error", errorListener);
      }
      signal?.removeEventListener("abort", abortListener);
    };
    const resolver = (...args) => {
      cleanup();
      resolvePromise(isEventTarget ? [args[0]] : args);
    };
    const errorListener = (err) => {
      cleanup();
      rejectPromise(err);
    };
    const abortListener = () => {
      cleanup();
      rejectPromise(abortError(signal));
    };
    if (isEventTarget) {
      emitter.addEventListener(name, resolver, { once: true });
    } else {
      emitter.once(name, resolver);
      if (name !== "error") emitter.once("error", errorListener);
    }
    signal?.addEventListener("abort", abortListener, { once: true });
  });
}

/**
 * Copy of the listeners `emitter` has for `name`.
 * @param {EventEmitter} emitter
 * @param {string|symbol} name
 * @returns {Function[]}
 */
export function getEventListeners(emitter, name) {
  return emitter.listeners(name);
}

/**
 * @param {EventEmitter} emitter
 * @returns {number}
 */
export function getMaxListeners(emitter) {
  return emitter.getMaxListeners();
}

/**
 * Sets the threshold on each target, or the global default when none given.
 * @param {number} [n]
 * @param {...EventEmitter} targets
 */
export function setMaxListeners(n = defaultMaxListeners, ...targets) {
  checkMaxListeners(n, "n");
  if (targets.length === 0) defaultMaxListeners = n;
  else for (const target of targets) target.setMaxListeners(n);
}

/**
 * Deprecated static form of `emitter.listenerCount(type)`.
 * @param {EventEmitter} emitter
 * @param {string|symbol} type
 * @returns {number}
 */
export function listenerCount(emitter, type) {
  return emitter.listenerCount(type);
}

Object.assign(EventEmitter, {
  EventEmitter,
  once,
  getEventListeners,
  getMaxListeners,
  setMaxListeners,
  listenerCount,
  errorMonitor,
  captureRejectionSymbol,
  captureRejections,
  usingDomains,
});

export default EventEmitter;
