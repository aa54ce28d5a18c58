// What pihost implements of pi's virtual modules, for `pihost modules`.
// Loaded only by that verb (Engine::virtual_module_status), never at start-up.
import { isNotImplemented, notInAHostReason } from "pihost:runtime/not-implemented.js";

/**
 * For each virtual module id in `idsJson`, which export names pihost
 * implements and which are stubs: not built yet, or meaningless inside a
 * host (with the reason). Resolves to JSON:
 * { id: { implemented, notImplemented, notInAHost: [{ name, reason }] } }.
 */
export async function describeVirtualModules(idsJson) {
  const status = {};
  for (const id of JSON.parse(idsJson)) {
    const namespace = await import(`pihost:pi/${id}`);
    const implemented = [];
    const notImplemented = [];
    const notInAHost = [];
    for (const name of Object.keys(namespace).sort()) {
      const reason = notInAHostReason(namespace[name]);
      if (reason !== undefined) notInAHost.push({ name, reason });
      else (isNotImplemented(namespace[name]) ? notImplemented : implemented).push(name);
    }
    status[id] = { implemented, notImplemented, notInAHost };
  }
  return JSON.stringify(status);
}

