// node:util for the pihost isolate, written from Node's documented behaviour
// and from observing Node 22. `inspect` follows Node's layout rules (depth,
// circular markers, the breakLength/compact line breaking, array grouping)
// for ordinary values. What pure JavaScript cannot see is approximated:
// promise state and proxies (see `formatPromise` and `types.isProxy`), and
// the contents of Map/Set iterators.
import { codedError, invalidArgType } from "./internal/errors.js";
import * as timersPromises from "./timers/promises.js";

const customInspectSymbol = Symbol.for("nodejs.util.inspect.custom");
const customPromisifySymbol = Symbol.for("nodejs.util.promisify.custom");

function nextTick(fn, ...args) {
  const tick = globalThis.process?.nextTick;
  if (typeof tick === "function") tick(fn, ...args);
  else queueMicrotask(() => fn(...args));
}

// ---------------------------------------------------------------- types
// Brand checks go through the built-ins' own getters and methods, which
// throw on foreign objects, so a faked Symbol.toStringTag cannot fool them.

function brandCheck(fn) {
  return (value) => {
    if (value === null || typeof value !== "object") return false;
    try {
      fn(value);
      return true;
    } catch {
      return false;
    }
  };
}

const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = getter(TypedArrayPrototype, Symbol.toStringTag);
const tagOf = (value) => Object.prototype.toString.call(value).slice(8, -1);

const isDate = brandCheck((v) => Date.prototype.getTime.call(v));
const isRegExp = (value) =>
  value !== RegExp.prototype && brandCheck((v) => getter(RegExp.prototype, "source").call(v))(value);
const isMap = brandCheck((v) => getter(Map.prototype, "size").call(v));
const isSet = brandCheck((v) => getter(Set.prototype, "size").call(v));
const isWeakMap = brandCheck((v) => WeakMap.prototype.has.call(v, {}));
const isWeakSet = brandCheck((v) => WeakSet.prototype.has.call(v, {}));
const isArrayBuffer = brandCheck((v) => getter(ArrayBuffer.prototype, "byteLength").call(v));
const isSharedArrayBuffer =
  typeof SharedArrayBuffer === "function"
    ? brandCheck((v) => getter(SharedArrayBuffer.prototype, "byteLength").call(v))
    : () => false;
const isDataView = brandCheck((v) => getter(DataView.prototype, "byteLength").call(v));
const isNumberObject = brandCheck((v) => Number.prototype.valueOf.call(v));
const isStringObject = brandCheck((v) => String.prototype.valueOf.call(v));
const isBooleanObject = brandCheck((v) => Boolean.prototype.valueOf.call(v));
const isBigIntObject = brandCheck((v) => BigInt.prototype.valueOf.call(v));
const isSymbolObject = brandCheck((v) => Symbol.prototype.valueOf.call(v));

function isTypedArray(value) {
  return typedArrayTag.call(value) !== undefined;
}

function typedArrayCheck(name) {
  return (value) => typedArrayTag.call(value) === name;
}

function isNativeError(value) {
  return value !== null && typeof value === "object" && Object.prototype.toString.call(value) === "[object Error]";
}

// Async and generator functions carry their kind in the prototype's tag.
function functionKind(value) {
  return typeof value === "function" ? tagOf(value) : "";
}

export const types = {
  isAnyArrayBuffer: (v) => isArrayBuffer(v) || isSharedArrayBuffer(v),
  isArgumentsObject: (v) => v !== null && typeof v === "object" && tagOf(v) === "Arguments",
  isArrayBuffer,
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isAsyncFunction: (v) => functionKind(v) === "AsyncFunction" || functionKind(v) === "AsyncGeneratorFunction",
  isBigInt64Array: typedArrayCheck("BigInt64Array"),
  isBigIntObject,
  isBigUint64Array: typedArrayCheck("BigUint64Array"),
  isBooleanObject,
  isBoxedPrimitive: (v) =>
    isNumberObject(v) || isStringObject(v) || isBooleanObject(v) || isBigIntObject(v) || isSymbolObject(v),
  isCryptoKey: () => false,
  isDataView,
  isDate,
  isExternal: () => false,
  isFloat16Array: typedArrayCheck("Float16Array"),
  isFloat32Array: typedArrayCheck("Float32Array"),
  isFloat64Array: typedArrayCheck("Float64Array"),
  isGeneratorFunction: (v) => functionKind(v) === "GeneratorFunction" || functionKind(v) === "AsyncGeneratorFunction",
  isGeneratorObject: (v) => v !== null && typeof v === "object" && /^(Async)?Generator$/.test(tagOf(v)),
  isInt8Array: typedArrayCheck("Int8Array"),
  isInt16Array: typedArrayCheck("Int16Array"),
  isInt32Array: typedArrayCheck("Int32Array"),
  isKeyObject: () => false,
  isMap,
  isMapIterator: (v) => v !== null && typeof v === "object" && tagOf(v) === "Map Iterator",
  isModuleNamespaceObject: (v) =>
    v !== null && typeof v === "object" && Object.getPrototypeOf(v) === null && tagOf(v) === "Module" && Object.isSealed(v),
  isNativeError,
  isNumberObject,
  // Without a brand check for promises, same-realm instances and faithful
  // tags are what can be recognised.
  isPromise: (v) => v instanceof Promise || (v !== null && typeof v === "object" && tagOf(v) === "Promise"),
  // Proxies are indistinguishable from their targets in plain JavaScript.
  isProxy: () => false,
  isRegExp,
  isSet,
  isSetIterator: (v) => v !== null && typeof v === "object" && tagOf(v) === "Set Iterator",
  isSharedArrayBuffer,
  isStringObject,
  isSymbolObject,
  isTypedArray,
  isUint8Array: typedArrayCheck("Uint8Array"),
  isUint8ClampedArray: typedArrayCheck("Uint8ClampedArray"),
  isUint16Array: typedArrayCheck("Uint16Array"),
  isUint32Array: typedArrayCheck("Uint32Array"),
  isWeakMap,
  isWeakSet,
};

const isError = (value) => isNativeError(value) || value instanceof Error;

// ---------------------------------------------------------------- inspect

const defaultOptions = {
  showHidden: false,
  depth: 2,
  colors: false,
  customInspect: true,
  showProxy: false,
  maxArrayLength: 100,
  maxStringLength: 10000,
  breakLength: 80,
  compact: 3,
  sorted: false,
  getters: false,
  numericSeparator: false,
};

const colors = Object.assign(Object.create(null), {
  reset: [0, 0],
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  blink: [5, 25],
  inverse: [7, 27],
  hidden: [8, 28],
  strikethrough: [9, 29],
  doubleunderline: [21, 24],
  black: [30, 39],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  white: [37, 39],
  bgBlack: [40, 49],
  bgRed: [41, 49],
  bgGreen: [42, 49],
  bgYellow: [43, 49],
  bgBlue: [44, 49],
  bgMagenta: [45, 49],
  bgCyan: [46, 49],
  bgWhite: [47, 49],
  framed: [51, 54],
  overlined: [53, 55],
  gray: [90, 39],
  redBright: [91, 39],
  greenBright: [92, 39],
  yellowBright: [93, 39],
  blueBright: [94, 39],
  magentaBright: [95, 39],
  cyanBright: [96, 39],
  whiteBright: [97, 39],
  bgGray: [100, 49],
  bgRedBright: [101, 49],
  bgGreenBright: [102, 49],
  bgYellowBright: [103, 49],
  bgBlueBright: [104, 49],
  bgMagentaBright: [105, 49],
  bgCyanBright: [106, 49],
  bgWhiteBright: [107, 49],
});
// Aliases Node accepts but does not list among the enumerable names.
for (const [alias, name] of [
  ["grey", "gray"],
  ["blackBright", "gray"],
  ["bgGrey", "bgGray"],
  ["bgBlackBright", "bgGray"],
  ["faint", "dim"],
  ["crossedout", "strikethrough"],
  ["strikeThrough", "strikethrough"],
  ["crossedOut", "strikethrough"],
  ["conceal", "hidden"],
  ["swapColors", "inverse"],
  ["swapcolors", "inverse"],
  ["doubleUnderline", "doubleunderline"],
]) {
  Object.defineProperty(colors, alias, { value: colors[name], enumerable: false, writable: true, configurable: true });
}

const styles = Object.assign(Object.create(null), {
  special: "cyan",
  number: "yellow",
  bigint: "yellow",
  boolean: "yellow",
  undefined: "grey",
  null: "bold",
  string: "green",
  symbol: "green",
  date: "magenta",
  regexp: "red",
  module: "underline",
});

function stylizeWithColor(text, styleType) {
  const style = styles[styleType];
  const codes = style !== undefined ? colors[style] : undefined;
  return codes ? `\u001b[${codes[0]}m${text}\u001b[${codes[1]}m` : text;
}

const stylizeNoColor = (text) => text;

// Terminal control sequences, after ECMA-48: string controls (OSC
// hyperlinks and titles, DCS, APC...) up to BEL or ST, control sequences
// (parameter bytes, intermediate bytes, one final byte), and the remaining
// two- or three-byte escape sequences.
const ansiPattern = new RegExp(
  [
    "(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d-\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)",
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]",
    "\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]",
  ].join("|"),
  "g",
);

const visibleLength = (ctx, text) => (ctx.colors ? text.replace(ansiPattern, "").length : text.length);

const C0_ESCAPES = [
  "\\x00", "\\x01", "\\x02", "\\x03", "\\x04", "\\x05", "\\x06", "\\x07",
  "\\b", "\\t", "\\n", "\\x0B", "\\f", "\\r", "\\x0E", "\\x0F",
];

function escapeCodeUnit(code) {
  if (code < 16) return C0_ESCAPES[code];
  if (code === 0x5c) return "\\\\";
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\x${code.toString(16).toUpperCase()}`;
  return `\\u${code.toString(16)}`;
}

/** A string as Node shows it: quoted with the first of ' " ` it does not contain. */
function quoteString(str) {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes("`") && !str.includes("${")) quote = "`";
  }
  let out = "";
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    const code = str.charCodeAt(i);
    let replacement;
    if (code < 0x20 || code === 0x5c || (code >= 0x7f && code <= 0x9f)) {
      replacement = escapeCodeUnit(code);
    } else if (code === 0x27 && quote === "'") {
      replacement = "\\'";
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = str.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      replacement = escapeCodeUnit(code);
    } else {
      continue;
    }
    out += str.slice(last, i) + replacement;
    last = i + 1;
  }
  return quote + out + str.slice(last) + quote;
}

function groupDigits(digits) {
  let out = "";
  let i = digits.length;
  for (; i > 3; i -= 3) out = `_${digits.slice(i - 3, i)}${out}`;
  return digits.slice(0, i) + out;
}

function formatNumber(stylize, n, separators) {
  if (Object.is(n, -0)) return stylize("-0", "number");
  let text = `${n}`;
  if (separators && Number.isFinite(n) && !text.includes("e")) {
    const [int, frac] = text.split(".");
    const sign = int.startsWith("-") ? "-" : "";
    text = sign + groupDigits(int.slice(sign.length));
    if (frac !== undefined) text += `.${frac.match(/.{1,3}/g).join("_")}`;
  }
  return stylize(text, "number");
}

function formatBigInt(stylize, n, separators) {
  let text = `${n}`;
  if (separators) {
    const sign = text.startsWith("-") ? "-" : "";
    text = sign + groupDigits(text.slice(sign.length));
  }
  return stylize(`${text}n`, "bigint");
}

const MIN_LINE_WIDTH = 16;

function formatPrimitive(ctx, value) {
  const stylize = ctx.stylize;
  switch (typeof value) {
    case "string": {
      let trailer = "";
      if (value.length > ctx.maxStringLength) {
        const remaining = value.length - ctx.maxStringLength;
        value = value.slice(0, ctx.maxStringLength);
        trailer = `... ${remaining} more character${remaining > 1 ? "s" : ""}`;
      }
      // Long strings inside a structure break after each newline so that
      // they read as lines.
      if (
        ctx.compact !== true &&
        value.length > MIN_LINE_WIDTH &&
        value.length > ctx.breakLength - ctx.indentationLvl - 4
      ) {
        const lines = value.match(/[^\n]*\n|[^\n]+$/g) ?? [value];
        return (
          lines.map((line) => stylize(quoteString(line), "string")).join(` +\n${" ".repeat(ctx.indentationLvl + 2)}`) +
          trailer
        );
      }
      return stylize(quoteString(value), "string") + trailer;
    }
    case "number":
      return formatNumber(stylize, value, ctx.numericSeparator);
    case "bigint":
      return formatBigInt(stylize, value, ctx.numericSeparator);
    case "boolean":
      return stylize(`${value}`, "boolean");
    case "undefined":
      return stylize("undefined", "undefined");
    default:
      return stylize(value.toString(), "symbol");
  }
}

function formatSymbolKey(ctx, key) {
  return `[${ctx.stylize(escapeNonPrintable(key.toString()), "symbol")}]`;
}

function escapeNonPrintable(text) {
  return text.replace(/[\x00-\x1f\x27\x5c\x7f-\x9f]/g, (ch) => (ch === "'" ? "\\'" : escapeCodeUnit(ch.charCodeAt(0))));
}

const IDENTIFIER = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

function isArrayIndexKey(key) {
  if (typeof key !== "string" || key === "" || (key.length > 1 && key[0] === "0") || !/^\d+$/.test(key)) return false;
  return Number(key) < 2 ** 32 - 1;
}

function ownKeys(value, showHidden) {
  const symbols = Object.getOwnPropertySymbols(value);
  if (showHidden) return [...Object.getOwnPropertyNames(value), ...symbols];
  return [...Object.keys(value), ...symbols.filter((s) => Object.prototype.propertyIsEnumerable.call(value, s))];
}

function nonIndexKeys(value, showHidden) {
  return ownKeys(value, showHidden).filter((key) => !isArrayIndexKey(key));
}

function instanceOf(value, ctor) {
  try {
    return value instanceof ctor;
  } catch {
    return false;
  }
}

let builtInConstructors;

// Global constructors with capitalised names count as built-in.
function isBuiltInConstructorName(name) {
  builtInConstructors ??= new Set(
    Object.getOwnPropertyNames(globalThis).filter((key) => /^[A-Z][a-zA-Z0-9]+$/.test(key)),
  );
  return builtInConstructors.has(name);
}

// The name of the nearest constructor in the prototype chain that the value
// really is an instance of; null for null-prototype objects. With
// `protoProps` (showHidden), the data properties of the user-defined
// prototypes passed on the way are collected too.
function constructorName(value, ctx, level, protoProps) {
  let firstProto;
  for (let obj = value; obj !== null && obj !== undefined; ) {
    const descriptor = Object.getOwnPropertyDescriptor(obj, "constructor");
    if (
      descriptor !== undefined &&
      typeof descriptor.value === "function" &&
      descriptor.value.name !== "" &&
      instanceOf(value, descriptor.value)
    ) {
      if (protoProps !== undefined && (firstProto !== obj || !isBuiltInConstructorName(descriptor.value.name))) {
        collectPrototypeProperties(ctx, value, firstProto || value, level, protoProps);
      }
      return String(descriptor.value.name);
    }
    obj = Object.getPrototypeOf(obj);
    if (firstProto === undefined) firstProto = obj;
  }
  if (firstProto === null) return null;
  // A prototype chain without a usable constructor: name the closest built-in
  // kind and show the chain's first prototype.
  const fallback = Array.isArray(value) ? "Array" : typeof value === "function" ? "Function" : "Object";
  if (ctx.depth !== null && level > ctx.depth) return `${fallback} <Complex prototype>`;
  const protoName = constructorName(firstProto, ctx, level + 1);
  if (protoName === null) {
    return `${fallback} <${inspect(firstProto, { ...ctx.userOptions, customInspect: false, depth: -1 })}>`;
  }
  return `${fallback} <${protoName}>`;
}

// Node leaves out a tag that the constructor name already spells as one of
// its capitalised words ("MyMap" extends Map) but keeps it otherwise
// ("Mapping", "Foo [Bar]").
function tagShown(ctor, tag) {
  if (tag === "" || ctor === tag) return false;
  if (ctor === null) return true;
  for (let at = ctor.indexOf(tag); at !== -1; at = ctor.indexOf(tag, at + 1)) {
    const next = ctor[at + tag.length];
    if (next === undefined || (next >= "A" && next <= "Z")) return false;
  }
  return true;
}

// Up to three prototypes below the first built-in one; methods, constructor
// and names shadowed closer to the object are left out.
function collectPrototypeProperties(ctx, main, start, level, output) {
  let obj = start;
  const shadowed = new Set();
  for (let depth = 0; depth < 3; depth++) {
    if (depth !== 0 || main === obj) {
      obj = Object.getPrototypeOf(obj);
      if (obj === null) return;
      const descriptor = Object.getOwnPropertyDescriptor(obj, "constructor");
      if (descriptor !== undefined && typeof descriptor.value === "function" && isBuiltInConstructorName(descriptor.value.name)) {
        return;
      }
    }
    const keys = Reflect.ownKeys(obj);
    ctx.seen.push(main);
    for (const key of keys) {
      if (key === "constructor" || Object.prototype.hasOwnProperty.call(main, key) || shadowed.has(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(obj, key);
      if (typeof descriptor.value === "function") continue;
      const shown = formatProperty(ctx, obj, level, key, false, descriptor, main);
      output.push(ctx.colors ? `\u001b[2m${shown}\u001b[22m` : shown);
    }
    ctx.seen.pop();
    for (const key of keys) shadowed.add(key);
  }
}

function prefixFor(ctor, tag, fallback, size = "") {
  if (ctor === null) {
    if (tag !== "" && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
    return `[${fallback}${size}: null prototype] `;
  }
  if (tagShown(ctor, tag)) return `${ctor}${size} [${tag}] `;
  return `${ctor}${size} `;
}

function formatValue(ctx, value, level, inTypedArray) {
  if (value === null) return ctx.stylize("null", "null");
  if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx, value);

  if (ctx.customInspect) {
    let custom;
    try {
      custom = value[customInspectSymbol];
    } catch {
      custom = undefined;
    }
    if (typeof custom === "function" && custom !== inspect && !isOwnPrototypeOfConstructor(value)) {
      const depth = ctx.depth === null ? null : ctx.depth - level;
      const result = custom.call(value, depth, userOptionsFor(ctx), inspect);
      if (result !== value) {
        if (typeof result !== "string") return formatValue(ctx, result, level);
        return result.replaceAll("\n", `\n${" ".repeat(ctx.indentationLvl)}`);
      }
    }
  }

  if (ctx.seen.includes(value)) {
    let index = ctx.circular.get(value);
    if (index === undefined) {
      index = ctx.circular.size + 1;
      ctx.circular.set(value, index);
    }
    return ctx.stylize(`[Circular *${index}]`, "special");
  }
  return formatObject(ctx, value, level, inTypedArray);
}

// A prototype object's custom inspect belongs to its instances, not to it.
function isOwnPrototypeOfConstructor(value) {
  try {
    return Boolean(value.constructor) && value.constructor.prototype === value;
  } catch {
    return false;
  }
}

function userOptionsFor(ctx) {
  const options = { stylize: ctx.stylize };
  for (const key of Object.keys(defaultOptions)) options[key] = ctx[key];
  return Object.assign(options, ctx.userOptions, { stylize: ctx.stylize });
}

function isBufferLike(value, ctor) {
  return ctor === "Buffer" && typedArrayTag.call(value) === "Uint8Array";
}

function formatObject(ctx, value, level, inTypedArray) {
  let keys;
  let protoProps = ctx.showHidden && (ctx.depth === null || level <= ctx.depth) ? [] : undefined;
  const ctor = constructorName(value, ctx, level, protoProps);
  if (protoProps !== undefined && protoProps.length === 0) protoProps = undefined;
  let tag = value[Symbol.toStringTag];
  // A null-prototype object named by its own tag shows that name in place of
  // "Object", as V8 reports it as the constructor name.
  let objectFallback = "Object";
  // An own enumerable tag is listed among the keys already.
  if (
    typeof tag !== "string" ||
    (tag !== "" &&
      (ctx.showHidden ? Object.prototype.hasOwnProperty : Object.prototype.propertyIsEnumerable).call(
        value,
        Symbol.toStringTag,
      ))
  ) {
    if (ctor === null && typeof tag === "string" && tag !== "" && Object.prototype.propertyIsEnumerable.call(value, Symbol.toStringTag)) {
      objectFallback = tag;
    }
    tag = "";
  }
  const noProtoProps = protoProps === undefined;

  let base = "";
  let formatEntries = () => [];
  let braces;
  let isArrayLike = false;
  const depthExceeded = ctx.depth !== null && level > ctx.depth;

  if (Array.isArray(value)) {
    const prefix = ctor !== "Array" || tag !== "" ? prefixFor(ctor, tag, "Array", `(${value.length})`) : "";
    keys = nonIndexKeys(value, ctx.showHidden);
    braces = [`${prefix}[`, "]"];
    if (value.length === 0 && keys.length === 0 && noProtoProps) return `${braces[0]}]`;
    isArrayLike = true;
    formatEntries = formatArray;
  } else if (isSet(value)) {
    const prefix = prefixFor(ctor, tag, "Set", `(${value.size})`);
    keys = ownKeys(value, ctx.showHidden);
    formatEntries = (c, v, l) => formatSetEntries(c, Set.prototype.values.call(v), v.size, l);
    if (value.size === 0 && keys.length === 0 && noProtoProps) return `${prefix}{}`;
    braces = [`${prefix}{`, "}"];
  } else if (isMap(value)) {
    const prefix = prefixFor(ctor, tag, "Map", `(${value.size})`);
    keys = ownKeys(value, ctx.showHidden);
    formatEntries = formatMapEntries;
    if (value.size === 0 && keys.length === 0 && noProtoProps) return `${prefix}{}`;
    braces = [`${prefix}{`, "}"];
  } else if (isTypedArray(value)) {
    keys = nonIndexKeys(value, ctx.showHidden);
    if (isBufferLike(value, ctor)) return formatBuffer(ctx, value, keys, level);
    const kind = typedArrayTag.call(value);
    const prefix = prefixFor(ctor, tag, kind, `(${value.length})`);
    braces = [`${prefix}[`, "]"];
    if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return `${braces[0]}]`;
    formatEntries = formatTypedArray;
    isArrayLike = true;
  } else if (types.isMapIterator(value) || types.isSetIterator(value)) {
    // Reading an iterator's remaining entries would consume them.
    keys = ownKeys(value, ctx.showHidden);
    braces = [`[${tag}] {`, "}"];
    formatEntries = () => [ctx.stylize("<items unknown>", "special")];
  } else {
    keys = ownKeys(value, ctx.showHidden);
    braces = ["{", "}"];
    if (typeof value === "function") {
      base = functionBase(value, ctor, tag);
      if (keys.length === 0 && noProtoProps) return ctx.stylize(base, "special");
    } else if (ctor === "Object" && !types.isModuleNamespaceObject(value)) {
      if (types.isArgumentsObject(value)) braces[0] = "[Arguments] {";
      else if (tag !== "") braces[0] = `${prefixFor(ctor, tag, "Object")}{`;
      if (keys.length === 0 && noProtoProps) return `${braces[0]}}`;
    } else if (isRegExp(value)) {
      base = RegExp.prototype.toString.call(ctor !== null ? value : new RegExp(value));
      const prefix = prefixFor(ctor, tag, "RegExp");
      if (prefix !== "RegExp ") base = `${prefix}${base}`;
      if ((keys.length === 0 && noProtoProps) || depthExceeded) return ctx.stylize(base, "regexp");
    } else if (isDate(value)) {
      const time = Date.prototype.getTime.call(value);
      base = Number.isNaN(time) ? Date.prototype.toString.call(value) : Date.prototype.toISOString.call(value);
      const prefix = prefixFor(ctor, tag, "Date");
      if (prefix !== "Date ") base = `${prefix}${base}`;
      if (keys.length === 0 && noProtoProps) return ctx.stylize(base, "date");
    } else if (isError(value)) {
      base = formatError(ctx, value, ctor, tag, keys);
      if (keys.length === 0 && noProtoProps) return base;
    } else if (types.isAnyArrayBuffer(value)) {
      const kind = isArrayBuffer(value) ? "ArrayBuffer" : "SharedArrayBuffer";
      const prefix = prefixFor(ctor, tag, kind);
      if (inTypedArray && keys.length === 0 && noProtoProps) {
        return `${prefix}{ [byteLength]: ${formatNumber(ctx.stylize, value.byteLength, false)} }`;
      }
      if (!inTypedArray) formatEntries = formatArrayBufferContents;
      braces[0] = `${prefix}{`;
      keys.unshift(hidden("byteLength"));
    } else if (isDataView(value)) {
      braces[0] = `${prefixFor(ctor, tag, "DataView")}{`;
      keys.unshift(hidden("byteLength"), hidden("byteOffset"), hidden("buffer"));
    } else if (types.isPromise(value)) {
      braces[0] = `${prefixFor(ctor, tag, "Promise")}{`;
      formatEntries = formatPromise;
    } else if (isWeakSet(value) || isWeakMap(value)) {
      braces[0] = `${prefixFor(ctor, tag, isWeakSet(value) ? "WeakSet" : "WeakMap")}{`;
      // Node lists the entries under showHidden, which needs engine support;
      // its layout for an empty listing is kept.
      formatEntries = ctx.showHidden ? () => [] : () => [ctx.stylize("<items unknown>", "special")];
    } else if (types.isModuleNamespaceObject(value)) {
      braces[0] = `${prefixFor(ctor, tag, "Module")}{`;
    } else if (types.isBoxedPrimitive(value)) {
      base = boxedBase(ctx, value, keys, ctor, tag);
      if (keys.length === 0 && noProtoProps) return base;
    } else {
      if (keys.length === 0 && noProtoProps) return `${prefixFor(ctor, tag, objectFallback)}{}`;
      braces[0] = `${prefixFor(ctor, tag, objectFallback)}{`;
    }
  }

  if (depthExceeded) {
    let name = prefixFor(ctor, tag, objectFallback).slice(0, -1);
    if (ctor !== null) name = `[${name}]`;
    return ctx.stylize(name, "special");
  }
  level += 1;

  ctx.seen.push(value);
  ctx.currentDepth = level;
  let output;
  try {
    output = formatEntries(ctx, value, level);
    for (const key of keys) output.push(formatProperty(ctx, value, level, key, isArrayLike));
    if (protoProps !== undefined) output.push(...protoProps);
  } catch (err) {
    ctx.seen.pop();
    if (!(err instanceof RangeError) || !/call stack/i.test(err.message)) throw err;
    const name = prefixFor(ctor, tag, "Object").slice(0, -1);
    return ctx.stylize(`[${name}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`, "special");
  }
  const refIndex = ctx.circular.get(value);
  if (refIndex !== undefined) {
    const reference = ctx.stylize(`<ref *${refIndex}>`, "special");
    if (ctx.compact !== true) base = base === "" ? reference : `${reference} ${base}`;
    else braces[0] = `${reference} ${braces[0]}`;
  }
  ctx.seen.pop();

  if (ctx.sorted) {
    const compare = ctx.sorted === true ? undefined : ctx.sorted;
    if (isArrayLike) {
      const sortedKeys = output.splice(output.length - keys.length).sort(compare);
      output.push(...sortedKeys);
    } else {
      output.sort(compare);
    }
  }
  return joinEntries(ctx, output, base, braces, isArrayLike, level, value);
}

// Keys Node lists in brackets although they are not own properties.
function hidden(name) {
  return { hiddenKey: name };
}

function functionBase(fn, ctor, tag) {
  let source = "";
  try {
    source = Function.prototype.toString.call(fn);
  } catch {}
  if (source.startsWith("class") && source.endsWith("}")) {
    const body = source.slice(5, -1);
    const brace = body.indexOf("{");
    if (brace !== -1 && (!body.slice(0, brace).includes("(") || /^\s*(?:[\w$]+\s*)?(?:extends\s+[\w$.]+\s*)?$/.test(body.slice(0, brace)))) {
      return classBase(fn, ctor, tag);
    }
  }
  let kind = "Function";
  const fnTag = functionKind(fn);
  if (fnTag === "GeneratorFunction" || fnTag === "AsyncGeneratorFunction") kind = `Generator${kind}`;
  if (fnTag === "AsyncFunction" || fnTag === "AsyncGeneratorFunction") kind = `Async${kind}`;
  let base = `[${kind}`;
  if (ctor === null) base += " (null prototype)";
  base += fn.name === "" ? " (anonymous)" : `: ${fn.name}`;
  base += "]";
  if (ctor !== kind && ctor !== null) base += ` ${ctor}`;
  if (tagShown(ctor, tag)) base += ` [${tag}]`;
  return base;
}

function classBase(fn, ctor, tag) {
  const name = (Object.prototype.hasOwnProperty.call(fn, "name") && fn.name) || "(anonymous)";
  let base = `class ${name}`;
  if (ctor !== "Function" && ctor !== null) base += ` [${ctor}]`;
  if (tagShown(ctor, tag)) base += ` [${tag}]`;
  if (ctor !== null) {
    const superName = Object.getPrototypeOf(fn).name;
    if (superName) base += ` extends ${superName}`;
  } else {
    base += " extends [null prototype]";
  }
  return `[${base}]`;
}

function boxedBase(ctx, value, keys, ctor, tag) {
  let kind;
  let primitive;
  if (isNumberObject(value)) [kind, primitive] = ["Number", Number.prototype.valueOf.call(value)];
  else if (isStringObject(value)) {
    [kind, primitive] = ["String", String.prototype.valueOf.call(value)];
    // The characters are shown in the base already.
    keys.splice(0, primitive.length);
  } else if (isBooleanObject(value)) [kind, primitive] = ["Boolean", Boolean.prototype.valueOf.call(value)];
  else if (isBigIntObject(value)) [kind, primitive] = ["BigInt", BigInt.prototype.valueOf.call(value)];
  else [kind, primitive] = ["Symbol", Symbol.prototype.valueOf.call(value)];
  let base = `[${kind}`;
  if (kind !== ctor) base += ctor === null ? " (null prototype)" : ` (${ctor})`;
  base += `: ${formatPrimitive({ ...ctx, stylize: stylizeNoColor, compact: true }, primitive)}]`;
  if (tagShown(ctor, tag)) base += ` [${tag}]`;
  if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
  return ctx.stylize(base, kind.toLowerCase());
}

function stackOf(err) {
  let stack;
  try {
    stack = err.stack;
  } catch {}
  if (stack) {
    stack = String(stack);
    // QuickJS stacks hold only the frames; Node's start with "Name: message".
    if (stack.startsWith("    at ")) stack = `${Error.prototype.toString.call(err)}\n${stack}`;
    return stack;
  }
  return Error.prototype.toString.call(err);
}

function formatError(ctx, err, ctor, tag, keys) {
  const name = err.name != null ? String(err.name) : "Error";
  let stack = stackOf(err);
  // name, message and stack shown through the stack are not repeated as keys.
  if (!ctx.showHidden && keys.length !== 0) {
    for (const key of ["name", "message", "stack"]) {
      const index = keys.indexOf(key);
      if (index !== -1 && (typeof err[key] !== "string" || stack.includes(err[key]))) keys.splice(index, 1);
    }
  }
  if ("cause" in err && !keys.includes("cause")) keys.push("cause");
  if (Array.isArray(err.errors) && !keys.includes("errors")) keys.push("errors");

  stack = withConstructorName(stack, ctor, name, tag);

  let messageEnd = (err.message && stack.indexOf(err.message)) || -1;
  if (messageEnd !== -1) messageEnd += err.message.length;
  const framesStart = stack.indexOf("\n    at", messageEnd);
  if (framesStart === -1) {
    stack = `[${stack}]`;
  } else {
    const frames = framesWithoutCause(ctx, err, stack.slice(framesStart + 1));
    stack = `${stack.slice(0, framesStart)}\n${frames.join("\n")}`;
  }
  if (ctx.indentationLvl !== 0) stack = stack.replaceAll("\n", `\n${" ".repeat(ctx.indentationLvl)}`);
  return stack;
}

// Subclasses and renamed errors say which class they are, as Node does for
// stacks that look like ordinary "Name: message" stacks.
function withConstructorName(stack, ctor, name, tag) {
  let length = name.length;
  const looksNormal =
    name.endsWith("Error") &&
    stack.startsWith(name) &&
    (stack.length === length || stack[length] === ":" || stack[length] === "\n");
  if (ctor !== null && !looksNormal) return stack;
  let fallback = "Error";
  if (ctor === null) {
    const match = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) || /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
    fallback = match?.[1] || "";
    length = fallback.length;
    fallback ||= "Error";
  }
  const prefix = prefixFor(ctor, tag, fallback).slice(0, -1);
  if (name === prefix) return stack;
  if (prefix.includes(name)) {
    return length === 0 ? `${prefix}: ${stack}` : `${prefix}${stack.slice(length)}`;
  }
  return `${prefix} [${name}]${stack.slice(length)}`;
}

// Frames an error shares with its cause are collapsed into one line.
function framesWithoutCause(ctx, err, framesText) {
  const frames = framesText.split("\n");
  let cause;
  try {
    cause = err.cause;
  } catch {}
  if (cause == null || !isError(cause)) return frames;
  const causeStack = stackOf(cause);
  const start = causeStack.indexOf("\n    at");
  if (start === -1) return frames;
  const causeFrames = causeStack.slice(start + 1).split("\n");
  for (let i = 0; i < frames.length - 3; i++) {
    const at = causeFrames.indexOf(frames[i]);
    if (at === -1 || causeFrames.length - at <= 3) continue;
    const limit = Math.min(frames.length - i, causeFrames.length - at);
    let run = 1;
    while (run < limit && frames[i + run] === causeFrames[at + run]) run++;
    if (run > 3) {
      const skipped = run - 2;
      frames.splice(i + 1, skipped, ctx.stylize(`    ... ${skipped} lines matching cause stack trace ...`, "undefined"));
      break;
    }
  }
  return frames;
}

function moreItems(count) {
  return `... ${count} more item${count > 1 ? "s" : ""}`;
}

function formatArray(ctx, array, level) {
  const length = array.length;
  const shown = Math.min(Math.max(0, ctx.maxArrayLength), length);
  const output = [];
  for (let i = 0; i < shown; i++) {
    if (!Object.prototype.hasOwnProperty.call(array, i)) return formatSparseArray(ctx, array, level, shown, output, i);
    output.push(formatProperty(ctx, array, level, i, true));
  }
  if (length > shown) output.push(moreItems(length - shown));
  return output;
}

// Runs of holes print as "<n empty items>"; each run counts as one entry
// against maxArrayLength.
function formatSparseArray(ctx, array, level, limit, output, from) {
  const indices = Object.keys(array).filter(isArrayIndexKey).map(Number);
  let expected = from;
  let entries = output.length;
  for (const index of indices) {
    if (index < from) continue;
    if (entries >= limit) break;
    if (index !== expected) {
      const holes = index - expected;
      output.push(ctx.stylize(`<${holes} empty item${holes > 1 ? "s" : ""}>`, "undefined"));
      entries++;
      expected = index;
      if (entries >= limit) break;
    }
    output.push(formatProperty(ctx, array, level, String(index), true));
    entries++;
    expected++;
  }
  const remaining = array.length - expected;
  if (entries < limit) {
    if (remaining > 0) {
      output.push(ctx.stylize(`<${remaining} empty item${remaining > 1 ? "s" : ""}>`, "undefined"));
    }
  } else if (remaining > 0) {
    output.push(moreItems(remaining));
  }
  return output;
}

function formatTypedArray(ctx, array, level) {
  const length = array.length;
  const shown = Math.min(Math.max(0, ctx.maxArrayLength), length);
  const output = [];
  const format = typeof array[0] === "bigint" ? formatBigInt : formatNumber;
  for (let i = 0; i < shown; i++) output.push(format(ctx.stylize, array[i], ctx.numericSeparator));
  if (length > shown) output.push(moreItems(length - shown));
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const key of ["BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"]) {
      output.push(`[${key}]: ${formatValue(ctx, array[key], level, true)}`);
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

function hexBytes(bytes, limit) {
  let text = "";
  for (let i = 0; i < Math.min(limit, bytes.length); i++) {
    text += `${i === 0 ? "" : " "}${bytes[i].toString(16).padStart(2, "0")}`;
  }
  return text;
}

function formatArrayBufferContents(ctx, buffer) {
  let bytes;
  try {
    bytes = new Uint8Array(buffer);
  } catch {
    return [ctx.stylize("(detached)", "special")];
  }
  let text = hexBytes(bytes, ctx.maxArrayLength);
  const remaining = bytes.length - ctx.maxArrayLength;
  if (remaining > 0) text += ` ... ${remaining} more byte${remaining > 1 ? "s" : ""}`;
  return [`${ctx.stylize("[Uint8Contents]", "special")}: <${text}>`];
}

// Node's Buffer prints itself through a custom inspect; pihost's Buffer may
// not carry one, so the same layout is produced here.
const BUFFER_INSPECT_MAX_BYTES = 50;

function formatBuffer(ctx, buffer, keys, level) {
  let text = hexBytes(buffer, BUFFER_INSPECT_MAX_BYTES);
  const remaining = buffer.length - BUFFER_INSPECT_MAX_BYTES;
  if (remaining > 0) text += ` ... ${remaining} more byte${remaining > 1 ? "s" : ""}`;
  if (keys.length > 0) {
    const extras = keys.map((key) => formatProperty(ctx, buffer, level + 1, key, false));
    text += `${text ? ", " : ""}${extras.join(", ")}`;
  }
  return `<${buffer.constructor.name} ${text}>`;
}

function formatSetEntries(ctx, iterator, size, level) {
  const shown = Math.min(Math.max(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  for (const entry of iterator) {
    if (output.length >= shown) break;
    output.push(formatValue(ctx, entry, level));
  }
  if (size > shown) output.push(moreItems(size - shown));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMapEntries(ctx, map, level) {
  const size = map.size;
  const shown = Math.min(Math.max(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  for (const [key, entry] of Map.prototype.entries.call(map)) {
    if (output.length >= shown) break;
    output.push(`${formatValue(ctx, key, level)} => ${formatValue(ctx, entry, level)}`);
  }
  if (size > shown) output.push(moreItems(size - shown));
  ctx.indentationLvl -= 2;
  return output;
}

// A promise's state cannot be read synchronously from JavaScript, so the
// entry Node shows (<pending>, the value, or <rejected> reason) is unknown.
function formatPromise(ctx) {
  return [ctx.stylize("<unknown>", "special")];
}

function formatProperty(ctx, object, level, key, isArrayEntry, descriptor, receiver = object) {
  let name;
  if (typeof key === "object") {
    name = `[${key.hiddenKey}]`;
    descriptor = { value: object[key.hiddenKey], enumerable: false };
  } else {
    descriptor ??= Object.getOwnPropertyDescriptor(object, key) ?? { value: object[key], enumerable: true };
  }
  let shown;
  if (descriptor.value !== undefined) {
    const extra = ctx.compact !== true || isArrayEntry ? 2 : 3;
    ctx.indentationLvl += extra;
    shown = formatValue(ctx, descriptor.value, level);
    if (extra === 3 && ctx.breakLength < visibleLength(ctx, shown)) {
      shown = `\n${" ".repeat(ctx.indentationLvl)}${shown}`;
      ctx.indentationLvl -= extra;
      return `${propertyName(ctx, key, descriptor, name)}:${shown}`;
    }
    ctx.indentationLvl -= extra;
  } else if (descriptor.get !== undefined) {
    const label = descriptor.set !== undefined ? "Getter/Setter" : "Getter";
    shown = ctx.stylize(`[${label}]`, "special");
    if (ctx.getters && (ctx.getters === true || (ctx.getters === "get" && descriptor.set === undefined) || (ctx.getters === "set" && descriptor.set !== undefined))) {
      try {
        const got = descriptor.get.call(receiver);
        ctx.indentationLvl += 2;
        if (got === null || typeof got !== "object") shown = `[${label}: ${formatPrimitive(ctx, got)}]`;
        else shown = `[${label}] ${formatValue(ctx, got, level)}`;
        shown = ctx.stylize(shown, "special");
        ctx.indentationLvl -= 2;
      } catch (err) {
        shown = ctx.stylize(`[${label}: <Inspection threw (${err?.message})>]`, "special");
      }
    }
  } else if (descriptor.set !== undefined) {
    shown = ctx.stylize("[Setter]", "special");
  } else {
    shown = ctx.stylize("undefined", "undefined");
  }
  if (isArrayEntry && typeof key !== "object" && isArrayIndexKey(String(key))) return shown;
  return `${propertyName(ctx, key, descriptor, name)}: ${shown}`;
}

function propertyName(ctx, key, descriptor, presetName) {
  if (presetName !== undefined) return presetName;
  if (typeof key === "symbol") return formatSymbolKey(ctx, key);
  if (key === "__proto__") return "['__proto__']";
  if (descriptor.enumerable === false) return `[${escapeNonPrintable(key)}]`;
  if (IDENTIFIER.test(key)) return ctx.stylize(key, "name");
  return ctx.stylize(quoteString(key), "string");
}

// Short entries of long arrays are laid out in aligned columns; the column
// count aims at a roughly square block (characters being about 2.5 times
// taller than wide) and never exceeds breakLength or 15 columns.
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let count = output.length;
  if (ctx.maxArrayLength < output.length) count--; // the "more items" line stays apart
  const separatorSpace = 2;
  const lengths = [];
  for (let i = 0; i < count; i++) {
    const length = visibleLength(ctx, output[i]);
    lengths.push(length);
    totalLength += length + separatorSpace;
    if (maxLength < length) maxLength = length;
  }
  const columnWidth = maxLength + separatorSpace;
  if (columnWidth * 3 + ctx.indentationLvl >= ctx.breakLength) return output;
  if (!(totalLength / columnWidth > 5 || maxLength <= 6)) return output;

  const averageBias = Math.sqrt(columnWidth - totalLength / output.length);
  const biasedMax = Math.max(columnWidth - 3 - averageBias, 1);
  const columns = Math.min(
    Math.round(Math.sqrt(2.5 * biasedMax * count) / biasedMax),
    Math.floor((ctx.breakLength - ctx.indentationLvl) / columnWidth),
    ctx.compact * 4,
    15,
  );
  if (columns <= 1) return output;

  const widths = [];
  for (let column = 0; column < columns; column++) {
    let width = 0;
    for (let j = column; j < output.length; j += columns) if (lengths[j] > width) width = lengths[j];
    widths.push(width + separatorSpace);
  }
  // Numbers align right, anything else left.
  let alignRight = value !== undefined;
  if (value !== undefined) {
    for (let i = 0; i < output.length; i++) {
      if (typeof value[i] !== "number" && typeof value[i] !== "bigint") {
        alignRight = false;
        break;
      }
    }
  }
  const rows = [];
  for (let i = 0; i < count; i += columns) {
    const end = Math.min(i + columns, count);
    let row = "";
    let j = i;
    for (; j < end - 1; j++) {
      const padding = widths[j - i] + output[j].length - lengths[j];
      row += alignRight ? `${output[j]}, `.padStart(padding, " ") : `${output[j]}, `.padEnd(padding, " ");
    }
    if (alignRight) {
      const padding = widths[j - i] + output[j].length - lengths[j] - separatorSpace;
      row += output[j].padStart(padding, " ");
    } else {
      row += output[j];
    }
    rows.push(row);
  }
  if (ctx.maxArrayLength < output.length) rows.push(output[count]);
  return rows;
}

function fitsOnOneLine(ctx, output, start, base) {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const entry of output) {
    total += visibleLength(ctx, entry);
    if (total > ctx.breakLength) return false;
  }
  return base === "" || !base.includes("\n");
}

function joinEntries(ctx, output, base, braces, isArrayLike, level, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === "number" && ctx.compact >= 1) {
      const entries = output.length;
      if (isArrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
      // ctx.currentDepth is the depth of the most recently entered object:
      // only the innermost `compact` levels may share one line.
      if (ctx.currentDepth - level < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (fitsOnOneLine(ctx, output, start, base)) {
          const joined = output.join(", ");
          if (!joined.includes("\n")) return `${base ? `${base} ` : ""}${braces[0]} ${joined} ${braces[1]}`;
        }
      }
    }
    const indentation = `\n${" ".repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ""}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }
  if (fitsOnOneLine(ctx, output, 0, base)) {
    return `${braces[0]}${base ? ` ${base}` : ""} ${output.join(", ")} ${braces[1]}`;
  }
  const indentation = " ".repeat(ctx.indentationLvl);
  const lead = base === "" && braces[0].length === 1 ? " " : `${base ? ` ${base}` : ""}\n${indentation}  `;
  return `${braces[0]}${lead}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
}

function makeContext(options) {
  const ctx = {
    ...defaultOptions,
    ...inspectDefaults,
    seen: [],
    circular: new Map(),
    indentationLvl: 0,
    currentDepth: 0,
    userOptions: undefined,
  };
  if (options !== undefined) {
    for (const key of Object.keys(options)) {
      if (Object.prototype.hasOwnProperty.call(defaultOptions, key) || key === "stylize") ctx[key] = options[key];
      else if (ctx.userOptions === undefined) ctx.userOptions = options;
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  else ctx.stylize = stylizeNoColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  if (ctx.depth === Infinity) ctx.depth = null;
  return ctx;
}

let inspectDefaults = { ...defaultOptions };

/** util.inspect(value[, options]); the legacy (value, showHidden, depth, colors) form is accepted. */
export function inspect(value, options, ...legacy) {
  let opts = options;
  if (typeof options === "boolean" || (options === undefined && legacy.length > 0)) {
    opts = { showHidden: Boolean(options) };
    if (legacy.length > 0 && legacy[0] !== undefined) opts.depth = legacy[0];
    if (legacy.length > 1 && legacy[1] !== undefined) opts.colors = legacy[1];
  } else if (options !== undefined && (options === null || typeof options !== "object")) {
    opts = undefined;
  }
  return formatValue(makeContext(opts), value, 0);
}

Object.defineProperty(inspect, "custom", { value: customInspectSymbol, enumerable: false });
Object.defineProperty(inspect, "defaultOptions", {
  get: () => inspectDefaults,
  set(options) {
    if (options === null || typeof options !== "object") throw invalidArgType("options", "of type object", options);
    inspectDefaults = { ...inspectDefaults, ...options };
  },
});
inspect.colors = colors;
inspect.styles = styles;

// ---------------------------------------------------------------- format

// Objects whose toString is a built-in's are inspected by %s rather than
// stringified.
function hasBuiltInToString(value) {
  if (typeof value.toString !== "function") return true;
  if (Object.prototype.hasOwnProperty.call(value, "toString")) return false;
  let pointer = value;
  do {
    pointer = Object.getPrototypeOf(pointer);
  } while (pointer !== null && !Object.prototype.hasOwnProperty.call(pointer, "toString"));
  if (pointer === null) return true;
  const descriptor = Object.getOwnPropertyDescriptor(pointer, "constructor");
  return descriptor !== undefined && typeof descriptor.value === "function" && isBuiltInConstructorName(descriptor.value.name);
}

function formatWithOptionsInternal(inspectOptions, args) {
  const first = args[0];
  let consumed = 0;
  let out = "";
  let join = "";
  if (typeof first === "string") {
    if (args.length === 1) return first;
    let last = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      // The character after '%' is used up whatever it is.
      const at = ++i;
      const spec = first[at];
      if (consumed + 1 !== args.length) {
        let piece;
        switch (spec) {
          case "s": {
            const arg = args[++consumed];
            if (typeof arg === "number") piece = formatNumber(stylizeNoColor, arg, false);
            else if (typeof arg === "bigint") piece = formatBigInt(stylizeNoColor, arg, false);
            else if (typeof arg !== "object" || arg === null || !hasBuiltInToString(arg)) piece = String(arg);
            else piece = inspect(arg, { ...inspectOptions, depth: 0, colors: false, compact: 3 });
            break;
          }
          case "j":
            piece = safeJson(args[++consumed]);
            break;
          case "d": {
            const arg = args[++consumed];
            if (typeof arg === "bigint") piece = formatBigInt(stylizeNoColor, arg, false);
            else if (typeof arg === "symbol") piece = "NaN";
            else piece = formatNumber(stylizeNoColor, Number(arg), false);
            break;
          }
          case "O":
            piece = inspect(args[++consumed], inspectOptions);
            break;
          case "o":
            piece = inspect(args[++consumed], { ...inspectOptions, showHidden: true, showProxy: true, depth: 4 });
            break;
          case "i": {
            const arg = args[++consumed];
            if (typeof arg === "bigint") piece = formatBigInt(stylizeNoColor, arg, false);
            else if (typeof arg === "symbol") piece = "NaN";
            else piece = formatNumber(stylizeNoColor, Number.parseInt(arg), false);
            break;
          }
          case "f": {
            const arg = args[++consumed];
            piece = typeof arg === "symbol" ? "NaN" : formatNumber(stylizeNoColor, Number.parseFloat(arg), false);
            break;
          }
          case "c":
            consumed++;
            piece = "";
            break;
          case "%":
            out += first.slice(last, at);
            last = at + 1;
            continue;
          default:
            continue;
        }
        if (last !== at - 1) out += first.slice(last, at - 1);
        out += piece;
        last = at + 1;
      } else if (spec === "%") {
        out += first.slice(last, at);
        last = at + 1;
      }
    }
    if (last !== 0) {
      consumed++;
      join = " ";
      if (last < first.length) out += first.slice(last);
    }
  }
  while (consumed < args.length) {
    const value = args[consumed];
    out += join;
    out += typeof value !== "string" ? inspect(value, inspectOptions) : value;
    join = " ";
    consumed++;
  }
  return out;
}

function safeJson(value) {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (/circular/i.test(err?.message ?? "")) return "[Circular]";
    throw err;
  }
}

export function format(...args) {
  return formatWithOptionsInternal(undefined, args);
}

export function formatWithOptions(inspectOptions, ...args) {
  if (inspectOptions === null || typeof inspectOptions !== "object") {
    throw invalidArgType("inspectOptions", "of type object", inspectOptions);
  }
  return formatWithOptionsInternal(inspectOptions, args);
}

// ---------------------------------------------------------------- deep equality
// One walk serves both assert.deepEqual (loose) and isDeepStrictEqual (strict).

function keysForComparison(value, strict) {
  const keys = Object.keys(value);
  if (!strict) return keys;
  for (const symbol of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, symbol)) keys.push(symbol);
  }
  return keys;
}

function primitivesEqual(a, b, strict) {
  if (strict) return Object.is(a, b);
  // eslint-disable-next-line eqeqeq
  return a == b || (Number.isNaN(a) && Number.isNaN(b));
}

function bytesEqual(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer ?? a, a.byteOffset ?? 0, a.byteLength);
  const y = new Uint8Array(b.buffer ?? b, b.byteOffset ?? 0, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function typedArraysEqual(a, b, strict) {
  if (a.length !== b.length) return false;
  // Float arrays compare element-wise so that loose mode treats 0 and -0
  // (and strict mode NaN) as Node does.
  if (typedArrayTag.call(a).startsWith("Float")) {
    for (let i = 0; i < a.length; i++) {
      if (strict ? !Object.is(a[i], b[i]) : a[i] !== b[i]) return false;
    }
    return true;
  }
  return bytesEqual(a, b);
}

/** The pairs being compared, so that cycles end instead of recursing forever. */
class Memo {
  constructor() {
    this.pairs = new Map();
  }
  enter(a, b) {
    let partners = this.pairs.get(a);
    if (partners?.has(b)) return false;
    if (!partners) this.pairs.set(a, (partners = new Set()));
    partners.add(b);
    return true;
  }
  leave(a, b) {
    this.pairs.get(a)?.delete(b);
  }
}

function deepEqual(a, b, strict, memo = new Memo()) {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  const aIsObject = a !== null && (typeof a === "object" || typeof a === "function");
  const bIsObject = b !== null && (typeof b === "object" || typeof b === "function");
  if (strict) {
    if (!aIsObject || !bIsObject) return !aIsObject && !bIsObject && Object.is(a, b);
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (!aIsObject) return !bIsObject && primitivesEqual(a, b, false);
    if (!bIsObject) return false;
  }
  if (typeof a === "function" || typeof b === "function") return false;
  if (tagOf(a) !== tagOf(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (!memo.enter(a, b)) return true;
  try {
    return objectsEqual(a, b, strict, memo);
  } finally {
    memo.leave(a, b);
  }
}

function objectsEqual(a, b, strict, memo) {
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
  } else if (isDate(a)) {
    if (!isDate(b) || Date.prototype.getTime.call(a) !== Date.prototype.getTime.call(b)) return false;
  } else if (isRegExp(a)) {
    if (!isRegExp(b) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (isError(a)) {
    if (!isError(b) || a.message !== b.message || a.name !== b.name) return false;
    if (strict && (("cause" in a) !== ("cause" in b) || !deepEqual(a.cause, b.cause, strict, memo))) return false;
    if (strict && (("errors" in a) !== ("errors" in b) || !deepEqual(a.errors, b.errors, strict, memo))) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b)) return false;
    if (isTypedArray(a)) {
      if (typedArrayTag.call(a) !== typedArrayTag.call(b) || !typedArraysEqual(a, b, strict)) return false;
    } else if (!bytesEqual(a, b)) {
      return false;
    }
    // Indices were compared as elements; only other keys remain.
    return keysEqual(a, b, strict, memo, nonIndexKeys(a, false), nonIndexKeys(b, false));
  } else if (types.isAnyArrayBuffer(a)) {
    if (!types.isAnyArrayBuffer(b) || !bytesEqual(new Uint8Array(a), new Uint8Array(b))) return false;
  } else if (types.isBoxedPrimitive(a)) {
    if (!boxedEqual(a, b)) return false;
  } else if (types.isBoxedPrimitive(b)) {
    return false;
  } else if (isWeakMap(a) || isWeakSet(a)) {
    return false;
  }
  if (!keysEqual(a, b, strict, memo)) return false;
  if (isSet(a)) return isSet(b) && setsEqual(a, b, strict, memo);
  if (isMap(a)) return isMap(b) && mapsEqual(a, b, strict, memo);
  return true;
}

function boxedEqual(a, b) {
  for (const check of [isNumberObject, isStringObject, isBooleanObject, isBigIntObject, isSymbolObject]) {
    if (check(a)) return check(b) && Object.is(a.valueOf(), b.valueOf());
  }
  return false;
}

function keysEqual(a, b, strict, memo, aKeys = keysForComparison(a, strict), bKeys = keysForComparison(b, strict)) {
  if (aKeys.length !== bKeys.length) return false;
  for (const key of aKeys) {
    if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
  }
  for (const key of aKeys) {
    if (!deepEqual(a[key], b[key], strict, memo)) return false;
  }
  return true;
}

// Set members and Map keys that are objects have to be matched by deep
// equality against the other collection's unmatched members.
function setsEqual(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const unmatched = [];
  for (const value of a) {
    if (value !== null && typeof value === "object") unmatched.push(value);
    else if (!b.has(value) && !(strict ? false : looseHas(b, value))) {
      if (strict) return false;
      unmatched.push(value);
    }
  }
  if (unmatched.length === 0) return true;
  const candidates = [...b].filter((value) => (value !== null && typeof value === "object") || !a.has(value));
  for (const value of unmatched) {
    const index = candidates.findIndex((candidate) => deepEqual(value, candidate, strict, memo));
    if (index === -1) return false;
    candidates.splice(index, 1);
  }
  return true;
}

function looseHas(set, value) {
  for (const other of set) if (primitivesEqual(value, other, false)) return true;
  return false;
}

function mapsEqual(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const unmatched = [];
  for (const [key, value] of a) {
    if (key !== null && typeof key === "object") unmatched.push([key, value]);
    else if (b.has(key)) {
      if (!deepEqual(value, b.get(key), strict, memo)) {
        if (strict) return false;
        unmatched.push([key, value]);
      }
    } else if (strict) {
      return false;
    } else {
      unmatched.push([key, value]);
    }
  }
  if (unmatched.length === 0) return true;
  const candidates = [...b].filter(
    ([key, value]) => (key !== null && typeof key === "object") || !a.has(key) || !deepEqual(a.get(key), value, strict, memo),
  );
  for (const [key, value] of unmatched) {
    const index = candidates.findIndex(
      ([otherKey, otherValue]) => deepEqual(key, otherKey, strict, memo) && deepEqual(value, otherValue, strict, memo),
    );
    if (index === -1) return false;
    candidates.splice(index, 1);
  }
  return true;
}

export function isDeepStrictEqual(a, b) {
  return deepEqual(a, b, true);
}

// assert.deepEqual needs the loose walk; a registry symbol hands it over
// without adding a name to node:util's exports.
Object.defineProperty(isDeepStrictEqual, Symbol.for("pihost.util.isDeepLooseEqual"), {
  value: (a, b) => deepEqual(a, b, false),
});

// ---------------------------------------------------------------- functions

export function promisify(original) {
  if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
  let custom = original[customPromisifySymbol];
  if (custom === undefined) custom = builtinPromisified(original);
  if (custom !== undefined) {
    if (typeof custom !== "function") {
      throw invalidArgType("util.promisify.custom", "of type function", custom);
    }
    return Object.defineProperty(custom, customPromisifySymbol, {
      value: custom,
      enumerable: false,
      writable: false,
      configurable: true,
    });
  }
  function promisified(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [
        ...args,
        (err, ...values) => {
          if (err) reject(err);
          else resolve(values[0]);
        },
      ]);
    });
  }
  Object.setPrototypeOf(promisified, Object.getPrototypeOf(original));
  Object.defineProperty(promisified, customPromisifySymbol, {
    value: promisified,
    enumerable: false,
    writable: false,
    configurable: true,
  });
  Object.defineProperties(promisified, Object.getOwnPropertyDescriptors(original));
  return promisified;
}
promisify.custom = customPromisifySymbol;

// Node's own timers carry promisify.custom; the isolate's globals may not.
function builtinPromisified(original) {
  if (original === globalThis.setTimeout) return timersPromises.setTimeout;
  if (original === globalThis.setImmediate) return timersPromises.setImmediate;
  return undefined;
}

export function callbackify(original) {
  if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
  function callbackified(...args) {
    const callback = args.pop();
    if (typeof callback !== "function") throw invalidArgType("last argument", "of type function", callback);
    const onRejected = (reason) => {
      if (!reason) {
        const err = codedError(Error, "ERR_FALSY_VALUE_REJECTION", "Promise was rejected with falsy value");
        err.reason = reason;
        reason = err;
      }
      callback.call(this, reason);
    };
    Reflect.apply(original, this, args).then(
      (value) => nextTick(() => callback.call(this, null, value)),
      (reason) => nextTick(onRejected, reason),
    );
  }
  const descriptors = Object.getOwnPropertyDescriptors(original);
  if (typeof descriptors.length.value === "number") descriptors.length.value++;
  if (typeof descriptors.name.value === "string") descriptors.name.value += "Callbackified";
  Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
  Object.defineProperties(callbackified, { length: descriptors.length, name: descriptors.name });
  return callbackified;
}

const warnedCodes = new Set();

export function deprecate(fn, message, code) {
  if (fn === null || (typeof fn !== "function" && typeof fn !== "object")) {
    // What Node reports, as it does not check fn before using it as a prototype.
    throw new TypeError(`Object prototype may only be an Object or null: ${String(fn)}`);
  }
  if (globalThis.process?.noDeprecation === true) return fn;
  let warned = false;
  function deprecated(...args) {
    if (!warned && !globalThis.process?.noDeprecation) {
      warned = true;
      if (code === undefined || !warnedCodes.has(code)) {
        if (code !== undefined) warnedCodes.add(code);
        emitDeprecation(message, code);
      }
    }
    return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  Object.defineProperty(deprecated, "length", { value: fn.length, configurable: true });
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function emitDeprecation(message, code) {
  const emitWarning = globalThis.process?.emitWarning;
  if (typeof emitWarning === "function") {
    emitWarning.call(globalThis.process, message, "DeprecationWarning", code);
  } else {
    console.warn(`${code ? `[${code}] ` : ""}DeprecationWarning: ${message}`);
  }
}

export function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType("ctor", "of type function", ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType("superCtor", "of type function", superCtor);
  if (superCtor.prototype === undefined) {
    throw invalidArgType("superCtor.prototype", "of type object", superCtor.prototype);
  }
  Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

export function debuglog(section, callback) {
  const logger = () => {};
  logger.enabled = false;
  return logger;
}
export const debug = debuglog;

export function stripVTControlCharacters(str) {
  if (typeof str !== "string") throw invalidArgType("str", "of type string", str);
  return str.replace(ansiPattern, "");
}

export function toUSVString(string) {
  const str = `${string}`;
  if (typeof str.toWellFormed === "function") return str.toWellFormed();
  return str.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

export function styleText(format, text, { validateStream = true, stream = undefined } = {}) {
  if (typeof text !== "string") throw invalidArgType("text", "of type string", text);
  const formats = Array.isArray(format) ? format : [format];
  let opening = "";
  let closing = "";
  for (const key of formats) {
    const codes = colors[key];
    if (codes === undefined) {
      throw codedError(
        TypeError,
        "ERR_INVALID_ARG_VALUE",
        `The argument 'format' must be one of: ${Object.keys(colors).map((name) => `'${name}'`).join(", ")}. Received ${inspect(key)}`,
      );
    }
    opening += `\u001b[${codes[0]}m`;
    closing = `\u001b[${codes[1]}m${closing}`;
  }
  if (validateStream && !streamTakesColor(stream)) return text;
  return `${opening}${text}${closing}`;
}

// pi's TUI writes to a colour terminal, so colours stay on unless the
// environment or an explicitly given stream says otherwise.
function streamTakesColor(stream) {
  const env = globalThis.process?.env ?? {};
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR !== undefined) return false;
  if (stream === undefined) return true;
  return Boolean(stream?.isTTY);
}

// ---------------------------------------------------------------- parseArgs

function parseArgsError(code, message) {
  return codedError(TypeError, code, message);
}

function validateParseArgsConfig(config) {
  const options = config.options ?? {};
  if (typeof options !== "object") throw invalidArgType("options", "of type object", options);
  for (const [name, option] of Object.entries(options)) {
    if (option === null || typeof option !== "object") throw invalidArgType(`options.${name}`, "of type object", option);
    if (option.type !== "string" && option.type !== "boolean") {
      throw invalidArgType(`options.${name}.type`, "('string|boolean')", option.type);
    }
    if (option.short !== undefined) {
      if (typeof option.short !== "string") throw invalidArgType(`options.${name}.short`, "of type string", option.short);
      if (option.short.length !== 1) {
        throw parseArgsError(
          "ERR_INVALID_ARG_VALUE",
          `The property 'options.${name}.short' must be a single character. Received ${inspect(option.short)}`,
        );
      }
    }
    if (option.multiple !== undefined && typeof option.multiple !== "boolean") {
      throw invalidArgType(`options.${name}.multiple`, "of type boolean", option.multiple);
    }
    if (option.default !== undefined) {
      const path = `options.${name}.default`;
      if (option.multiple) {
        if (!Array.isArray(option.default)) throw invalidArgType(path, "an instance of Array", option.default);
        option.default.forEach((item, i) => {
          if (typeof item !== option.type) throw invalidArgType(`${path}[${i}]`, `of type ${option.type}`, item);
        });
      } else if (typeof option.default !== option.type) {
        throw invalidArgType(path, `of type ${option.type}`, option.default);
      }
    }
  }
  for (const key of ["strict", "allowPositionals", "tokens", "allowNegative"]) {
    if (config[key] !== undefined && typeof config[key] !== "boolean") throw invalidArgType(key, "of type boolean", config[key]);
  }
  if (config.args !== undefined && !Array.isArray(config.args)) throw invalidArgType("args", "an instance of Array", config.args);
}

function defaultArgs() {
  const argv = globalThis.process?.argv ?? [];
  return argv.slice(2);
}

// Splits the arguments into option, positional and terminator tokens, the
// same tokens Node returns with `tokens: true`. Short groups ("-abc") become
// one token per letter; a string option inside a group takes the rest of it.
function tokenizeArgs(args, options, allowNegative) {
  const shortToLong = new Map();
  for (const [name, option] of Object.entries(options)) if (option.short) shortToLong.set(option.short, name);
  const isString = (name) => options[name]?.type === "string";
  const tokens = [];
  // `fromNext` marks values taken from the following argument, which strict
  // mode rejects when they look like options.
  const option = (name, rawName, index, value, inlineValue, fromNext = false) => {
    const token = { kind: "option", name, rawName, index, value, inlineValue };
    if (fromNext) Object.defineProperty(token, "fromNext", { value: true });
    tokens.push(token);
  };

  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (typeof arg !== "string" || arg.length < 2 || arg[0] !== "-") {
      tokens.push({ kind: "positional", index, value: arg });
      continue;
    }
    if (arg === "--") {
      tokens.push({ kind: "option-terminator", index });
      for (let rest = index + 1; rest < args.length; rest++) tokens.push({ kind: "positional", index: rest, value: args[rest] });
      break;
    }
    if (arg[1] !== "-") {
      const start = index;
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j];
        const name = shortToLong.get(letter) ?? letter;
        if (!isString(name)) {
          option(name, `-${letter}`, start, undefined, undefined);
        } else if (j < arg.length - 1) {
          option(name, `-${letter}`, start, arg.slice(j + 1), true);
          break;
        } else if (index + 1 < args.length) {
          option(name, `-${letter}`, start, args[++index], false, true);
        } else {
          option(name, `-${letter}`, start, undefined, undefined);
        }
      }
      continue;
    }
    const eq = arg.indexOf("=", 3);
    let name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const rawName = eq === -1 ? arg : arg.slice(0, eq);
    if (allowNegative && name.startsWith("no-") && eq === -1) {
      // Negation is resolved here so that the token names the option itself.
      const token = { kind: "option", name: name.slice(3), rawName, index, value: undefined, inlineValue: undefined };
      Object.defineProperty(token, "negated", { value: true });
      tokens.push(token);
    } else if (eq !== -1) {
      option(name, rawName, index, arg.slice(eq + 1), true);
      // "--no-flag=x" keeps its name but is reported against "flag".
      if (allowNegative && name.startsWith("no-")) Object.defineProperty(tokens.at(-1), "negates", { value: name.slice(3) });
    } else if (isString(name) && index + 1 < args.length) {
      option(name, rawName, index, args[index + 1], false, true);
      index++;
    } else {
      option(name, rawName, index, undefined, undefined);
    }
  }
  return tokens;
}

function checkOptionToken(token, options, allowPositionals) {
  if (options[token.name] === undefined && options[token.negates]?.type === "boolean") {
    token = { ...token, name: token.negates };
  }
  const option = options[token.name];
  if (option === undefined || (token.negated && option.type !== "boolean")) {
    const hint = allowPositionals
      ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(token.rawName)}`
      : "";
    throw parseArgsError("ERR_PARSE_ARGS_UNKNOWN_OPTION", `Unknown option '${token.rawName}'${hint}`);
  }
  const flags = option.short ? `-${option.short}, --${token.name}` : `--${token.name}`;
  if (option.type === "string" && typeof token.value !== "string") {
    throw parseArgsError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${flags} <value>' argument missing`);
  }
  if (option.type === "boolean" && token.value !== undefined) {
    throw parseArgsError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${flags}' does not take an argument`);
  }
  if (token.fromNext && token.value.length > 1 && token.value.startsWith("-")) {
    const isShort = !token.rawName.startsWith("--");
    const suggestion = `'--${token.name}=-XYZ'${isShort ? ` or '${token.rawName}-XYZ'` : ""}`;
    throw parseArgsError(
      "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
      `Option '${token.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${token.rawName}'?\nTo specify an option argument starting with a dash use ${suggestion}.`,
    );
  }
}

/** util.parseArgs: the documented options, tokens, strict and allowNegative. */
export function parseArgs(config = {}) {
  validateParseArgsConfig(config);
  const args = config.args ?? defaultArgs();
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const allowNegative = config.allowNegative ?? false;
  const options = config.options ?? {};

  const tokens = tokenizeArgs(args, options, allowNegative);
  const values = Object.create(null);
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      if (!allowPositionals) {
        throw parseArgsError(
          "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL",
          `Unexpected argument '${token.value}'. This command does not take positional arguments`,
        );
      }
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== "option") continue;
    if (strict) checkOptionToken(token, options, allowPositionals);
    // A "__proto__" option would reach Object.prototype's setter.
    if (token.name === "__proto__") continue;
    const stored = token.negated ? false : token.value ?? true;
    if (options[token.name]?.multiple) {
      values[token.name] ??= [];
      values[token.name].push(stored);
    } else {
      values[token.name] = stored;
    }
  }
  for (const [name, option] of Object.entries(options)) {
    if (values[name] === undefined && option.default !== undefined) values[name] = option.default;
  }
  const result = { values, positionals };
  if (config.tokens) result.tokens = tokens;
  return result;
}

// ---------------------------------------------------------------- parseEnv

/**
 * The dotenv format Node reads: KEY=value lines, an optional `export `
 * prefix, # comments, and values quoted with ", ' or ` that may span lines
 * (\n is a newline inside double quotes only).
 */
export function parseEnv(content) {
  if (typeof content !== "string") throw invalidArgType("content", "of type string", content);
  const text = content.replace(/\r\n?/g, "\n");
  const env = {};
  let pos = 0;
  while (pos < text.length) {
    let lineEnd = text.indexOf("\n", pos);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(pos, lineEnd);
    const eq = line.indexOf("=");
    if (eq === -1 || line.trimStart().startsWith("#")) {
      pos = lineEnd + 1;
      continue;
    }
    let key = line.slice(0, eq).trim();
    if (key.startsWith("export ")) key = key.slice(7).trim();
    let start = pos + eq + 1;
    while (text[start] === " " || text[start] === "\t") start++;
    const quote = text[start];
    const close = quote === '"' || quote === "'" || quote === "`" ? text.indexOf(quote, start + 1) : -1;
    let value;
    if (close !== -1) {
      value = text.slice(start + 1, close);
      if (quote === '"') value = value.replace(/\\n/g, "\n");
      lineEnd = text.indexOf("\n", close);
      if (lineEnd === -1) lineEnd = text.length;
    } else {
      value = text.slice(start, lineEnd);
      const comment = value.indexOf("#");
      if (comment !== -1) value = value.slice(0, comment);
      value = value.trim();
    }
    if (key) env[key] = value;
    pos = lineEnd + 1;
  }
  return env;
}

// ---------------------------------------------------------------- abort signals

// Transferring between threads does not apply in the isolate; these return
// ordinary controllers and signals.
export function transferableAbortController() {
  return new AbortController();
}

export function transferableAbortSignal(signal) {
  if (signal === null || typeof signal !== "object" || !("aborted" in signal)) {
    throw invalidArgType("signal", "an instance of AbortSignal", signal);
  }
  return signal;
}

/** Node prints a stack trace on SIGINT when enabled; the isolate gets no signals. */
export function setTraceSigInt(enable) {}

// ---------------------------------------------------------------- aborted

export function aborted(signal, resource) {
  if (signal === null || typeof signal !== "object" || !("aborted" in signal)) {
    return Promise.reject(invalidArgType("signal", "an instance of AbortSignal", signal));
  }
  if (resource === null || (typeof resource !== "object" && typeof resource !== "function")) {
    return Promise.reject(invalidArgType("resource", "of type object", resource));
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

// ---------------------------------------------------------------- legacy
// The pre-ES2015 helpers, runtime-deprecated in Node 22 with these codes and
// messages.

const legacy = (fn, name, code, advice) =>
  deprecate(fn, `The \`util.${name}\` API is deprecated.${advice}`, code);

export const isArray = legacy(Array.isArray, "isArray", "DEP0044", " Please use `Array.isArray()` instead.");
export const isBoolean = legacy((v) => typeof v === "boolean", "isBoolean", "DEP0045", '  Please use `typeof arg === "boolean"` instead.');
export const isBuffer = legacy((v) => globalThis.Buffer?.isBuffer?.(v) ?? false, "isBuffer", "DEP0046", " Please use `Buffer.isBuffer()` instead.");
// Node's isDate and isRegExp take no declared parameters.
const isDateLegacy = legacy((...args) => isDate(args[0]), "isDate", "DEP0047", "  Please use `arg instanceof Date` instead.");
const isErrorLegacy = legacy(
  isError,
  "isError",
  "DEP0048",
  ' Please use `ObjectPrototypeToString(e) === "[object Error]" || e instanceof Error` instead.',
);
export const isFunction = legacy((v) => typeof v === "function", "isFunction", "DEP0049", '  Please use `typeof arg === "function"` instead.');
export const isNull = legacy((v) => v === null, "isNull", "DEP0050", " Please use `arg === null` instead.");
export const isNullOrUndefined = legacy(
  (v) => v === null || v === undefined,
  "isNullOrUndefined",
  "DEP0051",
  " Please use `arg === null || arg === undefined` instead.",
);
export const isNumber = legacy((v) => typeof v === "number", "isNumber", "DEP0052", ' Please use `typeof arg === "number"` instead.');
export const isObject = legacy(
  (v) => v !== null && typeof v === "object",
  "isObject",
  "DEP0053",
  ' Please use `arg !== null && typeof arg === "object"` instead.',
);
export const isPrimitive = legacy(
  (v) => v === null || (typeof v !== "object" && typeof v !== "function"),
  "isPrimitive",
  "DEP0054",
  ' Please use `arg === null || (typeof arg !== "object" && typeof arg !== "function")` instead.',
);
const isRegExpLegacy = legacy((...args) => isRegExp(args[0]), "isRegExp", "DEP0055", " Please use `arg instanceof RegExp` instead.");
export const isString = legacy((v) => typeof v === "string", "isString", "DEP0056", '  Please use `typeof arg === "string"` instead.');
export const isSymbol = legacy((v) => typeof v === "symbol", "isSymbol", "DEP0057", '  Please use `arg === "symbol"` instead.');
export const isUndefined = legacy((v) => v === undefined, "isUndefined", "DEP0058", " Please use `arg === undefined` instead.");
export { isDateLegacy as isDate, isErrorLegacy as isError, isRegExpLegacy as isRegExp };

export const _extend = deprecate(
  function _extend(target, source) {
    if (source === null || typeof source !== "object") return target;
    for (const key of Object.keys(source)) target[key] = source[key];
    return target;
  },
  "The `util._extend` API is deprecated. Please use Object.assign() instead.",
  "DEP0060",
);

export const log = deprecate(
  function log(...args) {
    const d = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    console.log(`${d.getDate()} ${months[d.getMonth()]} ${time} - ${format(...args)}`);
  },
  "The `util.log API is deprecated. Please use console.log() with a custom formatter or a third-party logger instead.",
  "DEP0059",
);

// The isolate installs these globals before any node: module is evaluated.
export const TextEncoder = globalThis.TextEncoder;
export const TextDecoder = globalThis.TextDecoder;

export default {
  _extend,
  aborted,
  callbackify,
  debug,
  debuglog,
  deprecate,
  format,
  formatWithOptions,
  inherits,
  inspect,
  isArray,
  isBoolean,
  isBuffer,
  isDate: isDateLegacy,
  isDeepStrictEqual,
  isError: isErrorLegacy,
  isFunction,
  isNull,
  isNullOrUndefined,
  isNumber,
  isObject,
  isPrimitive,
  isRegExp: isRegExpLegacy,
  isString,
  isSymbol,
  isUndefined,
  log,
  parseArgs,
  parseEnv,
  promisify,
  setTraceSigInt,
  stripVTControlCharacters,
  styleText,
  TextDecoder,
  TextEncoder,
  toUSVString,
  transferableAbortController,
  transferableAbortSignal,
  types,
};
