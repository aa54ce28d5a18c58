// Event, EventTarget and CustomEvent as Node implements the WHATWG DOM ones.
// There is no node tree: every dispatch happens at the target itself, so
// `capture` only distinguishes registrations and `bubbles` is informational.
import { codedError, invalidArgType, invalidArgValue, invalidThis, missingArgs } from "../../node/internal/errors.js";

const NONE = 0;
const CAPTURING_PHASE = 1;
const AT_TARGET = 2;
const BUBBLING_PHASE = 3;

// Lets abort.js create the trusted "abort" event without handing the power
// to user code: only modules that import this symbol can pass it.
export const kTrusted = Symbol("pihost.trustedEvent");

const now = () => (typeof performance === "object" && performance !== null ? performance.now() : Date.now());

/** Errors from listeners never interrupt a dispatch; they surface as uncaught, later. */
function reportLater(err) {
  queueMicrotask(() => {
    throw err;
  });
}

function checkEventInit(options) {
  if (options != null && (typeof options !== "object" || Array.isArray(options))) {
    throw invalidArgType("options", "of type object", options);
  }
}

// A Symbol type is refused with Node's wording; everything else becomes a string.
function eventTypeOf(type) {
  if (typeof type === "symbol") throw invalidArgValue("value", type);
  return `${type}`;
}

// Privileged access to Event internals for EventTarget, set up in Event's static block.
let isEvent;
let dispatchControl;

export class Event {
  #type;
  #bubbles;
  #cancelable;
  #composed;
  #trusted;
  #timeStamp = now();
  #canceled = false;
  #stopPropagation = false;
  #stopImmediate = false;
  #dispatching = false;
  #inPassiveListener = false;
  #target = null;
  #currentTarget = null;
  #phase = NONE;

  constructor(type, options = undefined) {
    if (arguments.length === 0) throw missingArgs("type");
    checkEventInit(options);
    this.#type = `${type}`;
    this.#bubbles = Boolean(options?.bubbles);
    this.#cancelable = Boolean(options?.cancelable);
    this.#composed = Boolean(options?.composed);
    this.#trusted = Boolean(options?.[kTrusted]);
  }

  static #check(event) {
    if (!isEvent(event)) throw invalidThis("Event");
  }

  initEvent(type, bubbles = false, cancelable = false) {
    Event.#check(this);
    if (arguments.length === 0) throw missingArgs("type");
    if (this.#dispatching) return;
    this.#type = `${type}`;
    this.#bubbles = Boolean(bubbles);
    this.#cancelable = Boolean(cancelable);
    this.#canceled = false;
  }

  stopImmediatePropagation() {
    Event.#check(this);
    this.#stopPropagation = true;
    this.#stopImmediate = true;
  }

  preventDefault() {
    Event.#check(this);
    if (this.#cancelable && !this.#inPassiveListener) this.#canceled = true;
  }

  get target() {
    Event.#check(this);
    return this.#target;
  }

  get currentTarget() {
    Event.#check(this);
    return this.#currentTarget;
  }

  get srcElement() {
    Event.#check(this);
    return this.#target;
  }

  get type() {
    Event.#check(this);
    return this.#type;
  }

  get cancelable() {
    Event.#check(this);
    return this.#cancelable;
  }

  get defaultPrevented() {
    Event.#check(this);
    return this.#canceled;
  }

  get timeStamp() {
    Event.#check(this);
    return this.#timeStamp;
  }

  composedPath() {
    Event.#check(this);
    return this.#dispatching ? [this.#currentTarget] : [];
  }

  get returnValue() {
    Event.#check(this);
    return !this.#canceled;
  }

  set returnValue(value) {
    Event.#check(this);
    if (!value) this.preventDefault();
  }

  get bubbles() {
    Event.#check(this);
    return this.#bubbles;
  }

  get composed() {
    Event.#check(this);
    return this.#composed;
  }

  get eventPhase() {
    Event.#check(this);
    return this.#phase;
  }

  get cancelBubble() {
    Event.#check(this);
    return this.#stopPropagation;
  }

  set cancelBubble(value) {
    Event.#check(this);
    if (value) this.#stopPropagation = true;
  }

  stopPropagation() {
    Event.#check(this);
    this.#stopPropagation = true;
  }

  // No brand check: like Node, any object simply is not trusted.
  get isTrusted() {
    return isEvent(this) && this.#trusted;
  }

  // EventTarget drives the dispatch state through these.
  static {
    isEvent = (value) => value !== null && typeof value === "object" && #type in value;
    dispatchControl = {
      begin(event, target) {
        if (event.#dispatching) {
          throw codedError(Error, "ERR_EVENT_RECURSION", `The event "${event.#type}" is already being dispatched`);
        }
        event.#dispatching = true;
        event.#target = target;
        event.#currentTarget = target;
        event.#phase = AT_TARGET;
      },
      end(event) {
        event.#dispatching = false;
        event.#currentTarget = null;
        event.#phase = NONE;
      },
      stoppedImmediately: (event) => event.#stopImmediate,
      setPassive(event, passive) {
        event.#inPassiveListener = passive;
      },
    };
  }
}

for (const [name, value] of Object.entries({ NONE, CAPTURING_PHASE, AT_TARGET, BUBBLING_PHASE })) {
  Object.defineProperty(Event, name, { value, enumerable: true });
}

export class CustomEvent extends Event {
  #detail;

  constructor(type, options = undefined) {
    if (arguments.length === 0) throw missingArgs("type");
    super(type, options);
    this.#detail = options?.detail ?? null;
  }

  get detail() {
    if (this === null || typeof this !== "object" || !(#detail in this)) throw invalidThis("CustomEvent");
    return this.#detail;
  }
}

/**
 * One registration. Registrations of a type form a linked list so that a
 * dispatch in progress sees listeners appended during it, and skips the
 * ones removed during it: a removed node keeps its `next`, so a walk that
 * stands on it can still move on.
 */
class Registration {
  constructor(listener, capture, once, passive) {
    this.listener = listener;
    this.capture = capture;
    this.once = once;
    this.passive = passive;
    this.removed = false;
    this.prev = null;
    this.next = null;
  }
}

function normalizeListenerOptions(options) {
  if (typeof options === "boolean") return { capture: options, once: false, passive: false, signal: undefined };
  if (options != null && typeof options !== "object" && typeof options !== "function") {
    throw invalidArgType("options", "of type object", options);
  }
  return {
    capture: Boolean(options?.capture),
    once: Boolean(options?.once),
    passive: Boolean(options?.passive),
    signal: options?.signal,
  };
}

function checkListener(listener) {
  if (listener == null || typeof listener === "function" || typeof listener === "object") return;
  throw invalidArgType("listener", "an instance of EventListener", listener);
}

function invoke(registration, target, event) {
  const { listener } = registration;
  let result;
  if (typeof listener === "function") {
    result = listener.call(target, event);
  } else {
    const handleEvent = listener.handleEvent;
    if (!handleEvent) return;
    result = Reflect.apply(handleEvent, listener, [event]);
  }
  // A listener that returns a promise rejects "into the void"; surface that as uncaught.
  if (result != null && typeof result.then === "function") {
    result.then(undefined, reportLater);
  }
}

let isEventTarget;

export class EventTarget {
  /** type -> { head, tail } of Registration nodes. */
  #lists = new Map();

  static #check(target) {
    if (!isEventTarget(target)) throw invalidThis("EventTarget");
  }

  static {
    isEventTarget = (value) => value !== null && typeof value === "object" && #lists in value;
  }

  addEventListener(type, listener, options = undefined) {
    EventTarget.#check(this);
    if (arguments.length < 2) throw missingArgs("type", "listener");
    const { capture, once, passive, signal } = normalizeListenerOptions(options);
    checkListener(listener);
    if (listener == null) return;
    const name = eventTypeOf(type);
    if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
      throw invalidArgType("options.signal", "an instance of AbortSignal", signal);
    }
    if (signal?.aborted) return;

    let list = this.#lists.get(name);
    if (!list) {
      list = { head: null, tail: null };
      this.#lists.set(name, list);
    }
    for (let node = list.head; node; node = node.next) {
      if (node.listener === listener && node.capture === capture) return;
    }
    const node = new Registration(listener, capture, once, passive);
    node.prev = list.tail;
    if (list.tail) list.tail.next = node;
    else list.head = node;
    list.tail = node;

    // Like Node, the abort removes whatever registration of this listener
    // exists then, even one re-added without the signal.
    if (signal) {
      signal.addEventListener("abort", () => this.removeEventListener(name, listener, { capture }), { once: true });
    }
  }

  removeEventListener(type, listener, options = undefined) {
    EventTarget.#check(this);
    if (arguments.length < 2) throw missingArgs("type", "listener");
    checkListener(listener);
    const name = eventTypeOf(type);
    const capture = typeof options === "boolean" ? options : Boolean(options?.capture);
    const list = this.#lists.get(name);
    if (!list) return;
    for (let node = list.head; node; node = node.next) {
      if (node.listener === listener && node.capture === capture) {
        EventTarget.#unlink(list, node);
        return;
      }
    }
  }

  static #unlink(list, node) {
    node.removed = true;
    if (node.prev) node.prev.next = node.next;
    else list.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else list.tail = node.prev;
  }

  dispatchEvent(event) {
    EventTarget.#check(this);
    if (arguments.length === 0) throw missingArgs("event");
    if (!isEvent(event)) throw invalidArgType("event", "an instance of Event", event);
    dispatchControl.begin(event, this);
    try {
      const list = this.#lists.get(event.type);
      let node = list?.head ?? null;
      while (node && !dispatchControl.stoppedImmediately(event)) {
        const current = node;
        node = node.next;
        if (current.removed) continue;
        if (current.once) EventTarget.#unlink(list, current);
        dispatchControl.setPassive(event, current.passive);
        try {
          invoke(current, this, event);
        } catch (err) {
          reportLater(err);
        } finally {
          dispatchControl.setPassive(event, false);
        }
      }
    } finally {
      dispatchControl.end(event);
    }
    return !event.defaultPrevented;
  }
}

/**
 * Defines the `on<type>` event-handler attribute on `prototype`. The
 * handler takes its place among the listeners when first set, and keeps
 * that place when it is replaced, as the DOM specifies.
 */
export function defineEventHandler(prototype, type) {
  const handlers = new WeakMap();
  Object.defineProperty(prototype, `on${type}`, {
    get() {
      if (!isEventTarget(this)) throw invalidThis("EventTarget");
      return handlers.get(this)?.value ?? null;
    },
    set(value) {
      if (!isEventTarget(this)) throw invalidThis("EventTarget");
      let slot = handlers.get(this);
      if (!slot) {
        slot = { value: null };
        handlers.set(this, slot);
        this.addEventListener(type, function (event) {
          // Unlike addEventListener, a handler attribute only ever calls functions.
          return typeof slot.value === "function" ? slot.value.call(this, event) : undefined;
        });
      }
      slot.value = value;
    },
    enumerable: true,
    configurable: true,
  });
}

// Node exposes these members as enumerable, unlike plain class members.
function markEnumerable(target, names) {
  for (const name of names) Object.defineProperty(target, name, { enumerable: true });
}

markEnumerable(Event.prototype, [
  "initEvent", "stopImmediatePropagation", "preventDefault", "target", "currentTarget", "srcElement", "type",
  "cancelable", "defaultPrevented", "timeStamp", "composedPath", "returnValue", "bubbles", "composed",
  "eventPhase", "cancelBubble", "stopPropagation", "isTrusted",
]);
// isTrusted is [LegacyUnforgeable] in the DOM spec.
Object.defineProperty(Event.prototype, "isTrusted", { configurable: false });
markEnumerable(CustomEvent.prototype, ["detail"]);
markEnumerable(EventTarget.prototype, ["addEventListener", "removeEventListener", "dispatchEvent"]);
for (const [Class, tag] of [[Event, "Event"], [CustomEvent, "CustomEvent"], [EventTarget, "EventTarget"]]) {
  Object.defineProperty(Class.prototype, Symbol.toStringTag, { value: tag, configurable: true });
}
