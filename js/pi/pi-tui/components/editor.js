// The multi-line prompt editor: word-wrapped text between two horizontal
// rules, emacs-style editing with a kill ring and undo, prompt history, and
// large bracketed pastes folded into "[paste #N ...]" markers that expand
// again on submit. Autocomplete providers are accepted but never queried.
import { getKeybindings } from "../keybindings.js";
import { decodePrintableKey, matchesKey } from "../keys.js";
import { sliceByColumn } from "../truncate.js";
import { visibleWidth } from "../width.js";
import { PUNCTUATION_REGEX, isWhitespaceChar } from "../words.js";
import { CURSOR_MARKER, renderFakeCursor } from "./cursor.js";
import { KillRing } from "./input.js";
import { PASTE_MARKER_PATTERN, isPasteMarker, markerId, segmentText, wordWrapLine } from "./editor-layout.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const HISTORY_LIMIT = 100;

function clampInt(value, min, max, fallback) {
  return Number.isFinite(value) ? Math.max(min, Math.min(max, Math.floor(value))) : fallback;
}

function copyState(state) {
  return { lines: [...state.lines], cursorLine: state.cursorLine, cursorCol: state.cursorCol };
}

/** A rule of `width` cells with "↑ N more" centred in it, shortened as room runs out. */
function scrollRule(arrow, hidden, width) {
  const room = Math.max(0, width);
  const label = ` ${arrow} ${hidden} more `;
  const labelWidth = visibleWidth(label);
  if (labelWidth + 2 <= room) {
    const left = Math.floor((room - labelWidth) / 2);
    return "─".repeat(left) + label + "─".repeat(room - left - labelWidth);
  }
  const leading = `─── ${arrow} ${hidden} more `;
  const spare = room - visibleWidth(leading);
  if (spare >= 0) return leading + "─".repeat(spare);
  const dots = "...".slice(0, room);
  return sliceByColumn(leading, 0, room - visibleWidth(dots), true) + dots;
}

export class Editor {
  constructor(tui, theme, options = {}) {
    this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
    this.focused = false;
    this.tui = tui;
    this.theme = theme;
    this.borderColor = theme.borderColor;
    this.paddingX = clampInt(options.paddingX ?? 0, 0, Infinity, 0);
    this.autocompleteMaxVisible = clampInt(options.autocompleteMaxVisible ?? 5, 3, 20, 5);
    this.autocompleteProvider = undefined;
    // Geometry of the last render, which cursor moves and clicks rely on.
    this.lastWidth = 80;
    this.renderedVisibleLineCount = 1;
    this.scrollOffset = 0;
    this.pastes = new Map();
    this.pasteCounter = 0;
    this.pasteBuffer = "";
    this.isInPaste = false;
    this.history = [];
    // -1 while editing; otherwise how far back in history the shown entry is.
    this.historyIndex = -1;
    this.historyDraft = null;
    this.killRing = new KillRing();
    this.lastAction = null;
    this.jumpMode = null;
    // The column vertical moves aim for after passing through shorter lines.
    this.preferredVisualCol = null;
    // Where the cursor was before being pulled back to the start of a marker.
    this.snappedFromCursorCol = null;
    this.undoStack = [];
    this.onSubmit = undefined;
    this.onChange = undefined;
    this.disableSubmit = false;
  }

  get capturesViewportInput() {
    return false;
  }

  segment(text, kind) {
    return segmentText(text, kind, new Set(this.pastes.keys()));
  }

  getPaddingX() {
    return this.paddingX;
  }

  setPaddingX(padding) {
    const next = clampInt(padding, 0, Infinity, 0);
    if (next === this.paddingX) return;
    this.paddingX = next;
    this.tui.requestRender();
  }

  getAutocompleteMaxVisible() {
    return this.autocompleteMaxVisible;
  }

  setAutocompleteMaxVisible(maxVisible) {
    const next = clampInt(maxVisible, 3, 20, 5);
    if (next === this.autocompleteMaxVisible) return;
    this.autocompleteMaxVisible = next;
    this.tui.requestRender();
  }

  setAutocompleteProvider(provider) {
    this.autocompleteProvider = provider;
  }

  isShowingAutocomplete() {
    return false;
  }

  addToHistory(text) {
    const entry = text.trim();
    if (!entry || this.history[0] === entry) return;
    this.history.unshift(entry);
    if (this.history.length > HISTORY_LIMIT) this.history.pop();
  }

  invalidate() {}

  // --- Text access ---------------------------------------------------------

  getText() {
    return this.state.lines.join("\n");
  }

  getExpandedText() {
    return this.expandPasteMarkers(this.getText());
  }

  getLines() {
    return [...this.state.lines];
  }

  getCursor() {
    return { line: this.state.cursorLine, col: this.state.cursorCol };
  }

  setText(text) {
    this.lastAction = null;
    this.exitHistoryBrowsing();
    const normalized = normalizeText(text);
    // Replacing the text from code can be undone like typing.
    if (normalized !== this.getText()) this.pushUndoSnapshot();
    this.pastes.clear();
    this.pasteCounter = 0;
    this.replaceText(normalized, "end");
  }

  insertTextAtCursor(text) {
    if (!text) return;
    this.pushUndoSnapshot();
    this.lastAction = null;
    this.exitHistoryBrowsing();
    this.insertAtCursor(text);
  }

  expandPasteMarkers(text) {
    let out = text;
    for (const [id, content] of this.pastes) {
      out = out.replace(new RegExp(`\\[paste #${id}( (\\+\\d+ lines|\\d+ chars))?\\]`, "g"), () => content);
    }
    return out;
  }

  changed() {
    this.onChange?.(this.getText());
  }

  replaceText(text, cursorAt) {
    const lines = text.split("\n");
    this.state.lines = lines;
    this.state.cursorLine = cursorAt === "start" ? 0 : lines.length - 1;
    this.setCursorCol(cursorAt === "start" ? 0 : lines[this.state.cursorLine].length);
    this.scrollOffset = 0;
    this.changed();
  }

  insertAtCursor(text) {
    if (!text) return;
    const normalized = normalizeText(text);
    const pieces = normalized.split("\n");
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    const before = line.slice(0, cursorCol);
    const after = line.slice(cursorCol);
    if (pieces.length === 1) {
      lines[cursorLine] = before + normalized + after;
      this.setCursorCol(cursorCol + normalized.length);
    } else {
      const last = pieces[pieces.length - 1];
      this.state.lines = [
        ...lines.slice(0, cursorLine),
        before + pieces[0],
        ...pieces.slice(1, -1),
        last + after,
        ...lines.slice(cursorLine + 1),
      ];
      this.state.cursorLine += pieces.length - 1;
      this.setCursorCol(last.length);
    }
    this.changed();
  }

  // --- Rendering -----------------------------------------------------------

  renderTopBorder(width, hiddenLineCount) {
    return this.borderColor(hiddenLineCount > 0 ? scrollRule("↑", hiddenLineCount, width) : "─".repeat(width));
  }

  renderBottomBorder(width, hiddenLineCount) {
    return this.borderColor(hiddenLineCount > 0 ? scrollRule("↓", hiddenLineCount, width) : "─".repeat(width));
  }

  geometry(width) {
    const paddingX = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
    const contentWidth = Math.max(1, width - paddingX * 2);
    return { paddingX, contentWidth };
  }

  maxVisibleLines() {
    return Math.max(5, Math.floor(this.tui.terminal.rows * 0.3));
  }

  render(width) {
    const { paddingX, contentWidth } = this.geometry(width);
    // Without padding one column is kept free for a cursor at a line's end;
    // with padding the cursor may spill into it.
    const layoutWidth = Math.max(1, contentWidth - (paddingX ? 0 : 1));
    this.lastWidth = layoutWidth;
    const layout = this.layoutText(layoutWidth);
    const maxVisible = this.maxVisibleLines();

    let cursorRow = layout.findIndex((row) => row.hasCursor);
    if (cursorRow === -1) cursorRow = 0;
    if (cursorRow < this.scrollOffset) this.scrollOffset = cursorRow;
    else if (cursorRow >= this.scrollOffset + maxVisible) this.scrollOffset = cursorRow - maxVisible + 1;
    this.scrollOffset = Math.max(0, Math.min(this.scrollOffset, Math.max(0, layout.length - maxVisible)));

    const visible = layout.slice(this.scrollOffset, this.scrollOffset + maxVisible);
    this.renderedVisibleLineCount = visible.length;
    const pad = " ".repeat(paddingX);
    const out = [this.renderTopBorder(width, this.scrollOffset)];
    for (const row of visible) {
      let text = row.text;
      let rowWidth = visibleWidth(text);
      let rightPad = pad;
      if (row.hasCursor) {
        const before = text.slice(0, row.cursorPos);
        const after = text.slice(row.cursorPos);
        const marker = this.focused ? CURSOR_MARKER : "";
        if (after.length > 0) {
          const first = this.segment(after, "grapheme")[0]?.segment || "";
          text = before + marker + renderFakeCursor(first) + after.slice(first.length);
        } else {
          text = before + marker + renderFakeCursor(" ");
          rowWidth += 1;
          if (rowWidth > contentWidth && paddingX > 0) rightPad = pad.slice(1);
        }
      }
      out.push(pad + text + " ".repeat(Math.max(0, contentWidth - rowWidth)) + rightPad);
    }
    const below = layout.length - (this.scrollOffset + visible.length);
    out.push(this.renderBottomBorder(width, below));
    return out;
  }

  /** Display rows: [{ text, hasCursor, cursorPos }]. */
  layoutText(width) {
    const { lines, cursorLine, cursorCol } = this.state;
    if (lines.length === 0 || (lines.length === 1 && lines[0] === "")) {
      return [{ text: "", hasCursor: true, cursorPos: 0 }];
    }
    const rows = [];
    lines.forEach((raw, i) => {
      const line = raw || "";
      const current = i === cursorLine;
      if (visibleWidth(line) <= width) {
        rows.push(current ? { text: line, hasCursor: true, cursorPos: cursorCol } : { text: line, hasCursor: false });
        return;
      }
      const chunks = wordWrapLine(line, width, this.segment(line, "grapheme"));
      chunks.forEach((chunk, k) => {
        let here = false;
        let pos = 0;
        if (current) {
          if (k === chunks.length - 1) {
            here = cursorCol >= chunk.startIndex;
            pos = cursorCol - chunk.startIndex;
          } else if (cursorCol >= chunk.startIndex && cursorCol < chunk.endIndex) {
            here = true;
            pos = Math.min(cursorCol - chunk.startIndex, chunk.text.length);
          }
        }
        rows.push(here ? { text: chunk.text, hasCursor: true, cursorPos: pos } : { text: chunk.text, hasCursor: false });
      });
    });
    return rows;
  }

  /** Visual rows as source positions: [{ logicalLine, startCol, length }]. */
  buildVisualLineMap(width) {
    const rows = [];
    this.state.lines.forEach((raw, i) => {
      const line = raw || "";
      if (line.length === 0) rows.push({ logicalLine: i, startCol: 0, length: 0 });
      else if (visibleWidth(line) <= width) rows.push({ logicalLine: i, startCol: 0, length: line.length });
      else {
        for (const chunk of wordWrapLine(line, width, this.segment(line, "grapheme"))) {
          rows.push({ logicalLine: i, startCol: chunk.startIndex, length: chunk.endIndex - chunk.startIndex });
        }
      }
    });
    return rows;
  }

  isLastRowOfLine(rows, i) {
    return i === rows.length - 1 || rows[i + 1]?.logicalLine !== rows[i].logicalLine;
  }

  findVisualLineAt(rows, line, col) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row.logicalLine !== line) continue;
      const offset = col - row.startCol;
      // Only a line's last row owns the position just past its end.
      if (offset >= 0 && (offset < row.length || (offset === row.length && this.isLastRowOfLine(rows, i)))) return i;
    }
    return rows.length - 1;
  }

  findCurrentVisualLine(rows) {
    return this.findVisualLineAt(rows, this.state.cursorLine, this.state.cursorCol);
  }

  // --- Mouse -----------------------------------------------------------------

  handleMouse(event) {
    // Presses and drags are left to the screen's text selection.
    if (event.type !== "click" || event.button !== "left") return undefined;
    if (event.y <= 0 || event.y > this.renderedVisibleLineCount) return { handled: true, focus: true };
    const rows = this.buildVisualLineMap(this.lastWidth);
    const rowIndex = this.scrollOffset + event.y - 1;
    const row = rows[rowIndex];
    if (!row) return { handled: true, focus: true };
    const chunk = (this.state.lines[row.logicalLine] ?? "").slice(row.startCol, row.startCol + row.length);
    const { paddingX } = this.geometry(event.width);
    const target = Math.max(0, event.x - paddingX);
    let column = 0;
    let index = chunk.length;
    let lastIndex = 0;
    for (const seg of this.segment(chunk, "grapheme")) {
      const next = column + visibleWidth(seg.segment);
      lastIndex = seg.index;
      if (target < next) {
        index = seg.index;
        break;
      }
      column = next;
    }
    // Past the end of a wrapped row means its last character, not the next row.
    if (!this.isLastRowOfLine(rows, rowIndex) && index === chunk.length && chunk.length > 0) index = lastIndex;
    this.state.cursorLine = row.logicalLine;
    this.setCursorCol(row.startCol + index);
    this.lastAction = null;
    this.exitHistoryBrowsing();
    return { handled: true, focus: true };
  }

  // --- Keys ------------------------------------------------------------------

  handleInput(data) {
    const kb = getKeybindings();
    const on = (id) => kb.matches(data, id);

    if (this.jumpMode !== null) {
      if (on("tui.editor.jumpForward") || on("tui.editor.jumpBackward")) {
        this.jumpMode = null;
        return;
      }
      const target = decodePrintableKey(data) ?? (data.charCodeAt(0) >= 32 ? data : undefined);
      const direction = this.jumpMode;
      this.jumpMode = null;
      if (target !== undefined) {
        this.jumpToChar(target, direction);
        return;
      }
      // Any other key cancels the jump and then acts as itself.
    }

    if (data.includes(PASTE_START)) {
      this.isInPaste = true;
      this.pasteBuffer = "";
      data = data.replace(PASTE_START, "");
    }
    if (this.isInPaste) {
      this.pasteBuffer += data;
      const end = this.pasteBuffer.indexOf(PASTE_END);
      if (end === -1) return;
      const content = this.pasteBuffer.slice(0, end);
      const rest = this.pasteBuffer.slice(end + PASTE_END.length);
      if (content.length > 0) this.handlePaste(content);
      this.isInPaste = false;
      this.pasteBuffer = "";
      if (rest.length > 0) this.handleInput(rest);
      return;
    }

    // Ctrl+C belongs to whoever hosts the editor.
    if (on("tui.input.copy")) return;
    if (on("tui.editor.undo")) return this.undo();
    if (on("tui.input.tab")) return;

    if (on("tui.editor.deleteToLineEnd")) return this.deleteToEndOfLine();
    if (on("tui.editor.deleteToLineStart")) return this.deleteToStartOfLine();
    if (on("tui.editor.deleteWordBackward")) return this.deleteWordBackwards();
    if (on("tui.editor.deleteWordForward")) return this.deleteWordForward();
    if (on("tui.editor.deleteCharBackward") || matchesKey(data, "shift+backspace")) return this.handleBackspace();
    if (on("tui.editor.deleteCharForward") || matchesKey(data, "shift+delete")) return this.handleForwardDelete();
    if (on("tui.editor.yank")) return this.yank();
    if (on("tui.editor.yankPop")) return this.yankPop();
    if (on("tui.editor.historyPrevious")) return this.navigateHistory(-1);
    if (on("tui.editor.historyNext")) return this.navigateHistory(1);
    if (on("tui.editor.cursorLineStart")) return this.moveToLineStart();
    if (on("tui.editor.cursorLineEnd")) return this.moveToLineEnd();
    if (on("tui.editor.cursorWordLeft")) return this.moveWordBackwards();
    if (on("tui.editor.cursorWordRight")) return this.moveWordForwards();

    // Terminals report Shift+Enter in several ways; raw LF counts too.
    const newline =
      on("tui.input.newLine") ||
      (data.charCodeAt(0) === 10 && data.length > 1) ||
      data === "\x1b\r" ||
      data === "\x1b[13;2~" ||
      (data.length > 1 && data.includes("\x1b") && data.includes("\r")) ||
      data === "\n";
    if (newline) {
      if (this.backslashEnterSubmits(data, kb)) {
        this.handleBackspace();
        this.submitValue();
        return;
      }
      return this.addNewLine();
    }

    if (on("tui.input.submit")) {
      if (this.disableSubmit) return;
      // A trailing backslash turns Enter into a newline for terminals that
      // cannot send Shift+Enter.
      const line = this.state.lines[this.state.cursorLine] || "";
      if (this.state.cursorCol > 0 && line[this.state.cursorCol - 1] === "\\") {
        this.handleBackspace();
        this.addNewLine();
        return;
      }
      this.submitValue();
      return;
    }

    if (on("tui.editor.cursorUp")) {
      const top = this.isOnFirstVisualLine();
      if (top && (this.isEditorEmpty() || this.historyIndex > -1 || this.state.cursorCol === 0)) this.navigateHistory(-1);
      else if (top) this.moveToLineStart();
      else this.moveCursor(-1, 0);
      return;
    }
    if (on("tui.editor.cursorDown")) {
      const bottom = this.isOnLastVisualLine();
      if (this.historyIndex > -1 && bottom) this.navigateHistory(1);
      else if (bottom) this.moveToLineEnd();
      else this.moveCursor(1, 0);
      return;
    }
    if (on("tui.editor.cursorRight")) return this.moveCursor(0, 1);
    if (on("tui.editor.cursorLeft")) return this.moveCursor(0, -1);
    if (on("tui.editor.pageUp")) return this.pageScroll(-1);
    if (on("tui.editor.pageDown")) return this.pageScroll(1);
    if (on("tui.editor.jumpForward")) {
      this.jumpMode = "forward";
      return;
    }
    if (on("tui.editor.jumpBackward")) {
      this.jumpMode = "backward";
      return;
    }
    if (matchesKey(data, "shift+space")) return this.insertCharacter(" ");
    const typed = decodePrintableKey(data);
    if (typed !== undefined) return this.insertCharacter(typed);
    if (data.charCodeAt(0) >= 32) this.insertCharacter(data);
  }

  backslashEnterSubmits(data, kb) {
    if (this.disableSubmit || !matchesKey(data, "enter")) return false;
    const submitKeys = kb.getKeys("tui.input.submit");
    if (!submitKeys.includes("shift+enter") && !submitKeys.includes("shift+return")) return false;
    const line = this.state.lines[this.state.cursorLine] || "";
    return this.state.cursorCol > 0 && line[this.state.cursorCol - 1] === "\\";
  }

  // --- History ---------------------------------------------------------------

  isEditorEmpty() {
    return this.state.lines.length === 1 && this.state.lines[0] === "";
  }

  isOnFirstVisualLine() {
    return this.findCurrentVisualLine(this.buildVisualLineMap(this.lastWidth)) === 0;
  }

  isOnLastVisualLine() {
    const rows = this.buildVisualLineMap(this.lastWidth);
    return this.findCurrentVisualLine(rows) === rows.length - 1;
  }

  navigateHistory(direction) {
    this.lastAction = null;
    if (this.history.length === 0) return;
    const next = this.historyIndex - direction;
    if (next < -1 || next >= this.history.length) return;
    if (this.historyIndex === -1 && next >= 0) {
      // Keep what was being typed, to come back to past the newest entry.
      this.pushUndoSnapshot();
      this.historyDraft = copyState(this.state);
    }
    this.historyIndex = next;
    if (next >= 0) {
      this.replaceText(this.history[next] || "", direction === -1 ? "start" : "end");
      return;
    }
    const draft = this.historyDraft;
    this.historyDraft = null;
    if (!draft) {
      this.replaceText("", "end");
      return;
    }
    this.state = draft;
    this.preferredVisualCol = null;
    this.snappedFromCursorCol = null;
    this.scrollOffset = 0;
    this.changed();
  }

  exitHistoryBrowsing() {
    this.historyIndex = -1;
    this.historyDraft = null;
  }

  // --- Editing ---------------------------------------------------------------

  insertCharacter(char, skipUndoCoalescing) {
    this.exitHistoryBrowsing();
    if (!skipUndoCoalescing) {
      // A run of word characters undoes as one; each space starts a new step.
      if (isWhitespaceChar(char) || this.lastAction !== "type-word") this.pushUndoSnapshot();
      this.lastAction = "type-word";
    }
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    lines[cursorLine] = line.slice(0, cursorCol) + char + line.slice(cursorCol);
    this.setCursorCol(cursorCol + char.length);
    this.changed();
  }

  handlePaste(pasted) {
    this.exitHistoryBrowsing();
    this.lastAction = null;
    this.pushUndoSnapshot();
    // Some terminals re-encode control bytes inside a paste as CSI u
    // Ctrl+letter; turn them back into the bytes so newlines survive.
    const decoded = pasted.replace(/\x1b\[(\d+);5u/g, (all, code) => {
      const cp = Number(code);
      if (cp >= 97 && cp <= 122) return String.fromCharCode(cp - 96);
      if (cp >= 65 && cp <= 90) return String.fromCharCode(cp - 64);
      return all;
    });
    let text = [...normalizeText(decoded)].filter((ch) => ch === "\n" || ch.charCodeAt(0) >= 32).join("");
    // A pasted path right after a word gets a separating space.
    if (/^[/~.]/.test(text)) {
      const line = this.state.lines[this.state.cursorLine] || "";
      const before = this.state.cursorCol > 0 ? line[this.state.cursorCol - 1] : "";
      if (before && /\w/.test(before)) text = ` ${text}`;
    }
    const lineCount = text.split("\n").length;
    if (lineCount > 10 || text.length > 1000) {
      this.pasteCounter++;
      const id = this.pasteCounter;
      this.pastes.set(id, text);
      this.insertAtCursor(lineCount > 10 ? `[paste #${id} +${lineCount} lines]` : `[paste #${id} ${text.length} chars]`);
      return;
    }
    this.insertAtCursor(text);
  }

  addNewLine() {
    this.exitHistoryBrowsing();
    this.lastAction = null;
    this.pushUndoSnapshot();
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    lines[cursorLine] = line.slice(0, cursorCol);
    lines.splice(cursorLine + 1, 0, line.slice(cursorCol));
    this.state.cursorLine++;
    this.setCursorCol(0);
    this.changed();
  }

  submitValue() {
    const result = this.expandPasteMarkers(this.getText()).trim();
    this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
    this.pastes.clear();
    this.pasteCounter = 0;
    this.exitHistoryBrowsing();
    this.scrollOffset = 0;
    this.undoStack.length = 0;
    this.lastAction = null;
    this.onChange?.("");
    this.onSubmit?.(result);
  }

  /** Forget paste `id`, renumbering later pastes and their markers down by one. */
  dropPaste(id) {
    this.pastes.delete(id);
    this.pasteCounter--;
    const later = [...this.pastes.keys()].filter((k) => k > id).sort((a, b) => a - b);
    for (const k of later) {
      this.pastes.set(k - 1, this.pastes.get(k));
      this.pastes.delete(k);
    }
    this.state.lines = this.state.lines.map((line) =>
      line.replace(PASTE_MARKER_PATTERN, (all, n, suffix) => (Number(n) <= id ? all : `[paste #${Number(n) - 1}${suffix ?? ""}]`)),
    );
  }

  handleBackspace() {
    this.exitHistoryBrowsing();
    this.lastAction = null;
    const { cursorLine, cursorCol } = this.state;
    if (cursorCol > 0) {
      this.pushUndoSnapshot();
      const segs = this.segment((this.state.lines[cursorLine] || "").slice(0, cursorCol), "grapheme");
      const last = segs[segs.length - 1];
      const size = last ? last.segment.length : 1;
      const id = last ? markerId(last.segment) : undefined;
      if (id !== undefined) this.dropPaste(id);
      const line = this.state.lines[cursorLine] || "";
      this.state.lines[cursorLine] = line.slice(0, cursorCol - size) + line.slice(cursorCol);
      this.setCursorCol(cursorCol - size);
    } else if (cursorLine > 0) {
      this.pushUndoSnapshot();
      this.joinWithPrevious();
    }
    this.changed();
  }

  handleForwardDelete() {
    this.exitHistoryBrowsing();
    this.lastAction = null;
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    if (cursorCol < line.length) {
      this.pushUndoSnapshot();
      const first = this.segment(line.slice(cursorCol), "grapheme")[0];
      const size = first ? first.segment.length : 1;
      lines[cursorLine] = line.slice(0, cursorCol) + line.slice(cursorCol + size);
    } else if (cursorLine < lines.length - 1) {
      this.pushUndoSnapshot();
      this.joinWithNext();
    }
    this.changed();
  }

  joinWithPrevious() {
    const { lines, cursorLine } = this.state;
    const previous = lines[cursorLine - 1] || "";
    lines[cursorLine - 1] = previous + (lines[cursorLine] || "");
    lines.splice(cursorLine, 1);
    this.state.cursorLine--;
    this.setCursorCol(previous.length);
  }

  joinWithNext() {
    const { lines, cursorLine } = this.state;
    lines[cursorLine] = (lines[cursorLine] || "") + (lines[cursorLine + 1] || "");
    lines.splice(cursorLine + 1, 1);
  }

  kill(text, prepend, accumulate) {
    this.killRing.push(text, { prepend, accumulate });
    this.lastAction = "kill";
  }

  deleteToStartOfLine() {
    this.exitHistoryBrowsing();
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    if (cursorCol > 0) {
      this.pushUndoSnapshot();
      this.kill(line.slice(0, cursorCol), true, this.lastAction === "kill");
      lines[cursorLine] = line.slice(cursorCol);
      this.setCursorCol(0);
    } else if (cursorLine > 0) {
      // At a line start the line break itself is what gets killed.
      this.pushUndoSnapshot();
      this.kill("\n", true, this.lastAction === "kill");
      this.joinWithPrevious();
    }
    this.changed();
  }

  deleteToEndOfLine() {
    this.exitHistoryBrowsing();
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    if (cursorCol < line.length) {
      this.pushUndoSnapshot();
      this.kill(line.slice(cursorCol), false, this.lastAction === "kill");
      lines[cursorLine] = line.slice(0, cursorCol);
    } else if (cursorLine < lines.length - 1) {
      this.pushUndoSnapshot();
      this.kill("\n", false, this.lastAction === "kill");
      this.joinWithNext();
    }
    this.changed();
  }

  deleteWordBackwards() {
    this.exitHistoryBrowsing();
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    if (cursorCol === 0) {
      if (cursorLine > 0) {
        this.pushUndoSnapshot();
        this.kill("\n", true, this.lastAction === "kill");
        this.joinWithPrevious();
      }
    } else {
      this.pushUndoSnapshot();
      const accumulate = this.lastAction === "kill";
      const from = this.wordBackwardFrom(line, cursorCol);
      this.kill(line.slice(from, cursorCol), true, accumulate);
      lines[cursorLine] = line.slice(0, from) + line.slice(cursorCol);
      this.setCursorCol(from);
    }
    this.changed();
  }

  deleteWordForward() {
    this.exitHistoryBrowsing();
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    if (cursorCol >= line.length) {
      if (cursorLine < lines.length - 1) {
        this.pushUndoSnapshot();
        this.kill("\n", false, this.lastAction === "kill");
        this.joinWithNext();
      }
    } else {
      this.pushUndoSnapshot();
      const accumulate = this.lastAction === "kill";
      const to = this.wordForwardFrom(line, cursorCol);
      this.kill(line.slice(cursorCol, to), false, accumulate);
      lines[cursorLine] = line.slice(0, cursorCol) + line.slice(to);
      this.setCursorCol(cursorCol);
    }
    this.changed();
  }

  yank() {
    if (this.killRing.length === 0) return;
    this.pushUndoSnapshot();
    this.insertYanked(this.killRing.peek());
    this.lastAction = "yank";
  }

  yankPop() {
    if (this.lastAction !== "yank" || this.killRing.length <= 1) return;
    this.pushUndoSnapshot();
    this.removeYanked();
    this.killRing.rotate();
    this.insertYanked(this.killRing.peek());
    this.lastAction = "yank";
  }

  insertYanked(text) {
    this.exitHistoryBrowsing();
    const pieces = text.split("\n");
    const { lines, cursorLine, cursorCol } = this.state;
    const line = lines[cursorLine] || "";
    const before = line.slice(0, cursorCol);
    const after = line.slice(cursorCol);
    if (pieces.length === 1) {
      lines[cursorLine] = before + text + after;
      this.setCursorCol(cursorCol + text.length);
    } else {
      const last = pieces[pieces.length - 1] || "";
      lines.splice(cursorLine, 1, before + (pieces[0] || ""), ...pieces.slice(1, -1), last + after);
      this.state.cursorLine = cursorLine + pieces.length - 1;
      this.setCursorCol(last.length);
    }
    this.changed();
  }

  /** Take back the text the last yank inserted just before the cursor. */
  removeYanked() {
    const text = this.killRing.peek();
    if (!text) return;
    const pieces = text.split("\n");
    const { lines, cursorLine, cursorCol } = this.state;
    if (pieces.length === 1) {
      const line = lines[cursorLine] || "";
      lines[cursorLine] = line.slice(0, cursorCol - text.length) + line.slice(cursorCol);
      this.setCursorCol(cursorCol - text.length);
    } else {
      const startLine = cursorLine - (pieces.length - 1);
      const startCol = (lines[startLine] || "").length - (pieces[0] || "").length;
      const after = (lines[cursorLine] || "").slice(cursorCol);
      const before = (lines[startLine] || "").slice(0, startCol);
      lines.splice(startLine, pieces.length, before + after);
      this.state.cursorLine = startLine;
      this.setCursorCol(startCol);
    }
    this.changed();
  }

  pushUndoSnapshot() {
    this.undoStack.push({ state: copyState(this.state), pastes: new Map(this.pastes), pasteCounter: this.pasteCounter });
  }

  undo() {
    this.exitHistoryBrowsing();
    const snapshot = this.undoStack.pop();
    if (!snapshot) return;
    Object.assign(this.state, snapshot.state);
    this.pastes = snapshot.pastes;
    this.pasteCounter = snapshot.pasteCounter;
    this.lastAction = null;
    this.preferredVisualCol = null;
    this.changed();
  }

  // --- Cursor ------------------------------------------------------------------

  setCursorCol(col) {
    this.state.cursorCol = col;
    this.preferredVisualCol = null;
    this.snappedFromCursorCol = null;
  }

  moveToLineStart() {
    this.lastAction = null;
    this.setCursorCol(0);
  }

  moveToLineEnd() {
    this.lastAction = null;
    this.setCursorCol((this.state.lines[this.state.cursorLine] || "").length);
  }

  moveCursor(deltaLine, deltaCol) {
    this.lastAction = null;
    const rows = this.buildVisualLineMap(this.lastWidth);
    const current = this.findCurrentVisualLine(rows);
    if (deltaLine !== 0) {
      const target = current + deltaLine;
      if (target >= 0 && target < rows.length) this.moveToVisualLine(rows, current, target);
    }
    if (deltaCol === 0) return;
    const { lines } = this.state;
    const line = lines[this.state.cursorLine] || "";
    const col = this.state.cursorCol;
    if (deltaCol > 0) {
      if (col < line.length) {
        const first = this.segment(line.slice(col), "grapheme")[0];
        this.setCursorCol(col + (first ? first.segment.length : 1));
      } else if (this.state.cursorLine < lines.length - 1) {
        this.state.cursorLine++;
        this.setCursorCol(0);
      } else if (rows[current]) {
        // Pushing right at the very end still sets the column Up/Down aim for.
        this.preferredVisualCol = col - rows[current].startCol;
      }
    } else if (col > 0) {
      const segs = this.segment(line.slice(0, col), "grapheme");
      const last = segs[segs.length - 1];
      this.setCursorCol(col - (last ? last.segment.length : 1));
    } else if (this.state.cursorLine > 0) {
      this.state.cursorLine--;
      this.setCursorCol((lines[this.state.cursorLine] || "").length);
    }
  }

  pageScroll(direction) {
    this.lastAction = null;
    const rows = this.buildVisualLineMap(this.lastWidth);
    const current = this.findCurrentVisualLine(rows);
    const target = Math.max(0, Math.min(rows.length - 1, current + direction * this.maxVisibleLines()));
    this.moveToVisualLine(rows, current, target);
  }

  moveToVisualLine(rows, from, to) {
    const source = rows[from];
    const target = rows[to];
    if (!source || !target) return;
    let column;
    if (this.snappedFromCursorCol !== null) {
      const at = this.findVisualLineAt(rows, source.logicalLine, this.snappedFromCursorCol);
      column = this.snappedFromCursorCol - rows[at].startCol;
    } else {
      column = this.state.cursorCol - source.startCol;
    }
    // A wrapped row's last position belongs to the row below it.
    const sourceMax = this.isLastRowOfLine(rows, from) ? source.length : Math.max(0, source.length - 1);
    const targetMax = this.isLastRowOfLine(rows, to) ? target.length : Math.max(0, target.length - 1);
    const goal = this.verticalColumn(column, sourceMax, targetMax);
    this.state.cursorLine = target.logicalLine;
    const line = this.state.lines[target.logicalLine] || "";
    this.state.cursorCol = Math.min(target.startCol + goal, line.length);

    // Never leave the cursor inside a marker.
    for (const seg of this.segment(line, "grapheme")) {
      if (seg.index > this.state.cursorCol) break;
      if (seg.segment.length <= 1) continue;
      if (this.state.cursorCol >= seg.index + seg.segment.length) continue;
      if (seg.index < target.startCol && to > from) {
        // Moving down into the rest of a marker already passed: skip its rows.
        const end = seg.index + seg.segment.length;
        let next = to + 1;
        while (next < rows.length && rows[next].logicalLine === target.logicalLine && rows[next].startCol < end) next++;
        if (next < rows.length) {
          this.moveToVisualLine(rows, from, next);
          return;
        }
      }
      this.snappedFromCursorCol = this.state.cursorCol;
      this.state.cursorCol = seg.index;
      return;
    }
    this.snappedFromCursorCol = null;
  }

  /**
   * The column a vertical move lands on. Passing through a shorter line
   * remembers the column left behind, and a later line long enough gets it
   * back; a cursor mid-line (not stuck at an end) starts afresh.
   */
  verticalColumn(column, sourceMax, targetMax) {
    const tooShort = targetMax < column;
    if (this.preferredVisualCol === null || column < sourceMax) {
      if (tooShort) {
        this.preferredVisualCol = column;
        return targetMax;
      }
      this.preferredVisualCol = null;
      return column;
    }
    if (tooShort || targetMax < this.preferredVisualCol) return targetMax;
    const preferred = this.preferredVisualCol;
    this.preferredVisualCol = null;
    return preferred;
  }

  wordBackwardFrom(line, col) {
    if (col <= 0) return 0;
    const segs = this.segment(line.slice(0, col), "word");
    let pos = col;
    const top = () => segs[segs.length - 1];
    while (segs.length > 0 && !isPasteMarker(top().segment) && isWhitespaceChar(top().segment)) {
      pos -= segs.pop().segment.length;
    }
    if (segs.length === 0) return pos;
    const last = top();
    if (isPasteMarker(last.segment)) return pos - last.segment.length;
    if (last.isWordLike) {
      // ASCII punctuation inside a word ("a.b") is still a stop.
      let after = -1;
      const re = new RegExp(PUNCTUATION_REGEX, "g");
      for (let m = re.exec(last.segment); m; m = re.exec(last.segment)) after = m.index + m[0].length;
      return pos - (after === -1 ? last.segment.length : last.segment.length - after);
    }
    while (
      segs.length > 0 &&
      !isPasteMarker(top().segment) &&
      !top().isWordLike &&
      !isWhitespaceChar(top().segment)
    ) {
      pos -= segs.pop().segment.length;
    }
    return pos;
  }

  wordForwardFrom(line, col) {
    if (col >= line.length) return line.length;
    const segs = this.segment(line.slice(col), "word");
    let pos = col;
    let k = 0;
    while (k < segs.length && !isPasteMarker(segs[k].segment) && isWhitespaceChar(segs[k].segment)) {
      pos += segs[k++].segment.length;
    }
    if (k === segs.length) return pos;
    const seg = segs[k];
    if (isPasteMarker(seg.segment)) return pos + seg.segment.length;
    if (seg.isWordLike) {
      const m = PUNCTUATION_REGEX.exec(seg.segment);
      return pos + (m ? m.index : seg.segment.length);
    }
    while (
      k < segs.length &&
      !isPasteMarker(segs[k].segment) &&
      !segs[k].isWordLike &&
      !isWhitespaceChar(segs[k].segment)
    ) {
      pos += segs[k++].segment.length;
    }
    return pos;
  }

  moveWordBackwards() {
    this.lastAction = null;
    if (this.state.cursorCol === 0) {
      if (this.state.cursorLine > 0) {
        this.state.cursorLine--;
        this.setCursorCol((this.state.lines[this.state.cursorLine] || "").length);
      }
      return;
    }
    this.setCursorCol(this.wordBackwardFrom(this.state.lines[this.state.cursorLine] || "", this.state.cursorCol));
  }

  moveWordForwards() {
    this.lastAction = null;
    const line = this.state.lines[this.state.cursorLine] || "";
    if (this.state.cursorCol >= line.length) {
      if (this.state.cursorLine < this.state.lines.length - 1) {
        this.state.cursorLine++;
        this.setCursorCol(0);
      }
      return;
    }
    this.setCursorCol(this.wordForwardFrom(line, this.state.cursorCol));
  }

  /** Move to the next (or previous) `char`, across lines, never staying put. */
  jumpToChar(char, direction) {
    this.lastAction = null;
    const forward = direction === "forward";
    const { lines } = this.state;
    for (let i = this.state.cursorLine; forward ? i < lines.length : i >= 0; i += forward ? 1 : -1) {
      const line = lines[i] || "";
      let found;
      if (i !== this.state.cursorLine) found = forward ? line.indexOf(char) : line.lastIndexOf(char);
      else if (forward) found = line.indexOf(char, this.state.cursorCol + 1);
      // A negative start still searches index 0, as String#lastIndexOf clamps it.
      else found = line.lastIndexOf(char, this.state.cursorCol - 1);
      if (found !== -1) {
        this.state.cursorLine = i;
        this.setCursorCol(found);
        return;
      }
    }
  }
}

/** Line endings to "\n" and tabs to four spaces, as the editor stores text. */
function normalizeText(text) {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").replace(/\t/g, "    ");
}
