// MCP content blocks as a model takes them: text and images pass, embedded
// text resources become their text and embedded images images, and what a
// model cannot take (audio, links, binary resources, unknown blocks) a short
// note in text.

function toModelBlock(block) {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType} omitted]` };
    case "resource_link":
      return { type: "text", text: `${block.name}: ${block.uri}` };
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return { type: "text", text: resource.text };
      if (resource.mimeType?.startsWith("image/")) return { type: "image", data: resource.blob, mimeType: resource.mimeType };
      return { type: "text", text: `[binary resource ${resource.uri} (${resource.mimeType ?? "unknown type"}) omitted]` };
    }
    default:
      return { type: "text", text: `[unsupported MCP content ${block.type}]` };
  }
}

/**
 * A tool result's blocks for the model. A result with no blocks but
 * `structuredContent` becomes that value as JSON: servers should mirror it
 * as text but not all do.
 */
export function toLlmContent(result) {
  const content = (result.content ?? []).map(toModelBlock);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  }
  return content;
}
