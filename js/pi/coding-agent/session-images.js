// Images a session takes in, made fit for the model as pi makes them: those
// of a prompt or a queued message (what cannot be converted or shrunk below
// the model's limits is dropped, with pi's notice added to the text), and
// those a tool returns (kept as they are when they cannot be processed: the
// tool made them, and dropping them would lose its output).
import { fromBase64, processImage } from "./image-resize.js";

/** `{ images, hints }`: the images that fit, and the notes to add to the message's text. */
export async function normalizePromptImages(images, options) {
  if (!images) return { images: [], hints: [] };
  const normalized = [];
  const hints = [];
  for (const image of images) {
    const processed = await processImage(fromBase64(image.data), image.mimeType, options);
    if (!processed.ok) {
      hints.push(processed.message);
      continue;
    }
    normalized.push({ type: "image", data: processed.data, mimeType: processed.mimeType });
    hints.push(...processed.hints);
  }
  return { images: normalized, hints };
}

/** The text with the notes appended, as pi joins them. */
export function withImageHints(text, hints) {
  return hints.length > 0 ? `${text}\n\n${hints.join("\n")}` : text;
}

/** A tool result's content with its images processed; the same array when nothing changed. */
export async function normalizeToolResultImages(content, options) {
  if (!content.some((block) => block.type === "image")) return content;
  const normalized = [];
  let changed = false;
  for (const block of content) {
    if (block.type !== "image") {
      normalized.push(block);
      continue;
    }
    const processed = await processImage(fromBase64(block.data), block.mimeType, { autoResizeImages: true, ...options });
    const unchanged = !processed.ok || (processed.data === block.data && processed.mimeType === block.mimeType && processed.hints.length === 0);
    if (unchanged) {
      normalized.push(block);
      continue;
    }
    normalized.push({ type: "image", data: processed.data, mimeType: processed.mimeType });
    if (processed.hints.length > 0) normalized.push({ type: "text", text: processed.hints.join("\n") });
    changed = true;
  }
  return changed ? normalized : content;
}
