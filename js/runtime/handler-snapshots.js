// Which handlers an event runs: every extension's, in extension order, then
// registration order (E1: the list is taken as the event starts; a handler
// registered or removed meanwhile changes the next event's list, not this
// one's). Taking it walked every extension's handler map for every event
// (with pi's 77 examples, 77 look-ups a tool call, a sixth of its time), so a
// list is kept per runner's extensions and event until any extension's
// handlers change. Kept lists are frozen: every event of that type shares it.
import { ObjectFreeze, SafeMap, SafeWeakMap } from "pihost:runtime/primordials.js";

let handlersVersion = 0;

/** Called whenever any extension's handlers change: every kept list is taken anew. */
export function noteHandlersChanged() {
  handlersVersion++;
}

/** At most this many event types' lists per runner (a host can emit any type). */
const MAX_KEPT_EVENTS = 256;

/** Per array of extensions: the lists taken since the last change. */
const keptLists = new SafeWeakMap();

function takeHandlers(extensions, event) {
  const snapshot = [];
  for (let index = 0; index < extensions.length; index++) {
    const extension = extensions[index];
    const registered = extension.handlers.get(event);
    if (registered === undefined) continue;
    for (let handler = 0; handler < registered.length; handler++) {
      snapshot[snapshot.length] = ObjectFreeze({ extension, handler: registered[handler] });
    }
  }
  return ObjectFreeze(snapshot);
}

/** `[{ extension, handler }]` for `event`, read-only. */
export function snapshotHandlers(extensions, event) {
  let kept = keptLists.get(extensions);
  if (kept === undefined || kept.version !== handlersVersion || kept.extensionCount !== extensions.length) {
    kept = { version: handlersVersion, extensionCount: extensions.length, byEvent: new SafeMap() };
    keptLists.set(extensions, kept);
  }
  let snapshot = kept.byEvent.get(event);
  if (snapshot === undefined) {
    if (kept.byEvent.size >= MAX_KEPT_EVENTS) kept.byEvent.clear();
    snapshot = takeHandlers(extensions, event);
    kept.byEvent.set(event, snapshot);
  }
  return snapshot;
}
