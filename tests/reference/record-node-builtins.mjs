// Records the names of Node's built-in modules (as the reference's Node 22
// reports them) into reference-data/node-builtins.json, so pihost can tell a
// built-in it does not provide ("pihost: node:x is not available") from a
// package name.
//
//   node tests/reference/record-node-builtins.mjs > reference-data/node-builtins.json
import { builtinModules } from "node:module";

const names = [...new Set(builtinModules.map((name) => name.replace(/^node:/, "")))].sort();
process.stdout.write(`${JSON.stringify({ nodeVersion: process.version, builtins: names }, null, 1)}\n`);
