// Records what pi 1.6.0's built-in tools (read, write, edit, ls, find, grep,
// bash) return for the shared case table (tests/pi-packages/builtin-tools-cases.mjs),
// run over a fresh fixture in a temp dir, which the output names "<cwd>".
// grep and find run the rg and fd found on PATH (rg 13, fd 8.6 when recorded).
//
//   node tests/reference/record-builtin-tools.mjs <pi-reference-dir> > reference-data/builtin-tools-goldens.json
//
// The output is data recorded from the reference; regenerate it, never edit it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAll } from "../pi-packages/builtin-tools-cases.mjs";
import { referenceVirtualModules } from "./reference-modules.mjs";

const VIRTUAL_MODULES = await referenceVirtualModules("record-builtin-tools.mjs");

const dir = await mkdtemp(path.join(tmpdir(), "pihost-builtin-tools-"));
try {
  const results = await runAll(VIRTUAL_MODULES["@earendil-works/pi-coding-agent"], dir);
  process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", ...results }, null, 1)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
