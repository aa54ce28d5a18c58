// What the model is shown of MCP content: the client's conversion (text,
// images, notes for the rest), except that resource links say how to read
// them, and binary resources are saved to files the model can open (or
// shown as text when they are text in disguise, like JSON).
import { Buffer } from "node:buffer";
import { toLlmContent } from "./client/content.js";
import { formatSize } from "../truncate.js";
import { saveToTempFile } from "./output-files.js";

/** The tool that reads what resource links name. */
export const READ_MCP_RESOURCE_TOOL = "read_mcp_resource";

/** The extension a saved resource gets: the one its URI ends in, else `.bin`. */
function extensionOf(uri) {
  const path = URL.canParse(uri) ? new URL(uri).pathname : uri;
  return /\.[A-Za-z0-9]{1,8}$/.exec(path)?.[0] ?? ".bin";
}

/** Blobs of these types are text. */
function isTextMimeType(mimeType) {
  if (!mimeType) return false;
  const type = mimeType.split(";", 1)[0].trim().toLowerCase();
  return type.startsWith("text/") || type === "application/json" || type.endsWith("+json") || type.endsWith("+xml");
}

function describeLink(server, link, readable) {
  const details = [link.mimeType, link.size === undefined ? undefined : formatSize(link.size)].filter(Boolean);
  const sized = details.length > 0 ? ` (${details.join(", ")})` : "";
  const description = link.description ? `: ${link.description}` : "";
  const howToRead = readable ? `. Read it with ${READ_MCP_RESOURCE_TOOL} (server "${server}")` : "";
  return `[Resource ${link.uri} "${link.title ?? link.name}"${sized}${description}${howToRead}]`;
}

async function describeBinary(resource, save) {
  const { uri, mimeType, blob } = resource;
  const data = Buffer.from(blob, "base64");
  if (isTextMimeType(mimeType)) return data.toString("utf8");
  const kind = `${mimeType ?? "unknown type"}, ${formatSize(data.length)}`;
  try {
    return `[Binary resource ${uri} (${kind}) saved to ${await save(data, extensionOf(uri))}]`;
  } catch (error) {
    return `[Binary resource ${uri} (${kind}) could not be saved: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

async function blockContent(server, block, options) {
  if (block.type === "resource_link") return [{ type: "text", text: describeLink(server, block, options.readableResources) }];
  const { resource } = block;
  if (block.type === "resource" && "blob" in resource && !resource.mimeType?.startsWith("image/")) {
    return [{ type: "text", text: await describeBinary(resource, options.saveOutput ?? saveToTempFile) }];
  }
  return toLlmContent({ content: [block] });
}

/**
 * The model's content for `server`'s blocks, before the size limit.
 * `readableResources` says whether links can be read with read_mcp_resource.
 */
export async function toModelContent(server, blocks, options = {}) {
  return (await Promise.all(blocks.map((block) => blockContent(server, block, options)))).flat();
}
