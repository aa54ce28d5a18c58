// What MCP servers log (`notifications/message`), appended to mcp.log in
// the agent directory. Several pi processes may share the file, so each
// message is one synchronous append; past 5 MB the file moves to mcp.log.1.
// Logging is best effort: a failed write never breaks a tool.
import { Buffer } from "node:buffer";
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";

const MAX_LOG_BYTES = 5 * 1024 * 1024;

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

function dataText(data) {
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

/** One log line: `<time> [server] level logger: text`, continuation lines indented. */
export function formatMcpLogMessage(server, params, now = new Date()) {
  const message = isRecord(params) ? params : { data: params };
  const level = typeof message.level === "string" ? message.level : "info";
  const logger = typeof message.logger === "string" && message.logger ? ` ${message.logger}:` : "";
  const text = dataText(message.data).replace(/\r?\n/g, "\n    ");
  return `${now.toISOString()} [${server}] ${level}${logger} ${text}\n`;
}

export class McpServerLog {
  #path;
  /** Bytes in the file, once known. */
  #size;

  constructor(path) {
    this.#path = path;
  }

  get path() {
    return this.#path;
  }

  write(server, params) {
    const line = formatMcpLogMessage(server, params);
    try {
      if (this.#size === undefined) {
        mkdirSync(dirname(this.#path), { recursive: true });
        this.#size = this.#fileSize();
      }
      if (this.#size > MAX_LOG_BYTES) {
        // Another process may have rotated it already.
        if (this.#fileSize() > MAX_LOG_BYTES) renameSync(this.#path, `${this.#path}.1`);
        this.#size = this.#fileSize();
      }
      appendFileSync(this.#path, line);
      this.#size += Buffer.byteLength(line);
    } catch {
      // Best effort.
    }
  }

  #fileSize() {
    try {
      return statSync(this.#path).size;
    } catch {
      return 0;
    }
  }
}
