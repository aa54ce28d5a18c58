// A session's current branch as a JSONL file: a fresh header, then the
// branch's entries re-linked into one straight line.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { resolvePath } from "./paths.js";
import { CURRENT_SESSION_VERSION } from "./session-entries.js";

export function serializeSessionBranch(sessionManager, createTrailingEntries) {
  const timestamp = new Date().toISOString();
  const lines = [{ type: "session", version: CURRENT_SESSION_VERSION, id: sessionManager.getSessionId(), timestamp, cwd: sessionManager.getCwd() }];
  let parentId = null;
  for (const entry of sessionManager.getBranch()) {
    lines.push({ ...entry, parentId });
    parentId = entry.id;
  }
  lines.push(...(createTrailingEntries?.(parentId, timestamp) ?? []));
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** Writes the branch to `outputPath` (default: a timestamped file in the working directory); returns the path. */
export function exportSessionToJsonl(sessionManager, outputPath, createTrailingEntries) {
  const filePath = resolvePath(outputPath ?? `session-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const dir = dirname(filePath);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  writeFileSync(filePath, serializeSessionBranch(sessionManager, createTrailingEntries));
  return filePath;
}
