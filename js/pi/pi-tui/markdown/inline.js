// Inline Markdown: code spans, links, autolinks, emphasis, strikethrough,
// hard breaks, escapes, raw HTML and math, as a token list for pi-tui's renderer.
// Emphasis uses CommonMark's delimiter-run algorithm: the text is first cut
// into pieces, `*`/`_` runs are kept aside, and matched afterwards.

import { inlineMath } from "./math.js";

const PUNCTUATION = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/u;
const ESCAPABLE = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const HTML_TAG =
  /^(?:<[a-zA-Z][\w-]*(?:\s+[a-zA-Z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<\/[a-zA-Z][\w-]*\s*>|<!--(?:-?>|[\s\S]*?-->)|<\?[\s\S]*?\?>|<![a-zA-Z]+\s[\s\S]*?>|<!\[CDATA\[[\s\S]*?\]\]>)/;
const AUTOLINK = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/;
const BARE_URL = /^(?:https?:\/\/|www\.)(?:[a-zA-Z0-9\-]+\.?)+[^\s<]*/i;
const BARE_EMAIL = /^[A-Za-z0-9._+-]+@[a-zA-Z0-9-_]+(?:\.[a-zA-Z0-9-_]*[a-zA-Z0-9])+(?![-_])/;
const STRICT_DEL = /^~~(?=[^\s~])((?:\\.|[^\\])*?(?:\\.|[^\s~\\]))~~(?=[^~]|$)/;

const text = (value) => ({ type: "text", raw: value, text: value });

function unescape(value) {
  return value.replace(/\\([!"#$%&'()*+,\-./:;<=>?@[\]\\^_`{|}~])/g, "$1");
}

function normalizeLabel(label) {
  return label.trim().toLowerCase().replace(/\s+/g, " ");
}

/** End of a bracketed link label starting at `start` ("["), or -1. Code spans and escapes hide brackets. */
function labelEnd(src, start) {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\") {
      i++;
    } else if (ch === "`") {
      const run = /^`+/.exec(src.slice(i))[0];
      const close = src.indexOf(run, i + run.length);
      if (close !== -1) i = close + run.length - 1;
      else i += run.length - 1;
    } else if (ch === "[") {
      depth++;
    } else if (ch === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `(destination "title")` after a link label, or undefined. */
function parseDestination(src, pos) {
  if (src[pos] !== "(") return undefined;
  let i = pos + 1;
  while (i < src.length && /[ \t\n]/.test(src[i])) i++;
  let href = "";
  if (src[i] === "<") {
    const close = src.indexOf(">", i);
    if (close === -1 || src.slice(i, close).includes("\n")) return undefined;
    href = src.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const start = i;
    while (i < src.length) {
      const ch = src[i];
      if (ch === "\\" && i + 1 < src.length) {
        i += 2;
        continue;
      }
      if (/\s/.test(ch)) break;
      if (ch === "(") depth++;
      else if (ch === ")") {
        if (depth === 0) break;
        depth--;
      }
      i++;
    }
    href = src.slice(start, i);
  }
  let title;
  const beforeTitle = i;
  while (i < src.length && /[ \t\n]/.test(src[i])) i++;
  if (i > beforeTitle && /["'(]/.test(src[i])) {
    const closer = src[i] === "(" ? ")" : src[i];
    let j = i + 1;
    while (j < src.length && src[j] !== closer) j += src[j] === "\\" ? 2 : 1;
    if (j >= src.length) return undefined;
    title = unescape(src.slice(i + 1, j));
    i = j + 1;
    while (i < src.length && /[ \t\n]/.test(src[i])) i++;
  }
  if (src[i] !== ")") return undefined;
  return { href: unescape(href.trim()), title, end: i + 1 };
}

/** Trailing punctuation that ends a bare URL rather than belonging to it. */
function trimBareUrl(url) {
  let end = url.length;
  for (;;) {
    const ch = url[end - 1];
    if (/[?!.,:*_~'"]/.test(ch)) {
      end--;
      continue;
    }
    if (ch === ")") {
      const candidate = url.slice(0, end);
      const open = (candidate.match(/\(/g) || []).length;
      const close = (candidate.match(/\)/g) || []).length;
      if (close > open) {
        end--;
        continue;
      }
    }
    if (ch === ";") {
      const entity = /&[a-zA-Z0-9]+;$/.exec(url.slice(0, end));
      if (entity) {
        end -= entity[0].length;
        continue;
      }
    }
    break;
  }
  return url.slice(0, end);
}

class InlineLexer {
  constructor(links) {
    this.links = links;
  }

  /**
   * Pieces of `src`: finished tokens, and delimiter runs
   * ({ delim, char, count, canOpen, canClose }) for emphasis matching.
   */
  pieces(src, inLink) {
    const out = [];
    let pending = "";
    const flush = () => {
      if (pending) out.push(text(pending));
      pending = "";
    };
    const push = (token) => {
      flush();
      out.push(token);
    };
    let i = 0;
    while (i < src.length) {
      const rest = src.slice(i);
      const ch = src[i];
      const prev = i > 0 ? src[i - 1] : "";

      // Math is tried before anything else, so "\(" opens math rather than escaping the parenthesis.
      if (ch === "$" || (ch === "\\" && (src[i + 1] === "(" || src[i + 1] === "["))) {
        const math = inlineMath(rest);
        if (math && closesOpenEmphasis(src, i, math.raw.length, out)) {
          // pi pairs an earlier "*"/"_" with a closer inside the math first; the math then forms within the emphasis.
          out.mathSkipped = [...(out.mathSkipped ?? []), i];
        } else if (math) {
          push(math);
          i += math.raw.length;
          continue;
        }
      }

      if (ch === "\\") {
        if (ESCAPABLE.includes(src[i + 1] ?? "\0")) {
          push({ type: "escape", raw: rest.slice(0, 2), text: src[i + 1] });
          i += 2;
          continue;
        }
        if (src[i + 1] === "\n" && i + 2 < src.length) {
          push({ type: "br", raw: "\\\n" });
          i += 2;
          continue;
        }
      }

      if (ch === "<") {
        const tag = HTML_TAG.exec(rest);
        if (tag) {
          push({ type: "html", raw: tag[0], text: tag[0], inLink: false, inRawBlock: false, block: false });
          i += tag[0].length;
          continue;
        }
        const auto = AUTOLINK.exec(rest);
        if (auto) {
          const isEmail = !auto[1].includes(":");
          const href = isEmail ? `mailto:${auto[1]}` : auto[1];
          push({ type: "link", raw: auto[0], text: auto[1], href, tokens: [text(auto[1])] });
          i += auto[0].length;
          continue;
        }
      }

      if (ch === "[" || (ch === "!" && src[i + 1] === "[")) {
        const link = this.link(src, i, inLink);
        if (link) {
          push(link.token);
          i = link.end;
          continue;
        }
      }

      if (ch === "`") {
        const run = /^`+/.exec(rest)[0];
        let search = i + run.length;
        let close = -1;
        while (search < src.length) {
          const found = src.indexOf(run, search);
          if (found === -1) break;
          if (src[found + run.length] !== "`" && src[found - 1] !== "`") {
            close = found;
            break;
          }
          search = /^`+/.exec(src.slice(found))[0].length + found;
        }
        if (close !== -1) {
          let code = src.slice(i + run.length, close).replace(/\n/g, " ");
          if (/[^ ]/.test(code) && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
          push({ type: "codespan", raw: src.slice(i, close + run.length), text: code });
          i = close + run.length;
          continue;
        }
        pending += run;
        i += run.length;
        continue;
      }

      if (ch === " ") {
        const br = /^ {2,}\n(?!\s*$)/.exec(rest);
        if (br) {
          push({ type: "br", raw: br[0] });
          i += br[0].length;
          continue;
        }
      }

      if (ch === "~") {
        const del = STRICT_DEL.exec(rest);
        if (del) {
          push({ type: "del", raw: del[0], text: del[1], tokens: this.tokens(del[1], inLink) });
          i += del[0].length;
          continue;
        }
        // A tilde run that is not strikethrough stays text as a whole.
        const run = /^~+/.exec(rest)[0];
        pending += run;
        i += run.length;
        continue;
      }

      if (ch === "*" || ch === "_") {
        const run = delimiterRun(src, i);
        flush();
        out.push(run);
        i += run.count;
        continue;
      }

      if (!inLink && (ch === "h" || ch === "w" || ch === "H" || ch === "W") && !/[a-zA-Z0-9]/.test(prev)) {
        const url = BARE_URL.exec(rest);
        if (url) {
          const value = trimBareUrl(url[0]);
          if (value.length > 0 && (/^www\./i.test(value) ? /\./.test(value.slice(4)) : true)) {
            const href = /^www\./i.test(value) ? `http://${value}` : value;
            push({ type: "link", raw: value, text: value, href, tokens: [text(value)] });
            i += value.length;
            continue;
          }
        }
      }

      if (!inLink && ch === "@") {
        // An email address is recognised at its "@": the local part is already pending text.
        const local = /[A-Za-z0-9._+-]+$/.exec(pending);
        if (local) {
          const email = BARE_EMAIL.exec(local[0] + rest);
          if (email && email[0].length > local[0].length) {
            pending = pending.slice(0, -local[0].length);
            push({ type: "link", raw: email[0], text: email[0], href: `mailto:${email[0]}`, tokens: [text(email[0])] });
            i += email[0].length - local[0].length;
            continue;
          }
        }
      }

      pending += ch;
      i++;
    }
    flush();
    return out;
  }

  link(src, start, inLink) {
    const isImage = src[start] === "!";
    const open = isImage ? start + 1 : start;
    const close = labelEnd(src, open);
    if (close === -1) return undefined;
    const label = src.slice(open + 1, close);
    const dest = parseDestination(src, close + 1);
    let href;
    let title;
    let end;
    if (dest) {
      ({ href, title, end } = dest);
    } else {
      // Reference links: [text][ref], [text][] and [text].
      let ref = label;
      end = close + 1;
      const full = /^\[((?:\\.|[^[\]\\])*)\]/.exec(src.slice(close + 1));
      if (full) {
        if (full[1].trim()) ref = full[1];
        end = close + 1 + full[0].length;
      }
      const def = this.links[normalizeLabel(ref)];
      if (!def) return undefined;
      ({ href, title } = def);
    }
    if (!isImage && inLink) return undefined;
    const raw = src.slice(start, end);
    if (isImage) return { token: { type: "image", raw, href, title, text: label, tokens: this.tokens(label, true) }, end };
    return { token: { type: "link", raw, href, title, text: label, tokens: this.tokens(label, true) }, end };
  }

  tokens(src, inLink = false) {
    const pieces = this.pieces(src, inLink);
    const skipped = pieces.mathSkipped ?? [];
    // Emphasis over skipped math reads its content afresh, so the math can form inside it.
    const relex = (start, end) => (skipped.some((at) => at >= start && at < end) ? this.tokens(src.slice(start, end), inLink) : undefined);
    return mergeText(resolveEmphasis(pieces, relex));
  }
}

/** A run of "*" or "_" at `at`, with whether it may open or close emphasis (CommonMark's flanking rules). */
function delimiterRun(src, at) {
  const char = src[at];
  let end = at;
  while (src[end] === char) end++;
  const before = at > 0 ? src[at - 1] : "\n";
  const after = src[end] ?? "\n";
  const beforeSpace = WHITESPACE.test(before);
  const afterSpace = WHITESPACE.test(after);
  const beforePunct = PUNCTUATION.test(before);
  const afterPunct = PUNCTUATION.test(after);
  const leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct);
  const rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct);
  const canOpen = char === "*" ? leftFlanking : leftFlanking && (!rightFlanking || beforePunct);
  const canClose = char === "*" ? rightFlanking : rightFlanking && (!leftFlanking || afterPunct);
  return { delim: true, char, count: end - at, origCount: end - at, canOpen, canClose, at };
}

/** Whether the character at `at` is escaped by an odd run of backslashes before it. */
function backslashed(src, at) {
  let count = 0;
  while (src[at - count - 1] === "\\") count++;
  return count % 2 === 1;
}

/** The rule of three: a run that can both open and close only pairs when the lengths allow it. */
function lengthsPair(opener, closer) {
  if (!(opener.canClose || closer.canOpen)) return true;
  return (opener.origCount + closer.origCount) % 3 !== 0 || (opener.origCount % 3 === 0 && closer.origCount % 3 === 0);
}

/** Whether a run inside the math at `start` (length `length`) could close emphasis still open before it. */
function closesOpenEmphasis(src, start, length, pieces) {
  const body = src.slice(start, start + length);
  if (!body.includes("*") && !body.includes("_")) return false;
  const open = pairEmphasis(pieces, () => undefined).filter((n) => n.delim && n.canOpen && n.count > 0);
  if (open.length === 0) return false;
  for (let at = start + 1; at < start + length; at++) {
    if ((src[at] !== "*" && src[at] !== "_") || src[at - 1] === src[at] || backslashed(src, at)) continue;
    const run = delimiterRun(src, at);
    if (run.canClose && open.some((o) => o.char === run.char && run.count >= o.count && lengthsPair(o, run))) return true;
  }
  return false;
}

function resolveEmphasis(pieces, relex) {
  return flattenDelims(pairEmphasis(pieces, relex));
}

/**
 * CommonMark's "process emphasis": pairs delimiter runs into em/strong, innermost first. `relex(start, end)` may give
 * the content of an emphasis anew from its source span.
 */
function pairEmphasis(pieces, relex) {
  const nodes = pieces.map((p) => (p.delim ? { ...p } : p));
  for (let closer = 0; closer < nodes.length; closer++) {
    const c = nodes[closer];
    if (!c?.delim || !c.canClose || c.count === 0) continue;
    let matched = false;
    for (let opener = closer - 1; opener >= 0; opener--) {
      const o = nodes[opener];
      if (!o?.delim || !o.canOpen || o.char !== c.char || o.count === 0) continue;
      if (!lengthsPair(o, c)) continue;
      const use = o.count >= 2 && c.count >= 2 ? 2 : 1;
      const inner = nodes.slice(opener + 1, closer);
      const token = {
        type: use === 2 ? "strong" : "em",
        raw: "",
        text: "",
        tokens: relex(o.at + o.count, c.at + c.origCount - c.count) ?? mergeText(flattenDelims(inner)),
      };
      token.raw = c.char.repeat(use) + rawOf(token.tokens) + c.char.repeat(use);
      token.text = rawOf(token.tokens);
      o.count -= use;
      c.count -= use;
      nodes.splice(opener + 1, closer - opener - 1, token);
      // The closer now sits at opener + 2; revisit it in case it has delimiters left.
      closer = opener + 1;
      matched = true;
      break;
    }
    if (!matched && !c.canOpen) c.canClose = false;
  }
  return nodes;
}

function flattenDelims(nodes) {
  return nodes.filter((n) => !(n.delim && n.count === 0)).map((n) => (n.delim ? text(n.char.repeat(n.count)) : n));
}

function rawOf(tokens) {
  return tokens.map((t) => t.raw).join("");
}

function mergeText(tokens) {
  const out = [];
  for (const token of tokens) {
    const last = out[out.length - 1];
    if (token.type === "text" && last?.type === "text" && !last.tokens) {
      out[out.length - 1] = text(last.text + token.text);
    } else {
      out.push(token);
    }
  }
  return out;
}

export function lexInline(src, links = {}) {
  return new InlineLexer(links).tokens(src);
}
