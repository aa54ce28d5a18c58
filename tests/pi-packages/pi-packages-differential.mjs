// Differential test: runs the shared case table against pihost's js/pi
// modules under Node and compares every result with the goldens recorded from
// pi 1.6.0 (reference-data/pi-packages-goldens.json). Run with Node 22:
//   node tests/pi-packages/pi-packages-differential.mjs [-v]
import { readFile } from "node:fs/promises";
import { codeImporter } from "./code-importer.mjs";
import { buildCases, runCase } from "./pi-packages-cases.mjs";

const root = new URL("../../", import.meta.url);
const goldens = JSON.parse(await readFile(new URL("reference-data/pi-packages-goldens.json", root), "utf8")).cases;
// The recorded tables come from pihost's op in the isolate; here, from their files (AgentSession's retry reads the overflow patterns).
const referenceData = {};
for (const name of ["model-catalog", "overflow-patterns"]) {
  referenceData[name] = await readFile(new URL(`reference-data/${name}.json`, root), "utf8");
}
// Codemode compiles the QuickJS wasm that pihost embeds (op_pihost_quickjs_wasm): here, the vendored file.
const quickjsWasm = await readFile(new URL("js/vendor/quickjs-wasi/quickjs.wasm", root));
globalThis.Deno ??= {
  core: {
    ops: {
      op_pihost_reference_data: (name) => referenceData[name],
      op_pihost_quickjs_wasm: () => new Uint8Array(quickjsWasm),
    },
  },
};

const cases = buildCases({
  typebox: await import("../../js/pi/typebox.js"),
  value: await import("../../js/pi/typebox/value.js"),
  compile: await import("../../js/pi/typebox/compile.js"),
  ai: await import("../../js/pi/pi-ai.js"),
  // pihost's codemode is built and checked here, but not exported to
  // extensions yet: its scripts need a sandbox the engine cannot host
  // (docs/engine-notes.md, note 46).
  agent: {
    ...(await import("../../js/pi/pi-coding-agent.js")),
    createCodemodeExtension: (await import("../../js/pi/coding-agent/codemode/index.js")).createCodemodeExtension,
  },
  importCode: codeImporter(),
});

const verbose = process.argv.includes("-v");
let passed = 0;
const failures = [];
const names = new Set();
for (const { name, run } of cases) {
  names.add(name);
  const expected = goldens[name];
  const actual = await runCase(run);
  if (expected === undefined) {
    failures.push(`${name}\n    no golden (re-record reference-data/pi-packages-goldens.json)`);
    continue;
  }
  const [want, got] = [JSON.stringify(expected), JSON.stringify(actual)];
  if (want === got) {
    passed++;
    if (verbose) console.log(`ok ${name}`);
  } else {
    failures.push(`${name}\n    pi:     ${want}\n    pihost: ${got}`);
  }
}
for (const name of Object.keys(goldens)) {
  if (!names.has(name)) failures.push(`${name}\n    golden without a case`);
}
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length > 0 ? 1 : 0);
