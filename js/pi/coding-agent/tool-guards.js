// The typing helpers pi exports for tools: defineTool (an identity that lets
// a tool literal's parameters be inferred) and the guards that narrow a
// tool_result or tool_call event by tool name.
/** Identity: exists so a tool literal gets its parameter types inferred. */
export function defineTool(tool) {
  return tool;
}

export const isBashToolResult = (event) => event.toolName === "bash";
export const isPowerShellToolResult = (event) => event.toolName === "powershell";
export const isReadToolResult = (event) => event.toolName === "read";
export const isEditToolResult = (event) => event.toolName === "edit";
export const isWriteToolResult = (event) => event.toolName === "write";
export const isGrepToolResult = (event) => event.toolName === "grep";
export const isFindToolResult = (event) => event.toolName === "find";
export const isLsToolResult = (event) => event.toolName === "ls";

export function isToolCallEventType(toolName, event) {
  return event.toolName === toolName;
}
