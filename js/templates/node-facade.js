// `node:/*NAME*/` as an ES module: Node's named exports (as Node 22 gives
// them, reference-data/node-builtins.json) over deno_node's module, which
// loads on first use through the same path `require` takes.
import { nodeModule } from "pihost:platform/bootstrap.js";

const namespace = nodeModule("/*NAME*/");
const moduleExports = namespace.default ?? namespace;
// Node's named exports are its `module.exports` properties, which is also
// where pihost's fixes to Deno's modules are (js/platform/node-fixes.js).
const pick = (name) => (name in moduleExports ? moduleExports[name] : namespace[name]);
export default moduleExports;
/*EXPORTS*/
