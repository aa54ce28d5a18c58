// Records the context-overflow patterns pi-ai 1.6.0 hands out through its
// getOverflowPatterns() (the provider error texts isContextOverflow
// recognizes) into reference-data/overflow-patterns.json, from which
// pihost's js/pi/ai/overflow.js builds the same regular expressions.
//
//   node tests/reference/record-overflow-patterns.mjs <pi-reference-dir> > reference-data/overflow-patterns.json
//
// The output is data recorded from the reference; regenerate it with each pi
// release, never edit it. The pi-ai goldens compare the patterns too.
import { referenceVirtualModules } from "./reference-modules.mjs";

const VIRTUAL_MODULES = await referenceVirtualModules("record-overflow-patterns.mjs");
const ai = VIRTUAL_MODULES["@earendil-works/pi-ai"];
const patterns = ai.getOverflowPatterns().map((pattern) => ({ source: pattern.source, flags: pattern.flags }));
// One pattern a line: diffs of a regenerated list stay readable.
const lines = patterns.map((pattern) => `  ${JSON.stringify(pattern)}`);
process.stdout.write(`{\n "piVersion": "1.6.0",\n "patterns": [\n${lines.join(",\n")}\n ]\n}\n`);
