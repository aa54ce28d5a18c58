// The edit tool: exact-text replacements in one file, each matched against
// the original, applied together; the result carries a display diff and a
// unified patch.
import { access, readFile, writeFile } from "node:fs/promises";
import { Type } from "../../typebox.js";
import { withFileMutationQueue } from "../file-mutation-queue.js";
import { decodeUtf8 } from "../utf8.js";
import { applyEditsToNormalizedContent, applyReplacementsToOriginal, generateEditDiff, normalizeToLF, splitBom } from "./edit-diff.js";
import { resolveToCwd } from "./path-utils.js";
import { abortError, wrapToolDefinition } from "./wrap.js";

const R_OK_W_OK = 4 | 2;

const replaceEditSchema = Type.Object(
  {
    oldText: Type.String({
      description:
        "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
    }),
    newText: Type.String({ description: "Replacement text for this targeted edit." }),
  },
  {},
);

const editSchema = Type.Object(
  {
    path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
    edits: Type.Array(replaceEditSchema, {
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    }),
  },
  {},
);

const defaultOperations = {
  readFile: (path) => readFile(path),
  writeFile: (path, content) => writeFile(path, content, "utf-8"),
  access: (path) => access(path, R_OK_W_OK),
};

const isSingleEdit = (value) =>
  Boolean(value) && typeof value === "object" && !Array.isArray(value) && typeof value.oldText === "string" && typeof value.newText === "string";

/** Repairs the shapes models send: edits as JSON text, one edit object, or top-level oldText/newText. */
function prepareEditArguments(input) {
  if (!input || typeof input !== "object") return input;
  const args = input;
  if (typeof args.edits === "string") {
    try {
      const parsed = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
      else if (isSingleEdit(parsed)) args.edits = [parsed];
    } catch {}
  } else if (isSingleEdit(args.edits)) {
    args.edits = [args.edits];
  }
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return args;
  const edits = Array.isArray(args.edits) ? [...args.edits] : [];
  edits.push({ oldText: args.oldText, newText: args.newText });
  const { oldText: _oldText, newText: _newText, ...rest } = args;
  return { ...rest, edits };
}

export function createEditToolDefinition(cwd, options) {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
    promptSnippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    promptGuidelines: [
      "Use edit for targeted changes. Batch changes to one file in a single call.",
      "Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
    ],
    parameters: editSchema,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    renderShell: "self",
    prepareArguments: prepareEditArguments,
    async execute(_toolCallId, input, signal, _onUpdate, ctx) {
      if (!Array.isArray(input.edits) || input.edits.length === 0) {
        throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
      }
      const { path, edits } = input;
      const absolutePath = resolveToCwd(path, ctx?.cwd || cwd);
      return withFileMutationQueue(absolutePath, async () => {
        // Aborts are checked between steps so the queue stays locked until a started write settles.
        const checkAbort = () => {
          if (signal?.aborted) throw abortError();
        };
        checkAbort();
        try {
          await ops.access(absolutePath);
        } catch (error) {
          checkAbort();
          const reason = error instanceof Error && "code" in error ? `Error code: ${error.code}` : String(error);
          throw new Error(`Could not edit file: ${path}. ${reason}.`);
        }
        checkAbort();
        const raw = await ops.readFile(absolutePath);
        const rawContent = typeof raw === "string" ? raw : decodeUtf8(raw);
        checkAbort();
        // The model never types the invisible BOM, so it is matched without and written back.
        const { bom, text: content } = splitBom(rawContent);
        const normalized = normalizeToLF(content);
        const { baseContent, newContent, replacements } = applyEditsToNormalizedContent(normalized, edits, path);
        // The diff comes first so nothing can fail after the write.
        const diff = generateEditDiff(path, baseContent, newContent, replacements);
        checkAbort();
        const finalContent = bom + (content === normalized ? newContent : applyReplacementsToOriginal(content, replacements));
        await ops.writeFile(absolutePath, finalContent);
        checkAbort();
        return { content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }], details: diff };
      });
    },
  };
}

export function createEditTool(cwd, options) {
  return wrapToolDefinition(createEditToolDefinition(cwd, options));
}
