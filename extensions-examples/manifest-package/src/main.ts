/**
 * manifest-package/src/main.ts — first entry of a package.json manifest.
 *
 * Demonstrates: a directory whose package.json has `pi.extensions` loads exactly
 * the listed files that exist, in listed order. "./src/missing.ts" is listed but
 * absent and is dropped without an error; "../index.ts" exists but is ignored
 * because the manifest yielded entries. The shared helper below is imported by
 * both entries and is never loaded as an extension itself.
 *
 * Checklist: D2 (subdirectory with package.json manifest), D3 (missing manifest
 * paths dropped silently; index.ts not used when the manifest has entries),
 * L7 (relative import of a sibling module).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { entryLabel } from "./shared/label.ts";

export default function manifestMain(pi: ExtensionAPI) {
  pi.registerCommand("manifest-main", {
    description: entryLabel("main", 1),
    handler: async () => {},
  });
}
