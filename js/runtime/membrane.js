// The membrane between the main runtime and a guest (an extension with a
// grant of its own, src/platform/guests.rs): values cross as JSON text and
// no function or object of one realm is ever reachable from the other.
//
// Data is copied. A function becomes a handle: calling it on the other side
// asks this side to call it (the main runtime calls guest functions
// asynchronously, the guest calls main-runtime functions synchronously). An
// object that is more than data (getters, methods, a class instance: `ctx`,
// `ctx.ui`, the runtime) crosses from the main runtime as a handle too, seen
// in the guest as a proxy whose every property is read when used, so `ctx`
// stays live as in pi. A promise crosses as a handle settled later.
//
// Both sides load this module in their own realm; it keeps its intrinsics
// from before any extension ran (its own, and primordials.js's).
import {
  ArrayFromEntries,
  ArrayFromValues,
  JSONParse,
  JSONStringify,
  NumberIsFinite,
  Promise,
  SafeMap,
  SafeSet,
  SafeWeakMap,
} from "pihost:runtime/primordials.js";

const { isArray } = Array;
const { getPrototypeOf, getOwnPropertyDescriptors, getOwnPropertySymbols, keys: objectKeys } = Object;
const ObjectPrototype = Object.prototype;
const keyFor = Symbol.keyFor;
const symbolFor = Symbol.for;
const promiseThen = Promise.prototype.then;
/** The built-in classes of what crosses (extensions' own maps and sets). */
const MapCtor = Map;
const SetCtor = Set;
const mapSet = Map.prototype.set;
const setAdd = Set.prototype.add;
const ErrorCtor = Error;
const apply = Reflect.apply;

/**
 * `list` mapped by `each`, by index: what another extension of this realm
 * did to `Array.prototype` must not see or change what crosses.
 */
function mapped(list, each) {
  const result = [];
  for (let index = 0; index < list.length; index++) result[index] = each(list[index]);
  return result;
}

/** Every stand-in for a function of another realm, in this realm. */
const standIns = new WeakSet();

/**
 * Whether `fn` stands for a function of another realm (an isolated
 * extension's): it answers with a promise, so it cannot be a component's
 * factory or renderer, which the screen calls synchronously.
 */
export function isFromAnotherRealm(fn) {
  return typeof fn === "function" && standIns.has(fn);
}

/** A value that is only data: nothing in it runs when it is read. */
function isPlainRecord(value) {
  const prototype = getPrototypeOf(value);
  return prototype === ObjectPrototype || prototype === null;
}

function hasAccessors(value) {
  const descriptors = getOwnPropertyDescriptors(value);
  const keys = objectKeys(descriptors);
  for (let index = 0; index < keys.length; index++) {
    if (descriptors[keys[index]].get || descriptors[keys[index]].set) return true;
  }
  return false;
}

/**
 * What this side handed to the other: handle → `{ target, holder, sent }`
 * (`sent` counts the times it crossed). A function read off an object is a
 * handle of its own per holder, so that calling it keeps the holder as `this`.
 */
function createExportTable() {
  let nextHandle = 1;
  const exported = new SafeMap();
  /** target → handle, for functions with no holder and for objects. */
  const exportedIds = new SafeWeakMap();
  /** holder → Map(function → handle), for methods read off an object. */
  const methodIds = new SafeWeakMap();

  return {
    /** A handle that is not a target's (a promise's). */
    newHandle: () => nextHandle++,
    /** Whether `target` crossed already (and is not forgotten). */
    has: (target) => exportedIds.get(target) !== undefined,
    /** The handle of `target` (read off `holder`), counted as crossing once more. */
    handleOf(target, holder) {
      let id;
      if (holder !== undefined && typeof target === "function") {
        let methods = methodIds.get(holder);
        if (!methods) {
          methods = new SafeMap();
          methodIds.set(holder, methods);
        }
        id = methods.get(target);
        if (id === undefined) {
          id = nextHandle++;
          methods.set(target, id);
          exported.set(id, { target, holder, sent: 0 });
        }
        exported.get(id).sent++;
        return id;
      }
      id = exportedIds.get(target);
      if (id === undefined) {
        id = nextHandle++;
        exportedIds.set(target, id);
        exported.set(id, { target, holder: undefined, sent: 0 });
      }
      exported.get(id).sent++;
      return id;
    },
    /** The other side let go of `count` of the times `id` crossed; once all, it is forgotten here. */
    release(id, count) {
      const entry = exported.get(id);
      if (!entry) return;
      entry.sent -= count;
      if (entry.sent > 0) return;
      exported.delete(id);
      if (entry.holder !== undefined) methodIds.get(entry.holder)?.delete(entry.target);
      else exportedIds.delete(entry.target);
    },
    /** The entry of a handle the other side names; one that is not this side's is refused. */
    entry(id) {
      const entry = exported.get(id);
      if (!entry) throw new ReferenceError(`pihost: the isolated extension used a handle that is not its (${id})`);
      return entry;
    },
  };
}

/**
 * What the other side handed to this one: a stand-in per handle, held
 * weakly. A stand-in nobody holds any more releases what it stands for on
 * the other side (`sendRelease(handle, times received)`), which otherwise
 * would keep every context it ever handed over.
 */
function createImportTable(sendRelease) {
  /** handle → a weak reference to the stand-in. */
  const imported = new SafeMap();
  /** handle → how many times the other side sent it. */
  const received = new SafeMap();
  /** stand-in → handle, so that a stand-in sent back arrives as the original. */
  const importedIds = new SafeWeakMap();
  /**
   * signal handle → a weak reference to this side's copy of an AbortSignal
   * of the other side; the copy holds its controller, so both go once
   * nothing here holds the signal.
   */
  const signalCopies = new SafeMap();
  const releases =
    typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry((id) => {
          if (imported.get(id)?.deref() !== undefined) return;
          const count = received.get(id) ?? 0;
          imported.delete(id);
          received.delete(id);
          signalCopies.delete(id);
          if (count > 0) sendRelease(id, count);
        })
      : undefined;

  return {
    signalCopies,
    /** The handle a stand-in stands for, if it is one. */
    handleOf: (standIn) => importedIds.get(standIn),
    /** The stand-in for `id`, made by `make` when none is alive. */
    standIn(id, make) {
      received.set(id, (received.get(id) ?? 0) + 1);
      let stand = imported.get(id)?.deref();
      if (!stand) {
        stand = make();
        imported.set(id, new WeakRef(stand));
        importedIds.set(stand, id);
        releases?.register(stand, id);
      }
      return stand;
    },
  };
}

/**
 * One side of a membrane. `remoteCall(handle, args, self)` calls a function
 * of the other side; `remoteObject(handle)` makes the stand-in of an
 * object of the other side; `onSettle(promiseId, outcome)` sends a
 * promise's outcome. `objectsAsHandles`: whether objects that are more than
 * data cross as handles (the main runtime's side) or as copies (the guest's).
 * Values are encoded (`encode`) and decoded (`decode`) here; what crosses
 * by reference is kept in the export and import tables above.
 */
export function createMembrane({ remoteCall, remoteObject, sendSettle, sendAbort, sendRelease, objectsAsHandles }) {
  const exports = createExportTable();
  const imports = createImportTable(sendRelease);
  const { signalCopies } = imports;
  /** promise handle → { resolve, reject } for promises of the other side. */
  const pendingPromises = new SafeMap();
  const controllerOf = Symbol("pihost.controller");
  const listenedTo = Symbol("pihost.listenedTo");
  const exportTarget = exports.handleOf;
  const target = exports.entry;

  function exportPromise(promise) {
    const id = exports.newHandle();
    apply(promiseThen, promise, [
      (value) => sendSettle(id, { ok: true, value: encode(value) }),
      (error) => sendSettle(id, { ok: false, error: encodeError(error) }),
    ]);
    return id;
  }

  function encodeError(error) {
    if (error instanceof ErrorCtor) {
      return { name: error.name, message: error.message, stack: error.stack, code: error.code };
    }
    return { thrown: encode(error) };
  }

  function decodeError(encoded) {
    if (encoded && "thrown" in encoded) return decode(encoded.thrown);
    const error = new ErrorCtor(encoded?.message ?? "pihost: an error crossed without a message");
    if (encoded?.name && encoded.name !== "Error") error.name = encoded.name;
    if (encoded?.stack) error.stack = encoded.stack;
    if (encoded?.code !== undefined) error.code = encoded.code;
    return error;
  }

  function encode(value, holder, seen = new SafeSet()) {
    switch (typeof value) {
      case "undefined":
        return { $: "u" };
      case "string":
      case "boolean":
        return value;
      case "number":
        return NumberIsFinite(value) ? value : { $: "n", v: String(value) };
      case "bigint":
        return { $: "b", v: String(value) };
      case "symbol":
        return { $: "s", v: keyFor(value) ?? value.description };
      case "function": {
        const back = imports.handleOf(value);
        if (back !== undefined) return { $: "own", id: back };
        return { $: "f", id: exportTarget(value, holder) };
      }
    }
    if (value === null) return null;
    const back = imports.handleOf(value);
    if (back !== undefined) return { $: "own", id: back };
    if (seen.has(value)) throw new TypeError("pihost: a value with a cycle cannot cross to or from an isolated extension");
    if (typeof value.then === "function") return { $: "p", id: exportPromise(value) };
    if (value instanceof ErrorCtor) return { $: "e", v: encodeError(value) };
    if (value instanceof Uint8Array) return { $: "bytes", v: mapped(value, (byte) => byte) };
    if (value instanceof Date) return { $: "d", v: value.getTime() };
    // A signal crosses as a real AbortSignal of the other realm (fetch
    // checks), aborted when this one is.
    if (objectsAsHandles && value instanceof AbortSignal) {
      const known = exports.has(value);
      const id = exportTarget(value);
      if (!known && !value.aborted) {
        value.addEventListener("abort", () => sendAbort(id, encode(value.reason)), { once: true });
      }
      return { $: "signal", id, aborted: value.aborted, reason: value.aborted ? encode(value.reason) : undefined };
    }
    seen.add(value);
    try {
      if (isArray(value)) return { $: "a", v: mapped(value, (item) => encode(item, undefined, seen)) };
      // The main runtime's maps and sets are live state (flag values): handles.
      if (objectsAsHandles && (value instanceof MapCtor || value instanceof SetCtor)) return { $: "r", id: exportTarget(value) };
      if (value instanceof MapCtor) {
        return {
          $: "map",
          v: mapped(ArrayFromEntries(value), (entry) => [encode(entry[0], undefined, seen), encode(entry[1], undefined, seen)]),
        };
      }
      if (value instanceof SetCtor) return { $: "set", v: mapped(ArrayFromValues(value), (item) => encode(item, undefined, seen)) };
      if (objectsAsHandles && (!isPlainRecord(value) || hasAccessors(value))) {
        return { $: "r", id: exportTarget(value) };
      }
      const fields = {};
      const keys = objectKeys(value);
      for (let index = 0; index < keys.length; index++) fields[keys[index]] = encode(value[keys[index]], value, seen);
      const encoded = { $: "o", v: fields };
      // TypeBox marks its schemas with registered symbols; they must survive.
      const symbols = getOwnPropertySymbols(value);
      for (let index = 0; index < symbols.length; index++) {
        const name = keyFor(symbols[index]);
        if (name !== undefined) (encoded.s ??= {})[name] = encode(value[symbols[index]], value, seen);
      }
      return encoded;
    } finally {
      seen.delete(value);
    }
  }

  function decode(value) {
    if (value === null || typeof value !== "object") return value;
    switch (value.$) {
      case "u":
        return undefined;
      case "n":
        return Number(value.v);
      case "b":
        return BigInt(value.v);
      case "s":
        return symbolFor(value.v);
      case "e":
        return decodeError(value.v);
      case "bytes":
        return new Uint8Array(value.v);
      case "d":
        return new Date(value.v);
      case "a":
        return mapped(value.v, decode);
      case "map": {
        const map = new MapCtor();
        for (let index = 0; index < value.v.length; index++) {
          apply(mapSet, map, [decode(value.v[index][0]), decode(value.v[index][1])]);
        }
        return map;
      }
      case "set": {
        const set = new SetCtor();
        for (let index = 0; index < value.v.length; index++) apply(setAdd, set, [decode(value.v[index])]);
        return set;
      }
      case "o": {
        const object = {};
        const keys = objectKeys(value.v);
        for (let index = 0; index < keys.length; index++) object[keys[index]] = decode(value.v[keys[index]]);
        if (value.s) {
          const names = objectKeys(value.s);
          for (let index = 0; index < names.length; index++) object[symbolFor(names[index])] = decode(value.s[names[index]]);
        }
        return object;
      }
      case "f":
        return imports.standIn(value.id, () => {
          const stand = function (...args) {
            return remoteCall(value.id, mapped(args, (arg) => encode(arg)));
          };
          standIns.add(stand);
          return stand;
        });
      case "r":
        return imports.standIn(value.id, () => remoteObject(value.id));
      case "own":
        return target(value.id).target;
      case "signal":
        return imports.standIn(value.id, () => {
          const controller = new AbortController();
          const { signal } = controller;
          signal[controllerOf] = controller;
          // Code that listens for the abort may still be settled by it.
          const addListener = signal.addEventListener;
          signal.addEventListener = function (type, ...rest) {
            if (type === "abort") signal[listenedTo] = true;
            const args = [type];
            for (let index = 0; index < rest.length; index++) args[index + 1] = rest[index];
            return apply(addListener, this, args);
          };
          signalCopies.set(value.id, new WeakRef(signal));
          if (value.aborted) controller.abort(decode(value.reason));
          return signal;
        });
      case "p":
        return new Promise((resolve, reject) => pendingPromises.set(value.id, { resolve, reject }));
      default:
        throw new TypeError(`pihost: an unknown value crossed from an isolated extension (${value.$})`);
    }
  }

  /** Settles a promise of the other side that this side holds. */
  function settle(id, outcome) {
    const pending = pendingPromises.get(id);
    if (!pending) return;
    pendingPromises.delete(id);
    if (outcome.ok) pending.resolve(decode(outcome.value));
    else pending.reject(decodeError(outcome.error));
  }

  /** Calls an exported function; answers what it returned (a promise stays one). */
  function invoke(id, encodedArgs) {
    const { target: fn, holder } = target(id);
    if (typeof fn !== "function") throw new TypeError("pihost: a handle that is not a function was called");
    return apply(fn, holder, mapped(encodedArgs, decode));
  }

  /** Reads, writes or lists a property of an exported object. */
  function objectOperation(object, request) {
    switch (request.op) {
      case "get":
        return object[request.key];
      case "set":
        object[request.key] = decode(request.value);
        return true;
      case "has":
        return request.key in object;
      case "keys": {
        const names = [];
        for (const key in object) names[names.length] = key;
        return names;
      }
      default:
        throw new TypeError(`pihost: an unknown operation on a handle (${request.op})`);
    }
  }

  /**
   * Answers a synchronous request of the other side (`{ op: "call", id,
   * args }`, or `get`/`set`/`has`/`keys` on an object): `{ ok, value }` or
   * `{ ok: false, error }`, encoded. A method read off an object keeps it as `this`.
   */
  function answerSync(request) {
    try {
      if (request.op === "call") return { ok: true, value: encode(invoke(request.id, request.args)) };
      const object = target(request.id).target;
      return { ok: true, value: encode(objectOperation(object, request), object) };
    } catch (error) {
      return { ok: false, error: encodeError(error) };
    }
  }

  /** Aborts this side's copy of a signal of the other side. */
  function abort(id, reason) {
    signalCopies.get(id)?.deref()?.[controllerOf].abort(decode(reason));
  }

  return {
    encode,
    decode,
    encodeError,
    decodeError,
    settle,
    invoke,
    answerSync,
    abort,
    release: exports.release,
    exportTarget,
    /** Whether promises of the other side are still pending here. */
    waitsOnOtherSide: () => pendingPromises.size > 0,
    /** Whether code here listens for the abort of a signal of the other side that has not come yet. */
    awaitsAnAbort: () => {
      for (const copy of signalCopies.values()) {
        const signal = copy.deref();
        if (signal && !signal.aborted && (signal[listenedTo] || signal.onabort != null)) return true;
      }
      return false;
    },
    toJson: JSONStringify,
    fromJson: JSONParse,
  };
}
