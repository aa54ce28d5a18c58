// Where pi's settings live: the global settings.json in the agent directory
// and the project's .pi/settings.json, or two strings in memory. Every read
// and write goes through withLock(scope, fn): fn gets the current text
// (undefined when there is none) and returns the text to write, or
// undefined to leave it.
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { resolvePath } from "./paths.js";

// A lock is a "<file>.lock" directory, as the lockfile package pi uses makes
// it, so pi and pihost writing the same settings wait for each other. A lock
// left behind by a crashed process is taken over once it is this old.
const STALE_LOCK_MS = 10_000;
const LOCK_ATTEMPTS = 10;
const LOCK_RETRY_MS = 20;

function tryLock(path) {
  const lockDir = `${path}.lock`;
  try {
    mkdirSync(lockDir);
  } catch (error) {
    if (error?.code !== "EEXIST") throw error;
    let stale = false;
    try {
      stale = Date.now() - statSync(lockDir).mtimeMs > STALE_LOCK_MS;
    } catch {
      // Released meanwhile: try again.
      return tryLock(path);
    }
    if (!stale) throw Object.assign(new Error("Lock file is already being held"), { code: "ELOCKED", file: path });
    rmdirSync(lockDir);
    mkdirSync(lockDir);
  }
  return () => rmdirSync(lockDir);
}

/** Takes `<path>.lock`, retrying briefly while another holder has it; returns the release function. */
export function lockWithRetry(path) {
  for (let attempt = 1; ; attempt++) {
    try {
      return tryLock(path);
    } catch (error) {
      if (error?.code !== "ELOCKED" || attempt === LOCK_ATTEMPTS) throw error;
      // Callers are synchronous, so the wait is too.
      const start = Date.now();
      while (Date.now() - start < LOCK_RETRY_MS) {}
    }
  }
}

export class FileSettingsStorage {
  #paths;

  constructor(cwd, agentDir) {
    this.#paths = {
      global: join(resolvePath(agentDir), "settings.json"),
      project: join(resolvePath(cwd), ".pi", "settings.json"),
    };
  }

  withLock(scope, fn) {
    const path = scope === "global" ? this.#paths.global : this.#paths.project;
    let release;
    try {
      // Nothing is created (directory or lock) unless there is something to write.
      const exists = existsSync(path);
      if (exists) release = lockWithRetry(path);
      const next = fn(exists ? readFileSync(path, "utf-8") : undefined);
      if (next === undefined) return;
      if (!existsSync(dirname(path))) mkdirSync(dirname(path), { recursive: true });
      release ??= lockWithRetry(path);
      writeFileSync(path, next, "utf-8");
    } finally {
      release?.();
    }
  }
}

export class InMemorySettingsStorage {
  #texts = { global: undefined, project: undefined };

  withLock(scope, fn) {
    const next = fn(this.#texts[scope === "global" ? "global" : "project"]);
    if (next !== undefined) this.#texts[scope === "global" ? "global" : "project"] = next;
  }
}
