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

/**
 * ERR_INVALID_ARG_TYPE. `expected` is the wording after "must be", e.g.
 * "of type number" or "an instance of Buffer or Uint8Array". A dotted
 * `name` ("options.signal") is a property; a name ending in " argument"
 * ("first argument") is used as written; anything else is an argument.
 */
export function invalidArgType(name, expected, value) {
  let subject;
  if (name.endsWith(" argument")) subject = name;
  else subject = `"${name}" ${name.includes(".") ? "property" : "argument"}`;
  return codedError(TypeError, "ERR_INVALID_ARG_TYPE", `The ${subject} must be ${expected}.${describeReceived(value)}`);
}

/** ERR_INVALID_ARG_VALUE: "The argument 'name' is invalid. Received …". */
export function invalidArgValue(name, value, reason = "is invalid") {
  const kind = name.includes(".") ? "property" : "argument";
  return codedError(TypeError, "ERR_INVALID_ARG_VALUE", `The ${kind} '${name}' ${reason}. Received ${inspectValue(value)}`);
}

/** ERR_MISSING_ARGS for one or more argument names. */
export function missingArgs(...names) {
  const quoted = names.map((name) => `"${name}"`);
  let list = quoted[0];
  if (quoted.length === 2) list = `${quoted[0]} and ${quoted[1]}`;
  else if (quoted.length > 2) list = `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
  const noun = names.length === 1 ? "argument" : "arguments";
  return codedError(TypeError, "ERR_MISSING_ARGS", `The ${list} ${noun} must be specified`);
}

/** ERR_INVALID_THIS: a brand check failed. */
export function invalidThis(typeName) {
  return codedError(TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type ${typeName}`);
}

/**
 * ERR_OUT_OF_RANGE. `range` is the wording after "It must be", e.g.
 * ">= 0 and <= 7" or "an integer".
 */
export function outOfRange(name, range, value) {
  return codedError(
    RangeError,
    "ERR_OUT_OF_RANGE",
    `The value of "${name}" is out of range. It must be ${range}. Received ${describeNumber(value)}`,
  );
}

// Large integers are grouped with "_" so their magnitude is readable, the
// way Node prints them in range errors.
function groupDigits(text) {
  const sign = text.startsWith("-") ? "-" : "";
  let digits = sign ? text.slice(1) : text;
  let grouped = "";
  while (digits.length > 3) {
    grouped = `_${digits.slice(-3)}${grouped}`;
    digits = digits.slice(0, -3);
  }
  return `${sign}${digits}${grouped}`;
}

function describeNumber(value) {
  if (Number.isInteger(value) && Math.abs(value) > 2 ** 32) return groupDigits(String(value));
  if (typeof value === "bigint") {
    const big = value > 2n ** 32n || value < -(2n ** 32n);
    return `${big ? groupDigits(String(value)) : String(value)}n`;
  }
  return inspectValue(value);
}

/** What util.format's "%s" makes of `value`, which Node error messages use. */
export function formatString(value) {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (value === null || typeof value !== "object") return String(value);
  const { toString } = value;
  const builtIn = toString === Object.prototype.toString || toString === Array.prototype.toString;
  return builtIn || typeof toString !== "function" ? inspectValue(value) : String(value);
}

/**
 * util.inspect's rendering of a value, enough for error messages: exact
 * for primitives, one level deep for arrays, typed arrays and plain objects.
 */
export function inspectValue(value, nested = false) {
  switch (typeof value) {
    case "string":
      return quoteString(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return value.name ? `[Function: ${value.name}]` : "[Function (anonymous)]";
    case "object":
      return value === null ? "null" : inspectObject(value, nested);
    default:
      return String(value);
  }
}

function inspectObject(value, nested) {
  const custom = value[Symbol.for("nodejs.util.inspect.custom")];
  if (typeof custom === "function") return String(custom.call(value));
  const list = (items) => (items.length === 0 ? "[]" : `[ ${items.join(", ")} ]`);
  if (Array.isArray(value)) {
    return nested && value.length > 0 ? "[Array]" : list(value.map((item) => inspectValue(item, true)));
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return `${value.constructor.name}(${value.length}) ${list(Array.from(value, (item) => inspectValue(item, true)))}`;
  }
  const keys = Object.keys(value);
  const proto = Object.getPrototypeOf(value);
  const name = proto === null ? null : proto.constructor?.name;
  let prefix = "";
  if (proto === null) prefix = "[Object: null prototype] ";
  else if (name && name !== "Object") prefix = `${name} `;
  if (keys.length === 0) return `${prefix}{}`;
  if (nested) return `[${name ?? "Object"}]`;
  const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : quoteString(k));
  return `${prefix}{ ${keys.map((k) => `${key(k)}: ${inspectValue(value[k], true)}`).join(", ")} }`;
}

// util.inspect picks the first quote the text does not contain.
function quoteString(text) {
  let quote = "'";
  if (text.includes("'")) {
    if (!text.includes('"')) quote = '"';
    else if (!text.includes("`") && !text.includes("${")) quote = "`";
  }
  const escaped = text.replace(/[\\\n\r\t\b\f\v\x00-\x1f\x7f]/g, (ch) => {
    const named = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v" }[ch];
    return named ?? `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  });
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/** Node's AbortError (`code: "ABORT_ERR"`), which streams, readline and timers reject with. */
export class AbortError extends Error {
  constructor(message = "The operation was aborted", options = undefined) {
    super(message, options);
    this.code = "ABORT_ERR";
    this.name = "AbortError";
  }
}

/** Whether `value` can be listened to as an AbortSignal (pihost's or any look-alike). */
export function isAbortSignal(value) {
  if (typeof globalThis.AbortSignal === "function" && value instanceof globalThis.AbortSignal) return true;
  return value !== null && typeof value === "object" && "aborted" in value && typeof value.addEventListener === "function";
}
