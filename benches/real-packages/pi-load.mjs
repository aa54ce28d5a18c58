// Loads extensions with the reference pi in this (fresh) process and prints
// one line of JSON: how long the import of pi took, how long
// discoverAndLoadExtensions took, and what it loaded or failed to load.
//
//   node benches/real-packages/pi-load.mjs <pi-reference-dir> <cwd> <agent-dir> [PATH...]
//
// PI_MODE picks which of pi's builds runs, both from the same package:
//   bundle (default)  dist/bundle/, what the `pi` command runs: its bin
//                     (dist/bundle/cli.js) turns on Node's module compile
//                     cache first, as done here, and the bundle serves pi's
//                     own modules to extensions as jiti virtual modules;
//   dist              the unbundled dist/core/extensions/loader.js that
//                     benches/reference-load.mjs times, where jiti aliases
//                     pi's packages to their dist/ files.
// Both keep jiti's transform cache in os.tmpdir()/jiti (TMPDIR) and, for the
// bundle, Node's compile cache in os.tmpdir()/node-compile-cache.
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const mode = process.env.PI_MODE ?? "bundle";
if (mode === "bundle") module.enableCompileCache?.();
const started = performance.now();
const [piDir, cwd, agentDir, ...paths] = process.argv.slice(2);
const packageDir = path.join(piDir, "node_modules/@earendil-works/pi-coding-agent");
const entry =
  mode === "bundle"
    ? path.join(packageDir, "dist/bundle/index.js")
    : mode === "dist"
      ? path.join(packageDir, "dist/core/extensions/loader.js")
      : null;
if (!entry) {
  process.stderr.write(`pi-load.mjs: PI_MODE must be bundle or dist, not ${mode}\n`);
  process.exit(2);
}
const { discoverAndLoadExtensions } = await import(pathToFileURL(entry).href);
const imported = performance.now();
const result = await discoverAndLoadExtensions(paths, cwd, agentDir);
const loaded = performance.now();
process.stdout.write(
  `${JSON.stringify({
    mode,
    importMs: imported - started,
    loadMs: loaded - imported,
    extensions: result.extensions.length,
    errors: result.errors.map((e) => ({ path: e.path, error: String(e.error).split("\n")[0] })),
    loadedPaths: result.extensions.map((e) => e.resolvedPath ?? e.path),
  })}\n`,
);
process.exit(0);
