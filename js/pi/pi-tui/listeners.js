// The part of Node's EventEmitter that pi-tui's emitting classes are used
// through: named events, listeners called in the order they subscribed.

export class Listeners {
  #byEvent = new Map();

  on(event, listener) {
    const listeners = this.#byEvent.get(event) ?? [];
    this.#byEvent.set(event, [...listeners, listener]);
    return this;
  }

  addListener(event, listener) {
    return this.on(event, listener);
  }

  once(event, listener) {
    const once = (...args) => {
      this.off(event, once);
      listener.apply(this, args);
    };
    once.listener = listener;
    return this.on(event, once);
  }

  off(event, listener) {
    const listeners = this.#byEvent.get(event);
    if (!listeners) return this;
    const index = listeners.findLastIndex((entry) => entry === listener || entry.listener === listener);
    if (index === -1) return this;
    const rest = listeners.filter((_, i) => i !== index);
    if (rest.length === 0) this.#byEvent.delete(event);
    else this.#byEvent.set(event, rest);
    return this;
  }

  removeListener(event, listener) {
    return this.off(event, listener);
  }

  removeAllListeners(event) {
    if (event === undefined) this.#byEvent.clear();
    else this.#byEvent.delete(event);
    return this;
  }

  listeners(event) {
    return (this.#byEvent.get(event) ?? []).map((entry) => entry.listener ?? entry);
  }

  listenerCount(event) {
    return this.#byEvent.get(event)?.length ?? 0;
  }

  eventNames() {
    return [...this.#byEvent.keys()];
  }

  /** Calls the event's listeners; an "error" nobody listens to is thrown, as Node does. */
  emit(event, ...args) {
    const listeners = this.#byEvent.get(event);
    if (!listeners) {
      if (event === "error") throw args[0] instanceof Error ? args[0] : new Error(`Unhandled error. (${args[0]})`);
      return false;
    }
    for (const listener of listeners) listener.apply(this, args);
    return true;
  }
}
