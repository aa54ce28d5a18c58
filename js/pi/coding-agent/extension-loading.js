// pi's discoverAndLoadExtensions: pi's discovery (the project's
// .pi/extensions, then the agent dir's extensions, then the paths given, as
// src/discovery.rs does it for pihost itself), and the extensions loaded
// into this runtime by pihost's own loader, as pi loads them into its
// process. A sandbox checks the folders discovery reads and every module
// the extensions import.
import { createEventBus } from "../../runtime/event-bus.js";
import { createExtensionRuntime } from "../../runtime/extension-runtime.js";
import { loadExtensions } from "../../runtime/loader.js";
import { ops } from "../../runtime/ops.js";
import { getAgentDir } from "./agent-dir.js";
import { resolvePath } from "./paths.js";

export async function discoverAndLoadExtensions(configuredPaths, cwd, agentDir = getAgentDir(), eventBus) {
  const resolvedCwd = resolvePath(cwd);
  const entries = ops.op_pihost_discover_extensions([...configuredPaths], resolvedCwd, resolvePath(agentDir));
  const runtime = createExtensionRuntime();
  const { extensions, errors } = await loadExtensions(entries, {
    cwd: resolvedCwd,
    eventBus: eventBus ?? createEventBus(),
    runtime,
  });
  return { extensions, errors, runtime };
}
