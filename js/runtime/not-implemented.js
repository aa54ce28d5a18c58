// Values for names pi exports that pihost does not implement yet. Importing
// such a name always works (no extension fails at link time); using it throws
// a message that names the module and the export.

/** Marks every stub, so pihost can list what is not built yet. */
export const NOT_IMPLEMENTED = Symbol.for("pihost.notImplemented");

function notImplementedError(moduleName, name) {
  return new Error(`pihost: ${moduleName}.${name} is not implemented yet`);
}

function stubFunction(moduleName, name) {
  // A plain function, so `class X extends Stub {}` still works at import time
  // and only calling or constructing it throws.
  const stub = function () {
    throw notImplementedError(moduleName, name);
  };
  Object.defineProperty(stub, "name", { value: name });
  Object.defineProperty(stub, NOT_IMPLEMENTED, { value: true });
  return stub;
}

function stubObject(moduleName, name) {
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (key === NOT_IMPLEMENTED) return true;
        if (typeof key === "symbol") return undefined;
        throw notImplementedError(moduleName, name);
      },
      set() {
        throw notImplementedError(moduleName, name);
      },
      has() {
        throw notImplementedError(moduleName, name);
      },
      ownKeys() {
        throw notImplementedError(moduleName, name);
      },
    },
  );
}

/** Whether a value exported by a virtual module is a not-implemented stub. */
export function isNotImplemented(value) {
  return (typeof value === "function" || (typeof value === "object" && value !== null)) && value[NOT_IMPLEMENTED] === true;
}

/**
 * The value a virtual module exports under `name`: pihost's implementation
 * when it has one, the recorded value of a primitive constant, else a stub.
 */
export function exportOrStub(implementation, moduleName, name, description) {
  if (Object.prototype.hasOwnProperty.call(implementation, name) || name in implementation) {
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
      return stubFunction(moduleName, name);
    default:
      return stubObject(moduleName, name);
  }
}
