// Files the model reads what it was not shown in full from: the whole text
// of a cut MCP result, binary resources. They go to the OS temp directory,
// readable by the user alone, at a fresh path never following a link
// someone else put there.
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../tools/output-accumulator.js";

const OUTPUT_FILE_MODE = 0o600;

/** Writes `data` to `<tmp>/pi-mcp-<random><extension>` and returns the path. */
export async function saveToTempFile(data, extension) {
  const path = join(tmpdir(), `pi-mcp-${randomHex(8)}${extension}`);
  await writeFile(path, data, { mode: OUTPUT_FILE_MODE, flag: "wx" });
  return path;
}
