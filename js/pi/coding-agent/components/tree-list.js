// The rows of the session tree (/tree): every entry of the session, the
// branch holding the current leaf first, filtered by kind and search,
// with folding and branch-wise navigation. Rows are drawn with tree
// connectors; a row too deep for the width is panned into view.
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { sliceByColumn, truncateToWidth } from "../../pi-tui/truncate.js";
import { visibleWidth } from "../../pi-tui/width.js";
import { currentTheme } from "../ui/theme.js";
import {
  entryCopyText,
  entryDisplayText,
  formatLabelTimestamp,
  hasTextContent,
  isSettingsEntry,
  searchableText,
} from "./tree-entry-text.js";

const GUTTER_WIDTH = 2;
const FILTER_MODES = ["default", "no-tools", "user-only", "labeled-only", "all"];
const FILTER_LABELS = { "no-tools": " [no-tools]", "user-only": " [user]", "labeled-only": " [labeled]", all: " [all]" };
// Keys that set a filter (or toggle it with the default one).
const FILTER_KEYS = [
  ["app.tree.filter.noTools", "no-tools"],
  ["app.tree.filter.userOnly", "user-only"],
  ["app.tree.filter.labeledOnly", "labeled-only"],
  ["app.tree.filter.all", "all"],
];

/**
 * The rows clipped to the width. The cursor gutter always shows; the row
 * bodies shift left only when the selected row's text would start too far
 * right to leave some of it visible.
 */
function clipHorizontally(rows, width) {
  const viewport = Math.max(0, width - GUTTER_WIDTH);
  const widest = rows.reduce((max, row) => Math.max(max, row.bodyWidth), 0);
  const maxScroll = Math.max(0, widest - viewport);
  const selected = rows.find((row) => row.isSelected);
  let scroll = 0;
  if (selected && maxScroll > 0) {
    const wantVisible = Math.min(20, Math.max(4, Math.floor(viewport / 3)));
    if (selected.anchorCol > viewport - wantVisible) {
      const context = Math.min(12, Math.max(2, Math.floor(viewport / 4)));
      scroll = Math.min(maxScroll, selected.anchorCol - context);
    }
  }
  return rows.map((row) => {
    const line = scroll > 0 ? `${row.gutter}${sliceByColumn(row.body, scroll, viewport, true)}\x1b[0m` : row.gutter + row.body;
    return truncateToWidth(line, width, "");
  });
}

/**
 * Lays out a forest depth-first, giving each row its indent, connector and
 * the gutters (ancestor lines) to its left. A branch point indents its
 * children, and so does the first generation after one; a single-child
 * chain stays flat. Several roots hang from an invisible common root.
 */
function layOut(roots, childrenOf, multipleRoots, place) {
  const stack = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    stack.push({ item: roots[i], indent: multipleRoots ? 1 : 0, justBranched: multipleRoots, showConnector: multipleRoots, isLast: i === roots.length - 1, gutters: [], isVirtualRootChild: multipleRoots });
  }
  while (stack.length > 0) {
    const row = stack.pop();
    if (place(row) === false) continue;
    const children = childrenOf(row.item);
    const branches = children.length > 1;
    const childIndent = branches || (row.justBranched && row.indent > 0) ? row.indent + 1 : row.indent;
    // A shown connector leaves a line (or a gap, after the last child) for the rows below it.
    const connectorShown = row.showConnector && !row.isVirtualRootChild;
    const displayIndent = multipleRoots ? Math.max(0, row.indent - 1) : row.indent;
    const childGutters = connectorShown ? [...row.gutters, { position: Math.max(0, displayIndent - 1), show: !row.isLast }] : row.gutters;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ item: children[i], indent: childIndent, justBranched: branches, showConnector: branches, isLast: i === children.length - 1, gutters: childGutters, isVirtualRootChild: false });
    }
  }
}

export class TreeList {
  constructor(tree, currentLeafId, maxVisibleLines, initialSelectedId, initialFilterMode) {
    this.currentLeafId = currentLeafId;
    this.maxVisibleLines = maxVisibleLines;
    this.filterMode = initialFilterMode ?? "default";
    this.searchQuery = "";
    this.toolCallMap = new Map();
    this.multipleRoots = tree.length > 1;
    this.showLabelTimestamps = false;
    this.activePathIds = new Set();
    this.visibleParentMap = new Map();
    this.visibleChildrenMap = new Map();
    this.lastSelectedId = null;
    this.foldedNodes = new Set();
    this.filteredNodes = [];
    this.selectedIndex = 0;
    this.onSelect = undefined;
    this.onCancel = undefined;
    this.onCopy = undefined;
    this.onLabelEdit = undefined;
    this.flatNodes = this.flattenTree(tree);
    this.buildActivePath();
    this.applyFilter();
    this.selectedIndex = this.findNearestVisibleIndex(initialSelectedId ?? currentLeafId);
    this.lastSelectedId = this.filteredNodes[this.selectedIndex]?.node.entry.id ?? null;
  }

  flatNodesById() {
    return new Map(this.flatNodes.map((flat) => [flat.node.entry.id, flat]));
  }

  /** The row of `entryId`, else of its nearest shown ancestor, else the last row. */
  findNearestVisibleIndex(entryId) {
    if (this.filteredNodes.length === 0) return 0;
    const byId = this.flatNodesById();
    const indexById = new Map(this.filteredNodes.map((flat, i) => [flat.node.entry.id, i]));
    let id = entryId;
    while (id !== null && id !== undefined) {
      const index = indexById.get(id);
      if (index !== undefined) return index;
      const flat = byId.get(id);
      if (!flat) break;
      id = flat.node.entry.parentId ?? null;
    }
    return this.filteredNodes.length - 1;
  }

  /** The entries from the current leaf up to its root, which the rows mark. */
  buildActivePath() {
    this.activePathIds.clear();
    const byId = this.flatNodesById();
    let id = this.currentLeafId;
    while (id) {
      this.activePathIds.add(id);
      const flat = byId.get(id);
      if (!flat) break;
      id = flat.node.entry.parentId ?? null;
    }
  }

  /** Every node as a row, the subtree holding the current leaf first at each branch; notes the tool calls made. */
  flattenTree(roots) {
    this.toolCallMap.clear();
    // Which subtrees hold the current leaf, children before parents (no recursion: sessions can be deep).
    const holdsLeaf = new Map();
    const preorder = [];
    const pending = [...roots];
    while (pending.length > 0) {
      const node = pending.pop();
      preorder.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]);
    }
    for (let i = preorder.length - 1; i >= 0; i--) {
      const node = preorder[i];
      const leafHere = this.currentLeafId !== null && node.entry.id === this.currentLeafId;
      holdsLeaf.set(node, leafHere || node.children.some((child) => holdsLeaf.get(child)));
    }
    const leafFirst = (nodes) => [...nodes.filter((node) => holdsLeaf.get(node)), ...nodes.filter((node) => !holdsLeaf.get(node))];
    const rows = [];
    const orderedRoots = [...roots].sort((a, b) => Number(holdsLeaf.get(b)) - Number(holdsLeaf.get(a)));
    layOut(orderedRoots, (node) => leafFirst(node.children), roots.length > 1, (row) => {
      const node = row.item;
      this.noteToolCalls(node.entry);
      rows.push({ node, indent: row.indent, showConnector: row.showConnector, isLast: row.isLast, gutters: row.gutters, isVirtualRootChild: row.isVirtualRootChild });
    });
    return rows;
  }

  noteToolCalls(entry) {
    if (entry.type !== "message" || entry.message.role !== "assistant" || !Array.isArray(entry.message.content)) return;
    for (const block of entry.message.content) {
      if (typeof block === "object" && block !== null && "type" in block && block.type === "toolCall") {
        this.toolCallMap.set(block.id, { name: block.name, arguments: block.arguments });
      }
    }
  }

  /** Whether the filter mode and the search show `flat`. */
  shows(flat, searchTokens) {
    const { entry } = flat.node;
    if (entry.type === "usage") return false;
    // Assistant turns that only call tools are noise, unless they failed or hold the current position.
    if (entry.type === "message" && entry.message.role === "assistant" && entry.id !== this.currentLeafId) {
      const message = entry.message;
      const failed = message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse";
      if (!hasTextContent(message.content) && !failed) return false;
    }
    let passes;
    switch (this.filterMode) {
      case "user-only":
        passes = entry.type === "message" && entry.message.role === "user";
        break;
      case "no-tools":
        passes = !isSettingsEntry(entry) && !(entry.type === "message" && entry.message.role === "toolResult");
        break;
      case "labeled-only":
        passes = flat.node.label !== undefined;
        break;
      case "all":
        passes = true;
        break;
      default:
        passes = !isSettingsEntry(entry);
    }
    if (!passes) return false;
    if (searchTokens.length === 0) return true;
    const text = searchableText(flat.node).toLowerCase();
    return searchTokens.every((token) => text.includes(token));
  }

  applyFilter() {
    // An empty result keeps the remembered selection, so passing through one loses nothing.
    if (this.filteredNodes.length > 0) this.lastSelectedId = this.filteredNodes[this.selectedIndex]?.node.entry.id ?? this.lastSelectedId;
    const searchTokens = this.searchQuery.toLowerCase().split(/\s+/).filter(Boolean);
    this.filteredNodes = this.flatNodes.filter((flat) => this.shows(flat, searchTokens));
    if (this.foldedNodes.size > 0) {
      // Parents come before children in flatNodes, so one pass finds every hidden descendant.
      const hidden = new Set();
      for (const flat of this.flatNodes) {
        const { id, parentId } = flat.node.entry;
        if (parentId != null && (this.foldedNodes.has(parentId) || hidden.has(parentId))) hidden.add(id);
      }
      this.filteredNodes = this.filteredNodes.filter((flat) => !hidden.has(flat.node.entry.id));
    }
    this.recalculateVisualStructure();
    if (this.lastSelectedId) this.selectedIndex = this.findNearestVisibleIndex(this.lastSelectedId);
    else if (this.selectedIndex >= this.filteredNodes.length) this.selectedIndex = Math.max(0, this.filteredNodes.length - 1);
    if (this.filteredNodes.length > 0) this.lastSelectedId = this.filteredNodes[this.selectedIndex]?.node.entry.id ?? this.lastSelectedId;
  }

  /** Lays out the shown rows again: a row whose parent is hidden hangs from its nearest shown ancestor. */
  recalculateVisualStructure() {
    if (this.filteredNodes.length === 0) return;
    const shownIds = new Set(this.filteredNodes.map((flat) => flat.node.entry.id));
    const byId = this.flatNodesById();
    const shownAncestor = (id) => {
      let parent = byId.get(id)?.node.entry.parentId ?? null;
      while (parent !== null) {
        if (shownIds.has(parent)) return parent;
        parent = byId.get(parent)?.node.entry.parentId ?? null;
      }
      return null;
    };
    const parents = new Map();
    const children = new Map([[null, []]]);
    for (const flat of this.filteredNodes) {
      const id = flat.node.entry.id;
      const parent = shownAncestor(id);
      parents.set(id, parent);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(id);
    }
    const roots = children.get(null);
    this.multipleRoots = roots.length > 1;
    const shownById = new Map(this.filteredNodes.map((flat) => [flat.node.entry.id, flat]));
    layOut(roots, (id) => children.get(id) || [], this.multipleRoots, (row) => {
      const flat = shownById.get(row.item);
      if (!flat) return false;
      flat.indent = row.indent;
      flat.showConnector = row.showConnector;
      flat.isLast = row.isLast;
      flat.gutters = row.gutters;
      flat.isVirtualRootChild = row.isVirtualRootChild;
      return true;
    });
    this.visibleParentMap = parents;
    this.visibleChildrenMap = children;
  }

  invalidate() {}

  getSearchQuery() {
    return this.searchQuery;
  }

  getSelectedNode() {
    return this.filteredNodes[this.selectedIndex]?.node;
  }

  copySelected() {
    const node = this.getSelectedNode();
    this.onCopy?.(node ? entryCopyText(node) : undefined);
  }

  updateNodeLabel(entryId, label, labelTimestamp) {
    const flat = this.flatNodes.find((candidate) => candidate.node.entry.id === entryId);
    if (!flat) return;
    flat.node.label = label;
    flat.node.labelTimestamp = label ? (labelTimestamp ?? new Date().toISOString()) : undefined;
  }

  getStatusLabels() {
    return (FILTER_LABELS[this.filterMode] ?? "") + (this.showLabelTimestamps ? " [+label time]" : "");
  }

  /** The indentation, gutters and connector left of a row's text; the connector shows whether the row is folded. */
  rowPrefix(flat) {
    const displayIndent = this.multipleRoots ? Math.max(0, flat.indent - 1) : flat.indent;
    const hasConnector = flat.showConnector && !flat.isVirtualRootChild;
    const connectorLevel = hasConnector ? displayIndent - 1 : -1;
    const id = flat.node.entry.id;
    const chars = [];
    for (let i = 0; i < displayIndent * 3; i++) {
      const level = Math.floor(i / 3);
      const column = i % 3;
      const gutter = flat.gutters.find((candidate) => candidate.position === level);
      if (gutter) chars.push(column === 0 && gutter.show ? "│" : " ");
      else if (level === connectorLevel && column === 0) chars.push(flat.isLast ? "└" : "├");
      else if (level === connectorLevel && column === 1) chars.push(this.foldedNodes.has(id) ? "⊞" : this.isFoldable(id) ? "⊟" : "─");
      else chars.push(" ");
    }
    return chars.join("");
  }

  render(width) {
    const theme = currentTheme();
    const count = this.filteredNodes.length;
    if (count === 0) {
      return [truncateToWidth(theme.fg("muted", "  No entries found"), width), truncateToWidth(theme.fg("muted", `  (0/0)${this.getStatusLabels()}`), width)];
    }
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(this.maxVisibleLines / 2), count - this.maxVisibleLines));
    const end = Math.min(start + this.maxVisibleLines, count);
    const rows = [];
    for (let i = start; i < end; i++) {
      const flat = this.filteredNodes[i];
      const { node } = flat;
      const selected = i === this.selectedIndex;
      // A root has no connector to show its fold in, so it gets a marker.
      const foldMarker = this.foldedNodes.has(node.entry.id) && !(flat.showConnector && !flat.isVirtualRootChild) ? theme.fg("accent", "⊞ ") : "";
      const pathMarker = this.activePathIds.has(node.entry.id) ? theme.fg("accent", "• ") : "";
      const label = node.label ? theme.fg("warning", `[${node.label}] `) : "";
      const labelTime = this.showLabelTimestamps && node.label && node.labelTimestamp ? theme.fg("muted", `${formatLabelTimestamp(node.labelTimestamp)} `) : "";
      const lead = theme.fg("dim", this.rowPrefix(flat)) + foldMarker + pathMarker;
      let gutter = selected ? theme.fg("accent", "› ") : "  ";
      let body = lead + label + labelTime + entryDisplayText(node, selected, this.toolCallMap);
      if (selected) {
        gutter = theme.bg("selectedBg", gutter);
        body = theme.bg("selectedBg", body);
      }
      rows.push({ gutter, body, anchorCol: visibleWidth(lead), bodyWidth: visibleWidth(body), isSelected: selected });
    }
    return [...clipHorizontally(rows, width), truncateToWidth(theme.fg("muted", `  (${this.selectedIndex + 1}/${count})${this.getStatusLabels()}`), width)];
  }

  setFilterMode(mode) {
    this.filterMode = mode;
    this.foldedNodes.clear();
    this.applyFilter();
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    const count = this.filteredNodes.length;
    const selectedId = () => this.filteredNodes[this.selectedIndex]?.node.entry.id;
    if (keys.matches(keyData, "tui.select.up")) this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
    else if (keys.matches(keyData, "tui.select.down")) this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
    else if (keys.matches(keyData, "app.tree.foldOrUp")) {
      const id = selectedId();
      if (id && this.isFoldable(id) && !this.foldedNodes.has(id)) {
        this.foldedNodes.add(id);
        this.applyFilter();
      } else this.selectedIndex = this.findBranchSegmentStart("up");
    } else if (keys.matches(keyData, "app.tree.unfoldOrDown")) {
      const id = selectedId();
      if (id && this.foldedNodes.has(id)) {
        this.foldedNodes.delete(id);
        this.applyFilter();
      } else this.selectedIndex = this.findBranchSegmentStart("down");
    } else if (keys.matches(keyData, "tui.editor.cursorLeft") || keys.matches(keyData, "tui.select.pageUp")) {
      this.selectedIndex = Math.max(0, this.selectedIndex - this.maxVisibleLines);
    } else if (keys.matches(keyData, "tui.editor.cursorRight") || keys.matches(keyData, "tui.select.pageDown")) {
      this.selectedIndex = Math.min(count - 1, this.selectedIndex + this.maxVisibleLines);
    } else if (keys.matches(keyData, "tui.select.confirm")) {
      const selected = this.filteredNodes[this.selectedIndex];
      if (selected) this.onSelect?.(selected.node.entry.id);
    } else if (keys.matches(keyData, "app.message.copy")) this.copySelected();
    else if (keys.matches(keyData, "tui.select.cancel")) {
      // Escape first clears a search, then leaves.
      if (this.searchQuery) {
        this.searchQuery = "";
        this.foldedNodes.clear();
        this.applyFilter();
      } else this.onCancel?.();
    } else if (keys.matches(keyData, "app.tree.filter.default")) this.setFilterMode("default");
    else if (this.handleFilterToggle(keys, keyData)) {
      // handled
    } else if (keys.matches(keyData, "app.tree.filter.cycleBackward")) {
      this.setFilterMode(FILTER_MODES[(FILTER_MODES.indexOf(this.filterMode) - 1 + FILTER_MODES.length) % FILTER_MODES.length]);
    } else if (keys.matches(keyData, "app.tree.filter.cycleForward")) {
      this.setFilterMode(FILTER_MODES[(FILTER_MODES.indexOf(this.filterMode) + 1) % FILTER_MODES.length]);
    } else if (keys.matches(keyData, "tui.editor.deleteCharBackward")) {
      if (this.searchQuery.length > 0) {
        this.searchQuery = this.searchQuery.slice(0, -1);
        this.foldedNodes.clear();
        this.applyFilter();
      }
    } else if (keys.matches(keyData, "app.tree.editLabel")) {
      const selected = this.filteredNodes[this.selectedIndex];
      if (selected) this.onLabelEdit?.(selected.node.entry.id, selected.node.label);
    } else if (keys.matches(keyData, "app.tree.toggleLabelTimestamp")) this.showLabelTimestamps = !this.showLabelTimestamps;
    else if (keyData.length > 0 && !hasControlCharacters(keyData)) {
      // Printable input extends the search.
      this.searchQuery += keyData;
      this.foldedNodes.clear();
      this.applyFilter();
    }
  }

  /** A filter key toggles its filter with the default one; true when `keyData` was one. */
  handleFilterToggle(keys, keyData) {
    const hit = FILTER_KEYS.find(([id]) => keys.matches(keyData, id));
    if (!hit) return false;
    this.setFilterMode(this.filterMode === hit[1] ? "default" : hit[1]);
    return true;
  }

  /** A row folds when it has shown children and is a root or starts a branch (its parent has several). */
  isFoldable(entryId) {
    const children = this.visibleChildrenMap.get(entryId);
    if (!children || children.length === 0) return false;
    const parent = this.visibleParentMap.get(entryId);
    if (parent === null || parent === undefined) return true;
    const siblings = this.visibleChildrenMap.get(parent);
    return siblings !== undefined && siblings.length > 1;
  }

  /**
   * The row of the next branch start: down follows first children to the
   * next branch point (or the end); up climbs to the start of the
   * enclosing branch above the selection (or the root).
   */
  findBranchSegmentStart(direction) {
    const startId = this.filteredNodes[this.selectedIndex]?.node.entry.id;
    if (!startId) return this.selectedIndex;
    const indexById = new Map(this.filteredNodes.map((flat, i) => [flat.node.entry.id, i]));
    let id = startId;
    if (direction === "down") {
      for (;;) {
        const children = this.visibleChildrenMap.get(id) ?? [];
        if (children.length === 0) return indexById.get(id);
        if (children.length > 1) return indexById.get(children[0]);
        id = children[0];
      }
    }
    for (;;) {
      const parent = this.visibleParentMap.get(id) ?? null;
      if (parent === null) return indexById.get(id);
      const siblings = this.visibleChildrenMap.get(parent) ?? [];
      if (siblings.length > 1 && indexById.get(id) < this.selectedIndex) return indexById.get(id);
      id = parent;
    }
  }
}

function hasControlCharacters(text) {
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  }
  return false;
}
