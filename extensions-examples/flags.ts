/**
 * flags.ts — CLI flag registration and getFlag during load.
 *
 * Demonstrates: a boolean flag with a default, a string flag with a default and
 * a string flag without one; getFlag of its own flags during load returns the
 * defaults (undefined for the flag without a default), getFlag of a flag this
 * extension did not register returns undefined ("cjs-debug" belongs to
 * cjs-style.js, which loads earlier and gives it a default), and registering the same flag
 * name again with another default keeps the FIRST default as the value
 * (while the flag record itself is replaced by the second registration).
 * The observations are written into a command description.
 *
 * Checklist: A1 (registerFlag), A6 (flag defaults queued during loading,
 * committed when the factory resolves), A9 (getFlag only for own flags; first
 * default wins).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const show = (value: unknown): string => (value === undefined ? "undefined" : JSON.stringify(value));

export default function flags(pi: ExtensionAPI) {
  pi.registerFlag("example-verbose", {
    description: "Print more detail",
    type: "boolean",
    default: false,
  });
  pi.registerFlag("example-mode", {
    description: "Which mode to start in",
    type: "string",
    default: "fast",
  });
  pi.registerFlag("example-target", {
    description: "A string flag without a default",
    type: "string",
  });

  const before = pi.getFlag("example-mode");

  // Same name, different default: the value stays "fast".
  pi.registerFlag("example-mode", {
    description: "Which mode to start in (registered twice)",
    type: "string",
    default: "slow",
  });

  const observations = [
    `verbose=${show(pi.getFlag("example-verbose"))}`,
    `mode-before=${show(before)}`,
    `mode-after=${show(pi.getFlag("example-mode"))}`,
    `target=${show(pi.getFlag("example-target"))}`,
    `foreign=${show(pi.getFlag("cjs-debug"))}`,
    `unknown=${show(pi.getFlag("no-such-flag"))}`,
  ];

  pi.registerCommand("flags-observed", {
    description: observations.join(" "),
    handler: async (_args, ctx) => {
      ctx.ui.notify(`mode is ${show(pi.getFlag("example-mode"))}`, "info");
    },
  });
}
