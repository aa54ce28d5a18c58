// What pi-coding-agent exports that works only inside pihost's engine: it
// reaches the runtime's own discovery, loader and runner, which the Node
// differentials (they import pi-coding-agent.js itself) cannot load. The
// virtual module extensions import takes these names from here
// (src/modules/virtual_map.rs, `facade_source`).
export { discoverAndLoadExtensions } from "./coding-agent/extension-loading.js";
export { ExtensionRunner } from "../runtime/runner.js";
