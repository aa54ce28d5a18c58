// Block structure of Markdown (CommonMark with the GFM table and task-list
// extensions), as the token tree pi-tui's Markdown renders. Token shapes
// follow the ones pi's renderer reads: `type`, `raw`, `text`, nested `tokens`,
// `depth`, `lang`, `items`, `ordered`, `start`, `loose`, `task`, `checked`,
// `header`, `rows`. Which blocks keep their trailing newlines matters: a blank
// line after a block becomes a "space" token, and the renderer spaces blocks
// by looking at the next token's type.
import { lexInline } from "./inline.js";
import { displayMath, displayMathStart } from "./math.js";

const HR = /^ {0,3}((?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?=\n|$)/;
const ATX = /^ {0,3}(#{1,6})(?=\s|$)(.*)/;
const FENCE_OPEN = /^( {0,3})(`{3,}(?=[^`\n]*(?:\n|$))|~{3,})([^\n]*)/;
const BULLET = /^( {0,3})([*+-]|\d{1,9}[.)])(?=[ \t]|\n|$)/;
const BLOCKQUOTE = /^ {0,3}>/;
const SETEXT = /^ {0,3}(=+|-+) *(?=\n|$)/;
const DEF =
  /^ {0,3}\[((?!\s*\])(?:\\.|[^[\]\\])+)\]:[ \t]*(?:\n[ \t]*)?(<[^<>\n]*>|[^\s<>]+)(?:(?:[ \t]+(?:\n[ \t]*)?|\n[ \t]*)("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?[ \t]*(?=\n|$)/;
const HTML_BLOCK_START =
  /^ {0,3}(?:<!--|<\?|<![A-Za-z]|<!\[CDATA\[|<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)|<(?:script|pre|style|textarea)(?:\s|>|$))/i;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const ESCAPABLE = /\\([!"#$%&'()*+,\-./:;<=>?@[\]\\^_`{|}~])/g;

function firstLine(src) {
  const end = src.indexOf("\n");
  return end === -1 ? src : src.slice(0, end);
}

function trimTrailingNewlines(text) {
  return text.replace(/\n+$/, "");
}

function isBlank(line) {
  return /^[ \t]*$/.test(line);
}

function leadingSpaces(line) {
  return /^ */.exec(line)[0].length;
}

/** Whether a list item may interrupt a paragraph (it cannot be empty, nor an ordered item other than 1). */
function listInterruptsParagraph(line) {
  const m = /^ {0,3}([*+-]|\d{1,9}[.)])[ \t]+\S/.exec(line);
  if (!m) return false;
  return !/^\d/.test(m[1]) || /^1[.)]$/.test(m[1]);
}

/** Whether `line` starts a block that ends a paragraph. */
function interruptsParagraph(line) {
  return (
    HR.test(line) ||
    ATX.test(line) ||
    FENCE_OPEN.test(line) ||
    BLOCKQUOTE.test(line) ||
    listInterruptsParagraph(line) ||
    HTML_BLOCK_START.test(line)
  );
}

function splitTableRow(line) {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells = [];
  let cell = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && row[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (row[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += row[i];
    }
  }
  cells.push(cell.trim());
  return cells;
}

export class BlockLexer {
  constructor() {
    this.links = Object.create(null);
    // Inline content is lexed once all blocks are known, as reference
    // links may be defined after their use.
    this.inlineQueue = [];
  }

  lex(src) {
    const tokens = this.blocks(src.replace(/\r\n|\r/g, "\n"), [], true);
    for (const { text, target } of this.inlineQueue) target.tokens = lexInline(text, this.links);
    this.inlineQueue = [];
    tokens.links = this.links;
    return tokens;
  }

  queueInline(token) {
    token.tokens = [];
    this.inlineQueue.push({ text: token.text, target: token });
    return token;
  }

  /** Blocks of `src`; `top` is false inside list items, where lines form "text" tokens, not paragraphs. */
  blocks(src, tokens, top) {
    // A paragraph cut short where display math might start is joined again by the next paragraph when no math formed.
    const paragraphCut = { cut: false };
    while (src) {
      const token = this.next(src, tokens, top, paragraphCut);
      src = src.slice(token.consumed);
      delete token.consumed;
      if (token.merged) continue;
      tokens.push(token);
    }
    return tokens;
  }

  next(src, tokens, top, paragraphCut) {
    const last = tokens[tokens.length - 1];

    const math = displayMath(src);
    if (math) return { ...math, consumed: math.raw.length };

    const space = /^(?:[ \t]*(?:\n|$))+/.exec(src);
    if (space && space[0].length > 0) {
      if (space[0].length === 1 && last) {
        last.raw += "\n";
        return { consumed: 1, merged: true };
      }
      return { type: "space", raw: space[0], consumed: space[0].length };
    }

    const indented = /^(?: {4}[^\n]+(?:\n(?:[ \t]*(?:\n|$))*)?)+/.exec(src);
    if (indented) {
      // Blank lines after the block are left for a space token; a single newline stays in the code.
      const trailing = /\n[ \t\n]*$/.exec(indented[0]);
      const raw = trailing && trailing[0].split("\n").length > 2 ? indented[0].slice(0, trailing.index) : indented[0];
      if (last && (last.type === "paragraph" || last.type === "text")) {
        // An indented line cannot start code inside a paragraph: it continues it.
        last.raw += (last.raw.endsWith("\n") ? "" : "\n") + raw;
        last.text += `\n${raw.replace(/\n+$/, "")}`;
        this.requeue(last);
        return { consumed: raw.length, merged: true };
      }
      return { type: "code", raw, codeBlockStyle: "indented", text: raw.replace(/^ {1,4}/gm, ""), consumed: raw.length };
    }

    const fence = this.fence(src);
    if (fence) return fence;

    const atx = ATX.exec(src);
    if (atx) {
      let text = atx[2].trim();
      if (text.endsWith("#")) {
        const stripped = text.replace(/#+$/, "");
        if (!stripped || stripped.endsWith(" ")) text = stripped.trim();
      }
      return this.queueInline({ type: "heading", raw: atx[0], depth: atx[1].length, text, consumed: atx[0].length });
    }

    const hr = HR.exec(src);
    if (hr) return { type: "hr", raw: hr[0], consumed: hr[0].length };

    if (BLOCKQUOTE.test(src)) return this.blockquote(src);

    if (BULLET.test(src)) {
      const list = this.list(src);
      if (list) return list;
    }

    if (HTML_BLOCK_START.test(src)) return this.html(src);

    if (top) {
      const def = DEF.exec(src);
      if (def && !(last && (last.type === "paragraph" || last.type === "text") && !last.raw.endsWith("\n"))) {
        const label = def[1].toLowerCase().replace(/\s+/g, " ");
        let href = def[2];
        if (href.startsWith("<")) href = href.slice(1, -1);
        href = href.replace(ESCAPABLE, "$1");
        const title = def[3] ? def[3].slice(1, -1).replace(ESCAPABLE, "$1") : undefined;
        if (!(label in this.links)) this.links[label] = { href, title };
        return { type: "def", raw: def[0], tag: label, href, title, consumed: def[0].length };
      }
    }

    const table = this.table(src);
    if (table) return table;

    if (top) return this.cutParagraph(src, last, paragraphCut);

    const setext = this.setextHeading(src);
    if (setext) return setext;

    // Inside list items lines join into one "text" token.
    const line = firstLine(src);
    if (last && last.type === "text" && !last.block) {
      last.raw += (last.raw.endsWith("\n") ? "" : "\n") + line;
      last.text += `\n${line}`;
      this.requeue(last);
      return { consumed: line.length, merged: true };
    }
    return this.queueInline({ type: "text", raw: line, text: line, consumed: line.length });
  }

  requeue(token) {
    const entry = this.inlineQueue.find((item) => item.target === token);
    if (entry) entry.text = token.text;
  }

  fence(src) {
    const open = FENCE_OPEN.exec(src);
    if (!open) return undefined;
    const indent = open[1].length;
    const marker = open[2];
    let pos = open[0].length;
    const contentLines = [];
    let end = src.length;
    let closed = false;
    if (pos < src.length) {
      pos++; // the opening line's newline
      while (pos <= src.length) {
        const lineEnd = src.indexOf("\n", pos) === -1 ? src.length : src.indexOf("\n", pos);
        const line = src.slice(pos, lineEnd);
        const close = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[~\`]* *$`).exec(line);
        if (close && line.trimStart().startsWith(marker)) {
          end = lineEnd;
          closed = true;
          break;
        }
        contentLines.push(line);
        if (lineEnd >= src.length) break;
        pos = lineEnd + 1;
      }
    }
    if (!closed) end = src.length;
    const raw = src.slice(0, end);
    // Without a closing fence the block runs to the end, minus a final newline.
    let lines = contentLines;
    if (!closed && lines.length > 0 && lines[lines.length - 1] === "" && src.endsWith("\n")) lines = lines.slice(0, -1);
    const text = lines
      .map((line) => {
        if (indent === 0) return line;
        const lead = leadingSpaces(line);
        return line.slice(Math.min(lead, indent));
      })
      .join("\n");
    const info = open[3].trim().replace(ESCAPABLE, "$1");
    return { type: "code", raw, lang: info, text, consumed: raw.length };
  }

  blockquote(src) {
    const lines = src.split("\n");
    const taken = [];
    const inner = [];
    let lastWasParagraphText = false;
    for (const line of lines) {
      if (BLOCKQUOTE.test(line)) {
        const content = line.replace(/^ {0,3}> ?/, "");
        taken.push(line);
        inner.push(content);
        lastWasParagraphText = !isBlank(content) && !FENCE_OPEN.test(content) && !HR.test(content) && !ATX.test(content);
        continue;
      }
      // Lazy continuation: a plain line right after quoted paragraph text.
      if (lastWasParagraphText && !isBlank(line) && !interruptsParagraph(line) && !BULLET.test(line) && !SETEXT.test(line)) {
        taken.push(line);
        inner.push(line);
        continue;
      }
      break;
    }
    const raw = taken.join("\n");
    const text = inner.join("\n");
    const nested = new BlockLexer();
    nested.links = this.links;
    nested.inlineQueue = this.inlineQueue;
    const tokens = nested.blocks(text, [], true);
    return { type: "blockquote", raw, text, tokens, consumed: raw.length };
  }

  html(src) {
    const lines = src.split("\n");
    const start = lines[0];
    let count = lines.length;
    const endMarkers = [
      [/^ {0,3}<(?:script|pre|style|textarea)/i, /<\/(?:script|pre|style|textarea)>/i],
      [/^ {0,3}<!--/, /-->/],
      [/^ {0,3}<\?/, /\?>/],
      [/^ {0,3}<![A-Za-z]/, />/],
      [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
    ];
    const special = endMarkers.find(([open]) => open.test(start));
    if (special) {
      count = lines.findIndex((line) => special[1].test(line)) + 1 || lines.length;
    } else {
      const blank = lines.findIndex((line) => isBlank(line));
      count = blank === -1 ? lines.length : blank;
    }
    const raw = lines.slice(0, count).join("\n");
    return { type: "html", raw, block: true, pre: false, text: raw, consumed: raw.length };
  }

  table(src) {
    const lines = src.split("\n");
    if (lines.length < 2) return undefined;
    const [headerLine, delimiterLine] = lines;
    if (!TABLE_DELIMITER.test(delimiterLine)) return undefined;
    if (!headerLine.includes("|") && !delimiterLine.includes("|")) return undefined;
    if (/^ {4}/.test(headerLine) || isBlank(headerLine)) return undefined;
    const header = splitTableRow(headerLine);
    const delimiters = splitTableRow(delimiterLine);
    if (header.length !== delimiters.length) return undefined;
    const align = delimiters.map((d) =>
      /^:-+:$/.test(d) ? "center" : /^-+:$/.test(d) ? "right" : /^:-+$/.test(d) ? "left" : null,
    );
    const rowLines = [];
    for (let i = 2; i < lines.length; i++) {
      const line = lines[i];
      if (isBlank(line) || interruptsParagraph(line) || /^ {4}/.test(line)) break;
      rowLines.push(line);
    }
    let raw = [headerLine, delimiterLine, ...rowLines].join("\n");
    const consumedLines = 2 + rowLines.length;
    if (consumedLines < lines.length && !isBlank(lines[consumedLines])) raw += "\n";
    const cell = (text) => this.queueInline({ text, tokens: [] });
    const rows = rowLines.map((line) => {
      const cells = splitTableRow(line);
      return header.map((_, i) => cell(cells[i] ?? ""));
    });
    return { type: "table", raw, align, header: header.map((text) => cell(text)), rows, consumed: raw.length };
  }

  /** A top-level paragraph that stops where display math could start, as pi's parser cuts it. */
  cutParagraph(src, last, paragraphCut) {
    const start = displayMathStart(src.slice(1));
    const limited = start === -1 ? src : src.slice(0, start + 1);
    if (limited !== src) {
      // A setext heading is read from the whole text first, math lines and all.
      const whole = this.paragraph(src);
      if (whole.type === "heading") return whole;
      this.inlineQueue.pop();
    }
    const token = this.paragraph(limited);
    const joins = paragraphCut.cut && last?.type === "paragraph" && token.type === "paragraph";
    paragraphCut.cut = limited.length !== src.length;
    if (!joins) return token;
    this.inlineQueue.pop();
    last.raw += (last.raw.endsWith("\n") ? "" : "\n") + token.raw;
    last.text += `\n${token.text}`;
    this.requeue(last);
    return { consumed: token.consumed, merged: true };
  }

  paragraph(src) {
    const lines = src.split("\n");
    const taken = [lines[0]];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (isBlank(line)) break;
      const setext = SETEXT.exec(line);
      if (setext) {
        const raw = `${[...taken, line].join("\n")}${i + 1 < lines.length ? "\n" : ""}`;
        const text = taken.join("\n").trim();
        return this.queueInline({ type: "heading", raw, depth: setext[1][0] === "=" ? 1 : 2, text, consumed: raw.length });
      }
      if (interruptsParagraph(line)) break;
      if (this.startsTable(lines, i)) break;
      taken.push(line);
    }
    const raw = taken.join("\n");
    return this.queueInline({ type: "paragraph", raw, text: raw.replace(/\n$/, ""), consumed: raw.length });
  }

  /** Lines of text underlined by "===" or "---", where paragraphs are not formed (inside list items). */
  setextHeading(src) {
    const lines = src.split("\n");
    for (let i = 1; i < lines.length; i++) {
      const setext = SETEXT.exec(lines[i]);
      if (setext) {
        const raw = `${lines.slice(0, i + 1).join("\n")}${i + 1 < lines.length ? "\n" : ""}`;
        const text = lines.slice(0, i).join("\n").trim();
        return this.queueInline({ type: "heading", raw, depth: setext[1][0] === "=" ? 1 : 2, text, consumed: raw.length });
      }
      if (isBlank(lines[i]) || interruptsParagraph(lines[i]) || BULLET.test(lines[i])) return undefined;
    }
    return undefined;
  }

  startsTable(lines, i) {
    // A delimiter row without pipes needs them in the header, else it is a rule or a setext underline.
    if (i + 1 >= lines.length || !TABLE_DELIMITER.test(lines[i + 1])) return false;
    return lines[i + 1].includes("|") || lines[i].includes("|");
  }

  list(src) {
    const first = BULLET.exec(src);
    const ordered = /\d/.test(first[2]);
    const delimiter = ordered ? first[2].slice(-1) : first[2];
    const lines = src.split("\n");
    const items = [];
    let index = 0;
    let loose = false;

    while (index < lines.length) {
      const line = lines[index];
      const bullet = BULLET.exec(line);
      if (!bullet) break;
      const sameKind = ordered ? /\d/.test(bullet[2]) && bullet[2].endsWith(delimiter) : bullet[2] === delimiter;
      if (!sameKind || (items.length > 0 && HR.test(line))) break;
      if (items.length === 0 && HR.test(line)) return undefined;

      const markerEnd = bullet[0].length;
      const afterMarker = line.slice(markerEnd);
      const spaces = /^[ \t]*/.exec(afterMarker)[0].length;
      const emptyStart = isBlank(afterMarker);
      // Five or more spaces after the marker start indented code, so the content begins after one.
      const contentIndent = emptyStart ? markerEnd + 1 : markerEnd + (spaces >= 5 ? 1 : spaces);
      const firstContent = emptyStart ? "" : afterMarker.slice(spaces >= 5 ? 1 : spaces);

      const rawLines = [line];
      const contentLines = [firstContent];
      let blankRun = 0;
      let lastContentWasText = !emptyStart && !FENCE_OPEN.test(firstContent);
      let inFence = FENCE_OPEN.test(firstContent) ? FENCE_OPEN.exec(firstContent)[2] : null;
      index++;
      // An item that starts empty ends at a blank line straight after it.
      while (index < lines.length) {
        const next = lines[index];
        if (isBlank(next)) {
          if (emptyStart && contentLines.length === 1 && contentLines[0] === "") break;
          blankRun++;
          rawLines.push(next);
          contentLines.push("");
          index++;
          continue;
        }
        const indent = leadingSpaces(next);
        if (indent >= contentIndent) {
          const content = next.slice(contentIndent);
          if (inFence) {
            if (content.trimStart().startsWith(inFence) && /^ {0,3}([`~])\1{2,}[~`]* *$/.test(content)) inFence = null;
          } else if (FENCE_OPEN.test(content)) {
            inFence = FENCE_OPEN.exec(content)[2];
          }
          rawLines.push(next);
          contentLines.push(content);
          blankRun = 0;
          lastContentWasText = !inFence;
          index++;
          continue;
        }
        if (blankRun > 0 || inFence) break;
        // A less indented line continues the item's paragraph lazily unless it starts a block.
        // Only opening tags and comments end an item's text; "</div>" stays in the item.
        const htmlInterrupts = /^ {0,3}<(?:[a-z].*>|!--)/i.test(next);
        if (lastContentWasText && !BULLET.test(next) && !htmlInterrupts && (HTML_BLOCK_START.test(next) || !interruptsParagraph(next))) {
          rawLines.push(next);
          contentLines.push(next);
          index++;
          continue;
        }
        break;
      }

      // Trailing blank lines belong to the item only when another item follows.
      let trailingBlanks = 0;
      while (contentLines.length > 1 && contentLines[contentLines.length - 1] === "" && isBlank(rawLines[rawLines.length - 1])) {
        contentLines.pop();
        rawLines.pop();
        trailingBlanks++;
      }
      const nextIsItem = index < lines.length && BULLET.test(lines[index]) && this.sameListKind(lines[index], ordered, delimiter);
      let raw = rawLines.join("\n");
      if (nextIsItem) {
        raw += "\n".repeat(trailingBlanks + 1);
      } else {
        index -= trailingBlanks;
      }

      let text = (nextIsItem ? [...contentLines, ...new Array(trailingBlanks).fill("")] : contentLines).join("\n");
      let task = false;
      let checked;
      const taskMatch = /^\[([ xX])\][ \t]+/.exec(text);
      if (taskMatch) {
        task = true;
        checked = taskMatch[1] !== " ";
        text = text.slice(taskMatch[0].length);
      }
      if (nextIsItem && trailingBlanks > 0) loose = true;
      items.push({ type: "list_item", raw, task, checked, loose: false, text, taskRaw: taskMatch?.[0], tokens: [] });
      if (!nextIsItem) break;
    }
    if (items.length === 0) return undefined;

    // Trailing whitespace after the last item is left for a space token.
    const lastItem = items[items.length - 1];
    lastItem.raw = lastItem.raw.trimEnd();
    lastItem.text = lastItem.text.trimEnd();
    const raw = items.map((item) => item.raw).join("");
    for (const item of items) {
      const nested = new BlockLexer();
      nested.links = this.links;
      nested.inlineQueue = this.inlineQueue;
      item.tokens = nested.blocks(item.text, [], false);
      if (item.task) item.tokens.unshift({ type: "checkbox", raw: item.taskRaw, checked: item.checked });
      delete item.taskRaw;
      // A blank line between an item's direct children makes the list loose.
      const children = item.tokens.filter((t) => t.type !== "checkbox");
      for (let i = 0; i < children.length - 1; i++) {
        if (children[i].type === "space" && /\n.*\n/s.test(children[i].raw)) loose = true;
        if (children[i].raw.endsWith("\n\n")) loose = true;
      }
    }
    if (loose) {
      for (const item of items) {
        item.loose = true;
        for (const token of item.tokens) if (token.type === "text") token.type = "paragraph";
      }
    }
    const start = ordered ? Number(first[2].slice(0, -1)) : "";
    return { type: "list", raw, ordered, start, loose, items, consumed: raw.length };
  }

  sameListKind(line, ordered, delimiter) {
    const bullet = BULLET.exec(line);
    if (!bullet || HR.test(line)) return false;
    return ordered ? /\d/.test(bullet[2]) && bullet[2].endsWith(delimiter) : bullet[2] === delimiter;
  }
}

export function lexMarkdown(src) {
  return new BlockLexer().lex(src);
}
