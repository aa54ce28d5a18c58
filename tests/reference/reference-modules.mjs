// What the recorders of pi 1.6.0's packages start with: pi's virtual-module
// map (the modules extensions import, as pi's loader hands them out), from
// the reference folder named on the command line.
import path from "node:path";
import { pathToFileURL } from "node:url";

/** pi's VIRTUAL_MODULES map; exits with usage when no folder is given. */
export async function referenceVirtualModules(script) {
  const referenceDir = process.argv[2];
  if (!referenceDir) {
    console.error(`usage: ${script} <pi-reference-dir>`);
    process.exit(2);
  }
  const virtualModules = path.join(
    referenceDir,
    "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions/virtual-modules.js",
  );
  const { VIRTUAL_MODULES } = await import(pathToFileURL(virtualModules).href);
  return VIRTUAL_MODULES;
}
