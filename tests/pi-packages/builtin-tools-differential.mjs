// Differential test: runs the built-in tool cases (builtin-tools-cases.mjs)
// against pihost's js/pi/pi-coding-agent.js under Node, over a fresh fixture,
// and compares every result with the goldens recorded from pi 1.6.0
// (reference-data/builtin-tools-goldens.json). grep and find use the
// search backend's fallback here, which runs rg and fd from PATH. Run with
// Node 22:
//   node tests/pi-packages/builtin-tools-differential.mjs [-v] [name filter]
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCases, compareAll } from "./builtin-tools-cases.mjs";

const root = new URL("../../", import.meta.url);
const goldens = JSON.parse(await readFile(new URL("reference-data/builtin-tools-goldens.json", root), "utf8"));
const agent = await import("../../js/pi/pi-coding-agent.js");

const verbose = process.argv.includes("-v");
const filter = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const dir = await mkdtemp(join(tmpdir(), "pihost-builtin-tools-"));
let report;
try {
  report = await compareAll(agent, dir, goldens, { filter, withoutEngine: true });
} finally {
  await rm(dir, { recursive: true, force: true });
}
if (verbose) for (const name of report.passed) console.log(`ok ${name}`);
for (const note of report.divergences) console.log(`KNOWN ${note}`);
for (const failure of report.failures) console.log(`FAIL ${failure}`);
const skipped = report.skipped.length ? `, ${report.skipped.length} skipped (they need pihost's image ops)` : "";
console.log(`${report.passed.length} passed, ${report.failures.length} failed${report.divergences.length ? `, ${report.divergences.length} known divergences` : ""}${skipped}`);
process.exit(report.failures.length > 0 ? 1 : 0);
