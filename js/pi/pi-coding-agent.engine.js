// What pi-coding-agent exports that works only inside pihost's engine: it
// reaches the runtime's own discovery, loader and runner, which the Node
// differentials (they import pi-coding-agent.js itself) cannot load. The
// virtual module extensions import takes these names from here
// (src/modules/virtual_map.rs, `facade_source`). Evaluating it also gives the
// package's resource loaders and sessions the runtime's loader and runner
// (coding-agent/extension-support.js).
import { createEventBus } from "../runtime/event-bus.js";
import { ExtensionRunner } from "../runtime/runner.js";
import { loadResourceLoaderExtensions } from "./coding-agent/extension-loading.js";
import { provideExtensionSupport } from "./coding-agent/extension-support.js";
import { wrapRegisteredTools } from "./coding-agent/registered-tools.js";

export { discoverAndLoadExtensions } from "./coding-agent/extension-loading.js";
export { ExtensionRunner };

provideExtensionSupport({ createEventBus, loadResourceLoaderExtensions, ExtensionRunner, wrapRegisteredTools });
