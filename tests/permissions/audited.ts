// Touches one thing of each kind a decision can settle, for the audit
// stream: a file a grant covers, one a deny list covers, one nothing
// covers, a granted program and one that is not, a granted variable and one
// that is not, the host's environment file (a system file), and from a
// worker the extension starts a granted and an ungranted file. Each
// outcome is `ok` or the refusal's text. tests/permissions.rs runs it in a
// sandbox and compares the audit stream with what happened.
import fs from "node:fs";
import { execFileSync } from "node:child_process";
import { Worker } from "node:worker_threads";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** What a worker that reads `path` gave: `ok` or its error's text. */
function inWorker(path: string): Promise<string> {
  return new Promise((resolve) => {
    const worker = new Worker(`require("node:fs").readFileSync(${JSON.stringify(path)})`, { eval: true });
    worker.on("error", (error) => resolve(String(error?.message ?? error)));
    worker.on("exit", (code) => resolve(code === 0 ? "ok" : `exit ${code}`));
  });
}

function attempt(touch: () => unknown): string {
  try {
    touch();
    return "ok";
  } catch (error) {
    return String((error as Error)?.message ?? error);
  }
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "touch_for_audit",
    label: "Touch for audit",
    description: "Touches what a sandbox decides, one of each kind.",
    parameters: {
      type: "object",
      properties: { ground: { type: "string" } },
      required: ["ground"],
    },
    async execute(_id, params: { ground: string }) {
      const ground = params.ground;
      const outcomes = {
        grantedRead: attempt(() => fs.readFileSync(`${ground}/granted/inside.txt`)),
        deniedRead: attempt(() => fs.readFileSync(`${ground}/granted/secret/key.txt`)),
        ungrantedRead: attempt(() => fs.readFileSync(`${ground}/other/secret.txt`)),
        grantedRun: attempt(() => execFileSync("sh", ["-c", "true"], { env: {} })),
        ungrantedRun: attempt(() => execFileSync("cat", ["/dev/null"], { env: {} })),
        grantedEnv: attempt(() => process.env.PIHOST_AUDIT_VISIBLE),
        ungrantedEnv: attempt(() => process.env.PIHOST_AUDIT_HIDDEN),
        environ: attempt(() => fs.readFileSync("/proc/self/environ")),
        workerGrantedRead: await inWorker(`${ground}/granted/inside.txt`),
        workerUngrantedRead: await inWorker(`${ground}/other/secret.txt`),
      };
      return { content: [{ type: "text", text: JSON.stringify(outcomes) }], details: outcomes };
    },
  });
}
