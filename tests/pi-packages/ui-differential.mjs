// Differential test: runs pihost's pi-coding-agent UI exports
// (js/pi/coding-agent/ui/) over the shared case table and compares with
// what pi recorded (reference-data/ui-goldens.json). Run with Node 22:
//
//   node tests/pi-packages/ui-differential.mjs [-v] [filter]

import { readFile } from "node:fs/promises";
import { runCases } from "./ui-cases.mjs";
import { runSelectorAsyncCases } from "./selector-async-cases.mjs";

for (const name of ["WT_SESSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "COLORFGBG"]) delete process.env[name];
process.env.PI_TRUE_COLOR = "1";

const args = process.argv.slice(2);
const verbose = args.includes("-v");
const filter = args.find((a) => !a.startsWith("-"));

const goldens = JSON.parse(await readFile(new URL("../../reference-data/ui-goldens.json", import.meta.url), "utf8"));
const agent = await import("../../js/pi/pi-coding-agent.js");
const tui = await import("../../js/pi/pi-tui.js");
const { currentTheme } = await import("../../js/pi/coding-agent/ui/theme.js");
agent.initTheme("dark");
const actual = runCases({ agent, tui, theme: currentTheme() });
Object.assign(actual, await runSelectorAsyncCases({ agent, tui }));

const show = (v) => JSON.stringify(v);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const missing = new Set();
for (const [id, expected] of Object.entries(goldens.cases)) {
  if (filter && !id.includes(filter)) continue;
  const got = actual[id];
  if (got?.missing) {
    skipped++;
    missing.add(got.missing);
    continue;
  }
  if (show(expected) === show(got)) passed++;
  else {
    failed++;
    failures.push(`${id}\n    expected: ${show(expected)}\n    actual:   ${show(got)}`);
  }
}
for (const id of Object.keys(actual)) {
  if (!(id in goldens.cases) && (!filter || id.includes(filter))) {
    failed++;
    failures.push(`${id}\n    not in the goldens: re-record them (tests/reference/record-ui.mjs)`);
  }
}
for (const f of verbose ? failures : failures.slice(0, 40)) console.log(`FAIL ${f}`);
if (!verbose && failures.length > 40) console.log(`... ${failures.length - 40} more (-v shows all)`);
if (missing.size > 0) console.log(`skipped ${skipped} cases for exports not built yet: ${[...missing].join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
