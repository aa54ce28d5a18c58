// Every call from pihost into extension code goes through here, so that when
// the host has to stop one — a CPU or heap limit hit, a promise nothing can
// settle, a load that takes too long — it knows which extension it was and
// fails exactly that entry, while the other extensions and calls go on.
//
// A terminated run unwinds the whole JavaScript stack it ran on. Extension
// code therefore runs in a job of its own (a microtask), never on top of
// pihost's frames: the loader or the runner awaiting it survives the cut and
// hears about it as an ordinary rejection.
import { core, ops } from "pihost:runtime/ops.js";
import {
  ArrayFromValues,
  ArrayPrototypeSome,
  JSONStringify,
  ObjectGetPrototypeOf,
  Promise,
  ReflectApply,
  SafeSet,
  SymbolFor,
  queueMicrotask,
} from "pihost:runtime/primordials.js";

/** The engine's own job queue, captured before any extension can replace the global. */
const enqueueJob = queueMicrotask;
/** deno_core's async context (AsyncLocalStorage's mapping), absent on a bare engine. */
const getAsyncContext = core.getAsyncContext ?? (() => undefined);
const setAsyncContext = core.setAsyncContext ?? (() => {});

/**
 * The engine's error for an allocation its heap limit refused (QuickJS's
 * `InternalError: out of memory`), captured before extensions run.
 */
const EngineInternalError = globalThis.InternalError;
let heapLimitMb = 0;
/** The entry last failed for the heap limit by its own allocation error. */
let heapFailure;
/**
 * The entry a refused allocation ended after it ran past its CPU limit (the
 * engine squeezed its heap to stop a run its termination did not reach);
 * failTerminated fails it with the CPU limit's message.
 */
let cpuFailure;

/**
 * The watchdog's "squeezed" byte (src/ops/limits.rs), read when extension
 * code settles; undefined until the limits are configured, and then the op
 * is asked each time.
 */
let squeezeFlag;

/**
 * Sets the heap limit (MB, 0: none) that allocation failures are reported
 * against. Called once the runtime's watchdog is in place.
 */
export function configureHeapLimit(mb) {
  heapLimitMb = mb ?? 0;
  squeezeFlag = ops.op_pihost_squeeze_flag();
}

/**
 * An allocation that the heap limit refused throws in the extension's code
 * before the engine stops it; the entry fails with the limit's error, as
 * if the stop had come first.
 */
function asHeapLimitError(entry, error) {
  if (heapLimitMb <= 0 || EngineInternalError === undefined) return error;
  if (!(error instanceof EngineInternalError) || error.message !== "out of memory") return error;
  ops.op_pihost_heap_stop_landed();
  heapFailure = entry;
  try {
    return new Error(`Extension "${entry.path}" exceeded the heap limit of ${heapLimitMb} MB ${entry.where}`);
  } catch {
    // No room even for the message: the engine's own error says it.
    return error;
  }
}

/**
 * Whether `entry`'s code came back (returned, threw, or settled) from a run
 * the engine squeezed to stop it past its CPU limit: whatever it came back
 * with is the squeeze's doing, so the entry stays open for the CPU limit's
 * stop (failTerminated).
 */
function squeezedOut(entry) {
  if (squeezeFlag !== undefined && squeezeFlag[0] === 0) return false;
  if (!ops.op_pihost_cpu_stop_landed()) return false;
  cpuFailure = entry;
  return true;
}

/** Entries whose extension code has not settled yet, oldest first. */
const openEntries = new SafeSet();
/**
 * The entry whose synchronous code runs right now. A termination cuts its
 * `finally` off, so after one it still names the code that was stopped.
 */
let running;

/** What an extension's async code answers with: its `then` is the captured one. */
const NativePromisePrototype = Promise.prototype;

function isThenable(value) {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof value.then === "function";
}

/**
 * Ties a timer (by the function that cancels it) to the entry whose code set it: when pihost stops that entry
 * (a limit, a timeout, nothing left to settle it), the timers it left are
 * cancelled with it, so they neither run the stopped code nor keep the
 * event loop from noticing what can never settle.
 */
export function adoptTimer(cancel) {
  const owner = failable(running);
  if (owner) (owner.timers ??= new SafeSet()).add(cancel);
}

/** Who hears that pihost stopped an entry (its extension code is dead: what it showed goes too). */
const stopListeners = new SafeSet();

/** `listener(entry, error)` after pihost stops an entry (a limit, a timeout, nothing left to settle it). */
export function onEntryStopped(listener) {
  stopListeners.add(listener);
}

function stop(entry, error) {
  openEntries.delete(entry);
  if (entry.timers !== undefined) for (const cancel of entry.timers) cancel();
  fail(entry, error);
  for (const listener of stopListeners) listener(entry, error);
}

/** The extension whose code runs now, for callbacks it schedules (timers). */
export function currentOwner() {
  return running ?? getAsyncContext()?.[entryMark];
}

/** The session (of pihost's runtime) an entry's extension belongs to; -1 when none is known. */
export function sessionOf(owner) {
  return owner?.session ?? -1;
}

// Registered, so that the permission prompter in Rust can read it (src/permissions/prompt.rs).
const entryMark = SymbolFor("pihost.entry");

function runAs(entry, invoke, args) {
  const previous = running;
  const previousContext = getAsyncContext();
  running = entry;
  // Continuations of the extension's own awaits carry the entry with them,
  // which names the extension when one of those is the code that was stopped.
  // The context is also AsyncLocalStorage's mapping (deno_core's
  // AsyncVariable), so the mark goes beside what a timer or callback restored.
  setAsyncContext(
    previousContext === undefined
      ? { __proto__: null, [entryMark]: entry }
      : { __proto__: null, ...previousContext, [entryMark]: entry },
  );
  try {
    return args === undefined ? invoke() : ReflectApply(invoke, undefined, args);
  } finally {
    running = previous;
    setAsyncContext(previousContext);
  }
}

/** An entry whose extension code settled: no longer open, its timeout cancelled. */
function close(entry) {
  openEntries.delete(entry);
  if (entry.timeout !== undefined) core.cancelTimer(entry.timeout);
}

/**
 * The entry whose outcome promise is being made: `captureSettlers`, the
 * promise's executor, keeps its settle functions there. One shared executor
 * instead of a closure per entry (the executor runs at once, inside `new
 * Promise`).
 */
let entryBeingMade;

function captureSettlers(resolve, reject) {
  entryBeingMade.resolve = resolve;
  entryBeingMade.reject = reject;
}

// Settled first, closed after: a termination that lands in between (it was
// meant for the extension's code, which ended a moment before) leaves the
// entry open, so the host's stop still settles it.
function succeed(entry, value) {
  if (squeezedOut(entry)) return;
  entry.resolve(value);
  close(entry);
}

function fail(entry, error) {
  if (squeezedOut(entry)) return;
  entry.reject(asHeapLimitError(entry, error));
  close(entry);
}

/**
 * Settles `entry` with what its extension's native promise settles with. The
 * promise's `then` may have been replaced by an extension: `await` of a
 * native promise does not look it up (it reads the promise's `constructor`,
 * as the captured `then` would too), and costs less per handler than `then`
 * with two closures.
 */
async function settleWith(entry, promise) {
  let value;
  try {
    value = await promise;
  } catch (error) {
    fail(entry, error);
    return;
  }
  succeed(entry, value);
}

/** The job that runs an entry's extension code (see the top of this file). */
function runEntry(entry, invoke, args) {
  let result;
  try {
    result = runAs(entry, invoke, args);
  } catch (error) {
    fail(entry, error);
    return;
  }
  if (typeof result === "object" && result !== null && ObjectGetPrototypeOf(result) === NativePromisePrototype) {
    settleWith(entry, result);
  } else if (isThenable(result)) {
    result.then(
      (value) => succeed(entry, value),
      (error) => fail(entry, error),
    );
  } else {
    succeed(entry, result);
  }
}

/**
 * Runs `invoke` as code of the extension at `owner.path` (called with
 * `args` when given, as `invoke(...args)`: a handler needs no closure of
 * its own per call); `owner.where` says what runs ("while loading", `in its
 * "tool_call" handler`, …). Resolves
 * or rejects as `invoke` does, or rejects with the host's error when the
 * entry is stopped. `owner.timeoutMs` bounds how long it may take;
 * `owner.settlesFromOutside()` tells whether something outside the event loop
 * (an abort) can still settle it. `owner` has no prototype (`__proto__:
 * null`): a field it leaves out must not be read from an Object.prototype
 * an extension patched.
 */
export function enterExtension(owner, invoke, args) {
  // The owner's fields (path, where, event, limits) are read through its
  // prototype: one object per call instead of a copy of every field. This
  // runs for every handler of every event, and each extra promise, job or
  // closure is measurable per dispatch on this engine: one promise, settled
  // by whichever comes first, the extension's code or the host's stop.
  const entry = {
    __proto__: owner,
    resolve: undefined,
    reject: undefined,
    parent: running,
    timers: undefined,
    timeout: undefined,
  };
  entryBeingMade = entry;
  const outcome = new Promise(captureSettlers);
  entryBeingMade = undefined;
  enqueueJob(() => runEntry(entry, invoke, args));
  openEntries.add(entry);
  if (owner.timeoutMs > 0) {
    // Unreferenced: a pending load timeout must not hide a promise that
    // nothing else could settle.
    entry.timeout = core.createTimer(() => stop(entry, timedOut(entry)), owner.timeoutMs, undefined, false, false);
  }
  return outcome;
}

/**
 * Runs `invoke` synchronously as code of `owner.path` (a timer callback, an
 * event-bus listener, a renderer): callers that need the answer at once.
 * `owner.parent` names the entry it runs for when that is not the one
 * running now (a component's render runs for the call that showed it).
 * `owner` has no prototype, as for enterExtension.
 */
export function enterExtensionSync(owner, invoke) {
  return runAs({ __proto__: null, ...owner, reject: undefined, parent: owner.parent ?? running }, invoke);
}

function timedOut(entry) {
  return new Error(entry.timeoutMessage ?? `Extension "${entry.path}" did not settle ${entry.where} within ${entry.timeoutMs} ms`);
}

/** The entry pihost can fail for `entry`: itself, or the nearest one it runs inside. */
export function failable(entry) {
  let current = entry;
  while (current && current.reject === undefined) current = current.parent;
  return current;
}

function newestOpenEntry() {
  let newest;
  for (const entry of openEntries) newest = entry;
  return newest;
}

/**
 * After the host stopped a run (`{ kind: "cpu" | "heap", limitMs, heapMb }`):
 * fails the entry that was running, or reports the stopped callback. Resolves
 * to the JSON of `{ extensionPath, message, loading }` it blamed.
 */
export function failTerminated({ kind, limitMs, heapMb }) {
  const contextEntry = getAsyncContext()?.[entryMark];
  const stopped = running ?? (contextEntry && openEntries.has(failable(contextEntry)) ? contextEntry : newestOpenEntry());
  running = undefined;
  setAsyncContext(undefined);
  const failedByAllocation = heapFailure;
  heapFailure = undefined;
  const squeezed = cpuFailure;
  cpuFailure = undefined;
  if (kind === "heap" && failedByAllocation !== undefined) {
    // The allocation the limit refused threw in that extension's code;
    // nothing else is to blame. Its entry failed with this limit's message,
    // unless failing it found no memory either (then it fails now).
    const message = `Extension "${failedByAllocation.path}" exceeded the heap limit of ${heapMb} MB ${failedByAllocation.where}`;
    const target = failable(failedByAllocation);
    if (target && openEntries.has(target)) stop(target, new Error(message));
    return JSONStringify({
      extensionPath: failedByAllocation.path,
      message,
      loading: failedByAllocation.event === "load",
    });
  }
  const blamed = kind === "cpu" && squeezed !== undefined ? squeezed : stopped;
  const path = blamed?.path ?? "<unknown>";
  const where = blamed?.where ?? "in a callback";
  const message =
    kind === "heap"
      ? `Extension "${path}" exceeded the heap limit of ${heapMb} MB ${where}`
      : `Extension "${path}" did not return within ${limitMs} ms ${where} (terminated)`;
  const target = failable(blamed);
  if (target && openEntries.has(target)) {
    stop(target, new Error(message));
  } else {
    ops.op_pihost_report_error(sessionOf(blamed), { extensionPath: path, event: blamed?.event ?? "callback", error: message });
  }
  return JSONStringify({ extensionPath: path, message, loading: blamed?.event === "load" });
}

/** Things outside the event loop that may still settle any open entry (the host's keys to an open component). */
const outsideSettlers = new SafeSet();

/** `canSettle()` says whether something outside the event loop may still settle what waits. */
export function addOutsideSettler(canSettle) {
  outsideSettlers.add(canSettle);
}

/**
 * The event loop has nothing left that could settle the open entries: fails
 * each one that nothing outside it (an abort) could settle either. Resolves
 * to the JSON count of entries failed.
 */
export function failStalled() {
  let failed = 0;
  for (const canSettle of outsideSettlers) if (canSettle()) return "0";
  const open = ArrayFromValues(openEntries);
  for (let index = open.length - 1; index >= 0; index--) {
    const entry = open[index];
    if (entry.settlesFromOutside?.()) continue;
    // An outer entry waits on its inner one; failing the innermost is enough.
    if (ArrayPrototypeSome(ArrayFromValues(openEntries), (other) => other !== entry && failable(other.parent) === entry)) continue;
    stop(entry, new Error(`Extension "${entry.path}" never settled ${entry.where}: nothing was left that could settle it`));
    failed++;
  }
  return String(failed);
}
