// pihost's bootstrap of Deno's platform crates (src/platform): the error
// classes their ops throw, the `Deno` namespace their JavaScript calls into,
// the arguments deno_node's process bootstrap reads when `node:process`
// first loads, and Node's globals. Nothing of the platform is evaluated
// here: every module loads when an extension first touches it.
import { core, ops } from "pihost:runtime/ops.js";
import { registerErrorClasses } from "pihost:platform/errors.js";
import { createDenoNamespace } from "pihost:platform/deno-namespace.js";
import { withNodeWatch } from "pihost:platform/fs-events.js";
import { installGlobals } from "pihost:platform/globals.js";
import { fixBeforeNodeModules, fixNodeModule } from "pihost:platform/node-fixes.js";
import { console } from "pihost:runtime/console.js";

const internals = globalThis.__bootstrap.internals;
const facts = ops.op_pihost_platform_facts();

class ProcessExit extends Error {
  constructor(code) {
    super(`pihost: process.exit(${code ?? 0}) was called; extensions cannot end the host process`);
    this.name = "ProcessExit";
    this.exitCode = code ?? 0;
  }
}

function unavailableApi(name) {
  const error = new Error(`pihost: ${name} is not available`);
  error.code = "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM";
  throw error;
}

core.setBuildInfo(facts.target);
const errors = registerErrorClasses(core);
internals.pihostDeno = createDenoNamespace(core, {
  facts,
  errors,
  unavailable: {
    exit(code) {
      throw new ProcessExit(code);
    },
    api: unavailableApi,
  },
});

// deno_node's process listens on the global scope for the errors Deno
// dispatches there; pihost hands uncaught errors to process itself
// (js/runtime/globals.js), and Node's global has no addEventListener. A
// worker's global has them (js/platform/worker-bootstrap.js).
internals.pihostGlobalScope = {
  addEventListener: (...args) => globalThis.addEventListener?.(...args),
  removeEventListener: (...args) => globalThis.removeEventListener?.(...args),
};

// Read by deno_node's process.ts when node:process first evaluates, and by
// its 01_require.js (node:module) to finish the bootstrap.
internals.__nodeBootstrapArgs = {
  argv0: "node",
  denoArgs: [],
  denoVersion: { pihost: facts.pihostVersion },
  nodeDebug: "",
  runningOnMainThread: true,
  usesLocalNodeModulesDir: false,
  workerId: 0,
  maybeWorkerMetadata: undefined,
  moduleSpecifier: null,
};

const nodeModules = new Map();
const scriptsBehind = ops.op_pihost_node_modules();

/**
 * The namespace of deno_node's `node:<name>`, evaluated on first use. A
 * synthetic one (url, util, worker_threads, zlib) is its script's exports
 * object: going through the synthetic module itself from here would make
 * the QuickJS backend resolve it outside deno_core's instantiation.
 */
let nodeModulesFixed = false;

export function nodeModule(name) {
  let namespace = nodeModules.get(name);
  if (namespace === undefined) {
    if (!nodeModulesFixed) {
      nodeModulesFixed = true;
      fixBeforeNodeModules(core);
    }
    const script = scriptsBehind[name];
    if (script) {
      const exports = core.loadExtScript(script);
      fixNodeModule(name, exports, core);
      namespace = Object.assign(Object.create(null), exports, { default: exports });
    } else {
      namespace = core.createLazyLoader(`node:${name}`)();
      fixNodeModule(name, namespace.default ?? namespace, core);
    }
    namespace = withNodeWatch(core, name, namespace);
    nodeModules.set(name, namespace);
  }
  return namespace;
}

/** Names of the `node:` modules deno_node gives extensions, without the scheme. */
export const nodeModuleNames = new Set(Object.keys(scriptsBehind));

/**
 * How the runtime ties timer callbacks to the extension that set them
 * (js/runtime/entries.js installs its own); until then they run as they are.
 */
export const timerHooks = { wrap: (callback) => callback, adopt: () => {} };

installGlobals(core, {
  nodeModule,
  console,
  timerHooks,
  navigatorFacts: {
    hardwareConcurrency: facts.hardwareConcurrency,
    language: "en-US",
    platform: facts.platform,
    userAgent: `Node.js/${facts.nodeMajor}`,
  },
});

