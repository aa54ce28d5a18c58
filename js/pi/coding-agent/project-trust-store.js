// pi's record of trusted project folders: agentDir/trust.json maps folder
// paths to true (trusted) or false (not); a folder takes the decision of
// the nearest recorded folder at or above it. Reads and writes hold the
// settings' file lock (`trust.json.lock`) so two pi processes do not lose
// each other's decisions.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { canonicalizePath, pathsEqual, resolvePath } from "./paths.js";
import { lockWithRetry } from "./settings-storage.js";

function normalizeCwd(cwd) {
  return canonicalizePath(resolvePath(cwd));
}

function keysNaming(data, path) {
  return Object.keys(data).filter((key) => pathsEqual(key, path));
}

function nearestEntry(data, cwd) {
  let dir = normalizeCwd(cwd);
  for (;;) {
    for (const key of keysNaming(data, dir)) {
      const value = data[key];
      if (value === true || value === false) return { path: key, decision: value };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readTrustFile(path) {
  if (!existsSync(path)) return {};
  let parsed;
  try {
    const text = readFileSync(path, "utf-8");
    parsed = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new Error(`Failed to read trust store ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Invalid trust store ${path}: expected an object`);
  }
  const data = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) {
      throw new Error(`Invalid trust store ${path}: value for ${JSON.stringify(key)} must be true, false, or null`);
    }
    data[key] = value;
  }
  return data;
}

function writeTrustFile(path, data) {
  const sorted = {};
  for (const key of Object.keys(data).sort()) {
    if (data[key] === true || data[key] === false || data[key] === null) sorted[key] = data[key];
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`, "utf-8");
}

function withTrustFileLock(path, run) {
  mkdirSync(dirname(path), { recursive: true });
  const release = lockWithRetry(path);
  try {
    return run();
  } finally {
    release();
  }
}

export class ProjectTrustStore {
  trustPath;

  constructor(agentDir) {
    this.trustPath = join(resolvePath(agentDir), "trust.json");
  }

  /** The decision for `cwd` (from it or the nearest folder above it), or null when none is recorded. */
  get(cwd) {
    return this.getEntry(cwd)?.decision ?? null;
  }

  getEntry(cwd) {
    return withTrustFileLock(this.trustPath, () => nearestEntry(readTrustFile(this.trustPath), cwd));
  }

  set(cwd, decision) {
    this.setMany([{ path: cwd, decision }]);
  }

  /** Records each decision; null forgets the folder's own entry. */
  setMany(decisions) {
    withTrustFileLock(this.trustPath, () => {
      const data = readTrustFile(this.trustPath);
      for (const { path, decision } of decisions) {
        const key = normalizeCwd(path);
        for (const existing of keysNaming(data, key)) delete data[existing];
        if (decision !== null) data[key] = decision;
      }
      writeTrustFile(this.trustPath, data);
    });
  }
}
