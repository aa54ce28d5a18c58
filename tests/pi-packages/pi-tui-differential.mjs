// Differential test: runs pihost's pi-tui (js/pi/pi-tui.js) over the shared
// case table and compares with the real pi-tui's recorded output
// (reference-data/pi-tui-goldens.json). Run with Node 22:
//
//   node tests/pi-packages/pi-tui-differential.mjs [-v] [filter]
//
// Cases for exports pihost does not have yet are counted as skipped.

import { readFile } from "node:fs/promises";
import { runAsyncCases } from "./pi-tui-async-cases.mjs";
import { runCases } from "./pi-tui-cases.mjs";

for (const name of ["WT_SESSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]) delete process.env[name];

const args = process.argv.slice(2);
const verbose = args.includes("-v");
const filter = args.find((a) => !a.startsWith("-"));

const goldens = JSON.parse(await readFile(new URL("../../reference-data/pi-tui-goldens.json", import.meta.url), "utf8"));
const tui = await import("../../js/pi/pi-tui.js");
const actual = { ...runCases(tui), ...(await runAsyncCases(tui)) };

const show = (v) => JSON.stringify(v);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const missing = new Set();

// matchesKey results are one "0"/"1" per key id; name the ids that differ.
function keyDiff(expected, got) {
  const ids = goldens.cases.keyIds.value;
  const e = expected.value ?? "";
  const a = got.value ?? "";
  const out = [];
  for (let i = 0; i < ids.length; i++) if (e[i] !== a[i]) out.push(`${ids[i]}: expected ${e[i] === "1"}`);
  return out.join(", ");
}

for (const [id, expected] of Object.entries(goldens.cases)) {
  if (filter && !id.includes(filter)) continue;
  const got = actual[id];
  if (got?.missing) {
    skipped++;
    missing.add(got.missing);
    continue;
  }
  if (show(expected) === show(got)) {
    passed++;
    continue;
  }
  failed++;
  let detail = `${id}\n    expected: ${show(expected)}\n    actual:   ${show(got)}`;
  if (id.startsWith("matchesKey/") && expected.value && got?.value) detail += `\n    differs: ${keyDiff(expected, got)}`;
  failures.push(detail);
}
for (const id of Object.keys(actual)) {
  if (!(id in goldens.cases) && (!filter || id.includes(filter))) {
    failed++;
    failures.push(`${id}\n    not in the goldens: re-record them (tests/reference/record-pi-tui.mjs)`);
  }
}

for (const f of verbose ? failures : failures.slice(0, 40)) console.log(`FAIL ${f}`);
if (!verbose && failures.length > 40) console.log(`... ${failures.length - 40} more (-v shows all)`);
if (missing.size > 0) console.log(`skipped ${skipped} cases for exports not built yet: ${[...missing].join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
