// CommonJS for extensions: jiti gives every module `require`, `module`,
// `exports`, `__filename` and `__dirname` (L8), and CommonJS files become
// modules whose `module.exports` is the default export (L3).
import { core, ops } from "pihost:runtime/ops.js";
import { loadNativeAddon } from "pihost:platform/node-fixes.js";
import { nodeModule, nodeModuleNames } from "pihost:platform/bootstrap.js";
import {
  JSONParse,
  ObjectCreate,
  PromisePrototypeThen,
  ReflectApply,
  ReflectGet,
  SafeMap,
  StringPrototypeEndsWith,
  StringPrototypeIncludes,
  StringPrototypeLastIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
} from "pihost:runtime/primordials.js";

const moduleCache = new SafeMap();

// `require` of a Node built-in: deno_node's module of that name, evaluated
// on first use, except `module`, whose require is this file's.
function isBuiltin(name) {
  return name === "module" || nodeModuleNames.has(name);
}

function builtinNamespace(name) {
  return name === "module" ? { default: nodeModuleApi } : nodeModule(name);
}

function filenameFromUrl(url) {
  const withoutQuery = StringPrototypeReplace(url, /[?#].*$/, "");
  return decodeURIComponent(StringPrototypeReplace(withoutQuery, /^file:\/\//, ""));
}

function dirnameOf(filename) {
  const index = StringPrototypeLastIndexOf(filename, "/");
  return index <= 0 ? "/" : StringPrototypeSlice(filename, 0, index);
}

function builtinExports(namespace) {
  // `require("node:path")` gives the module object, not the ES namespace.
  return namespace.default ?? namespace;
}

// Code that is not strict keeps Node's sloppy semantics through an
// indirect eval; strict code comes compiled (from the engine's bytecode
// cache) as the function itself.
function sloppyWrapper(module, code) {
  return (0, eval)(
    `(function (exports, require, module, __filename, __dirname) {${code}\n})\n//# sourceURL=${module.filename}`,
  );
}

function evaluateInto(module, filename) {
  // Node loads a `.node` file with process.dlopen, whatever it holds.
  if (StringPrototypeEndsWith(filename, ".node")) return loadNativeAddon(core, filename);
  const loaded = ops.op_pihost_require_file(filename);
  if (typeof loaded === "function") {
    runCommonJs(module, loaded);
  } else if (loaded.kind === "json") {
    module.exports = JSONParse(loaded.text);
  } else {
    runCommonJs(module, sloppyWrapper(module, loaded.text));
  }
}

// Node's `require.extensions` (deprecated, still read: libraries list its
// keys to learn which files `require` loads). One object, as Node's
// Module._extensions is.
const requireExtensions = ObjectCreate(null);
requireExtensions[".js"] = evaluateInto;
requireExtensions[".json"] = evaluateInto;
requireExtensions[".node"] = (_module, filename) => loadNativeAddon(core, filename);

function loadFile(filename) {
  const cached = moduleCache.get(filename);
  if (cached) return cached.exports;
  const module = createModuleRecord(filename);
  moduleCache.set(filename, module);
  try {
    evaluateInto(module, filename);
  } catch (error) {
    moduleCache.delete(filename);
    throw error;
  }
  module.loaded = true;
  return module.exports;
}

/** A Node-style `require` for code in `filename`. */
export function createRequire(filename) {
  const directory = dirnameOf(filename);
  const require = (specifier) => {
    if (typeof specifier !== "string") {
      throw new TypeError(`The "id" argument must be of type string. Received ${typeof specifier}`);
    }
    const name = StringPrototypeStartsWith(specifier, "node:") ? StringPrototypeSlice(specifier, 5) : specifier;
    if (isBuiltin(name)) return builtinExports(builtinNamespace(name));
    return loadFile(resolveForRequire(specifier, directory));
  };
  require.resolve = (specifier) => {
    const name = StringPrototypeStartsWith(specifier, "node:") ? StringPrototypeSlice(specifier, 5) : specifier;
    if (isBuiltin(name)) return specifier;
    return resolveForRequire(specifier, directory);
  };
  require.cache = moduleCache;
  require.extensions = requireExtensions;
  return require;
}

// Node's resolution errors carry a code that libraries test for optional
// dependencies (`try { require("x") } catch (e) { if (e.code === "MODULE_NOT_FOUND") … }`).
function resolveForRequire(specifier, directory) {
  try {
    return ops.op_pihost_require_resolve(specifier, directory);
  } catch (cause) {
    const message = String(cause?.message ?? cause);
    const error = new Error(message);
    error.code = StringPrototypeStartsWith(message, "Package subpath") ? "ERR_PACKAGE_PATH_NOT_EXPORTED" : "MODULE_NOT_FOUND";
    throw error;
  }
}

function createModuleRecord(filename) {
  const module = {
    id: filename,
    filename,
    path: dirnameOf(filename),
    exports: {},
    loaded: false,
    children: [],
    paths: [],
  };
  module.require = createRequire(filename);
  return module;
}

/** The CommonJS record of a file loaded as a module graph entry. */
export function createCommonJsModule(url) {
  const filename = filenameFromUrl(url);
  // A reloaded graph (its URL carries a query) gets fresh records, as jiti
  // evaluates every load anew.
  if (StringPrototypeIncludes(url, "?")) return createModuleRecord(filename);
  const existing = moduleCache.get(filename);
  if (existing) return existing;
  const module = createModuleRecord(filename);
  moduleCache.set(filename, module);
  return module;
}

export function runCommonJs(module, body) {
  ReflectApply(body, module.exports, [module.exports, module.require, module, module.filename, module.path]);
  module.loaded = true;
}

// jiti hands every importer the target's exports behind Babel's interop
// (L9). The loader rewrites what it can see statically (missing names,
// defaults of modules without one); these cover what only shows at run time.

/**
 * The default an ES importer gets from a CommonJS module: `module.exports`,
 * or its own `default` when it is marked `__esModule` and that is a function.
 */
export function commonJsDefault(exports) {
  if (exports != null && exports.__esModule && typeof exports.default === "function") return exports.default;
  return exports;
}

/** The default importers get from `export default value`: `value.default` when that is a function. */
export function jitiDefault(value) {
  return value != null && typeof value.default === "function" ? value.default : value;
}

/** `import(…)` as jiti resolves it: a module without a default has itself as `default`. */
export function jitiImport(promise) {
  return PromisePrototypeThen(promise, (namespace) =>
    namespace.default != null
      ? namespace
      : new Proxy(namespace, { get: (target, key) => (key === "default" ? target : ReflectGet(target, key)) }),
  );
}

/** jiti's globals for an ES module at `url` (L8). */
export function moduleGlobals(url) {
  const module = createCommonJsModule(url);
  return {
    require: module.require,
    module,
    exports: module.exports,
    __filename: module.filename,
    __dirname: module.path,
  };
}

/**
 * `node:module` (what js/platform/node-module.js exports, and what
 * `require("module")` answers: one object, as in Node). It lives here, with
 * the `require` it makes, so the platform's module imports this one and not
 * the other way round.
 */
export const nodeModuleApi = {
  /** A `require` for code at `filename` (a path or a file: URL). */
  createRequire(filename) {
    const text = typeof filename === "string" ? filename : String(filename?.href ?? filename);
    const path = StringPrototypeStartsWith(text, "file://")
      ? decodeURIComponent(StringPrototypeReplace(StringPrototypeSlice(text, 7), /[?#].*$/, ""))
      : text;
    return createRequire(path);
  },
  /** Node's public built-in names (no `_`-prefixed or internal ones). */
  builtinModules: [...nodeModuleNames, "module"].filter((name) => !name.startsWith("_") && !name.startsWith("internal/")).sort(),
  /** Whether `name` (with or without `node:`) is a built-in module. */
  isBuiltin(name) {
    return isBuiltin(StringPrototypeReplace(String(name), /^node:/, ""));
  },
};
