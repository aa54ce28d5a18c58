// Value.Hash: TypeBox's structural FNV-1a 64-bit hash, as 16 hex digits. Each
// value feeds a marker byte for its kind and then its content bytes, so equal
// structures hash alike whatever their key order; the bytes fed must be the
// very ones TypeBox feeds for the hex strings to agree.

const Marker = { Array: 0, BigInt: 1, Boolean: 2, Date: 3, Constructor: 4, Function: 5, Null: 6, Number: 7, Object: 8, RegExp: 9, String: 10, Symbol: 11, TypeArray: 12, Undefined: 13 };

const OFFSET_BASIS = 14695981039346656037n;
const PRIME = 1099511628211n;
const MASK = (1n << 64n) - 1n;

const encoder = new TextEncoder();

// Own and inherited (non-Object.prototype) string keys, as a class instance's getters count too.
function instanceKeys(value) {
  const keys = new Set();
  for (let current = value; current && current !== Object.prototype; current = Object.getPrototypeOf(current)) {
    for (const key of Reflect.ownKeys(current)) if (key !== "constructor" && typeof key !== "symbol") keys.add(key);
  }
  return [...keys];
}

// Classes and native functions hash by their source text as constructors.
function isConstructorFunction(value) {
  if (typeof value !== "function") return false;
  const source = Function.prototype.toString.call(value);
  return /^class\s/.test(source) || /\[native code\]/.test(source);
}

// Engines print a built-in's source differently (QuickJS breaks the line);
// the hash is of V8's text, as pi computes it on Node.
function sourceAsV8Prints(value) {
  const source = Function.prototype.toString.call(value);
  return /\[native code\]/.test(source) ? `function ${value.name}() { [native code] }` : source;
}

class Hasher {
  constructor() {
    this.state = OFFSET_BASIS;
  }
  byte(byte) {
    this.state = ((this.state ^ globalThis.BigInt(byte)) * PRIME) & MASK;
  }
  bytes(bytes) {
    for (const byte of bytes) this.byte(byte);
  }
  number(value) {
    this.byte(Marker.Number);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value, true);
    this.bytes(new Uint8Array(view.buffer));
  }
  string(value) {
    this.byte(Marker.String);
    this.bytes(encoder.encode(value));
  }
  boolean(value) {
    this.byte(Marker.Boolean);
    this.byte(value ? 1 : 0);
  }
  value(value) {
    if (ArrayBuffer.isView(value)) {
      this.byte(Marker.TypeArray);
      this.bytes(new Uint8Array(value.buffer));
    } else if (value instanceof Date) {
      this.byte(Marker.Date);
      this.value(value.getTime());
    } else if (value instanceof RegExp) {
      this.byte(Marker.RegExp);
      this.string(value.toString());
    } else if (value instanceof Boolean) this.boolean(value.valueOf());
    else if (value instanceof String) this.string(value.valueOf());
    else if (value instanceof Number || typeof value === "number") this.number(value.valueOf());
    else if (Array.isArray(value)) {
      this.byte(Marker.Array);
      for (const item of value) this.value(item);
    } else if (typeof value === "boolean") this.boolean(value);
    else if (typeof value === "bigint") {
      this.byte(Marker.BigInt);
      const view = new DataView(new ArrayBuffer(8));
      view.setBigInt64(0, value);
      this.bytes(new Uint8Array(view.buffer));
    } else if (isConstructorFunction(value)) {
      this.byte(Marker.Constructor);
      this.value(sourceAsV8Prints(value));
    } else if (value === null) this.byte(Marker.Null);
    else if (typeof value === "object") {
      this.byte(Marker.Object);
      for (const key of instanceKeys(value).sort()) {
        this.value(key);
        this.value(value[key]);
      }
    } else if (typeof value === "string") this.string(value);
    else if (typeof value === "symbol") {
      this.byte(Marker.Symbol);
      this.value(value.toString());
    } else if (value === undefined) this.byte(Marker.Undefined);
    else {
      this.byte(Marker.Function);
      this.value(value.toString());
    }
  }
}

export function HashCode(value) {
  const hasher = new Hasher();
  hasher.value(value);
  return hasher.state;
}

export function Hash(value) {
  return HashCode(value).toString(16).padStart(16, "0");
}
