// A CommonJS package that spawns processes (cross-spawn, with which,
// path-key, shebang-command), reading the child's stdout and stderr as
// streams while it runs and reporting each line as a tool update.
import spawn from "cross-spawn";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "run_streamed",
    label: "Run streamed",
    description: "Run a program, streaming its output lines as updates",
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, args: { type: "array", items: { type: "string" } } },
      required: ["command"],
    },
    execute(_id, params: { command: string; args?: string[] }, signal, onUpdate) {
      return new Promise((resolve) => {
        const child = spawn(params.command, params.args ?? [], { signal });
        const lines: string[] = [];
        const collect = (stream: string) => (chunk: Buffer) => {
          for (const line of chunk.toString().split("\n").filter(Boolean)) {
            lines.push(`${stream}: ${line}`);
            onUpdate?.({ content: [{ type: "text", text: `${stream}: ${line}` }], details: {} });
          }
        };
        child.stdout?.on("data", collect("stdout"));
        child.stderr?.on("data", collect("stderr"));
        child.on("error", (error: Error) =>
          resolve({ content: [{ type: "text", text: `failed: ${error.message}` }], details: { code: null } }),
        );
        child.on("close", (code: number | null) =>
          resolve({ content: [{ type: "text", text: lines.join("\n") }], details: { code } }),
        );
      });
    },
  });
}
