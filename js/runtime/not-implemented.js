// Values for names pi exports that pihost does not implement yet, or that
// cannot mean anything inside a host (js/runtime/not-in-a-host.js).
// Importing such a name always works (no extension fails at link time);
// using it throws a message that names the module and the export.
import { NOT_IN_A_HOST } from "pihost:runtime/not-in-a-host.js";
import { ObjectDefineProperty, ObjectHasOwn, SymbolFor } from "pihost:runtime/primordials.js";

/**
 * Marks every stub, so pihost can list what is not built: `true`, or the
 * reason the export cannot work inside a host.
 */
export const NOT_IMPLEMENTED = SymbolFor("pihost.notImplemented");

function stubError(moduleName, name, mark) {
  return new Error(
    mark === true
      ? `pihost: ${moduleName}.${name} is not implemented yet`
      : `pihost: ${moduleName}.${name} cannot work inside a host: ${mark}`,
  );
}

function stubFunction(moduleName, name, mark) {
  // A plain function, so `class X extends Stub {}` still works at import time
  // and only calling or constructing it throws.
  const stub = function () {
    throw stubError(moduleName, name, mark);
  };
  ObjectDefineProperty(stub, "name", { __proto__: null, value: name });
  ObjectDefineProperty(stub, NOT_IMPLEMENTED, { __proto__: null, value: mark });
  return stub;
}

function stubObject(moduleName, name, mark) {
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (key === NOT_IMPLEMENTED) return mark;
        if (typeof key === "symbol") return undefined;
        throw stubError(moduleName, name, mark);
      },
      set() {
        throw stubError(moduleName, name, mark);
      },
      has() {
        throw stubError(moduleName, name, mark);
      },
      ownKeys() {
        throw stubError(moduleName, name, mark);
      },
    },
  );
}

function stubMark(value) {
  return typeof value === "function" || (typeof value === "object" && value !== null) ? value[NOT_IMPLEMENTED] : undefined;
}

/** Whether a value exported by a virtual module is a stub for something not built yet. */
export function isNotImplemented(value) {
  return stubMark(value) === true;
}

/** Why an exported stub cannot work inside a host, or undefined. */
export function notInAHostReason(value) {
  const mark = stubMark(value);
  return typeof mark === "string" ? mark : undefined;
}

/**
 * The value a virtual module exports under `name`: pihost's implementation
 * when it has one, the recorded value of a primitive constant, else a stub.
 */
export function exportOrStub(implementation, moduleName, name, description) {
  if (ObjectHasOwn(implementation, name) || name in implementation) {
    return implementation[name];
  }
  switch (description.kind) {
    case "string":
    case "number":
    case "boolean":
      return description.value;
    case "null":
      return null;
    case "undefined":
      return undefined;
    case "function":
    case "class":
      return stubFunction(moduleName, name, stubMarkFor(moduleName, name));
    default:
      return stubObject(moduleName, name, stubMarkFor(moduleName, name));
  }
}

function stubMarkFor(moduleName, name) {
  const reasons = NOT_IN_A_HOST[moduleName];
  return (reasons && ObjectHasOwn(reasons, name) && reasons[name]) || true;
}
