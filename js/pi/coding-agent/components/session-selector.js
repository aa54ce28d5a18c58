// The /resume picker: the sessions of the current folder (Tab: of every
// folder), loaded by the caller's loaders while the picker is shown, as a
// thread tree or a flat list ranked by the search; sessions can be renamed
// and deleted from it.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { visibleWidth } from "../../pi-tui/width.js";
import { isPathWithin } from "../paths.js";
import { filterAndSortSessions, hasSessionName } from "../session-search.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint, keyText } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { sessionSelectorKeybindings } from "./session-selector-keys.js";

const MAX_VISIBLE = 10;
const AGE_STEPS = [
  [60, 1, "m"],
  [24 * 60, 60, "h"],
  [7 * 24 * 60, 24 * 60, "d"],
  [30 * 24 * 60, 7 * 24 * 60, "w"],
  [365 * 24 * 60, 30 * 24 * 60, "mo"],
];

/** How long ago `date` was, in its largest whole unit: "now", "5m", "3h", "2d", "1w", "4mo", "2y". */
function formatAge(date) {
  const minutes = Math.floor((Date.now() - date.getTime()) / 60000);
  if (minutes < 1) return "now";
  for (const [below, unit, suffix] of AGE_STEPS) if (minutes < below) return `${Math.floor(minutes / unit)}${suffix}`;
  return `${Math.floor(minutes / (365 * 24 * 60))}y`;
}

/** Sessions are the same file when their resolved real paths are (symlinks followed). */
function pathKey(path) {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // A path that cannot be resolved is compared as given.
  }
  const absolute = resolve(real);
  return globalThis.process?.platform === "win32" ? absolute.toLowerCase() : absolute;
}

/** `path` with the home folder shown as "~". */
function shortenHomePath(path) {
  const home = homedir();
  if (!home || !isAbsolute(path) || !isPathWithin(home, path)) return path;
  const inside = relative(home, path);
  return inside ? `~${sep}${inside}` : "~";
}

/** The title, scope, name filter and sort on one line, then two lines of hints (or a status). */
class SessionSelectorHeader {
  constructor(scope, sortMode, nameFilter, requestRender) {
    this.scope = scope;
    this.sortMode = sortMode;
    this.nameFilter = nameFilter;
    this.requestRender = requestRender;
    this.loading = false;
    this.loadProgress = null;
    this.showPath = false;
    this.confirmingDeletePath = null;
    this.statusMessage = null;
    this.statusTimeout = null;
    this.showRenameHint = false;
  }

  setScope(scope) {
    this.scope = scope;
  }

  setSortMode(sortMode) {
    this.sortMode = sortMode;
  }

  setNameFilter(nameFilter) {
    this.nameFilter = nameFilter;
  }

  // Progress belongs to one load: any change of loading state forgets it.
  setLoading(loading) {
    this.loading = loading;
    this.loadProgress = null;
  }

  setProgress(loaded, total) {
    this.loadProgress = { loaded, total };
  }

  setShowPath(showPath) {
    this.showPath = showPath;
  }

  setShowRenameHint(show) {
    this.showRenameHint = show;
  }

  setConfirmingDeletePath(path) {
    this.confirmingDeletePath = path;
  }

  clearStatusTimeout() {
    if (!this.statusTimeout) return;
    clearTimeout(this.statusTimeout);
    this.statusTimeout = null;
  }

  setStatusMessage(message, autoHideMs) {
    this.clearStatusTimeout();
    this.statusMessage = message;
    if (!message || !autoHideMs) return;
    this.statusTimeout = setTimeout(() => {
      this.statusMessage = null;
      this.statusTimeout = null;
      this.requestRender();
    }, autoHideMs);
  }

  invalidate() {}

  scopeText() {
    const theme = currentTheme();
    if (this.loading) {
      const progress = this.loadProgress ? `${this.loadProgress.loaded}/${this.loadProgress.total}` : "...";
      return `${theme.fg("muted", "○ Current Folder | ")}${theme.fg("accent", `Loading ${progress}`)}`;
    }
    if (this.scope === "current") return `${theme.fg("accent", "◉ Current Folder")}${theme.fg("muted", " | ○ All")}`;
    return `${theme.fg("muted", "○ Current Folder | ")}${theme.fg("accent", "◉ All")}`;
  }

  hintLines(width) {
    const theme = currentTheme();
    if (this.confirmingDeletePath !== null) {
      const confirm = `Delete session? ${keyHint("tui.select.confirm", "confirm")} · ${keyHint("tui.select.cancel", "cancel")}`;
      return [theme.fg("error", truncateToWidth(confirm, width, "…")), ""];
    }
    if (this.statusMessage) {
      const color = this.statusMessage.type === "error" ? "error" : "accent";
      return [theme.fg(color, truncateToWidth(this.statusMessage.message, width, "…")), ""];
    }
    const separator = theme.fg("muted", " · ");
    const first = keyHint("tui.input.tab", "scope") + separator + theme.fg("muted", 're:<pattern> regex · "phrase" exact');
    const second = [
      keyHint("app.session.toggleSort", "sort"),
      keyHint("app.session.toggleNamedFilter", "named"),
      keyHint("app.session.delete", "delete"),
      keyHint("app.session.togglePath", `path ${this.showPath ? "(on)" : "(off)"}`),
      ...(this.showRenameHint ? [keyHint("app.session.rename", "rename")] : []),
    ];
    return [truncateToWidth(first, width, "…"), truncateToWidth(second.join(separator), width, "…")];
  }

  render(width) {
    const theme = currentTheme();
    const title = this.scope === "current" ? "Resume Session (Current Folder)" : "Resume Session (All)";
    const sortLabel = this.sortMode === "threaded" ? "Threaded" : this.sortMode === "recent" ? "Recent" : "Fuzzy";
    const nameText = theme.fg("muted", "Name: ") + theme.fg("accent", this.nameFilter === "all" ? "All" : "Named");
    const sortText = theme.fg("muted", "Sort: ") + theme.fg("accent", sortLabel);
    // The right side wins the width; the title takes what is left.
    const right = truncateToWidth(`${this.scopeText()}  ${nameText}  ${sortText}`, width, "");
    const left = truncateToWidth(theme.bold(title), Math.max(0, width - visibleWidth(right) - 1), "");
    const gap = Math.max(0, width - visibleWidth(left) - visibleWidth(right));
    return [`${left}${" ".repeat(gap)}${right}`, ...this.hintLines(width)];
  }
}

/** Sessions as trees of forks (a session under the one it was forked from), newest activity first at every level. */
function sessionTree(sessions) {
  const nodes = new Map();
  for (const session of sessions) nodes.set(pathKey(session.path), { session, children: [], latestActivity: session.modified.getTime() });
  const roots = [];
  for (const session of sessions) {
    const node = nodes.get(pathKey(session.path));
    const parent = session.parentSessionPath ? nodes.get(pathKey(session.parentSessionPath)) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const latest = (node) => {
    node.latestActivity = node.children.reduce((max, child) => Math.max(max, latest(child)), node.session.modified.getTime());
    return node.latestActivity;
  };
  roots.forEach(latest);
  const sortLevel = (level) => {
    level.sort((a, b) => b.latestActivity - a.latestActivity);
    level.forEach((node) => sortLevel(node.children));
  };
  sortLevel(roots);
  return roots;
}

/** The tree as rows, each with what its prefix needs: depth, last-child, and which ancestors go on below. */
function treeRows(roots) {
  const rows = [];
  const visit = (node, depth, ancestorContinues, isLast) => {
    rows.push({ session: node.session, depth, isLast, ancestorContinues });
    // A root draws no line down to its later siblings.
    const continues = depth > 0 ? !isLast : false;
    node.children.forEach((child, i) => visit(child, depth + 1, [...ancestorContinues, continues], i === node.children.length - 1));
  };
  roots.forEach((root, i) => visit(root, 0, [], i === roots.length - 1));
  return rows;
}

function treePrefix(row) {
  if (row.depth === 0) return "";
  return row.ancestorContinues.map((continues) => (continues ? "│  " : "   ")).join("") + (row.isLast ? "└─ " : "├─ ");
}

/** The search input and one row per session, ten around the selection. */
class SessionList {
  constructor(sessions, showCwd, sortMode, nameFilter, keybindings, currentSessionFilePath) {
    this.allSessions = sessions;
    this.filteredSessions = [];
    this.selectedIndex = 0;
    this.selectionTouched = false;
    // A session to select once a loading list delivers it.
    this.pendingSelectedPath = undefined;
    this.searchInput = new Input();
    this.showCwd = showCwd;
    this.sortMode = sortMode;
    this.nameFilter = nameFilter;
    this.keybindings = keybindings;
    this.showPath = false;
    this.confirmingDeletePath = null;
    this.currentSessionPathKey = currentSessionFilePath ? pathKey(currentSessionFilePath) : undefined;
    this.maxVisible = MAX_VISIBLE;
    this._focused = false;
    this.onSelect = undefined;
    this.onCancel = undefined;
    this.onExit = () => {};
    this.filterSessions("");
    this.searchInput.onSubmit = () => {
      const row = this.filteredSessions[this.selectedIndex];
      if (row) this.onSelect?.(row.session.path);
    };
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.searchInput.focused = value;
  }

  getSelectedSessionPath() {
    return this.filteredSessions[this.selectedIndex]?.session.path;
  }

  setSortMode(sortMode) {
    this.sortMode = sortMode;
    this.filterSessions(this.searchInput.getValue());
  }

  setNameFilter(nameFilter) {
    this.nameFilter = nameFilter;
    this.filterSessions(this.searchInput.getValue());
  }

  /** New sessions; with `partial` (more are loading) a chosen session not listed yet stays the one to select. */
  setSessions(sessions, showCwd, partial = false) {
    const selectedPath = this.selectionTouched ? (this.pendingSelectedPath ?? this.getSelectedSessionPath()) : undefined;
    this.allSessions = sessions;
    this.showCwd = showCwd;
    this.filterSessions(this.searchInput.getValue());
    if (!this.selectionTouched) {
      this.selectedIndex = 0;
      return;
    }
    if (!selectedPath) return;
    const index = this.filteredSessions.findIndex((row) => row.session.path === selectedPath);
    if (index >= 0) {
      this.selectedIndex = index;
      this.pendingSelectedPath = undefined;
    } else this.pendingSelectedPath = partial ? selectedPath : undefined;
  }

  filterSessions(query) {
    const sessions = this.nameFilter === "all" ? this.allSessions : this.allSessions.filter(hasSessionName);
    if (this.sortMode === "threaded" && !query.trim()) this.filteredSessions = treeRows(sessionTree(sessions));
    else {
      this.filteredSessions = filterAndSortSessions(sessions, query, this.sortMode, "all").map((session) => ({ session, depth: 0, isLast: true, ancestorContinues: [] }));
    }
    this.selectedIndex = Math.min(this.selectedIndex, Math.max(0, this.filteredSessions.length - 1));
  }

  setConfirmingDeletePath(path) {
    this.confirmingDeletePath = path;
    this.onDeleteConfirmationChange?.(path);
  }

  startDeleteConfirmationForSelectedSession() {
    const row = this.filteredSessions[this.selectedIndex];
    if (!row) return;
    if (this.isCurrentSessionPath(row.session.path)) {
      this.onError?.("Cannot delete the currently active session");
      return;
    }
    this.setConfirmingDeletePath(row.session.path);
  }

  isCurrentSessionPath(path) {
    return this.currentSessionPathKey !== undefined && pathKey(path) === this.currentSessionPathKey;
  }

  invalidate() {}

  emptyMessage() {
    if (this.nameFilter === "named") {
      const toggleKey = keyText("app.session.toggleNamedFilter");
      return this.showCwd
        ? `  No named sessions found. Press ${toggleKey} to show all.`
        : `  No named sessions in current folder. Press ${toggleKey} to show all, or Tab to view all.`;
    }
    return this.showCwd ? "  No sessions found" : "  No sessions in current folder. Press Tab to view all.";
  }

  sessionRow(row, selected, width) {
    const theme = currentTheme();
    const { session } = row;
    const deleting = session.path === this.confirmingDeletePath;
    const prefix = treePrefix(row);
    const shownText = (session.name ?? session.firstMessage).replace(/[\x00-\x1f\x7f]/g, " ").trim();
    let right = `${session.messageCount} ${formatAge(session.modified)}`;
    if (this.showCwd && session.cwd) right = `${shortenHomePath(session.cwd)} ${right}`;
    if (this.showPath) right = `${shortenHomePath(session.path)} ${right}`;
    // Two columns for the cursor and two between the text and the right side.
    const room = width - 2 - visibleWidth(prefix) - (visibleWidth(right) + 2);
    const text = truncateToWidth(shownText, Math.max(10, room), "…");
    const color = deleting ? "error" : this.isCurrentSessionPath(session.path) ? "accent" : session.name ? "warning" : null;
    let styled = color ? theme.fg(color, text) : text;
    if (selected) styled = theme.bold(styled);
    const left = (selected ? theme.fg("accent", "› ") : "  ") + theme.fg("dim", prefix) + styled;
    const gap = Math.max(1, width - visibleWidth(left) - visibleWidth(right));
    let line = left + " ".repeat(gap) + theme.fg(deleting ? "error" : "dim", right);
    if (selected) line = theme.bg("selectedBg", line);
    return truncateToWidth(line, width);
  }

  render(width) {
    const theme = currentTheme();
    const lines = [...this.searchInput.render(width), ""];
    const count = this.filteredSessions.length;
    if (count === 0) {
      lines.push(theme.fg("muted", truncateToWidth(this.emptyMessage(), width, "…")));
      return lines;
    }
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(this.maxVisible / 2), count - this.maxVisible));
    const end = Math.min(start + this.maxVisible, count);
    for (let i = start; i < end; i++) lines.push(this.sessionRow(this.filteredSessions[i], i === this.selectedIndex, width));
    if (start > 0 || end < count) lines.push(theme.fg("muted", truncateToWidth(`  (${this.selectedIndex + 1}/${count})`, width, "")));
    return lines;
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    // While a delete waits for confirmation, only confirm and cancel do anything.
    if (this.confirmingDeletePath !== null) {
      if (keys.matches(keyData, "tui.select.confirm")) {
        const path = this.confirmingDeletePath;
        this.setConfirmingDeletePath(null);
        void this.onDeleteSession?.(path);
      } else if (keys.matches(keyData, "tui.select.cancel")) this.setConfirmingDeletePath(null);
      return;
    }
    if (keys.matches(keyData, "tui.input.tab")) {
      this.onToggleScope?.();
      return;
    }
    if (keys.matches(keyData, "app.session.toggleSort")) {
      this.onToggleSort?.();
      return;
    }
    if (this.keybindings.matches(keyData, "app.session.toggleNamedFilter")) {
      this.onToggleNameFilter?.();
      return;
    }
    if (keys.matches(keyData, "app.session.togglePath")) {
      this.showPath = !this.showPath;
      this.onTogglePath?.(this.showPath);
      return;
    }
    if (keys.matches(keyData, "app.session.delete")) {
      this.startDeleteConfirmationForSelectedSession();
      return;
    }
    if (keys.matches(keyData, "app.session.rename")) {
      const row = this.filteredSessions[this.selectedIndex];
      if (row) this.onRenameSession?.(row.session.path);
      return;
    }
    // Ctrl+Backspace deletes only with an empty query; in a query it edits the query.
    if (keys.matches(keyData, "app.session.deleteNoninvasive")) {
      if (this.searchInput.getValue().length > 0) this.handleSearchInput(keyData);
      else this.startDeleteConfirmationForSelectedSession();
      return;
    }
    this.selectionTouched = true;
    this.pendingSelectedPath = undefined;
    const last = this.filteredSessions.length - 1;
    if (keys.matches(keyData, "tui.select.up")) this.selectedIndex = Math.max(0, this.selectedIndex - 1);
    else if (keys.matches(keyData, "tui.select.down")) this.selectedIndex = Math.min(last, this.selectedIndex + 1);
    else if (keys.matches(keyData, "tui.select.pageUp")) this.selectedIndex = Math.max(0, this.selectedIndex - this.maxVisible);
    else if (keys.matches(keyData, "tui.select.pageDown")) this.selectedIndex = Math.min(last, this.selectedIndex + this.maxVisible);
    else if (keys.matches(keyData, "tui.select.confirm")) {
      const row = this.filteredSessions[this.selectedIndex];
      if (row) this.onSelect?.(row.session.path);
    } else if (keys.matches(keyData, "tui.select.cancel")) this.onCancel?.();
    else this.handleSearchInput(keyData);
  }

  /** A changed, non-empty query puts the best match, the top row, under the selection. */
  handleSearchInput(keyData) {
    const before = this.searchInput.getValue();
    this.searchInput.handleInput(keyData);
    const query = this.searchInput.getValue();
    if (query === before) return;
    this.filterSessions(query);
    if (!query.trim()) return;
    this.selectedIndex = 0;
    // Sessions still loading must not pull the selection off the top row.
    this.selectionTouched = false;
    this.pendingSelectedPath = undefined;
  }
}

/** Moves a session file to the trash (the `trash` program) or, failing that, deletes it. */
async function deleteSessionFile(sessionPath) {
  const trash = spawnSync("trash", sessionPath.startsWith("-") ? ["--", sessionPath] : [sessionPath], { encoding: "utf-8" });
  if (trash.status === 0 || !existsSync(sessionPath)) return { ok: true, method: "trash" };
  try {
    await unlink(sessionPath);
    return { ok: true, method: "unlink" };
  } catch (err) {
    const unlinkError = err instanceof Error ? err.message : String(err);
    const trashProblems = [];
    if (trash.error) trashProblems.push(trash.error.message);
    const stderr = trash.stderr?.trim();
    if (stderr) trashProblems.push(stderr.split("\n")[0] ?? stderr);
    const hint = trashProblems.length > 0 ? `trash: ${trashProblems.join(" · ").slice(0, 200)}` : null;
    return { ok: false, method: "unlink", error: hint ? `${unlinkError} (${hint})` : unlinkError };
  }
}

export class SessionSelectorComponent extends Container {
  constructor(currentSessionsLoader, allSessionsLoader, onSelect, onCancel, onExit, requestRender, options, currentSessionFilePath) {
    super();
    this.keybindings = options?.keybindings ?? sessionSelectorKeybindings();
    this.currentSessionsLoader = currentSessionsLoader;
    this.allSessionsLoader = allSessionsLoader;
    this.requestRender = requestRender;
    this.scope = "current";
    this.sortMode = "threaded";
    this.nameFilter = "all";
    this.currentSessions = null;
    this.allSessions = null;
    this.currentLoad = null;
    this.allLoad = null;
    this.mode = "list";
    this.renameInput = new Input();
    this.renameTargetPath = null;
    this._focused = false;
    this.renameSession = options?.renameSession;
    this.canRename = Boolean(this.renameSession);
    this.header = new SessionSelectorHeader(this.scope, this.sortMode, this.nameFilter, requestRender);
    this.header.setShowRenameHint(options?.showRenameHint ?? this.canRename);
    this.sessionList = new SessionList([], false, this.sortMode, this.nameFilter, this.keybindings, currentSessionFilePath);
    this.buildBaseLayout(this.sessionList);
    this.renameInput.onSubmit = (value) => void this.confirmRename(value);

    // Leaving the picker ends its loads and the status message's timer.
    const leave = (then) => {
      this.header.setStatusMessage(null);
      this.cancelLoads();
      then();
    };
    const list = this.sessionList;
    list.onSelect = (path) => leave(() => onSelect(path));
    list.onCancel = () => leave(onCancel);
    list.onExit = () => leave(onExit);
    list.onToggleScope = () => this.toggleScope();
    list.onToggleSort = () => this.toggleSortMode();
    list.onToggleNameFilter = () => this.toggleNameFilter();
    list.onRenameSession = (path) => {
      if (!this.renameSession) return;
      // A list still loading may be replaced under the rename.
      if (this.scope === "current" ? this.currentLoad : this.allLoad) return;
      const session = this.scopeSessions().find((candidate) => candidate.path === path);
      this.enterRenameMode(path, session?.name);
    };
    list.onTogglePath = (showPath) => {
      this.header.setShowPath(showPath);
      this.requestRender();
    };
    list.onDeleteConfirmationChange = (path) => {
      this.header.setConfirmingDeletePath(path);
      this.requestRender();
    };
    list.onError = (message) => {
      this.header.setStatusMessage({ type: "error", message }, 3000);
      this.requestRender();
    };
    list.onDeleteSession = (path) => this.deleteSession(path);
    void this.loadScope("current");
  }

  get capturesViewportInput() {
    return this.mode !== "rename";
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.sessionList.focused = value;
    this.renameInput.focused = value;
  }

  handleInput(data) {
    if (this.mode !== "rename") {
      this.sessionList.handleInput(data);
      return;
    }
    if (getKeybindings().matches(data, "tui.select.cancel")) this.exitRenameMode();
    else this.renameInput.handleInput(data);
  }

  scopeSessions() {
    return (this.scope === "all" ? this.allSessions : this.currentSessions) ?? [];
  }

  buildBaseLayout(content, { showHeader = true } = {}) {
    const accentBorder = () => new DynamicBorder((text) => currentTheme().fg("accent", text));
    this.clear();
    this.addChild(new Spacer(1));
    this.addChild(accentBorder());
    this.addChild(new Spacer(1));
    if (showHeader) {
      this.addChild(this.header);
      this.addChild(new Spacer(1));
    }
    this.addChild(content);
    this.addChild(new Spacer(1));
    this.addChild(accentBorder());
  }

  async deleteSession(path) {
    const result = await deleteSessionFile(path);
    if (result.ok) {
      const without = (sessions) => sessions && sessions.filter((session) => session.path !== path);
      this.currentSessions = without(this.currentSessions);
      this.allSessions = without(this.allSessions);
      this.sessionList.setSessions(this.scopeSessions(), this.scope === "all");
      this.header.setStatusMessage({ type: "info", message: result.method === "trash" ? "Session moved to trash" : "Session deleted" }, 2000);
      await this.refreshSessionsAfterMutation();
    } else {
      this.header.setStatusMessage({ type: "error", message: `Failed to delete: ${result.error ?? "Unknown error"}` }, 3000);
    }
    this.requestRender();
  }

  cancelLoads() {
    if (this.currentLoad) {
      this.currentLoad.abort();
      this.currentLoad = null;
      this.currentSessions = null;
    }
    if (this.allLoad) {
      this.allLoad.abort();
      this.allLoad = null;
      this.allSessions = null;
    }
  }

  enterRenameMode(sessionPath, currentName) {
    const theme = currentTheme();
    this.mode = "rename";
    this.renameTargetPath = sessionPath;
    this.renameInput.setValue(currentName ?? "");
    this.renameInput.focused = true;
    const panel = new Container();
    panel.addChild(new Text(theme.bold("Rename Session"), 1, 0));
    panel.addChild(new Spacer(1));
    panel.addChild(this.renameInput);
    panel.addChild(new Spacer(1));
    panel.addChild(new Text(theme.fg("muted", `${keyText("tui.select.confirm")} to save · ${keyText("tui.select.cancel")} to cancel`), 1, 0));
    this.buildBaseLayout(panel, { showHeader: false });
    this.requestRender();
  }

  exitRenameMode() {
    this.mode = "list";
    this.renameTargetPath = null;
    this.buildBaseLayout(this.sessionList);
    this.requestRender();
  }

  async confirmRename(value) {
    const name = value.trim();
    if (!name) return;
    const target = this.renameTargetPath;
    if (!target || !this.renameSession) {
      this.exitRenameMode();
      return;
    }
    try {
      await this.renameSession(target, name);
      await this.refreshSessionsAfterMutation();
    } finally {
      this.exitRenameMode();
    }
  }

  async loadScope(scope) {
    if (scope === "current" ? this.currentLoad : this.allLoad) return;
    const showCwd = scope === "all";
    const controller = new AbortController();
    if (scope === "current") this.currentLoad = controller;
    else this.allLoad = controller;
    this.header.setScope(scope);
    this.header.setLoading(true);
    this.requestRender();
    const isActive = () => (scope === "current" ? this.currentLoad : this.allLoad) === controller;
    const keep = (sessions) => {
      if (scope === "current") this.currentSessions = sessions;
      else this.allSessions = sessions;
    };
    const finish = (sessions) => {
      if (scope === "current") {
        this.currentSessions = sessions;
        this.currentLoad = null;
      } else {
        this.allSessions = sessions;
        this.allLoad = null;
      }
    };
    // Sessions loaded so far are shown as they arrive, when their scope is the one shown.
    const onProgress = (loaded, total, partialSessions) => {
      if (!isActive()) return;
      if (partialSessions) {
        const sessions = [...partialSessions];
        keep(sessions);
        if (scope === this.scope) this.sessionList.setSessions(sessions, showCwd, true);
      }
      if (scope !== this.scope) return;
      this.header.setProgress(loaded, total);
      this.requestRender();
    };
    try {
      const sessions = await (scope === "current"
        ? this.currentSessionsLoader(onProgress, controller.signal)
        : this.allSessionsLoader(onProgress, controller.signal));
      if (!isActive()) return;
      finish(sessions);
      if (scope !== this.scope) return;
      this.header.setLoading(false);
      this.sessionList.setSessions(sessions, showCwd);
      this.requestRender();
    } catch (err) {
      if (!isActive()) return;
      finish(null);
      if (scope !== this.scope) return;
      this.header.setLoading(false);
      this.header.setStatusMessage({ type: "error", message: `Failed to load sessions: ${err instanceof Error ? err.message : String(err)}` }, 4000);
      this.sessionList.setSessions([], showCwd);
      this.requestRender();
    }
  }

  /** threaded → recent → relevance → threaded. */
  toggleSortMode() {
    this.sortMode = this.sortMode === "threaded" ? "recent" : this.sortMode === "recent" ? "relevance" : "threaded";
    this.header.setSortMode(this.sortMode);
    this.sessionList.setSortMode(this.sortMode);
    this.requestRender();
  }

  toggleNameFilter() {
    this.nameFilter = this.nameFilter === "all" ? "named" : "all";
    this.header.setNameFilter(this.nameFilter);
    this.sessionList.setNameFilter(this.nameFilter);
    this.requestRender();
  }

  async refreshSessionsAfterMutation() {
    this.cancelLoads();
    this.currentSessions = null;
    this.allSessions = null;
    await this.loadScope(this.scope);
  }

  toggleScope() {
    this.scope = this.scope === "current" ? "all" : "current";
    const sessions = this.scope === "current" ? this.currentSessions : this.allSessions;
    const loading = (this.scope === "current" ? this.currentLoad : this.allLoad) !== null;
    this.header.setScope(this.scope);
    this.header.setLoading(loading);
    this.sessionList.setSessions(sessions ?? [], this.scope === "all", loading || sessions === null);
    this.requestRender();
    if (sessions === null && !loading) void this.loadScope(this.scope);
  }

  getSessionList() {
    return this.sessionList;
  }
}
