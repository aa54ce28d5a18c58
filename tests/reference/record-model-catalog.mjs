// Records pi-ai's built-in model catalog (pi 1.6.0's generated chat, image
// and classifier models of every provider, each built-in provider's name,
// endpoint and headers, and the catalog's generation time) into
// reference-data/model-catalog.json, which pihost serves to
// getModel/getModels/getProviders and pi-ai/providers/all's readers.
//
//   node tests/reference/record-model-catalog.mjs <pi-reference-dir> > reference-data/model-catalog.json
//
// The output is data recorded from the reference; regenerate it with each pi
// release, never edit it. The pi-ai goldens (record-pi-ai.mjs) include a
// digest of the whole catalog, so a stale copy fails the tests.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const referenceDir = process.argv[2];
if (!referenceDir) {
  console.error("usage: record-model-catalog.mjs <pi-reference-dir>");
  process.exit(2);
}
const piAi = path.join(referenceDir, "node_modules/@earendil-works/pi-ai");
const { version } = JSON.parse(await readFile(path.join(piAi, "package.json"), "utf8"));
const generated = await import(pathToFileURL(path.join(piAi, "dist/models.generated.js")).href);
const manifest = JSON.parse(await readFile(path.join(piAi, "dist/providers/data/.manifest.json"), "utf8"));

// Each built-in provider's description (name, endpoint, fixed headers), in
// pi's order: what a host-served provider shows without building pi-ai's
// provider objects.
const { builtinProviders } = await import(pathToFileURL(path.join(piAi, "dist/providers/all.js")).href);
const providers = Object.fromEntries(
  builtinProviders().map((provider) => [provider.id, { name: provider.name, baseUrl: provider.baseUrl, headers: provider.headers }]),
);

const catalog = {
  piAiVersion: version,
  generatedAt: manifest.generatedAt,
  providers,
  models: generated.MODELS,
  imageModels: generated.IMAGE_MODELS,
  classifierModels: generated.CLASSIFIER_MODELS,
};
// One provider a line: diffs of a regenerated catalog stay readable.
const lines = [];
for (const [key, value] of Object.entries(catalog)) {
  if (value === null || typeof value !== "object") {
    lines.push(` ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    continue;
  }
  const providers = Object.entries(value).map(([provider, models]) => `  ${JSON.stringify(provider)}: ${JSON.stringify(models)}`);
  lines.push(` ${JSON.stringify(key)}: {\n${providers.join(",\n")}\n }`);
}
process.stdout.write(`{\n${lines.join(",\n")}\n}\n`);
