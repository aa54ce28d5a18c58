// Prints, for each installed package of benches/real-packages/package.json,
// the extension entry files pi 1.6.0's own package manager resolves for it
// (DefaultPackageManager.resolveExtensionSources, as for `pi -e <folder>` or
// a local path in settings `packages`), to check targets.txt against after
// the packages change. Nothing is installed: the folders are local sources.
//
//   node benches/real-packages/pi-resolve.mjs [pi-reference-dir]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const piDir = process.argv[2] ?? process.env.PI_REFERENCE_DIR ?? path.join(os.homedir(), ".cache/pi-reference/1.6.0");
const dist = path.join(piDir, "node_modules/@earendil-works/pi-coding-agent/dist");
const { DefaultPackageManager } = await import(pathToFileURL(path.join(dist, "core/package-manager.js")).href);
const { SettingsManager } = await import(pathToFileURL(path.join(dist, "core/settings-manager.js")).href);

const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-resolve-"));
const manager = new DefaultPackageManager({
  cwd: root,
  agentDir,
  settingsManager: SettingsManager.inMemory({}),
});
const { dependencies } = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
for (const name of Object.keys(dependencies)) {
  const folder = path.join(here, "node_modules", name);
  const { extensions } = await manager.resolveExtensionSources([folder], { temporary: true });
  const entries = extensions.filter((e) => e.enabled).map((e) => path.relative(root, e.path));
  console.log(`${name}\t${entries.join(" ") || "(nothing)"}`);
}
fs.rmSync(agentDir, { recursive: true, force: true });
