// Which files a stretch of conversation read, wrote or edited, as summaries
// record them: taken from the read/write/edit tool calls it made.

export function createFileOps() {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

const SET_BY_TOOL = { read: "read", write: "written", edit: "edited" };

function recordCall(toolName, args, fileOps) {
  const path = typeof args?.path === "string" ? args.path : undefined;
  const setName = typeof toolName === "string" && Object.hasOwn(SET_BY_TOOL, toolName) ? SET_BY_TOOL[toolName] : undefined;
  if (path && setName) fileOps[setName].add(path);
}

/** Adds the files an assistant message's tool calls touch (or, for a tool result, its nested calls). */
export function extractFileOpsFromMessage(message, fileOps) {
  if (message.role === "toolResult") {
    // A codemode script's result records the calls the script made.
    for (const nested of message.nestedCalls?.calls ?? []) recordCall(nested.name, nested.arguments, fileOps);
    return;
  }
  if (message.role !== "assistant" || !("content" in message) || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (typeof block !== "object" || block === null || !("type" in block) || block.type !== "toolCall") continue;
    if (!("arguments" in block) || !("name" in block)) continue;
    recordCall(block.name, block.arguments, fileOps);
  }
}
