// pi's createAgentSessionServices: the cwd-bound services a session is made
// from (model runtime, settings, a reloaded DefaultResourceLoader), with the
// diagnostics of applying what extensions registered and the extension flag
// values given. It makes no session; createAgentSessionFromServices does.
import { getAgentDir } from "./agent-dir.js";
import { ModelRuntime } from "./model-runtime.js";
import { resolvePath } from "./paths.js";
import { DefaultResourceLoader } from "./resource-loader.js";
import { SettingsManager } from "./settings-manager.js";

const errorMessage = (error) => (error instanceof Error ? error.message : String(error));

/** Registers what extensions queued on `runtime[queue]` with `register`; failures become diagnostics. */
function drainRegistrations(runtime, queue, register, diagnostics) {
  for (const registration of runtime[queue]) {
    try {
      register(registration);
    } catch (error) {
      diagnostics.push({ type: "error", message: `Extension "${registration.extensionPath}" error: ${errorMessage(error)}` });
    }
  }
  runtime[queue] = [];
}

/** Sets the extension flags given on the runtime: booleans to true, others to their string value. */
function applyExtensionFlagValues(resourceLoader, flagValues) {
  if (!flagValues) return [];
  const diagnostics = [];
  const { extensions, runtime } = resourceLoader.getExtensions();
  const flagTypes = new Map();
  for (const extension of extensions) for (const [name, flag] of extension.flags) flagTypes.set(name, flag.type);
  const unknown = [];
  for (const [name, value] of flagValues) {
    const type = flagTypes.get(name);
    if (type === undefined) unknown.push(name);
    else if (type === "boolean") runtime.flagValues.set(name, true);
    else if (typeof value === "string") runtime.flagValues.set(name, value);
    else diagnostics.push({ type: "error", message: `Extension flag "--${name}" requires a value` });
  }
  if (unknown.length > 0) {
    diagnostics.push({ type: "error", message: `Unknown option${unknown.length === 1 ? "" : "s"}: ${unknown.map((name) => `--${name}`).join(", ")}` });
  }
  return diagnostics;
}

export async function createAgentSessionServices(options) {
  const cwd = resolvePath(options.cwd);
  const agentDir = options.agentDir ? resolvePath(options.agentDir) : getAgentDir();
  // pi makes one over <agentDir>/auth.json and models.json; pihost's is the host's (model-runtime.js).
  const modelRuntime = options.modelRuntime ?? (await ModelRuntime.create());
  const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
  const resourceLoader = new DefaultResourceLoader({ ...(options.resourceLoaderOptions ?? {}), cwd, agentDir, settingsManager });
  await resourceLoader.reload(options.resourceLoaderReloadOptions);

  const diagnostics = [];
  const { runtime } = resourceLoader.getExtensions();
  drainRegistrations(runtime, "pendingProviderRegistrations", ({ name, config }) => modelRuntime.registerProvider(name, config), diagnostics);
  drainRegistrations(runtime, "pendingNativeProviderRegistrations", ({ provider }) => modelRuntime.registerNativeProvider(provider), diagnostics);
  drainRegistrations(runtime, "pendingVirtualModelRegistrations", ({ definition }) => modelRuntime.registerVirtualModel(definition), diagnostics);
  await modelRuntime.refresh({ allowNetwork: false });
  diagnostics.push(...applyExtensionFlagValues(resourceLoader, options.extensionFlagValues));
  return { cwd, agentDir, modelRuntime, settingsManager, resourceLoader, diagnostics };
}
