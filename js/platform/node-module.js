// node:module: createRequire and the list of built-in names.
import { createRequire as createRequireForFile } from "pihost:runtime/module-globals.js";
import { nodeModuleNames } from "pihost:platform/bootstrap.js";

/** A `require` for code at `filename` (a path or a file: URL). */
export function createRequire(filename) {
  const text = typeof filename === "string" ? filename : String(filename?.href ?? filename);
  const path = text.startsWith("file://") ? decodeURIComponent(text.slice(7).replace(/[?#].*$/, "")) : text;
  return createRequireForFile(path);
}

/** Node's public built-in names (no `_`-prefixed or internal ones). */
export const builtinModules = [...nodeModuleNames, "module"]
  .filter((name) => !name.startsWith("_") && !name.startsWith("internal/"))
  .sort();

/** Whether `name` (with or without `node:`) is a built-in module. */
export function isBuiltin(name) {
  const bare = String(name).replace(/^node:/, "");
  return bare === "module" || nodeModuleNames.has(bare);
}

export default { createRequire, builtinModules, isBuiltin };
