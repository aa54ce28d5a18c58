// The entry module of a guest runtime (src/platform/guests.rs): one
// extension that a policy grants more than the session, alone in a realm
// whose ops have that grant. It loads the extension with pihost's own loader
// and API, against the main runtime's shared runtime, event bus and
// contexts, which it reaches only through the membrane (js/runtime/membrane.js).
// What the extension registers is sent to the main runtime whenever it
// changes, before the main runtime hears anything else from this realm.
//
// The thread calls `start()` once, `keepsAlive()` whenever the event loop
// runs dry, and `finish()` if it ever ends by itself.
import "pihost:runtime/globals.js";
import { core, ops } from "pihost:runtime/ops.js";
import { createMembrane } from "pihost:runtime/membrane.js";
import { createExtensionRecord } from "pihost:runtime/extension-api.js";
import { configureLoadLimits, loadExtensions } from "pihost:runtime/loader.js";
import { addOutsideSettler, configureHeapLimit, enterExtension, failStalled } from "pihost:runtime/entries.js";
import {
  JSONParse,
  JSONStringify,
  ObjectKeys,
  PromisePrototypeCatch,
  ReflectGet,
  ReflectSet,
  SafeMap,
} from "pihost:runtime/primordials.js";

const facts = ops.op_pihost_guest_facts();
if (facts === null) throw new Error("pihost: js/runtime/guest.js runs only in a guest runtime");
configureHeapLimit(facts.heapMb);

const toJson = JSONStringify;
const fromJson = JSONParse;
const post = (message) => ops.op_pihost_guest_post(toJson(message));

// What would go to the main runtime's error stream goes there, through it.
// Everything in this realm is the one extension's, so it is named even
// where the main runtime could not tell whose a callback was.
const reportToMain = (_session, error) =>
  post({
    t: "error",
    error: { ...error, extensionPath: !error?.extensionPath || error.extensionPath === "<unknown>" ? facts.path : error.extensionPath },
  });
ops.op_pihost_report_error = reportToMain;

let record;
let recordChanged = false;
let ended = false;

/** Sends the extension's registrations if they may have changed since last sent. */
function flushRecord() {
  if (!record || !recordChanged) return;
  recordChanged = false;
  post({ t: "record", record: membrane.encode(describeRecord(record)) });
}

function describeRecord(extension) {
  const described = {};
  const keys = ObjectKeys(extension);
  for (let index = 0; index < keys.length; index++) described[keys[index]] = extension[keys[index]];
  return described;
}

/** A call into the main runtime: this thread waits for its answer. */
function callMain(request) {
  if (ended) throw new Error("pihost: the main runtime is gone");
  flushRecord();
  post({ t: "sync", ...request });
  const reply = fromJson(ops.op_pihost_guest_wait_reply());
  if (!reply.ok) throw membrane.decodeError(reply.error);
  return membrane.decode(reply.value);
}

/** The stand-in of a main-runtime object: each property is read when used. */
function remoteObject(id) {
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === "symbol") return undefined;
        return callMain({ op: "get", id, key });
      },
      set(_target, key, value) {
        if (typeof key === "symbol") return false;
        return callMain({ op: "set", id, key, value: membrane.encode(value) });
      },
      has(_target, key) {
        return typeof key === "string" && callMain({ op: "has", id, key });
      },
      ownKeys() {
        return callMain({ op: "keys", id });
      },
      getOwnPropertyDescriptor(_target, key) {
        if (typeof key === "symbol" || !callMain({ op: "has", id, key })) return undefined;
        return { __proto__: null, value: callMain({ op: "get", id, key }), writable: true, enumerable: true, configurable: true };
      },
      defineProperty() {
        return false;
      },
      deleteProperty() {
        return false;
      },
    },
  );
}

const membrane = createMembrane({
  remoteCall: (id, args) => callMain({ op: "call", id, args }),
  remoteObject,
  sendSettle: (id, outcome) => post({ t: "settle", id, outcome }),
  sendAbort: () => {},
  sendRelease: (id, count) => post({ t: "release", id, count }),
  objectsAsHandles: false,
});
// A promise of the main runtime (a dialog's answer) may still settle what waits.
addOutsideSettler(() => membrane.waitsOnOtherSide());

/** A Map that notes every use: a read may be followed by a change in place. */
class ObservedMap extends SafeMap {
  get(key) {
    recordChanged = true;
    return super.get(key);
  }
  set(key, value) {
    recordChanged = true;
    return super.set(key, value);
  }
  delete(key) {
    recordChanged = true;
    return super.delete(key);
  }
  clear() {
    recordChanged = true;
    super.clear();
  }
}

/** pihost's extension record, with every change to it noted. */
function createObservedRecord(path, resolvedPath) {
  const plain = createExtensionRecord(path, resolvedPath);
  const keys = ObjectKeys(plain);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index];
    if (plain[key] instanceof Map) plain[key] = new ObservedMap(plain[key]);
  }
  record = new Proxy(plain, {
    get(target, key, receiver) {
      // toolRenderers is an array that grows in place.
      if (key === "toolRenderers") recordChanged = true;
      return ReflectGet(target, key, receiver);
    },
    set(target, key, value, receiver) {
      recordChanged = true;
      return ReflectSet(target, key, value, receiver);
    },
  });
  recordChanged = true;
  return record;
}

async function load({ runtime, eventBus, loadTimeoutMs }) {
  configureLoadLimits({ loadTimeoutMs });
  const entry = { path: facts.path, resolvedPath: facts.resolvedPath, moduleUrl: facts.moduleUrl };
  const result = await loadExtensions([entry], {
    cwd: facts.cwd,
    eventBus,
    runtime,
    createRecord: createObservedRecord,
  });
  const loaded = result.extensions.length > 0;
  if (!loaded) record = undefined;
  recordChanged = false;
  return {
    record: loaded ? describeRecord(record) : null,
    error: result.errors[0] ?? null,
    denials: result.denials.get(facts.path) ?? [],
    ms: result.timings.get(facts.path) ?? 0,
  };
}

/** Who runs when the main runtime calls in: the extension (its prompts, its limits name it). */
const callOwner = {
  __proto__: null,
  path: facts.path,
  where: "in a call from the host's runtime",
  event: "call",
  // A tool listening for its signal may still be settled by the host's abort.
  settlesFromOutside: () => membrane.awaitsAnAbort(),
};

async function handle(message) {
  switch (message.t) {
    case "load":
    case "call": {
      let reply;
      try {
        const value =
          message.t === "load"
            ? await load({
                runtime: membrane.decode(message.runtime),
                eventBus: membrane.decode(message.eventBus),
                loadTimeoutMs: message.loadTimeoutMs,
              })
            : await enterExtension(callOwner, () => membrane.invoke(message.fn, message.args));
        reply = { t: "return", id: message.id, ok: true, value: membrane.encode(value) };
      } catch (error) {
        reply = { t: "return", id: message.id, ok: false, error: membrane.encodeError(error) };
      }
      flushRecord();
      post(reply);
      break;
    }
    case "settle":
      membrane.settle(message.id, message.outcome);
      break;
    case "abort":
      membrane.abort(message.id, message.reason);
      break;
    case "release":
      membrane.release(message.id, message.count);
      break;
  }
}

export function start() {
  (async () => {
    for (;;) {
      const next = ops.op_pihost_guest_next();
      // Waiting for the main runtime is not work: a call nothing can settle
      // must still be found when the event loop runs dry.
      core.unrefOpPromise(next);
      const text = await next;
      if (text === null) {
        ended = true;
        return;
      }
      PromisePrototypeCatch(handle(fromJson(text)), (error) =>
        reportToMain({ event: "isolated runtime", error: String(error?.message ?? error), stack: error?.stack }),
      );
    }
  })();
}

/** 2: calls that nothing could settle were failed (their answers are queued); true: wait for the main runtime. */
export function keepsAlive() {
  if (ended) return false;
  return Number(failStalled()) > 0 ? 2 : true;
}

export function finish() {
  return 0;
}
