// `fetch`, `Headers`, `Request` and `Response` with Node 22's (undici's)
// observable behaviour and wording. The network is the host's: ops send a
// request and hand the response body back chunk by chunk. data: URLs are
// answered here. Not provided: FormData bodies and formData(), Blob bodies
// unless a global Blob exists, CORS/mode semantics (there is no origin).
import { requireOps } from "./native.js";
import { URL, URLSearchParams, isURLSearchParams, urlSearchParamsList, serializeFormUrlencoded } from "./url.js";
import {
  ReadableStream,
  readableFromPull,
  readAllChunks,
  isReadableStream,
  isReadableStreamDisturbed,
  isReadableStreamLocked,
  errorReadableStream,
  teeReadableStream,
  markReadableStreamDisturbed,
} from "./streams.js";
import { AbortController } from "./abort.js";
import { DOMException } from "./dom-exception.js";
import { atob } from "./base64.js";

const isObject = (value) => (typeof value === "object" && value !== null) || typeof value === "function";
const encoder = new TextEncoder();

function requireArgs(context, required, found) {
  if (found >= required) return;
  const noun = required === 1 ? "argument" : "arguments";
  throw new TypeError(`${context}: ${required} ${noun} required, but${found > 0 ? " only" : ""} ${found} found.`);
}

// ---------------------------------------------------------------------------
// Headers

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const INVALID_VALUE = /[\0\n\r]/;

function normalizeValue(value) {
  return `${value}`.replace(HTTP_WHITESPACE, "");
}

// ByteString conversion: code units above 0xFF are refused, like WebIDL does.
function toByteString(value, context) {
  const text = `${value}`;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0xff) {
      throw new TypeError(`Cannot convert argument to a ByteString because the character at index ${i} has a value of ${text.charCodeAt(i)} which is greater than 255.`);
    }
  }
  return text;
}

function checkName(name, context) {
  const text = toByteString(name, context);
  if (!TOKEN.test(text)) throw new TypeError(`${context}: "${text}" is an invalid header name.`);
  return text;
}

function checkValue(value, context) {
  const text = normalizeValue(toByteString(value, context));
  if (INVALID_VALUE.test(text)) throw new TypeError(`${context}: "${text}" is an invalid header value.`);
  return text;
}

// Privileged access to Headers internals for Request, Response and fetch.
let headerEntries;
let setHeadersGuard;
let newHeaders;

export class Headers {
  // lower-case name -> { name (first spelling), values: [] }
  #map = new Map();
  #guard = "none";
  // "Sort and combine" result, dropped on every change.
  #sortedCache = null;

  constructor(init = undefined) {
    if (init === undefined || init === null) {
      if (init === null) throw new TypeError("Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.");
      return;
    }
    fillHeaders(this, init, "Headers constructor");
  }

  static #check(headers) {
    if (!isObject(headers) || !(#map in headers)) throw new TypeError("Illegal invocation");
  }

  #mutable() {
    if (this.#guard === "immutable") throw new TypeError("immutable");
  }

  #append(name, value) {
    this.#sortedCache = null;
    const key = name.toLowerCase();
    const entry = this.#map.get(key);
    if (entry === undefined) this.#map.set(key, { values: [value] });
    else entry.values.push(value);
  }

  append(name, value) {
    Headers.#check(this);
    requireArgs("Headers.append", 2, arguments.length);
    const checkedName = checkName(name, "Headers.append");
    const checkedValue = checkValue(value, "Headers.append");
    this.#mutable();
    this.#append(checkedName, checkedValue);
    this.#sortedCache = null;
  }

  delete(name) {
    Headers.#check(this);
    requireArgs("Headers.delete", 1, arguments.length);
    const checkedName = checkName(name, "Headers.delete");
    this.#mutable();
    this.#map.delete(checkedName.toLowerCase());
    this.#sortedCache = null;
  }

  get(name) {
    Headers.#check(this);
    requireArgs("Headers.get", 1, arguments.length);
    const entry = this.#map.get(checkName(name, "Headers.get").toLowerCase());
    return entry === undefined ? null : entry.values.join(", ");
  }

  getSetCookie() {
    Headers.#check(this);
    return [...(this.#map.get("set-cookie")?.values ?? [])];
  }

  has(name) {
    Headers.#check(this);
    requireArgs("Headers.has", 1, arguments.length);
    return this.#map.has(checkName(name, "Headers.has").toLowerCase());
  }

  set(name, value) {
    Headers.#check(this);
    requireArgs("Headers.set", 2, arguments.length);
    const checkedName = checkName(name, "Headers.set");
    const checkedValue = checkValue(value, "Headers.set");
    this.#mutable();
    this.#map.set(checkedName.toLowerCase(), { values: [checkedValue] });
    this.#sortedCache = null;
  }

  // The spec's "sort and combine": names lower-cased and sorted, values
  // joined, except set-cookie whose values stay separate.
  #sorted() {
    if (this.#sortedCache !== null) return this.#sortedCache;
    const out = [];
    for (const key of [...this.#map.keys()].sort()) {
      const values = this.#map.get(key).values;
      if (key === "set-cookie") for (const value of values) out.push([key, value]);
      else out.push([key, values.join(", ")]);
    }
    this.#sortedCache = out;
    return out;
  }

  forEach(callback, thisArg = undefined) {
    Headers.#check(this);
    requireArgs("Headers.forEach", 1, arguments.length);
    if (typeof callback !== "function") {
      throw new TypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.");
    }
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  keys() {
    Headers.#check(this);
    return headersIterator(this, "key");
  }

  values() {
    Headers.#check(this);
    return headersIterator(this, "value");
  }

  entries() {
    Headers.#check(this);
    return headersIterator(this, "key+value");
  }

  [Symbol.for("nodejs.util.inspect.custom")](depth, options, inspect) {
    if (typeof inspect !== "function") return this;
    const shown = {};
    for (const [name, value] of this.#sorted()) shown[name] = shown[name] === undefined ? value : [].concat(shown[name], value);
    return `Headers ${inspect(shown, options)}`;
  }

  static {
    headerEntries = (headers) => headers.#sorted();
    setHeadersGuard = (headers, guard) => {
      headers.#guard = guard;
    };
    newHeaders = (pairs, guard = "none") => {
      const headers = new Headers();
      for (const [name, value] of pairs) headers.#append(name, value);
      headers.#sortedCache = null;
      headers.#guard = guard;
      return headers;
    };
  }
}

function fillHeaders(headers, init, context) {
  if (!isObject(init)) {
    throw new TypeError(`${context}: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.`);
  }
  const method = init[Symbol.iterator];
  if (method !== undefined && method !== null) {
    if (typeof method !== "function") throw new TypeError(`${context}: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.`);
    for (const pair of { [Symbol.iterator]: () => method.call(init) }) {
      if (!isObject(pair) || typeof pair[Symbol.iterator] !== "function") {
        throw new TypeError(`${context}: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.`);
      }
      const items = [...pair];
      if (items.length !== 2) throw new TypeError(`${context}: expected name/value pair to be length 2, found ${items.length}.`);
      headers.append(items[0], items[1]);
    }
    return;
  }
  for (const key of Reflect.ownKeys(init)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
    if (descriptor === undefined || !descriptor.enumerable) continue;
    if (typeof key === "symbol") throw new TypeError(`${context}: Key Symbol() in init is a symbol, which cannot be converted to a ByteString.`);
    headers.append(key, init[key]);
  }
}

const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const HeadersIteratorPrototype = Object.create(IteratorPrototype);
Object.defineProperty(HeadersIteratorPrototype, Symbol.toStringTag, { value: "Headers Iterator", configurable: true });

// Iterators are live, as undici's are: each step indexes the current sorted list.
function headersIterator(headers, kind) {
  let index = 0;
  const iterator = Object.create(HeadersIteratorPrototype);
  Object.defineProperty(iterator, "next", {
    value() {
      const entries = headerEntries(headers);
      if (index >= entries.length) return { value: undefined, done: true };
      const [name, value] = entries[index++];
      if (kind === "key") return { value: name, done: false };
      if (kind === "value") return { value, done: false };
      return { value: [name, value], done: false };
    },
  });
  return iterator;
}

Object.defineProperty(Headers.prototype, Symbol.iterator, { value: Headers.prototype.entries, writable: true, configurable: true });
Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: "Headers", configurable: true });

// ---------------------------------------------------------------------------
// Bodies

// A body: the stream callers see, plus the bytes it was made from when known
// (so fetch can send them without reading the stream).
function bytesBody(bytes) {
  let done = false;
  const stream = readableFromPull(() => {
    if (done || bytes.length === 0) return null;
    done = true;
    return bytes;
  });
  return { stream, source: bytes };
}

/** The spec's "extract a body": { body, contentType }. */
function extractBody(object, context) {
  if (typeof object === "string") return { body: bytesBody(encoder.encode(object)), contentType: "text/plain;charset=UTF-8" };
  if (isURLSearchParams(object)) {
    return {
      body: bytesBody(encoder.encode(serializeFormUrlencoded(urlSearchParamsList(object)))),
      contentType: "application/x-www-form-urlencoded;charset=UTF-8",
    };
  }
  if (object instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && object instanceof SharedArrayBuffer)) {
    return { body: bytesBody(new Uint8Array(object.slice(0))), contentType: null };
  }
  if (ArrayBuffer.isView(object)) {
    return { body: bytesBody(new Uint8Array(object.buffer.slice(object.byteOffset, object.byteOffset + object.byteLength))), contentType: null };
  }
  if (isReadableStream(object)) {
    if (isReadableStreamDisturbed(object) || isReadableStreamLocked(object)) {
      throw new TypeError("Response body object should not be disturbed or locked");
    }
    return { body: { stream: object, source: null }, contentType: null };
  }
  if (typeof globalThis.Blob === "function" && object instanceof globalThis.Blob) {
    let pending = object.arrayBuffer();
    const stream = readableFromPull(async () => {
      if (pending === null) return null;
      const buffer = await pending;
      pending = null;
      return buffer.byteLength === 0 ? null : new Uint8Array(buffer);
    });
    return { body: { stream, source: null }, contentType: object.type === "" ? null : object.type };
  }
  if (isObject(object) && object[Symbol.asyncIterator] !== undefined) {
    return { body: { stream: ReadableStream.from(object), source: null }, contentType: null };
  }
  return extractBody(`${object}`, context);
}

function concatBytes(chunks) {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

async function consumeBody(body) {
  if (body === null) return new Uint8Array(0);
  const chunks = await readAllChunks(body.stream);
  for (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError("Received non-Uint8Array chunk");
  }
  return concatBytes(chunks);
}

const bodyUsed = (body) => body !== null && isReadableStreamDisturbed(body.stream);

function cloneBody(body) {
  if (body === null) return [null, null];
  const [first, second] = teeReadableStream(body.stream);
  return [
    { stream: first, source: body.source },
    { stream: second, source: body.source },
  ];
}

function decodeText(bytes) {
  // Strips a UTF-8 BOM and replaces invalid sequences, as "UTF-8 decode" does.
  return new TextDecoder().decode(bytes);
}

// The Body mixin, shared by Request and Response. `access(self)` returns the
// internal record ({ body, headers }) or throws the brand error.
function defineBodyMethods(Class, access) {
  const consume = async (self, convert) => {
    const state = access(self);
    if (bodyUsed(state.body) || (state.body !== null && isReadableStreamLocked(state.body.stream))) {
      throw new TypeError("Body is unusable: Body has already been read");
    }
    return convert(await consumeBody(state.body), state);
  };
  const methods = {
    arrayBuffer() {
      return consume(this, (bytes) => bytes.buffer);
    },
    blob() {
      return consume(this, (bytes, state) => {
        if (typeof globalThis.Blob !== "function") throw new TypeError("Blob is not available in pihost");
        return new globalThis.Blob([bytes], { type: state.headers.get("content-type") ?? "" });
      });
    },
    bytes() {
      return consume(this, (bytes) => bytes);
    },
    formData() {
      return consume(this, () => {
        throw new TypeError("Response.formData: FormData is not supported in pihost");
      });
    },
    json() {
      return consume(this, (bytes) => JSON.parse(decodeText(bytes)));
    },
    text() {
      return consume(this, (bytes) => decodeText(bytes));
    },
  };
  for (const [name, method] of Object.entries(methods)) {
    Object.defineProperty(Class.prototype, name, { value: method, writable: true, enumerable: true, configurable: true });
  }
  Object.defineProperty(Class.prototype, "body", {
    get() {
      return access(this).body?.stream ?? null;
    },
    enumerable: true,
    configurable: true,
  });
  Object.defineProperty(Class.prototype, "bodyUsed", {
    get() {
      return bodyUsed(access(this).body);
    },
    enumerable: true,
    configurable: true,
  });
}

// ---------------------------------------------------------------------------
// Request

const NORMALIZED_METHODS = new Map(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].map((name) => [name.toLowerCase(), name]));
const FORBIDDEN_METHODS = new Set(["connect", "trace", "track"]);

function normalizeMethod(method) {
  const text = toByteString(method, "Request constructor");
  if (!TOKEN.test(text)) throw new TypeError(`'${text}' is not a valid HTTP method.`);
  const lower = text.toLowerCase();
  if (FORBIDDEN_METHODS.has(lower)) throw new TypeError(`'${text}' HTTP method is unsupported.`);
  return NORMALIZED_METHODS.get(lower) ?? text;
}

function parseUrl(input) {
  try {
    return new URL(`${input}`);
  } catch (cause) {
    throw new TypeError(`Failed to parse URL from ${input}`, { cause });
  }
}

const REDIRECT_MODES = ["follow", "manual", "error"];
let requestState;

/** A signal that follows `source` (when given), as a Request's own signal does. */
function followingSignal(source) {
  const controller = new AbortController();
  if (source !== undefined && source !== null) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener("abort", () => controller.abort(source.reason), { once: true });
  }
  return controller.signal;
}

/** Moves a body out of its owner: the new stream pulls from a reader on the old one. */
function takeBody(body) {
  const reader = body.stream.getReader();
  markReadableStreamDisturbed(body.stream);
  const stream = readableFromPull(
    async () => {
      const { value, done } = await reader.read();
      return done ? null : value;
    },
    (reason) => reader.cancel(reason),
  );
  return { stream, source: body.source };
}

export class Request {
  #state;

  constructor(input, init = undefined) {
    requireArgs("Request constructor", 1, arguments.length);
    if (init !== undefined && init !== null && !isObject(init)) {
      throw new TypeError(`Request constructor: Expected ${String(init)} to be one of: Null, Undefined, Object.`);
    }
    const options = init ?? {};
    const from = isObject(input) && #state in input ? input.#state : null;
    let url;
    if (from === null) {
      url = parseUrl(input);
      if (url.username !== "" || url.password !== "") {
        throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${input}`);
      }
    } else {
      url = new URL(from.url);
    }

    let method = from?.method ?? "GET";
    if (options.method !== undefined) method = normalizeMethod(options.method);
    let redirect = from?.redirect ?? "follow";
    if (options.redirect !== undefined) {
      redirect = `${options.redirect}`;
      if (!REDIRECT_MODES.includes(redirect)) {
        throw new TypeError(`Request constructor: ${redirect} is not an accepted type. Expected one of ${REDIRECT_MODES.join(", ")}.`);
      }
    }
    let signal = from?.signal;
    if ("signal" in options) {
      signal = options.signal ?? undefined;
      if (signal !== undefined && !(isObject(signal) && "aborted" in signal && typeof signal.addEventListener === "function")) {
        throw new TypeError("Failed to construct 'Request': member signal is not of type AbortSignal.");
      }
    }

    const headers = new Headers(options.headers !== undefined ? options.headers : from !== null ? headerEntries(from.headers) : undefined);

    const initBody = options.body ?? null;
    const inputBody = from?.body ?? null;
    if ((initBody !== null || inputBody !== null) && (method === "GET" || method === "HEAD")) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    let body = null;
    if (initBody !== null) {
      const extracted = extractBody(initBody, "Request constructor");
      body = extracted.body;
      if (extracted.contentType !== null && !headers.has("content-type")) headers.append("content-type", extracted.contentType);
      if (body.source === null && options.duplex !== "half") {
        throw new TypeError("RequestInit: duplex option is required when sending a body.");
      }
    } else if (inputBody !== null) {
      if (bodyUsed(inputBody) || isReadableStreamLocked(inputBody.stream)) {
        throw new TypeError("Cannot construct a Request with a Request object that has already been used.");
      }
      body = takeBody(inputBody);
    }

    this.#state = {
      url: url.href,
      method,
      headers,
      body,
      redirect,
      signal: followingSignal(signal),
      keepalive: Boolean(options.keepalive ?? from?.keepalive ?? false),
      cache: options.cache ?? from?.cache ?? "default",
      credentials: options.credentials ?? from?.credentials ?? "same-origin",
      mode: options.mode ?? from?.mode ?? "cors",
      integrity: options.integrity ?? from?.integrity ?? "",
      referrerPolicy: options.referrerPolicy ?? from?.referrerPolicy ?? "",
    };
    setHeadersGuard(headers, "request");
  }

  static #get(request) {
    if (!isObject(request) || !(#state in request)) throw new TypeError("Illegal invocation");
    return request.#state;
  }

  get method() {
    return Request.#get(this).method;
  }
  get url() {
    return Request.#get(this).url;
  }
  get headers() {
    return Request.#get(this).headers;
  }
  get destination() {
    Request.#get(this);
    return "";
  }
  get referrer() {
    Request.#get(this);
    return "about:client";
  }
  get referrerPolicy() {
    return Request.#get(this).referrerPolicy;
  }
  get mode() {
    return Request.#get(this).mode;
  }
  get credentials() {
    return Request.#get(this).credentials;
  }
  get cache() {
    return Request.#get(this).cache;
  }
  get redirect() {
    return Request.#get(this).redirect;
  }
  get integrity() {
    return Request.#get(this).integrity;
  }
  get keepalive() {
    return Request.#get(this).keepalive;
  }
  get isReloadNavigation() {
    Request.#get(this);
    return false;
  }
  get isHistoryNavigation() {
    Request.#get(this);
    return false;
  }
  get signal() {
    return Request.#get(this).signal;
  }
  get duplex() {
    Request.#get(this);
    return "half";
  }

  clone() {
    const state = Request.#get(this);
    if (bodyUsed(state.body)) throw new TypeError("unusable");
    const [mine, theirs] = cloneBody(state.body);
    state.body = mine;
    const copy = new Request(state.url, { method: state.method, redirect: state.redirect, signal: state.signal });
    const copyState = copy.#state;
    copyState.headers = newHeaders(headerEntries(state.headers), "request");
    copyState.body = theirs;
    return copy;
  }

  static {
    requestState = (request) => Request.#get(request);
  }
}

defineBodyMethods(Request, (self) => requestState(self));

// ---------------------------------------------------------------------------
// Response

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// RFC 9110 reason-phrase: HTAB, SP, VCHAR and obs-text.
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;
let responseState;
let makeResponse;

export class Response {
  #state;

  constructor(body = null, init = undefined) {
    if (init !== undefined && init !== null && !isObject(init)) {
      throw new TypeError("Response constructor: Expected init (\"Argument 2\") to be an instance of ResponseInit.");
    }
    const options = init ?? {};
    const status = options.status === undefined ? 200 : Number(options.status);
    if (!Number.isFinite(status) || Math.trunc(status) < 200 || Math.trunc(status) > 599) {
      throw new RangeError('init["status"] must be in the range of 200 to 599, inclusive.');
    }
    const statusText = options.statusText === undefined ? "" : `${options.statusText}`;
    if (!REASON_PHRASE.test(statusText)) throw new TypeError("Invalid statusText");
    const headers = new Headers(options.headers);
    let extracted = null;
    if (body !== null && body !== undefined) {
      if (NULL_BODY_STATUSES.has(Math.trunc(status))) throw new TypeError(`Response constructor: Invalid response status code ${Math.trunc(status)}`);
      extracted = extractBody(body, "Response constructor");
      if (extracted.contentType !== null && !headers.has("content-type")) headers.append("content-type", extracted.contentType);
    }
    this.#state = {
      type: "default",
      url: "",
      redirected: false,
      status: Math.trunc(status),
      statusText,
      headers,
      body: extracted?.body ?? null,
    };
  }

  static #get(response) {
    if (!isObject(response) || !(#state in response)) throw new TypeError("Illegal invocation");
    return response.#state;
  }

  static error() {
    const response = new Response();
    Object.assign(response.#state, { type: "error", status: 0, statusText: "", headers: newHeaders([], "immutable") });
    return response;
  }

  static json(data = undefined, init = undefined) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError("Value is not JSON serializable");
    const response = new Response(text, init);
    if (!isObject(init?.headers) || !new Headers(init.headers).has("content-type")) response.#state.headers.set("content-type", "application/json");
    return response;
  }

  static redirect(url, status = 302) {
    const parsed = parseUrl(url);
    const code = Number(status);
    if (!REDIRECT_STATUSES.has(code)) throw new RangeError(`Invalid status code ${status}`);
    const response = new Response(null, { status: code });
    response.#state.headers = newHeaders([["location", parsed.href]], "immutable");
    return response;
  }

  get type() {
    return Response.#get(this).type;
  }
  get url() {
    return Response.#get(this).url;
  }
  get redirected() {
    return Response.#get(this).redirected;
  }
  get status() {
    return Response.#get(this).status;
  }
  get ok() {
    const { status } = Response.#get(this);
    return status >= 200 && status <= 299;
  }
  get statusText() {
    return Response.#get(this).statusText;
  }
  get headers() {
    return Response.#get(this).headers;
  }

  clone() {
    const state = Response.#get(this);
    if (bodyUsed(state.body) || (state.body !== null && isReadableStreamLocked(state.body.stream))) {
      throw new TypeError("Response.clone: Body has already been consumed.");
    }
    const [mine, theirs] = cloneBody(state.body);
    state.body = mine;
    const copy = new Response();
    copy.#state = { ...state, headers: newHeaders(headerEntries(state.headers), state.headers === undefined ? "none" : guardOf(state)), body: theirs };
    return copy;
  }

  [Symbol.for("nodejs.util.inspect.custom")](depth, options, inspect) {
    if (typeof inspect !== "function") return this;
    const state = Response.#get(this);
    const shown = {
      status: state.status,
      statusText: state.statusText,
      headers: state.headers,
      body: state.body?.stream ?? null,
      bodyUsed: bodyUsed(state.body),
      ok: this.ok,
      redirected: state.redirected,
      type: state.type,
      url: state.url,
    };
    return `Response ${inspect(shown, options)}`;
  }

  static {
    responseState = (response) => Response.#get(response);
    makeResponse = (state) => {
      const response = new Response();
      response.#state = state;
      return response;
    };
  }
}

// Responses the network produced keep immutable headers in their clones too.
const guardOf = (state) => (state.type === "default" ? "none" : "immutable");

defineBodyMethods(Response, (self) => responseState(self));

for (const Class of [Request, Response]) {
  Object.defineProperty(Class.prototype, Symbol.toStringTag, { value: Class.name, configurable: true });
  for (const name of Object.getOwnPropertyNames(Class.prototype)) {
    if (name !== "constructor") Object.defineProperty(Class.prototype, name, { enumerable: true });
  }
}
for (const name of Object.getOwnPropertyNames(Headers.prototype)) {
  if (name !== "constructor") Object.defineProperty(Headers.prototype, name, { enumerable: true });
}

// ---------------------------------------------------------------------------
// fetch

function fetchFailed(message, cause = undefined) {
  return new TypeError("fetch failed", { cause: cause ?? new Error(message) });
}

const abortReason = (signal) => signal.reason ?? new DOMException("This operation was aborted", "AbortError");

// data: URLs (the Fetch standard's data: URL processor), answered without the network.
function fetchDataUrl(url) {
  const href = url.href.replace(/#.*$/s, "");
  const comma = href.indexOf(",", 5);
  if (comma === -1) throw fetchFailed("invalid data: URL");
  let mime = href.slice(5, comma).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "");
  let bytes = percentDecodeBytes(href.slice(comma + 1));
  const base64 = /;[\x20]*base64$/i.exec(mime);
  if (base64 !== null) {
    mime = mime.slice(0, base64.index);
    let binary;
    try {
      binary = atob(latin1(bytes));
    } catch {
      throw fetchFailed("failed to fetch the data URL");
    }
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  }
  if (mime.startsWith(";")) mime = `text/plain${mime}`;
  const response = makeResponse({
    type: "basic",
    url: href,
    redirected: false,
    status: 200,
    statusText: "OK",
    headers: newHeaders([["content-type", serializeMime(mime) ?? "text/plain;charset=US-ASCII"]], "immutable"),
    body: bytesBody(bytes),
  });
  return response;
}

function latin1(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}

function percentDecodeBytes(text) {
  const raw = encoder.encode(text);
  const out = new Uint8Array(raw.length);
  let length = 0;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (byte === 0x25 && i + 2 < raw.length) {
      const pair = String.fromCharCode(raw[i + 1], raw[i + 2]);
      if (/^[0-9A-Fa-f]{2}$/.test(pair)) {
        out[length++] = parseInt(pair, 16);
        i += 2;
        continue;
      }
    }
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

// A small MIME type parser/serialiser: type and subtype lower-cased,
// parameter names lower-cased, invalid input -> null.
function serializeMime(text) {
  const [essence, ...params] = text.split(";");
  const match = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\/([!#$%&'*+\-.^_`|~0-9A-Za-z]+)$/.exec(essence.trim());
  if (match === null) return null;
  let out = `${match[1]}/${match[2]}`.toLowerCase();
  const seen = new Set();
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = param.slice(eq + 1);
    if (name === "" || seen.has(name) || !TOKEN.test(name)) continue;
    seen.add(name);
    out += `;${name}=${TOKEN.test(value) ? value : `"${value.replace(/(["\\])/g, "\\$1")}"`}`;
  }
  return out;
}

async function requestBodyBytes(body) {
  if (body === null) return null;
  if (body.source !== null && !isReadableStreamDisturbed(body.stream)) {
    // Reading the stream marks the body used, as sending does in Node.
    await consumeBody(body);
    return body.source;
  }
  return consumeBody(body);
}

const unreadBodies = new FinalizationRegistry((id) => {
  const ops = requireOps();
  ops.op_pihost_fetch_abort(id);
  ops.op_pihost_fetch_close(id);
});

export function fetch(input, init = undefined) {
  return new Promise((resolve, reject) => {
    const request = new Request(input, init);
    const state = requestState(request);
    const signal = state.signal;
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const url = new URL(state.url);
    if (url.protocol === "data:") {
      resolve(fetchDataUrl(url));
      return;
    }
    if (url.protocol === "about:") throw fetchFailed("about scheme is not supported");
    if (url.protocol === "blob:") throw fetchFailed("invalid method");
    if (url.protocol === "file:") throw fetchFailed("not implemented... yet...");
    if (url.protocol !== "http:" && url.protocol !== "https:") throw fetchFailed("unknown scheme");
    resolve(networkFetch(state, signal));
  });
}

async function networkFetch(state, signal) {
  const ops = requireOps();
  const headers = headerEntries(state.headers).map(([name, value]) => [name, value]);
  const has = (name) => headers.some(([key]) => key === name);
  if (!has("accept")) headers.push(["accept", "*/*"]);
  if (!has("accept-language")) headers.push(["accept-language", "*"]);
  if (!has("sec-fetch-mode")) headers.push(["sec-fetch-mode", "cors"]);
  if (!has("user-agent")) headers.push(["user-agent", "node"]);

  let id = null;
  let body = null;
  let finished = false;
  const release = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener("abort", onAbort);
    if (id !== null) ops.op_pihost_fetch_close(id);
  };
  let onAbortReject;
  const aborted = new Promise((resolve, reject) => {
    onAbortReject = reject;
  });
  // Before the response the fetch promise rejects; after it, the body stream
  // errors. Either way with the signal's reason, as undici does.
  function onAbort() {
    const reason = abortReason(signal);
    if (id !== null) ops.op_pihost_fetch_abort(id);
    if (body !== null) errorReadableStream(body, reason);
    else onAbortReject(reason);
    release();
  }
  aborted.catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });

  const bytes = await Promise.race([requestBodyBytes(state.body), aborted]);
  if (signal.aborted) throw abortReason(signal);
  id = ops.op_pihost_fetch_prepare();
  let result;
  try {
    result = await Promise.race([
      ops.op_pihost_fetch_send(
        id,
        {
          method: state.method,
          url: state.url,
          headers,
          hasBody: bytes !== null,
          redirect: state.redirect === "follow" ? "follow" : "manual",
        },
        bytes ?? new Uint8Array(),
      ),
      aborted,
    ]);
  } catch (err) {
    if (signal.aborted) throw abortReason(signal);
    release();
    throw fetchFailed(String(err?.message ?? err), err instanceof Error ? err : undefined);
  }
  if (state.redirect === "error" && REDIRECT_STATUSES.has(result.status)) {
    release();
    throw fetchFailed("unexpected redirect");
  }

  const nullBody = NULL_BODY_STATUSES.has(result.status) || state.method === "HEAD";
  if (nullBody) {
    release();
  } else {
    const responseId = id;
    body = readableFromPull(
      async () => {
        let chunk;
        try {
          chunk = await ops.op_pihost_fetch_read(responseId);
        } catch (err) {
          if (signal.aborted) throw abortReason(signal);
          release();
          throw new TypeError("terminated", { cause: err });
        }
        if (chunk === null || chunk === undefined) {
          release();
          return null;
        }
        return chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
      },
      () => {
        if (!finished) ops.op_pihost_fetch_abort(responseId);
        release();
      },
    );
    // A body nobody reads to the end or cancels would hold its request (and
    // its connection) until the runtime ends; once the body is garbage, the
    // request is dropped.
    unreadBodies.register(body, responseId);
  }
  return makeResponse({
    type: "basic",
    url: result.url ?? state.url,
    redirected: Boolean(result.redirected),
    status: result.status,
    statusText: result.statusText ?? "",
    headers: newHeaders(result.headers ?? [], "immutable"),
    body: body === null ? null : { stream: body, source: null },
  });
}
