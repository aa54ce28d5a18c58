// The generic texts a tool row falls back to when its tool brings no
// renderer (or the renderer fails): the call as title and arguments, the
// result as plain text.
import { getCapabilities } from "../../pi-tui/capabilities.js";
import { getImageDimensions } from "../../pi-tui/image-dimensions.js";
import { imageFallback } from "../../pi-tui/terminal-image.js";
import { stripAnsi } from "../ansi-text.js";

// Collapsed, the `key=value` pairs are cut to this many characters.
const COLLAPSED_ARGS_CHARS = 100;

// Control characters a terminal would act on; surrogate halves are single units, so pairs survive.
const BINARY_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFF9-\uFFFB]/g;

/**
 * The call's title (bold, tool-title colour) and its arguments: collapsed,
 * `key=value` pairs on the title line; expanded, one `key: value` line each
 * below it, strings raw and continuation lines indented.
 */
export function formatToolCallWithArgs(title, args, theme, expanded) {
  const header = theme.fg("toolTitle", theme.bold(title));
  if (args == null) return header;
  const entries = typeof args === "object" && !Array.isArray(args) ? Object.entries(args) : [["args", args]];
  if (entries.length === 0) return header;
  if (expanded) {
    const lines = entries.map(([key, value]) => {
      const text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
      return `  ${key}: ${text.replace(/\t/g, "   ").replace(/\r/g, "").split("\n").join("\n    ")}`;
    });
    return `${header}\n${theme.fg("muted", lines.join("\n"))}`;
  }
  const pairs = entries.map(([key, value]) => `${key}=${JSON.stringify(value) ?? String(value)}`).join(" ");
  const preview = pairs.length > COLLAPSED_ARGS_CHARS ? `${pairs.slice(0, COLLAPSED_ARGS_CHARS - 3)}...` : pairs;
  return `${header} ${theme.fg("muted", preview)}`;
}

/** A result's text blocks as plain text, plus a line per image when images are not shown. */
export function toolResultText(result, showImages) {
  if (!result) return "";
  const texts = result.content.filter((block) => block.type === "text");
  const images = result.content.filter((block) => block.type === "image");
  let output = texts.map((block) => stripAnsi(block.text || "").replace(BINARY_CHARS, "").replace(/\r/g, "")).join("\n");
  if (images.length > 0 && (!getCapabilities().images || !showImages)) {
    const notes = images
      .map((image) => {
        const dimensions = image.data && image.mimeType ? (getImageDimensions(image.data, image.mimeType) ?? undefined) : undefined;
        return imageFallback(image.mimeType ?? "image/unknown", dimensions);
      })
      .join("\n");
    output = output ? `${output}\n${notes}` : notes;
  }
  return output;
}
