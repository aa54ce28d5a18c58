// A file watcher from npm (chokidar 4, built on fs.watch): `watch_start`
// watches a folder and keeps watching between tool calls; `watch_changes`
// reports what changed since, as chokidar names it (`add a.txt`, `change
// a.txt`, `addDir sub`, `unlink a.txt`, ...), waiting a little for the
// changes the caller expects, and with `stop` closes the watcher.
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  let watcher: FSWatcher | undefined;
  let root = "";
  const seen = new Set<string>();
  const errors: string[] = [];

  pi.registerTool({
    name: "watch_start",
    label: "Watch a folder",
    description: "Start watching a folder for changes",
    parameters: { type: "object", properties: { dir: { type: "string" } }, required: ["dir"] },
    async execute(_id, params: { dir: string }) {
      await watcher?.close();
      root = path.resolve(params.dir);
      seen.clear();
      errors.length = 0;
      const started = watch(root, { ignoreInitial: true });
      started.on("all", (event, changed) => seen.add(`${event} ${path.relative(root, changed)}`));
      started.on("error", (error) => errors.push(String(error)));
      await new Promise<void>((resolve) => started.once("ready", () => resolve()));
      watcher = started;
      return { content: [{ type: "text", text: `watching ${root}` }], details: {} };
    },
  });

  pi.registerTool({
    name: "watch_changes",
    label: "Changes seen",
    description: "What changed in the watched folder, waiting up to timeoutMs for the changes named in waitFor",
    parameters: {
      type: "object",
      properties: {
        waitFor: { type: "array", items: { type: "string" } },
        timeoutMs: { type: "number" },
        stop: { type: "boolean" },
      },
    },
    async execute(_id, params: { waitFor?: string[]; timeoutMs?: number; stop?: boolean }, signal) {
      const until = Date.now() + (params.timeoutMs ?? 5000);
      const waitFor = params.waitFor ?? [];
      while (!waitFor.every((change) => seen.has(change)) && Date.now() < until && !signal?.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const changes = [...seen].sort();
      if (params.stop) {
        await watcher?.close();
        watcher = undefined;
      }
      return {
        content: [{ type: "text", text: changes.join("\n") }],
        details: { changes, errors, watching: watcher !== undefined },
      };
    },
  });
}
