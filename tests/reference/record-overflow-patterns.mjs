// Records the context-overflow patterns pi-ai 1.6.0 hands out through its
// getOverflowPatterns() (the provider error texts isContextOverflow
// recognizes) into reference-data/overflow-patterns.json, from which
// pihost's js/pi/ai/overflow.js builds the same regular expressions.
//
//   node tests/reference/record-overflow-patterns.mjs <pi-reference-dir> > reference-data/overflow-patterns.json
//
// The output is data recorded from the reference; regenerate it with each pi
// release, never edit it. The pi-ai goldens compare the patterns too.
import path from "node:path";
import { pathToFileURL } from "node:url";

const referenceDir = process.argv[2];
if (!referenceDir) {
  console.error("usage: record-overflow-patterns.mjs <pi-reference-dir>");
  process.exit(2);
}
const virtualModules = path.join(
  referenceDir,
  "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions/virtual-modules.js",
);
const { VIRTUAL_MODULES } = await import(pathToFileURL(virtualModules).href);
const ai = VIRTUAL_MODULES["@earendil-works/pi-ai"];
const patterns = ai.getOverflowPatterns().map((pattern) => ({ source: pattern.source, flags: pattern.flags }));
// One pattern a line: diffs of a regenerated list stay readable.
const lines = patterns.map((pattern) => `  ${JSON.stringify(pattern)}`);
process.stdout.write(`{\n "piVersion": "1.6.0",\n "patterns": [\n${lines.join(",\n")}\n ]\n}\n`);
