// Markdown rendered to terminal lines with a MarkdownTheme. Layout follows
// pi-tui's: blocks separated by one blank line, lists indented four columns
// per level, quotes behind "│ ", code fenced by its ``` lines, tables boxed.
// Links print their URL after the text (this host does not emit OSC 8
// hyperlinks). Math is drawn by renderLatex unless the options say otherwise.
import { renderLatex } from "../latex.js";
import { lexMarkdown } from "../markdown/block.js";
import { visibleWidth } from "../width.js";
import { wrapTextWithAnsi } from "../wrap.js";
import { applyBackgroundToLine } from "./layout.js";

const SENTINEL = "\u0000";
// Closes every text attribute and the foreground, so a wrapped table cell does not bleed into its border.
const CELL_STYLE_RESET = "\x1b[22;23;24;25;27;28;29;39m";
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

const withoutComments = (html) => html.replace(HTML_COMMENT, "");

/** The escape codes `style` puts before its text. */
function prefixOf(style) {
  const styled = style(SENTINEL);
  const at = styled.indexOf(SENTINEL);
  return at >= 0 ? styled.slice(0, at) : "";
}

/** A code fence still being streamed ("``" of a closing "```") is not shown. */
function dropPartialClosingFence(tokens) {
  const token = tokens[tokens.length - 1];
  if (token?.type === "list") return dropPartialClosingFence(token.items[token.items.length - 1]?.tokens ?? []);
  if (token?.type === "blockquote") return dropPartialClosingFence(token.tokens ?? []);
  if (token?.type !== "code") return;
  const marker = /^(`{3,}|~{3,})/.exec(token.raw)?.[1];
  const lastLine = token.raw.split("\n").pop();
  if (!marker || !lastLine || lastLine.length >= marker.length || lastLine !== marker[0].repeat(lastLine.length)) return;
  token.text = token.text.slice(0, -lastLine.length).replace(/\n$/, "");
}

/** HTML blocks holding only comments render nothing, and take one surrounding blank line with them. */
function dropCommentBlocks(tokens) {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token.type === "list") {
      for (const item of token.items) dropCommentBlocks(item.tokens);
    } else if (token.type === "blockquote") {
      dropCommentBlocks(token.tokens ?? []);
    } else if (token.type === "html" && withoutComments(token.raw).trim() === "") {
      tokens.splice(i, 1);
      if (tokens[i]?.type === "space" && (i === 0 || tokens[i - 1]?.type === "space")) tokens.splice(i, 1);
      else if (i === tokens.length && tokens[i - 1]?.type === "space") tokens.splice(--i, 1);
    }
  }
}

const spaced = (next) => next !== undefined && next !== "space";

export class Markdown {
  constructor(text, paddingX, paddingY, theme, defaultTextStyle, options) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.theme = theme;
    this.defaultTextStyle = defaultTextStyle;
    this.options = options ? { ...options } : {};
    this.cache = undefined;
  }

  setText(text) {
    this.text = text;
    this.cache = undefined;
  }

  invalidate() {
    this.cache = undefined;
    this.tokenCache = undefined;
  }

  render(width) {
    if (this.cache && this.cache.text === this.text && this.cache.width === width) return this.cache.lines;
    const contentWidth = Math.max(1, width - this.paddingX * 2);
    const source = this.options.transform?.(this.text, contentWidth) ?? this.text;
    if (!source || source.trim() === "") {
      this.cache = { text: this.text, width, lines: [] };
      return [];
    }
    const normalized = source.replace(/\t/g, "   ");
    let tokens = this.tokenCache?.source === normalized ? this.tokenCache.tokens : undefined;
    if (!tokens) {
      tokens = lexMarkdown(normalized);
      dropPartialClosingFence(tokens);
      dropCommentBlocks(tokens);
      this.tokenCache = { source: normalized, tokens };
    }
    const bg = this.defaultTextStyle?.bgColor;
    const margin = " ".repeat(this.paddingX);
    const content = [];
    for (let i = 0; i < tokens.length; i++) {
      for (const line of this.renderToken(tokens[i], contentWidth, tokens[i + 1]?.type)) {
        for (const wrapped of wrapTextWithAnsi(line, contentWidth)) {
          const padded = margin + wrapped + margin;
          content.push(bg ? applyBackgroundToLine(padded, width, bg) : padded + " ".repeat(Math.max(0, width - visibleWidth(padded))));
        }
      }
    }
    const blank = " ".repeat(width);
    const padding = Array.from({ length: this.paddingY }, () => (bg ? applyBackgroundToLine(blank, width, bg) : blank));
    const lines = [...padding, ...content, ...padding];
    this.cache = { text: this.text, width, lines };
    return lines.length > 0 ? lines : [""];
  }

  /** Colour and attributes of `defaultTextStyle` (its background is applied per line, at the padding). */
  applyDefaultStyle(text) {
    const style = this.defaultTextStyle;
    if (!style) return text;
    let styled = text;
    if (style.color) styled = style.color(styled);
    if (style.bold) styled = this.theme.bold(styled);
    if (style.italic) styled = this.theme.italic(styled);
    if (style.strikethrough) styled = this.theme.strikethrough(styled);
    if (style.underline) styled = this.theme.underline(styled);
    return styled;
  }

  defaultContext() {
    if (this.defaultPrefix === undefined) this.defaultPrefix = this.defaultTextStyle ? prefixOf((s) => this.applyDefaultStyle(s)) : "";
    return { applyText: (text) => this.applyDefaultStyle(text), stylePrefix: this.defaultPrefix };
  }

  renderToken(token, width, next, context) {
    const theme = this.theme;
    const lines = [];
    switch (token.type) {
      case "heading": {
        const style =
          token.depth === 1
            ? (text) => theme.heading(theme.bold(theme.underline(text)))
            : (text) => theme.heading(theme.bold(text));
        const body = this.renderInline(token.tokens ?? [], { applyText: style, stylePrefix: prefixOf(style) });
        lines.push(token.depth >= 3 ? style(`${"#".repeat(token.depth)} `) + body : body);
        if (spaced(next)) lines.push("");
        break;
      }
      case "paragraph":
        lines.push(this.renderInline(token.tokens ?? [], context));
        if (spaced(next) && next !== "list") lines.push("");
        break;
      case "text":
        lines.push(this.renderInline([token], context));
        break;
      case "latexBlock": {
        let drawn = !token.pending && this.options.renderLatex !== false ? renderLatex(token.text, { display: true }) : undefined;
        // A drawn formula is laid out in two dimensions and cannot be wrapped: too wide, it shows as written.
        if (drawn === undefined || drawn.split("\n").some((line) => visibleWidth(line) > width)) drawn = token.raw.trim();
        for (const line of drawn.split("\n")) lines.push(this.applyDefaultStyle(line));
        if (spaced(next)) lines.push("");
        break;
      }
      case "code": {
        const indent = theme.codeBlockIndent ?? "  ";
        lines.push(theme.codeBlockBorder(`\`\`\`${token.lang || ""}`));
        if (theme.highlightCode) {
          for (const line of theme.highlightCode(token.text, token.lang)) lines.push(`${indent}${line}`);
        } else {
          for (const line of token.text.split("\n")) lines.push(`${indent}${theme.codeBlock(line)}`);
        }
        lines.push(theme.codeBlockBorder("```"));
        if (spaced(next)) lines.push("");
        break;
      }
      case "list":
        lines.push(...this.renderList(token, 0, width, context));
        break;
      case "table":
        lines.push(...this.renderTable(token, width, next, context));
        break;
      case "blockquote":
        lines.push(...this.renderQuote(token, width, next, context));
        break;
      case "hr":
        lines.push(theme.hr("─".repeat(Math.min(width, 80))));
        if (spaced(next)) lines.push("");
        break;
      case "html":
        lines.push(this.applyDefaultStyle(withoutComments(token.raw).trim()));
        break;
      case "space":
        lines.push("");
        break;
      default:
        if (typeof token.text === "string") lines.push(token.text);
    }
    return lines;
  }

  renderQuote(token, width, next, context) {
    const theme = this.theme;
    const children = token.tokens ?? [];
    const lines = [];
    // Too narrow for another "│ " border: the content goes on without one.
    if (width < 3) {
      for (let i = 0; i < children.length; i++) lines.push(...this.renderToken(children[i], width, children[i + 1]?.type, context));
      return lines;
    }
    const style = (text) => theme.quote(theme.italic(text));
    const prefix = prefixOf(style);
    // A full reset inside the quote would end its style early.
    const restyle = (line) => style(prefix ? line.replace(/\x1b\[0m/g, `\x1b[0m${prefix}`) : line);
    const innerWidth = width - 2;
    const inner = [];
    for (let i = 0; i < children.length; i++) {
      inner.push(...this.renderToken(children[i], innerWidth, children[i + 1]?.type, { applyText: (t) => t, stylePrefix: prefix }));
    }
    while (inner.length > 0 && inner[inner.length - 1] === "") inner.pop();
    for (const line of inner) {
      for (const wrapped of wrapTextWithAnsi(restyle(line), innerWidth)) lines.push(theme.quoteBorder("│ ") + wrapped);
    }
    if (spaced(next)) lines.push("");
    return lines;
  }

  renderInline(tokens, context) {
    const { applyText, stylePrefix } = context ?? this.defaultContext();
    const theme = this.theme;
    const plain = (text) =>
      text
        .split("\n")
        .map((segment) => applyText(segment))
        .join("\n");
    let out = "";
    let dropLeadingSpace = false;
    for (let i = 0; i < tokens.length; i++) {
      let token = tokens[i];
      // "a <!-- c --> b" reads "a b": the comment takes one of its spaces with it.
      if (dropLeadingSpace && token.type === "text" && !token.tokens?.length && /^[ \t]/.test(token.text)) {
        token = { ...token, text: token.text.replace(/^[ \t]+/, "") };
      }
      dropLeadingSpace = false;
      switch (token.type) {
        case "latex": {
          const drawn = !token.pending && this.options.renderLatex !== false ? renderLatex(token.text) : undefined;
          out += plain(drawn ?? token.raw);
          break;
        }
        case "escape":
          out += plain(this.options.preserveBackslashEscapes ? token.raw : token.text);
          break;
        case "text":
          out += token.tokens?.length ? this.renderInline(token.tokens, { applyText, stylePrefix }) : plain(token.text);
          break;
        case "paragraph":
          out += this.renderInline(token.tokens ?? [], { applyText, stylePrefix });
          break;
        case "strong":
          out += theme.bold(this.renderInline(token.tokens ?? [], { applyText, stylePrefix })) + stylePrefix;
          break;
        case "em":
          out += theme.italic(this.renderInline(token.tokens ?? [], { applyText, stylePrefix })) + stylePrefix;
          break;
        case "del":
          out += theme.strikethrough(this.renderInline(token.tokens ?? [], { applyText, stylePrefix })) + stylePrefix;
          break;
        case "codespan":
          out += theme.code(token.text) + stylePrefix;
          break;
        case "link": {
          const label = theme.link(theme.underline(this.renderInline(token.tokens ?? [], { applyText, stylePrefix })));
          const bareHref = token.href.startsWith("mailto:") ? token.href.slice(7) : token.href;
          if (token.text === token.href || token.text === bareHref) out += label + stylePrefix;
          else out += label + theme.linkUrl(` (${token.href})`) + stylePrefix;
          break;
        }
        case "br":
          out += "\n";
          break;
        case "html":
          if (token.raw.startsWith("<!--")) dropLeadingSpace = i === 0 || /[ \t]$/.test(tokens[i - 1].raw);
          else out += plain(token.raw);
          break;
        default:
          if (typeof token.text === "string") out += plain(token.text);
      }
    }
    while (stylePrefix && out.endsWith(stylePrefix)) out = out.slice(0, -stylePrefix.length);
    return out;
  }

  renderList(token, depth, width, context) {
    const lines = [];
    const indent = "    ".repeat(depth);
    const start = typeof token.start === "number" ? token.start : 1;
    const preserve = this.options.preserveOrderedListMarkers;
    token.items.forEach((item, i) => {
      let bullet;
      if (token.ordered) {
        const source = /^(?: {0,3})(\d{1,9}[.)])[ \t]+/.exec(item.raw);
        bullet = preserve && source ? `${source[1]} ` : `${start + i}. `;
      } else {
        const source = /^(?: {0,3})([-+*])(?:[ \t]+|(?=\r?\n|$))/.exec(item.raw);
        bullet = preserve && source ? `${source[1]} ` : "- ";
      }
      const marker = bullet + (item.task ? `[${item.checked ? "x" : " "}] ` : "");
      const firstPrefix = indent + this.theme.listBullet(marker);
      const restPrefix = indent + " ".repeat(visibleWidth(marker));
      const itemWidth = Math.max(1, width - visibleWidth(firstPrefix));
      let started = false;
      for (const child of item.tokens) {
        if (child.type === "list") {
          lines.push(...this.renderList(child, depth + 1, width, context));
          started = true;
          continue;
        }
        for (const line of this.renderToken(child, itemWidth, undefined, context)) {
          for (const wrapped of wrapTextWithAnsi(line, itemWidth)) {
            lines.push((started ? restPrefix : firstPrefix) + wrapped);
            started = true;
          }
        }
      }
      if (!started) lines.push(firstPrefix);
      if (token.loose && i < token.items.length - 1) lines.push("");
    });
    return lines;
  }

  renderTable(token, width, next, context) {
    const columns = token.header.length;
    if (columns === 0) return [];
    // "│ " + " │ " between cells + " │"
    const overhead = 3 * columns + 1;
    const cellSpace = width - overhead;
    if (cellSpace < columns) {
      const raw = token.raw ? wrapTextWithAnsi(token.raw, width) : [];
      if (spaced(next)) raw.push("");
      return raw;
    }
    const cellText = (cell) => this.renderInline(cell.tokens ?? [], context);
    const longestWord = (text) => Math.min(30, Math.max(0, ...text.split(/\s+/).filter(Boolean).map((w) => visibleWidth(w))));
    const natural = [];
    const minWord = [];
    token.header.forEach((cell, i) => {
      const t = cellText(cell);
      natural[i] = visibleWidth(t);
      minWord[i] = Math.max(1, longestWord(t));
    });
    for (const row of token.rows) {
      row.forEach((cell, i) => {
        const t = cellText(cell);
        natural[i] = Math.max(natural[i] || 0, visibleWidth(t));
        minWord[i] = Math.max(minWord[i] || 1, longestWord(t));
      });
    }
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    let minimum = minWord;
    if (sum(minimum) > cellSpace) {
      // Longest words do not fit: share the room in proportion to how much each column wants beyond one cell.
      minimum = new Array(columns).fill(1);
      const spare = cellSpace - columns;
      if (spare > 0) {
        const weight = sum(minWord.map((w) => Math.max(0, w - 1)));
        const growth = minWord.map((w) => (weight > 0 ? Math.floor((Math.max(0, w - 1) / weight) * spare) : 0));
        growth.forEach((g, i) => {
          minimum[i] += g;
        });
        let leftover = spare - sum(growth);
        for (let i = 0; leftover > 0 && i < columns; i++, leftover--) minimum[i]++;
      }
    }
    let widths;
    if (sum(natural) + overhead <= width) {
      widths = natural.map((w, i) => Math.max(w, minimum[i]));
    } else {
      const potential = sum(natural.map((w, i) => Math.max(0, w - minimum[i])));
      const extra = Math.max(0, cellSpace - sum(minimum));
      widths = minimum.map((min, i) =>
        min + (potential > 0 ? Math.floor((Math.max(0, natural[i] - min) / potential) * extra) : 0),
      );
      let remaining = cellSpace - sum(widths);
      while (remaining > 0) {
        let grew = false;
        for (let i = 0; i < columns && remaining > 0; i++) {
          if (widths[i] < natural[i]) {
            widths[i]++;
            remaining--;
            grew = true;
          }
        }
        if (!grew) break;
      }
    }
    const prefix = context?.stylePrefix ?? "";
    const wrapCell = (text, w) => {
      const parts = wrapTextWithAnsi(text, Math.max(1, w));
      return parts.map((part, i) => `${part}${i < parts.length - 1 ? CELL_STYLE_RESET : ""}${prefix}`);
    };
    const pad = (text, w) => text + " ".repeat(Math.max(0, w - visibleWidth(text)));
    const rule = (left, mid, right) => `${left}─${widths.map((w) => "─".repeat(w)).join(`─${mid}─`)}─${right}`;
    const rowLines = (cells, styleCell) => {
      const wrapped = cells.map((cell, i) => wrapCell(cellText(cell), widths[i]));
      const height = Math.max(...wrapped.map((c) => c.length));
      const out = [];
      for (let line = 0; line < height; line++) {
        out.push(`│ ${wrapped.map((c, i) => styleCell(pad(c[line] || "", widths[i]))).join(" │ ")} │`);
      }
      return out;
    };
    const lines = [rule("┌", "┬", "┐"), ...rowLines(token.header, (s) => this.theme.bold(s)), rule("├", "┼", "┤")];
    token.rows.forEach((row, i) => {
      lines.push(...rowLines(row, (s) => s));
      if (i < token.rows.length - 1) lines.push(rule("├", "┼", "┤"));
    });
    lines.push(rule("└", "┴", "┘"));
    if (spaced(next)) lines.push("");
    return lines;
  }
}
