// The built-ins pihost's runtime uses, captured before any extension runs.
//
// pihost's runtime and every extension share one realm. An extension that
// replaces `JSON.parse`, `Array.prototype.push`, `Map.prototype.get`,
// `Promise.prototype.then` or `Function.prototype.call` (a buggy polyfill, or
// on purpose) would otherwise change every answer pihost gives the host about
// every other extension. The runtime's modules import this one, so it is
// evaluated with them at start-up, before the loader runs any extension; they
// use what it kept instead of what the globals hold by then.
//
// How the runtime's code is written because of it:
// - Methods are uncurried and take their receiver first:
//   `ArrayPrototypeSlice(list, 1)` calls the original `slice` on `list`.
// - Arrays are walked with index loops. `for…of`, spread (`[...list]`,
//   `f(...args)`) and array destructuring (`const [a, b] = pair`) all call
//   `Array.prototype[Symbol.iterator]` and its `next`, which anyone can
//   replace. `ReflectApply(fn, self, args)` passes a list without them.
// - The runtime's own maps and sets are SafeMap and SafeSet: their methods,
//   `size` and iterators are own properties of a frozen prototype. Their
//   entries are read by index (`entry[0]`), never destructured.
// - Promises are chained with `PromisePrototypeThen`. `.catch` and `.finally`
//   call `this.then` even when captured, so they are built on it here.
//   `await` of a native promise reaches no method (unless
//   `Promise.prototype.constructor` itself was replaced); an async function
//   that returns a promise looks up its `then`, so the runtime awaits first.
//
// What this does not cover, and why:
// - `Array.prototype.constructor` and `Array[Symbol.species]`: the original
//   `slice`, `map`, `filter`, `splice` and `flatMap` still read them to make
//   their result. The dispatch path copies with index loops where it can.
// - `Promise.prototype.constructor` and `Promise[Symbol.species]`, which
//   `await` and the original `then` read.
// - RegExp.prototype (`exec`, `[Symbol.replace]`, …), which the original
//   string methods call when given a regular expression; properties added to
//   Object.prototype, which every read of a missing property sees.
// - Globals the platform installs on first use (`performance`,
//   `AbortController`, `crypto`, …) and `console`: pihost uses the ones
//   extensions see. structuredClone is the exception (StructuredClone).
// - Code outside js/runtime: pi's packages (js/pi) and the platform
//   (js/platform), and the engine itself, whose own helpers call the global
//   `Array.prototype.map` (stack traces) and `Promise.resolve(…).then`
//   (dynamic import).
import { core } from "./ops.js";

const { bind, call } = Function.prototype;

/**
 * `uncurryThis(method)(self, ...args)` is `self.method(...args)` with the
 * original method: a bound `call`, which looks nothing up when it runs.
 */
const uncurryThis = bind.bind(call);
const bindTo = uncurryThis(bind);

// --- Reflect, Object, JSON, Math, Number, Symbol -------------------------

export const ReflectApply = Reflect.apply;
export const ReflectGet = Reflect.get;
export const ReflectSet = Reflect.set;
const ReflectOwnKeys = Reflect.ownKeys;
const ReflectDefineProperty = Reflect.defineProperty;
const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;

export const ObjectAssign = Object.assign;
export const ObjectCreate = Object.create;
/** What an object literal inherits from. */
export const ObjectPrototype = Object.prototype;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectDefineProperties = Object.defineProperties;
export const ObjectFreeze = Object.freeze;
export const ObjectGetOwnPropertyDescriptors = Object.getOwnPropertyDescriptors;
export const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
export const ObjectGetPrototypeOf = Object.getPrototypeOf;
export const ObjectHasOwn = Object.hasOwn;
export const ObjectKeys = Object.keys;
export const ObjectValues = Object.values;

export const JSONParse = JSON.parse;
export const JSONStringify = JSON.stringify;

export const MathFloor = Math.floor;
export const MathMax = Math.max;
export const MathMin = Math.min;

export const NumberIsFinite = Number.isFinite;
export const NumberIsInteger = Number.isInteger;

export const SymbolFor = Symbol.for;
const SymbolIterator = Symbol.iterator;

// --- Array, String ---------------------------------------------------------

export const ArrayIsArray = Array.isArray;
const ArrayPrototype = Array.prototype;
export const ArrayPrototypeEvery = uncurryThis(ArrayPrototype.every);
export const ArrayPrototypeFilter = uncurryThis(ArrayPrototype.filter);
export const ArrayPrototypeFind = uncurryThis(ArrayPrototype.find);
export const ArrayPrototypeFlatMap = uncurryThis(ArrayPrototype.flatMap);
export const ArrayPrototypeIncludes = uncurryThis(ArrayPrototype.includes);
export const ArrayPrototypeIndexOf = uncurryThis(ArrayPrototype.indexOf);
export const ArrayPrototypeJoin = uncurryThis(ArrayPrototype.join);
export const ArrayPrototypeMap = uncurryThis(ArrayPrototype.map);
export const ArrayPrototypePop = uncurryThis(ArrayPrototype.pop);
export const ArrayPrototypeReverse = uncurryThis(ArrayPrototype.reverse);
export const ArrayPrototypeSlice = uncurryThis(ArrayPrototype.slice);
export const ArrayPrototypeSome = uncurryThis(ArrayPrototype.some);
export const ArrayPrototypeSort = uncurryThis(ArrayPrototype.sort);
export const ArrayPrototypeSplice = uncurryThis(ArrayPrototype.splice);
export const ArrayPrototypeUnshift = uncurryThis(ArrayPrototype.unshift);

const StringPrototype = String.prototype;
export const StringPrototypeEndsWith = uncurryThis(StringPrototype.endsWith);
export const StringPrototypeIncludes = uncurryThis(StringPrototype.includes);
export const StringPrototypeLastIndexOf = uncurryThis(StringPrototype.lastIndexOf);
export const StringPrototypeReplace = uncurryThis(StringPrototype.replace);
export const StringPrototypeReplaceAll = uncurryThis(StringPrototype.replaceAll);
export const StringPrototypeSlice = uncurryThis(StringPrototype.slice);
export const StringPrototypeSplit = uncurryThis(StringPrototype.split);
export const StringPrototypeStartsWith = uncurryThis(StringPrototype.startsWith);
export const StringPrototypeToLowerCase = uncurryThis(StringPrototype.toLowerCase);
export const StringPrototypeTrim = uncurryThis(StringPrototype.trim);

/** `[...left, ...right]` without the array iterator. */
export function ArrayConcat(left, right) {
  const result = ArrayPrototypeSlice(left);
  for (let index = 0; index < right.length; index++) result[result.length] = right[index];
  return result;
}

/** `list.push(...items)` without the array iterator. */
export function ArrayPushAll(list, items) {
  for (let index = 0; index < items.length; index++) list[list.length] = items[index];
  return list.length;
}

// --- Promise ---------------------------------------------------------------

const NativePromise = Promise;
export { NativePromise as Promise };
export const PromisePrototypeThen = uncurryThis(NativePromise.prototype.then);
/** `Promise.resolve(value)` with the original constructor and method. */
export const PromiseResolve = bindTo(NativePromise.resolve, NativePromise);
export const PromiseReject = bindTo(NativePromise.reject, NativePromise);

/** `promise.catch(onRejected)`: the original looks up `then` on the promise. */
export function PromisePrototypeCatch(promise, onRejected) {
  return PromisePrototypeThen(promise, undefined, onRejected);
}

/** `promise.finally(onFinally)` for an `onFinally` that returns nothing to wait for. */
export function PromisePrototypeFinally(promise, onFinally) {
  return PromisePrototypeThen(
    promise,
    (value) => {
      onFinally();
      return value;
    },
    (error) => {
      onFinally();
      throw error;
    },
  );
}

/** The engine's job queue (deno_core's, or Node's under the compat driver). */
export const queueMicrotask = globalThis.queueMicrotask;

/**
 * structuredClone from deno_web's own module, not the global an extension
 * may replace. The global loads that module on first use; so does this.
 */
// (Under Node, where the pi-packages differential stands in a few of
// Deno.core's ops, the global is Node's own.)
let cloneImplementation = typeof core?.loadExtScript === "function" ? undefined : globalThis.structuredClone;
export function StructuredClone(value) {
  cloneImplementation ??= core.loadExtScript("ext:deno_web/02_structured_clone.js").structuredClone;
  return cloneImplementation(value);
}

// --- Safe collections ------------------------------------------------------

/**
 * An iterator over a map or set whose `next` is the original one: a
 * replaced `%MapIteratorPrototype%.next` cannot see or change the walk.
 */
function safeIteratorClass(nativeNext) {
  class SafeIterator {
    #iterator;
    constructor(iterator) {
      this.#iterator = iterator;
    }
    next() {
      return nativeNext(this.#iterator);
    }
    [SymbolIterator]() {
      return this;
    }
  }
  ObjectFreeze(SafeIterator.prototype);
  return SafeIterator;
}

/**
 * Gives `Safe.prototype` own copies of every method and accessor of
 * `Native.prototype` (its iterators wrapped in `SafeIterator`), then freezes
 * it: lookups stop there, before reaching the prototype extensions can change.
 */
function makeSafe(Native, Safe, SafeIterator) {
  const prototype = Native.prototype;
  const iterating = [prototype.entries, prototype.keys, prototype.values];
  const keys = ReflectOwnKeys(prototype);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index];
    if (key === "constructor") continue;
    const descriptor = ReflectGetOwnPropertyDescriptor(prototype, key);
    if (typeof descriptor.value === "function" && ArrayPrototypeIncludes(iterating, descriptor.value)) {
      const method = uncurryThis(descriptor.value);
      descriptor.value = {
        [key]() {
          return new SafeIterator(method(this));
        },
      }[key];
    }
    ReflectDefineProperty(Safe.prototype, key, descriptor);
  }
  ObjectFreeze(Safe.prototype);
  ObjectFreeze(Safe);
  return Safe;
}

const NativeMap = Map;
const NativeSet = Set;
const NativeWeakMap = WeakMap;
const MapPrototypeForEach = uncurryThis(NativeMap.prototype.forEach);
const SetPrototypeForEach = uncurryThis(NativeSet.prototype.forEach);
const SafeMapIterator = safeIteratorClass(uncurryThis(ObjectGetPrototypeOf(new NativeMap().entries()).next));
const SafeSetIterator = safeIteratorClass(uncurryThis(ObjectGetPrototypeOf(new NativeSet().values()).next));

const MapPrototypeSet = uncurryThis(NativeMap.prototype.set);

/**
 * Calls `each(first, second)` for every entry of `source` (a map or set
 * of any kind, an array of entries, or another iterable) without the
 * iterators anyone can replace: `[key, value]` for maps and entry lists,
 * the value twice for sets and other lists.
 */
function forEachEntry(source, each, pairs) {
  if (source instanceof NativeMap) {
    MapPrototypeForEach(source, (value, key) => each(key, value));
  } else if (source instanceof NativeSet) {
    SetPrototypeForEach(source, (value) => each(value, value));
  } else if (ArrayIsArray(source)) {
    for (let index = 0; index < source.length; index++) {
      const item = source[index];
      if (pairs) each(item[0], item[1]);
      else each(item, item);
    }
  } else {
    for (const item of source) {
      if (pairs) each(item[0], item[1]);
      else each(item, item);
    }
  }
}

// The safe classes are named after the built-ins they stand for: code that
// reads `constructor.name` (pi's, pi-packages' goldens) sees a Map or a Set.

/** A Map whose methods and iterators are the originals, whatever happens to Map.prototype. */
export const SafeMap = makeSafe(
  NativeMap,
  class Map extends NativeMap {
    constructor(entries) {
      super();
      if (entries !== undefined && entries !== null) forEachEntry(entries, (key, value) => this.set(key, value), true);
    }
  },
  SafeMapIterator,
);

/** A Set whose methods and iterators are the originals, whatever happens to Set.prototype. */
export const SafeSet = makeSafe(
  NativeSet,
  class Set extends NativeSet {
    constructor(values) {
      super();
      if (values !== undefined && values !== null) forEachEntry(values, (value) => this.add(value), false);
    }
  },
  SafeSetIterator,
);

/** A WeakMap whose methods are the originals. */
export const SafeWeakMap = makeSafe(
  NativeWeakMap,
  class WeakMap extends NativeWeakMap {
    constructor() {
      super();
    }
  },
  undefined,
);

/**
 * A plain Map (what extensions are given: it must be the Map they know)
 * holding `source`'s entries, filled without the methods anyone can replace.
 */
export function NativeMapOf(source) {
  const map = new NativeMap();
  if (source !== undefined && source !== null) forEachEntry(source, (key, value) => MapPrototypeSet(map, key, value), true);
  return map;
}

/** The values of `collection` (a map or set of any kind) as an array, in order. */
export function ArrayFromValues(collection) {
  const values = [];
  forEachEntry(collection, (_key, value) => {
    values[values.length] = value;
  }, true);
  return values;
}

/** The keys of `map` (a map of any kind) as an array, in order. */
export function ArrayFromKeys(map) {
  const keys = [];
  forEachEntry(map, (key) => {
    keys[keys.length] = key;
  }, true);
  return keys;
}

/** The `[key, value]` entries of `map` as an array, in order. */
export function ArrayFromEntries(map) {
  const entries = [];
  forEachEntry(map, (key, value) => {
    entries[entries.length] = [key, value];
  }, true);
  return entries;
}
