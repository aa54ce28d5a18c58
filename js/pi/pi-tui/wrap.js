// Word wrapping of styled text: lines never wider than the width, styles and
// hyperlinks closed at each line end and re-opened on the next line.
import { StyleState, escapeLength, escapesOf, nextEscape, splitEscapes } from "./ansi.js";
import { graphemes } from "./unicode.js";
import { isPrintableAscii, visibleWidth } from "./width.js";

// Ideographs, kana, hangul and bopomofo may break anywhere, so each one is a
// token of its own.
export const BREAK_ANYWHERE =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;
const WHITESPACE = /\s/;

// Tokens are runs of spaces or of non-spaces; escapes travel with the
// visible text after them (trailing ones with the last token).
function tokenize(text) {
  const tokens = [];
  let current = "";
  let kind = null;
  let pending = "";
  const flush = () => {
    if (current) tokens.push(current);
    current = "";
    kind = null;
  };
  let i = 0;
  while (i < text.length) {
    const len = escapeLength(text, i);
    if (len > 0) {
      pending += text.slice(i, i + len);
      i += len;
      continue;
    }
    let end = nextEscape(text, i + 1);
    if (end === -1) end = text.length;
    const chunk = text.slice(i, end);
    i = end;
    const ascii = isPrintableAscii(chunk);
    for (const g of ascii ? chunk : graphemes(chunk)) {
      const space = g === " ";
      if (!ascii && !space && BREAK_ANYWHERE.test(g)) {
        flush();
        tokens.push(pending + g);
        pending = "";
        continue;
      }
      const k = space ? "space" : "word";
      if (current && kind !== k) flush();
      current += pending + g;
      pending = "";
      kind = k;
    }
  }
  if (pending) {
    if (current) current += pending;
    else if (tokens.length > 0) tokens[tokens.length - 1] += pending;
    else current = pending;
  }
  if (current) tokens.push(current);
  return tokens;
}

// Whether a token shows nothing but whitespace (escapes do not count; a lone
// ESC is visible).
function isBlank(token) {
  for (let i = 0; i < token.length; ) {
    const code = token.charCodeAt(i);
    if (code === 0x1b) {
      const len = escapeLength(token, i);
      if (len === 0) return false;
      i += len;
    } else if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && WHITESPACE.test(token[i]))) {
      i++;
    } else {
      return false;
    }
  }
  return true;
}

// A token wider than a line, cut at grapheme boundaries.
function breakToken(token, width, style) {
  const lines = [];
  let line = style.reopen();
  let lineWidth = 0;
  for (const part of splitEscapes(token)) {
    if (part.code) {
      line += part.code;
      style.apply(part.code);
      continue;
    }
    for (const g of graphemes(part.text)) {
      const w = visibleWidth(g);
      if (lineWidth + w > width) {
        lines.push(line + style.lineEnd());
        line = style.reopen();
        lineWidth = 0;
      }
      line += g;
      lineWidth += w;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

function wrapLine(line, width) {
  if (!line) return [""];
  if (visibleWidth(line) <= width) return [line];
  const out = [];
  const style = new StyleState();
  let current = "";
  let currentWidth = 0;
  for (const token of tokenize(line)) {
    const tokenWidth = visibleWidth(token);
    const blank = isBlank(token);
    if (tokenWidth > width && !blank) {
      if (current) {
        out.push(current.trimEnd() + style.lineEnd());
        current = "";
      }
      const pieces = breakToken(token, width, style);
      for (let k = 0; k < pieces.length - 1; k++) out.push(pieces[k]);
      current = pieces[pieces.length - 1];
      currentWidth = visibleWidth(current);
      continue;
    }
    if (currentWidth + tokenWidth > width && currentWidth > 0) {
      let done = current.trimEnd();
      if (blank) {
        // Codes on the dropped space (say, closing a styled word) end the
        // style on this line rather than re-opening it on the next.
        done += escapesOf(token);
        style.applyAll(token);
      }
      out.push(done + style.lineEnd());
      if (blank) {
        current = style.reopen();
        currentWidth = 0;
        continue;
      }
      current = style.reopen() + token;
      currentWidth = tokenWidth;
    } else if (blank && currentWidth + tokenWidth > width && token.includes("\x1b")) {
      // Spaces wider than an empty line: keep only their codes, so the final
      // trim can still drop the spaces.
      current += escapesOf(token);
    } else {
      current += token;
      currentWidth += tokenWidth;
    }
    style.applyAll(token);
  }
  if (current) out.push(current);
  return out.length > 0 ? out.map((l) => l.trimEnd()) : [""];
}

/**
 * `text` word-wrapped to `width` columns. Only wraps: no padding. Styles
 * active at a line break (including literal newlines) carry to the next line.
 */
export function wrapTextWithAnsi(text, width) {
  if (!text) return [""];
  const out = [];
  const style = new StyleState();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const prefix = out.length > 0 ? style.reopen() : "";
    for (const wrapped of wrapLine(prefix + line, width)) out.push(wrapped);
    style.applyAll(line);
  }
  return out.length > 0 ? out : [""];
}
