// Message content as text. System messages carry the prompt (`content`,
// patched `sections`) and tool-set deltas (`toolsAdded`, `toolsRemoved`);
// these render the prompt part.

/** The text of message content: a string, or the text blocks joined. */
export function contentText(content, separator = "\n") {
  if (typeof content === "string") return content;
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join(separator);
}

/** A system message as a whole prompt: its content, then its sections. */
export function getSystemMessageText(message) {
  const parts = [contentText(message.content)];
  for (const text of Object.values(message.sections ?? {})) {
    if (text !== null) parts.push(text);
  }
  return parts.filter((part) => part.length > 0).join("\n\n");
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
