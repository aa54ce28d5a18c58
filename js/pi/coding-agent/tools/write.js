// The write tool: creates or overwrites a file, making its parent directories.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Type } from "../../typebox.js";
import { withFileMutationQueue } from "../file-mutation-queue.js";
import { resolveToCwd } from "./path-utils.js";
import { abortError, wrapToolDefinition } from "./wrap.js";

const writeSchema = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

const defaultOperations = {
  writeFile: (path, content) => writeFile(path, content, "utf-8"),
  mkdir: (dir) => mkdir(dir, { recursive: true }).then(() => {}),
};

export function createWriteToolDefinition(cwd, options) {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    promptSnippet: "Create or overwrite files",
    promptGuidelines: ["Use write only for new files or complete rewrites."],
    parameters: writeSchema,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    async execute(_toolCallId, { path, content }, signal, _onUpdate, ctx) {
      const absolutePath = resolveToCwd(path, ctx?.cwd || cwd);
      return withFileMutationQueue(absolutePath, async () => {
        // Aborts are checked between steps, never by rejecting early: the
        // queue must stay locked until a started write has settled.
        const checkAbort = () => {
          if (signal?.aborted) throw abortError();
        };
        checkAbort();
        await ops.mkdir(dirname(absolutePath));
        checkAbort();
        await ops.writeFile(absolutePath, content);
        checkAbort();
        return { content: [{ type: "text", text: `Successfully wrote to ${path}` }], details: undefined };
      });
    },
  };
}

export function createWriteTool(cwd, options) {
  return wrapToolDefinition(createWriteToolDefinition(cwd, options));
}
