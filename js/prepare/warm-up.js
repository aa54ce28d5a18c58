// Loaded by `pihost prepare` as an extension: it imports every Node built-in
// and pi's packages, so that the engine compiles their code once, ahead of
// time, into the platform bytecode kept beside the binary
// (src/engine_cache.rs). What it imports is never used.
const PI_PACKAGES = [
  "@earendil-works/pi-coding-agent",
  "@earendil-works/pi-ai",
  "@earendil-works/pi-agent-core",
  "@earendil-works/pi-tui",
  "typebox",
];

export default async function warmUp(pi) {
  const { builtinModules } = await import("node:module");
  const failed = [];
  for (const name of [...builtinModules.map((name) => `node:${name}`), ...PI_PACKAGES]) {
    try {
      await import(name);
    } catch (error) {
      failed.push(`${name}: ${error?.message ?? error}`);
    }
  }
  // What could not be compiled ahead, for `pihost prepare` to show.
  pi.registerFlag("not-prepared", { type: "string", default: failed.join("\n"), description: "" });
}
