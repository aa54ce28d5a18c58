// Records the runtime export names of every module pi 1.6.0 gives extensions
// through its virtual module map, with each value's kind (and the value itself
// when it is a primitive), into reference-data/exports.json.
//
//   node tests/reference/record-exports.mjs <pi-reference-dir> > reference-data/exports.json
//
// The output is data recorded from the reference; regenerate it, never edit it.
import path from "node:path";
import { pathToFileURL } from "node:url";

const referenceDir = process.argv[2];
if (!referenceDir) {
  console.error("usage: record-exports.mjs <pi-reference-dir>");
  process.exit(2);
}
const extensionsDir = path.join(
  referenceDir,
  "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions",
);
const { VIRTUAL_MODULES } = await import(pathToFileURL(path.join(extensionsDir, "virtual-modules.js")).href);

function describe(value) {
  const type = typeof value;
  if (type === "function") {
    const source = Function.prototype.toString.call(value);
    return { kind: /^class[\s{]/.test(source) ? "class" : "function" };
  }
  if (value === null) return { kind: "null" };
  if (type === "object") return { kind: "object" };
  if (type === "undefined") return { kind: "undefined" };
  if (type === "bigint") return { kind: "bigint", value: String(value) };
  if (type === "symbol") return { kind: "symbol", value: value.description ?? "" };
  return { kind: type, value };
}

// Several specifiers name the same module object (both prefixes, root and
// compat); record each distinct object once and map specifiers to it.
const modules = {};
const specifiers = {};
const seen = new Map();
for (const [specifier, namespace] of Object.entries(VIRTUAL_MODULES)) {
  let id = seen.get(namespace);
  if (!id) {
    id = specifier.replace(/^@(earendil-works|mariozechner)\//, "").replace(/^@sinclair\//, "");
    seen.set(namespace, id);
    const exports = {};
    for (const name of Object.keys(namespace).sort()) exports[name] = describe(namespace[name]);
    modules[id] = exports;
  }
  specifiers[specifier] = id;
}
process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", specifiers, modules }, null, 1)}\n`);
