// `node:/*NAME*/` as an ES module: Node's named exports (as Node 22 gives
// them, reference-data/node-builtins.json) over deno_node's module, which
// loads on first use through the same path `require` takes.
import { nodeModule } from "pihost:platform/bootstrap.js";

const namespace = nodeModule("/*NAME*/");
const moduleExports = namespace.default ?? namespace;
const pick = (name) => (name in namespace ? namespace[name] : moduleExports[name]);
export default moduleExports;
/*EXPORTS*/
