// What pihost implements of pi's virtual modules, for `pihost modules`.
// Loaded only by that verb (Engine::virtual_module_status), never at start-up.
import { isNotImplemented, notInAHostReason } from "pihost:runtime/not-implemented.js";
import { ArrayPrototypeSort, JSONStringify, ObjectKeys } from "pihost:runtime/primordials.js";

/**
 * For each virtual module id in `ids`, which export names pihost
 * implements and which are stubs: not built yet, or meaningless inside a
 * host (with the reason). Resolves to JSON:
 * { id: { implemented, notImplemented, notInAHost: [{ name, reason }] } }.
 */
export async function describeVirtualModules(ids) {
  const status = {};
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index];
    const namespace = await import(`pihost:pi/${id}`);
    const implemented = [];
    const notImplemented = [];
    const notInAHost = [];
    const names = ArrayPrototypeSort(ObjectKeys(namespace));
    for (let position = 0; position < names.length; position++) {
      const name = names[position];
      const reason = notInAHostReason(namespace[name]);
      if (reason !== undefined) notInAHost[notInAHost.length] = { name, reason };
      else {
        const list = isNotImplemented(namespace[name]) ? notImplemented : implemented;
        list[list.length] = name;
      }
    }
    status[id] = { implemented, notImplemented, notInAHost };
  }
  return JSONStringify(status);
}

