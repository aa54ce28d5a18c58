// The glob syntax minimatch reads, shared by pi's model scope patterns
// (model-glob.js) and package filters (package-glob.js): brace expansion
// (`{a,b}`, `{1..3}`; `\` escapes) and one path segment as a RegExp (`*`
// and `?` within the segment, `[...]` classes, `!` or `^` negating).

/** The index of the `}` closing the brace at `open`, or -1. */
function closingBrace(pattern, open) {
  let depth = 0;
  for (let index = open; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") index++;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index;
  }
  return -1;
}

/** Top-level comma-separated parts of a brace body. */
function braceParts(body) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === "\\") index++;
    else if (char === "{") depth++;
    else if (char === "}") depth--;
    else if (char === "," && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function rangeParts(body) {
  const match = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])$/.exec(body);
  if (!match) return undefined;
  const numeric = /\d/.test(match[1]);
  const from = numeric ? Number(match[1]) : match[1].charCodeAt(0);
  const to = numeric ? Number(match[2]) : match[2].charCodeAt(0);
  const step = from <= to ? 1 : -1;
  const parts = [];
  for (let value = from; step > 0 ? value <= to : value >= to; value += step) parts.push(numeric ? String(value) : String.fromCharCode(value));
  return parts;
}

/** Every pattern a brace expression stands for. */
export function expandBraces(pattern) {
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] === "\\") {
      index++;
      continue;
    }
    if (pattern[index] !== "{") continue;
    const close = closingBrace(pattern, index);
    if (close === -1) return [pattern];
    const body = pattern.slice(index + 1, close);
    const parts = rangeParts(body) ?? braceParts(body);
    // A brace without alternatives ({a}) is literal.
    if (parts.length < 2) continue;
    const head = pattern.slice(0, index);
    const tail = pattern.slice(close + 1);
    return parts.flatMap((part) => expandBraces(`${head}${part}${tail}`));
  }
  return [pattern];
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One segment of a pattern as an anchored RegExp (`flags`: "i" for case-blind matching). */
export function segmentRegExp(segment, flags = "") {
  let source = "";
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index];
    if (char === "\\" && index + 1 < segment.length) {
      source += escapeRegExp(segment[++index]);
    } else if (char === "*") {
      while (segment[index + 1] === "*") index++;
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const close = segment.indexOf("]", index + 2);
      if (close === -1) {
        source += "\\[";
        continue;
      }
      let body = segment.slice(index + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      source += `[${negated ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
      index = close;
    } else {
      source += escapeRegExp(char);
    }
  }
  return new RegExp(`^${source}$`, flags);
}
