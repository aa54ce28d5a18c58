// pi's SessionManager: a conversation kept as an append-only tree of entries
// in a JSONL file (or only in memory). Every entry points at its parent; the
// leaf is where the next entry goes, so moving it back starts a branch
// without rewriting history. A new session's file appears only once it holds
// a user or assistant message, so opening pi and leaving writes nothing.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { getCurrentSystemMessage } from "../ai/system-messages.js";
import { uuidv7 } from "../ai/uuid.js";
import { expandPath, pathsEqual, resolvePath } from "./paths.js";
import { buildContextEntries, buildSessionProjection } from "./session-context.js";
import { CURRENT_SESSION_VERSION, upgradeSessionEntries } from "./session-entries.js";
import {
  SessionHeaderScanLimitError,
  defaultSessionDirPath,
  discoverSessionHeader,
  ensureDefaultSessionDir,
  filtersByCwd,
  findMostRecentSession,
  headerCwdMatches,
  loadEntriesFromFile,
  readSessionHeader,
} from "./session-files.js";
import { byRecentActivity, listAllSessions, listSessionsInDir } from "./session-list.js";

function assertValidSessionId(id) {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(id)) {
    throw new Error(
      "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character",
    );
  }
}

/** An 8-hex-digit entry id not yet in `taken` (a Map or Set); a whole UUID if that keeps failing. */
function newEntryId(taken) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = globalThis.crypto.randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return globalThis.crypto.randomUUID();
}

const now = () => new Date().toISOString();

/** `<timestamp>_<id>.jsonl`, the timestamp with ":" and "." made "-" so it is a valid file name everywhere. */
const sessionFileName = (timestamp, sessionId) => `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;

const headerCwd = (header) => (typeof header.cwd === "string" ? header.cwd : undefined);

function writeEntries(path, entries, flags) {
  const fd = openSync(path, flags);
  try {
    for (const entry of entries) writeFileSync(fd, `${JSON.stringify(entry)}\n`);
  } finally {
    closeSync(fd);
  }
}

export class SessionManager {
  #sessionId = "";
  #sessionFile;
  #sessionDir;
  #cwd;
  #persist;
  // Whether the file on disk holds every entry so far (so new ones are appended).
  #flushed = false;
  #fileEntries = [];
  #byId = new Map();
  #labels = new Map();
  #labelTimestamps = new Map();
  #leafId = null;

  // Private in pi: use the static constructors.
  constructor(cwd, sessionDir, sessionFile, persist, newSessionOptions, preloadedEntries) {
    this.#cwd = resolvePath(cwd);
    this.#sessionDir = expandPath(sessionDir);
    this.#persist = persist;
    if (persist && this.#sessionDir && !existsSync(this.#sessionDir)) mkdirSync(this.#sessionDir, { recursive: true });
    if (sessionFile) this.#openFile(sessionFile, preloadedEntries);
    else if (preloadedEntries?.length) this.#adoptEntries(preloadedEntries, newSessionOptions);
    else this.newSession(newSessionOptions);
  }

  /** Switches to another session file: loads it, or starts a session that will be written there. */
  setSessionFile(sessionFile) {
    this.#openFile(sessionFile);
  }

  #openFile(sessionFile, preloadedEntries) {
    const path = resolvePath(sessionFile);
    this.#sessionFile = path;
    if (!existsSync(path)) {
      // A path given explicitly (pi's --session) is kept for the new session.
      this.newSession();
      this.#sessionFile = path;
      return;
    }
    const entries = preloadedEntries ?? loadEntriesFromFile(path);
    if (entries.length > 0) {
      this.#adoptEntries(entries);
      this.#flushed = true;
      return;
    }
    // An empty file becomes a fresh session; anything else unreadable is left alone.
    if (statSync(path).size > 0) throw new Error(`Session file is not a valid pi session: ${path}`);
    this.newSession();
    this.#sessionFile = path;
    this.#rewriteFile();
    this.#flushed = true;
  }

  /** Starts an empty session (new id, no entries); returns its file path when persisting. */
  newSession(options) {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    this.#sessionId = options?.id ?? uuidv7();
    const timestamp = now();
    const header = {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: this.#sessionId,
      timestamp,
      cwd: this.#cwd,
      parentSession: options?.parentSession,
    };
    this.#fileEntries = [header];
    this.#byId.clear();
    this.#labels.clear();
    this.#labelTimestamps.clear();
    this.#leafId = null;
    this.#flushed = false;
    if (this.#persist) this.#sessionFile = join(this.getSessionDir(), sessionFileName(timestamp, this.#sessionId));
    return this.#sessionFile;
  }

  #adoptEntries(entries, options) {
    if (entries.some((entry) => entry.type === "session")) {
      this.#fileEntries = entries;
      this.#sessionId = entries.find((entry) => entry.type === "session").id;
      if (upgradeSessionEntries(this.#fileEntries)) this.#rewriteFile();
    } else {
      // Entries without a header (handed to inMemory) continue a fresh session.
      this.newSession(options);
      this.#fileEntries = this.#fileEntries.concat(entries);
    }
    this.#reindex();
  }

  #reindex() {
    this.#byId.clear();
    this.#labels.clear();
    this.#labelTimestamps.clear();
    this.#leafId = null;
    for (const entry of this.#fileEntries) {
      if (entry.type === "session") continue;
      this.#byId.set(entry.id, entry);
      this.#leafId = entry.id;
      if (entry.type === "label") this.#recordLabel(entry.targetId, entry.label, entry.timestamp);
    }
  }

  #recordLabel(targetId, label, timestamp) {
    if (label) {
      this.#labels.set(targetId, label);
      this.#labelTimestamps.set(targetId, timestamp);
    } else {
      this.#labels.delete(targetId);
      this.#labelTimestamps.delete(targetId);
    }
  }

  #rewriteFile() {
    if (!this.#persist || !this.#sessionFile) return;
    writeEntries(this.#sessionFile, this.#fileEntries, "w");
  }

  isPersisted() {
    return this.#persist;
  }

  getCwd() {
    return this.#cwd;
  }

  getSessionDir() {
    return this.#sessionDir;
  }

  usesDefaultSessionDir() {
    return pathsEqual(this.#sessionDir, defaultSessionDirPath(this.#cwd));
  }

  getSessionId() {
    return this.#sessionId;
  }

  getSessionFile() {
    return this.#sessionFile;
  }

  #hasConversation() {
    return this.#fileEntries.some((entry) => entry.type === "message" && (entry.message.role === "user" || entry.message.role === "assistant"));
  }

  /**
   * Writes `entry` (already in memory) to the file. The first write creates
   * the file with everything so far, and only once there is a conversation:
   * starting at the user's message keeps the prompt even if the reply never comes.
   */
  _persist(entry) {
    if (!this.#persist || !this.#sessionFile) return;
    if (this.#flushed) {
      appendFileSync(this.#sessionFile, `${JSON.stringify(entry)}\n`);
      return;
    }
    if (!this.#hasConversation()) return;
    // "wx": never overwrite a file someone else created meanwhile.
    writeEntries(this.#sessionFile, this.#fileEntries, "wx");
    this.#flushed = true;
  }

  #append(entry) {
    const previousLeafId = this.#leafId;
    this.#fileEntries.push(entry);
    this.#byId.set(entry.id, entry);
    this.#leafId = entry.id;
    try {
      this._persist(entry);
    } catch (error) {
      // An entry the file lacks must not become a parent, or the file would point at nothing.
      this.#fileEntries.pop();
      this.#byId.delete(entry.id);
      this.#leafId = previousLeafId;
      throw error;
    }
  }

  /** The fields every entry starts with, as a child of the leaf. */
  #entryBase(type) {
    return { type, id: newEntryId(this.#byId), parentId: this.#leafId, timestamp: now() };
  }

  #appendReturningId(entry) {
    this.#append(entry);
    return entry.id;
  }

  /** Appends a message; compaction and branch summaries have entries of their own instead. */
  appendMessage(message) {
    return this.#appendReturningId({ ...this.#entryBase("message"), message });
  }

  appendThinkingLevelChange(thinkingLevel) {
    return this.#appendReturningId({ ...this.#entryBase("thinking_level_change"), thinkingLevel });
  }

  appendModelChange(provider, modelId) {
    return this.#appendReturningId({ ...this.#entryBase("model_change"), provider, modelId });
  }

  /** Appends usage that counts toward the session's totals but is not in the model's context; returns the entry. */
  appendUsage(kind, provider, model, usage, note) {
    const entry = { ...this.#entryBase("usage"), kind, provider, model, usage, ...(note ? { note } : {}) };
    this.#append(entry);
    return entry;
  }

  /**
   * Appends a compaction. It carries the system prompt and tools in force
   * (replayed from the context it replaces), since the system messages it
   * summarises away would otherwise be lost. Without `firstKeptEntryId`
   * nothing before it is kept.
   */
  appendCompaction(summary, firstKeptEntryId, tokensBefore, details, fromHook, usage) {
    const timestamp = now();
    const systemMessage = getCurrentSystemMessage(this.buildSessionProjection().messages);
    const id = newEntryId(this.#byId);
    return this.#appendReturningId({
      type: "compaction",
      id,
      parentId: this.#leafId,
      timestamp,
      summary,
      firstKeptEntryId: firstKeptEntryId ?? id,
      tokensBefore,
      details,
      usage,
      fromHook,
      ...(systemMessage ? { systemMessage: { ...systemMessage, timestamp: new Date(timestamp).getTime() } } : {}),
    });
  }

  /** Appends extension state; it never reaches the model. */
  appendCustomEntry(customType, data) {
    const { type, ...base } = this.#entryBase("custom");
    return this.#appendReturningId({ type, customType, data, ...base });
  }

  /** Appends the session's display name, on one line. */
  appendSessionInfo(name) {
    return this.#appendReturningId({ ...this.#entryBase("session_info"), name: name.replace(/[\r\n]+/g, " ").trim() });
  }

  /** The name from the latest session_info entry; an empty name clears it. */
  getSessionName() {
    // Read in place, not through getEntries(): the footer asks on every frame.
    for (let i = this.#fileEntries.length - 1; i >= 0; i--) {
      const entry = this.#fileEntries[i];
      if (entry.type === "session_info") return entry.name?.trim() || undefined;
    }
    return undefined;
  }

  /** Appends an extension's message that does reach the model (shown in the TUI when `display`). */
  appendCustomMessageEntry(customType, content, display, details) {
    const { type, ...base } = this.#entryBase("custom_message");
    return this.#appendReturningId({ type, customType, content, display, details, ...base });
  }

  /**
   * Appends an edit of an earlier entry's model-visible content on this
   * branch: a null replacement hides it. Assistant and tool result content
   * must be blocks, so a string becomes one text block.
   */
  appendContextEdit(targetId, replacement) {
    const validReplacement =
      replacement === null ||
      (typeof replacement === "object" && "content" in replacement && (typeof replacement.content === "string" || Array.isArray(replacement.content)));
    if (!validReplacement) throw new Error("Context edit replacement must be null or contain string/array content");
    const target = this.#byId.get(targetId);
    if (!target) throw new Error(`Entry ${targetId} not found`);
    if (!this.getBranch().some((entry) => entry.id === targetId)) throw new Error(`Entry ${targetId} is not on the active branch`);
    const editable =
      target.type === "custom_message" || (target.type === "message" && ["user", "assistant", "toolResult"].includes(target.message.role));
    if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
    const role = target.type === "message" ? target.message.role : "custom";
    const needsBlocks = replacement !== null && (role === "assistant" || role === "toolResult") && typeof replacement.content === "string";
    return this.#appendReturningId({
      ...this.#entryBase("context_edit"),
      targetId,
      replacement: needsBlocks ? { content: [{ type: "text", text: replacement.content }] } : replacement,
    });
  }

  // --- The tree ----------------------------------------------------------------

  getLeafId() {
    return this.#leafId;
  }

  getLeafEntry() {
    return this.#leafId ? this.#byId.get(this.#leafId) : undefined;
  }

  getEntry(id) {
    return this.#byId.get(id);
  }

  getChildren(parentId) {
    return [...this.#byId.values()].filter((entry) => entry.parentId === parentId);
  }

  getLabel(id) {
    return this.#labels.get(id);
  }

  /** Sets a bookmark label on an entry; an empty or missing label clears it. */
  appendLabelChange(targetId, label) {
    if (!this.#byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    const entry = { ...this.#entryBase("label"), targetId, label };
    this.#append(entry);
    this.#recordLabel(targetId, label, entry.timestamp);
    return entry.id;
  }

  /** The entries from the root down to `fromId` (the leaf by default), of every type. */
  getBranch(fromId) {
    const startId = fromId ?? this.#leafId;
    const path = [];
    for (let entry = startId ? this.#byId.get(startId) : undefined; entry; entry = entry.parentId ? this.#byId.get(entry.parentId) : undefined) {
      path.push(entry);
    }
    return path.reverse();
  }

  buildContextEntries() {
    return buildContextEntries(this.getEntries(), this.#leafId, this.#byId);
  }

  buildSessionProjection() {
    return buildSessionProjection(this.getEntries(), this.#leafId, this.#byId);
  }

  /** What the model is sent from the leaf: messages, thinking level and model. */
  buildSessionContext() {
    const { messages, thinkingLevel, model } = this.buildSessionProjection();
    return { messages, thinkingLevel, model };
  }

  getHeader() {
    return this.#fileEntries.find((entry) => entry.type === "session") ?? null;
  }

  /** How many entries there are (without the header), without copying them. */
  getEntryCount() {
    return this.#byId.size;
  }

  /** Every entry but the header, in file order (a new array; the entries themselves are shared). */
  getEntries() {
    return this.#fileEntries.filter((entry) => entry.type !== "session");
  }

  /**
   * The entries as a tree with their labels; children oldest first. An entry
   * whose parent is missing (or itself) is a root of its own.
   */
  getTree() {
    const entries = this.getEntries();
    const nodes = new Map();
    for (const entry of entries) {
      nodes.set(entry.id, { entry, children: [], label: this.#labels.get(entry.id), labelTimestamp: this.#labelTimestamps.get(entry.id) });
    }
    const roots = [];
    for (const entry of entries) {
      const node = nodes.get(entry.id);
      const parent = entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    // A loop rather than recursion: sessions can be deeper than the stack.
    const time = (node) => new Date(node.entry.timestamp).getTime();
    const pending = [...roots];
    while (pending.length > 0) {
      const node = pending.pop();
      node.children.sort((a, b) => time(a) - time(b));
      pending.push(...node.children);
    }
    return roots;
  }

  // --- Branching -------------------------------------------------------------------

  /** Moves the leaf back to an existing entry; the next append starts a branch there. */
  branch(branchFromId) {
    if (!this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    this.#leafId = branchFromId;
  }

  /** Moves the leaf before the first entry: the next append is a new root. */
  resetLeaf() {
    this.#leafId = null;
  }

  /** branch(), then a summary of the path being left (from the old leaf) as the new branch's first entry. */
  branchWithSummary(branchFromId, summary, details, fromHook, usage) {
    if (branchFromId !== null && !this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    const fromId = this.#leafId ?? "root";
    this.#leafId = branchFromId;
    return this.#appendReturningId({ ...this.#entryBase("branch_summary"), fromId, summary, details, usage, fromHook });
  }

  /**
   * Replaces this session with a new one holding only the path to `leafId`,
   * its labels re-added at the end. Returns the new file (undefined in memory);
   * like any new session it is written once it has a conversation.
   */
  createBranchedSession(leafId) {
    const previousSessionFile = this.#sessionFile;
    const path = this.getBranch(leafId);
    if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
    const kept = this.#pathWithoutLabels(path);
    const sessionId = uuidv7();
    const timestamp = now();
    const header = {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: sessionId,
      timestamp,
      cwd: this.#cwd,
      parentSession: this.#persist ? previousSessionFile : undefined,
    };
    const keptIds = new Set(kept.map((entry) => entry.id));
    const labels = [];
    let parentId = kept[kept.length - 1]?.id || null;
    for (const [targetId, label] of this.#labels) {
      if (!keptIds.has(targetId)) continue;
      const id = newEntryId(new Set([...keptIds, ...labels.map((entry) => entry.id)]));
      labels.push({ type: "label", id, parentId, timestamp: this.#labelTimestamps.get(targetId), targetId, label });
      parentId = id;
    }
    this.#fileEntries = [header, ...kept, ...labels];
    this.#sessionId = sessionId;
    if (!this.#persist) {
      this.#reindex();
      return undefined;
    }
    const sessionFile = join(this.getSessionDir(), sessionFileName(timestamp, sessionId));
    this.#sessionFile = sessionFile;
    this.#reindex();
    this.#flushed = this.#hasConversation();
    if (this.#flushed) this.#rewriteFile();
    return sessionFile;
  }

  /**
   * `path` without its label entries (they are re-created from the labels
   * in force), every entry re-parented onto the one before it so nothing
   * hangs off a dropped label; a compaction that kept from a label keeps
   * from the entry after it instead.
   */
  #pathWithoutLabels(path) {
    const kept = [];
    const successorOfLabel = new Map();
    const droppedLabels = [];
    let parentId = null;
    for (const entry of path) {
      if (entry.type === "label") {
        droppedLabels.push(entry.id);
        continue;
      }
      for (const labelId of droppedLabels) successorOfLabel.set(labelId, entry.id);
      droppedLabels.length = 0;
      if (entry.type === "compaction") {
        const firstKeptEntryId = entry.firstKeptEntryId === entry.id ? entry.id : (successorOfLabel.get(entry.firstKeptEntryId) ?? entry.firstKeptEntryId);
        kept.push({ ...entry, parentId, firstKeptEntryId });
      } else {
        kept.push({ ...entry, parentId });
      }
      parentId = entry.id;
    }
    return kept;
  }

  // --- Opening and finding sessions --------------------------------------------------

  /** A new session for `cwd`, in `sessionDir` or the cwd's default directory. */
  static create(cwd, sessionDir, options) {
    const dir = sessionDir ? expandPath(sessionDir) : ensureDefaultSessionDir(cwd);
    return new SessionManager(cwd, dir, undefined, true, options);
  }

  /**
   * The session in `path` (a new one to be written there when it does not
   * exist). Its cwd is the header's unless overridden; new sessions made
   * from it go to `sessionDir`, else the file's directory.
   */
  static open(path, sessionDir, cwdOverride) {
    const resolvedPath = resolvePath(path);
    let header = null;
    let preloadedEntries;
    if (cwdOverride === undefined && existsSync(resolvedPath)) {
      try {
        header = readSessionHeader(resolvedPath);
      } catch (error) {
        if (!(error instanceof SessionHeaderScanLimitError)) throw error;
        // The bounded scan only saves time; a huge legacy header is read in full.
        preloadedEntries = loadEntriesFromFile(resolvedPath);
        header = preloadedEntries[0]?.type === "session" ? preloadedEntries[0] : null;
      }
    }
    const cwd = cwdOverride ?? (header ? headerCwd(header) : undefined) ?? resolve();
    const dir = sessionDir ? expandPath(sessionDir) : resolve(resolvedPath, "..");
    return new SessionManager(cwd, dir, resolvedPath, true, undefined, preloadedEntries);
  }

  /**
   * The most recently modified session in the directory, or a new one. A
   * custom directory may hold other cwds' sessions: only `cwd`'s count there.
   */
  static continueRecent(cwd, sessionDir) {
    const dir = sessionDir ? expandPath(sessionDir) : ensureDefaultSessionDir(cwd);
    const mostRecent = findMostRecentSession(dir, filtersByCwd(sessionDir, dir, cwd) ? cwd : undefined);
    return new SessionManager(cwd, dir, mostRecent ?? undefined, true);
  }

  /** A session that is never written; `entries` (a file's, header optional) start it off. */
  static inMemory(cwd = resolve(), options, entries) {
    return new SessionManager(cwd, "", undefined, false, options, entries);
  }

  /**
   * A copy of another session (typically another project's) as a new
   * session of `targetCwd`, pointing back at its source.
   */
  static forkFrom(sourcePath, targetCwd, sessionDir, options) {
    const source = resolvePath(sourcePath);
    const cwd = resolvePath(targetCwd);
    const entries = loadEntriesFromFile(source);
    if (entries.length === 0) throw new Error(`Cannot fork: source session file is empty or invalid: ${source}`);
    if (!entries.some((entry) => entry.type === "session")) throw new Error(`Cannot fork: source session has no header: ${source}`);
    const dir = sessionDir ? expandPath(sessionDir) : ensureDefaultSessionDir(cwd);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    if (options?.id !== undefined) assertValidSessionId(options.id);
    const sessionId = options?.id ?? uuidv7();
    const timestamp = now();
    const sessionFile = join(dir, sessionFileName(timestamp, sessionId));
    const header = { type: "session", version: CURRENT_SESSION_VERSION, id: sessionId, timestamp, cwd, parentSession: source };
    writeEntries(sessionFile, [header, ...entries.filter((entry) => entry.type !== "session")], "wx");
    return new SessionManager(cwd, dir, sessionFile, true);
  }

  /** The file of the session with exactly this id, reading only headers; undefined when there is none. */
  static findById(cwd, id, sessionDir) {
    const dir = sessionDir ? expandPath(sessionDir) : ensureDefaultSessionDir(cwd);
    const filterCwd = filtersByCwd(sessionDir, dir, cwd);
    const resolvedCwd = resolvePath(cwd);
    try {
      for (const file of readdirSync(dir)) {
        if (!file.endsWith(".jsonl")) continue;
        const path = join(dir, file);
        const header = discoverSessionHeader(path);
        if (header?.id !== id) continue;
        if (filterCwd && !headerCwdMatches(header, resolvedCwd)) continue;
        return path;
      }
    } catch {
      // Best effort, as list() is.
    }
    return undefined;
  }

  /** Summaries of `cwd`'s sessions, most recently active first; `onProgress(loaded, total, soFar?)` as they load. */
  static async list(cwd, sessionDir, onProgress, signal) {
    const dir = sessionDir ? expandPath(sessionDir) : ensureDefaultSessionDir(cwd);
    const filterCwd = filtersByCwd(sessionDir, dir, cwd);
    const resolvedCwd = resolvePath(cwd);
    const isIncluded = (session) => !filterCwd || headerCwdMatches(session, resolvedCwd);
    const progress = onProgress && ((loaded, total, soFar) => onProgress(loaded, total, soFar?.filter(isIncluded)));
    const sessions = await listSessionsInDir(dir, progress, signal);
    return byRecentActivity(sessions.filter(isIncluded));
  }

  /** Summaries of every session: of one directory, or of all cwds under the agent directory. */
  static async listAll(sessionDirOrOnProgress, onProgressOrSignal, signal) {
    const customDir = typeof sessionDirOrOnProgress === "string" ? expandPath(sessionDirOrOnProgress) : undefined;
    let onProgress;
    if (typeof sessionDirOrOnProgress === "function") onProgress = sessionDirOrOnProgress;
    else if (typeof onProgressOrSignal === "function") onProgress = onProgressOrSignal;
    const signalGivenLast = typeof sessionDirOrOnProgress === "string" || typeof onProgressOrSignal === "function";
    const abortSignal = signalGivenLast ? signal : (onProgressOrSignal ?? signal);
    abortSignal?.throwIfAborted();
    if (customDir) return byRecentActivity(await listSessionsInDir(customDir, onProgress, abortSignal));
    return listAllSessions(onProgress, abortSignal);
  }
}
