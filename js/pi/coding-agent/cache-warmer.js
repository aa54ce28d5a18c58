// A child session's prompt-cache warming (pi's CacheWarmer): after each
// request of the session's own, the request is kept so it can be sent again
// with a one-token cap shortly before the provider's cache entry expires,
// while the conversation still extends it, the warming mode allows it, pi-ai's
// economics (or an extension's cache_warming_decision) say it pays, and the
// fixed safety windows have not run out. Warming is best effort: a failed
// refresh never touches the session's own run.
import {
  CACHE_WARMING_MAX_AGE_MS,
  CACHE_WARMING_MAX_IDLE_AGE_MS,
  evaluateCacheWarming,
  getCacheWarmingDelayMs,
  getCacheWarmingRequestOptions,
  getPromptCacheTtlMs,
  isCacheWarmingReplayable,
} from "../ai/cache-warming.js";

/** The prompt size of the branch's latest answered request, as its provider counted it. */
function latestPromptTokens(branch) {
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    const { input, cacheRead, cacheWrite } = entry.message.usage;
    return input + cacheRead + cacheWrite;
  }
  return 0;
}

const IDLE_LIMIT_REASON = "30-minute idle safety limit reached";

export class CacheWarmer {
  #models;
  #sessionManager;
  #mode;
  #decide;
  // The request being kept warm, with its timer and bookkeeping; absent when nothing is.
  #run;
  #lastStop = { state: "inactive", reason: "waiting for first request" };
  /** Set by the session: called with the usage entry each successful refresh appends. */
  onWarmed;

  /**
   * `models` streams the refresh (a ModelRuntime), `mode()` reads the
   * settings' warming mode, `decide(event)` lets extensions change the action.
   */
  constructor(models, sessionManager, mode, decide = async (event) => event.action) {
    this.#models = models;
    this.#sessionManager = sessionManager;
    this.#mode = mode;
    this.#decide = decide;
  }

  get status() {
    if (this.#mode() === "off") return { state: "inactive", reason: "cache warming disabled" };
    const run = this.#run;
    if (!run) return this.#lastStop;
    if (!run.isCurrent()) return { state: "inactive", reason: "conversation context changed" };
    const decision = this.#evaluate(run);
    const refreshing = run.timer === undefined;
    if (!decision.economicsAvailable && !refreshing) return { state: "inactive", reason: "cache economics unavailable" };
    return {
      state: refreshing ? "refreshing" : "scheduled",
      nextWarmAt: run.nextWarmAt,
      decision,
      extensionOverride: run.extensionOverride,
    };
  }

  /** Keeps the cache entry `request` wrote warm while `isCurrent()` holds; replaces any earlier run. */
  start(request, isCurrent) {
    this.#dropRun();
    if (this.#mode() === "off") return this.#stop("cache warming disabled");
    if (!isCacheWarmingReplayable(request.model, request.options)) return this.#stop("request cannot be replayed safely");
    const ttlMs = getPromptCacheTtlMs(request.model, request.options);
    if (ttlMs === undefined) {
      return this.#stop(request.options.cacheRetention === "none" ? "request disabled prompt caching" : "cache lifetime unavailable");
    }
    const delayMs = getCacheWarmingDelayMs(ttlMs);
    if (delayMs === undefined) return this.#stop("cache lifetime unavailable");
    this.#run = {
      ...request,
      isCurrent,
      ttlMs,
      delayMs,
      startedAt: Date.now(),
      controller: new AbortController(),
      phase: "streaming",
      nextWarmAt: 0,
      refreshDeadlineAt: 0,
      extensionOverride: false,
    };
    this.#schedule(this.#run);
  }

  /** The agent's run ended: warming goes on idle (or stops, in "streaming" mode). */
  onAgentSettled() {
    const run = this.#run;
    if (!run) return;
    if (this.#mode() === "streaming") return this.#stop("agent run settled");
    run.phase = "idle";
    const deadline = run.startedAt + CACHE_WARMING_MAX_IDLE_AGE_MS;
    if (run.nextWarmAt > deadline || Date.now() >= deadline) this.#stop(IDLE_LIMIT_REASON);
  }

  /** The settings' mode changed: stop a run it no longer allows. */
  onModeChanged() {
    const run = this.#run;
    if (!run) return;
    const reason = this.#modeStopReason(run);
    if (reason) this.#stop(reason);
  }

  cancel() {
    this.#stop("inactive");
  }

  #dropRun() {
    const run = this.#run;
    if (!run) return;
    this.#run = undefined;
    if (run.timer) clearTimeout(run.timer);
    run.controller.abort();
  }

  #stop(reason, stopped) {
    this.#dropRun();
    this.#lastStop = { state: "inactive", reason, ...stopped };
  }

  #schedule(run) {
    run.extensionOverride = false;
    run.nextWarmAt = Date.now() + run.delayMs;
    // Half the margin before expiry absorbs a late timer (sleep, a blocked
    // loop); later than that, a refresh would pay a full cache write.
    run.refreshDeadlineAt = run.nextWarmAt + Math.floor((run.ttlMs - run.delayMs) / 2);
    const idle = run.phase === "idle";
    const deadline = run.startedAt + (idle ? CACHE_WARMING_MAX_IDLE_AGE_MS : CACHE_WARMING_MAX_AGE_MS);
    if (run.nextWarmAt > deadline || Date.now() >= deadline) {
      return this.#stop(idle ? IDLE_LIMIT_REASON : "one-hour safety limit reached");
    }
    run.timer = setTimeout(() => void this.#refresh(run), Math.max(0, run.nextWarmAt - Date.now()));
    // A pending refresh never keeps the host alive.
    run.timer.unref?.();
  }

  async #refresh(run) {
    run.timer = undefined;
    if (!this.#stillWanted(run)) return;
    const decision = this.#evaluate(run);
    let action = decision.action;
    try {
      action = await this.#decide({
        type: "cache_warming_decision",
        warmCost: decision.warmCost,
        missCost: decision.missCost,
        continuationProbability: decision.continuationProbability,
        action,
      });
    } catch {
      // A failing extension leaves pi's own decision.
    }
    if (!this.#stillWanted(run)) return;
    const extensionOverride = action !== decision.action;
    if (action === "stop") {
      let reason = "cache economics unavailable";
      if (extensionOverride) reason = "stopped by extension";
      else if (decision.economicsAvailable) reason = "expected savings below threshold";
      return this.#stop(reason, { decision, extensionOverride });
    }
    run.extensionOverride = extensionOverride;
    try {
      const options = getCacheWarmingRequestOptions(run.options, run.controller.signal);
      const message = await this.#models.streamSimple(run.model, run.context, options).result();
      if (!this.#isValid(run)) return;
      if (message.stopReason !== "error" && message.stopReason !== "aborted") {
        const model = message.responseModel ?? message.model;
        const note = extensionOverride ? "extension override" : undefined;
        const entry = this.#sessionManager.appendUsage("cache_warm", message.provider, model, message.usage, note);
        this.onWarmed?.(entry);
      }
    } catch {
      // Best effort: the session's own run never sees a refresh fail.
    }
    if (this.#run === run) this.#schedule(run);
  }

  /** The run is still this warmer's, allowed and current, and not past its refresh deadline. */
  #stillWanted(run) {
    if (!this.#isValid(run)) return false;
    if (Date.now() <= run.refreshDeadlineAt) return true;
    this.#stop("cache refresh deadline missed");
    return false;
  }

  #isValid(run) {
    if (this.#run !== run) return false;
    const reason = this.#modeStopReason(run) ?? (run.isCurrent() ? undefined : "conversation context changed");
    if (!reason) return true;
    this.#stop(reason);
    return false;
  }

  #modeStopReason(run) {
    const mode = this.#mode();
    if (mode === "off") return "cache warming disabled";
    if (mode === "streaming" && run.phase === "idle") return "agent run settled";
    return undefined;
  }

  #evaluate(run) {
    return evaluateCacheWarming(run.model, latestPromptTokens(this.#sessionManager.getBranch()), run.phase);
  }
}
