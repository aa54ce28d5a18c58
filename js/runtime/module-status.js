// What pihost implements of pi's virtual modules, for `pihost modules`.
// Loaded only by that verb (Engine::virtual_module_status), never at start-up.
import { isNotImplemented } from "pihost:runtime/not-implemented.js";

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

