// Times the reference pi loading extensions in this (fresh) process: the
// import of pi's loader, and discoverAndLoadExtensions itself; with
// REPEAT=N, N - 1 more loads in the same process (warm: Node's caches and
// JIT are warm, the extensions are evaluated anew as pi's reload does).
// Prints JSON.
//
//   node benches/reference-load.mjs <pi-reference-dir> <cwd> <agent-dir> [PATH...]
import path from "node:path";
import { pathToFileURL } from "node:url";

const [piDir, cwd, agentDir, ...paths] = process.argv.slice(2);
const started = performance.now();
const loaderPath = path.join(
  piDir,
  "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions/loader.js",
);
const { discoverAndLoadExtensions } = await import(pathToFileURL(loaderPath).href);
const imported = performance.now();
const result = await discoverAndLoadExtensions(paths, cwd, agentDir);
const loaded = performance.now();
const warmLoadsMs = [];
for (let round = 1; round < Number(process.env.REPEAT ?? 1); round += 1) {
  const before = performance.now();
  await discoverAndLoadExtensions(paths, cwd, agentDir);
  warmLoadsMs.push(performance.now() - before);
}
process.stdout.write(
  `${JSON.stringify({
    loaderImportMs: imported - started,
    loadMs: loaded - imported,
    warmLoadsMs,
    extensions: result.extensions.length,
    errors: result.errors.length,
  })}\n`,
);
process.exit(0);
