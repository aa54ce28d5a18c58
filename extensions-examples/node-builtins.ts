/**
 * node-builtins.ts — Node built-in modules during load.
 *
 * Demonstrates: `node:path` (join, basename), `node:os` (homedir, platform),
 * `node:fs` (existsSync, readFileSync of this very file, found through
 * import.meta.url + fileURLToPath from `node:url`) and `node:child_process`
 * (execSync) all work inside the factory. Only pass/fail words reach the
 * registered tool's description, never host-specific values.
 *
 * Checklist: L7 (`node:` built-ins), L8 (import.meta.url).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir, platform } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "typebox";

// The file reads itself and looks for this marker: BUILTINS-SELF-CHECK-7f3a
const MARKER = ["BUILTINS", "SELF", "CHECK", "7f3a"].join("-");

function check(label: string, test: () => boolean): string {
  try {
    return `${label}=${test() ? "ok" : "wrong"}`;
  } catch (error) {
    return `${label}=threw(${error instanceof Error ? error.constructor.name : typeof error})`;
  }
}

export default function nodeBuiltins(pi: ExtensionAPI) {
  const selfPath = fileURLToPath(import.meta.url);
  const results = [
    check("path", () => join("a", "b", "..", "c.txt") === "a/c.txt" && basename("/x/y/z.ts", ".ts") === "z"),
    check("os", () => typeof homedir() === "string" && homedir().length > 0 && typeof platform() === "string"),
    check("url", () => basename(selfPath) === "node-builtins.ts"),
    check("fs", () => existsSync(selfPath) && !existsSync(join(selfPath, "no-such-child")) && readFileSync(selfPath, "utf8").includes(MARKER)),
    check("child_process", () => execSync("echo hi").toString().trim() === "hi"),
  ];

  pi.registerTool({
    name: "builtins_report",
    label: "Built-ins report",
    description: `Node built-ins during load: ${results.join(" ")}`,
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: results.join("\n") }], details: {} };
    },
  });
}
