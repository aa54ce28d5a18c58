/**
 * not-discovered/helper.ts — must NOT be loaded.
 *
 * Demonstrates: a subdirectory with neither package.json nor index.ts/index.js
 * yields nothing; files inside it are not scanned (no recursion). If this
 * command ever shows up, the host looked too deep.
 *
 * Checklist: D2 (no deeper recursion), D3 (a directory with nothing yields nothing).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function notDiscovered(pi: ExtensionAPI) {
  pi.registerCommand("not-discovered-should-not-load", {
    description: "Loaded a file from a subdirectory without an entry point",
    handler: async () => {},
  });
}
