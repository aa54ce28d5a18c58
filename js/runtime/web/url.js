// WHATWG `URL` and `URLSearchParams` with Node 22's surface. Parsing and the
// component setters are the `url` crate's (through ops), because getting the
// URL grammar right is a project of its own; everything the spec defines on
// top of a parsed record (the live searchParams link, the form encoding,
// Node's argument errors) lives here.
import { requireOps } from "./native.js";
import { codedError, invalidArgType, missingArgs } from "../../node/internal/errors.js";

const inspectCustom = Symbol.for("nodejs.util.inspect.custom");

// WebIDL USVString: lone surrogates become U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function toUSV(value) {
  const text = `${value}`;
  if (typeof text.toWellFormed === "function") return text.toWellFormed();
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

function invalidUrl(input, base) {
  const err = codedError(TypeError, "ERR_INVALID_URL", "Invalid URL");
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

// ---------------------------------------------------------------------------
// application/x-www-form-urlencoded

let utf8Encoder = null;
const encodeUtf8 = (text) => (utf8Encoder ??= new TextEncoder()).encode(text);

// UTF-8 decode without BOM handling, one U+FFFD per maximal invalid subpart
// (the Encoding Standard's decoder). Written out because the spec keeps a
// leading BOM here and not every TextDecoder honours `ignoreBOM`.
function decodeUtf8(bytes) {
  const units = [];
  let out = "";
  let codePoint = 0;
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (needed === 0) {
      if (byte <= 0x7f) {
        units.push(byte);
      } else if (byte >= 0xc2 && byte <= 0xdf) {
        needed = 1;
        codePoint = byte & 0x1f;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2;
        codePoint = byte & 0x0f;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3;
        codePoint = byte & 0x07;
      } else {
        units.push(0xfffd);
      }
    } else if (byte < lower || byte > upper) {
      codePoint = needed = seen = 0;
      lower = 0x80;
      upper = 0xbf;
      units.push(0xfffd);
      i--;
    } else {
      lower = 0x80;
      upper = 0xbf;
      codePoint = (codePoint << 6) | (byte & 0x3f);
      if (++seen === needed) {
        if (codePoint > 0xffff) {
          codePoint -= 0x10000;
          units.push(0xd800 + (codePoint >> 10), 0xdc00 + (codePoint & 0x3ff));
        } else {
          units.push(codePoint);
        }
        codePoint = needed = seen = 0;
      }
    }
    if (units.length > 4096) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  if (needed !== 0) units.push(0xfffd);
  return out + String.fromCharCode(...units);
}

const hexValue = (byte) => {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
};

function percentDecode(text) {
  if (!text.includes("%")) return text;
  const bytes = encodeUtf8(text);
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x25 && i + 2 < bytes.length) {
      const high = hexValue(bytes[i + 1]);
      const low = hexValue(bytes[i + 2]);
      if (high >= 0 && low >= 0) {
        out[length++] = (high << 4) | low;
        i += 2;
        continue;
      }
    }
    out[length++] = byte;
  }
  return decodeUtf8(out.subarray(0, length));
}

/** The name-value list of a query string (without its leading "?"). */
export function parseFormUrlencoded(input) {
  const list = [];
  for (const sequence of input.split("&")) {
    if (sequence === "") continue;
    const eq = sequence.indexOf("=");
    const name = eq === -1 ? sequence : sequence.slice(0, eq);
    const value = eq === -1 ? "" : sequence.slice(eq + 1);
    list.push([percentDecode(name.replaceAll("+", " ")), percentDecode(value.replaceAll("+", " "))]);
  }
  return list;
}

// encodeURIComponent leaves alphanumerics and -_.!~*'() alone; the form
// encoding leaves only alphanumerics and *-._, and writes a space as "+".
const FORM_FIXUPS = /%20|[!'()~]/g;
const formFixup = (match) => (match === "%20" ? "+" : `%${match.charCodeAt(0).toString(16).toUpperCase()}`);
const formEncode = (text) => encodeURIComponent(text).replace(FORM_FIXUPS, formFixup);

/** Serialises a name-value list whose strings are already well-formed. */
export function serializeFormUrlencoded(list) {
  let out = "";
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out += "&";
    out += `${formEncode(list[i][0])}=${formEncode(list[i][1])}`;
  }
  return out;
}

// ---------------------------------------------------------------------------
// URLSearchParams

// Privileged access between the two classes, set up in static blocks.
let paramsList;
let setParamsList;
let attachParams;
let isParams;
let urlQueryChanged;

function paramsIterator(params, kind) {
  return new URLSearchParamsIterator(params, kind);
}

export class URLSearchParams {
  #list = [];
  // The URL whose query this object mirrors, or null for a free-standing one.
  #url = null;

  constructor(init = undefined) {
    if (init === undefined || init === null) return;
    if (typeof init === "object" || typeof init === "function") {
      const method = init[Symbol.iterator];
      if (method === undefined || method === null) {
        this.#list = recordPairs(init);
      } else if (typeof method !== "function") {
        throw codedError(TypeError, "ERR_ARG_NOT_ITERABLE", "Query pairs must be iterable");
      } else if (#list in init && method === URLSearchParams.prototype[Symbol.iterator]) {
        this.#list = init.#list.map(([name, value]) => [name, value]);
      } else {
        this.#list = sequencePairs(init, method);
      }
      return;
    }
    let text = toUSV(init);
    if (text.startsWith("?")) text = text.slice(1);
    this.#list = parseFormUrlencoded(text);
  }

  static #check(params) {
    if (params === null || typeof params !== "object" || !(#list in params)) {
      throw codedError(TypeError, "ERR_INVALID_THIS", 'Value of "this" must be of type URLSearchParams');
    }
  }

  // The spec's "update steps": the owning URL's query follows the list.
  #update() {
    if (this.#url !== null) urlQueryChanged(this.#url, serializeFormUrlencoded(this.#list));
  }

  get size() {
    URLSearchParams.#check(this);
    return this.#list.length;
  }

  append(name, value) {
    URLSearchParams.#check(this);
    if (arguments.length < 2) throw missingArgs("name", "value");
    this.#list.push([toUSV(name), toUSV(value)]);
    this.#update();
  }

  delete(name, value = undefined) {
    URLSearchParams.#check(this);
    if (arguments.length < 1) throw missingArgs("name");
    const key = toUSV(name);
    if (value === undefined) {
      this.#list = this.#list.filter((pair) => pair[0] !== key);
    } else {
      const wanted = toUSV(value);
      this.#list = this.#list.filter((pair) => pair[0] !== key || pair[1] !== wanted);
    }
    this.#update();
  }

  get(name) {
    URLSearchParams.#check(this);
    if (arguments.length < 1) throw missingArgs("name");
    const key = toUSV(name);
    const pair = this.#list.find((entry) => entry[0] === key);
    return pair === undefined ? null : pair[1];
  }

  getAll(name) {
    URLSearchParams.#check(this);
    if (arguments.length < 1) throw missingArgs("name");
    const key = toUSV(name);
    return this.#list.filter((pair) => pair[0] === key).map((pair) => pair[1]);
  }

  has(name, value = undefined) {
    URLSearchParams.#check(this);
    if (arguments.length < 1) throw missingArgs("name");
    const key = toUSV(name);
    if (value === undefined) return this.#list.some((pair) => pair[0] === key);
    const wanted = toUSV(value);
    return this.#list.some((pair) => pair[0] === key && pair[1] === wanted);
  }

  set(name, value) {
    URLSearchParams.#check(this);
    if (arguments.length < 2) throw missingArgs("name", "value");
    const key = toUSV(name);
    const text = toUSV(value);
    const index = this.#list.findIndex((pair) => pair[0] === key);
    if (index === -1) {
      this.#list.push([key, text]);
    } else {
      this.#list[index][1] = text;
      this.#list = this.#list.filter((pair, i) => i <= index || pair[0] !== key);
    }
    this.#update();
  }

  sort() {
    URLSearchParams.#check(this);
    // Array sort is stable and `<` compares UTF-16 code units, as the spec asks.
    this.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.#update();
  }

  entries() {
    URLSearchParams.#check(this);
    return paramsIterator(this, "key+value");
  }

  forEach(callback, thisArg = undefined) {
    URLSearchParams.#check(this);
    if (typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
    // Indexing the live list lets the callback add or remove entries, as the spec's iteration does.
    for (let i = 0; i < this.#list.length; i++) {
      const [name, value] = this.#list[i];
      callback.call(thisArg, value, name, this);
    }
  }

  keys() {
    URLSearchParams.#check(this);
    return paramsIterator(this, "key");
  }

  values() {
    URLSearchParams.#check(this);
    return paramsIterator(this, "value");
  }

  toString() {
    URLSearchParams.#check(this);
    return serializeFormUrlencoded(this.#list);
  }

  [inspectCustom](depth, options, inspect) {
    if (typeof inspect !== "function") return this;
    const entries = this.#list.map(([name, value]) => `${inspect(name, options)} => ${inspect(value, options)}`);
    return `URLSearchParams ${entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`}`;
  }

  static {
    paramsList = (params) => params.#list;
    isParams = (value) => value !== null && typeof value === "object" && #list in value;
    setParamsList = (params, list) => {
      params.#list = list;
    };
    attachParams = (params, url) => {
      params.#url = url;
    };
  }
}

function recordPairs(init) {
  const list = [];
  const seen = new Map();
  for (const key of Reflect.ownKeys(init)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
    if (descriptor === undefined || !descriptor.enumerable) continue;
    // WebIDL converts every enumerable key, so an enumerable symbol throws (as in Node).
    const name = toUSV(key);
    const value = toUSV(init[key]);
    // WebIDL records keep one entry per (converted) key, the last value winning.
    if (seen.has(name)) {
      list[seen.get(name)][1] = value;
    } else {
      seen.set(name, list.length);
      list.push([name, value]);
    }
  }
  return list;
}

function sequencePairs(init, method) {
  const invalidTuple = () =>
    codedError(TypeError, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");
  const list = [];
  for (const pair of { [Symbol.iterator]: () => method.call(init) }) {
    if ((typeof pair !== "object" && typeof pair !== "function") || pair === null || typeof pair[Symbol.iterator] !== "function") {
      throw invalidTuple();
    }
    const converted = [];
    for (const element of pair) converted.push(toUSV(element));
    if (converted.length !== 2) throw invalidTuple();
    list.push(converted);
  }
  return list;
}

const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));

class URLSearchParamsIterator {
  #params;
  #kind;
  #index = 0;

  constructor(params, kind) {
    this.#params = params;
    this.#kind = kind;
  }

  next() {
    if (this === null || typeof this !== "object" || !(#params in this)) {
      throw codedError(TypeError, "ERR_INVALID_THIS", 'Value of "this" must be of type URLSearchParamsIterator');
    }
    const list = paramsList(this.#params);
    if (this.#index >= list.length) return { value: undefined, done: true };
    const [name, value] = list[this.#index++];
    if (this.#kind === "key") return { value: name, done: false };
    if (this.#kind === "value") return { value, done: false };
    return { value: [name, value], done: false };
  }

  [inspectCustom](depth, options, inspect) {
    if (typeof inspect !== "function") return this;
    const rest = paramsList(this.#params).slice(this.#index);
    const shown = rest.map(([name, value]) => {
      if (this.#kind === "key") return inspect(name, options);
      if (this.#kind === "value") return inspect(value, options);
      return `[ ${inspect(name, options)}, ${inspect(value, options)} ]`;
    });
    return `URLSearchParams Iterator ${shown.length === 0 ? "{  }" : `{ ${shown.join(", ")} }`}`;
  }
}

Object.setPrototypeOf(URLSearchParamsIterator.prototype, IteratorPrototype);
Object.defineProperty(URLSearchParamsIterator.prototype, Symbol.toStringTag, {
  value: "URLSearchParams Iterator",
  configurable: true,
});
Object.defineProperty(URLSearchParamsIterator.prototype, "constructor", { enumerable: false });

Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
  value: URLSearchParams.prototype.entries,
  writable: true,
  configurable: true,
});
Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: "URLSearchParams", configurable: true });
for (const name of ["size", "append", "delete", "get", "getAll", "has", "set", "sort", "entries", "forEach", "keys", "values", "toString"]) {
  Object.defineProperty(URLSearchParams.prototype, name, { enumerable: true });
}

// ---------------------------------------------------------------------------
// URL

const COMPONENTS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];

export class URL {
  #parts;
  #params = null;

  constructor(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs("url");
    const href = toUSV(input);
    const baseText = base === undefined ? undefined : toUSV(base);
    const parts = requireOps().op_pihost_url_parse(href, baseText);
    if (parts === null || parts === undefined) throw invalidUrl(href, baseText);
    this.#parts = parts;
  }

  static canParse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs("url");
    return requireOps().op_pihost_url_can_parse(toUSV(input), base === undefined ? undefined : toUSV(base));
  }

  static parse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs("url");
    // Converting first lets a throwing toString escape while a bad URL gives null.
    const href = toUSV(input);
    const baseText = base === undefined ? undefined : toUSV(base);
    if (!requireOps().op_pihost_url_can_parse(href, baseText)) return null;
    return new URL(href, baseText);
  }

  // Blob URLs need a Blob registry the isolate does not have.
  static createObjectURL() {
    throw codedError(TypeError, "ERR_METHOD_NOT_IMPLEMENTED", "The URL.createObjectURL() method is not implemented");
  }

  static revokeObjectURL() {}

  #set(component, value) {
    const parts = requireOps().op_pihost_url_set(this.#parts.href, component, value);
    if (parts === null || parts === undefined) {
      if (component === "href") throw invalidUrl(value);
      return;
    }
    this.#parts = parts;
    if (this.#params !== null && (component === "href" || component === "search")) {
      setParamsList(this.#params, parseFormUrlencoded(parts.search.slice(1)));
    }
  }

  toString() {
    return this.#parts.href;
  }

  get href() {
    return this.#parts.href;
  }
  set href(value) {
    this.#set("href", toUSV(value));
  }

  get origin() {
    return this.#parts.origin;
  }

  get protocol() {
    return this.#parts.protocol;
  }
  set protocol(value) {
    this.#set("protocol", toUSV(value));
  }

  get username() {
    return this.#parts.username;
  }
  set username(value) {
    this.#set("username", toUSV(value));
  }

  get password() {
    return this.#parts.password;
  }
  set password(value) {
    this.#set("password", toUSV(value));
  }

  get host() {
    return this.#parts.host;
  }
  set host(value) {
    this.#set("host", toUSV(value));
  }

  get hostname() {
    return this.#parts.hostname;
  }
  set hostname(value) {
    this.#set("hostname", toUSV(value));
  }

  get port() {
    return this.#parts.port;
  }
  set port(value) {
    this.#set("port", toUSV(value));
  }

  get pathname() {
    return this.#parts.pathname;
  }
  set pathname(value) {
    this.#set("pathname", toUSV(value));
  }

  get search() {
    return this.#parts.search;
  }
  set search(value) {
    this.#set("search", toUSV(value));
  }

  get searchParams() {
    if (this.#params === null) {
      const params = new URLSearchParams();
      setParamsList(params, parseFormUrlencoded(this.#parts.search.slice(1)));
      attachParams(params, this);
      this.#params = params;
    }
    return this.#params;
  }

  get hash() {
    return this.#parts.hash;
  }
  set hash(value) {
    this.#set("hash", toUSV(value));
  }

  toJSON() {
    return this.#parts.href;
  }

  [inspectCustom](depth, options, inspect) {
    if (typeof inspect !== "function") return this;
    if (typeof depth === "number" && depth < 0) return `URL ${inspect(this.#parts.href, options)}`;
    const shown = {};
    for (const name of COMPONENTS.slice(0, 10)) shown[name] = this.#parts[name];
    shown.searchParams = this.searchParams;
    shown.hash = this.#parts.hash;
    return `URL ${inspect(shown, options)}`;
  }

  static {
    // The params object changed: write its serialisation into the query
    // without re-parsing it back into the (already current) list.
    urlQueryChanged = (url, query) => {
      const parts = requireOps().op_pihost_url_set(url.#parts.href, "search", query);
      if (parts !== null && parts !== undefined) url.#parts = parts;
    };
  }
}

Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: "URL", configurable: true });
for (const name of ["toString", ...COMPONENTS.slice(0, 10), "searchParams", "hash", "toJSON"]) {
  Object.defineProperty(URL.prototype, name, { enumerable: true });
}

export { isParams as isURLSearchParams, paramsList as urlSearchParamsList };
