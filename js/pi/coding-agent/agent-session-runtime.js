// pi's AgentSessionRuntime: owns the current AgentSession and its services
// and replaces them for /new, /resume, /fork and imports. Each replacement
// settles and disposes the current session first, then asks the caller's
// `createRuntime` factory for the next one; a failure reaches the caller.
import { constants, copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { basename, join, parse } from "node:path";
import { pathsEqual, resolvePath } from "./paths.js";
import { assertSessionCwdExists } from "./session-cwd.js";
import { SessionManager } from "./session-manager.js";

export class SessionImportFileNotFoundError extends Error {
  filePath;

  constructor(filePath) {
    super(`File not found: ${filePath}`);
    this.name = "SessionImportFileNotFoundError";
    this.filePath = filePath;
  }
}

function userMessageText(content) {
  if (typeof content === "string") return content;
  return content
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("");
}

export class AgentSessionRuntime {
  rebindSession;
  beforeSessionInvalidate;
  _session;
  _services;
  createRuntime;
  _diagnostics;
  _modelFallbackMessage;
  /** `type\0message` of every diagnostic already handed out. */
  reportedDiagnosticKeys = new Set();

  constructor(session, services, createRuntime, diagnostics = [], modelFallbackMessage) {
    this._session = session;
    this._services = services;
    this.createRuntime = createRuntime;
    this._diagnostics = diagnostics;
    this._modelFallbackMessage = modelFallbackMessage;
  }

  get services() {
    return this._services;
  }

  get session() {
    return this._session;
  }

  get cwd() {
    return this._services.cwd;
  }

  get diagnostics() {
    return this._diagnostics;
  }

  get modelFallbackMessage() {
    return this._modelFallbackMessage;
  }

  /** The diagnostics not handed out before; one repeated by a later runtime is not repeated. */
  takeUnreportedDiagnostics() {
    return this._diagnostics.filter((diagnostic) => {
      const key = `${diagnostic.type}\0${diagnostic.message}`;
      if (this.reportedDiagnosticKeys.has(key)) return false;
      this.reportedDiagnosticKeys.add(key);
      return true;
    });
  }

  setRebindSession(rebindSession) {
    this.rebindSession = rebindSession;
  }

  /** A synchronous callback run after session_shutdown handlers, before the session is invalidated. */
  setBeforeSessionInvalidate(beforeSessionInvalidate) {
    this.beforeSessionInvalidate = beforeSessionInvalidate;
  }

  async emitBeforeSwitch(reason, targetSessionFile) {
    const runner = this.session.extensionRunner;
    if (!runner.hasHandlers("session_before_switch")) return { cancelled: false };
    const result = await runner.emit({ type: "session_before_switch", reason, targetSessionFile });
    return { cancelled: result?.cancel === true };
  }

  async emitBeforeFork(entryId, options) {
    const runner = this.session.extensionRunner;
    if (!runner.hasHandlers("session_before_fork")) return { cancelled: false };
    const result = await runner.emit({ type: "session_before_fork", entryId, ...options });
    return { cancelled: result?.cancel === true };
  }

  // The running answer (with its tool results) is settled into the outgoing session before it goes.
  async teardownCurrent(reason, targetSessionFile) {
    await this.session.abort();
    await this.#emitShutdown({ type: "session_shutdown", reason, targetSessionFile });
    this.beforeSessionInvalidate?.();
    this.session.dispose();
  }

  async #emitShutdown(event) {
    const runner = this.session.extensionRunner;
    if (runner.hasHandlers("session_shutdown")) await runner.emit(event);
  }

  apply(result) {
    this._session = result.session;
    this._services = result.services;
    this._diagnostics = result.diagnostics;
    this._modelFallbackMessage = result.modelFallbackMessage;
  }

  async finishSessionReplacement(withSession) {
    if (this.rebindSession) await this.rebindSession(this.session);
    if (withSession) await withSession(this.session.createReplacedSessionContext());
  }

  #replace(sessionManager, reason, previousSessionFile, extra = {}) {
    return this.createRuntime({
      cwd: extra.cwd ?? this.cwd,
      agentDir: this.services.agentDir,
      sessionManager,
      sessionStartEvent: { type: "session_start", reason, previousSessionFile },
      ...(extra.projectTrustContext ? { projectTrustContext: extra.projectTrustContext } : {}),
    });
  }

  async switchSession(sessionPath, options) {
    const before = await this.emitBeforeSwitch("resume", sessionPath);
    if (before.cancelled) return before;
    const previousSessionFile = this.session.sessionFile;
    const sessionManager = SessionManager.open(sessionPath, undefined, options?.cwdOverride);
    assertSessionCwdExists(sessionManager, this.cwd);
    await this.teardownCurrent("resume", sessionManager.getSessionFile());
    this.apply(
      await this.createRuntime({
        cwd: sessionManager.getCwd(),
        agentDir: this.services.agentDir,
        sessionManager,
        sessionStartEvent: { type: "session_start", reason: "resume", previousSessionFile },
        projectTrustContext: options?.projectTrustContextFactory?.(sessionManager.getCwd()),
      }),
    );
    await this.finishSessionReplacement(options?.withSession);
    return { cancelled: false };
  }

  async newSession(options) {
    const before = await this.emitBeforeSwitch("new");
    if (before.cancelled) return before;
    const previousSessionFile = this.session.sessionFile;
    const current = this.session.sessionManager;
    const sessionManager = current.isPersisted() ? SessionManager.create(this.cwd, current.getSessionDir()) : SessionManager.inMemory(this.cwd);
    if (options?.parentSession) sessionManager.newSession({ parentSession: options.parentSession });
    await this.teardownCurrent("new", sessionManager.getSessionFile());
    this.apply(await this.#replace(sessionManager, "new", previousSessionFile));
    if (options?.setup) {
      await options.setup(this.session.sessionManager);
      this.session.refreshContext();
    }
    await this.finishSessionReplacement(options?.withSession);
    return { cancelled: false };
  }

  /**
   * Continues from before a user message (position "before", the default;
   * its text is returned for editing) or from any entry ("at"): a new
   * session file when the session is persisted, else the same manager.
   */
  async fork(entryId, options) {
    const position = options?.position ?? "before";
    const before = await this.emitBeforeFork(entryId, { position });
    if (before.cancelled) return { cancelled: true };
    const selected = this.session.sessionManager.getEntry(entryId);
    if (!selected) throw new Error("Invalid entry ID for forking");
    let targetLeafId;
    let selectedText;
    if (position === "at") {
      targetLeafId = selected.id;
    } else {
      if (selected.type !== "message" || selected.message.role !== "user") throw new Error("Invalid entry ID for forking");
      targetLeafId = selected.parentId;
      selectedText = userMessageText(selected.message.content);
    }
    const previousSessionFile = this.session.sessionFile;
    const current = this.session.sessionManager;
    if (current.isPersisted()) {
      const currentSessionFile = this.session.sessionFile;
      if (!currentSessionFile) throw new Error("Persisted session is missing a session file");
      const sessionDir = current.getSessionDir();
      if (!targetLeafId) {
        const sessionManager = SessionManager.create(this.cwd, sessionDir);
        sessionManager.newSession({ parentSession: currentSessionFile });
        await this.teardownCurrent("fork", sessionManager.getSessionFile());
        this.apply(await this.#replace(sessionManager, "fork", previousSessionFile));
        await this.finishSessionReplacement(options?.withSession);
        return { cancelled: false, selectedText };
      }
      if (!existsSync(currentSessionFile)) {
        throw new Error("This session has not been saved yet. Send a message before cloning or forking it.");
      }
      const sessionManager = SessionManager.open(currentSessionFile, sessionDir);
      if (!sessionManager.createBranchedSession(targetLeafId)) throw new Error("Failed to create forked session");
      await this.teardownCurrent("fork", sessionManager.getSessionFile());
      this.apply(await this.#replace(sessionManager, "fork", previousSessionFile, { cwd: sessionManager.getCwd() }));
      await this.finishSessionReplacement(options?.withSession);
      return { cancelled: false, selectedText };
    }
    const sessionManager = current;
    await this.teardownCurrent("fork", sessionManager.getSessionFile());
    if (!targetLeafId) sessionManager.newSession({ parentSession: previousSessionFile });
    else sessionManager.createBranchedSession(targetLeafId);
    this.apply(await this.#replace(sessionManager, "fork", previousSessionFile));
    await this.finishSessionReplacement(options?.withSession);
    return { cancelled: false, selectedText };
  }

  /** Copies a session JSONL file into the session directory (never over another) and switches to it. */
  async importFromJsonl(inputPath, cwdOverride) {
    const resolved = resolvePath(inputPath);
    if (!existsSync(resolved)) throw new SessionImportFileNotFoundError(resolved);
    const sessionDir = this.session.sessionManager.getSessionDir();
    if (!existsSync(sessionDir)) mkdirSync(sessionDir, { recursive: true });
    let destination = join(sessionDir, basename(resolved));
    const alreadyStored = pathsEqual(destination, resolved);
    if (!alreadyStored) {
      const { name, ext } = parse(destination);
      for (let suffix = 1; existsSync(destination); suffix++) destination = join(sessionDir, `${name}-${suffix}${ext}`);
    }
    const before = await this.emitBeforeSwitch("resume", destination);
    if (before.cancelled) return before;
    const previousSessionFile = this.session.sessionFile;
    if (!alreadyStored) copyFileSync(resolved, destination, constants.COPYFILE_EXCL);
    const sessionManager = SessionManager.open(destination, sessionDir, cwdOverride);
    try {
      assertSessionCwdExists(sessionManager, this.cwd);
    } catch (error) {
      // Nothing was imported: the copy goes, so a retry leaves no stray file.
      if (!alreadyStored) rmSync(destination, { force: true });
      throw error;
    }
    await this.teardownCurrent("resume", sessionManager.getSessionFile());
    this.apply(await this.#replace(sessionManager, "resume", previousSessionFile, { cwd: sessionManager.getCwd() }));
    await this.finishSessionReplacement();
    return { cancelled: false };
  }

  /** Disposes the session for exit, after credential writes in progress have finished. */
  async dispose() {
    await this.session.abort();
    await this.#emitShutdown({ type: "session_shutdown", reason: "quit" });
    this.beforeSessionInvalidate?.();
    this.session.dispose();
    await this.services.modelRuntime.settleCredentialWrites();
  }
}

/** The first runtime from the caller's factory, which later replacements reuse. */
export async function createAgentSessionRuntime(createRuntime, options) {
  assertSessionCwdExists(options.sessionManager, options.cwd);
  const result = await createRuntime(options);
  return new AgentSessionRuntime(result.session, result.services, createRuntime, result.diagnostics, result.modelFallbackMessage);
}
