// WHATWG Streams: ReadableStream (default controller), WritableStream,
// TransformStream, the two queuing strategies and the text coding streams,
// with Node 22's error codes and wording. The algorithms follow the spec
// step by step because callers observe their promise ordering; the public
// classes are thin shells over internal records so that the algorithms can
// pass streams, readers and controllers around without brand checks.
//
// Not provided: byte streams proper. A source with `type: "bytes"` gets a
// default controller (chunks must be ArrayBufferViews; no byobRequest), and
// `getReader({ mode: "byob" })` throws.
import { codedError, invalidArgType, invalidArgValue } from "../../node/internal/errors.js";
import { AbortController } from "./abort.js";

const noop = () => {};
const kInternal = Symbol("pihost.streams.internal");
const isObject = (value) => (typeof value === "object" && value !== null) || typeof value === "function";

const invalidState = (message) => codedError(TypeError, "ERR_INVALID_STATE", `Invalid state: ${message}`);
const illegalConstructor = () => codedError(TypeError, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor");
const invalidThis = (type) => codedError(TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type ${type}`);

// Privileged access between the classes below, assigned in their static blocks.
let readableOf, newPublicReadable, bindReadableController, wrapReader, isReadable, writableOf, newPublicWritable, isWritable, bindWritableController, wrapWriter, bindTransformController;

// ---------------------------------------------------------------------------
// Promise plumbing

function deferred() {
  const record = { settled: false };
  record.promise = new Promise((resolve, reject) => {
    record.resolve = (value) => {
      record.settled = true;
      resolve(value);
    };
    record.reject = (reason) => {
      record.settled = true;
      reject(reason);
    };
  });
  return record;
}

function settledDeferred(value, isError) {
  const record = deferred();
  if (isError) {
    record.reject(value);
    markHandled(record.promise);
  } else {
    record.resolve(value);
  }
  return record;
}

// The spec's [[PromiseIsHandled]]: rejections the caller may never look at
// must not surface as unhandled.
function markHandled(promise) {
  promise.then(undefined, noop);
  return promise;
}

function promiseCall(method, receiver, ...args) {
  try {
    return Promise.resolve(method.apply(receiver, args));
  } catch (err) {
    return Promise.reject(err);
  }
}

// ---------------------------------------------------------------------------
// Queue-with-sizes and strategies

function enqueueValueWithSize(container, value, size) {
  if (typeof size !== "number" || Number.isNaN(size) || size < 0 || size === Infinity) {
    throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The argument 'size' is invalid. Received ${size}`);
  }
  container.queue.push({ value, size });
  container.queueTotalSize += size;
}

function dequeueValue(container) {
  const pair = container.queue.shift();
  container.queueTotalSize -= pair.size;
  if (container.queueTotalSize < 0) container.queueTotalSize = 0;
  return pair.value;
}

function resetQueue(container) {
  container.queue = [];
  container.queueTotalSize = 0;
}

function extractHighWaterMark(strategy, defaultHWM, name) {
  const value = strategy?.highWaterMark;
  if (value === undefined) return defaultHWM;
  const hwm = Number(value);
  if (Number.isNaN(hwm) || hwm < 0) throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The property '${name}.highWaterMark' is invalid. Received ${value}`);
  return hwm;
}

function extractSizeAlgorithm(strategy, name) {
  const size = strategy?.size;
  if (size === undefined) return () => 1;
  if (typeof size !== "function") throw invalidArgType(`${name}.size`, "of type function", size);
  return (chunk) => size(chunk);
}

function checkStrategyInit(init, className) {
  if (!isObject(init)) throw invalidArgType("init", "of type object", init);
  if (init.highWaterMark === undefined) throw codedError(TypeError, "ERR_MISSING_OPTION", "init.highWaterMark is required");
  return Number(init.highWaterMark);
}

const byteLengthSize = function size(chunk) {
  return chunk.byteLength;
};
const countSize = function size() {
  return 1;
};

export class ByteLengthQueuingStrategy {
  #highWaterMark;
  constructor(init) {
    this.#highWaterMark = checkStrategyInit(init);
  }
  get highWaterMark() {
    if (!isObject(this) || !(#highWaterMark in this)) throw invalidThis("ByteLengthQueuingStrategy");
    return this.#highWaterMark;
  }
  get size() {
    if (!isObject(this) || !(#highWaterMark in this)) throw invalidThis("ByteLengthQueuingStrategy");
    return byteLengthSize;
  }
}

export class CountQueuingStrategy {
  #highWaterMark;
  constructor(init) {
    this.#highWaterMark = checkStrategyInit(init);
  }
  get highWaterMark() {
    if (!isObject(this) || !(#highWaterMark in this)) throw invalidThis("CountQueuingStrategy");
    return this.#highWaterMark;
  }
  get size() {
    if (!isObject(this) || !(#highWaterMark in this)) throw invalidThis("CountQueuingStrategy");
    return countSize;
  }
}

// ---------------------------------------------------------------------------
// ReadableStream internals


function createReadableRecord(pub) {
  return { state: "readable", reader: undefined, storedError: undefined, disturbed: false, controller: undefined, pub };
}

/** The spec's CreateReadableStream, for streams made by this module. */
function createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark = 1, sizeAlgorithm = () => 1) {
  const pub = newPublicReadable();
  const stream = readableOf(pub);
  setUpReadableController(stream, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

const isReadableLocked = (stream) => stream.reader !== undefined;

function readableStreamClose(stream) {
  stream.state = "closed";
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closed.resolve(undefined);
  const requests = reader.readRequests;
  reader.readRequests = [];
  for (const request of requests) request.close();
}

function readableStreamError(stream, error) {
  stream.state = "errored";
  stream.storedError = error;
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closed.reject(error);
  markHandled(reader.closed.promise);
  errorReadRequests(reader, error);
}

function errorReadRequests(reader, error) {
  const requests = reader.readRequests;
  reader.readRequests = [];
  for (const request of requests) request.error(error);
}

function readableStreamCancel(stream, reason) {
  stream.disturbed = true;
  if (stream.state === "closed") return Promise.resolve(undefined);
  if (stream.state === "errored") return Promise.reject(stream.storedError);
  readableStreamClose(stream);
  return stream.controller.cancelSteps(reason).then(noop);
}

function fulfillReadRequest(stream, chunk, done) {
  const request = stream.reader.readRequests.shift();
  if (done) request.close();
  else request.chunk(chunk);
}

const numReadRequests = (stream) => stream.reader?.readRequests.length ?? 0;

// Readers

function acquireReader(stream) {
  if (isReadableLocked(stream)) throw invalidState("ReadableStream is locked");
  const reader = { stream, readRequests: [], closed: undefined, pub: undefined };
  stream.reader = reader;
  if (stream.state === "readable") reader.closed = deferred();
  else if (stream.state === "closed") reader.closed = settledDeferred(undefined, false);
  else reader.closed = settledDeferred(stream.storedError, true);
  return reader;
}

function readerRead(reader, request) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === "closed") request.close();
  else if (stream.state === "errored") request.error(stream.storedError);
  else stream.controller.pullSteps(request);
}

function readerRelease(reader) {
  const stream = reader.stream;
  const error = invalidState("Releasing reader");
  if (stream.state === "readable") reader.closed.reject(invalidState("Reader released"));
  else reader.closed = settledDeferred(invalidState("Reader released"), true);
  markHandled(reader.closed.promise);
  stream.reader = undefined;
  reader.stream = undefined;
  errorReadRequests(reader, error);
}

/** A read as a promise of {value, done}, as reader.read() returns it. */
function readerReadPromise(reader) {
  const { promise, resolve, reject } = deferred();
  readerRead(reader, {
    chunk: (value) => resolve({ value, done: false }),
    close: () => resolve({ value: undefined, done: true }),
    error: reject,
  });
  return promise;
}

// Default controller

function setUpReadableController(stream, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  const controller = {
    stream,
    queue: [],
    queueTotalSize: 0,
    started: false,
    closeRequested: false,
    pullAgain: false,
    pulling: false,
    strategyHWM: highWaterMark,
    strategySizeAlgorithm: sizeAlgorithm,
    pullAlgorithm,
    cancelAlgorithm,
    pub: new ReadableStreamDefaultController(kInternal),
    cancelSteps(reason) {
      resetQueue(controller);
      const result = controller.cancelAlgorithm(reason);
      clearReadableAlgorithms(controller);
      return result;
    },
    pullSteps(request) {
      if (controller.queue.length > 0) {
        const chunk = dequeueValue(controller);
        if (controller.closeRequested && controller.queue.length === 0) {
          clearReadableAlgorithms(controller);
          readableStreamClose(stream);
        } else {
          readableCallPullIfNeeded(controller);
        }
        request.chunk(chunk);
      } else {
        stream.reader.readRequests.push(request);
        readableCallPullIfNeeded(controller);
      }
    },
  };
  bindReadableController(controller.pub, controller);
  stream.controller = controller;
  const startResult = startAlgorithm(controller);
  Promise.resolve(startResult).then(
    () => {
      controller.started = true;
      readableCallPullIfNeeded(controller);
    },
    (reason) => readableControllerError(controller, reason),
  );
}

function clearReadableAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

const canCloseOrEnqueue = (controller) => !controller.closeRequested && controller.stream.state === "readable";

function readableDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === "errored") return null;
  if (state === "closed") return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

function shouldCallPull(controller) {
  const stream = controller.stream;
  if (!canCloseOrEnqueue(controller) || !controller.started) return false;
  if (isReadableLocked(stream) && numReadRequests(stream) > 0) return true;
  return readableDesiredSize(controller) > 0;
}

function readableCallPullIfNeeded(controller) {
  if (!shouldCallPull(controller)) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  controller.pullAlgorithm(controller).then(
    () => {
      controller.pulling = false;
      if (controller.pullAgain) {
        controller.pullAgain = false;
        readableCallPullIfNeeded(controller);
      }
    },
    (reason) => readableControllerError(controller, reason),
  );
}

function readableControllerClose(controller) {
  if (!canCloseOrEnqueue(controller)) return;
  controller.closeRequested = true;
  if (controller.queue.length === 0) {
    clearReadableAlgorithms(controller);
    readableStreamClose(controller.stream);
  }
}

function readableControllerEnqueue(controller, chunk) {
  if (!canCloseOrEnqueue(controller)) return;
  const stream = controller.stream;
  if (isReadableLocked(stream) && numReadRequests(stream) > 0) {
    fulfillReadRequest(stream, chunk, false);
  } else {
    let size;
    try {
      size = controller.strategySizeAlgorithm(chunk);
    } catch (err) {
      readableControllerError(controller, err);
      throw err;
    }
    try {
      enqueueValueWithSize(controller, chunk, size);
    } catch (err) {
      readableControllerError(controller, err);
      throw err;
    }
  }
  readableCallPullIfNeeded(controller);
}

function readableControllerError(controller, error) {
  if (controller.stream.state !== "readable") return;
  resetQueue(controller);
  clearReadableAlgorithms(controller);
  readableStreamError(controller.stream, error);
}

// Tee (default streams only; chunks are shared, not cloned, as for non-byte streams)

function readableStreamTee(stream) {
  const reader = acquireReader(stream);
  let reading = false;
  let readAgain = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelDone = deferred();

  const pullAlgorithm = () => {
    if (reading) {
      readAgain = true;
      return Promise.resolve(undefined);
    }
    reading = true;
    readerRead(reader, {
      // A microtask, so that a read the branches trigger synchronously
      // cannot re-enter this request's steps.
      chunk: (chunk) =>
        queueMicrotask(() => {
          readAgain = false;
          if (!canceled1) readableControllerEnqueue(branch1.controller, chunk);
          if (!canceled2) readableControllerEnqueue(branch2.controller, chunk);
          reading = false;
          if (readAgain) pullAlgorithm();
        }),
      close: () => {
        reading = false;
        if (!canceled1) readableControllerClose(branch1.controller);
        if (!canceled2) readableControllerClose(branch2.controller);
        if (!canceled1 || !canceled2) cancelDone.resolve(undefined);
      },
      error: () => {
        reading = false;
      },
    });
    return Promise.resolve(undefined);
  };

  const cancelBoth = () => cancelDone.resolve(readableStreamCancel(stream, [reason1, reason2]));
  const cancel1 = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) cancelBoth();
    return cancelDone.promise;
  };
  const cancel2 = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) cancelBoth();
    return cancelDone.promise;
  };

  branch1 = createReadableStream(noop, pullAlgorithm, cancel1);
  branch2 = createReadableStream(noop, pullAlgorithm, cancel2);
  reader.closed.promise.then(undefined, (reason) => {
    readableControllerError(branch1.controller, reason);
    readableControllerError(branch2.controller, reason);
    if (!canceled1 || !canceled2) cancelDone.resolve(undefined);
  });
  return [branch1, branch2];
}

// pipeTo

function readableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const reader = acquireReader(source);
  const writer = acquireWriter(dest);
  source.disturbed = true;
  let shuttingDown = false;
  let currentWrite = Promise.resolve(undefined);
  const result = deferred();
  let abortAlgorithm;

  const finalize = (isError, error) => {
    writerRelease(writer);
    readerRelease(reader);
    if (signal !== undefined) signal.removeEventListener("abort", abortAlgorithm);
    if (isError) result.reject(error);
    else result.resolve(undefined);
  };

  // Writes already handed to the destination finish before the pipe does.
  const waitForWrites = () => {
    const pending = currentWrite;
    return currentWrite.then(() => (pending !== currentWrite ? waitForWrites() : undefined));
  };
  const destStillOpen = () => dest.state === "writable" && !closeQueuedOrInFlight(dest);

  const shutdownWithAction = (action, isError = false, error = undefined) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const run = () => {
      let actionPromise;
      try {
        actionPromise = Promise.resolve(action());
      } catch (err) {
        actionPromise = Promise.reject(err);
      }
      actionPromise.then(
        () => finalize(isError, error),
        (newError) => finalize(true, newError),
      );
    };
    if (destStillOpen()) waitForWrites().then(run);
    else run();
  };

  const shutdown = (isError = false, error = undefined) => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (destStillOpen()) waitForWrites().then(() => finalize(isError, error));
    else finalize(isError, error);
  };

  if (signal !== undefined) {
    abortAlgorithm = () => {
      const error = signal.reason;
      const actions = [];
      if (!preventAbort) actions.push(() => (dest.state === "writable" ? writableStreamAbort(dest, error) : undefined));
      if (!preventCancel) actions.push(() => (source.state === "readable" ? readableStreamCancel(source, error) : undefined));
      shutdownWithAction(() => Promise.all(actions.map((action) => action())), true, error);
    };
    if (signal.aborted) {
      abortAlgorithm();
      return result.promise;
    }
    signal.addEventListener("abort", abortAlgorithm);
  }

  // Errors propagate forward, then backward; closing forward, then backward.
  const onSourceErrored = (storedError) => {
    if (!preventAbort) shutdownWithAction(() => writableStreamAbort(dest, storedError), true, storedError);
    else shutdown(true, storedError);
  };
  const onDestErrored = (storedError) => {
    if (!preventCancel) shutdownWithAction(() => readableStreamCancel(source, storedError), true, storedError);
    else shutdown(true, storedError);
  };
  const onSourceClosed = () => {
    if (!preventClose) shutdownWithAction(() => writerCloseWithErrorPropagation(writer));
    else shutdown();
  };

  if (source.state === "errored") onSourceErrored(source.storedError);
  else reader.closed.promise.then(undefined, onSourceErrored);
  if (dest.state === "errored") onDestErrored(dest.storedError);
  else writer.closed.promise.then(undefined, onDestErrored);
  if (source.state === "closed") onSourceClosed();
  else reader.closed.promise.then(onSourceClosed, noop);
  if (closeQueuedOrInFlight(dest) || dest.state === "closed") {
    const destClosed = new TypeError("the destination writable stream closed before all data could be piped to it");
    if (!preventCancel) shutdownWithAction(() => readableStreamCancel(source, destClosed), true, destClosed);
    else shutdown(true, destClosed);
  }

  const step = () => {
    if (shuttingDown) return;
    writer.ready.promise.then(() => {
      if (shuttingDown) return;
      readerRead(reader, {
        chunk: (chunk) => {
          currentWrite = writerWrite(writer, chunk).then(undefined, noop);
          step();
        },
        close: noop,
        error: noop,
      });
    }, noop);
  };
  step();
  return result.promise;
}

// ReadableStream.from

function readableStreamFromIterable(iterable) {
  const iterator = getAsyncIterator(iterable);
  const pullAlgorithm = (controller) => {
    let next;
    try {
      next = Promise.resolve(iterator.next());
    } catch (err) {
      return Promise.reject(err);
    }
    return next.then((result) => {
      if (!isObject(result)) throw invalidState("The iterator.next() method must return an object");
      if (result.done) readableControllerClose(controller);
      else readableControllerEnqueue(controller, result.value);
    });
  };
  const cancelAlgorithm = (reason) => {
    let returnMethod;
    try {
      returnMethod = iterator.return;
    } catch (err) {
      return Promise.reject(err);
    }
    if (returnMethod === undefined || returnMethod === null) return Promise.resolve(undefined);
    return promiseCall(returnMethod, iterator, reason).then((result) => {
      if (!isObject(result)) throw invalidState("The iterator.return() method must return an object");
    });
  };
  return createReadableStream(noop, pullAlgorithm, cancelAlgorithm, 0);
}

function getAsyncIterator(iterable) {
  const asyncMethod = iterable?.[Symbol.asyncIterator];
  if (asyncMethod !== undefined && asyncMethod !== null) {
    const iterator = asyncMethod.call(iterable);
    if (!isObject(iterator)) throw invalidState("The iterator method must return an object");
    return iterator;
  }
  const syncMethod = iterable?.[Symbol.iterator];
  if (typeof syncMethod !== "function") {
    throw codedError(TypeError, "ERR_ARG_NOT_ITERABLE", `${typeof iterable === "string" ? iterable : String(iterable)} must be iterable`);
  }
  // The spec's CreateAsyncFromSyncIterator: values that are promises are awaited.
  const sync = syncMethod.call(iterable);
  return {
    next() {
      const result = sync.next();
      return Promise.resolve(result.value).then((value) => ({ value, done: Boolean(result.done) }));
    },
    return(value) {
      if (typeof sync.return !== "function") return Promise.resolve({ done: true, value });
      const result = sync.return(value);
      return Promise.resolve(result?.value).then((resolvedValue) => ({ value: resolvedValue, done: true }));
    },
  };
}

// ---------------------------------------------------------------------------
// ReadableStream public classes

export class ReadableStreamDefaultController {
  #controller;

  constructor(key = undefined) {
    if (key !== kInternal) throw illegalConstructor();
  }

  static #get(pub) {
    if (!isObject(pub) || !(#controller in pub)) throw invalidThis("ReadableStreamDefaultController");
    return pub.#controller;
  }

  get desiredSize() {
    return readableDesiredSize(ReadableStreamDefaultController.#get(this));
  }

  close() {
    const controller = ReadableStreamDefaultController.#get(this);
    if (!canCloseOrEnqueue(controller)) throw invalidState("Controller is already closed");
    readableControllerClose(controller);
  }

  enqueue(chunk = undefined) {
    const controller = ReadableStreamDefaultController.#get(this);
    if (!canCloseOrEnqueue(controller)) throw invalidState("Controller is already closed");
    if (controller.bytes && !ArrayBuffer.isView(chunk)) {
      throw invalidArgType("chunk", "an instance of ArrayBuffer or ArrayBufferView", chunk);
    }
    readableControllerEnqueue(controller, chunk);
  }

  error(error = undefined) {
    readableControllerError(ReadableStreamDefaultController.#get(this), error);
  }

  // Byte-stream sources may look for a BYOB request; there never is one here.
  get byobRequest() {
    return null;
  }

  static {
    bindReadableController = (pub, controller) => {
      pub.#controller = controller;
    };
  }
}

export class ReadableStreamDefaultReader {
  #reader;

  constructor(stream) {
    if (stream === kInternal) return;
    if (!isReadable(stream)) throw invalidArgType("stream", "an instance of ReadableStream", stream);
    this.#reader = acquireReader(readableOf(stream));
    this.#reader.pub = this;
  }

  static #get(pub) {
    if (!isObject(pub) || !(#reader in pub)) throw invalidThis("ReadableStreamDefaultReader");
    return pub.#reader;
  }

  read() {
    let reader;
    try {
      reader = ReadableStreamDefaultReader.#get(this);
    } catch (err) {
      return Promise.reject(err);
    }
    if (reader.stream === undefined) return Promise.reject(invalidState("The reader is not attached to a stream"));
    return readerReadPromise(reader);
  }

  releaseLock() {
    const reader = ReadableStreamDefaultReader.#get(this);
    if (reader.stream === undefined) return;
    readerRelease(reader);
  }

  get closed() {
    try {
      return ReadableStreamDefaultReader.#get(this).closed.promise;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  cancel(reason = undefined) {
    let reader;
    try {
      reader = ReadableStreamDefaultReader.#get(this);
    } catch (err) {
      return Promise.reject(err);
    }
    if (reader.stream === undefined) return Promise.reject(invalidState("The reader is not attached to a stream"));
    return readableStreamCancel(reader.stream, reason);
  }

  static {
    wrapReader = (reader) => {
      const pub = new ReadableStreamDefaultReader(kInternal);
      pub.#reader = reader;
      reader.pub = pub;
      return pub;
    };
  }
}

const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);

function createAsyncIterator(stream, preventCancel) {
  const reader = acquireReader(stream);
  let ongoing;
  let finished = false;
  const nextSteps = () => {
    if (finished) return Promise.resolve({ value: undefined, done: true });
    if (reader.stream === undefined) return Promise.reject(invalidState("The reader is not attached to a stream"));
    const { promise, resolve, reject } = deferred();
    readerRead(reader, {
      chunk: (value) => resolve({ value, done: false }),
      close: () => {
        readerRelease(reader);
        finished = true;
        resolve({ value: undefined, done: true });
      },
      error: (error) => {
        readerRelease(reader);
        finished = true;
        reject(error);
      },
    });
    return promise;
  };
  const returnSteps = (value) => {
    if (finished) return Promise.resolve({ done: true, value });
    finished = true;
    if (reader.stream === undefined) return Promise.resolve({ done: true, value });
    if (!preventCancel) {
      const cancelled = readableStreamCancel(reader.stream, value);
      readerRelease(reader);
      return cancelled.then(() => ({ done: true, value }));
    }
    readerRelease(reader);
    return Promise.resolve({ done: true, value });
  };
  const iterator = Object.create(ReadableStreamAsyncIteratorPrototype);
  iterator.next = function next() {
    ongoing = ongoing === undefined ? nextSteps() : ongoing.then(nextSteps, nextSteps);
    const current = ongoing;
    current.then(
      (result) => {
        if (ongoing === current && result.done) ongoing = undefined;
      },
      () => {
        if (ongoing === current) ongoing = undefined;
      },
    );
    return current;
  };
  iterator.return = function (value = undefined) {
    const steps = () => returnSteps(value);
    ongoing = ongoing === undefined ? steps() : ongoing.then(steps, steps);
    return ongoing;
  };
  Object.defineProperty(iterator, "return", { enumerable: false });
  Object.defineProperty(iterator, "next", { enumerable: false });
  return iterator;
}

const ReadableStreamAsyncIteratorPrototype = Object.create(AsyncIteratorPrototype);

export class ReadableStream {
  #stream;

  constructor(underlyingSource = undefined, strategy = undefined) {
    this.#stream = createReadableRecord(this);
    if (underlyingSource === kInternal) return;
    const source = underlyingSource === undefined ? {} : underlyingSource;
    if (!isObject(source)) throw invalidArgType("source", "of type object", source);
    if (strategy !== undefined && strategy !== null && !isObject(strategy)) throw invalidArgType("strategy", "of type object", strategy);
    // WebIDL reads dictionary members in lexicographic order.
    const cancel = source.cancel;
    const pull = source.pull;
    const start = source.start;
    const type = source.type;
    for (const [name, method] of [["cancel", cancel], ["pull", pull], ["start", start]]) {
      if (method !== undefined && typeof method !== "function") throw invalidArgType(`source.${name}`, "of type function", method);
    }
    const typeText = type === undefined ? undefined : `${type}`;
    if (typeText !== undefined && typeText !== "bytes") throw invalidArgValue("source.type", type);
    const isBytes = typeText === "bytes";
    const sizeAlgorithm = isBytes ? () => 1 : extractSizeAlgorithm(strategy, "strategy");
    const highWaterMark = extractHighWaterMark(strategy, isBytes ? 0 : 1, "strategy");
    setUpReadableController(
      this.#stream,
      (controller) => (start === undefined ? undefined : start.call(source, controller.pub)),
      pull === undefined ? () => Promise.resolve(undefined) : (controller) => promiseCall(pull, source, controller.pub),
      cancel === undefined ? () => Promise.resolve(undefined) : (reason) => promiseCall(cancel, source, reason),
      highWaterMark,
      sizeAlgorithm,
    );
    if (isBytes) this.#stream.controller.bytes = true;
  }

  static #get(pub) {
    if (!isObject(pub) || !(#stream in pub)) throw invalidThis("ReadableStream");
    return pub.#stream;
  }

  static from(iterable) {
    return readableStreamFromIterable(iterable).pub;
  }

  get locked() {
    return isReadableLocked(ReadableStream.#get(this));
  }

  cancel(reason = undefined) {
    let stream;
    try {
      stream = ReadableStream.#get(this);
    } catch (err) {
      return Promise.reject(err);
    }
    if (isReadableLocked(stream)) return Promise.reject(invalidState("ReadableStream is locked"));
    return readableStreamCancel(stream, reason);
  }

  getReader(options = undefined) {
    const stream = ReadableStream.#get(this);
    if (options !== undefined && options !== null && !isObject(options)) throw invalidArgType("options", "of type object", options);
    const mode = options?.mode;
    if (mode !== undefined) {
      if (`${mode}` === "byob") throw codedError(TypeError, "ERR_METHOD_NOT_IMPLEMENTED", "BYOB readers are not supported in pihost");
      throw invalidArgValue("options.mode", mode);
    }
    return wrapReader(acquireReader(stream));
  }

  pipeThrough(transform, options = undefined) {
    const stream = ReadableStream.#get(this);
    const readable = transform?.readable;
    if (!isReadable(readable)) throw invalidArgType("transform.readable", "an instance of ReadableStream", readable);
    const writable = transform?.writable;
    if (!isWritable(writable)) throw invalidArgType("transform.writable", "an instance of WritableStream", writable);
    const { preventClose, preventAbort, preventCancel, signal } = pipeOptions(options);
    if (isReadableLocked(stream)) throw invalidState("The ReadableStream is locked");
    if (isWritableLocked(writableOf(writable))) throw invalidState("The WritableStream is locked");
    markHandled(readableStreamPipeTo(stream, writableOf(writable), preventClose, preventAbort, preventCancel, signal));
    return readable;
  }

  pipeTo(destination, options = undefined) {
    try {
      const stream = ReadableStream.#get(this);
      if (!isWritable(destination)) throw invalidArgType("transform.writable", "an instance of WritableStream", destination);
      const { preventClose, preventAbort, preventCancel, signal } = pipeOptions(options);
      if (isReadableLocked(stream)) throw invalidState("The ReadableStream is locked");
      const dest = writableOf(destination);
      if (isWritableLocked(dest)) throw invalidState("The WritableStream is locked");
      return readableStreamPipeTo(stream, dest, preventClose, preventAbort, preventCancel, signal);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  tee() {
    const [branch1, branch2] = readableStreamTee(ReadableStream.#get(this));
    return [branch1.pub, branch2.pub];
  }

  values(options = undefined) {
    const stream = ReadableStream.#get(this);
    return createAsyncIterator(stream, Boolean(options?.preventCancel));
  }

  static {
    readableOf = (pub) => pub.#stream;
    isReadable = (value) => isObject(value) && #stream in value;
    newPublicReadable = () => new ReadableStream(kInternal);
  }
}

function pipeOptions(options) {
  if (options === undefined || options === null) return { preventClose: false, preventAbort: false, preventCancel: false, signal: undefined };
  if (!isObject(options)) throw invalidArgType("options", "of type object", options);
  const signal = options.signal;
  if (signal !== undefined && !(isObject(signal) && "aborted" in signal && typeof signal.addEventListener === "function")) {
    throw invalidArgType("options.signal", "an instance of AbortSignal", signal);
  }
  return {
    preventAbort: Boolean(options.preventAbort),
    preventCancel: Boolean(options.preventCancel),
    preventClose: Boolean(options.preventClose),
    signal,
  };
}

Object.defineProperty(ReadableStream.prototype, Symbol.asyncIterator, {
  value: ReadableStream.prototype.values,
  writable: true,
  configurable: true,
});

// ---------------------------------------------------------------------------
// WritableStream internals


const closeSentinel = Symbol("close");

function createWritableRecord(pub) {
  return {
    state: "writable",
    storedError: undefined,
    writer: undefined,
    controller: undefined,
    inFlightWriteRequest: undefined,
    closeRequest: undefined,
    inFlightCloseRequest: undefined,
    pendingAbortRequest: undefined,
    writeRequests: [],
    backpressure: false,
    pub,
  };
}

function createWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark = 1, sizeAlgorithm = () => 1) {
  const stream = writableOf(newPublicWritable());
  setUpWritableController(stream, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

const isWritableLocked = (stream) => stream.writer !== undefined;
const closeQueuedOrInFlight = (stream) => stream.closeRequest !== undefined || stream.inFlightCloseRequest !== undefined;
const hasOperationMarkedInFlight = (stream) => stream.inFlightWriteRequest !== undefined || stream.inFlightCloseRequest !== undefined;

function writableStreamAbort(stream, reason) {
  if (stream.state === "closed" || stream.state === "errored") return Promise.resolve(undefined);
  stream.controller.abortController.abort(reason);
  const state = stream.state;
  if (state === "closed" || state === "errored") return Promise.resolve(undefined);
  if (stream.pendingAbortRequest !== undefined) return stream.pendingAbortRequest.deferred.promise;
  const wasAlreadyErroring = state === "erroring";
  const request = { deferred: deferred(), reason: wasAlreadyErroring ? undefined : reason, wasAlreadyErroring };
  stream.pendingAbortRequest = request;
  if (!wasAlreadyErroring) writableStartErroring(stream, reason);
  return request.deferred.promise;
}

function writableStreamClose(stream) {
  if (stream.state === "closed" || stream.state === "errored") {
    return Promise.reject(invalidState("WritableStream is closed"));
  }
  const request = deferred();
  stream.closeRequest = request;
  const writer = stream.writer;
  if (writer !== undefined && stream.backpressure && stream.state === "writable") writer.ready.resolve(undefined);
  enqueueValueWithSize(stream.controller, closeSentinel, 0);
  writableAdvanceQueueIfNeeded(stream.controller);
  return request.promise;
}

function writableDealWithRejection(stream, error) {
  if (stream.state === "writable") writableStartErroring(stream, error);
  else writableFinishErroring(stream);
}

function writableStartErroring(stream, reason) {
  const controller = stream.controller;
  stream.state = "erroring";
  stream.storedError = reason;
  if (stream.writer !== undefined) writerEnsureReadyPromiseRejected(stream.writer, reason);
  if (!hasOperationMarkedInFlight(stream) && controller.started) writableFinishErroring(stream);
}

function writableFinishErroring(stream) {
  stream.state = "errored";
  resetQueue(stream.controller);
  const storedError = stream.storedError;
  for (const request of stream.writeRequests) request.reject(storedError);
  stream.writeRequests = [];
  const abortRequest = stream.pendingAbortRequest;
  if (abortRequest === undefined) {
    rejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  stream.pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.deferred.reject(storedError);
    rejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const controller = stream.controller;
  const result = controller.abortAlgorithm(abortRequest.reason);
  clearWritableAlgorithms(controller);
  result.then(
    () => {
      abortRequest.deferred.resolve(undefined);
      rejectCloseAndClosedPromiseIfNeeded(stream);
    },
    (reason) => {
      abortRequest.deferred.reject(reason);
      rejectCloseAndClosedPromiseIfNeeded(stream);
    },
  );
}

function finishInFlightWrite(stream) {
  stream.inFlightWriteRequest.resolve(undefined);
  stream.inFlightWriteRequest = undefined;
}

function finishInFlightWriteWithError(stream, error) {
  stream.inFlightWriteRequest.reject(error);
  stream.inFlightWriteRequest = undefined;
  writableDealWithRejection(stream, error);
}

function finishInFlightClose(stream) {
  stream.inFlightCloseRequest.resolve(undefined);
  stream.inFlightCloseRequest = undefined;
  if (stream.state === "erroring") {
    stream.storedError = undefined;
    if (stream.pendingAbortRequest !== undefined) {
      stream.pendingAbortRequest.deferred.resolve(undefined);
      stream.pendingAbortRequest = undefined;
    }
  }
  stream.state = "closed";
  if (stream.writer !== undefined) stream.writer.closed.resolve(undefined);
}

function finishInFlightCloseWithError(stream, error) {
  stream.inFlightCloseRequest.reject(error);
  stream.inFlightCloseRequest = undefined;
  if (stream.pendingAbortRequest !== undefined) {
    stream.pendingAbortRequest.deferred.reject(error);
    stream.pendingAbortRequest = undefined;
  }
  writableDealWithRejection(stream, error);
}

function rejectCloseAndClosedPromiseIfNeeded(stream) {
  if (stream.closeRequest !== undefined) {
    stream.closeRequest.reject(stream.storedError);
    stream.closeRequest = undefined;
  }
  const writer = stream.writer;
  if (writer !== undefined) {
    writer.closed.reject(stream.storedError);
    markHandled(writer.closed.promise);
  }
}

function writableUpdateBackpressure(stream, backpressure) {
  const writer = stream.writer;
  if (writer !== undefined && backpressure !== stream.backpressure) {
    if (backpressure) writer.ready = deferred();
    else writer.ready.resolve(undefined);
  }
  stream.backpressure = backpressure;
}

// Writers

function acquireWriter(stream) {
  if (isWritableLocked(stream)) throw invalidState("WritableStream is locked");
  const writer = { stream, ready: undefined, closed: undefined, pub: undefined };
  stream.writer = writer;
  const state = stream.state;
  if (state === "writable") {
    writer.ready = !closeQueuedOrInFlight(stream) && stream.backpressure ? deferred() : settledDeferred(undefined, false);
    writer.closed = deferred();
  } else if (state === "erroring") {
    writer.ready = settledDeferred(stream.storedError, true);
    writer.closed = deferred();
  } else if (state === "closed") {
    writer.ready = settledDeferred(undefined, false);
    writer.closed = settledDeferred(undefined, false);
  } else {
    writer.ready = settledDeferred(stream.storedError, true);
    writer.closed = settledDeferred(stream.storedError, true);
  }
  return writer;
}

function writerEnsureReadyPromiseRejected(writer, error) {
  if (writer.ready.settled) writer.ready = settledDeferred(error, true);
  else {
    writer.ready.reject(error);
    markHandled(writer.ready.promise);
  }
}

function writerEnsureClosedPromiseRejected(writer, error) {
  if (writer.closed.settled) writer.closed = settledDeferred(error, true);
  else {
    writer.closed.reject(error);
    markHandled(writer.closed.promise);
  }
}

function writerDesiredSize(writer) {
  const state = writer.stream.state;
  if (state === "errored" || state === "erroring") return null;
  if (state === "closed") return 0;
  return writer.stream.controller.strategyHWM - writer.stream.controller.queueTotalSize;
}

function writerRelease(writer) {
  const stream = writer.stream;
  const released = invalidState("Writer has been released");
  writerEnsureReadyPromiseRejected(writer, released);
  writerEnsureClosedPromiseRejected(writer, released);
  stream.writer = undefined;
  writer.stream = undefined;
}

function writerWrite(writer, chunk) {
  const stream = writer.stream;
  const controller = stream.controller;
  const chunkSize = writableChunkSize(controller, chunk);
  if (stream !== writer.stream) return Promise.reject(invalidState("Writer is not bound to a WritableStream"));
  const state = stream.state;
  if (state === "errored") return Promise.reject(stream.storedError);
  if (closeQueuedOrInFlight(stream) || state === "closed") return Promise.reject(invalidState("WritableStream is closed"));
  if (state === "erroring") return Promise.reject(stream.storedError);
  const request = deferred();
  stream.writeRequests.push(request);
  writableControllerWrite(controller, chunk, chunkSize);
  return request.promise;
}

function writerClose(writer) {
  const stream = writer.stream;
  if (closeQueuedOrInFlight(stream)) return Promise.reject(invalidState("Failure to close WritableStream"));
  return writableStreamClose(stream);
}

function writerCloseWithErrorPropagation(writer) {
  const stream = writer.stream;
  if (closeQueuedOrInFlight(stream) || stream.state === "closed") return Promise.resolve(undefined);
  if (stream.state === "errored") return Promise.reject(stream.storedError);
  return writerClose(writer);
}

// Writable controller

function setUpWritableController(stream, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  const controller = {
    stream,
    queue: [],
    queueTotalSize: 0,
    started: false,
    strategyHWM: highWaterMark,
    strategySizeAlgorithm: sizeAlgorithm,
    writeAlgorithm,
    closeAlgorithm,
    abortAlgorithm,
    abortController: new AbortController(),
    pub: new WritableStreamDefaultController(kInternal),
  };
  bindWritableController(controller.pub, controller);
  stream.controller = controller;
  writableUpdateBackpressure(stream, writableBackpressure(controller));
  const startResult = startAlgorithm(controller);
  Promise.resolve(startResult).then(
    () => {
      controller.started = true;
      writableAdvanceQueueIfNeeded(controller);
    },
    (reason) => {
      controller.started = true;
      writableDealWithRejection(stream, reason);
    },
  );
}

function clearWritableAlgorithms(controller) {
  controller.writeAlgorithm = undefined;
  controller.closeAlgorithm = undefined;
  controller.abortAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

const writableBackpressure = (controller) => controller.strategyHWM - controller.queueTotalSize <= 0;

function writableChunkSize(controller, chunk) {
  if (controller.strategySizeAlgorithm === undefined) return 1;
  try {
    return controller.strategySizeAlgorithm(chunk);
  } catch (err) {
    writableErrorIfNeeded(controller, err);
    return 1;
  }
}

function writableControllerWrite(controller, chunk, chunkSize) {
  try {
    enqueueValueWithSize(controller, chunk, chunkSize);
  } catch (err) {
    writableErrorIfNeeded(controller, err);
    return;
  }
  const stream = controller.stream;
  if (!closeQueuedOrInFlight(stream) && stream.state === "writable") writableUpdateBackpressure(stream, writableBackpressure(controller));
  writableAdvanceQueueIfNeeded(controller);
}

function writableAdvanceQueueIfNeeded(controller) {
  const stream = controller.stream;
  if (!controller.started || stream.inFlightWriteRequest !== undefined) return;
  if (stream.state === "erroring") {
    writableFinishErroring(stream);
    return;
  }
  if (controller.queue.length === 0) return;
  const value = controller.queue[0].value;
  if (value === closeSentinel) {
    stream.inFlightCloseRequest = stream.closeRequest;
    stream.closeRequest = undefined;
    dequeueValue(controller);
    const sinkClose = controller.closeAlgorithm();
    clearWritableAlgorithms(controller);
    sinkClose.then(
      () => finishInFlightClose(stream),
      (reason) => finishInFlightCloseWithError(stream, reason),
    );
  } else {
    stream.inFlightWriteRequest = stream.writeRequests.shift();
    controller.writeAlgorithm(value).then(
      () => {
        finishInFlightWrite(stream);
        dequeueValue(controller);
        if (!closeQueuedOrInFlight(stream) && stream.state === "writable") writableUpdateBackpressure(stream, writableBackpressure(controller));
        writableAdvanceQueueIfNeeded(controller);
      },
      (reason) => {
        if (stream.state === "writable") clearWritableAlgorithms(controller);
        finishInFlightWriteWithError(stream, reason);
      },
    );
  }
}

function writableErrorIfNeeded(controller, error) {
  if (controller.stream.state === "writable") writableControllerError(controller, error);
}

function writableControllerError(controller, error) {
  clearWritableAlgorithms(controller);
  writableStartErroring(controller.stream, error);
}

// ---------------------------------------------------------------------------
// WritableStream public classes

export class WritableStreamDefaultController {
  #controller;

  constructor(key = undefined) {
    if (key !== kInternal) throw illegalConstructor();
  }

  static #get(pub) {
    if (!isObject(pub) || !(#controller in pub)) throw invalidThis("WritableStreamDefaultController");
    return pub.#controller;
  }

  get signal() {
    return WritableStreamDefaultController.#get(this).abortController.signal;
  }

  error(error = undefined) {
    const controller = WritableStreamDefaultController.#get(this);
    if (controller.stream.state !== "writable") return;
    writableControllerError(controller, error);
  }

  static {
    bindWritableController = (pub, controller) => {
      pub.#controller = controller;
    };
  }
}

export class WritableStreamDefaultWriter {
  #writer;

  constructor(stream) {
    if (stream === kInternal) return;
    if (!isWritable(stream)) throw invalidArgType("stream", "an instance of WritableStream", stream);
    this.#writer = acquireWriter(writableOf(stream));
    this.#writer.pub = this;
  }

  static #get(pub) {
    if (!isObject(pub) || !(#writer in pub)) throw invalidThis("WritableStreamDefaultWriter");
    return pub.#writer;
  }

  // Rejects instead of throwing, as promise-returning WebIDL operations do.
  static #attached(pub) {
    const writer = WritableStreamDefaultWriter.#get(pub);
    if (writer.stream === undefined) throw invalidState("Writer is not bound to a WritableStream");
    return writer;
  }

  get closed() {
    try {
      return WritableStreamDefaultWriter.#get(this).closed.promise;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  get ready() {
    try {
      return WritableStreamDefaultWriter.#get(this).ready.promise;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  get desiredSize() {
    const writer = WritableStreamDefaultWriter.#get(this);
    if (writer.stream === undefined) throw invalidState("Writer is not bound to a WritableStream");
    return writerDesiredSize(writer);
  }

  abort(reason = undefined) {
    try {
      return writableStreamAbort(WritableStreamDefaultWriter.#attached(this).stream, reason);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  close() {
    try {
      return writerClose(WritableStreamDefaultWriter.#attached(this));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  releaseLock() {
    const writer = WritableStreamDefaultWriter.#get(this);
    if (writer.stream === undefined) return;
    writerRelease(writer);
  }

  write(chunk = undefined) {
    try {
      return writerWrite(WritableStreamDefaultWriter.#attached(this), chunk);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  static {
    wrapWriter = (writer) => {
      const pub = new WritableStreamDefaultWriter(kInternal);
      pub.#writer = writer;
      writer.pub = pub;
      return pub;
    };
  }
}

export class WritableStream {
  #stream;

  constructor(underlyingSink = undefined, strategy = undefined) {
    this.#stream = createWritableRecord(this);
    if (underlyingSink === kInternal) return;
    const sink = underlyingSink === undefined ? {} : underlyingSink;
    if (!isObject(sink)) throw invalidArgType("sink", "of type object", sink);
    if (strategy !== undefined && strategy !== null && !isObject(strategy)) throw invalidArgType("strategy", "of type object", strategy);
    const abort = sink.abort;
    const close = sink.close;
    const start = sink.start;
    const type = sink.type;
    const write = sink.write;
    for (const [name, method] of [["abort", abort], ["close", close], ["start", start], ["write", write]]) {
      if (method !== undefined && typeof method !== "function") throw invalidArgType(`sink.${name}`, "of type function", method);
    }
    if (type !== undefined) throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The argument 'type' is invalid. Received ${describeLiteral(type)}`);
    const sizeAlgorithm = extractSizeAlgorithm(strategy, "strategy");
    const highWaterMark = extractHighWaterMark(strategy, 1, "strategy");
    setUpWritableController(
      this.#stream,
      (controller) => (start === undefined ? undefined : start.call(sink, controller.pub)),
      write === undefined ? () => Promise.resolve(undefined) : (chunk) => promiseCall(write, sink, chunk, this.#stream.controller.pub),
      close === undefined ? () => Promise.resolve(undefined) : () => promiseCall(close, sink),
      abort === undefined ? () => Promise.resolve(undefined) : (reason) => promiseCall(abort, sink, reason),
      highWaterMark,
      sizeAlgorithm,
    );
  }

  static #get(pub) {
    if (!isObject(pub) || !(#stream in pub)) throw invalidThis("WritableStream");
    return pub.#stream;
  }

  get locked() {
    return isWritableLocked(WritableStream.#get(this));
  }

  abort(reason = undefined) {
    try {
      const stream = WritableStream.#get(this);
      if (isWritableLocked(stream)) throw invalidState("WritableStream is locked");
      return writableStreamAbort(stream, reason);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  close() {
    try {
      const stream = WritableStream.#get(this);
      if (isWritableLocked(stream)) throw invalidState("WritableStream is locked");
      if (closeQueuedOrInFlight(stream)) throw invalidState("Failure to close WritableStream");
      return writableStreamClose(stream);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  getWriter() {
    return wrapWriter(acquireWriter(WritableStream.#get(this)));
  }

  static {
    writableOf = (pub) => pub.#stream;
    isWritable = (value) => isObject(value) && #stream in value;
    newPublicWritable = () => new WritableStream(kInternal);
  }
}

// ---------------------------------------------------------------------------
// TransformStream


function setTransformBackpressure(stream, backpressure) {
  stream.backpressureChange?.resolve(undefined);
  stream.backpressureChange = deferred();
  stream.backpressure = backpressure;
}

function transformStreamError(stream, error) {
  readableControllerError(stream.readable.controller, error);
  transformErrorWritableAndUnblockWrite(stream, error);
}

function transformErrorWritableAndUnblockWrite(stream, error) {
  clearTransformAlgorithms(stream.controller);
  writableErrorIfNeeded(stream.writable.controller, error);
  transformUnblockWrite(stream);
}

function transformUnblockWrite(stream) {
  if (stream.backpressure) setTransformBackpressure(stream, false);
}

function clearTransformAlgorithms(controller) {
  controller.transformAlgorithm = undefined;
  controller.flushAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

function transformEnqueue(controller, chunk) {
  const stream = controller.stream;
  const readableController = stream.readable.controller;
  if (!canCloseOrEnqueue(readableController)) throw invalidState("Unable to enqueue");
  try {
    readableControllerEnqueue(readableController, chunk);
  } catch (err) {
    transformErrorWritableAndUnblockWrite(stream, err);
    throw stream.readable.storedError;
  }
  const backpressure = !shouldCallPull(readableController);
  if (backpressure !== stream.backpressure) setTransformBackpressure(stream, true);
}

function transformTerminate(controller) {
  const stream = controller.stream;
  readableControllerClose(stream.readable.controller);
  transformErrorWritableAndUnblockWrite(stream, invalidState("TransformStream has been terminated"));
}

function performTransform(controller, chunk) {
  return controller.transformAlgorithm(chunk).then(undefined, (reason) => {
    transformStreamError(controller.stream, reason);
    throw reason;
  });
}

function transformSinkWrite(stream, chunk) {
  const controller = stream.controller;
  if (stream.backpressure) {
    return stream.backpressureChange.promise.then(() => {
      const writable = stream.writable;
      if (writable.state === "erroring") throw writable.storedError;
      return performTransform(controller, chunk);
    });
  }
  return performTransform(controller, chunk);
}

// Abort, close and cancel share one "finish" promise so that whichever
// comes first decides, and the transformer's cancel/flush runs once.
function transformFinish(stream, run, onFulfilled, onRejected) {
  const controller = stream.controller;
  if (controller.finish !== undefined) return controller.finish.promise;
  controller.finish = deferred();
  const finish = controller.finish;
  const result = run(controller);
  clearTransformAlgorithms(controller);
  result.then(
    () => onFulfilled(finish),
    (reason) => {
      onRejected(reason);
      finish.reject(reason);
    },
  );
  return finish.promise;
}

function transformSinkAbort(stream, reason) {
  const readable = stream.readable;
  return transformFinish(
    stream,
    (controller) => controller.cancelAlgorithm(reason),
    (finish) => {
      if (readable.state === "errored") finish.reject(readable.storedError);
      else {
        readableControllerError(readable.controller, reason);
        finish.resolve(undefined);
      }
    },
    (error) => readableControllerError(readable.controller, error),
  );
}

function transformSinkClose(stream) {
  const readable = stream.readable;
  return transformFinish(
    stream,
    (controller) => controller.flushAlgorithm(),
    (finish) => {
      if (readable.state === "errored") finish.reject(readable.storedError);
      else {
        readableControllerClose(readable.controller);
        finish.resolve(undefined);
      }
    },
    (error) => readableControllerError(readable.controller, error),
  );
}

function transformSourceCancel(stream, reason) {
  const writable = stream.writable;
  return transformFinish(
    stream,
    (controller) => controller.cancelAlgorithm(reason),
    (finish) => {
      if (writable.state === "errored") finish.reject(writable.storedError);
      else {
        writableErrorIfNeeded(writable.controller, reason);
        transformUnblockWrite(stream);
        finish.resolve(undefined);
      }
    },
    (error) => {
      writableErrorIfNeeded(writable.controller, error);
      transformUnblockWrite(stream);
    },
  );
}

export class TransformStreamDefaultController {
  #controller;

  constructor(key = undefined) {
    if (key !== kInternal) throw illegalConstructor();
  }

  static #get(pub) {
    if (!isObject(pub) || !(#controller in pub)) throw invalidThis("TransformStreamDefaultController");
    return pub.#controller;
  }

  get desiredSize() {
    return readableDesiredSize(TransformStreamDefaultController.#get(this).stream.readable.controller);
  }

  enqueue(chunk = undefined) {
    transformEnqueue(TransformStreamDefaultController.#get(this), chunk);
  }

  error(reason = undefined) {
    transformStreamError(TransformStreamDefaultController.#get(this).stream, reason);
  }

  terminate() {
    transformTerminate(TransformStreamDefaultController.#get(this));
  }

  static {
    bindTransformController = (pub, controller) => {
      pub.#controller = controller;
    };
  }
}

export class TransformStream {
  #stream;

  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    const source = transformer === undefined ? {} : transformer;
    if (!isObject(source)) throw invalidArgType("transformer", "of type object", source);
    const cancel = source.cancel;
    const flush = source.flush;
    const readableType = source.readableType;
    const start = source.start;
    const transform = source.transform;
    const writableType = source.writableType;
    if (readableType !== undefined) {
      throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The property 'transformer.readableType' is invalid. Received ${describeLiteral(readableType)}`);
    }
    if (writableType !== undefined) {
      throw codedError(RangeError, "ERR_INVALID_ARG_VALUE", `The property 'transformer.writableType' is invalid. Received ${describeLiteral(writableType)}`);
    }
    for (const [name, method] of [["cancel", cancel], ["flush", flush], ["start", start], ["transform", transform]]) {
      if (method !== undefined && typeof method !== "function") throw invalidArgType(`transformer.${name}`, "of type function", method);
    }
    const readableHWM = extractHighWaterMark(readableStrategy, 0, "readableStrategy");
    const readableSize = extractSizeAlgorithm(readableStrategy, "readableStrategy");
    const writableHWM = extractHighWaterMark(writableStrategy, 1, "writableStrategy");
    const writableSize = extractSizeAlgorithm(writableStrategy, "writableStrategy");

    const startPromise = deferred();
    const stream = { backpressure: undefined, backpressureChange: undefined, readable: undefined, writable: undefined, controller: undefined, pub: this };
    this.#stream = stream;
    const startAlgorithm = () => startPromise.promise;
    stream.writable = createWritableStream(
      startAlgorithm,
      (chunk) => transformSinkWrite(stream, chunk),
      () => transformSinkClose(stream),
      (reason) => transformSinkAbort(stream, reason),
      writableHWM,
      writableSize,
    );
    stream.readable = createReadableStream(
      startAlgorithm,
      () => {
        setTransformBackpressure(stream, false);
        return stream.backpressureChange.promise;
      },
      (reason) => transformSourceCancel(stream, reason),
      readableHWM,
      readableSize,
    );
    setTransformBackpressure(stream, true);

    const controller = {
      stream,
      finish: undefined,
      pub: new TransformStreamDefaultController(kInternal),
      transformAlgorithm: undefined,
      flushAlgorithm: flush === undefined ? () => Promise.resolve(undefined) : () => promiseCall(flush, source, controller.pub),
      cancelAlgorithm: cancel === undefined ? () => Promise.resolve(undefined) : (reason) => promiseCall(cancel, source, reason),
    };
    controller.transformAlgorithm =
      transform === undefined
        ? (chunk) => {
            try {
              transformEnqueue(controller, chunk);
              return Promise.resolve(undefined);
            } catch (err) {
              return Promise.reject(err);
            }
          }
        : (chunk) => promiseCall(transform, source, chunk, controller.pub);
    bindTransformController(controller.pub, controller);
    stream.controller = controller;
    startPromise.resolve(start === undefined ? undefined : start.call(source, controller.pub));
  }

  static #get(pub) {
    if (!isObject(pub) || !(#stream in pub)) throw invalidThis("TransformStream");
    return pub.#stream;
  }

  get readable() {
    return TransformStream.#get(this).readable.pub;
  }

  get writable() {
    return TransformStream.#get(this).writable.pub;
  }
}

function describeLiteral(value) {
  return typeof value === "string" ? `'${value}'` : String(value);
}

// ---------------------------------------------------------------------------
// Text coding streams

export class TextEncoderStream {
  #transform;
  #encoder = new TextEncoder();

  constructor() {
    // A lone high surrogate at the end of a chunk may pair with the next one.
    let pendingHigh = "";
    this.#transform = new TransformStream({
      transform: (chunk, controller) => {
        let text = pendingHigh + `${chunk}`;
        pendingHigh = "";
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pendingHigh = text.slice(-1);
          text = text.slice(0, -1);
        }
        if (text.length > 0) controller.enqueue(this.#encoder.encode(text));
      },
      flush: (controller) => {
        if (pendingHigh !== "") controller.enqueue(new Uint8Array([0xef, 0xbf, 0xbd]));
      },
    });
  }

  get encoding() {
    return "utf-8";
  }

  get readable() {
    return this.#transform.readable;
  }

  get writable() {
    return this.#transform.writable;
  }
}

export class TextDecoderStream {
  #transform;
  #decoder;

  constructor(label = "utf-8", options = {}) {
    this.#decoder = new TextDecoder(label, options);
    this.#transform = new TransformStream({
      transform: (chunk, controller) => {
        if (!(chunk instanceof ArrayBuffer) && !ArrayBuffer.isView(chunk)) {
          throw invalidArgType("chunk", "an instance of ArrayBuffer or ArrayBufferView", chunk);
        }
        const text = this.#decoder.decode(chunk, { stream: true });
        if (text !== "") controller.enqueue(text);
      },
      flush: (controller) => {
        const text = this.#decoder.decode();
        if (text !== "") controller.enqueue(text);
      },
    });
  }

  get encoding() {
    return this.#decoder.encoding;
  }

  get fatal() {
    return this.#decoder.fatal;
  }

  get ignoreBOM() {
    return this.#decoder.ignoreBOM;
  }

  get readable() {
    return this.#transform.readable;
  }

  get writable() {
    return this.#transform.writable;
  }
}

// ---------------------------------------------------------------------------
// Class decoration

const tag = (Ctor, name) => Object.defineProperty(Ctor.prototype, Symbol.toStringTag, { value: name, configurable: true });
for (const Ctor of [
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamDefaultController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  TextEncoderStream,
  TextDecoderStream,
]) {
  tag(Ctor, Ctor.name);
  for (const name of Object.getOwnPropertyNames(Ctor.prototype)) {
    if (name !== "constructor") Object.defineProperty(Ctor.prototype, name, { enumerable: true });
  }
}

// ---------------------------------------------------------------------------
// Helpers for fetch and other host modules

/** A ReadableStream driven by `pull` (returns a chunk or null at the end) and `cancel`. */
export function readableFromPull(pull, cancel = noop, highWaterMark = 0) {
  return createReadableStream(
    noop,
    (controller) =>
      Promise.resolve()
        .then(pull)
        .then((chunk) => {
          if (chunk === null) readableControllerClose(controller);
          else readableControllerEnqueue(controller, chunk);
        }),
    (reason) => promiseCall(cancel, undefined, reason),
    highWaterMark,
  ).pub;
}

/** Reads a stream to its end, returning its chunks; marks it disturbed and locked while reading. */
export function readAllChunks(streamPub) {
  const reader = acquireReader(readableOf(streamPub));
  const chunks = [];
  const { promise, resolve, reject } = deferred();
  const next = () =>
    readerRead(reader, {
      chunk: (chunk) => {
        chunks.push(chunk);
        next();
      },
      close: () => {
        readerRelease(reader);
        resolve(chunks);
      },
      error: (error) => {
        readerRelease(reader);
        reject(error);
      },
    });
  next();
  return promise;
}

export function isReadableStream(value) {
  return isReadable(value);
}

export function isReadableStreamDisturbed(streamPub) {
  return readableOf(streamPub).disturbed;
}

export function isReadableStreamLocked(streamPub) {
  return isReadableLocked(readableOf(streamPub));
}

/** Errors a stream made by readableFromPull (or any default stream) from outside. */
export function errorReadableStream(streamPub, error) {
  readableControllerError(readableOf(streamPub).controller, error);
}

/** Two branches of a stream, as tee() makes them; used by Request/Response clone. */
export function teeReadableStream(streamPub) {
  const [branch1, branch2] = readableStreamTee(readableOf(streamPub));
  return [branch1.pub, branch2.pub];
}

/** Marks a stream disturbed without reading it: a body moved into a new Request counts as used. */
export function markReadableStreamDisturbed(streamPub) {
  readableOf(streamPub).disturbed = true;
}
