// The read tool: a text file's lines within pi's limits (2000 lines, 50KB),
// with the notice that tells the model how to continue, or an image as an
// attachment.
import { access, readFile } from "node:fs/promises";
import { Type } from "../../typebox.js";
import { decodeUtf8, utf8Length } from "../utf8.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead } from "../truncate.js";
import { processImage } from "../image-resize.js";
import { detectImageMimeType } from "./image.js";
import { resolveReadPath } from "./path-utils.js";
import { abortError, wrapToolDefinition } from "./wrap.js";

const R_OK = 4;

const readSchema = Type.Object({
  path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
  offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

const readOutputSchema = Type.Union([
  Type.String(),
  Type.Object({ type: Type.Literal("image"), data: Type.String(), mimeType: Type.String(), note: Type.String() }),
]);

const defaultOperations = {
  readFile: (path) => readFile(path),
  access: (path) => access(path, R_OK),
  detectImageMimeType: async (path) => detectImageMimeType(await readFile(path)),
};

/** What programmatic callers get: the text, or the image with its note. */
function structuredOutput(content) {
  const text = content.find((block) => block.type === "text")?.text ?? "";
  const image = content.find((block) => block.type === "image");
  return image ? { type: "image", data: image.data, mimeType: image.mimeType, note: text } : text;
}

/**
 * The selected lines, by array slicing as pi's whole-file path does: so a
 * fractional or negative offset/limit selects what slice() makes of it.
 */
function selectLines(text, startLine, limit) {
  const lines = text.split("\n");
  const endLine = limit === undefined ? undefined : Math.min(startLine + limit, lines.length);
  const truncation = truncateHead(lines.slice(startLine, endLine).join("\n"));
  const firstLineBytes = truncation.firstLineExceedsLimit ? utf8Length(lines[startLine]) : 0;
  return { totalFileLines: lines.length, truncation, firstLineBytes };
}

function readText(bytes, path, offset, limit) {
  const startLine = offset ? Math.max(0, offset - 1) : 0;
  const firstShown = startLine + 1;
  const { totalFileLines, truncation, firstLineBytes } = selectLines(typeof bytes === "string" ? bytes : decodeUtf8(bytes), startLine, limit);
  if (startLine >= totalFileLines) throw new Error(`Offset ${offset} is beyond end of file (${totalFileLines} lines total)`);
  const limitedLines = limit === undefined ? undefined : Math.min(startLine + limit, totalFileLines) - startLine;
  if (truncation.firstLineExceedsLimit) {
    const text = `[Line ${firstShown} is ${formatSize(firstLineBytes)}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${firstShown}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`;
    return { text, details: { truncation } };
  }
  if (truncation.truncated) {
    const lastShown = firstShown + truncation.outputLines - 1;
    const limitNote = truncation.truncatedBy === "lines" ? "" : ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
    const text = `${truncation.content}\n\n[Showing lines ${firstShown}-${lastShown} of ${totalFileLines}${limitNote}. Use offset=${lastShown + 1} to continue.]`;
    return { text, details: { truncation } };
  }
  if (limitedLines !== undefined && startLine + limitedLines < totalFileLines) {
    const remaining = totalFileLines - (startLine + limitedLines);
    return { text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${startLine + limitedLines + 1} to continue.]`, details: undefined };
  }
  return { text: truncation.content, details: undefined };
}

export function createReadToolDefinition(cwd, options) {
  const autoResizeImages = options?.autoResizeImages ?? true;
  const fallbackResizeOptions = options?.resizeOptions;
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "read",
    label: "read",
    description: `Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    promptSnippet: "Read file contents",
    promptGuidelines: ["Use read to examine files instead of cat or sed."],
    parameters: readSchema,
    outputSchema: readOutputSchema,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    async execute(_toolCallId, { path, offset, limit }, signal, _onUpdate, ctx) {
      if (signal?.aborted) throw abortError();
      // An abort settles the call at once; the file work left running is ignored.
      let aborted = false;
      let onAbort;
      const abortedCall = new Promise((_, reject) => {
        onAbort = () => {
          aborted = true;
          reject(abortError());
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      });
      const work = (async () => {
        const absolutePath = await resolveReadPath(path, ctx?.cwd || cwd);
        if (aborted) return undefined;
        await ops.access(absolutePath);
        if (aborted) return undefined;
        // The default operations read the file once, for the sniff and the text.
        let bytes = ops === defaultOperations ? await readFile(absolutePath) : undefined;
        if (aborted) return undefined;
        const mimeType = bytes ? detectImageMimeType(bytes) : await ops.detectImageMimeType?.(absolutePath);
        if (mimeType) {
          const processed = await processImage(bytes ?? (await ops.readFile(absolutePath)), mimeType, {
            autoResizeImages,
            resizeOptions: ctx?.model?.inputLimits?.images?.resize ?? fallbackResizeOptions,
          });
          if (aborted) return undefined;
          if (!processed.ok) return { content: [{ type: "text", text: `Read image file [${mimeType}]\n${processed.message}` }], details: undefined };
          const note = [`Read image file [${processed.mimeType}]`, ...processed.hints].join("\n");
          const details = ctx?.model && !ctx.model.input.includes("image") ? { imageUnsupportedByModel: ctx.model.id } : undefined;
          return {
            content: [
              { type: "text", text: note },
              { type: "image", data: processed.data, mimeType: processed.mimeType },
            ],
            details,
          };
        }
        bytes ??= await ops.readFile(absolutePath);
        if (aborted) return undefined;
        const { text, details } = readText(bytes, path, offset, limit);
        return { content: [{ type: "text", text }], details };
      })();
      abortedCall.catch(() => {});
      try {
        const result = await Promise.race([work, abortedCall]);
        return { ...result, structuredContent: structuredOutput(result.content) };
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

export function createReadTool(cwd, options) {
  return wrapToolDefinition(createReadToolDefinition(cwd, options));
}
