// Extensions' Markdown transformers, applied to a message's Markdown just
// before it is laid out.

/**
 * A Markdown `transform` option running `transformers` in order; a
 * transformer that throws or returns a non-string leaves the text as it
 * was. `isStreaming()` is asked on every run, so a reused component sees a
 * stream end.
 */
export function createMarkdownTransform(messageType, isStreaming, transformers, messageId, timestamp) {
  return (markdown, availableWidth) => {
    const context = { messageType, isStreaming: isStreaming(), availableWidth, messageId, timestamp };
    let text = markdown;
    for (const transformer of transformers) {
      try {
        const transformed = transformer(text, context);
        if (typeof transformed === "string") text = transformed;
      } catch {
        // One broken transformer must not hide the message.
      }
    }
    return text;
  };
}
