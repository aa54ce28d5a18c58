// Messages an agent holds back until the loop asks for them: steering
// (delivered after the current turn) and follow-ups (delivered when the run
// would end). In "all" mode a poll takes everything queued; in
// "one-at-a-time" mode just the oldest message.
export class MessageQueue {
  messages = [];
  mode;

  constructor(mode) {
    this.mode = mode;
  }

  enqueue(message) {
    this.messages.push(message);
  }

  hasItems() {
    return this.messages.length > 0;
  }

  /** What the next drain would take, without taking it. */
  peek() {
    if (this.mode === "all") return this.messages.slice();
    const oldest = this.messages[0];
    return oldest ? [oldest] : [];
  }

  drain() {
    const taken = this.peek();
    this.messages = this.messages.slice(taken.length);
    return taken;
  }

  clear() {
    this.messages = [];
  }
}
