// A stored session whose working directory is gone cannot be resumed
// silently elsewhere: pi stops with an error naming both directories.
import { existsSync } from "node:fs";

export class MissingSessionCwdError extends Error {
  issue;

  constructor(issue) {
    const sessionFile = issue.sessionFile ? `\nSession file: ${issue.sessionFile}` : "";
    super(`Stored session working directory does not exist: ${issue.sessionCwd}${sessionFile}\nCurrent working directory: ${issue.fallbackCwd}`);
    this.name = "MissingSessionCwdError";
    this.issue = issue;
  }
}

/** Throws MissingSessionCwdError when a session file's recorded cwd no longer exists. */
export function assertSessionCwdExists(sessionManager, fallbackCwd) {
  const sessionFile = sessionManager.getSessionFile();
  if (!sessionFile) return;
  const sessionCwd = sessionManager.getCwd();
  if (!sessionCwd || existsSync(sessionCwd)) return;
  throw new MissingSessionCwdError({ sessionFile, sessionCwd, fallbackCwd });
}
