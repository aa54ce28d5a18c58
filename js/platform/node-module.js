// node:module: pihost's CommonJS system (js/runtime/module-globals.js)
// provides it, so that `require("module")` and `import("node:module")` are
// one object, as in Node.
import { nodeModuleApi } from "pihost:runtime/module-globals.js";

export const { createRequire, builtinModules, isBuiltin } = nodeModuleApi;
export default nodeModuleApi;
