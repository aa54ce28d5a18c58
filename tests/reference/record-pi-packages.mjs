// Records what pi 1.6.0's own packages return for the shared case table
// (tests/pi-packages/pi-packages-cases.mjs): TypeBox builders and Value /
// Compile results, pi-ai's tool argument validation, pi-coding-agent's
// helpers. The modules are the ones pi gives extensions (its virtual map).
//
//   node tests/reference/record-pi-packages.mjs <pi-reference-dir> > reference-data/pi-packages-goldens.json
//
// The output is data recorded from the reference; regenerate it, never edit it.
import { buildCases, runCase } from "../pi-packages/pi-packages-cases.mjs";
import { codeImporter } from "../pi-packages/code-importer.mjs";
import { referenceVirtualModules } from "./reference-modules.mjs";

const VIRTUAL_MODULES = await referenceVirtualModules("record-pi-packages.mjs");

const cases = buildCases({
  typebox: VIRTUAL_MODULES.typebox,
  value: VIRTUAL_MODULES["typebox/value"],
  compile: VIRTUAL_MODULES["typebox/compile"],
  ai: VIRTUAL_MODULES["@earendil-works/pi-ai"],
  agent: VIRTUAL_MODULES["@earendil-works/pi-coding-agent"],
  importCode: codeImporter(process.argv[2]),
});
const results = {};
for (const { name, run } of cases) {
  if (Object.hasOwn(results, name)) throw new Error(`duplicate case name: ${name}`);
  results[name] = await runCase(run);
}
process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", cases: results }, null, 1)}\n`);
