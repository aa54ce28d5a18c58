/**
 * jiti-globals.ts — CommonJS-style globals inside an ES module.
 *
 * Demonstrates: although this file is an ES module (import/export), pi loads it
 * the way jiti does, so `__filename`, `__dirname`, `require`, `module` and
 * `exports` exist next to `import.meta.url`. The command description lists
 * each one's typeof plus consistency checks (no host paths).
 *
 * Checklist: L8.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";

function typeOfGlobal(read: () => unknown): string {
  try {
    return typeof read();
  } catch {
    return "unreachable";
  }
}

export default function jitiGlobals(pi: ExtensionAPI) {
  const kinds = [
    `__filename=${typeOfGlobal(() => __filename)}`,
    `__dirname=${typeOfGlobal(() => __dirname)}`,
    `require=${typeOfGlobal(() => require)}`,
    `module=${typeOfGlobal(() => module)}`,
    `exports=${typeOfGlobal(() => exports)}`,
    `import.meta.url=${typeOfGlobal(() => import.meta.url)}`,
  ];

  const checks: string[] = [];
  try {
    const fromUrl = fileURLToPath(import.meta.url);
    checks.push(`url-scheme=${import.meta.url.slice(0, import.meta.url.indexOf(":") + 1)}`);
    checks.push(`filename-matches-url=${fromUrl === __filename ? "yes" : "no"}`);
    checks.push(`dirname-matches=${dirname(__filename) === __dirname ? "yes" : "no"}`);
    checks.push(`basename=${basename(__filename)}`);
    checks.push(`require-builtin=${typeof require("node:path").join}`);
  } catch (error) {
    checks.push(`check-failed=${error instanceof Error ? error.constructor.name : typeof error}`);
  }

  pi.registerCommand("jiti-globals", {
    description: `${kinds.join(" ")}; ${checks.join(" ")}`,
    handler: async () => {},
  });
}
