// Records pi's UI exports over the shared case table
// (tests/pi-packages/ui-cases.mjs): pi's "dark" theme in truecolor, the
// themes derived from it, key hints, borders, the bordered loader.
//
//   NODE tests/reference/record-ui.mjs ~/.cache/pi-reference/1.6.0 > reference-data/ui-goldens.json
//
// The output is data recorded from the reference; regenerate it, never edit it.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runCases } from "../pi-packages/ui-cases.mjs";
import { runSelectorAsyncCases } from "../pi-packages/selector-async-cases.mjs";

const referenceDir = process.argv[2];
if (!referenceDir) {
  console.error("usage: record-ui.mjs <pi-reference-dir>");
  process.exit(2);
}
for (const name of ["WT_SESSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "COLORFGBG"]) delete process.env[name];
process.env.PI_TRUE_COLOR = "1";
process.env.PI_HYPERLINKS = "0";

const modules = path.join(referenceDir, "node_modules");
const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
// Attributes come from chalk, which emits nothing when stdout is not a
// terminal; pi's interface always runs on one.
const { default: chalk } = await load("chalk/source/index.js");
chalk.level = 3;
const { VIRTUAL_MODULES } = await load("@earendil-works/pi-coding-agent/dist/core/extensions/virtual-modules.js");
const { theme } = await load("@earendil-works/pi-coding-agent/dist/modes/interactive/theme/theme.js");
const agent = VIRTUAL_MODULES["@earendil-works/pi-coding-agent"];
agent.initTheme("dark");

const cases = runCases({ agent, tui: VIRTUAL_MODULES["@earendil-works/pi-tui"], theme });
Object.assign(cases, await runSelectorAsyncCases({ agent, tui: VIRTUAL_MODULES["@earendil-works/pi-tui"] }));
process.stdout.write(`${JSON.stringify({ piVersion: "1.6.0", cases }, null, 1)}\n`);
