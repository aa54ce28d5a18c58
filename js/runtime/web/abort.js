// AbortController and AbortSignal (WHATWG DOM), with Node's error wording.
import { Event, EventTarget, defineEventHandler, kTrusted } from "./event-target.js";
import { DOMException } from "./dom-exception.js";
import { codedError, invalidArgType, invalidThis, outOfRange } from "../../node/internal/errors.js";

// Only this module may construct signals; `new AbortSignal()` is illegal.
const kConstruct = Symbol("AbortSignal.construct");

const abortedError = () => new DOMException("This operation was aborted", "AbortError");

// Privileged access to AbortSignal internals, set up in its static block.
let isSignal;
let signalAbort;
let linkDependent;

export class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  // For a signal made by AbortSignal.any: the signals it follows. For any
  // other signal: the AbortSignal.any results that follow it.
  #sources = null;
  #dependents = null;

  constructor(key = undefined) {
    if (key !== kConstruct) throw codedError(TypeError, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor");
    super();
  }

  static #check(signal) {
    if (!isSignal(signal)) throw invalidThis("AbortSignal");
  }

  get aborted() {
    AbortSignal.#check(this);
    return this.#aborted;
  }

  get reason() {
    AbortSignal.#check(this);
    return this.#reason;
  }

  throwIfAborted() {
    AbortSignal.#check(this);
    if (this.#aborted) throw this.#reason;
  }

  static abort(reason = abortedError()) {
    const signal = new AbortSignal(kConstruct);
    signal.#aborted = true;
    signal.#reason = reason;
    return signal;
  }

  static timeout(delay) {
    if (typeof delay !== "number") throw invalidArgType("delay", "of type number", delay);
    if (!Number.isInteger(delay)) throw outOfRange("delay", "an integer", delay);
    if (delay < 0 || delay > 0xffffffff) throw outOfRange("delay", ">= 0 && <= 4294967295", delay);
    const signal = new AbortSignal(kConstruct);
    const timer = setTimeout(() => {
      signalAbort(signal, new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    }, delay);
    // A pending timeout must not keep the host busy, as in Node.
    timer?.unref?.();
    return signal;
  }

  static any(signals) {
    if (signals === null || typeof signals !== "object" || typeof signals[Symbol.iterator] !== "function") {
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "Value can not be converted to sequence.");
    }
    const list = [...signals];
    list.forEach((signal, index) => {
      if (!isSignal(signal)) throw invalidArgType(`signals[${index}]`, "an instance of AbortSignal", signal);
    });
    const result = new AbortSignal(kConstruct);
    const already = list.find((signal) => signal.#aborted);
    if (already) {
      result.#aborted = true;
      result.#reason = already.#reason;
      return result;
    }
    result.#sources = new Set();
    for (const signal of list) {
      // Following a composite means following what it follows, so chains of
      // any() stay one level deep.
      for (const source of signal.#sources ?? [signal]) linkDependent(source, result);
    }
    return result;
  }

  static {
    isSignal = (value) => value !== null && typeof value === "object" && #aborted in value;

    linkDependent = (source, dependent) => {
      if (source.#aborted) return;
      (source.#dependents ??= new Set()).add(dependent);
      dependent.#sources.add(source);
    };

    signalAbort = (signal, reason) => {
      if (signal.#aborted) return;
      // The spec marks every dependent aborted before any listener runs, so
      // a listener on one signal already sees the others aborted.
      const dependents = [...(signal.#dependents ?? [])].filter((dependent) => !dependent.#aborted);
      for (const target of [signal, ...dependents]) {
        target.#aborted = true;
        target.#reason = reason;
      }
      for (const target of [signal, ...dependents]) {
        for (const source of target.#sources ?? []) source.#dependents?.delete(target);
        target.#sources = null;
        target.#dependents = null;
        target.dispatchEvent(new Event("abort", { [kTrusted]: true }));
      }
    };
  }
}

defineEventHandler(AbortSignal.prototype, "abort");

export class AbortController {
  #signal = new AbortSignal(kConstruct);

  get signal() {
    return this.#signal;
  }

  abort(reason = abortedError()) {
    signalAbort(this.#signal, reason);
  }
}

for (const name of ["aborted", "onabort"]) Object.defineProperty(AbortSignal.prototype, name, { enumerable: true });
for (const name of ["signal", "abort"]) Object.defineProperty(AbortController.prototype, name, { enumerable: true });
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: "AbortSignal", configurable: true });
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: "AbortController", configurable: true });
