// Loading extensions (L3–L6): import each entry point, check its default
// export, run the factory with a fresh API object, and collect errors without
// stopping. Factories are awaited one at a time, in discovery order.
import { createExtensionAPI, createExtensionRecord } from "pihost:runtime/extension-api.js";
import { currentOwner, enterExtension } from "pihost:runtime/entries.js";
import { ops } from "pihost:runtime/ops.js";
import { nodeModule } from "pihost:platform/bootstrap.js";
import { isolationOf, loadIsolated } from "pihost:runtime/isolation.js";
import { ArrayConcat, MathMax, SafeMap, SafeSet } from "pihost:runtime/primordials.js";

let loadTimeoutMs = 0;

/** Sets how long one extension's module and factory may take (0: no limit). */
export function configureLoadLimits(limits) {
  loadTimeoutMs = limits.loadTimeoutMs ?? 0;
}

let extensionCacheCwd;
let extensionCacheGeneration = 0;
const extensionCache = new SafeMap();
const importedUrls = new SafeSet();
let reloadCounter = 0;

/** Forgets every cached factory (L6). */
export function clearExtensionCache() {
  extensionCache.clear();
  extensionCacheCwd = undefined;
  extensionCacheGeneration++;
}

function useExtensionCacheCwd(cwd) {
  if (extensionCacheCwd !== undefined && extensionCacheCwd !== cwd) clearExtensionCache();
  extensionCacheCwd = cwd;
  return { cwd, generation: extensionCacheGeneration };
}

function isCurrentCacheToken(token) {
  return token !== undefined && extensionCacheCwd === token.cwd && extensionCacheGeneration === token.generation;
}

function defaultExport(namespace) {
  let value = "default" in namespace ? namespace.default : namespace;
  // A transpiled ES module in CommonJS form keeps its factory under `default`.
  if (value && typeof value === "object" && value.__esModule && "default" in value) value = value.default;
  return value;
}

async function importFresh(moduleUrl) {
  // The engine keeps every module it evaluated; a second load of the same
  // file must evaluate it anew, as jiti does, so it gets its own URL.
  let url = moduleUrl;
  if (importedUrls.has(moduleUrl)) url = `${moduleUrl}?pihost-reload=${++reloadCounter}`;
  importedUrls.add(moduleUrl);
  // Awaited: an async function that returns a promise looks up its `then`.
  return await import(url);
}

/** The factory cached for `entry` (L6) when the token is current; undefined otherwise. */
function cachedFactory(entry, cacheToken) {
  return isCurrentCacheToken(cacheToken) ? extensionCache.get(entry.resolvedPath) : undefined;
}

async function importFactory(entry, cacheToken, owner) {
  const factory = defaultExport(await enterExtension(owner(), () => importFresh(entry.moduleUrl)));
  if (typeof factory !== "function") return undefined;
  if (isCurrentCacheToken(cacheToken)) extensionCache.set(entry.resolvedPath, factory);
  return factory;
}

async function initializeExtension(factory, entry, cwd, eventBus, runtime, owner, createRecord, sessionId) {
  const extension = createRecord(entry.path, entry.resolvedPath);
  const load = createExtensionAPI(extension, runtime, cwd, eventBus, sessionId);
  try {
    await enterExtension(owner(), () => factory(load.api));
    load.commit();
  } catch (error) {
    load.discard();
    throw error;
  }
  return extension;
}

/**
 * Runs `factory` as the extension named `path` (pi's
 * `loadExtensionFromFactory`: a resource loader's inline extensions, whose
 * paths are `<inline:name>`). What the factory throws is thrown.
 */
export async function loadExtensionFromFactory(factory, { path, cwd, eventBus, runtime }) {
  // Called by extension code (pi's resource loader): the session is the caller's.
  const sessionId = currentOwner()?.session;
  const owner = loadOwner(path, performance.now(), sessionId);
  return await initializeExtension(factory, { path, resolvedPath: path }, cwd, eventBus, runtime, owner, createExtensionRecord, sessionId);
}

/** Who runs while the extension at `path` loads; the load timeout covers its module and factory together. */
function loadOwner(path, started, sessionId) {
  return () => ({
    __proto__: null,
    path,
    session: sessionId,
    where: "while loading",
    event: "load",
    timeoutMs: loadTimeoutMs > 0 ? MathMax(1, loadTimeoutMs - (performance.now() - started)) : 0,
    timeoutMessage: `Extension "${path}" did not finish loading within ${loadTimeoutMs} ms`,
  });
}

function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

/** The stages of a load whose factory came from the cache (`report::LoadTiming`): nothing was imported. */
function cachedLoadTiming(importMs, factoryMs) {
  return {
    resolveMs: 0,
    readMs: 0,
    transpileMs: 0,
    rewriteMs: 0,
    compileMs: 0,
    evaluateMs: importMs,
    factoryMs,
    modules: 0,
    bytes: 0,
    slowestModules: [],
  };
}

/**
 * Loads `entries` ({ path, resolvedPath, moduleUrl }) in order. Returns
 * `{ extensions, errors, timings, stages, denials }`; `errors` holds
 * `{ path, error, stack }`, `stages` where each load's time went.
 */
export async function loadExtensions(entries, { cwd, eventBus, runtime, useCache = false, createRecord = createExtensionRecord, sessionId = 0 }) {
  const extensions = [];
  const errors = [];
  const timings = new SafeMap();
  const stages = new SafeMap();
  // What a sandbox refused each extension while it loaded (nothing outside one).
  const denials = new SafeMap();
  // node:process is evaluated before the first extension, not on its first
  // use inside one: evaluating it takes long enough that a 0 ms timer set
  // before would expire first, and deno_core runs expired timers before the
  // nextTick queue when the job did not start from a macrotask.
  if (entries.length > 0) nodeModule("process");
  ops.op_pihost_take_denials();
  const cacheToken = useCache ? useExtensionCacheCwd(cwd) : undefined;
  // Asked once per load, not per extension: a shared runtime's sessions run
  // cached factories, where these ops were much of a load's time.
  const anyGuests = ops.op_pihost_has_guest_policies();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    const started = performance.now();
    // Where the time goes (pihost inspect --timing): the import's stages
    // are recorded by the loader in Rust, the factory's time here.
    let imported;
    ops.op_pihost_load_timing_begin(entry.path);
    const owner = loadOwner(entry.path, started, sessionId);
    let cached;
    try {
      const policy = anyGuests ? isolationOf(entry) : undefined;
      if (policy) {
        // A grant of its own: the extension loads in a runtime of its own
        // (js/runtime/isolation.js), and what it was refused there is its.
        const loaded = await loadIsolated(entry, { policy, eventBus, runtime, loadTimeoutMs, sessionId });
        if (loaded.denials.length > 0) denials.set(entry.path, loaded.denials);
        if (loaded.extension) extensions[extensions.length] = loaded.extension;
        else errors[errors.length] = loaded.error;
      } else {
      cached = cachedFactory(entry, cacheToken);
      const factory = cached ?? (await importFactory(entry, cacheToken, owner));
      imported = performance.now();
      if (!factory) {
        errors[errors.length] = { path: entry.path, error: `Extension does not export a valid factory function: ${entry.path}` };
      } else {
        const extension = await initializeExtension(factory, entry, cwd, eventBus, runtime, owner, createRecord, sessionId);
        extensions[extensions.length] = extension;
      }
      }
    } catch (error) {
      errors[errors.length] = {
        path: entry.path,
        error: `Failed to load extension: ${errorMessage(error)}`,
        stack: error instanceof Error ? error.stack : undefined,
      };
    }
    const ended = performance.now();
    const importMs = (imported ?? ended) - started;
    timings.set(entry.path, ended - started);
    if (cached === undefined) {
      stages.set(entry.path, ops.op_pihost_load_timing_end(importMs, ended - started - importMs));
    } else {
      ops.op_pihost_loaded_from_cache();
      stages.set(entry.path, cachedLoadTiming(importMs, ended - started - importMs));
    }
    if (ops.op_pihost_has_denials()) {
      denials.set(entry.path, ArrayConcat(denials.get(entry.path) ?? [], ops.op_pihost_take_denials()));
    }
  }
  return { extensions, errors, timings, stages, denials };
}
