// node:readline for the pihost isolate: line-by-line reading of a stream
// (createInterface over a Readable, 'line' and 'close' events, question,
// async iteration) plus the ANSI cursor helpers. Only the non-terminal mode
// is implemented: pihost has no TTY, so `terminal: true` is accepted but
// behaves like `terminal: false` (no line editing, history or completion).
import EventEmitter from "./events.js";
import { AbortError, codedError, invalidArgType, isAbortSignal } from "./internal/errors.js";
import { StringDecoder } from "./string_decoder.js";

const kDecoder = Symbol("decoder");
const kLineBuffer = Symbol("lineBuffer");
const kSawReturnAt = Symbol("sawReturnAt");
const kPrompt = Symbol("prompt");
const kOldPrompt = Symbol("oldPrompt");
const kQuestionCallback = Symbol("questionCallback");
const kQuestionCancel = Symbol("questionCancel");
const kLineIterator = Symbol("lineIterator");
const kDetach = Symbol("detach");

const MIN_CRLF_DELAY = 100;

// Lines end at \n, \r\n or a lone \r.
const LINE_ENDING = /\r?\n|\r(?!\n)/g;

function nextTick(fn, ...args) {
  const tick = globalThis.process?.nextTick;
  if (typeof tick === "function") tick(fn, ...args);
  else queueMicrotask(() => fn(...args));
}

function useAfterClose() {
  return codedError(Error, "ERR_USE_AFTER_CLOSE", "readline was closed");
}

// What readline.Interface and readline/promises' Interface share; neither is
// an instance of the other, as in Node.
function InterfaceBase(input, output, completer, terminal) {
  EventEmitter.call(this);
  let options = { input, output, completer, terminal };
  if (input?.input) options = input;
  const { signal, prompt = "> " } = options;
  const { crlfDelay, historySize = 30 } = options;
  if (options.completer !== undefined && typeof options.completer !== "function") {
    throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", `The argument 'completer' is invalid. Received ${options.completer}`);
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidArgType("options.signal", "an instance of AbortSignal", signal);
  }
  if (typeof historySize !== "number" || Number.isNaN(historySize) || historySize < 0) {
    throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The argument 'historySize' is invalid. Received ${historySize}`);
  }

  this.isCompletionEnabled = true;
  this.escapeCodeTimeout = 500;
  this.tabSize = 8;
  this.line = "";
  this.output = options.output;
  this.input = options.input;
  this.history = [];
  this.historySize = historySize;
  this.removeHistoryDuplicates = Boolean(options.removeHistoryDuplicates);
  this.crlfDelay = crlfDelay ? Math.max(MIN_CRLF_DELAY, crlfDelay) : MIN_CRLF_DELAY;
  this.completer = options.completer;
  this.terminal = options.terminal === undefined ? Boolean(this.output?.isTTY) : Boolean(options.terminal);

  this[kPrompt] = prompt;
  this[kLineBuffer] = null;
  this[kSawReturnAt] = 0;
  this[kQuestionCallback] = null;
  this[kDecoder] = new StringDecoder("utf8");

  const inputStream = this.input;
  const ondata = (data) => this[kNormalWrite](data);
  const onend = () => {
    if (typeof this[kLineBuffer] === "string" && this[kLineBuffer].length > 0) this.emit("line", this[kLineBuffer]);
    this.close();
  };
  const onerror = (err) => this.emit("error", err);
  inputStream.on("error", onerror);
  inputStream.on("data", ondata);
  inputStream.on("end", onend);
  this[kDetach] = () => {
    inputStream.removeListener("data", ondata);
    inputStream.removeListener("error", onerror);
    inputStream.removeListener("end", onend);
  };
  this.once("close", () => this[kDetach]());

  if (signal) {
    const onAbort = () => this.close();
    if (signal.aborted) {
      nextTick(onAbort);
    } else {
      signal.addEventListener("abort", onAbort, { once: true });
      this.once("close", () => signal.removeEventListener("abort", onAbort));
    }
  }
  inputStream.resume();
}
Object.setPrototypeOf(InterfaceBase.prototype, EventEmitter.prototype);
Object.setPrototypeOf(InterfaceBase, EventEmitter);

const kNormalWrite = Symbol("normalWrite");
const kOnLine = Symbol("onLine");
const kWriteToOutput = Symbol("writeToOutput");

Object.defineProperty(InterfaceBase.prototype, "columns", {
  get() {
    return this.output?.columns || Infinity;
  },
  configurable: true,
});

InterfaceBase.prototype.setPrompt = function setPrompt(prompt) {
  this[kPrompt] = prompt;
};

InterfaceBase.prototype.getPrompt = function getPrompt() {
  return this[kPrompt];
};

InterfaceBase.prototype[kWriteToOutput] = function writeToOutput(text) {
  if (typeof text !== "string") throw invalidArgType("stringToWrite", "of type string", text);
  if (this.output !== null && this.output !== undefined) this.output.write(text);
};

InterfaceBase.prototype.prompt = function prompt() {
  if (this.paused) this.resume();
  this[kWriteToOutput](this[kPrompt]);
};

/** Writes `query` and calls back with the next line instead of emitting it. */
InterfaceBase.prototype.question = function question(query, options, cb) {
  cb = typeof options === "function" ? options : cb;
  if (options === null || typeof options !== "object") options = {};
  if (this.closed) throw useAfterClose();
  const { signal } = options;
  if (signal) {
    if (!isAbortSignal(signal)) throw invalidArgType("options.signal", "an instance of AbortSignal", signal);
    if (signal.aborted) return;
    const onAbort = () => this[kQuestionCancel]();
    signal.addEventListener("abort", onAbort, { once: true });
    const original = cb;
    cb = (answer) => {
      signal.removeEventListener("abort", onAbort);
      original(answer);
    };
  }
  if (typeof cb !== "function") return;
  if (this[kQuestionCallback]) {
    this.prompt();
  } else {
    this[kOldPrompt] = this[kPrompt];
    this.setPrompt(query);
    this[kQuestionCallback] = cb;
    this.prompt();
  }
};

// A cancelled question ends its prompt line.
InterfaceBase.prototype[kQuestionCancel] = function questionCancel() {
  if (this[kQuestionCallback]) {
    this[kQuestionCallback] = null;
    this.setPrompt(this[kOldPrompt]);
    this[kWriteToOutput]("\r\n");
    this.line = "";
    this.cursor = 0;
    this.prevRows = 0;
  }
};

InterfaceBase.prototype[kOnLine] = function onLine(line) {
  const callback = this[kQuestionCallback];
  if (callback) {
    this[kQuestionCallback] = null;
    this.setPrompt(this[kOldPrompt]);
    callback(line);
  } else {
    this.emit("line", line);
  }
};

// Splits incoming text into lines. A line may arrive across chunks; a \r at
// the end of one chunk and a \n at the start of the next count as one line
// ending when they arrive within crlfDelay.
InterfaceBase.prototype[kNormalWrite] = function normalWrite(data) {
  if (data === undefined) return;
  let text = this[kDecoder].write(data);
  if (this[kSawReturnAt] && Date.now() - this[kSawReturnAt] <= this.crlfDelay) {
    if (text.codePointAt(0) === 10) text = text.slice(1);
    this[kSawReturnAt] = 0;
  }
  LINE_ENDING.lastIndex = 0;
  if (!LINE_ENDING.test(text)) {
    if (text) this[kLineBuffer] = (this[kLineBuffer] ?? "") + text;
    return;
  }
  if (this[kLineBuffer]) {
    text = this[kLineBuffer] + text;
    this[kLineBuffer] = null;
  }
  this[kSawReturnAt] = text.endsWith("\r") ? Date.now() : 0;
  const lines = [];
  let start = 0;
  LINE_ENDING.lastIndex = 0;
  for (let match = LINE_ENDING.exec(text); match !== null; match = LINE_ENDING.exec(text)) {
    lines.push(text.slice(start, match.index));
    start = LINE_ENDING.lastIndex;
  }
  this[kLineBuffer] = text.slice(start);
  for (const line of lines) this[kOnLine](line);
};

InterfaceBase.prototype.write = function write(data) {
  if (this.paused) this.resume();
  this[kNormalWrite](data);
};

InterfaceBase.prototype.pause = function pause() {
  if (this.paused) return;
  this.input.pause();
  this.paused = true;
  this.emit("pause");
  return this;
};

InterfaceBase.prototype.resume = function resume() {
  if (!this.paused) return;
  this.input.resume();
  this.paused = false;
  this.emit("resume");
  return this;
};

InterfaceBase.prototype.close = function close() {
  if (this.closed) return;
  this.pause();
  this.closed = true;
  this.emit("close");
};

InterfaceBase.prototype.getCursorPos = function getCursorPos() {
  const text = this[kPrompt] + this.line;
  return { rows: 0, cols: text.length };
};

// Explicit resource management is not in every engine (QuickJS lacks it).
if (typeof Symbol.dispose === "symbol") {
  InterfaceBase.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

/**
 * Lines as an async iterator. Lines are queued from the moment the iterator
 * is created (lines emitted before that are not seen); it ends when the
 * interface closes. Leaving the loop early stops the iteration but, as in
 * Node 22, does not close the interface.
 */
InterfaceBase.prototype[Symbol.asyncIterator] = function asyncIterator() {
  if (this[kLineIterator] === undefined) this[kLineIterator] = lineIterator(this);
  return this[kLineIterator];
};

function lineIterator(rl) {
  const queued = [];
  const waiting = [];
  let finished = false;
  let failure;
  const onLine = (line) => {
    if (waiting.length) waiting.shift().resolve({ value: line, done: false });
    else queued.push(line);
  };
  const onClose = () => {
    finished = true;
    detach();
    for (const waiter of waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  };
  const onError = (err) => {
    failure = err;
    detach();
    for (const waiter of waiting.splice(0)) waiter.reject(err);
  };
  const detach = () => {
    rl.removeListener("line", onLine);
    rl.removeListener("close", onClose);
    rl.removeListener("error", onError);
  };
  rl.on("line", onLine);
  rl.on("close", onClose);
  rl.on("error", onError);
  const iterator = {
    next() {
      if (queued.length) return Promise.resolve({ value: queued.shift(), done: false });
      if (failure) {
        const err = failure;
        failure = undefined;
        finished = true;
        return Promise.reject(err);
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      finished = true;
      queued.length = 0;
      detach();
      for (const waiter of waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      finished = true;
      detach();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return iterator;
}

/**
 * readline.Interface(input[, output[, completer[, terminal]]]) or
 * Interface(options). Callable without `new`, as in Node.
 */
export function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  InterfaceBase.call(this, input, output, completer, terminal);
}
Object.setPrototypeOf(Interface.prototype, InterfaceBase.prototype);
Object.setPrototypeOf(Interface, InterfaceBase);

export function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

// ---------------------------------------------------------------- cursor helpers

const CSI = (text) => `\u001b[${text}`;

function writeControl(stream, data, callback) {
  if (stream === null || stream === undefined) {
    if (typeof callback === "function") nextTick(callback, null);
    return true;
  }
  return stream.write(data, callback);
}

/** Clears the current line: dir < 0 left of the cursor, > 0 right of it, 0 all. */
export function clearLine(stream, dir, callback) {
  if (callback !== undefined && typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
  const type = dir < 0 ? CSI("1K") : dir > 0 ? CSI("0K") : CSI("2K");
  return writeControl(stream, type, callback);
}

export function clearScreenDown(stream, callback) {
  if (callback !== undefined && typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
  return writeControl(stream, CSI("0J"), callback);
}

export function cursorTo(stream, x, y, callback) {
  if (callback !== undefined && typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
  if (typeof y === "function") {
    callback = y;
    y = undefined;
  }
  if (Number.isNaN(x)) throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'x' is invalid. Received NaN");
  if (Number.isNaN(y)) throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'y' is invalid. Received NaN");
  if (stream == null || (typeof x !== "number" && typeof y !== "number")) {
    if (typeof callback === "function") nextTick(callback, null);
    return true;
  }
  const data = typeof y !== "number" ? CSI(`${x + 1}G`) : CSI(`${y + 1};${x + 1}H`);
  return stream.write(data, callback);
}

export function moveCursor(stream, dx, dy, callback) {
  if (callback !== undefined && typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
  if (stream == null || !(dx || dy)) {
    if (typeof callback === "function") nextTick(callback, null);
    return true;
  }
  let data = "";
  if (dx < 0) data += CSI(`${-dx}D`);
  else if (dx > 0) data += CSI(`${dx}C`);
  if (dy < 0) data += CSI(`${-dy}A`);
  else if (dy > 0) data += CSI(`${dy}B`);
  return stream.write(data, callback);
}

// ---------------------------------------------------------------- keypress events

const kKeypressDecoder = Symbol("keypressDecoder");

const ARROWS = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };
const TILDE_KEYS = { 1: "home", 2: "insert", 3: "delete", 4: "end", 5: "pageup", 6: "pagedown", 7: "home", 8: "end" };

// A small key decoder: printable characters, control keys, arrows and the
// common "ESC [ n ~" keys. Function keys and modifier combinations beyond
// ctrl/meta/shift on letters are reported with name undefined.
function* decodeKeys(text) {
  for (let i = 0; i < text.length; ) {
    const ch = text[i];
    const key = { sequence: ch, name: undefined, ctrl: false, meta: false, shift: false };
    if (ch === "\u001b" && (text[i + 1] === "[" || text[i + 1] === "O")) {
      const match = /^\u001b[[O](\d*)(?:;(\d+))?([A-Za-z~])/.exec(text.slice(i));
      if (match) {
        key.sequence = match[0];
        key.code = match[0].slice(1);
        key.name = match[3] === "~" ? TILDE_KEYS[match[1]] : ARROWS[match[3]];
        const modifier = (Number(match[2]) || 1) - 1;
        key.shift = Boolean(modifier & 1);
        key.meta = Boolean(modifier & 10);
        key.ctrl = Boolean(modifier & 4);
        i += match[0].length;
        yield [undefined, key];
        continue;
      }
    }
    if (ch === "\u001b" && i + 1 < text.length) {
      const next = text[i + 1];
      key.sequence = ch + next;
      key.meta = true;
      key.name = /[a-z]/.test(next) ? next : /[A-Z]/.test(next) ? next.toLowerCase() : undefined;
      key.shift = /[A-Z]/.test(next);
      i += 2;
      yield [undefined, key];
      continue;
    }
    i += 1;
    if (ch === "\r") key.name = "return";
    else if (ch === "\n") key.name = "enter";
    else if (ch === "\t") key.name = "tab";
    else if (ch === "\b" || ch === "\u007f") key.name = "backspace";
    else if (ch === "\u001b") key.name = "escape";
    else if (ch === " ") key.name = "space";
    else if (ch <= "\u001a") {
      key.name = String.fromCharCode(ch.charCodeAt(0) + 96);
      key.ctrl = true;
    } else if (/[a-z0-9]/.test(ch)) key.name = ch;
    else if (/[A-Z]/.test(ch)) {
      key.name = ch.toLowerCase();
      key.shift = true;
    }
    yield [ch, key];
  }
}

/** Makes `stream` emit 'keypress' (character, key) events for its input. */
export function emitKeypressEvents(stream) {
  if (stream[kKeypressDecoder]) return;
  const decoder = new StringDecoder("utf8");
  stream[kKeypressDecoder] = decoder;
  const onData = (data) => {
    if (stream.listenerCount("keypress") === 0) return;
    const text = decoder.write(data);
    for (const [character, key] of decodeKeys(text)) stream.emit("keypress", character, key);
  };
  const onNewListener = (event) => {
    if (event === "keypress") {
      stream.on("data", onData);
      stream.removeListener("newListener", onNewListener);
    }
  };
  if (stream.listenerCount("keypress") > 0) stream.on("data", onData);
  else stream.on("newListener", onNewListener);
}

// ---------------------------------------------------------------- promises

/** The readline/promises Interface: question() returns a promise. */
class PromisesInterface extends InterfaceBase {
  question(query, options = {}) {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(useAfterClose());
        return;
      }
      let callback = resolve;
      const signal = options?.signal;
      if (signal !== undefined) {
        if (!isAbortSignal(signal)) {
          reject(invalidArgType("options.signal", "an instance of AbortSignal", signal));
          return;
        }
        if (signal.aborted) {
          reject(new AbortError(undefined, { cause: signal.reason }));
          return;
        }
        const onAbort = () => {
          this[kQuestionCancel]();
          reject(new AbortError(undefined, { cause: signal.reason }));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        callback = (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        };
      }
      InterfaceBase.prototype.question.call(this, query, callback);
    });
  }
}
Object.defineProperty(PromisesInterface, "name", { value: "Interface" });

/** readline/promises Readline: queues cursor actions until commit(). */
class Readline {
  #stream;
  #todo = [];
  #autoCommit;

  constructor(stream, options = undefined) {
    if (!stream || typeof stream.write !== "function") throw invalidArgType("stream", "an instance of Writable", stream);
    this.#stream = stream;
    this.#autoCommit = Boolean(options?.autoCommit);
  }

  #queue(data) {
    if (this.#autoCommit) this.#stream.write(data);
    else this.#todo.push(data);
    return this;
  }

  cursorTo(x, y = undefined) {
    if (typeof x !== "number" || Number.isNaN(x)) throw invalidArgType("x", "of type number", x);
    return this.#queue(typeof y === "number" ? CSI(`${y + 1};${x + 1}H`) : CSI(`${x + 1}G`));
  }

  moveCursor(dx, dy) {
    if (dx || dy) {
      let data = "";
      if (dx < 0) data += CSI(`${-dx}D`);
      else if (dx > 0) data += CSI(`${dx}C`);
      if (dy < 0) data += CSI(`${-dy}A`);
      else if (dy > 0) data += CSI(`${dy}B`);
      this.#queue(data);
    }
    return this;
  }

  clearLine(dir) {
    return this.#queue(dir < 0 ? CSI("1K") : dir > 0 ? CSI("0K") : CSI("2K"));
  }

  clearScreenDown() {
    return this.#queue(CSI("0J"));
  }

  commit() {
    const data = this.#todo.join("");
    this.#todo = [];
    return new Promise((resolve) => this.#stream.write(data, resolve));
  }

  rollback() {
    this.#todo = [];
    return this;
  }
}

function createPromisesInterface(input, output, completer, terminal) {
  return new PromisesInterface(input, output, completer, terminal);
}

export const promises = {
  Interface: PromisesInterface,
  Readline,
  createInterface: createPromisesInterface,
};

export default {
  Interface,
  clearLine,
  clearScreenDown,
  createInterface,
  cursorTo,
  emitKeypressEvents,
  moveCursor,
  promises,
};
