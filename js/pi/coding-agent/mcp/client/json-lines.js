// MCP's stdio framing: each JSON-RPC message is one line on the server's
// stdout. Chunks of a line are kept apart until its newline arrives, so a
// large message read in many pieces is joined (and decoded) once. Stderr is
// not protocol: only its last bytes are kept, to explain a failure.
import { Buffer } from "node:buffer";
import { toJsonRpcMessage } from "./jsonrpc.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./transport-events.js";

const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export class JsonLineReader {
  #onMessage;
  #onError;
  #onStderr;
  #maxMessageBytes;
  #maxStderrBytes;
  #partial = [];
  #partialBytes = 0;
  #stderrTail = Buffer.alloc(0);

  constructor({ onMessage, onError, onStderr, maxMessageBytes, maxStderrBytes }) {
    this.#onMessage = onMessage;
    this.#onError = onError;
    this.#onStderr = onStderr;
    this.#maxMessageBytes = maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxStderrBytes = maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
  }

  /** The kept end of stderr, as text. */
  get stderr() {
    return this.#stderrTail.toString("utf8");
  }

  readStdout(chunk) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let offset = 0;
    for (;;) {
      const newline = bytes.indexOf(NEWLINE, offset);
      if (newline === -1) {
        this.#keepPartial(bytes.subarray(offset));
        return;
      }
      let line = bytes.subarray(offset, newline);
      offset = newline + 1;
      if (this.#partial.length > 0) {
        line = Buffer.concat([...this.#partial, line], this.#partialBytes + line.length);
        this.#partial = [];
        this.#partialBytes = 0;
      }
      this.#deliver(line);
    }
  }

  readStderr(chunk) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let tail = Buffer.concat([this.#stderrTail, bytes]);
    if (tail.length > this.#maxStderrBytes) tail = tail.subarray(tail.length - this.#maxStderrBytes);
    this.#stderrTail = tail;
    this.#onStderr?.(bytes.toString("utf8"));
  }

  /** Stdout ended: an unterminated message is an error, not a message. */
  end() {
    const rest = Buffer.concat(this.#partial).toString("utf8");
    this.#partial = [];
    this.#partialBytes = 0;
    if (rest.trim()) this.#onError(new Error("MCP stdio server closed with an incomplete JSON-RPC message"));
  }

  #keepPartial(bytes) {
    if (bytes.length > 0) {
      // A copy: the stream may reuse the chunk's memory.
      this.#partial.push(Buffer.from(bytes));
      this.#partialBytes += bytes.length;
    }
    if (this.#partialBytes > this.#maxMessageBytes) {
      this.#partial = [];
      this.#partialBytes = 0;
      this.#onError(new Error(`MCP stdio message exceeds ${this.#maxMessageBytes} bytes`));
    }
  }

  #deliver(line) {
    if (line.length > this.#maxMessageBytes) {
      this.#onError(new Error(`MCP stdio message exceeds ${this.#maxMessageBytes} bytes`));
      return;
    }
    const text = line.toString("utf8").replace(/\r$/, "");
    if (!text.trim()) return;
    // A listener that throws is reported like a bad line, not left to break the stream.
    try {
      this.#onMessage(toJsonRpcMessage(JSON.parse(text)));
    } catch (error) {
      this.#onError(error);
    }
  }
}
