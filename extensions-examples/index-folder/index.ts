/**
 * index-folder/index.ts — a directory extension found through its index.ts.
 *
 * Demonstrates: a subdirectory without package.json is loaded through index.ts;
 * the entry imports a relative TypeScript helper (./lib/format.ts, which itself
 * imports a JSON file without an import attribute) and a JSON file with the
 * `with { type: "json" }` attribute. The command description is built from the
 * imported data, so wrong JSON handling shows up as a different string.
 *
 * Checklist: D2 (index.ts of a subdirectory), L1, L7 (relative imports and JSON
 * imports, both with and without the attribute).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import data from "./data.json" with { type: "json" };
import { formatList, unitLabel } from "./lib/format.ts";

export default function indexFolder(pi: ExtensionAPI) {
  const names = data.commands.map((entry) => entry.name);
  pi.registerCommand(data.primary, {
    description: `${data.title}: ${formatList(names)} (${unitLabel(names.length)})`,
    handler: async (_args, ctx) => {
      ctx.ui.notify(formatList(names), "info");
    },
  });
}
