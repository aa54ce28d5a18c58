// Text diffs with jsdiff (the `diff` package, ESM with a CommonJS build):
// the tool makes a unified patch between two versions of a file
// (createTwoFilesPatch), reads its hunks (structuredPatch), applies the
// patch to the old text, and tries it on a text it does not fit.
import { applyPatch, createTwoFilesPatch, structuredPatch } from "diff";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "diff_patch",
    label: "Diff and patch",
    description: "Make a unified patch between two texts, read its hunks and apply it",
    parameters: {
      type: "object",
      properties: {
        fileName: { type: "string" },
        oldText: { type: "string" },
        newText: { type: "string" },
        unrelated: { type: "string" },
      },
      required: ["fileName", "oldText", "newText"],
    },
    async execute(_id, params: { fileName: string; oldText: string; newText: string; unrelated?: string }) {
      const { fileName, oldText, newText } = params;
      const patch = createTwoFilesPatch(`a/${fileName}`, `b/${fileName}`, oldText, newText, undefined, undefined, {
        context: 1,
      });
      const structured = structuredPatch(fileName, fileName, oldText, newText, undefined, undefined, { context: 1 });
      const hunks = structured.hunks.map(
        (hunk) => `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@ ${hunk.lines.length} lines`,
      );
      const applied = applyPatch(oldText, patch);
      const misfit = params.unrelated === undefined ? undefined : applyPatch(params.unrelated, patch);
      return {
        content: [{ type: "text", text: patch }],
        details: { hunks, appliedMatches: applied === newText, misfit },
      };
    },
  });
}
