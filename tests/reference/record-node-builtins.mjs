// Records Node's built-in modules as the reference's Node 22 gives them to
// ES modules — each name, and the names `import { x } from "node:<name>"`
// can take — into reference-data/node-builtins.json. pihost uses it to tell
// a built-in it does not provide ("pihost: node:x is not available") from a
// package name, and to give each `node:` module Node's named exports.
//
//   node tests/reference/record-node-builtins.mjs > reference-data/node-builtins.json
import { builtinModules } from "node:module";

const names = [...new Set(builtinModules.map((name) => name.replace(/^node:/, "")))].sort();
const exports = {};
for (const name of names) {
  try {
    const namespace = await import(`node:${name}`);
    exports[name] = Object.keys(namespace)
      .filter((key) => key !== "default")
      .sort();
  } catch {
    // Built-ins Node lists but does not load without a flag (node:sqlite, …).
  }
}
process.stdout.write(`${JSON.stringify({ nodeVersion: process.version, builtins: names, exports }, null, 1)}\n`);
