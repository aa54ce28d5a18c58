/**
 * validation-texts.ts — the exact texts of registration validation errors.
 *
 * Demonstrates: registration methods validate their input and throw; this
 * factory catches each throw and registers a command whose description is the
 * caught message, so the texts are visible while the extension still loads.
 * Cases: command with an empty name, command without a handler, flag default
 * of the wrong type, tool whose parameters is an array, tool whose parameters
 * is null, provider registered by name without a config. None of the failed
 * calls leaves a registration behind.
 *
 * Checklist: A4 (validation texts), A1.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

type Loose = any; // deliberately invalid arguments below

function caught(action: () => void): string {
  try {
    action();
    return "(accepted)";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export default function validationTexts(pi: ExtensionAPI) {
  const loose = pi as Loose;
  const cases: Array<[string, () => void]> = [
    ["empty-command-name", () => loose.registerCommand("", { handler: () => {} })],
    ["command-without-handler", () => loose.registerCommand("no-handler", { description: "has no handler" })],
    ["flag-default-type", () => loose.registerFlag("bad-default", { type: "boolean", default: "yes" })],
    [
      "tool-array-parameters",
      () => loose.registerTool({ name: "array_params", description: "x", parameters: [], execute: async () => ({}) }),
    ],
    [
      "tool-null-parameters",
      () => loose.registerTool({ name: "null_params", description: "x", parameters: null, execute: async () => ({}) }),
    ],
    ["provider-without-config", () => loose.registerProvider("config-less")],
  ];

  for (const [label, action] of cases) {
    pi.registerCommand(`validation-${label}`, {
      description: caught(action),
      handler: async () => {},
    });
  }
}
