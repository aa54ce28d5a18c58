/**
 * named-export-only.ts — a module with named exports and no default export.
 *
 * Demonstrates: a factory exported under another name is not picked up; with no
 * default export the module itself is not a function, so loading fails with
 * `Extension does not export a valid factory function: <path>`.
 *
 * Checklist: L3, L4.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export const version = 1;

export function activate(pi: ExtensionAPI) {
  pi.registerCommand("named-export-should-not-appear", { handler: async () => {} });
}
