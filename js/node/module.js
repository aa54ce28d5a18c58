// node:module: createRequire and the list of built-in names.
import { createRequire as createRequireForFile } from "pihost:runtime/module-globals.js";

/** A `require` for code at `filename` (a path or a file: URL). */
export function createRequire(filename) {
  const text = typeof filename === "string" ? filename : String(filename?.href ?? filename);
  const path = text.startsWith("file://") ? decodeURIComponent(text.slice(7).replace(/[?#].*$/, "")) : text;
  return createRequireForFile(path);
}

export const builtinModules = ["assert", "buffer", "child_process", "events", "fs", "module", "os", "path", "url"];

export default { createRequire, builtinModules };
