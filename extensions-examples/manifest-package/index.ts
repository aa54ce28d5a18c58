/**
 * manifest-package/index.ts — must NOT be loaded.
 *
 * Demonstrates: when package.json's pi.extensions yields at least one existing
 * file, the directory's index.ts is ignored. If this command ever shows up in a
 * listing, the host fell back to index.ts when it should not have.
 *
 * Checklist: D2, D3.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function shouldNotLoad(pi: ExtensionAPI) {
  pi.registerCommand("manifest-index-should-not-load", {
    description: "Loaded manifest-package/index.ts although the manifest had entries",
    handler: async () => {},
  });
}
