// Where OAuth state of MCP servers is kept: `<agent dir>/mcp-auth.json`,
// one entry per server keyed by its namespace and URL (servers sharing a
// URL keep separate accounts). Entries keyed by URL alone, as older pi
// versions wrote them, are taken over by the first server that loads them.
// Every read and write holds the file's lock, shared with pi.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { getAgentDir } from "../../agent-dir.js";
import { lockWithRetry } from "../../settings-storage.js";
import { mcpNamespace } from "../client/naming.js";
import { McpRefreshLockBusyError } from "./errors.js";

const FILE_MODE = 0o600;
/** A refresh lock whose holder was killed is taken over after this. */
const REFRESH_LOCK_STALE_MS = 20_000;
/** Waiting for another process's refresh: longer than a stale lock lives. */
const REFRESH_LOCK_WAIT_MS = 25_000;
const REFRESH_LOCK_RETRY_MS = 100;

function parseStates(text) {
  if (!text?.trim()) return {};
  const parsed = JSON.parse(text);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {};
}

const serializeStates = (states) => `${JSON.stringify(states, null, 2)}\n`;

function keysOf(name, serverUrl) {
  const legacyKey = String(new URL(serverUrl));
  return { key: `${mcpNamespace(name)}|${legacyKey}`, legacyKey };
}

/** The JSON file under its lock: `fn(text)` returns `{ result, next }`, `next` being the text to write. */
class LockedJsonFile {
  #path;

  constructor(path) {
    this.#path = path;
  }

  withLock(fn) {
    const dir = dirname(this.#path);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(this.#path)) writeFileSync(this.#path, "{}", { mode: FILE_MODE });
    const release = lockWithRetry(this.#path);
    try {
      const { result, next } = fn(readFileSync(this.#path, "utf-8"));
      if (next !== undefined) {
        writeFileSync(this.#path, next, { mode: FILE_MODE });
        chmodSync(this.#path, FILE_MODE);
      }
      return result;
    } finally {
      release();
    }
  }
}

/** Serializes refreshes of one server in this process while another holds its lock directory. */
const refreshQueues = new Map();

async function takeLockDirectory(path) {
  const deadline = Date.now() + REFRESH_LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(path);
      return () => {
        try {
          rmdirSync(path);
        } catch {}
      };
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(path).mtimeMs > REFRESH_LOCK_STALE_MS) {
        rmdirSync(path);
        continue;
      }
    } catch {
      continue;
    }
    if (Date.now() >= deadline) throw new McpRefreshLockBusyError();
    await new Promise((done) => setTimeout(done, REFRESH_LOCK_RETRY_MS));
  }
}

export class McpOAuthCredentialStore {
  #file;
  /** Directory of the refresh locks; without one refreshes are only serialized in this process. */
  #lockDir;

  /** `backend` ({ withLock(fn) }) replaces the file, for tests; then `lockDir` is optional. */
  constructor(backend, lockDir) {
    this.#file = backend ?? new LockedJsonFile(join(getAgentDir(), "mcp-auth.json"));
    this.#lockDir = backend ? lockDir : getAgentDir();
  }

  /** The store of one server: `load()`, `save(state)`, `withRefreshLock(fn)`. */
  forServer(name, serverUrl) {
    const { key, legacyKey } = keysOf(name, serverUrl);
    return {
      load: async () =>
        this.#file.withLock((text) => {
          const states = parseStates(text);
          if (states[key] || !states[legacyKey]) return { result: states[key] };
          states[key] = states[legacyKey];
          delete states[legacyKey];
          return { result: states[key], next: serializeStates(states) };
        }),
      save: async (state) => this.#update((states) => {
        states[key] = state;
      }),
      withRefreshLock: (fn) => this.#withRefreshLock(key, fn),
    };
  }

  /** The server's stored tokens, to notice a sign-in by another process; legacy entries are not taken over. */
  tokens(name, serverUrl) {
    const { key, legacyKey } = keysOf(name, serverUrl);
    const states = this.#file.withLock((text) => ({ result: parseStates(text) }));
    return (states[key] ?? states[legacyKey])?.tokens;
  }

  /** Whether credentials were stored for the server; they are removed. */
  remove(name, serverUrl) {
    const { key, legacyKey } = keysOf(name, serverUrl);
    return this.#file.withLock((text) => {
      const states = parseStates(text);
      const stored = key in states ? key : legacyKey in states ? legacyKey : undefined;
      if (!stored) return { result: false };
      delete states[stored];
      return { result: true, next: serializeStates(states) };
    });
  }

  #update(change) {
    this.#file.withLock((text) => {
      const states = parseStates(text);
      change(states);
      return { result: undefined, next: serializeStates(states) };
    });
  }

  async #withRefreshLock(key, fn) {
    const previous = refreshQueues.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      if (!this.#lockDir) return fn();
      mkdirSync(this.#lockDir, { recursive: true, mode: 0o700 });
      const hash = createHash("sha256").update(key).digest("hex").slice(0, 16);
      const release = await takeLockDirectory(join(this.#lockDir, `mcp-auth-refresh-${hash}.lock`));
      try {
        return await fn();
      } finally {
        release();
      }
    });
    refreshQueues.set(key, run);
    try {
      return await run;
    } finally {
      if (refreshQueues.get(key) === run) refreshQueues.delete(key);
    }
  }
}
