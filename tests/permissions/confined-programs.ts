// Runs one shell script through every door to a program an extension has
// (spawnSync, spawn, execSync, execFile, pi.exec, and spawnSync inside a
// worker thread) and reports what each printed. tests/permissions.rs gives
// it scripts that read, write and connect inside and outside the sandbox's
// grants: with a sandbox the kernel (Landlock) refuses what the grants do
// not cover even to a granted program; without one everything works.
import childProcess from "node:child_process";
import { Worker } from "node:worker_threads";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

// Node's child_process copies process.env unless given one; these doors get
// their own so that the sandbox needs no environment grant.
const env = { PATH: "/usr/local/bin:/usr/bin:/bin" };

function inWorker(script: string, cwd: string): Promise<string> {
  const code = `
    const { spawnSync } = require("node:child_process");
    const { parentPort, workerData } = require("node:worker_threads");
    const run = spawnSync("sh", ["-c", workerData.script], { encoding: "utf8", env: workerData.env, cwd: workerData.cwd });
    parentPort.postMessage(run.error ? "error: " + run.error.message : run.stdout + run.stderr);`;
  return new Promise((resolve) => {
    const worker = new Worker(code, { eval: true, workerData: { script, env, cwd } });
    worker.once("message", (text) => resolve(String(text)));
    worker.once("error", (error) => resolve(`error: ${error.message}`));
  });
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "run_everywhere",
    label: "Run everywhere",
    description: "Runs a shell script through every door to a program.",
    parameters: { type: "object", properties: { script: { type: "string" } }, required: ["script"] },
    async execute(_id, { script }: { script: string }, _signal, _onUpdate, ctx) {
      // The project's folder, where pi's own process would be.
      const cwd = ctx.cwd;
      const attempt = async (run: () => string | Promise<string>) => {
        try {
          return await run();
        } catch (error) {
          const { name, message } = error as Error;
          return `error: ${name}: ${message}`;
        }
      };
      const details = {
        spawnSync: await attempt(() => {
          const run = childProcess.spawnSync("sh", ["-c", script], { encoding: "utf8", env, cwd });
          return run.error ? `error: ${run.error.message}` : run.stdout + run.stderr;
        }),
        spawn: await attempt(
          () =>
            new Promise<string>((resolve, reject) => {
              let out = "";
              const child = childProcess.spawn("sh", ["-c", script], { env, cwd });
              child.stdout.on("data", (chunk) => (out += chunk));
              child.stderr.on("data", (chunk) => (out += chunk));
              child.on("error", reject).on("close", () => resolve(out));
            }),
        ),
        execSync: await attempt(() => childProcess.execSync(script, { encoding: "utf8", env, cwd, shell: "sh" })),
        execFile: await attempt(
          () =>
            new Promise<string>((resolve) =>
              childProcess.execFile("sh", ["-c", script], { env, cwd }, (_error, stdout, stderr) => resolve(stdout + stderr)),
            ),
        ),
        piExec: await attempt(async () => {
          const run = await pi.exec("sh", ["-c", script]);
          return run.stdout + run.stderr;
        }),
        worker: await attempt(() => inWorker(script, cwd)),
      };
      return { content: [{ type: "text", text: "ran" }], details };
    },
  });
}
