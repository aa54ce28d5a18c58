// Single-line text input with horizontal scrolling, emacs-style editing,
// a kill ring and undo.
import { getKeybindings } from "../keybindings.js";
import { decodeKittyPrintable } from "../keys.js";
import { sliceByColumn, truncateToWidth } from "../truncate.js";
import { graphemes } from "../unicode.js";
import { visibleWidth } from "../width.js";
import { findWordBackward, findWordForward, isWhitespaceChar } from "../words.js";
import { CURSOR_MARKER, renderFakeCursor } from "./cursor.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Killed text; consecutive kills grow the newest entry. */
export class KillRing {
  constructor() {
    this.ring = [];
  }

  push(text, { prepend, accumulate }) {
    if (!text) return;
    if (accumulate && this.ring.length > 0) {
      const last = this.ring.pop();
      this.ring.push(prepend ? text + last : last + text);
    } else {
      this.ring.push(text);
    }
  }

  peek() {
    return this.ring.length > 0 ? this.ring[this.ring.length - 1] : undefined;
  }

  rotate() {
    if (this.ring.length > 1) this.ring.unshift(this.ring.pop());
  }

  get length() {
    return this.ring.length;
  }
}

function hasControl(data) {
  for (const ch of data) {
    const code = ch.charCodeAt(0);
    if (code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  }
  return false;
}

function lastCluster(text) {
  const all = graphemes(text);
  return all[all.length - 1];
}

export class Input {
  constructor(options = {}) {
    this.value = "";
    this.cursor = 0;
    this.prompt = options.prompt ?? "> ";
    this.placeholder = options.placeholder ?? "";
    this.placeholderStyle = options.placeholderStyle ?? ((text) => text);
    this.renderedStartColumn = 0;
    this.onSubmit = undefined;
    this.onEscape = undefined;
    this.focused = false;
    this.pasteBuffer = "";
    this.isInPaste = false;
    this.killRing = new KillRing();
    this.lastAction = null;
    this.undoStack = [];
  }

  getValue() {
    return this.value;
  }

  setValue(value) {
    this.value = value;
    this.cursor = Math.min(this.cursor, value.length);
  }

  handleInput(data) {
    if (data.includes(PASTE_START)) {
      this.isInPaste = true;
      this.pasteBuffer = "";
      data = data.replace(PASTE_START, "");
    }
    if (this.isInPaste) {
      this.pasteBuffer += data;
      const end = this.pasteBuffer.indexOf(PASTE_END);
      if (end !== -1) {
        const rest = this.pasteBuffer.slice(end + PASTE_END.length);
        this.handlePaste(this.pasteBuffer.slice(0, end));
        this.isInPaste = false;
        this.pasteBuffer = "";
        if (rest) this.handleInput(rest);
      }
      return;
    }
    const kb = getKeybindings();
    const on = (id) => kb.matches(data, id);
    if (on("tui.select.cancel")) return void this.onEscape?.();
    if (on("tui.editor.undo")) return this.undo();
    if (on("tui.input.submit") || data === "\n") return void this.onSubmit?.(this.value);
    if (on("tui.editor.deleteCharBackward")) return this.handleBackspace();
    if (on("tui.editor.deleteCharForward")) return this.handleForwardDelete();
    if (on("tui.editor.deleteWordBackward")) return this.deleteWordBackwards();
    if (on("tui.editor.deleteWordForward")) return this.deleteWordForward();
    if (on("tui.editor.deleteToLineStart")) return this.deleteToLineStart();
    if (on("tui.editor.deleteToLineEnd")) return this.deleteToLineEnd();
    if (on("tui.editor.yank")) return this.yank();
    if (on("tui.editor.yankPop")) return this.yankPop();
    if (on("tui.editor.cursorLeft")) {
      this.lastAction = null;
      if (this.cursor > 0) this.cursor -= lastCluster(this.value.slice(0, this.cursor))?.length ?? 1;
      return;
    }
    if (on("tui.editor.cursorRight")) {
      this.lastAction = null;
      if (this.cursor < this.value.length) this.cursor += graphemes(this.value.slice(this.cursor))[0]?.length ?? 1;
      return;
    }
    if (on("tui.editor.cursorLineStart")) {
      this.lastAction = null;
      this.cursor = 0;
      return;
    }
    if (on("tui.editor.cursorLineEnd")) {
      this.lastAction = null;
      this.cursor = this.value.length;
      return;
    }
    if (on("tui.editor.cursorWordLeft")) return this.moveWordBackwards();
    if (on("tui.editor.cursorWordRight")) return this.moveWordForwards();
    const typed = decodeKittyPrintable(data);
    if (typed !== undefined) return this.insertCharacter(typed);
    if (!hasControl(data)) this.insertCharacter(data);
  }

  insertCharacter(char) {
    // Typing a word is one undo step; a space starts the next.
    if (isWhitespaceChar(char) || this.lastAction !== "type-word") this.pushUndo();
    this.lastAction = "type-word";
    this.value = this.value.slice(0, this.cursor) + char + this.value.slice(this.cursor);
    this.cursor += char.length;
  }

  handleBackspace() {
    this.lastAction = null;
    if (this.cursor === 0) return;
    this.pushUndo();
    const size = lastCluster(this.value.slice(0, this.cursor))?.length ?? 1;
    this.value = this.value.slice(0, this.cursor - size) + this.value.slice(this.cursor);
    this.cursor -= size;
  }

  handleForwardDelete() {
    this.lastAction = null;
    if (this.cursor >= this.value.length) return;
    this.pushUndo();
    const size = graphemes(this.value.slice(this.cursor))[0]?.length ?? 1;
    this.value = this.value.slice(0, this.cursor) + this.value.slice(this.cursor + size);
  }

  deleteToLineStart() {
    if (this.cursor === 0) return;
    this.pushUndo();
    this.killRing.push(this.value.slice(0, this.cursor), { prepend: true, accumulate: this.lastAction === "kill" });
    this.lastAction = "kill";
    this.value = this.value.slice(this.cursor);
    this.cursor = 0;
  }

  deleteToLineEnd() {
    if (this.cursor >= this.value.length) return;
    this.pushUndo();
    this.killRing.push(this.value.slice(this.cursor), { prepend: false, accumulate: this.lastAction === "kill" });
    this.lastAction = "kill";
    this.value = this.value.slice(0, this.cursor);
  }

  deleteWordBackwards() {
    if (this.cursor === 0) return;
    const accumulate = this.lastAction === "kill";
    this.pushUndo();
    const from = findWordBackward(this.value, this.cursor);
    this.killRing.push(this.value.slice(from, this.cursor), { prepend: true, accumulate });
    this.lastAction = "kill";
    this.value = this.value.slice(0, from) + this.value.slice(this.cursor);
    this.cursor = from;
  }

  deleteWordForward() {
    if (this.cursor >= this.value.length) return;
    const accumulate = this.lastAction === "kill";
    this.pushUndo();
    const to = findWordForward(this.value, this.cursor);
    this.killRing.push(this.value.slice(this.cursor, to), { prepend: false, accumulate });
    this.lastAction = "kill";
    this.value = this.value.slice(0, this.cursor) + this.value.slice(to);
  }

  yank() {
    const text = this.killRing.peek();
    if (!text) return;
    this.pushUndo();
    this.value = this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor);
    this.cursor += text.length;
    this.lastAction = "yank";
  }

  yankPop() {
    if (this.lastAction !== "yank" || this.killRing.length <= 1) return;
    this.pushUndo();
    const previous = this.killRing.peek() || "";
    this.value = this.value.slice(0, this.cursor - previous.length) + this.value.slice(this.cursor);
    this.cursor -= previous.length;
    this.killRing.rotate();
    const text = this.killRing.peek() || "";
    this.value = this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor);
    this.cursor += text.length;
    this.lastAction = "yank";
  }

  pushUndo() {
    this.undoStack.push({ value: this.value, cursor: this.cursor });
  }

  undo() {
    const snapshot = this.undoStack.pop();
    if (!snapshot) return;
    this.value = snapshot.value;
    this.cursor = snapshot.cursor;
    this.lastAction = null;
  }

  moveWordBackwards() {
    if (this.cursor === 0) return;
    this.lastAction = null;
    this.cursor = findWordBackward(this.value, this.cursor);
  }

  moveWordForwards() {
    if (this.cursor >= this.value.length) return;
    this.lastAction = null;
    this.cursor = findWordForward(this.value, this.cursor);
  }

  handlePaste(text) {
    this.lastAction = null;
    this.pushUndo();
    const clean = text.replace(/\r\n|\r|\n/g, "").replace(/\t/g, "    ");
    this.value = this.value.slice(0, this.cursor) + clean + this.value.slice(this.cursor);
    this.cursor += clean.length;
  }

  invalidate() {}

  render(width) {
    const available = width - visibleWidth(this.prompt);
    if (available <= 0) return [truncateToWidth(this.prompt, width, "")];
    const marker = this.focused ? CURSOR_MARKER : "";
    if (this.value.length === 0 && this.placeholder) {
      const shown = truncateToWidth(this.placeholder, available, "");
      const first = graphemes(shown)[0] ?? " ";
      const body = marker + renderFakeCursor(this.placeholderStyle(first)) + this.placeholderStyle(shown.slice(first.length));
      return [this.prompt + body + " ".repeat(Math.max(0, available - visibleWidth(body)))];
    }
    let visible = this.value;
    let cursor = this.cursor;
    this.renderedStartColumn = 0;
    const total = visibleWidth(this.value);
    if (total >= available) {
      // At the end the cursor needs a cell of its own.
      const span = this.cursor === this.value.length ? available - 1 : available;
      const cursorCol = visibleWidth(this.value.slice(0, this.cursor));
      if (span > 0) {
        const half = Math.floor(span / 2);
        let start;
        if (cursorCol < half) start = 0;
        else if (cursorCol > total - half) start = Math.max(0, total - span);
        else start = Math.max(0, cursorCol - half);
        this.renderedStartColumn = start;
        visible = sliceByColumn(this.value, start, span, true);
        cursor = sliceByColumn(this.value, start, Math.max(0, cursorCol - start), true).length;
      } else {
        visible = "";
        cursor = 0;
      }
    }
    const at = graphemes(visible.slice(cursor))[0] ?? " ";
    const body = visible.slice(0, cursor) + marker + renderFakeCursor(at) + visible.slice(cursor + at.length);
    return [this.prompt + body + " ".repeat(Math.max(0, available - visibleWidth(body)))];
  }
}
