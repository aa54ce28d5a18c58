/**
 * not-a-function.ts — the default export is an object, not a factory.
 *
 * Demonstrates: the module evaluates fine, but its default export is a plain
 * object (with a function inside it, which does not count), so loading fails
 * with `Extension does not export a valid factory function: <path>`.
 *
 * Checklist: L3, L4.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const notAFactory = {
  name: "not-a-function",
  setup(pi: ExtensionAPI) {
    pi.registerCommand("not-a-function-should-not-appear", { handler: async () => {} });
  },
};

export default notAFactory;
