// Math in Markdown, as pi-tui reads it: inline `$…$`, `$$…$$`, `\(…\)`, `\[…\]`
// and display blocks opened by `$$` or `\[` on their own line. While a reply
// streams, an opener without its closer still forms a "pending" token, so the
// renderer can show the source as written instead of flickering between text
// and math. Dollar signs are also money: "$5 and $10" must stay prose.

// Characters that make an unclosed `$` read as math rather than money.
const MATH_HINT = /\\[A-Za-z]+|[_^=+*/<>()[\]|±≤≥≠≈∈→⇒∞∫∑√-]/;
const TABLE_DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const SHOUTED_NAME = /^[A-Z_][A-Z0-9_]*(?:[^A-Za-z0-9_\s])?$/;
const INLINE_OPENERS = [
  ["$$", "$$"],
  ["\\(", "\\)"],
  ["\\[", "\\]"],
];

function backslashEscaped(source, index) {
  let count = 0;
  while (index - count - 1 >= 0 && source[index - count - 1] === "\\") count++;
  return count % 2 === 1;
}

function unescapedIndexOf(source, needle, from) {
  let at = source.indexOf(needle, from);
  while (at !== -1 && backslashEscaped(source, at)) at = source.indexOf(needle, at + needle.length);
  return at;
}

/** Whether an unclosed `$`/`$$` body looks like math being typed. */
export function looksLikeMath(body) {
  return MATH_HINT.test(body);
}

/** Whether `$a$` between `$`s is more likely shell variables or prices than math. */
function dollarPairIsProse(body, after) {
  if (/\s$/.test(body) || /^\d/.test(after) || body.includes("`")) return true;
  // "$HOME$PATH"-style: an upper-case name right before another identifier.
  return SHOUTED_NAME.test(body) && /^[A-Za-z_]/.test(after);
}

/** An inline math token at the start of `source`, or undefined. */
export function inlineMath(source) {
  let pair = INLINE_OPENERS.find(([open]) => source.startsWith(open));
  if (!pair) {
    if (!source.startsWith("$") || /^\$\s/.test(source)) return undefined;
    pair = ["$", "$"];
  }
  const [open, close] = pair;
  const closeAt = unescapedIndexOf(source, close, open.length);
  if (closeAt === -1) {
    const body = source.slice(open.length);
    if (open[0] === "\\" || looksLikeMath(body)) return { type: "latex", raw: source, text: body, pending: true };
    return undefined;
  }
  const body = source.slice(open.length, closeAt);
  if (open === "$" && dollarPairIsProse(body, source.slice(closeAt + 1))) return undefined;
  if (body === "" || body.includes("\n")) return undefined;
  return { type: "latex", raw: source.slice(0, closeAt + close.length), text: body };
}

/** Where inline math could start in `source`, or -1. */
export function inlineMathStart(source) {
  const starts = [source.indexOf("$"), source.indexOf("\\("), source.indexOf("\\[")].filter((at) => at !== -1);
  return starts.length === 0 ? -1 : Math.min(...starts);
}

function holdsTableStart(body) {
  const lines = body.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const delimiter = lines[i + 1];
    if ((delimiter.includes("|") || lines[i].includes("|")) && TABLE_DELIMITER_ROW.test(delimiter)) return true;
  }
  return false;
}

/**
 * A display math block at the start of `source`, or undefined. A block never
 * spans a table: an unclosed opener must not swallow one that follows.
 */
export function displayMath(source) {
  const closed = [/^ {0,3}\$\$[ \t]*\n?([\s\S]*?)\$\$[ \t]*(?:\n|$)/, /^ {0,3}\\\[[ \t]*\n?([\s\S]*?)\\\][ \t]*(?:\n|$)/];
  for (const pattern of closed) {
    const match = pattern.exec(source);
    if (match && match[1] && !holdsTableStart(match[1])) return { type: "latexBlock", raw: match[0], text: match[1].trim() };
  }
  const openBracket = /^ {0,3}\\\[[ \t]*\n?([\s\S]*)$/.exec(source);
  if (openBracket && openBracket[1] && !holdsTableStart(openBracket[1])) {
    return { type: "latexBlock", raw: openBracket[0], text: openBracket[1], pending: true };
  }
  const openDollar = /^ {0,3}\$\$[ \t]*\n?([\s\S]*)$/.exec(source);
  if (openDollar && openDollar[1] && looksLikeMath(openDollar[1]) && !holdsTableStart(openDollar[1])) {
    return { type: "latexBlock", raw: openDollar[0], text: openDollar[1], pending: true };
  }
  return undefined;
}

/** Where a display math block could start in `source` (at a line start), or -1. */
export function displayMathStart(source) {
  const match = /(?:^|\n) {0,3}(?:\$\$|\\\[)/.exec(source);
  if (!match) return -1;
  return match[0].startsWith("\n") ? match.index + 1 : match.index;
}
