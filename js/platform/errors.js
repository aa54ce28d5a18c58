// The error classes Deno's ops throw by name (deno_error's class names), so
// that the platform's JavaScript can tell them apart: deno_node turns a
// `NotFound` into Node's ENOENT, a `PermissionDenied` into EACCES, and so on.
// deno_core's own BadResource, Interrupted and NotCapable come with it.
const NAMES = [
  "NotFound",
  "PermissionDenied",
  "ConnectionRefused",
  "ConnectionReset",
  "ConnectionAborted",
  "NotConnected",
  "AddrInUse",
  "AddrNotAvailable",
  "BrokenPipe",
  "AlreadyExists",
  "InvalidData",
  "TimedOut",
  "WouldBlock",
  "WriteZero",
  "UnexpectedEof",
  "Http",
  "Busy",
  "NotSupported",
  "FilesystemLoop",
  "IsADirectory",
  "NetworkUnreachable",
  "NotADirectory",
];

// DOMException names the web APIs' ops report (as "DOMException<Name>").
const DOM_EXCEPTION_NAMES = [
  "OperationError",
  "NotSupportedError",
  "NetworkError",
  "AbortError",
  "InvalidCharacterError",
  "DataError",
  "InvalidStateError",
  "SyntaxError",
  "IndexSizeError",
  "TypeMismatchError",
  "InvalidAccessError",
];

function errorClass(name) {
  // A named class per error, so `error.name` and `instanceof` both work.
  const holder = {
    [name]: class extends Error {
      constructor(message, options) {
        super(message, options);
        this.name = name;
      }
    },
  };
  return holder[name];
}

/** Registers every class with deno_core and returns them, as `Deno.errors` has them. */
export function registerErrorClasses(core) {
  const errors = { BadResource: core.BadResource, Interrupted: core.Interrupted, NotCapable: core.NotCapable };
  for (const name of NAMES) {
    errors[name] = errorClass(name);
    core.registerErrorClass(name, errors[name]);
  }
  const loadDomException = () => core.loadExtScript("ext:deno_web/01_dom_exception.js").DOMException;
  for (const name of DOM_EXCEPTION_NAMES) {
    core.registerErrorBuilder(`DOMException${name}`, (message) => new (loadDomException())(message, name));
  }
  core.registerErrorBuilder("DOMExceptionQuotaExceededError", (message) => {
    const { QuotaExceededError } = core.loadExtScript("ext:deno_web/01_dom_exception.js");
    return new QuotaExceededError(message);
  });
  return errors;
}
