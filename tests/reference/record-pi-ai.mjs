// Records what pi 1.6.0's pi-ai (the module extensions import, pi's virtual
// map entry for "@earendil-works/pi-ai") returns for the shared case table
// (tests/pi-packages/pi-ai-cases.mjs), pi-agent-core's cases included. Model
// calls are answered by pi-ai's own faux provider, registered per case
// through pi-ai's registry, streaming the case's final message with one
// chunk per content block.
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
const core = VIRTUAL_MODULES["@earendil-works/pi-agent-core"];

// Far larger than any text in the cases, so every block is one chunk.
const ONE_CHUNK = 1_000_000;

async function withFauxResponses(model, responses, run) {
  const faux = ai.registerFauxProvider({
    api: model.api,
    provider: model.provider,
    tokenSize: { min: ONE_CHUNK, max: ONE_CHUNK },
  });
  faux.setResponses(responses);
  try {
    return await run();
  } finally {
    faux.unregister();
  }
}

const env = {
  withAnswer: (model, message, run) => withFauxResponses(model, [message], run),
  // The faux provider calls a function response with the transcript and the options first, as the cases expect.
  withAnswers: (model, steps, run) => withFauxResponses(model, steps, run),
  withoutProvider: (run) => run(),
};

const results = {};
for (const { name, run } of buildCases({ ai, aiModels, aiProviders, core, env })) {
  if (Object.hasOwn(results, name)) throw new Error(`duplicate case name: ${name}`);
  results[name] = await runCase(run);
}
process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", cases: results }, null, 1)}\n`);
