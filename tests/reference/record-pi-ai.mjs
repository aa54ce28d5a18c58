// Records what pi 1.6.0's pi-ai (the module extensions import, pi's virtual
// map entry for "@earendil-works/pi-ai") returns for the shared case table
// (tests/pi-packages/pi-ai-cases.mjs). Model calls are answered by pi-ai's own
// faux provider, registered per case through pi-ai's registry, streaming the
// case's final message with one chunk per content block.
//
//   node tests/reference/record-pi-ai.mjs <pi-reference-dir> > reference-data/pi-ai-goldens.json
//
// The output is data recorded from the reference; regenerate it, never edit it.
import { buildCases, runCase } from "../pi-packages/pi-ai-cases.mjs";
import { referenceVirtualModules } from "./reference-modules.mjs";

const VIRTUAL_MODULES = await referenceVirtualModules("record-pi-ai.mjs");
const ai = VIRTUAL_MODULES["@earendil-works/pi-ai"];
const aiModels = VIRTUAL_MODULES["@earendil-works/pi-ai/models"];
const aiProviders = VIRTUAL_MODULES["@earendil-works/pi-ai/providers/all"];

// Far larger than any text in the cases, so every block is one chunk.
const ONE_CHUNK = 1_000_000;

const env = {
  async withAnswer(model, message, run) {
    const faux = ai.registerFauxProvider({
      api: model.api,
      provider: model.provider,
      tokenSize: { min: ONE_CHUNK, max: ONE_CHUNK },
    });
    faux.setResponses([message]);
    try {
      return await run();
    } finally {
      faux.unregister();
    }
  },
  withoutProvider: (run) => run(),
};

const results = {};
for (const { name, run } of buildCases({ ai, aiModels, aiProviders, env })) {
  if (Object.hasOwn(results, name)) throw new Error(`duplicate case name: ${name}`);
  results[name] = await runCase(run);
}
process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", cases: results }, null, 1)}\n`);
