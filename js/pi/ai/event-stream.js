// pi-ai's event streams: a producer pushes events, any number of consumers
// iterate them (each event goes to exactly one consumer, in push order), and
// `result()` settles with the value of the completing event or of `end()`.
// Consumers see the same sequence and the same microtask timing as pi's
// streams, because extensions written against pi may depend on either.

/** A FIFO that stays O(1) per operation without Array#shift. */
class Queue {
  #items = [];
  #head = 0;

  get length() {
    return this.#items.length - this.#head;
  }

  add(item) {
    this.#items.push(item);
  }

  take() {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head += 1;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    }
    return item;
  }
}

export class EventStream {
  #buffered = new Queue();
  #waiters = new Queue();
  #settle;
  #finalResult;
  #isComplete;
  #extractResult;

  constructor(isComplete, extractResult) {
    // A public field, as in pi: subclasses check it.
    this.done = false;
    this.#isComplete = isComplete;
    this.#extractResult = extractResult;
    this.#finalResult = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  push(event) {
    if (this.done) return;
    if (this.#isComplete(event)) {
      this.done = true;
      this.#settle(this.#extractResult(event));
    }
    const waiter = this.#waiters.take();
    if (waiter) waiter({ value: event, done: false });
    else this.#buffered.add(event);
  }

  end(result) {
    this.done = true;
    // Without a result, result() stays pending unless an event completed it.
    if (result !== undefined) this.#settle(result);
    while (this.#waiters.length > 0) this.#waiters.take()({ value: undefined, done: true });
  }

  async *[Symbol.asyncIterator]() {
    for (;;) {
      if (this.#buffered.length > 0) {
        yield this.#buffered.take();
        continue;
      }
      if (this.done) return;
      const next = await new Promise((resolve) => this.#waiters.add(resolve));
      if (next.done) return;
      yield next.value;
    }
  }

  result() {
    return this.#finalResult;
  }
}

function finalMessage(event) {
  if (event.type === "done") return event.message;
  if (event.type === "error") return event.error;
  throw new Error("Unexpected event type for final result");
}

/**
 * The events of one assistant response. The final message (of the `done` or
 * `error` event, or given to `end()`) gets `durationMs` from a monotonic
 * clock started with the stream, unless it has one already or its timestamp
 * is older than the stream (a response that started elsewhere).
 */
export class AssistantMessageEventStream extends EventStream {
  #createdAt = Date.now();
  #createdAtMonotonic = performance.now();

  constructor() {
    super((event) => event.type === "done" || event.type === "error", finalMessage);
  }

  push(event) {
    if (event.type === "done") this.#stamp(event.message);
    else if (event.type === "error") this.#stamp(event.error);
    super.push(event);
  }

  end(result) {
    if (result !== undefined) this.#stamp(result);
    super.end(result);
  }

  #stamp(message) {
    if (this.done || message.durationMs !== undefined || message.timestamp < this.#createdAt) return;
    message.durationMs = Math.max(0, Math.round(performance.now() - this.#createdAtMonotonic));
  }
}

/** An empty AssistantMessageEventStream, for providers written in extensions. */
export function createAssistantMessageEventStream() {
  return new AssistantMessageEventStream();
}
