/**
 * exec-during-load.ts — pi.exec works while loading (it is not an action method).
 *
 * Demonstrates: pi.exec runs a process without a shell and resolves to
 * { stdout, stderr, code, killed }; a non-zero exit is a result, not a throw;
 * without a cwd option it runs in the load-time cwd (reported relative to this
 * file's folder, so with `--cwd <examples>/..` it reads ".."). The results go
 * into a command description.
 *
 * Checklist: A8.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export default async function execDuringLoad(pi: ExtensionAPI) {
  const mixed = await pi.exec("sh", ["-c", "printf out; printf err >&2; exit 3"]);
  const where = await pi.exec("pwd", []);
  const relativeCwd = path.relative(here, where.stdout.trim()) || ".";
  const explicit = await pi.exec("pwd", [], { cwd: here });
  const explicitOk = path.resolve(explicit.stdout.trim()) === path.resolve(here);

  pi.registerCommand("exec-observed", {
    description: [
      `stdout=${JSON.stringify(mixed.stdout)}`,
      `stderr=${JSON.stringify(mixed.stderr)}`,
      `code=${mixed.code}`,
      `killed=${mixed.killed}`,
      `default-cwd=${relativeCwd}`,
      `explicit-cwd=${explicitOk ? "ok" : "wrong"}`,
    ].join(" "),
    handler: async () => {},
  });
}
