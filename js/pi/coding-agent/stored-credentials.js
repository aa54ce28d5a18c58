// Reading what pi's auth.json stores for a provider, and the error pi's
// model runtime raises when a credential change was saved but its own view
// of models and auth could not follow.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "./agent-dir.js";
import { expandPath } from "./paths.js";

/** The stored credential of `providerId`, or undefined when there is none or the file cannot be read. */
export function readStoredCredential(providerId, authPath = join(getAgentDir(), "auth.json")) {
  try {
    const text = readFileSync(expandPath(authPath), "utf-8");
    const data = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
    return data[providerId];
  } catch {
    return undefined;
  }
}

export class CredentialSynchronizationError extends Error {
  providerId;
  operation;
  credential;

  constructor(providerId, operation, credential, options) {
    super(`Credential ${operation} committed for ${providerId}, but local synchronization failed`, options);
    this.name = "CredentialSynchronizationError";
    this.providerId = providerId;
    this.operation = operation;
    this.credential = credential;
  }
}
