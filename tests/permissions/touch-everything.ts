// Tries every kind of touch of the machine an extension can make, each
// through as many doors as Node gives it, and reports for each whether it
// worked or how it was refused. tests/permissions.rs runs it with and
// without a sandbox. `args`: the granted folder, a file outside it, a link
// in the folder to that file, a local HTTP server's port and the pid of a
// process to signal.
import fs from "node:fs";
import fsp from "node:fs/promises";
import childProcess from "node:child_process";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

type Args = { dir: string; outside: string; link: string; port: number; pid: number };

function outcome(error: unknown) {
  if (error && typeof error === "object" && "name" in error) {
    const { name, message } = error as Error;
    return name === "NotCapable" ? `denied: ${message}` : `failed: ${name}: ${message}`;
  }
  return `failed: ${String(error)}`;
}

async function attempt(work: () => unknown): Promise<string> {
  try {
    await work();
    return "ok";
  } catch (error) {
    return outcome(error);
  }
}

/** An emitter-style API: "ok" on its success event, its error otherwise. */
function settled(start: (ok: () => void, fail: (error: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => start(resolve, reject));
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "touch_everything",
    label: "Touch everything",
    description: "Try every touch of the machine and say which worked",
    parameters: { type: "object", properties: {} },
    async execute(_id, args: Args) {
      const inside = path.join(args.dir, "inside.txt");
      const marker = (name: string) => path.join(args.dir, `ran-${name}`);
      const touches: Array<[string, () => unknown]> = [
        ["fs.readFileSync inside", () => fs.readFileSync(inside, "utf8")],
        ["fs.readFileSync outside", () => fs.readFileSync(args.outside, "utf8")],
        ["fs.readFileSync through ..", () => fs.readFileSync(path.join(args.dir, "..", path.basename(path.dirname(args.outside)), path.basename(args.outside)))],
        ["fs.readFileSync through a link", () => fs.readFileSync(args.link, "utf8")],
        ["fs.promises.readFile outside", () => fsp.readFile(args.outside)],
        ["fs.createReadStream outside", () => settled((ok, fail) => fs.createReadStream(args.outside).on("data", () => {}).on("end", ok).on("error", fail))],
        ["fs.openSync outside", () => fs.closeSync(fs.openSync(args.outside, "r"))],
        ["fs.readdirSync outside", () => fs.readdirSync(path.dirname(args.outside))],
        ["fs.statSync outside", () => fs.statSync(args.outside)],
        // Watching tells when and what changes: refused like reading.
        ["fs.watch outside", () => fs.watch(args.outside).close()],
        ["fs.watch recursive outside", () => fs.watch(path.dirname(args.outside), { recursive: true }).close()],
        ["fs.watch through a link", () => fs.watch(args.link).close()],
        ["fs.watchFile outside", () => { fs.watchFile(args.outside, () => {}); fs.unwatchFile(args.outside); }],
        ["fs.promises.watch outside", async () => {
          const events = fsp.watch(args.outside)[Symbol.asyncIterator]();
          const first = events.next();
          await Promise.race([first, new Promise((resolve) => setTimeout(resolve, 50))]);
          await events.return?.();
        }],
        // A native addon is machine code: refused as Deno refuses FFI.
        ["process.dlopen", () => process.dlopen({ exports: {} }, path.join(args.dir, "addon.node"))],
        ["fs.writeFileSync inside", () => fs.writeFileSync(path.join(args.dir, "written.txt"), "x")],
        ["fs.writeFileSync outside", () => fs.writeFileSync(`${args.outside}.new`, "x")],
        ["fs.mkdirSync outside", () => fs.mkdirSync(`${args.outside}.dir`)],
        // Each program run leaves a marker file, so the test sees what ran.
        ["child_process.execSync", () => childProcess.execSync(`touch ${marker("execSync")}`)],
        ["child_process.spawnSync", () => { const run = childProcess.spawnSync("touch", [marker("spawnSync")], { env: {} }); if (run.error) throw run.error; if (run.status !== 0) throw new Error(`status ${run.status}`); }],
        ["child_process.execFileSync", () => childProcess.execFileSync("touch", [marker("execFileSync")], { env: {} })],
        ["child_process.spawn", () => settled((ok, fail) => childProcess.spawn("touch", [marker("spawn")], { env: {} }).on("exit", ok).on("error", fail))],
        ["pi.exec", async () => { const run = await pi.exec("touch", [marker("pi.exec")]); if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`); }],
        ["fetch", async () => { await (await fetch(`http://127.0.0.1:${args.port}/`)).text(); }],
        ["http.get", () => settled((ok, fail) => http.get(`http://127.0.0.1:${args.port}/`, (response) => response.resume().on("end", ok)).on("error", fail))],
        ["net.connect", () => settled((ok, fail) => { const socket = net.connect(args.port, "127.0.0.1", () => { socket.destroy(); ok(); }); socket.on("error", fail); })],
        ["net.createServer().listen", () => settled((ok, fail) => { const server = net.createServer(); server.on("error", fail); server.listen(0, "127.0.0.1", () => server.close(() => ok())); })],
        ["process.env read", () => { if (process.env.HOME === undefined) throw new Error("no HOME"); }],
        ["process.env write", () => { process.env.PIHOST_TOUCHED = "1"; }],
        ["os.hostname", () => os.hostname()],
        ["process.kill", () => process.kill(args.pid, 0)],
        // The host's own process: signal 0 only asks whether it is there.
        ["process.kill of the host", () => process.kill(process.pid, 0)],
        ["worker reads outside", () => settled((ok, fail) => {
          const worker = new Worker(`require("node:fs").readFileSync(${JSON.stringify(args.outside)})`, { eval: true });
          worker.on("error", fail);
          worker.on("exit", (code) => (code === 0 ? ok() : fail(new Error(`exit ${code}`))));
        })],
        ["fs.rmSync outside", () => fs.rmSync(args.outside)],
      ];
      const results: Record<string, string> = {};
      for (const [name, work] of touches) results[name] = await attempt(work);
      return { content: [{ type: "text", text: "done" }], details: results };
    },
  });
}
