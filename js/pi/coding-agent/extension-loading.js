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

const BUILTIN_PATH_PREFIX = "builtin:";

/**
 * What pi's DefaultResourceLoader loads as a session's extensions: the
 * extension files at `paths` (its additionalExtensionPaths, discovered as
 * pi's package manager resolves local paths) and the built-in extensions
 * `builtin:<name>` paths name (from `builtins`, by name: hidden, and
 * replaceable when marked so), in the order of `paths`; then those of the
 * default folders `scan` names (`{ project, agent }`); then `factories`
 * (its extensionFactories) as `<inline:name>` extensions, or `<inline:N>`
 * for a bare function. A factory that throws, and an unknown built-in name,
 * are errors of the set, as in pi. A replaceable extension that shares a
 * command, tool or flag name with one that is not is left out (with pi's
 * warning for a built-in one). Factories of files are cached per process
 * as pi caches them; `clearCache` forgets them first (pi's loader does so
 * on every reload after the first). With `preloaded` (the set a pass before
 * the project trust decision loaded), its extensions, inline ones and
 * failures stand and only the rest loads, into its runtime.
 */
export async function loadResourceLoaderExtensions({ cwd, agentDir, paths, scan, factories, builtins = new Map(), preloaded, eventBus, clearCache }) {
  if (clearCache) clearExtensionCache();
  const isBuiltin = (path) => path.startsWith(BUILTIN_PATH_PREFIX);
  // What a pass before the project trust decision loaded stays loaded, in its runtime; what failed there is not retried.
  const preloadedByPath = new Map((preloaded?.extensions ?? []).filter((extension) => !extension.path.startsWith("<inline:")).map((extension) => [extension.resolvedPath, extension]));
  const failedBefore = new Set((preloaded?.errors ?? []).map((error) => error.path));
  const isDone = (entry) => preloadedByPath.has(entry.resolvedPath) || failedBefore.has(entry.path) || failedBefore.has(entry.resolvedPath);
  // pi's order: the given paths first, then what the project's and the agent's folders hold.
  const seen = new Set();
  const entriesOf = (found) => found.filter((entry) => !seen.has(entry.resolvedPath) && seen.add(entry.resolvedPath));
  const given = paths.map((path) => (isBuiltin(path) ? [] : entriesOf(ops.op_pihost_discover_extensions([path], cwd, agentDir, false, false))));
  const found = entriesOf(ops.op_pihost_discover_extensions([], cwd, agentDir, scan.project, scan.agent));
  const runtime = preloaded?.runtime ?? createExtensionRuntime();
  const toLoad = [...given.flat(), ...found].filter((entry) => !isDone(entry));
  const files = await loadExtensions(toLoad, { cwd, eventBus, runtime, useCache: true });
  const errors = [...(preloaded?.errors ?? []), ...files.errors];
  const byResolvedPath = new Map([...preloadedByPath, ...files.extensions.map((extension) => [extension.resolvedPath, extension])]);
  const loadFactory = async (factory, path) => {
    try {
      return await loadExtensionFromFactory(factory, { path, cwd, eventBus, runtime });
    } catch (error) {
      errors.push({ path, error: error instanceof Error ? error.message : "failed to load extension" });
      return undefined;
    }
  };
  // Built-ins load after the files, and stand where their paths stand.
  const builtinExtensions = new Map();
  for (const path of paths.filter(isBuiltin)) {
    if (failedBefore.has(path)) continue;
    const builtin = builtins.get(path.slice(BUILTIN_PATH_PREFIX.length));
    if (!builtin) {
      errors.push({ path, error: `Unknown built-in extension: ${path}` });
      continue;
    }
    const extension = await loadFactory(builtin.factory, path);
    if (!extension) continue;
    extension.hidden = true;
    extension.replaceable = builtin.replaceable === true;
    builtinExtensions.set(path, extension);
  }
  const ordered = paths.flatMap((path, index) =>
    isBuiltin(path) ? [builtinExtensions.get(path)].filter(Boolean) : given[index].map((entry) => byResolvedPath.get(entry.resolvedPath)).filter(Boolean),
  );
  ordered.push(...found.map((entry) => byResolvedPath.get(entry.resolvedPath)).filter(Boolean));
  const inlineBefore = (preloaded?.extensions ?? []).filter((extension) => extension.path.startsWith("<inline:"));
  // Inline factories ran in the pass before the trust decision, if there was one.
  for (const [index, input] of (preloaded ? [] : factories).entries()) {
    const named = typeof input !== "function";
    const extension = await loadFactory(named ? input.factory : input, `<inline:${named ? input.name : index + 1}>`);
    if (!extension) continue;
    extension.hidden = named && input.hidden;
    extension.replaceable = named && input.replaceable === true;
    ordered.push(extension);
  }
  ordered.push(...inlineBefore);
  const warnings = [...(preloaded?.warnings ?? [])];
  const extensions = withoutReplacedExtensions(ordered, warnings);
  return { extensions, errors: errors.map(({ path, error }) => ({ path, error })), warnings, runtime };
}

/** What an extension registers under names another may take: `kind:name` for its tools, commands and flags. */
function registeredNames(extension) {
  return [
    ...[...extension.tools.keys()].map((name) => `tool:${name}`),
    ...[...extension.commands.keys()].map((name) => `command:${name}`),
    ...[...extension.flags.keys()].map((name) => `flag:${name}`),
  ];
}

/**
 * `extensions` less the replaceable ones that share a tool, command or flag
 * name with one that is not replaceable (a third-party `/mcp` replaces the
 * built-in MCP extension); for a built-in one, pi's warning in `warnings`.
 */
function withoutReplacedExtensions(extensions, warnings) {
  const taken = new Map();
  for (const extension of extensions) {
    if (extension.replaceable) continue;
    for (const name of registeredNames(extension)) if (!taken.has(name)) taken.set(name, extension);
  }
  return extensions.filter((extension) => {
    if (!extension.replaceable) return true;
    const name = registeredNames(extension).find((candidate) => taken.has(candidate));
    if (name === undefined) return true;
    if (extension.path.startsWith(BUILTIN_PATH_PREFIX)) {
      const builtinName = extension.path.slice(BUILTIN_PATH_PREFIX.length);
      const [kind, rawName] = name.split(":", 2);
      const shown = kind === "command" ? `/${rawName}` : kind === "flag" ? `--${rawName}` : rawName;
      warnings.push({
        path: extension.path,
        warning: `Extension ${taken.get(name).path} registers ${kind} \`${shown}\`, so built-in extension \`${builtinName}\` was not loaded. To use \`${builtinName}\`, run \`pi config\` and make sure it is enabled under Built-in extensions, then disable or remove the existing extension. We recommend only having one or the other loaded at a time.`,
      });
    }
    return false;
  });
}
