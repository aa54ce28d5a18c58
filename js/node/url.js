// Node's `url` module: the WHATWG URL classes (js/runtime/web/url.js, parsed
// in Rust) and the file-URL helpers. fileURLToPath carries its own small
// parser for the parts of the grammar a file: URL uses, so it gives Node's
// exact errors for malformed input without a round trip.

import { resolve } from "./path.js";
import { codedError, describeReceived } from "./internal/errors.js";

import { URL, URLSearchParams } from "../runtime/web/url.js";

export { URL, URLSearchParams };

const HEX = "0123456789ABCDEF";

function win32Unavailable(options) {
  if (options?.windows) throw new Error("pihost: path.win32 is not available");
}

// Characters Node 22 percent-encodes in a file URL path: controls, space,
// characters the URL grammar reserves or treats specially, and everything
// outside ASCII. "%" is included so existing escapes survive a round trip.
function mustEncode(code) {
  if (code <= 0x20 || code >= 0x7f) return true;
  switch (code) {
    case 0x22: // "
    case 0x23: // #
    case 0x25: // %
    case 0x3c: // <
    case 0x3e: // >
    case 0x3f: // ?
    case 0x5b: // [
    case 0x5c: // \
    case 0x5d: // ]
    case 0x5e: // ^
    case 0x60: // `
    case 0x7b: // {
    case 0x7c: // |
    case 0x7d: // }
    case 0x7e: // ~
      return true;
    default:
      return false;
  }
}

function pushByte(out, byte) {
  out.push("%", HEX[byte >> 4], HEX[byte & 15]);
}

// Percent-encodes as UTF-8 by hand: the isolate has no TextEncoder, and
// encodeURIComponent would throw on lone surrogates where URLs substitute
// U+FFFD.
function encodePath(p) {
  const out = [];
  for (const ch of p) {
    let cp = ch.codePointAt(0);
    if (!mustEncode(cp)) {
      out.push(ch);
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) {
      pushByte(out, cp);
    } else if (cp < 0x800) {
      pushByte(out, 0xc0 | (cp >> 6));
      pushByte(out, 0x80 | (cp & 63));
    } else if (cp < 0x10000) {
      pushByte(out, 0xe0 | (cp >> 12));
      pushByte(out, 0x80 | ((cp >> 6) & 63));
      pushByte(out, 0x80 | (cp & 63));
    } else {
      pushByte(out, 0xf0 | (cp >> 18));
      pushByte(out, 0x80 | ((cp >> 12) & 63));
      pushByte(out, 0x80 | ((cp >> 6) & 63));
      pushByte(out, 0x80 | (cp & 63));
    }
  }
  return out.join("");
}

function fileUrlObject(href) {
  return {
    href,
    protocol: "file:",
    host: "",
    hostname: "",
    pathname: href.slice("file://".length),
    search: "",
    hash: "",
    toString() {
      return href;
    },
    toJSON() {
      return href;
    },
  };
}

/**
 * Converts a filesystem path to a file: URL, resolving it against cwd.
 * @param {string} filepath
 * @param {{windows?: boolean}} [options]
 * @returns {URL|{href: string, protocol: string, pathname: string}}
 */
export function pathToFileURL(filepath, options) {
  win32Unavailable(options);
  if (typeof filepath !== "string") {
    throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", `The "path" argument must be of type string.${describeReceived(filepath)}`);
  }
  let resolved = resolve(filepath);
  // resolve() drops the trailing slash, but it distinguishes a directory URL.
  if (filepath.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
  // Node hands the escaped string to a URL parser that trims trailing C0
  // controls; those it did not escape beforehand disappear. Replicated so
  // the hrefs match Node's byte for byte.
  resolved = resolved.replace(/[\x01-\x08\x0b\x0c\x0e-\x1f]+$/, "");
  const href = `file://${encodePath(resolved)}`;
  return typeof globalThis.URL === "function" ? new globalThis.URL(href) : fileUrlObject(href);
}

function invalidUrl(input) {
  const err = codedError(TypeError, "ERR_INVALID_URL", "Invalid URL");
  err.input = input;
  return err;
}

const SINGLE_DOT = new Set([".", "%2e"]);
const DOUBLE_DOT = new Set(["..", ".%2e", "%2e.", "%2e%2e"]);
const DRIVE_LETTER = /^[A-Za-z][:|]$/;
const FORBIDDEN_HOST = /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/;

// Returns { hostname, pathname } of a file: URL following the WHATWG parsing
// rules that matter for file URLs without a base: backslashes act as
// slashes, query and fragment are dropped, dot segments are resolved and
// Windows drive letters are not popped by "..". Percent-escapes are kept as
// is since the caller decodes them anyway.
function parseFileUrl(input) {
  const cleaned = input.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, "").replace(/[\t\n\r]/g, "");
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned);
  if (schemeMatch === null) throw invalidUrl(input);
  if (schemeMatch[1].toLowerCase() !== "file") {
    throw codedError(TypeError, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
  }
  let rest = cleaned.slice(schemeMatch[0].length);
  const cut = rest.search(/[?#]/);
  if (cut >= 0) rest = rest.slice(0, cut);
  rest = rest.replace(/\\/g, "/");

  let hostname = "";
  let pathPart = rest.startsWith("/") ? rest.slice(1) : rest;
  if (rest.startsWith("//")) {
    const hostEnd = rest.indexOf("/", 2);
    const host = rest.slice(2, hostEnd < 0 ? rest.length : hostEnd);
    const after = hostEnd < 0 ? "" : rest.slice(hostEnd + 1);
    if (DRIVE_LETTER.test(host)) {
      // "file://C:/x" means the drive, not a host named "C:".
      pathPart = hostEnd < 0 ? host : `${host}/${after}`;
    } else {
      let decoded;
      try {
        decoded = decodeURIComponent(host).toLowerCase();
      } catch {
        throw invalidUrl(input);
      }
      const bracketed = decoded.startsWith("[") && decoded.endsWith("]");
      if (!bracketed && FORBIDDEN_HOST.test(decoded)) throw invalidUrl(input);
      hostname = decoded === "localhost" ? "" : decoded;
      pathPart = after;
    }
  }

  const segments = [];
  const parts = pathPart.split("/");
  parts.forEach((raw, i) => {
    const last = i === parts.length - 1;
    const lower = raw.toLowerCase();
    if (DOUBLE_DOT.has(lower)) {
      const keepDrive = segments.length === 1 && /^[A-Za-z]:$/.test(segments[0]);
      if (!keepDrive) segments.pop();
      if (last) segments.push("");
    } else if (SINGLE_DOT.has(lower)) {
      if (last) segments.push("");
    } else if (segments.length === 0 && DRIVE_LETTER.test(raw)) {
      segments.push(`${raw[0]}:`);
    } else {
      segments.push(raw);
    }
  });
  return { hostname, pathname: `/${segments.join("/")}` };
}

/**
 * Converts a file: URL (string or URL-like object with `href`) to a path.
 * @param {string|{href: string}} url
 * @param {{windows?: boolean}} [options]
 * @returns {string}
 */
export function fileURLToPath(url, options) {
  win32Unavailable(options);
  let href;
  if (typeof url === "string") href = url;
  else if (url !== null && typeof url === "object" && typeof url.href === "string") href = url.href;
  else {
    throw codedError(
      TypeError,
      "ERR_INVALID_ARG_TYPE",
      `The "path" argument must be of type string or an instance of URL.${describeReceived(url)}`,
    );
  }
  const { hostname, pathname } = parseFileUrl(href);
  if (hostname !== "") {
    throw codedError(TypeError, "ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty on linux');
  }
  // An encoded "/" would silently change which directories the path spans.
  if (/%2f/i.test(pathname)) {
    throw codedError(TypeError, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters");
  }
  // URLs carry USV strings; lone surrogates become U+FFFD as in a real URL.
  const wellFormed = pathname.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  try {
    return decodeURIComponent(wellFormed);
  } catch {
    // Same message on every engine (QuickJS words it differently from V8).
    throw new URIError("URI malformed");
  }
}

const url = { URL, URLSearchParams, fileURLToPath, pathToFileURL };

export default url;
