// Interactive pickers that open while a catalog refresh of the same model
// runtime is running share it instead of starting another. Each caller can
// stop waiting on its own; the refresh itself is aborted when nobody waits.
import { raceWithAbortSignal } from "../ai/abort.js";

const activeRefreshes = new WeakMap();

function startRefresh(modelRuntime) {
  const controller = new AbortController();
  const active = { controller, waiters: 0, promise: undefined };
  active.promise = raceWithAbortSignal(modelRuntime.refresh({ signal: controller.signal }), controller.signal).finally(() => {
    if (activeRefreshes.get(modelRuntime) === active) activeRefreshes.delete(modelRuntime);
  });
  activeRefreshes.set(modelRuntime, active);
  return active;
}

/** Refreshes every catalog of `modelRuntime`, or joins the refresh already running; `signal` stops this caller waiting. */
export function refreshModelCatalogs(modelRuntime, signal) {
  signal.throwIfAborted();
  const active = activeRefreshes.get(modelRuntime) ?? startRefresh(modelRuntime);
  active.waiters++;
  return raceWithAbortSignal(active.promise, signal).finally(() => {
    active.waiters--;
    if (active.waiters === 0 && activeRefreshes.get(modelRuntime) === active) active.controller.abort();
  });
}
