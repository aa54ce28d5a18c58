// node:stream for the pihost isolate: Readable, Writable, Duplex, Transform,
// PassThrough, pipeline and finished, written from Node's documentation and
// from observing Node 22 (event order, return values, error codes). State
// lives in `_readableState` / `_writableState` under Node's field names,
// because libraries read them. Not provided: compose, the web stream
// adapters (fromWeb/toWeb), Duplex.from for anything but streams and
// iterables.
import { Buffer } from "./buffer.js";
import EventEmitter from "./events.js";
import { AbortError, codedError, invalidArgType } from "./internal/errors.js";
import { StringDecoder } from "./string_decoder.js";

// ---------------------------------------------------------------- shared helpers

// process.nextTick where there is one (Node; the isolate maps it to
// queueMicrotask): stream callbacks must run after the current operation.
function nextTick(fn, ...args) {
  const tick = globalThis.process?.nextTick;
  if (typeof tick === "function") tick(fn, ...args);
  else queueMicrotask(() => fn(...args));
}

const nodeError = codedError;

const prematureClose = () => nodeError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close");
const destroyedError = (method) => nodeError(Error, "ERR_STREAM_DESTROYED", `Cannot call ${method} after a stream was destroyed`);
const multipleCallback = () => nodeError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times");
const notImplemented = (method) => nodeError(Error, "ERR_METHOD_NOT_IMPLEMENTED", `The ${method} method is not implemented`);

function once(fn) {
  let called = false;
  return function (...args) {
    if (called) return;
    called = true;
    return Reflect.apply(fn, this, args);
  };
}

const noop = () => {};

// The isolate has one Buffer; under Node (the differential test) the global
// Buffer is Node's own, whose instances count as buffers too.
const isBuffer = (value) =>
  Buffer.isBuffer(value) || (globalThis.Buffer !== Buffer && globalThis.Buffer?.isBuffer?.(value) === true);

// Buffer.from and concat copy, which keeps stream internals independent of
// how Buffer implements views and species.
function toBuffer(bytes) {
  return isBuffer(bytes) ? bytes : Buffer.from(bytes);
}

function sliceChunk(chunk, start, end = chunk.length) {
  if (typeof chunk === "string") return chunk.slice(start, end);
  return Buffer.from(new Uint8Array(chunk.buffer, chunk.byteOffset + start, end - start));
}

const ENCODINGS = new Set([
  "utf8", "utf-8", "ucs2", "ucs-2", "utf16le", "utf-16le", "latin1", "binary", "base64", "base64url", "hex", "ascii",
]);

const isEncoding = (encoding) => typeof encoding === "string" && ENCODINGS.has(encoding.toLowerCase());

function unknownEncoding(encoding) {
  return nodeError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
}

let defaultHighWaterMark = 64 * 1024;
let defaultObjectHighWaterMark = 16;

export function getDefaultHighWaterMark(objectMode) {
  return objectMode ? defaultObjectHighWaterMark : defaultHighWaterMark;
}

export function setDefaultHighWaterMark(objectMode, value) {
  if (!Number.isInteger(value) || value < 0) {
    throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "value" is out of range. It must be >= 0 && <= 9007199254740991. Received ${value}`);
  }
  if (objectMode) defaultObjectHighWaterMark = value;
  else defaultHighWaterMark = value;
}

function highWaterMarkFrom(options, duplexKey, isDuplex, objectMode) {
  let hwm = options?.highWaterMark;
  if (hwm == null && isDuplex) hwm = options?.[duplexKey];
  if (hwm == null) return getDefaultHighWaterMark(objectMode);
  if (!Number.isInteger(hwm) || hwm < 0) {
    const name = options?.highWaterMark != null ? "options.highWaterMark" : `options.${duplexKey}`;
    throw nodeError(TypeError, "ERR_INVALID_ARG_VALUE", `The property '${name}' is invalid. Received ${hwm}`);
  }
  return hwm;
}

// ---------------------------------------------------------------- destroy

function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const state = w || r;
  if (state?.destroyed) {
    if (typeof cb === "function") cb();
    return this;
  }
  recordError(err, w, r);
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  if (state && !state.constructed) {
    this.once(kDestroyAfterConstruct, (constructError) => runDestroy(this, constructError ?? err, cb));
  } else {
    runDestroy(this, err, cb);
  }
  return this;
}

const kDestroyAfterConstruct = Symbol("destroyAfterConstruct");

function recordError(err, w, r) {
  if (!err) return;
  if (w && !w.errored) w.errored = err;
  if (r && !r.errored) r.errored = err;
}

function runDestroy(stream, err, cb) {
  const onDestroyed = once((destroyError) => {
    const r = stream._readableState;
    const w = stream._writableState;
    recordError(destroyError, w, r);
    if (w) w.closed = true;
    if (r) r.closed = true;
    if (typeof cb === "function") cb(destroyError);
    if (destroyError) nextTick(emitErrorThenClose, stream, destroyError);
    else nextTick(emitClose, stream);
  });
  try {
    stream._destroy(err || null, onDestroyed);
  } catch (thrown) {
    onDestroyed(thrown);
  }
}

function emitErrorThenClose(stream, err) {
  emitError(stream, err);
  emitClose(stream);
}

function emitClose(stream) {
  const r = stream._readableState;
  const w = stream._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if (w?.emitClose || r?.emitClose) stream.emit("close");
}

function emitError(stream, err) {
  const r = stream._readableState;
  const w = stream._writableState;
  if (w?.errorEmitted || r?.errorEmitted) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  stream.emit("error", err);
}

// Streams that destroy themselves on error do so; others only report it.
function errorOrDestroy(stream, err, sync) {
  const r = stream._readableState;
  const w = stream._writableState;
  if (w?.destroyed || r?.destroyed) return;
  if (r?.autoDestroy || w?.autoDestroy) {
    stream.destroy(err);
  } else if (err) {
    recordError(err, w, r);
    if (sync) nextTick(emitError, stream, err);
    else emitError(stream, err);
  }
}

/**
 * Destroys anything stream-like: Node streams, requests, objects with
 * close(). A stream stopped before it finished gets an AbortError.
 */
function destroyAny(stream, err) {
  if (!stream || isDestroyed(stream)) return;
  if (!err && !isFinished(stream)) err = new AbortError();
  if (typeof stream.abort === "function" && typeof stream.setHeader === "function") stream.abort();
  else if (typeof stream.destroy === "function") stream.destroy(err);
  else if (typeof stream.close === "function") stream.close();
}

function constructStream(stream, afterConstruct) {
  if (typeof stream._construct !== "function") return;
  const r = stream._readableState;
  const w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  stream.once(kConstructed, afterConstruct);
  nextTick(() => {
    const done = once((err) => {
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      if (r?.destroyed || w?.destroyed) stream.emit(kDestroyAfterConstruct, err);
      else if (err) errorOrDestroy(stream, err, true);
      else nextTick(() => stream.emit(kConstructed));
    });
    try {
      stream._construct((err) => nextTick(done, err));
    } catch (err) {
      nextTick(done, err);
    }
  });
}

const kConstructed = Symbol("constructed");

// ---------------------------------------------------------------- constructors

// The stream classes are plain constructor functions, as in Node, so that
// pre-ES2015 subclasses (`util.inherits` plus `Readable.call(this)`) work;
// their methods are written as class bodies and copied over.
function defineMethods(Ctor, body) {
  for (const key of Reflect.ownKeys(body.prototype)) {
    if (key === "constructor") continue;
    Object.defineProperty(Ctor.prototype, key, Object.getOwnPropertyDescriptor(body.prototype, key));
  }
}

function inherit(Ctor, Parent) {
  Object.setPrototypeOf(Ctor.prototype, Parent.prototype);
  Object.setPrototypeOf(Ctor, Parent);
}

// ---------------------------------------------------------------- Stream (legacy base)

/** The legacy base class: an EventEmitter with the old pipe(). */
export function Stream(options) {
  EventEmitter.call(this, options);
}
Object.setPrototypeOf(Stream.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Stream, EventEmitter);

Stream.prototype.pipe = function legacyPipe(dest, options) {
  const source = this;
  const ondata = (chunk) => {
    if (dest.writable && dest.write(chunk) === false && source.pause) source.pause();
  };
  const ondrain = () => {
    if (source.readable && source.resume) source.resume();
  };
  source.on("data", ondata);
  dest.on("drain", ondrain);
  let didEnd = false;
  const onend = () => {
    if (didEnd) return;
    didEnd = true;
    dest.end();
  };
  const onclose = () => {
    if (didEnd) return;
    didEnd = true;
    if (typeof dest.destroy === "function") dest.destroy();
  };
  if (!dest._isStdio && options?.end !== false) {
    source.on("end", onend);
    source.on("close", onclose);
  }
  const onerror = (err) => {
    cleanup();
    if (EventEmitter.listenerCount(this, "error") === 0) this.emit("error", err);
  };
  source.prependListener("error", onerror);
  dest.prependListener("error", onerror);
  const cleanup = () => {
    source.removeListener("data", ondata);
    dest.removeListener("drain", ondrain);
    source.removeListener("end", onend);
    source.removeListener("close", onclose);
    source.removeListener("error", onerror);
    dest.removeListener("error", onerror);
    source.removeListener("end", cleanup);
    source.removeListener("close", cleanup);
    dest.removeListener("close", cleanup);
  };
  source.on("end", cleanup);
  source.on("close", cleanup);
  dest.on("close", cleanup);
  dest.emit("pipe", source);
  return dest;
};

// ---------------------------------------------------------------- Readable

class ReadableState {
  constructor(options, stream, isDuplex) {
    this.objectMode = Boolean(options?.objectMode || (isDuplex && options?.readableObjectMode));
    this.highWaterMark = highWaterMarkFrom(options, "readableHighWaterMark", isDuplex, this.objectMode);
    this.buffer = [];
    this.length = 0;
    this.pipes = [];
    this.flowing = null;
    this.ended = false;
    this.endEmitted = false;
    this.reading = false;
    this.constructed = true;
    this.sync = true;
    this.needReadable = false;
    this.emittedReadable = false;
    this.readableListening = false;
    this.resumeScheduled = false;
    this.errorEmitted = false;
    this.emitClose = options?.emitClose !== false;
    this.autoDestroy = options?.autoDestroy !== false;
    this.destroyed = false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.defaultEncoding = options?.defaultEncoding || "utf8";
    this.awaitDrainWriters = null;
    this.multiAwaitDrain = false;
    this.readingMore = false;
    this.dataEmitted = false;
    this.decoder = null;
    this.encoding = null;
    this.paused = null;
    this.readable = true;
    if (options?.encoding) {
      this.decoder = new StringDecoder(options.encoding);
      this.encoding = this.decoder.encoding;
    }
  }
}

const chunkLength = (state, chunk) => (state.objectMode ? 1 : chunk.length);

export function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof Duplex;
  this._readableState = new ReadableState(options, this, isDuplex);
  if (options) {
    if (typeof options.read === "function") this._read = options.read;
    if (typeof options.destroy === "function") this._destroy = options.destroy;
    if (typeof options.construct === "function") this._construct = options.construct;
    if (options.signal && !isDuplex) addAbortSignal(options.signal, this);
  }
  Stream.call(this, options);
  constructStream(this, () => {
    if (this._readableState.needReadable) maybeReadMore(this, this._readableState);
  });
}
inherit(Readable, Stream);

defineMethods(Readable, class {
  _read() {
    throw notImplemented("_read()");
  }

  _destroy(err, cb) {
    cb(err);
  }

  push(chunk, encoding) {
    return addChunk(this, chunk, encoding, false);
  }

  unshift(chunk, encoding) {
    return addChunk(this, chunk, encoding, true);
  }

  isPaused() {
    const state = this._readableState;
    return state.paused === true || state.flowing === false;
  }

  setEncoding(encoding) {
    const state = this._readableState;
    const decoder = new StringDecoder(encoding);
    state.decoder = decoder;
    state.encoding = decoder.encoding;
    // Text already buffered is converted so that read() returns strings only.
    let content = "";
    for (const chunk of state.buffer) content += decoder.write(chunk);
    state.buffer = content === "" ? [] : [content];
    state.length = content.length;
    return this;
  }

  read(n) {
    return readFromStream(this, n);
  }

  pipe(dest, options) {
    return pipeTo(this, dest, options);
  }

  unpipe(dest) {
    const state = this._readableState;
    if (state.pipes.length === 0) return this;
    if (!dest) {
      const dests = state.pipes;
      state.pipes = [];
      this.pause();
      for (const each of dests) each.emit("unpipe", this, { hasUnpiped: false });
      return this;
    }
    const index = state.pipes.indexOf(dest);
    if (index === -1) return this;
    state.pipes.splice(index, 1);
    if (state.pipes.length === 0) this.pause();
    dest.emit("unpipe", this, { hasUnpiped: false });
    return this;
  }

  on(event, listener) {
    const result = Stream.prototype.on.call(this, event, listener);
    const state = this._readableState;
    if (event === "data") {
      state.readableListening = this.listenerCount("readable") > 0;
      if (state.flowing !== false) this.resume();
    } else if (event === "readable") {
      if (!state.endEmitted && !state.readableListening) {
        state.readableListening = state.needReadable = true;
        state.flowing = false;
        state.emittedReadable = false;
        if (state.length) emitReadable(this);
        else if (!state.reading) nextTick((stream) => stream.read(0), this);
      }
    }
    return result;
  }

  removeListener(event, listener) {
    const result = Stream.prototype.removeListener.call(this, event, listener);
    if (event === "readable") nextTick(updateReadableListening, this);
    return result;
  }

  removeAllListeners(event) {
    const result = Stream.prototype.removeAllListeners.apply(this, arguments);
    if (event === "readable" || event === undefined) nextTick(updateReadableListening, this);
    return result;
  }

  resume() {
    const state = this._readableState;
    if (!state.flowing) {
      // With a 'readable' listener the stream stays in paused mode.
      state.flowing = !state.readableListening;
      if (!state.resumeScheduled) {
        state.resumeScheduled = true;
        nextTick(resumeNow, this, state);
      }
    }
    state.paused = false;
    return this;
  }

  pause() {
    const state = this._readableState;
    if (state.flowing !== false) {
      state.flowing = false;
      this.emit("pause");
    }
    state.paused = true;
    return this;
  }

  wrap(oldStream) {
    let paused = false;
    oldStream.on("data", (chunk) => {
      if (!this.push(chunk) && oldStream.pause) {
        paused = true;
        oldStream.pause();
      }
    });
    oldStream.on("end", () => this.push(null));
    oldStream.on("error", (err) => errorOrDestroy(this, err));
    oldStream.on("close", () => this.destroy());
    oldStream.on("destroy", () => this.destroy());
    this._read = () => {
      if (paused && oldStream.resume) {
        paused = false;
        oldStream.resume();
      }
    };
    return this;
  }

  iterator(options) {
    return iterateReadable(this, options?.destroyOnReturn !== false);
  }

  [Symbol.asyncIterator]() {
    return iterateReadable(this, true);
  }

  // Iterator helpers (Node's experimental Readable operators).

  map(fn, options) {
    validateOperator(fn);
    const source = this;
    return Readable.from((async function* map() {
      for await (const chunk of source) yield await fn(chunk, { signal: options?.signal });
    })(), { objectMode: true });
  }

  filter(fn, options) {
    validateOperator(fn);
    const source = this;
    return Readable.from((async function* filter() {
      for await (const chunk of source) if (await fn(chunk, { signal: options?.signal })) yield chunk;
    })(), { objectMode: true });
  }

  flatMap(fn, options) {
    validateOperator(fn);
    const source = this;
    return Readable.from((async function* flatMap() {
      for await (const chunk of source) yield* await fn(chunk, { signal: options?.signal });
    })(), { objectMode: true });
  }

  take(limit) {
    const source = this;
    return Readable.from((async function* take() {
      if (limit <= 0) return;
      let count = 0;
      for await (const chunk of source) {
        yield chunk;
        if (++count >= limit) return;
      }
    })(), { objectMode: true });
  }

  drop(limit) {
    const source = this;
    return Readable.from((async function* drop() {
      let count = 0;
      for await (const chunk of source) if (count++ >= limit) yield chunk;
    })(), { objectMode: true });
  }

  async forEach(fn, options) {
    validateOperator(fn);
    for await (const chunk of this) await fn(chunk, { signal: options?.signal });
  }

  async toArray() {
    const chunks = [];
    for await (const chunk of this) chunks.push(chunk);
    return chunks;
  }

  async reduce(fn, ...initial) {
    validateOperator(fn, "reducer");
    let hasAccumulator = initial.length > 0;
    let accumulator = initial[0];
    for await (const chunk of this) {
      if (hasAccumulator) accumulator = await fn(accumulator, chunk);
      else {
        accumulator = chunk;
        hasAccumulator = true;
      }
    }
    if (!hasAccumulator) throw nodeError(TypeError, "ERR_INVALID_ARGS", "Reduce of an empty stream requires an initial value");
    return accumulator;
  }

  async some(fn) {
    validateOperator(fn);
    for await (const chunk of this) if (await fn(chunk)) return true;
    return false;
  }

  async every(fn) {
    validateOperator(fn);
    for await (const chunk of this) if (!(await fn(chunk))) return false;
    return true;
  }

  async find(fn) {
    validateOperator(fn);
    for await (const chunk of this) if (await fn(chunk)) return chunk;
    return undefined;
  }

  get readable() {
    const r = this._readableState;
    return Boolean(r) && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
  }

  set readable(value) {
    if (this._readableState) this._readableState.readable = Boolean(value);
  }

  get readableDidRead() {
    return this._readableState.dataEmitted;
  }

  get readableAborted() {
    const r = this._readableState;
    return Boolean(r.readable !== false && (r.destroyed || r.errored) && !r.endEmitted);
  }

  get readableHighWaterMark() {
    return this._readableState.highWaterMark;
  }

  get readableBuffer() {
    return this._readableState.buffer;
  }

  get readableFlowing() {
    return this._readableState.flowing;
  }

  set readableFlowing(value) {
    this._readableState.flowing = value;
  }

  get readableLength() {
    return this._readableState.length;
  }

  get readableObjectMode() {
    return this._readableState.objectMode;
  }

  get readableEncoding() {
    return this._readableState.encoding;
  }

  get errored() {
    return this._readableState.errored;
  }

  get closed() {
    return this._readableState.closed;
  }

  get destroyed() {
    return this._readableState.destroyed;
  }

  set destroyed(value) {
    this._readableState.destroyed = value;
  }

  get readableEnded() {
    return this._readableState.endEmitted;
  }
});

Readable.from = function from(iterable, options) {
  return readableFrom(iterable, options);
};
Readable.isDisturbed = isDisturbed;

Readable.prototype.destroy = destroy;
Readable.prototype.addListener = Readable.prototype.on;
// Explicit resource management is not in every engine (QuickJS lacks it).
if (typeof Symbol.asyncDispose === "symbol") {
  Readable.prototype[Symbol.asyncDispose] = async function asyncDispose() {
    if (!this.destroyed) {
      this.destroy(new AbortError());
      await finishedPromise(this).catch(noop);
    }
  };
}
Readable.prototype.off = Readable.prototype.removeListener;
Readable.ReadableState = ReadableState;

function validateOperator(fn, name = "fn") {
  if (typeof fn !== "function") throw invalidArgType(name, "of type function", fn);
}

function updateReadableListening(stream) {
  const state = stream._readableState;
  state.readableListening = stream.listenerCount("readable") > 0;
  if (state.resumeScheduled && state.paused === false) state.flowing = true;
  else if (stream.listenerCount("data") > 0) stream.resume();
  else if (!state.readableListening) state.flowing = null;
}

function resumeNow(stream, state) {
  if (!state.reading) stream.read(0);
  state.resumeScheduled = false;
  stream.emit("resume");
  flow(stream);
  if (state.flowing && !state.reading) stream.read(0);
}

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

function addChunk(stream, chunk, encoding, toFront) {
  const state = stream._readableState;
  if (chunk === null) {
    state.reading = false;
    endOfChunks(stream, state);
    return false;
  }
  if (!state.objectMode) {
    if (typeof chunk === "string") {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        if (toFront && state.encoding) {
          chunk = Buffer.from(chunk, encoding).toString(state.encoding);
        } else {
          chunk = Buffer.from(chunk, encoding);
          encoding = "";
        }
      }
    } else if (chunk instanceof Uint8Array) {
      chunk = toBuffer(chunk);
      encoding = "";
    } else if (chunk !== undefined) {
      errorOrDestroy(
        stream,
        invalidArgType("chunk", "of type string or an instance of Buffer, TypedArray, or DataView", chunk),
      );
      return false;
    }
  }
  if (state.objectMode || (chunk && chunk.length > 0)) {
    if (toFront) {
      if (state.endEmitted) {
        errorOrDestroy(stream, nodeError(Error, "ERR_STREAM_UNSHIFT_AFTER_END_EVENT", "stream.unshift() after end event"));
        return false;
      }
      if (state.destroyed || state.errored) return false;
      storeChunk(stream, state, chunk, true);
    } else if (state.ended) {
      errorOrDestroy(stream, nodeError(Error, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"));
      return false;
    } else if (state.destroyed || state.errored) {
      return false;
    } else {
      state.reading = false;
      if (state.decoder && !encoding) {
        chunk = state.decoder.write(chunk);
        if (state.objectMode || chunk.length !== 0) storeChunk(stream, state, chunk, false);
        else maybeReadMore(stream, state);
      } else {
        storeChunk(stream, state, chunk, false);
      }
    }
  } else if (!toFront) {
    state.reading = false;
    maybeReadMore(stream, state);
  }
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

function storeChunk(stream, state, chunk, toFront) {
  // A flowing stream with nothing buffered hands the chunk straight on.
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount("data") > 0) {
    state.awaitDrainWriters = state.multiAwaitDrain ? new Set() : null;
    state.dataEmitted = true;
    stream.emit("data", chunk);
  } else {
    state.length += chunkLength(state, chunk);
    if (toFront) state.buffer.unshift(chunk);
    else state.buffer.push(chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
}

function endOfChunks(stream, state) {
  if (state.ended) return;
  if (state.decoder) {
    const rest = state.decoder.end();
    if (rest.length) {
      state.buffer.push(rest);
      state.length += state.objectMode ? 1 : rest.length;
    }
  }
  state.ended = true;
  if (state.sync) {
    emitReadable(stream);
  } else {
    state.needReadable = false;
    state.emittedReadable = true;
    emitReadableNow(stream);
  }
}

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadableNow, stream);
  }
}

function emitReadableNow(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit("readable");
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed) {
    state.readingMore = true;
    nextTick(readMore, stream, state);
  }
}

// Keeps the buffer filled up to the high-water mark while nobody reads.
function readMore(stream, state) {
  while (!state.reading && !state.ended && (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
    const before = state.length;
    stream.read(0);
    if (before === state.length) break;
  }
  state.readingMore = false;
}

const MAX_HIGH_WATER_MARK = 0x40000000;

function growHighWaterMark(n) {
  if (n > MAX_HIGH_WATER_MARK) {
    throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "size" is out of range. It must be <= 1GiB. Received ${n}`);
  }
  // The next power of two, as Node does.
  let size = n - 1;
  size |= size >>> 1;
  size |= size >>> 2;
  size |= size >>> 4;
  size |= size >>> 8;
  size |= size >>> 16;
  return size + 1;
}

function amountToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (Number.isNaN(n)) {
    if (state.flowing && state.length) return chunkLength(state, state.buffer[0]);
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

function readFromStream(stream, n) {
  const state = stream._readableState;
  n = n === undefined ? Number.NaN : Number.parseInt(n, 10);
  const requested = n;
  if (n > state.highWaterMark) state.highWaterMark = growHighWaterMark(n);
  if (n !== 0) state.emittedReadable = false;

  if (
    n === 0 &&
    state.needReadable &&
    ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)
  ) {
    if (state.length === 0 && state.ended) endReadable(stream);
    else emitReadable(stream);
    return null;
  }

  n = amountToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(stream);
    return null;
  }

  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) {
    doRead = false;
  } else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      stream._read(state.highWaterMark);
    } catch (err) {
      errorOrDestroy(stream, err);
    }
    state.sync = false;
    if (!state.reading) n = amountToRead(requested, state);
  }

  let chunk = n > 0 ? takeFromBuffer(n, state) : null;
  if (chunk === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= n;
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
  }

  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (requested !== n && state.ended) endReadable(stream);
  }

  if (chunk !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    stream.emit("data", chunk);
  }
  return chunk;
}

// Takes n bytes (or characters, or one object) off the front of the buffer.
function takeFromBuffer(n, state) {
  if (state.length === 0) return null;
  const buffer = state.buffer;
  if (state.objectMode) return buffer.shift();
  if (!n || n >= state.length) {
    let all;
    if (state.decoder) all = buffer.join("");
    else if (buffer.length === 1) all = buffer[0];
    else all = Buffer.concat(buffer, state.length);
    state.buffer = [];
    return all;
  }
  const first = buffer[0];
  if (n < first.length) {
    buffer[0] = sliceChunk(first, n);
    return sliceChunk(first, 0, n);
  }
  if (n === first.length) return buffer.shift();
  const pieces = [];
  let collected = 0;
  while (collected < n) {
    const piece = buffer[0];
    const need = n - collected;
    if (piece.length <= need) {
      pieces.push(buffer.shift());
      collected += piece.length;
    } else {
      pieces.push(sliceChunk(piece, 0, need));
      buffer[0] = sliceChunk(piece, need);
      collected = n;
    }
  }
  return state.decoder ? pieces.join("") : Buffer.concat(pieces, n);
}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(emitEnd, state, stream);
  }
}

function emitEnd(state, stream) {
  if (state.errored || state.closeEmitted || state.endEmitted || state.length !== 0) return;
  state.endEmitted = true;
  stream.emit("end");
  if (stream.writable && stream.allowHalfOpen === false) {
    // A duplex that may not stay half-open ends its writable side too.
    nextTick(() => {
      if (stream.writable && !stream.writableEnded && !stream.destroyed) stream.end();
    });
  } else if (state.autoDestroy) {
    const w = stream._writableState;
    const writableDone = !w || (w.autoDestroy && (w.finished || w.writable === false));
    if (writableDone) stream.destroy();
  }
}

// ---------------------------------------------------------------- Readable.pipe

function pipeTo(source, dest, options) {
  const state = source._readableState;
  if (state.pipes.length === 1 && !state.multiAwaitDrain) {
    state.multiAwaitDrain = true;
    state.awaitDrainWriters = new Set(state.awaitDrainWriters ? [state.awaitDrainWriters] : []);
  }
  state.pipes.push(dest);

  const stdio = dest === globalThis.process?.stdout || dest === globalThis.process?.stderr;
  const shouldEnd = options?.end !== false && !stdio;
  const endDest = () => dest.end();
  const endFn = shouldEnd ? endDest : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else source.once("end", endFn);

  let ondrain;
  let cleanedUp = false;
  const onunpipe = (readable, info) => {
    if (readable === source && info && info.hasUnpiped === false) {
      info.hasUnpiped = true;
      cleanup();
    }
  };
  dest.on("unpipe", onunpipe);

  function cleanup() {
    dest.removeListener("close", onclose);
    dest.removeListener("finish", onfinish);
    if (ondrain) dest.removeListener("drain", ondrain);
    dest.removeListener("error", onerror);
    dest.removeListener("unpipe", onunpipe);
    source.removeListener("end", endDest);
    source.removeListener("end", unpipe);
    source.removeListener("data", ondata);
    cleanedUp = true;
    if (ondrain && state.awaitDrainWriters && (!dest._writableState || dest._writableState.needDrain)) ondrain();
  }

  function pause() {
    if (!cleanedUp) {
      if (state.pipes.length === 1 && state.pipes[0] === dest) {
        state.awaitDrainWriters = dest;
        state.multiAwaitDrain = false;
      } else if (state.pipes.length > 1 && state.pipes.includes(dest)) {
        state.awaitDrainWriters.add(dest);
      }
      source.pause();
    }
    if (!ondrain) {
      ondrain = drainHandler(source, dest);
      dest.on("drain", ondrain);
    }
  }

  function ondata(chunk) {
    if (dest.write(chunk) === false) pause();
  }
  source.on("data", ondata);

  function onerror(err) {
    unpipe();
    dest.removeListener("error", onerror);
    if (dest.listenerCount("error") === 0) {
      const s = dest._writableState || dest._readableState;
      if (s && !s.errorEmitted) errorOrDestroy(dest, err);
      else dest.emit("error", err);
    }
  }
  dest.prependListener("error", onerror);

  function onclose() {
    dest.removeListener("finish", onfinish);
    unpipe();
  }
  dest.once("close", onclose);
  function onfinish() {
    dest.removeListener("close", onclose);
    unpipe();
  }
  dest.once("finish", onfinish);

  function unpipe() {
    source.unpipe(dest);
  }

  dest.emit("pipe", source);
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) source.resume();
  return dest;
}

function drainHandler(source, dest) {
  return function ondrain() {
    const state = source._readableState;
    if (state.awaitDrainWriters === dest) state.awaitDrainWriters = null;
    else if (state.multiAwaitDrain) state.awaitDrainWriters.delete(dest);
    if ((!state.awaitDrainWriters || state.awaitDrainWriters.size === 0) && source.listenerCount("data")) {
      source.resume();
    }
  };
}

// ---------------------------------------------------------------- async iteration

async function* iterateReadable(stream, destroyOnReturn) {
  let wake = noop;
  const onReadable = () => {
    const resolve = wake;
    wake = noop;
    resolve();
  };
  stream.on("readable", onReadable);
  // undefined while running, null after a clean end, the error otherwise.
  let error;
  const stopWatching = finished(stream, { writable: false }, (err) => {
    error = err ? error ?? err : null;
    onReadable();
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise((resolve) => (wake = resolve));
    }
  } catch (err) {
    error ??= err;
    throw error;
  } finally {
    if ((error || destroyOnReturn) && (error === undefined || stream._readableState.autoDestroy)) {
      destroyAny(stream, null);
    } else {
      stream.off("readable", onReadable);
      stopWatching();
    }
  }
}

// ---------------------------------------------------------------- Readable.from

function readableFrom(iterable, options) {
  if (typeof iterable === "string" || isBuffer(iterable)) {
    return new Readable({
      objectMode: true,
      ...options,
      read() {
        this.push(iterable);
        this.push(null);
      },
    });
  }
  let iterator;
  let isAsync;
  if (iterable && typeof iterable[Symbol.asyncIterator] === "function") {
    isAsync = true;
    iterator = iterable[Symbol.asyncIterator]();
  } else if (iterable && typeof iterable[Symbol.iterator] === "function") {
    isAsync = false;
    iterator = iterable[Symbol.iterator]();
  } else {
    throw invalidArgType("iterable", "an instance of Iterable", iterable);
  }

  const readable = new Readable({ objectMode: true, highWaterMark: 1, ...options });
  let reading = false;

  // Returns false when the stream wants no more for now.
  const deliver = (value) => {
    if (value === null) {
      reading = false;
      throw nodeError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
    }
    if (readable.push(value)) return true;
    reading = false;
    return false;
  };

  // Synchronous iterables are read without awaiting until a promise shows up.
  let awaitValues = isAsync;
  function pullSync() {
    try {
      while (true) {
        const { value, done } = iterator.next();
        if (done) {
          readable.push(null);
          return;
        }
        if (value && typeof value.then === "function") {
          awaitValues = true;
          pullAsync(value);
          return;
        }
        if (!deliver(value)) return;
      }
    } catch (err) {
      readable.destroy(err);
    }
  }

  async function pullAsync(first) {
    try {
      if (first !== undefined) {
        if (!deliver(await first)) return;
      }
      while (true) {
        const { value, done } = isAsync ? await iterator.next() : iterator.next();
        if (done) {
          readable.push(null);
          return;
        }
        if (!deliver(isAsync ? value : await value)) return;
      }
    } catch (err) {
      readable.destroy(err);
    }
  }

  readable._read = function () {
    if (reading) return;
    reading = true;
    if (awaitValues) pullAsync();
    else pullSync();
  };

  readable._destroy = function (error, cb) {
    closeIterator(iterator, error).then(
      () => nextTick(cb, error),
      (closeError) => nextTick(cb, closeError || error),
    );
  };
  return readable;
}

async function closeIterator(iterator, error) {
  if (error != null && typeof iterator.throw === "function") {
    const { value, done } = await iterator.throw(error);
    await value;
    if (done) return;
  }
  if (typeof iterator.return === "function") {
    const { value } = await iterator.return();
    await value;
  }
}

// ---------------------------------------------------------------- Writable

class WritableState {
  constructor(options, stream, isDuplex) {
    this.objectMode = Boolean(options?.objectMode || (isDuplex && options?.writableObjectMode));
    this.highWaterMark = highWaterMarkFrom(options, "writableHighWaterMark", isDuplex, this.objectMode);
    this.finalCalled = false;
    this.needDrain = false;
    this.ending = false;
    this.ended = false;
    this.finished = false;
    this.destroyed = false;
    this.decodeStrings = options?.decodeStrings !== false;
    this.defaultEncoding = options?.defaultEncoding || "utf8";
    this.length = 0;
    this.writing = false;
    this.corked = 0;
    this.sync = true;
    this.bufferProcessing = false;
    this.onwrite = (err) => afterWriteCallback(stream, err);
    this.writecb = null;
    this.writelen = 0;
    this.afterWriteTickInfo = null;
    this.buffered = [];
    this.bufferedIndex = 0;
    this.allBuffers = true;
    this.allNoop = true;
    this.pendingcb = 0;
    this.constructed = true;
    this.prefinished = false;
    this.errorEmitted = false;
    this.emitClose = options?.emitClose !== false;
    this.autoDestroy = options?.autoDestroy !== false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.writable = true;
    this.onFinished = [];
  }

  get bufferedRequestCount() {
    return this.buffered.length - this.bufferedIndex;
  }

  getBuffer() {
    return this.buffered.slice(this.bufferedIndex);
  }
}

export function Writable(options) {
  // Writable.call(duplex) sets up the writable half of a Duplex.
  const isDuplex = this instanceof Duplex;
  if (!isDuplex && !Function.prototype[Symbol.hasInstance].call(Writable, this)) return new Writable(options);
  this._writableState = new WritableState(options, this, isDuplex);
  if (options) {
    if (typeof options.write === "function") this._write = options.write;
    if (typeof options.writev === "function") this._writev = options.writev;
    if (typeof options.destroy === "function") this._destroy = options.destroy;
    if (typeof options.final === "function") this._final = options.final;
    if (typeof options.construct === "function") this._construct = options.construct;
    if (options.signal) addAbortSignal(options.signal, this);
  }
  Stream.call(this, options);
  constructStream(this, () => {
    const state = this._writableState;
    if (!state.writing) flushBuffered(this, state);
    finishIfDone(this, state);
  });
}
inherit(Writable, Stream);

Object.defineProperty(Writable, Symbol.hasInstance, {
  value(value) {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (this !== Writable) return false;
    return Boolean(value?._writableState instanceof WritableState);
  },
});

defineMethods(Writable, class {
  _write(chunk, encoding, cb) {
    if (this._writev) this._writev([{ chunk, encoding }], cb);
    else throw notImplemented("_write()");
  }

  _destroy(err, cb) {
    cb(err);
  }

  write(chunk, encoding, cb) {
    return writeChunk(this, chunk, encoding, cb) === true;
  }

  cork() {
    this._writableState.corked++;
  }

  uncork() {
    const state = this._writableState;
    if (state.corked) {
      state.corked--;
      if (!state.writing) flushBuffered(this, state);
    }
  }

  setDefaultEncoding(encoding) {
    if (typeof encoding === "string") encoding = encoding.toLowerCase();
    if (!isEncoding(encoding)) throw unknownEncoding(encoding);
    this._writableState.defaultEncoding = encoding;
    return this;
  }

  end(chunk, encoding, cb) {
    return endWritable(this, chunk, encoding, cb);
  }

  get writable() {
    const w = this._writableState;
    return Boolean(w) && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended;
  }

  set writable(value) {
    if (this._writableState) this._writableState.writable = Boolean(value);
  }

  get writableFinished() {
    return this._writableState?.finished ?? false;
  }

  get writableObjectMode() {
    return this._writableState?.objectMode ?? false;
  }

  get writableBuffer() {
    return this._writableState?.getBuffer();
  }

  get writableEnded() {
    return this._writableState?.ending ?? false;
  }

  get writableNeedDrain() {
    const w = this._writableState;
    return Boolean(w) && !w.destroyed && !w.ending && w.needDrain;
  }

  get writableHighWaterMark() {
    return this._writableState?.highWaterMark;
  }

  get writableCorked() {
    return this._writableState?.corked ?? 0;
  }

  get writableLength() {
    return this._writableState?.length;
  }

  get writableAborted() {
    const w = this._writableState;
    return Boolean(w.writable !== false && (w.destroyed || w.errored) && !w.finished);
  }

  get errored() {
    return this._writableState?.errored ?? null;
  }

  get closed() {
    return this._writableState?.closed ?? false;
  }

  get destroyed() {
    return this._writableState?.destroyed ?? false;
  }

  set destroyed(value) {
    if (this._writableState) this._writableState.destroyed = value;
  }
});

Writable.prototype.destroy = destroy;
Writable.WritableState = WritableState;

function writeChunk(stream, chunk, encoding, cb) {
  const state = stream._writableState;
  // Object mode passes the encoding through as given (null with a callback
  // in its place); byte mode falls back to the default encoding.
  if (typeof encoding === "function") {
    cb = encoding;
    encoding = state.objectMode ? null : state.defaultEncoding;
  } else {
    if (!encoding) {
      if (!state.objectMode) encoding = state.defaultEncoding;
    } else if (encoding !== "buffer" && !isEncoding(encoding)) {
      throw unknownEncoding(encoding);
    }
    if (typeof cb !== "function") cb = noop;
  }
  if (chunk === null) {
    throw nodeError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
  } else if (!state.objectMode) {
    if (typeof chunk === "string") {
      if (state.decodeStrings !== false) {
        chunk = Buffer.from(chunk, encoding);
        encoding = "buffer";
      }
    } else if (isBuffer(chunk)) {
      encoding = "buffer";
    } else if (chunk instanceof Uint8Array) {
      chunk = toBuffer(chunk);
      encoding = "buffer";
    } else {
      throw invalidArgType("chunk", "of type string or an instance of Buffer, TypedArray, or DataView", chunk);
    }
  }
  let err;
  if (state.ending) err = nodeError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
  else if (state.destroyed) err = destroyedError("write");
  if (err) {
    nextTick(cb, err);
    errorOrDestroy(stream, err, true);
    return err;
  }
  state.pendingcb++;
  return writeOrQueue(stream, state, chunk, encoding, cb);
}

function writeOrQueue(stream, state, chunk, encoding, callback) {
  const length = state.objectMode ? 1 : chunk.length;
  state.length += length;
  const belowMark = state.length < state.highWaterMark;
  if (!belowMark) state.needDrain = true;
  if (state.writing || state.corked || state.errored || !state.constructed) {
    state.buffered.push({ chunk, encoding, callback });
    if (state.allBuffers && encoding !== "buffer") state.allBuffers = false;
    if (state.allNoop && callback !== noop) state.allNoop = false;
  } else {
    state.writelen = length;
    state.writecb = callback;
    state.writing = true;
    state.sync = true;
    stream._write(chunk, encoding, state.onwrite);
    state.sync = false;
  }
  return belowMark && !state.errored && !state.destroyed;
}

function startWrite(stream, state, writev, length, chunk, encoding, cb) {
  state.writelen = length;
  state.writecb = cb;
  state.writing = true;
  state.sync = true;
  if (state.destroyed) state.onwrite(destroyedError("write"));
  else if (writev) stream._writev(chunk, state.onwrite);
  else stream._write(chunk, encoding, state.onwrite);
  state.sync = false;
}

function afterWriteCallback(stream, err) {
  const state = stream._writableState;
  const sync = state.sync;
  const cb = state.writecb;
  if (typeof cb !== "function") {
    errorOrDestroy(stream, multipleCallback());
    return;
  }
  state.writing = false;
  state.writecb = null;
  state.length -= state.writelen;
  state.writelen = 0;
  if (err) {
    if (!state.errored) state.errored = err;
    if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = err;
    if (sync) nextTick(failWrite, stream, state, err, cb);
    else failWrite(stream, state, err, cb);
    return;
  }
  if (state.buffered.length > state.bufferedIndex) flushBuffered(stream, state);
  if (sync) {
    // Synchronous completions are batched into one tick per callback.
    const info = state.afterWriteTickInfo;
    if (info !== null && info.cb === cb) {
      info.count++;
    } else {
      state.afterWriteTickInfo = { count: 1, cb, stream, state };
      nextTick(afterWriteTick, state.afterWriteTickInfo);
    }
  } else {
    afterWrite(stream, state, 1, cb);
  }
}

function afterWriteTick({ stream, state, count, cb }) {
  state.afterWriteTickInfo = null;
  afterWrite(stream, state, count, cb);
}

function afterWrite(stream, state, count, cb) {
  const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
  if (needDrain) {
    state.needDrain = false;
    stream.emit("drain");
  }
  while (count-- > 0) {
    state.pendingcb--;
    cb(null);
  }
  if (state.destroyed) failBuffered(state);
  finishIfDone(stream, state);
}

function failWrite(stream, state, err, cb) {
  --state.pendingcb;
  cb(err);
  failBuffered(state);
  errorOrDestroy(stream, err);
}

function failBuffered(state) {
  if (state.writing) return;
  for (let i = state.bufferedIndex; i < state.buffered.length; i++) {
    const { chunk, callback } = state.buffered[i];
    state.length -= state.objectMode ? 1 : chunk.length;
    callback(state.errored ?? destroyedError("write"));
  }
  for (const callback of state.onFinished.splice(0)) callback(state.errored ?? destroyedError("end"));
  state.buffered = [];
  state.bufferedIndex = 0;
  state.allBuffers = true;
  state.allNoop = true;
}

function flushBuffered(stream, state) {
  if (state.corked || state.bufferProcessing || state.destroyed || !state.constructed) return;
  const { buffered, objectMode } = state;
  const pending = buffered.length - state.bufferedIndex;
  if (!pending) return;
  let i = state.bufferedIndex;
  state.bufferProcessing = true;
  if (pending > 1 && stream._writev) {
    state.pendingcb -= pending - 1;
    const callbacks = buffered.slice(i).map((entry) => entry.callback);
    const callback = state.allNoop
      ? noop
      : (err) => {
          for (const each of callbacks) each(err);
        };
    const chunks = state.allNoop && i === 0 ? buffered : buffered.slice(i);
    chunks.allBuffers = state.allBuffers;
    startWrite(stream, state, true, state.length, chunks, "", callback);
    state.buffered = [];
    state.bufferedIndex = 0;
    state.allBuffers = true;
    state.allNoop = true;
  } else {
    do {
      const { chunk, encoding, callback } = buffered[i];
      buffered[i++] = null;
      startWrite(stream, state, false, objectMode ? 1 : chunk.length, chunk, encoding, callback);
    } while (i < buffered.length && !state.writing);
    if (i === buffered.length) {
      state.buffered = [];
      state.bufferedIndex = 0;
      state.allBuffers = true;
      state.allNoop = true;
    } else if (i > 256) {
      state.buffered = buffered.slice(i);
      state.bufferedIndex = 0;
    } else {
      state.bufferedIndex = i;
    }
  }
  state.bufferProcessing = false;
}

function endWritable(stream, chunk, encoding, cb) {
  const state = stream._writableState;
  if (typeof chunk === "function") {
    cb = chunk;
    chunk = null;
    encoding = null;
  } else if (typeof encoding === "function") {
    cb = encoding;
    encoding = null;
  }
  let err;
  if (chunk !== null && chunk !== undefined) {
    const result = writeChunk(stream, chunk, encoding);
    if (result instanceof Error) err = result;
  }
  if (state.corked) {
    state.corked = 1;
    stream.uncork();
  }
  if (err) {
    // Reported through the write already.
  } else if (!state.errored && !state.ending) {
    state.ending = true;
    finishIfDone(stream, state, true);
    state.ended = true;
  } else if (state.finished) {
    err = nodeError(Error, "ERR_STREAM_ALREADY_FINISHED", "Cannot call end after a stream was finished");
  } else if (state.destroyed) {
    err = destroyedError("end");
  }
  if (typeof cb === "function") {
    // A stream that failed while ending (a synchronous _final error) reports
    // that error, after its 'error' and 'close' events.
    if (!err && state.errored && !state.finished) err = state.errored;
    if (err) nextTick(cb, err);
    else if (state.finished) nextTick(cb, null);
    else state.onFinished.push(cb);
  }
  return stream;
}

function readyToFinish(state) {
  return (
    state.ending &&
    !state.destroyed &&
    state.constructed &&
    state.length === 0 &&
    !state.errored &&
    state.buffered.length === 0 &&
    !state.finished &&
    !state.writing &&
    !state.errorEmitted &&
    !state.closeEmitted
  );
}

function callFinal(stream, state) {
  let called = false;
  const onFinal = (err) => {
    if (called) {
      errorOrDestroy(stream, err ?? multipleCallback());
      return;
    }
    called = true;
    state.pendingcb--;
    if (err) {
      for (const callback of state.onFinished.splice(0)) callback(err);
      errorOrDestroy(stream, err, state.sync);
    } else if (readyToFinish(state)) {
      state.prefinished = true;
      stream.emit("prefinish");
      state.pendingcb++;
      nextTick(finish, stream, state);
    }
  };
  state.sync = true;
  state.pendingcb++;
  try {
    stream._final(onFinal);
  } catch (err) {
    onFinal(err);
  }
  state.sync = false;
}

function prefinish(stream, state) {
  if (state.prefinished || state.finalCalled) return;
  if (typeof stream._final === "function" && !state.destroyed) {
    state.finalCalled = true;
    callFinal(stream, state);
  } else {
    state.prefinished = true;
    stream.emit("prefinish");
  }
}

function finishIfDone(stream, state, sync) {
  if (!readyToFinish(state)) return;
  prefinish(stream, state);
  if (state.pendingcb !== 0) return;
  if (sync) {
    state.pendingcb++;
    nextTick(() => {
      if (readyToFinish(state)) finish(stream, state);
      else state.pendingcb--;
    });
  } else if (readyToFinish(state)) {
    state.pendingcb++;
    finish(stream, state);
  }
}

function finish(stream, state) {
  state.pendingcb--;
  state.finished = true;
  for (const callback of state.onFinished.splice(0)) callback(null);
  stream.emit("finish");
  if (state.autoDestroy) {
    const r = stream._readableState;
    const readableDone = !r || (r.autoDestroy && (r.endEmitted || r.readable === false));
    if (readableDone) stream.destroy();
  }
}

// ---------------------------------------------------------------- Duplex, Transform, PassThrough

export function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  Readable.call(this, options);
  this._writableState = new WritableState(options, this, true);
  if (options) {
    this.allowHalfOpen = options.allowHalfOpen !== false;
    if (options.readable === false) {
      this._readableState.readable = false;
      this._readableState.ended = true;
      this._readableState.endEmitted = true;
    }
    if (options.writable === false) {
      this._writableState.writable = false;
      this._writableState.ending = true;
      this._writableState.ended = true;
      this._writableState.finished = true;
    }
    if (typeof options.write === "function") this._write = options.write;
    if (typeof options.writev === "function") this._writev = options.writev;
    if (typeof options.final === "function") this._final = options.final;
    if (options.signal) addAbortSignal(options.signal, this);
  } else {
    this.allowHalfOpen = true;
  }
  if (typeof this._construct === "function") {
    this._writableState.constructed = this._readableState.constructed;
    this.once(kConstructed, () => {
      this._writableState.constructed = true;
      if (!this._writableState.writing) flushBuffered(this, this._writableState);
      finishIfDone(this, this._writableState);
    });
  }
}
inherit(Duplex, Readable);

Duplex.from = function from(body) {
  if (body instanceof Duplex) return body;
  if (isReadableNodeStream(body)) {
    const duplex = new Duplex({ objectMode: true, writable: false, read() {} });
    body.on("data", (chunk) => duplex.push(chunk));
    body.on("end", () => duplex.push(null));
    body.on("error", (err) => duplex.destroy(err));
    return duplex;
  }
  if (body && (typeof body[Symbol.asyncIterator] === "function" || typeof body[Symbol.iterator] === "function")) {
    const source = readableFrom(body, { objectMode: true });
    const duplex = new Duplex({ objectMode: true, writable: false, read() {} });
    source.on("data", (chunk) => duplex.push(chunk));
    source.on("end", () => duplex.push(null));
    source.on("error", (err) => duplex.destroy(err));
    return duplex;
  }
  throw invalidArgType(
    "body",
    "of type function or an instance of Blob, ReadableStream, WritableStream, Stream, Iterable, AsyncIterable, or Promise or { readable, writable } pair",
    body,
  );
};

// Duplex is a Readable that is also a Writable: the writable half's methods
// and accessors are shared from Writable.prototype.
for (const key of Reflect.ownKeys(Writable.prototype)) {
  if (key === "constructor" || key === "destroy" || key === "_destroy") continue;
  const descriptor = Object.getOwnPropertyDescriptor(Writable.prototype, key);
  if (key === "destroyed" || key === "errored" || key === "closed") continue;
  Object.defineProperty(Duplex.prototype, key, descriptor);
}
Object.defineProperties(Duplex.prototype, {
  destroyed: {
    get() {
      return this._readableState.destroyed && this._writableState.destroyed;
    },
    set(value) {
      this._readableState.destroyed = value;
      this._writableState.destroyed = value;
    },
    configurable: true,
  },
});

const kPendingCallback = Symbol("pendingTransformCallback");

export function Transform(options) {
  if (!(this instanceof Transform)) return new Transform(options);
  // With a readable high-water mark of 0 the writable side must not buffer
  // either, or the transform would hold data twice.
  if (options && (options.highWaterMark ?? options.readableHighWaterMark) === 0) {
    options = {
      ...options,
      highWaterMark: null,
      readableHighWaterMark: 0,
      writableHighWaterMark: options.writableHighWaterMark || 0,
    };
  }
  Duplex.call(this, options);
  this._readableState.sync = false;
  this[kPendingCallback] = null;
  if (options) {
    if (typeof options.transform === "function") this._transform = options.transform;
    if (typeof options.flush === "function") this._flush = options.flush;
  }
}
inherit(Transform, Duplex);

defineMethods(Transform, class {
  _final(cb) {
    if (typeof this._flush === "function" && !this.destroyed) {
      this._flush((err, data) => {
        if (err) {
          if (cb) cb(err);
          else this.destroy(err);
          return;
        }
        if (data != null) this.push(data);
        this.push(null);
        if (cb) cb();
      });
    } else {
      this.push(null);
      if (cb) cb();
    }
  }

  _transform() {
    throw notImplemented("_transform()");
  }

  _write(chunk, encoding, callback) {
    const r = this._readableState;
    const w = this._writableState;
    const lengthBefore = r.length;
    this._transform(chunk, encoding, (err, value) => {
      if (err) {
        callback(err);
        return;
      }
      if (value != null) this.push(value);
      if (w.ended || lengthBefore === r.length || r.length < r.highWaterMark) callback();
      else this[kPendingCallback] = callback;
    });
  }

  _read() {
    const callback = this[kPendingCallback];
    if (callback) {
      this[kPendingCallback] = null;
      callback();
    }
  }
});

export function PassThrough(options) {
  if (!(this instanceof PassThrough)) return new PassThrough(options);
  Transform.call(this, options);
}
inherit(PassThrough, Transform);

PassThrough.prototype._transform = function _transform(chunk, encoding, cb) {
  cb(null, chunk);
};

// ---------------------------------------------------------------- stream predicates

function isReadableNodeStream(obj, strict = false) {
  return Boolean(
    obj &&
      typeof obj.pipe === "function" &&
      typeof obj.on === "function" &&
      (!strict || (typeof obj.pause === "function" && typeof obj.resume === "function")) &&
      (!obj._writableState || obj._readableState?.readable !== false) &&
      (!obj._writableState || obj._readableState),
  );
}

function isWritableNodeStream(obj) {
  return Boolean(
    obj && typeof obj.write === "function" && typeof obj.on === "function" && (!obj._readableState || obj._writableState?.writable !== false),
  );
}

function isNodeStream(obj) {
  return Boolean(
    obj &&
      (obj._readableState ||
        obj._writableState ||
        (typeof obj.write === "function" && typeof obj.on === "function") ||
        (typeof obj.pipe === "function" && typeof obj.on === "function")),
  );
}

function isIterable(obj, asyncOnly) {
  if (obj == null) return false;
  if (asyncOnly === true) return typeof obj[Symbol.asyncIterator] === "function";
  if (asyncOnly === false) return typeof obj[Symbol.iterator] === "function";
  return typeof obj[Symbol.asyncIterator] === "function" || typeof obj[Symbol.iterator] === "function";
}

export function isDestroyed(stream) {
  if (!isNodeStream(stream)) return null;
  const state = stream._writableState || stream._readableState;
  return Boolean(stream.destroyed || state?.destroyed);
}

function isReadableFinished(stream, strict) {
  const state = stream._readableState;
  if (!state || state.errored) return false;
  return Boolean(state.endEmitted || (strict === false && state.ended === true && state.length === 0));
}

function isWritableFinished(stream, strict) {
  const state = stream._writableState;
  if (!state || state.errored) return false;
  return Boolean(state.finished || (strict === false && state.ending === true && state.length === 0));
}

export function isReadable(stream) {
  if (typeof stream?.readable !== "boolean") return null;
  if (isDestroyed(stream)) return false;
  return isReadableNodeStream(stream) && stream.readable && !isReadableFinished(stream);
}

export function isWritable(stream) {
  if (typeof stream?.writable !== "boolean") return null;
  if (isDestroyed(stream)) return false;
  return isWritableNodeStream(stream) && stream.writable && !(stream._writableState?.ending);
}

export function isErrored(stream) {
  return Boolean(
    stream &&
      (stream.readableErrored ?? stream.writableErrored ?? stream._readableState?.errorEmitted ?? stream._writableState?.errorEmitted ?? stream._readableState?.errored ?? stream._writableState?.errored),
  );
}

export function isDisturbed(stream) {
  return Boolean(stream && (stream.readableDidRead || stream.readableAborted));
}

function isFinished(stream) {
  if (!isNodeStream(stream)) return null;
  if (isDestroyed(stream)) return true;
  if (isReadable(stream)) return false;
  if (isWritable(stream)) return false;
  return true;
}

function isClosed(stream) {
  const state = stream._writableState || stream._readableState;
  return Boolean(state?.closed);
}

function willEmitClose(stream) {
  if (!isNodeStream(stream)) return false;
  const state = stream._writableState || stream._readableState;
  return Boolean(state && state.autoDestroy && state.emitClose && state.closed === false);
}

// ---------------------------------------------------------------- finished

/**
 * Calls back once `stream` is done: ended, finished, errored, or closed
 * before it got there (ERR_STREAM_PREMATURE_CLOSE). Returns a function that
 * removes the listeners.
 */
export function finished(stream, options, callback) {
  if (arguments.length === 2) {
    callback = options;
    options = {};
  } else if (options == null) {
    options = {};
  } else if (typeof options !== "object") {
    throw invalidArgType("options", "of type object", options);
  }
  if (typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
  if (!isNodeStream(stream)) {
    throw invalidArgType("stream", "an instance of ReadableStream, WritableStream, or Stream", stream);
  }
  let done = once(callback);
  const checkReadable = options.readable ?? isReadableNodeStream(stream);
  const checkWritable = options.writable ?? isWritableNodeStream(stream);
  const w = stream._writableState;
  const r = stream._readableState;

  // Streams that will emit 'close' are reported at 'close', after their
  // resources are released.
  let waitForClose =
    willEmitClose(stream) && isReadableNodeStream(stream) === checkReadable && isWritableNodeStream(stream) === checkWritable;
  let writableDone = isWritableFinished(stream, false);
  let readableDone = isReadableFinished(stream, false);

  const onlegacyfinish = () => {
    if (!stream.writable) onfinish();
  };
  const onfinish = () => {
    writableDone = true;
    if (stream.destroyed) waitForClose = false;
    if (waitForClose && (!stream.readable || checkReadable)) return;
    if (!checkReadable || readableDone) done.call(stream);
  };
  const onend = () => {
    readableDone = true;
    if (stream.destroyed) waitForClose = false;
    if (waitForClose && (!stream.writable || checkWritable)) return;
    if (!checkWritable || writableDone) done.call(stream);
  };
  const onerror = (err) => done.call(stream, err);
  let closed = isClosed(stream);
  const onclose = () => {
    closed = true;
    const errored = w?.errored || r?.errored;
    if (errored && typeof errored !== "boolean") return done.call(stream, errored);
    if (checkReadable && !readableDone && isReadableNodeStream(stream, true) && !isReadableFinished(stream, false)) {
      return done.call(stream, prematureClose());
    }
    if (checkWritable && !writableDone && !isWritableFinished(stream, false)) {
      return done.call(stream, prematureClose());
    }
    done.call(stream);
  };
  const onclosed = () => {
    closed = true;
    const errored = w?.errored || r?.errored;
    if (errored && typeof errored !== "boolean") return done.call(stream, errored);
    done.call(stream);
  };

  stream.on("end", onend);
  stream.on("finish", onfinish);
  if (!w && !r) {
    stream.on("end", onlegacyfinish);
    stream.on("close", onlegacyfinish);
  }
  if (options.error !== false) stream.on("error", onerror);
  stream.on("close", onclose);

  if (closed) {
    nextTick(onclose);
  } else if (w?.errorEmitted || r?.errorEmitted) {
    if (!waitForClose) nextTick(onclosed);
  } else if (!checkReadable && (!waitForClose || isReadable(stream)) && (writableDone || isWritable(stream) === false)) {
    nextTick(onclosed);
  } else if (!checkWritable && (!waitForClose || isWritable(stream)) && (readableDone || isReadable(stream) === false)) {
    nextTick(onclosed);
  }

  const cleanup = () => {
    done = noop;
    stream.removeListener("end", onend);
    stream.removeListener("finish", onfinish);
    stream.removeListener("end", onlegacyfinish);
    stream.removeListener("close", onlegacyfinish);
    stream.removeListener("error", onerror);
    stream.removeListener("close", onclose);
  };

  if (options.signal && !closed) {
    const signal = options.signal;
    const abort = () => {
      const endCallback = done;
      cleanup();
      endCallback.call(stream, new AbortError(undefined, { cause: signal.reason }));
    };
    if (signal.aborted) {
      nextTick(abort);
    } else {
      signal.addEventListener("abort", abort, { once: true });
      const originalDone = done;
      done = once((...args) => {
        signal.removeEventListener("abort", abort);
        originalDone.apply(stream, args);
      });
    }
  }
  return cleanup;
}

function finishedPromise(stream, options) {
  return new Promise((resolve, reject) => {
    finished(stream, options, (err) => (err ? reject(err) : resolve()));
  });
}

// ---------------------------------------------------------------- pipeline

function lastCallback(streams) {
  const callback = streams.at(-1);
  if (typeof callback !== "function") {
    throw invalidArgType("streams[stream.length - 1]", "of type function", callback);
  }
  return streams.pop();
}

/** pipeline(source, ...transforms, destination, callback): returns the destination. */
export function pipeline(...streams) {
  const callback = once(lastCallback(streams));
  if (Array.isArray(streams[0]) && streams.length === 1) streams = streams[0];
  return runPipeline(streams, callback, {});
}

// Each stage is a stream, an iterable, or a function turning the previous
// stage's output (as an async iterable) into the next. The callback gets the
// first error, or the value a final async function produced.
function runPipeline(stages, callback, options) {
  if (stages.length < 2) throw nodeError(TypeError, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
  const { signal, end = true } = options;
  const controller = new AbortController();
  const innerSignal = controller.signal;
  const destroyers = [];
  // Listeners left on a readable last stage are removed once all went well.
  const lastStageCleanups = [];
  let pending = 0;
  let firstError;
  let result;
  let onAbort;

  if (signal) {
    onAbort = () => settle(new AbortError(undefined, { cause: signal.reason }));
    if (signal.aborted) nextTick(onAbort);
    else signal.addEventListener("abort", onAbort, { once: true });
  }

  function stageDone(err) {
    settle(err, --pending === 0);
  }

  function settle(err, final) {
    if (err && (!firstError || firstError.code === "ERR_STREAM_PREMATURE_CLOSE")) firstError = err;
    if (!firstError && !final) return;
    while (destroyers.length) destroyers.shift()(firstError);
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
    if (final) {
      if (!firstError) for (const cleanup of lastStageCleanups) cleanup();
      nextTick(callback, firstError, result);
    }
  }

  let current;
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    const reading = i < stages.length - 1;
    const writing = i > 0;
    const isLast = !reading;

    if (isNodeStream(stage)) {
      // A last stage that is not to be ended is not destroyed either.
      if (reading || end) {
        const { destroy: destroyStage, cleanup } = streamDestroyer(stage, reading, writing);
        destroyers.push(destroyStage);
        if (isLast && isReadable(stage)) lastStageCleanups.push(cleanup);
      }
      // Errors after the data has flowed still fail the pipeline.
      const onError = (err) => {
        if (err && err.name !== "AbortError" && err.code !== "ERR_STREAM_PREMATURE_CLOSE") stageDone(err);
      };
      stage.on("error", onError);
      if (isLast && isReadable(stage)) lastStageCleanups.push(() => stage.removeListener("error", onError));
    }

    if (i === 0) {
      if (typeof stage === "function") {
        current = stage({ signal: innerSignal });
        if (!isIterable(current)) {
          throw nodeError(TypeError, "ERR_INVALID_RETURN_VALUE", `Expected Iterable, AsyncIterable or Stream to be returned from the "source" function.`);
        }
      } else if (isNodeStream(stage) || isIterable(stage)) {
        current = stage;
      } else {
        throw invalidArgType(
          "body",
          "of type function or an instance of Blob, ReadableStream, WritableStream, Stream, Iterable, AsyncIterable, or Promise or { readable, writable } pair",
          stage,
        );
      }
    } else if (typeof stage === "function") {
      const input = isReadableNodeStream(current) ? iterateReadable(current, true) : toAsyncIterable(current);
      current = stage(input, { signal: innerSignal });
      if (reading) {
        if (!isIterable(current, true)) {
          throw nodeError(TypeError, "ERR_INVALID_RETURN_VALUE", `Expected AsyncIterable to be returned from the "transform[${i - 1}]" function.`);
        }
      } else {
        const sink = new PassThrough({ objectMode: true });
        if (typeof current?.then === "function") {
          pending++;
          current.then(
            (value) => {
              result = value;
              if (value != null) sink.write(value);
              if (end) sink.end();
              nextTick(stageDone);
            },
            (err) => {
              sink.destroy(err);
              nextTick(stageDone, err);
            },
          );
        } else if (isIterable(current, true)) {
          pending++;
          pumpInto(current, sink, stageDone, { end });
        } else {
          throw nodeError(TypeError, "ERR_INVALID_RETURN_VALUE", `Expected AsyncIterable or Promise to be returned from the "destination" function.`);
        }
        current = sink;
        destroyers.push(streamDestroyer(current, false, true).destroy);
      }
    } else if (isNodeStream(stage)) {
      if (isReadableNodeStream(current)) {
        pending += 2;
        pipeStreams(current, stage, stageDone, { end });
      } else if (isIterable(current)) {
        pending++;
        pumpInto(current, stage, stageDone, { end });
      } else {
        throw invalidArgType("val", "of type ReadableStream, WritableStream, Stream, Iterable or AsyncIterable", current);
      }
      current = stage;
    } else {
      current = Duplex.from(stage);
    }
  }

  if (signal?.aborted) onAbort();
  return current;
}

function streamDestroyer(stream, reading, writing) {
  let done = false;
  stream.on("close", () => {
    done = true;
  });
  const cleanup = finished(stream, { readable: reading, writable: writing }, (err) => {
    done = !err;
  });
  return {
    destroy(err) {
      if (done) return;
      done = true;
      destroyAny(stream, err || destroyedError("pipe"));
    },
    cleanup,
  };
}

function pipeStreams(source, dest, done, { end }) {
  let ended = false;
  dest.on("close", () => {
    if (!ended) done(prematureClose());
  });
  source.pipe(dest, { end: false });
  if (end) {
    const endDest = () => {
      ended = true;
      dest.end();
    };
    if (isReadableFinished(source)) nextTick(endDest);
    else source.once("end", endDest);
  } else {
    done();
  }
  finished(source, { readable: true, writable: false }, (err) => {
    const r = source._readableState;
    if (err && err.code === "ERR_STREAM_PREMATURE_CLOSE" && r && r.ended && !r.errored && !r.errorEmitted) {
      // Closed between its last chunk and 'end': wait for either.
      source.once("end", done).once("error", done);
    } else {
      done(err);
    }
  });
  return finished(dest, { readable: false, writable: true }, done);
}

async function* toAsyncIterable(iterable) {
  yield* iterable;
}

async function pumpInto(iterable, writable, done, { end }) {
  let error;
  let resume = null;
  const wake = (err) => {
    if (err) error = err;
    const callback = resume;
    resume = null;
    callback?.();
  };
  const whenReady = () =>
    new Promise((resolve, reject) => {
      if (error) reject(error);
      else
        resume = () => {
          if (error) reject(error);
          else resolve();
        };
    });
  writable.on("drain", wake);
  const stopWatching = finished(writable, { readable: false }, wake);
  try {
    if (writable.writableNeedDrain) await whenReady();
    for await (const chunk of iterable) {
      if (!writable.write(chunk)) await whenReady();
    }
    if (end) {
      writable.end();
      await whenReady();
    }
    done();
  } catch (err) {
    done(error !== err && error ? error : err);
  } finally {
    stopWatching();
    writable.off("drain", wake);
  }
}

// ---------------------------------------------------------------- duplexPair

/** Two connected Duplex streams: what is written to one is read from the other. */
export function duplexPair(options) {
  const sides = [];
  const makeSide = () =>
    new Duplex({
      ...options,
      read() {
        const callback = this[kPendingWrite];
        if (callback) {
          this[kPendingWrite] = null;
          callback();
        }
      },
      // A write completes when the other side asks for more.
      write(chunk, encoding, callback) {
        const other = sides[sides[0] === this ? 1 : 0];
        if (chunk.length === 0 && !this.writableObjectMode) {
          nextTick(callback);
        } else {
          other.push(chunk);
          other[kPendingWrite] = callback;
        }
      },
      // Ending one side finishes once the other side has ended.
      final(callback) {
        const other = sides[sides[0] === this ? 1 : 0];
        other.once("end", callback);
        other.push(null);
      },
    });
  sides.push(makeSide(), makeSide());
  return sides;
}

const kPendingWrite = Symbol("pendingWrite");

// ---------------------------------------------------------------- addAbortSignal

export function addAbortSignal(signal, stream) {
  if (!signal || typeof signal !== "object" || !("aborted" in signal)) {
    throw invalidArgType("signal", "an instance of AbortSignal", signal);
  }
  if (!isNodeStream(stream)) {
    throw invalidArgType("stream", "an instance of ReadableStream, WritableStream, or Stream", stream);
  }
  const onAbort = () => stream.destroy(new AbortError(undefined, { cause: signal.reason }));
  if (signal.aborted) {
    onAbort();
  } else {
    signal.addEventListener("abort", onAbort, { once: true });
    finished(stream, () => signal.removeEventListener("abort", onAbort));
  }
  return stream;
}

// ---------------------------------------------------------------- exports

export { destroyAny as destroy };

export const promises = {
  pipeline(...streams) {
    return new Promise((resolve, reject) => {
      let options = {};
      const last = streams.at(-1);
      if (last && typeof last === "object" && !isNodeStream(last) && !isIterable(last) && !Array.isArray(last)) {
        options = streams.pop();
      }
      if (Array.isArray(streams[0]) && streams.length === 1) streams = streams[0];
      runPipeline(streams, (err, value) => (err ? reject(err) : resolve(value)), options);
    });
  },
  finished: finishedPromise,
};

export function _isUint8Array(value) {
  return value instanceof Uint8Array;
}

export function _isArrayBufferView(value) {
  return ArrayBuffer.isView(value);
}

export function _uint8ArrayToBuffer(chunk) {
  return toBuffer(chunk);
}

Object.assign(Stream, {
  isDestroyed,
  isDisturbed,
  isErrored,
  isReadable,
  isWritable,
  Readable,
  Writable,
  Duplex,
  Transform,
  PassThrough,
  duplexPair,
  pipeline,
  addAbortSignal,
  finished,
  destroy: destroyAny,
  setDefaultHighWaterMark,
  getDefaultHighWaterMark,
  promises,
  Stream,
  _isArrayBufferView,
  _isUint8Array,
  _uint8ArrayToBuffer,
});

export default Stream;
