// WebIDL's DOMException. Like Node's, it is not an Error subclass at the
// class level (DOMException's own prototype is Function.prototype) but its
// instances inherit from Error.prototype, so `instanceof Error` holds and
// name/message/code are read-only accessors over private state.

// The legacy numeric codes, in WebIDL's order; a name not listed has code 0.
const LEGACY_CODES = [
  ["IndexSizeError", "INDEX_SIZE_ERR"],
  ["DOMStringSizeError", "DOMSTRING_SIZE_ERR"],
  ["HierarchyRequestError", "HIERARCHY_REQUEST_ERR"],
  ["WrongDocumentError", "WRONG_DOCUMENT_ERR"],
  ["InvalidCharacterError", "INVALID_CHARACTER_ERR"],
  ["NoDataAllowedError", "NO_DATA_ALLOWED_ERR"],
  ["NoModificationAllowedError", "NO_MODIFICATION_ALLOWED_ERR"],
  ["NotFoundError", "NOT_FOUND_ERR"],
  ["NotSupportedError", "NOT_SUPPORTED_ERR"],
  ["InUseAttributeError", "INUSE_ATTRIBUTE_ERR"],
  ["InvalidStateError", "INVALID_STATE_ERR"],
  ["SyntaxError", "SYNTAX_ERR"],
  ["InvalidModificationError", "INVALID_MODIFICATION_ERR"],
  ["NamespaceError", "NAMESPACE_ERR"],
  ["InvalidAccessError", "INVALID_ACCESS_ERR"],
  ["ValidationError", "VALIDATION_ERR"],
  ["TypeMismatchError", "TYPE_MISMATCH_ERR"],
  ["SecurityError", "SECURITY_ERR"],
  ["NetworkError", "NETWORK_ERR"],
  ["AbortError", "ABORT_ERR"],
  ["URLMismatchError", "URL_MISMATCH_ERR"],
  ["QuotaExceededError", "QUOTA_EXCEEDED_ERR"],
  ["TimeoutError", "TIMEOUT_ERR"],
  ["InvalidNodeTypeError", "INVALID_NODE_TYPE_ERR"],
  ["DataCloneError", "DATA_CLONE_ERR"],
];
// Three legacy names were retired: their constants remain but the names map to 0.
const RETIRED = new Set(["DOMStringSizeError", "NoDataAllowedError", "ValidationError"]);
const codeByName = new Map(
  LEGACY_CODES.map(([name], index) => [name, index + 1]).filter(([name]) => !RETIRED.has(name)),
);

function invalidThis() {
  const err = new TypeError('Value of "this" must be of DOMException');
  err.code = "ERR_INVALID_THIS";
  return err;
}

export class DOMException {
  #name;
  #message;

  constructor(message = "", options = "Error") {
    this.#message = `${message}`;
    const hasOptions = options !== null && typeof options === "object";
    this.#name = hasOptions ? `${options.name}` : `${options}`;
    // The stack is captured after name and message are set so its first
    // line reads "AbortError: …" as Node's does.
    if (typeof Error.captureStackTrace === "function") {
      Error.captureStackTrace(this, new.target);
    } else {
      const stack = new Error(this.#message).stack;
      const lines = typeof stack === "string" ? stack.split("\n").slice(1) : [];
      Object.defineProperty(this, "stack", {
        value: [`${this.#name}: ${this.#message}`, ...lines].join("\n"),
        writable: true,
        configurable: true,
      });
    }
    if (hasOptions && "cause" in options) {
      Object.defineProperty(this, "cause", { value: options.cause, writable: true, configurable: true });
    }
  }

  get name() {
    if (!(#name in this)) throw invalidThis();
    return this.#name;
  }

  get message() {
    if (!(#name in this)) throw invalidThis();
    return this.#message;
  }

  get code() {
    if (!(#name in this)) throw invalidThis();
    return codeByName.get(this.#name) ?? 0;
  }
}

Object.setPrototypeOf(DOMException.prototype, Error.prototype);
for (const key of ["name", "message", "code"]) {
  Object.defineProperty(DOMException.prototype, key, { enumerable: true });
}
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: "DOMException", configurable: true });
LEGACY_CODES.forEach(([, constant], index) => {
  const descriptor = { value: index + 1, enumerable: true, writable: false, configurable: false };
  Object.defineProperty(DOMException, constant, descriptor);
  Object.defineProperty(DOMException.prototype, constant, descriptor);
});

export default DOMException;
