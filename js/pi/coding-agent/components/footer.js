// The status footer under the editor: where the session runs (directory,
// git branch, session name), what it has used (tokens, cache, cost, context
// fill) with the model on the right, and the extensions' status texts.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { visibleWidth } from "../../pi-tui/width.js";
import { currentTheme } from "../ui/theme.js";

// The least room kept between the usage figures and the model.
const MIN_GAP = 2;

/** A status text on one line: line breaks and tabs as spaces, runs of spaces collapsed. */
const singleLine = (text) => text.replace(/[\r\n\t]/g, " ").replace(/ +/g, " ").trim();

/** A token count as the footer shows it: 999, 1.2k, 45k, 1.5M, 12M. */
export function formatTokens(count) {
  if (count < 1000) return count.toString();
  if (count < 10000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1000000) return `${Math.round(count / 1000)}k`;
  if (count < 10000000) return `${(count / 1000000).toFixed(1)}M`;
  return `${Math.round(count / 1000000)}M`;
}

/** `cwd` with the home directory shown as "~" when it lies inside it. */
export function formatCwdForFooter(cwd, home) {
  if (!home) return cwd;
  const fromHome = relative(resolve(home), resolve(cwd));
  const inside = fromHome === "" || (fromHome !== ".." && !fromHome.startsWith(`..${sep}`) && !isAbsolute(fromHome));
  if (!inside) return cwd;
  return fromHome === "" ? "~" : `~${sep}${fromHome}`;
}

function addUsage(totals, usage) {
  totals.input += usage.input;
  totals.output += usage.output;
  totals.cacheRead += usage.cacheRead;
  totals.cacheWrite += usage.cacheWrite;
  totals.cost += usage.cost.total;
}

/** Every call's usage in the session (all entries, compacted or not) and the latest prompt's cache hit rate. */
function sessionUsage(entries) {
  const totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  let latestCacheHitRate;
  for (const entry of entries) {
    if (entry.type === "usage") {
      addUsage(totals, entry.usage);
    } else if (entry.type === "message" && entry.message.role === "assistant") {
      const { usage } = entry.message;
      addUsage(totals, usage);
      const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
      latestCacheHitRate = promptTokens > 0 ? (usage.cacheRead / promptTokens) * 100 : undefined;
    } else if (entry.type === "message" && entry.message.role === "toolResult" && entry.message.usage) {
      addUsage(totals, entry.message.usage);
    } else if ((entry.type === "branch_summary" || entry.type === "compaction") && entry.usage) {
      addUsage(totals, entry.usage);
    }
  }
  return { usageTotals: totals, latestCacheHitRate };
}

export class FooterComponent {
  constructor(session, footerData) {
    this.autoCompactEnabled = true;
    this.session = session;
    this.footerData = footerData;
    this.sessionStats = undefined;
  }

  setSession(session) {
    this.session = session;
  }

  setAutoCompactEnabled(enabled) {
    this.autoCompactEnabled = enabled;
  }

  /** Nothing to drop: the footer data provider keeps the git branch. */
  invalidate() {}

  /** Nothing to release: the footer data provider owns the git watcher. */
  dispose() {}

  /**
   * The usage figures, recomputed only when the session, its leaf, its entry
   * count or the model whose limits apply change: scanning every entry on
   * every frame would be wasted, and entries are only ever appended.
   */
  getSessionStats() {
    const manager = this.session.sessionManager;
    const key = {
      session: this.session,
      sessionId: manager.getSessionId(),
      leafId: manager.getLeafId(),
      entryCount: manager.getEntryCount(),
      limitsModel: this.session.routedModel?.model ?? this.session.model,
    };
    const cached = this.sessionStats;
    if (cached && Object.keys(key).every((name) => cached[name] === key[name])) return cached;
    // Right after a compaction the context size is unknown until the next reply.
    this.sessionStats = { ...key, ...sessionUsage(manager.getEntries()), contextUsage: this.session.getContextUsage() };
    return this.sessionStats;
  }

  usageLine(width) {
    const theme = currentTheme();
    const state = this.session.state;
    const { usageTotals, latestCacheHitRate, contextUsage } = this.getSessionStats();
    const parts = [];
    if (usageTotals.input) parts.push(`↑${formatTokens(usageTotals.input)}`);
    if (usageTotals.output) parts.push(`↓${formatTokens(usageTotals.output)}`);
    if (usageTotals.cacheRead) parts.push(`R${formatTokens(usageTotals.cacheRead)}`);
    if (usageTotals.cacheWrite) parts.push(`W${formatTokens(usageTotals.cacheWrite)}`);
    if ((usageTotals.cacheRead > 0 || usageTotals.cacheWrite > 0) && latestCacheHitRate !== undefined) {
      parts.push(`CH${latestCacheHitRate.toFixed(1)}%`);
    }
    // Kimi Coding bills by subscription though it authenticates with an API key.
    const subscription = state.model
      ? state.model.provider === "kimi-coding" || this.session.modelRuntime.isUsingSubscription(state.model.provider)
      : false;
    if (usageTotals.cost || subscription) parts.push(`$${usageTotals.cost.toFixed(3)}${subscription ? " (sub)" : ""}`);

    const contextWindow = contextUsage?.contextWindow ?? state.model?.contextWindow ?? 0;
    const percentValue = contextUsage?.percent ?? 0;
    const percent = contextUsage?.percent !== null ? `${percentValue.toFixed(1)}%` : "?";
    const fill = `${percent}/${formatTokens(contextWindow)}${this.autoCompactEnabled ? " (auto)" : ""}`;
    parts.push(percentValue > 90 ? theme.fg("error", fill) : percentValue > 70 ? theme.fg("warning", fill) : fill);
    if (globalThis.process?.env?.PI_EXPERIMENTAL === "1") parts.push(`${theme.fg("dim", "•")} ${theme.bold(theme.fg("warning", "xp"))}`);

    let left = parts.join(" ");
    let leftWidth = visibleWidth(left);
    if (leftWidth > width) {
      left = truncateToWidth(left, width, "...");
      leftWidth = visibleWidth(left);
    }
    const right = this.modelText(state, leftWidth, width);
    const rightWidth = visibleWidth(right);
    let line;
    if (leftWidth + MIN_GAP + rightWidth <= width) {
      line = left + " ".repeat(width - leftWidth - rightWidth) + right;
    } else if (width - leftWidth - MIN_GAP > 0) {
      const cut = truncateToWidth(right, width - leftWidth - MIN_GAP, "");
      line = left + " ".repeat(Math.max(0, width - leftWidth - visibleWidth(cut))) + cut;
    } else {
      line = left;
    }
    // Dimmed in two parts: the context colour inside `left` ends with a reset that would end an outer dim.
    return theme.fg("dim", left) + theme.fg("dim", line.slice(left.length));
  }

  /** The model, its thinking level, where a virtual model routed the last reply, and the provider when there is room. */
  modelText(state, leftWidth, width) {
    const modelName = state.model?.id || "no-model";
    let text = modelName;
    if (state.model?.reasoning) {
      const level = state.thinkingLevel || "off";
      text = level === "off" ? `${modelName} • thinking off` : `${modelName} • ${level}`;
    }
    const routed = this.session.routedModel;
    if (routed) text += ` → ${routed.model.id}${routed.thinkingLevel ? ` • ${routed.thinkingLevel}` : ""}`;
    if (this.footerData.getAvailableProviderCount() > 1 && state.model) {
      const withProvider = `(${state.model.provider}) ${text}`;
      if (leftWidth + MIN_GAP + visibleWidth(withProvider) <= width) return withProvider;
    }
    return text;
  }

  render(width) {
    const theme = currentTheme();
    const manager = this.session.sessionManager;
    const env = globalThis.process?.env ?? {};
    let place = formatCwdForFooter(manager.getCwd(), env.HOME || env.USERPROFILE);
    const branch = this.footerData.getGitBranch();
    if (branch) place = `${place} (${branch})`;
    const sessionName = manager.getSessionName();
    if (sessionName) place = `${place} • ${sessionName}`;

    const lines = [truncateToWidth(theme.fg("dim", place), width, theme.fg("dim", "...")), this.usageLine(width)];
    const statuses = this.footerData.getExtensionStatuses();
    if (statuses.size > 0) {
      const line = [...statuses.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([, text]) => singleLine(text))
        .join(" ");
      lines.push(truncateToWidth(line, width, theme.fg("dim", "...")));
    }
    return lines;
  }
}
