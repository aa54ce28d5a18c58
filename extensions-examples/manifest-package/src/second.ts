/**
 * manifest-package/src/second.ts — third manifest entry (the second one is missing).
 *
 * Demonstrates: loading continues past the missing "./src/missing.ts" without an
 * error entry, and this file is still loaded after main.ts.
 *
 * Checklist: D2, D3, L4 (other entries load in order), L7.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { entryLabel } from "./shared/label.ts";

export default (pi: ExtensionAPI) => {
  pi.registerCommand("manifest-second", {
    description: entryLabel("second", 3),
    handler: async () => {},
  });
};
