/**
 * older-pi-imports.ts — an extension written against an older pi.
 *
 * Demonstrates: names pi 1.6.0 no longer exports (pi-tui's
 * `getEditorKeybindings`, pi-ai's `loginOpenAICodex`) and a name a helper
 * file does not have are imported anyway. As under jiti, such an import is
 * `undefined` rather than a load error, so the extension loads and picks
 * whichever API the running pi has; only calling a missing name would fail.
 * The command description reports, at load time, which names were there.
 *
 * Checklist: L9 (lenient named imports), L2.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { getEditorKeybindings, getKeybindings } from "@earendil-works/pi-tui";
import { loginOpenAICodex } from "@earendil-works/pi-ai/oauth";
import { formatList, legacyFormat } from "./index-folder/lib/format";

export default function olderPiImports(pi: ExtensionAPI) {
  const keybindings = typeof getEditorKeybindings === "function" ? "getEditorKeybindings" : "getKeybindings";
  const parts = [
    `keybindings from ${keybindings} (${typeof getKeybindings})`,
    `loginOpenAICodex: ${typeof loginOpenAICodex}`,
    `legacyFormat: ${typeof legacyFormat}`,
    `formatList: ${typeof formatList}`,
  ];
  pi.registerCommand("older-pi-imports", {
    description: parts.join("; "),
    handler: async () => {},
  });
}
