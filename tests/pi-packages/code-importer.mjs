// Imports the module text typebox/compile's Code() gives, for the case table's
// Code cases under Node: written to a temporary folder whose node_modules is
// the reference's, so the module's `typebox/...` imports reach the real
// TypeBox whichever Code wrote it.
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export function codeImporter(referenceDir = process.env.PI_REFERENCE_DIR ?? join(homedir(), ".cache/pi-reference/1.6.0")) {
  const folder = mkdtempSync(join(tmpdir(), "pihost-code-cases-"));
  symlinkSync(join(referenceDir, "node_modules"), join(folder, "node_modules"));
  let count = 0;
  return async (code) => {
    const file = join(folder, `code-${count++}.mjs`);
    writeFileSync(file, code);
    return import(pathToFileURL(file).href);
  };
}
