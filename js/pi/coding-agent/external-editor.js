// Editing a prompt in the user's own editor ($VISUAL, $EDITOR): the text
// goes through a temporary file the editor opens in the terminal.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const stripBom = (text) => (text.startsWith("\uFEFF") ? text.slice(1) : text);

/** The editor's exit code or signal, or null when it could not be started. */
function runEditor(command, filePath) {
  const [program, ...args] = command.split(" ");
  return new Promise((resolve) => {
    // Asynchronous on purpose: a synchronous spawn keeps Windows' console input read alive and races the editor for keys.
    const child = spawn(program, [...args, filePath], { stdio: "inherit", shell: globalThis.process?.platform === "win32" });
    child.on("error", () => resolve(null));
    child.on("close", (code, signal) => resolve(code ?? signal));
  });
}

/**
 * Opens `content` in `command` and waits for the editor to exit:
 * `{ status: "complete", content }` with the saved text (no BOM, no final
 * newline), or `{ status: "failed", message }` when the editor could not
 * start or exited unsuccessfully.
 */
export async function editInExternalEditor({ command, content }) {
  const directory = mkdtempSync(join(tmpdir(), "pi-editor-"));
  const filePath = join(directory, "prompt.md");
  try {
    writeFileSync(filePath, content, "utf-8");
    globalThis.process?.stdout?.write(`Launching external editor: ${command}\nPi will resume when the editor exits.\n`);
    const exit = await runEditor(command, filePath);
    if (exit === null) return { status: "failed", message: `Failed to launch external editor: ${command}` };
    if (exit !== 0) {
      const how = typeof exit === "number" ? `code ${exit}` : exit;
      return { status: "failed", message: `External editor exited with ${how}; prompt unchanged` };
    }
    return { status: "complete", content: stripBom(readFileSync(filePath, "utf-8")).replace(/\n$/, "") };
  } finally {
    try {
      rmSync(directory, { recursive: true, force: true });
    } catch {
      // A temporary file left behind is harmless.
    }
  }
}
