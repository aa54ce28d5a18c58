// Listing sessions for pickers: each file summarised (id, cwd, name, first
// message, message count, when it was last active) without building its
// tree. Files that are not sessions, or cannot be read, are left out.
import { existsSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { getAgentDir } from "./agent-dir.js";
import { parseEntryLine } from "./session-files.js";

const hasContent = (message) => typeof message.role === "string" && "content" in message;
const isConversationMessage = (message) => message.role === "user" || message.role === "assistant";

function messageText(message) {
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join(" ");
}

/** When a user or assistant message happened: its own timestamp, else its entry's. */
function activityTime(entry) {
  const message = entry.message;
  if (!hasContent(message) || !isConversationMessage(message)) return undefined;
  if (typeof message.timestamp === "number") return message.timestamp;
  const time = new Date(entry.timestamp).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** The summary of one session file; null when it is not a session or reading it fails. */
async function summarizeSession(filePath, signal, knownStats) {
  try {
    const stats = knownStats ?? (await stat(filePath));
    // Lines end as readline ends them: "\n", "\r\n" or a lone "\r".
    const lines = (await readFile(filePath, "utf8")).split(/\r\n|\r|\n/);
    let header = null;
    let name;
    let messageCount = 0;
    let lastActivity;
    let firstMessage = "";
    const texts = [];
    for (const line of lines) {
      signal?.throwIfAborted();
      const entry = parseEntryLine(line);
      if (!entry) continue;
      if (!header) {
        if (entry.type !== "session") return null;
        header = entry;
        continue;
      }
      // The latest name wins, and an empty one clears it.
      if (entry.type === "session_info") name = entry.name?.trim() || undefined;
      if (entry.type !== "message") continue;
      messageCount++;
      const time = activityTime(entry);
      if (typeof time === "number") lastActivity = Math.max(lastActivity ?? 0, time);
      const message = entry.message;
      if (!hasContent(message) || !isConversationMessage(message)) continue;
      const text = messageText(message);
      if (!text) continue;
      texts.push(text);
      if (!firstMessage && message.role === "user") firstMessage = text;
    }
    signal?.throwIfAborted();
    if (!header) return null;
    const created = typeof header.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
    let modified = stats.mtime;
    if (typeof lastActivity === "number" && lastActivity > 0) modified = new Date(lastActivity);
    else if (!Number.isNaN(created)) modified = new Date(created);
    return {
      path: filePath,
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      name,
      parentSessionPath: header.parentSession,
      created: new Date(header.timestamp),
      modified,
      messageCount,
      firstMessage: firstMessage || "(no messages)",
      allMessagesText: texts.join(" "),
    };
  } catch {
    signal?.throwIfAborted();
    return null;
  }
}

/** `map` over `items` with at most `limit` running at once; results keep the items' order. */
async function mapConcurrently(items, limit, map, signal) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      results[index] = await map(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const SUMMARY_CONCURRENCY = 10;
const DISCOVERY_CONCURRENCY = 64;
// How often progress reports carry the sessions found so far (a picker redraws on each).
const DIR_PUBLISH_EVERY = 10;
const ALL_PUBLISH_EVERY = 100;

/** Most recently active first (a stable sort: ties keep their order). */
export const byRecentActivity = (sessions) => sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());

function summarizeAll(files, onSummary, signal) {
  return mapConcurrently(
    files,
    SUMMARY_CONCURRENCY,
    async (file, index) => {
      const summary = await summarizeSession(file.path, signal, file.stats);
      onSummary(summary, index);
      return summary;
    },
    signal,
  );
}

/** The sessions of one directory, in file name order (newest name first); [] when it cannot be listed. */
export async function listSessionsInDir(dir, onProgress, signal) {
  signal?.throwIfAborted();
  if (!existsSync(dir)) return [];
  try {
    const files = (await readdir(dir))
      .filter((file) => file.endsWith(".jsonl"))
      .sort((a, b) => b.localeCompare(a))
      .map((file) => ({ path: join(dir, file) }));
    const found = [];
    let loaded = 0;
    const summaries = await summarizeAll(
      files,
      (summary) => {
        loaded++;
        if (summary) found.push(summary);
        const publish = loaded === 1 || loaded % DIR_PUBLISH_EVERY === 0 || loaded === files.length;
        onProgress?.(loaded, files.length, publish ? byRecentActivity([...found]) : undefined);
      },
      signal,
    );
    return summaries.filter((summary) => summary !== null);
  } catch {
    signal?.throwIfAborted();
    return [];
  }
}

async function sessionFilesIn(dir) {
  try {
    return (await readdir(dir)).filter((file) => file.endsWith(".jsonl")).map((file) => join(dir, file));
  } catch {
    return [];
  }
}

/** Every cwd's sessions under the agent directory, most recently active first. */
export async function listAllSessions(onProgress, signal) {
  const sessionsDir = join(getAgentDir(), "sessions");
  try {
    if (!existsSync(sessionsDir)) return [];
    const dirs = (await readdir(sessionsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => join(sessionsDir, entry.name));
    const files = (await mapConcurrently(dirs, DISCOVERY_CONCURRENCY, sessionFilesIn, signal)).flat();
    const candidates = await mapConcurrently(
      files,
      DISCOVERY_CONCURRENCY,
      async (path) => {
        try {
          return { path, stats: await stat(path) };
        } catch {
          return { path };
        }
      },
      signal,
    );
    // Newest files first, so the first progress report already shows the likeliest pick.
    const mtime = (candidate) => candidate.stats?.mtimeMs ?? Number.NEGATIVE_INFINITY;
    candidates.sort((a, b) => mtime(b) - mtime(a) || basename(b.path).localeCompare(basename(a.path)));
    const found = [];
    let loaded = 0;
    let newestLoaded = false;
    const summaries = await summarizeAll(
      candidates,
      (summary, index) => {
        loaded++;
        if (index === 0) newestLoaded = true;
        if (summary) found.push(summary);
        const publish = newestLoaded && (index === 0 || loaded % ALL_PUBLISH_EVERY === 0 || loaded === candidates.length);
        onProgress?.(loaded, candidates.length, publish ? byRecentActivity([...found]) : undefined);
      },
      signal,
    );
    return byRecentActivity(summaries.filter((summary) => summary !== null));
  } catch {
    signal?.throwIfAborted();
    return [];
  }
}
