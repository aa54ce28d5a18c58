// What every MCP transport shares: listeners for incoming messages, errors
// and the close, registered before `start()` and removed by the function
// each registration returns. The close is announced once, however many
// paths (a dropped pipe, an explicit close) lead to it.
import { asError } from "./jsonrpc.js";

/** Messages larger than this are refused rather than buffered. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export class TransportListeners {
  #message = new Set();
  #error = new Set();
  #close = new Set();
  #closed = false;

  onMessage(listener) {
    this.#message.add(listener);
    return () => this.#message.delete(listener);
  }

  onError(listener) {
    this.#error.add(listener);
    return () => this.#error.delete(listener);
  }

  onClose(listener) {
    this.#close.add(listener);
    return () => this.#close.delete(listener);
  }

  emitMessage(message) {
    for (const listener of this.#message) listener(message);
  }

  emitError(error) {
    const normalized = asError(error);
    for (const listener of this.#error) listener(normalized);
  }

  emitClose() {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#close) listener();
  }
}
