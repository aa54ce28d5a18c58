// Message content as text. System messages carry the prompt (`content`,
// patched `sections`) and tool-set deltas (`toolsAdded`, `toolsRemoved`);
// these render the prompt part. pihost's runner reaches them for every
// context event, so they use the built-ins captured before any extension ran.
import { ArrayIsArray, ArrayPrototypeJoin, ObjectKeys } from "../../runtime/primordials.js";

/** The text of message content: a string, or the text blocks joined. */
export function contentText(content, separator = "\n") {
  if (typeof content === "string") return content;
  // What is not a list goes through its own methods, as pi's does: missing
  // or malformed content throws the TypeError pi's throws.
  if (!ArrayIsArray(content)) {
    return content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join(separator);
  }
  const texts = [];
  for (let index = 0; index < content.length; index++) {
    if (content[index].type === "text") texts[texts.length] = content[index].text;
  }
  return ArrayPrototypeJoin(texts, separator);
}

/** A system message as a whole prompt: its content, then its sections. */
export function getSystemMessageText(message) {
  const parts = [];
  const first = contentText(message.content);
  if (first.length > 0) parts[0] = first;
  const sections = message.sections ?? {};
  const names = ObjectKeys(sections);
  for (let index = 0; index < names.length; index++) {
    const text = sections[names[index]];
    if (text !== null && text.length > 0) parts[parts.length] = text;
  }
  return ArrayPrototypeJoin(parts, "\n\n");
}

/**
 * A later system message as text for APIs that take system messages mid
 * conversation: its content, then each section change named, so the model
 * can tell which part of the leading prompt it replaces or removes.
 */
export function renderSystemMessageUpdate(message) {
  const parts = [];
  const text = contentText(message.content);
  if (text.length > 0) parts.push(text);
  for (const [name, value] of Object.entries(message.sections ?? {})) {
    if (value === null) parts.push(`Removed system prompt section "${name}".`);
    else parts.push(`Updated system prompt section "${name}":\n\n${value}`);
  }
  return parts.join("\n\n");
}
