// JSON-RPC 2.0 as MCP uses it: the error codes, the errors a client raises,
// and the checks that tell requests, notifications and responses apart.
// Messages that are none of the three are rejected before they reach the
// client, so its handlers can trust their shape.

export const JSON_RPC_ERROR_CODES = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
});

/** An error the server answered with (or a malformed answer), with its JSON-RPC code. */
export class McpError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }
}

export class McpConnectionClosedError extends Error {
  constructor(message = "MCP connection closed") {
    super(message);
    this.name = "McpConnectionClosedError";
  }
}

export class McpTimeoutError extends Error {
  constructor(timeoutMs) {
    super(`MCP request timed out after ${timeoutMs}ms`);
    this.name = "McpTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/** Named AbortError, as callers that check `error.name` for aborts expect. */
export class McpAbortError extends Error {
  constructor(message = "MCP request aborted") {
    super(message);
    this.name = "AbortError";
  }
}

export const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

export const asError = (value) => (value instanceof Error ? value : new Error(String(value)));

export const isJsonRpcId = (value) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

export function isJsonRpcRequest(message) {
  return isObject(message) && message.jsonrpc === "2.0" && isJsonRpcId(message.id) && typeof message.method === "string";
}

export function isJsonRpcNotification(message) {
  return isObject(message) && message.jsonrpc === "2.0" && !("id" in message) && typeof message.method === "string";
}

export function isJsonRpcResponse(message) {
  if (!isObject(message) || message.jsonrpc !== "2.0" || !isJsonRpcId(message.id)) return false;
  if ("result" in message) return !("error" in message);
  const { error } = message;
  return isObject(error) && typeof error.code === "number" && typeof error.message === "string";
}

/** `value` when it is a JSON-RPC message; throws an invalid-request McpError otherwise. */
export function toJsonRpcMessage(value) {
  if (isJsonRpcRequest(value) || isJsonRpcNotification(value) || isJsonRpcResponse(value)) return value;
  throw new McpError(JSON_RPC_ERROR_CODES.invalidRequest, "Invalid JSON-RPC message");
}
