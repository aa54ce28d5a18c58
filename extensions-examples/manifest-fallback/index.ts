/**
 * manifest-fallback/index.ts — loaded because the manifest lists only missing files.
 *
 * Demonstrates: package.json's pi.extensions names two files that do not exist;
 * with no existing entry left, discovery falls back to this index.ts. No error
 * is reported for the missing files.
 *
 * Checklist: D2, D3 (fallback to index.ts when no manifest path exists).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function manifestFallback(pi: ExtensionAPI) {
  pi.registerCommand("manifest-fallback", {
    description: "Loaded through index.ts after every manifest path was missing",
    handler: async () => {},
  });
}
