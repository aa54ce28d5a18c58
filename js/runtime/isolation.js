// The main runtime's side of isolated extensions: an extension that a policy
// grants more than the session loads in a guest runtime of its own
// (src/platform/guests.rs, js/runtime/guest.js). Here it is an extension
// record like any other, whose handlers, tools, commands and shortcuts call
// into the guest; the runner never knows the difference. The guest reaches
// this realm only through what it was handed: the shared runtime, the
// event bus, and the contexts and callbacks of the calls it gets.
//
// No function of this realm runs in the guest, so what another extension
// does here (patching a built-in, handing over a callback) runs with the
// session's permissions only, never with the guest's grant.
import { core, ops } from "pihost:runtime/ops.js";
import { createMembrane } from "pihost:runtime/membrane.js";
import { noteHandlersChanged } from "pihost:runtime/handler-snapshots.js";
import {
  ArrayFromEntries,
  ArrayFromKeys,
  ArrayFromValues,
  Promise,
  PromiseReject,
  SafeMap,
  SafeSet,
} from "pihost:runtime/primordials.js";

/** Every guest of each session's current load, stopped when that session's next load replaces it. */
const liveGuests = new SafeSet();

/** The policy key that makes `entry` a guest, or null. */
export function isolationOf(entry) {
  return ops.op_pihost_guest_policy(entry.resolvedPath);
}

/** Stops the guests of a session's last load (a reload, a new load, the session's end). */
export function stopGuests(sessionId) {
  const guests = ArrayFromValues(liveGuests);
  for (let index = 0; index < guests.length; index++) if (guests[index].sessionId === sessionId) guests[index].stop();
}

/** What crossing cannot carry: components drawn here from a guest's code. */
function notHere(what, path) {
  return () => {
    throw new Error(
      `pihost: ${what} of "${path}" cannot run: the extension is isolated by a permission policy, and components drawn in the host's runtime are not built for isolated extensions`,
    );
  };
}

/** `failure`: how the guest ended (src/platform/workers.rs `Failure`, with `limit` when a limit stopped it). */
function limitMessage(path, failure) {
  const limit = failure.limit;
  if (limit?.kind === "cpu") {
    return `Extension "${path}" did not return within ${limit.limitMs} ms (terminated; its isolated runtime was stopped)`;
  }
  if (limit?.kind === "heap") {
    return `Extension "${path}" exceeded the heap limit of ${limit.heapMb} MB (its isolated runtime was stopped)`;
  }
  return `Extension "${path}" stopped: ${failure.message}`;
}

function startGuest(entry, sessionId) {
  const id = ops.op_pihost_start_guest(entry.path, entry.resolvedPath, entry.moduleUrl);
  const calls = new SafeMap();
  let nextCall = 1;
  let endedWith;
  const send = (message) => ops.op_pihost_guest_send(id, membrane.toJson(message));

  // Listening to a guest is work of this event loop only while a call
  // waits for its answer: otherwise the loop may run dry (and what nothing
  // can settle be found) while the guest stays ready for the next call.
  let receiving;
  let referenced = false;
  function referenceWhileWaiting() {
    const wanted = calls.size > 0;
    if (receiving === undefined || wanted === referenced) return;
    referenced = wanted;
    if (wanted) core.refOpPromise(receiving);
    else core.unrefOpPromise(receiving);
  }

  function call(message) {
    if (endedWith) return PromiseReject(new Error(endedWith));
    const callId = nextCall++;
    return new Promise((resolve, reject) => {
      calls.set(callId, { resolve, reject });
      referenceWhileWaiting();
      send({ ...message, id: callId });
    });
  }

  const membrane = createMembrane({
    remoteCall: (fn, args) => call({ t: "call", fn, args }),
    remoteObject: () => {
      throw new TypeError("pihost: an isolated extension sent an object handle");
    },
    sendSettle: (promiseId, outcome) => send({ t: "settle", id: promiseId, outcome }),
    sendAbort: (signalId, reason) => send({ t: "abort", id: signalId, reason }),
    sendRelease: (handle, count) => send({ t: "release", id: handle, count }),
    objectsAsHandles: true,
  });

  const guest = { id, sessionId, membrane, call, extension: undefined, stop };

  function end(message) {
    if (endedWith) return;
    endedWith = message;
    liveGuests.delete(guest);
    ops.op_pihost_guest_stop(id);
    const pending = ArrayFromValues(calls);
    for (let index = 0; index < pending.length; index++) pending[index].reject(new Error(message));
    calls.clear();
  }

  function stop() {
    end(`pihost: the isolated runtime of "${entry.path}" was stopped`);
  }

  function receive(message) {
    switch (message.t) {
      case "return": {
        const pending = calls.get(message.id);
        if (!pending) return;
        calls.delete(message.id);
        referenceWhileWaiting();
        if (message.ok) pending.resolve(membrane.decode(message.value));
        else pending.reject(membrane.decodeError(message.error));
        return;
      }
      case "sync":
        ops.op_pihost_guest_reply(id, membrane.toJson(membrane.answerSync(message)));
        return;
      case "settle":
        membrane.settle(message.id, message.outcome);
        return;
      case "record":
        if (guest.extension) applyRecord(guest.extension, membrane.decode(message.record), sessionId);
        return;
      case "error":
        ops.op_pihost_report_error(sessionId, message.error);
        return;
      case "release":
        membrane.release(message.id, message.count);
        return;
    }
  }

  (async () => {
    for (;;) {
      receiving = ops.op_pihost_guest_recv(id);
      referenced = true;
      const next = receiving;
      referenceWhileWaiting();
      const event = await next;
      receiving = undefined;
      if (event.ended) {
        if (!endedWith) {
          const message = limitMessage(entry.path, event.ended);
          ops.op_pihost_report_error(sessionId, { extensionPath: entry.path, event: "isolated runtime", error: message });
          end(message);
        }
        return;
      }
      try {
        receive(membrane.fromJson(event.message));
      } catch (error) {
        ops.op_pihost_report_error(sessionId, {
          extensionPath: entry.path,
          event: "isolated runtime",
          error: `pihost: a message from the isolated runtime could not be handled: ${error?.message ?? error}`,
        });
      }
    }
  })();
  liveGuests.add(guest);
  return guest;
}

/** Counts, per event, of a record's handlers (Rust answers unhandled events without entering JS). */
function handlerCounts(extension) {
  const counts = new SafeMap();
  const entries = ArrayFromEntries(extension.handlers);
  for (let index = 0; index < entries.length; index++) counts.set(entries[index][0], entries[index][1].length);
  return counts;
}

/** A map the membrane decoded (a plain Map of this realm), as the SafeMap the runner reads. */
function safeMapOf(decoded) {
  return new SafeMap(decoded ?? undefined);
}

/**
 * Makes the main-runtime record `extension` say what the guest's says now.
 * Components cannot cross: renderers become functions that say so.
 */
function applyRecord(extension, described, sessionId) {
  const before = handlerCounts(extension);
  const path = extension.path;
  extension.handlers = safeMapOf(described.handlers);
  noteHandlersChanged();
  extension.commands = safeMapOf(described.commands);
  extension.flags = safeMapOf(described.flags);
  extension.shortcuts = safeMapOf(described.shortcuts);
  extension.tools = new SafeMap();
  const tools = described.tools ? ArrayFromEntries(described.tools) : [];
  for (let index = 0; index < tools.length; index++) {
    const name = tools[index][0];
    const registered = tools[index][1];
    const definition = { ...registered.definition };
    if (typeof definition.renderCall === "function") definition.renderCall = notHere(`the renderCall of tool "${name}"`, path);
    if (typeof definition.renderResult === "function") definition.renderResult = notHere(`the renderResult of tool "${name}"`, path);
    extension.tools.set(name, { ...registered, definition, isolated: true });
  }
  extension.messageRenderers = new SafeMap();
  const messageTypes = described.messageRenderers ? ArrayFromKeys(described.messageRenderers) : [];
  for (let index = 0; index < messageTypes.length; index++) {
    const type = messageTypes[index];
    extension.messageRenderers.set(type, notHere(`the message renderer "${type}"`, path));
  }
  if (described.entryRenderers) {
    extension.entryRenderers = new SafeMap();
    const entryTypes = ArrayFromKeys(described.entryRenderers);
    for (let index = 0; index < entryTypes.length; index++) {
      const type = entryTypes[index];
      extension.entryRenderers.set(type, notHere(`the entry renderer "${type}"`, path));
    }
  }
  if (described.toolRenderers) {
    const toolRenderers = [];
    for (let index = 0; index < described.toolRenderers.length; index++) toolRenderers[index] = notHere("a tool renderer", path);
    extension.toolRenderers = toolRenderers;
  }
  if (described.markdownTransformer) {
    extension.markdownTransformer = {
      ...described.markdownTransformer,
      transformer: notHere("the markdown transformer", path),
    };
  }
  const after = handlerCounts(extension);
  const events = new SafeSet(ArrayFromKeys(before));
  const added = ArrayFromKeys(after);
  for (let index = 0; index < added.length; index++) events.add(added[index]);
  for (const event of events) {
    const delta = (after.get(event) ?? 0) - (before.get(event) ?? 0);
    if (delta !== 0) ops.op_pihost_handler_count(sessionId, String(event), delta);
  }
}

/**
 * Loads `entry` in a guest runtime. Resolves to `{ extension, denials }`,
 * or `{ error, denials }` with the load error as the loader reports it.
 */
export async function loadIsolated(entry, { policy, eventBus, runtime, loadTimeoutMs, sessionId }) {
  let guest;
  try {
    guest = startGuest(entry, sessionId);
  } catch (error) {
    return { error: { path: entry.path, error: `Failed to load extension: ${error.message}` }, denials: [] };
  }
  let loaded;
  try {
    loaded = await guest.call({
      t: "load",
      runtime: guest.membrane.encode(runtime),
      eventBus: guest.membrane.encode(eventBus),
      loadTimeoutMs,
    });
  } catch (error) {
    guest.stop();
    return { error: { path: entry.path, error: `Failed to load extension: ${error.message}` }, denials: [] };
  }
  if (!loaded.record) {
    guest.stop();
    return { error: loaded.error, denials: loaded.denials };
  }
  const extension = { ...loaded.record, handlers: new SafeMap(), isolatedBy: policy };
  applyRecord(extension, loaded.record, sessionId);
  guest.extension = extension;
  return { extension, denials: loaded.denials };
}
