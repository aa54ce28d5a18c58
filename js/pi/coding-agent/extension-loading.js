// pi's discoverAndLoadExtensions: pi's discovery (the project's
// .pi/extensions, then the agent dir's extensions, then the paths given, as
// src/discovery.rs does it for pihost itself), and the extensions loaded
// into this runtime by pihost's own loader, as pi loads them into its
// process. A sandbox checks the folders discovery reads and every module
// the extensions import.
import { createEventBus } from "../../runtime/event-bus.js";
import { createExtensionRuntime } from "../../runtime/extension-runtime.js";
import { clearExtensionCache, loadExtensionFromFactory, loadExtensions } from "../../runtime/loader.js";
import { ops } from "../../runtime/ops.js";
import { getAgentDir } from "./agent-dir.js";
import { resolvePath } from "./paths.js";

export async function discoverAndLoadExtensions(configuredPaths, cwd, agentDir = getAgentDir(), eventBus) {
  const resolvedCwd = resolvePath(cwd);
  const entries = ops.op_pihost_discover_extensions([...configuredPaths], resolvedCwd, resolvePath(agentDir), true, true);
  const runtime = createExtensionRuntime();
  const { extensions, errors } = await loadExtensions(entries, {
    cwd: resolvedCwd,
    eventBus: eventBus ?? createEventBus(),
    runtime,
  });
  return { extensions, errors, runtime };
}

/**
 * What pi's DefaultResourceLoader loads as a session's extensions: the
 * extension files at `paths` (its additionalExtensionPaths, discovered as
 * pi's package manager resolves local paths), those of the default folders
 * `scan` names (`{ project, agent }`), then `factories` (its
 * extensionFactories) as `<inline:name>` extensions, or `<inline:N>` for a
 * bare function. A factory that throws is an error of the set, as in pi.
 * Factories of files are cached per process as pi caches them; `clearCache`
 * forgets them first (pi's loader does so on every reload after the first).
 */
export async function loadResourceLoaderExtensions({ cwd, agentDir, paths, scan, factories, eventBus, clearCache }) {
  if (clearCache) clearExtensionCache();
  // pi's order: the given paths first, then what the project's and the agent's folders hold.
  const given = ops.op_pihost_discover_extensions([...paths], cwd, agentDir, false, false);
  const found = ops.op_pihost_discover_extensions([], cwd, agentDir, scan.project, scan.agent);
  const seen = new Set(given.map((entry) => entry.resolvedPath));
  const entries = [...given, ...found.filter((entry) => !seen.has(entry.resolvedPath))];
  const runtime = createExtensionRuntime();
  const { extensions, errors } = await loadExtensions(entries, { cwd, eventBus, runtime, useCache: true });
  for (const [index, input] of factories.entries()) {
    const named = typeof input !== "function";
    const path = `<inline:${named ? input.name : index + 1}>`;
    try {
      const extension = await loadExtensionFromFactory(named ? input.factory : input, { path, cwd, eventBus, runtime });
      extension.hidden = named && input.hidden;
      extension.replaceable = named && input.replaceable === true;
      extensions.push(extension);
    } catch (error) {
      errors.push({ path, error: error instanceof Error ? error.message : "failed to load extension" });
    }
  }
  return { extensions, errors: errors.map(({ path, error }) => ({ path, error })), warnings: [], runtime };
}
