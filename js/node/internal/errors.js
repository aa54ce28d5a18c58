// Node's argument-error wording, shared by the node: shims.

/** The " Received …" tail Node appends to ERR_INVALID_ARG_TYPE messages. */
export function describeReceived(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === "function") return ` Received function ${value.name}`;
  if (typeof value === "object") {
    const name = value.constructor?.name;
    return name ? ` Received an instance of ${name}` : " Received [Object: null prototype] {}";
  }
  let shown = typeof value === "bigint" ? `${value}n` : String(value);
  if (typeof value === "string") shown = `'${value.length > 28 ? `${value.slice(0, 25)}...` : value}'`;
  return ` Received type ${typeof value} (${shown})`;
}

/** An error of class `Ctor` with Node's `code` property. */
export function codedError(Ctor, code, message) {
  const err = new Ctor(message);
  err.code = code;
  return err;
}
