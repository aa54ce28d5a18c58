// Records the real pi-tui's behaviour over the shared case table
// (tests/pi-packages/pi-tui-cases.mjs) as JSON:
//
//   NODE tests/reference/record-pi-tui.mjs ~/.cache/pi-reference/1.6.0 \
//     > reference-data/pi-tui-goldens.json

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runAsyncCases } from "../pi-packages/pi-tui-async-cases.mjs";
import { runCases } from "../pi-packages/pi-tui-cases.mjs";

const installDir = process.argv[2];
if (!installDir) {
  console.error("usage: record-pi-tui.mjs <pi reference install dir>");
  process.exit(2);
}
// Raw BS means ctrl+backspace only inside Windows Terminal; record the
// ordinary terminal.
for (const name of ["WT_SESSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]) delete process.env[name];
// Markdown links print their URL in the text, as pihost does, instead of
// OSC 8 hyperlinks whose use depends on the terminal.
process.env.PI_HYPERLINKS = "0";

const entry = join(installDir, "node_modules/@earendil-works/pi-tui/dist/index.js");
const tui = await import(pathToFileURL(entry).href);
const pkg = JSON.parse(
  await (await import("node:fs/promises")).readFile(join(installDir, "node_modules/@earendil-works/pi-tui/package.json"), "utf8"),
);
const cases = { ...runCases(tui), ...(await runAsyncCases(tui)) };
process.stdout.write(
  `${JSON.stringify({ piTuiVersion: pkg.version, node: process.versions.node, cases }, null, 1)}\n`,
);
