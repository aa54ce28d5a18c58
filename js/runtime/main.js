// pihost's runtime entry point: installs the globals, registers the Node
// built-ins for require(), and exports the functions Rust calls.
import "pihost:runtime/globals.js";
import { registerBuiltinModule } from "pihost:runtime/module-globals.js";
import { createExtensionRuntime } from "pihost:runtime/extension-runtime.js";
import { createEventBus } from "pihost:runtime/event-bus.js";
import { clearExtensionCache as clearCache, loadExtensions as loadExtensionList } from "pihost:runtime/loader.js";
import { describeLoad } from "pihost:runtime/snapshot.js";
import { isNotImplemented } from "pihost:runtime/not-implemented.js";
import * as path from "pihost:node/path.js";
import * as fs from "pihost:node/fs.js";
import * as fsPromises from "pihost:node/fs/promises.js";
import * as os from "pihost:node/os.js";
import * as url from "pihost:node/url.js";
import * as events from "pihost:node/events.js";
import * as buffer from "pihost:node/buffer.js";
import * as childProcess from "pihost:node/child_process.js";
import * as nodeModule from "pihost:node/module.js";

for (const [name, namespace] of Object.entries({
  path,
  fs,
  "fs/promises": fsPromises,
  os,
  url,
  events,
  buffer,
  child_process: childProcess,
  module: nodeModule,
})) {
  registerBuiltinModule(name, namespace);
}

/** What the last load produced, kept for the host calls that follow it. */
export const session = { runtime: undefined, eventBus: undefined, extensions: [] };

/**
 * Loads extensions. `requestJson`: { cwd, useCache, entries: [{ path, resolvedPath, moduleUrl }] }.
 * Resolves to the JSON of the load report.
 */
export async function loadExtensions(requestJson) {
  const request = JSON.parse(requestJson);
  // Each load gets its own shared runtime and bus, as each pi loadExtensions() call does.
  session.runtime = createExtensionRuntime();
  session.eventBus = createEventBus();
  const result = await loadExtensionList(request.entries, {
    cwd: request.cwd,
    eventBus: session.eventBus,
    runtime: session.runtime,
    useCache: request.useCache,
  });
  session.extensions = result.extensions;
  return JSON.stringify(describeLoad(result, session.runtime));
}

/** Forgets every cached extension factory (L6). Resolves to "null". */
export function clearExtensionCache() {
  clearCache();
  return "null";
}

/**
 * For each virtual module id in `idsJson`, which export names pihost
 * implements and which are stubs. Resolves to JSON: { id: { implemented, notImplemented } }.
 */
export async function describeVirtualModules(idsJson) {
  const status = {};
  for (const id of JSON.parse(idsJson)) {
    const namespace = await import(`pihost:pi/${id}`);
    const implemented = [];
    const notImplemented = [];
    for (const name of Object.keys(namespace).sort()) {
      (isNotImplemented(namespace[name]) ? notImplemented : implemented).push(name);
    }
    status[id] = { implemented, notImplemented };
  }
  return JSON.stringify(status);
}
