// Word diffs as jsdiff 8's diffWords makes them, which pi uses to highlight
// the changed words of an edited line. A token is a word or one punctuation
// mark together with the whitespace around it; tokens match when they are
// equal apart from that whitespace. Whitespace shared by neighbouring
// changes is then given to one side only, so it is not shown twice.
import { shortestEdit } from "./tools/line-diff.js";

// Letters, digits and "_", plus the Latin letters with diacritics (Latin-1,
// Extended-A/B, IPA, spacing modifiers except the accent marks, Extended
// Additional) and the soft hyphen: jsdiff's idea of a word character.
const WORD_CHARS = "a-zA-Z0-9_\\u{AD}\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2C6}\\u{2C8}-\\u{2D7}\\u{2DE}-\\u{2FF}\\u{1E00}-\\u{1EFF}";
const PARTS = new RegExp(`[${WORD_CHARS}]+|\\s+|[^${WORD_CHARS}]`, "gu");
const isWhitespace = (part) => /\s/.test(part);

/** Words and punctuation, each carrying the whitespace before and after it (so neighbours share it). */
function wordTokens(text) {
  const tokens = [];
  let previous = null;
  for (const part of text.match(PARTS) ?? []) {
    if (isWhitespace(part)) {
      if (previous === null) tokens.push(part);
      else tokens.push(tokens.pop() + part);
    } else if (previous !== null && isWhitespace(previous)) {
      // Leading whitespace of the text is its own token only until a word follows it.
      if (tokens[tokens.length - 1] === previous) tokens.push(tokens.pop() + part);
      else tokens.push(previous + part);
    } else {
      tokens.push(part);
    }
    previous = part;
  }
  return tokens.filter(Boolean);
}

/** Consecutive tokens back to text: all but the first repeat whitespace their predecessor already has. */
const joinTokens = (tokens) => tokens.map((token, i) => (i === 0 ? token : token.replace(/^\s+/, ""))).join("");

const leadingWs = (text) => text.match(/^\s*/)[0];
const trailingWs = (text) => text.match(/\s*$/)[0];

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

function commonSuffix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i === 0 ? "" : a.slice(-i);
}

// These only ever cut whitespace the text is known to have; jsdiff treats a mismatch as its own bug.
function replacePrefix(text, prefix, replacement) {
  if (text.slice(0, prefix.length) !== prefix) {
    throw Error(`string ${JSON.stringify(text)} doesn't start with prefix ${JSON.stringify(prefix)}; this is a bug`);
  }
  return replacement + text.slice(prefix.length);
}

function replaceSuffix(text, suffix, replacement) {
  if (!suffix) return text + replacement;
  if (text.slice(-suffix.length) !== suffix) {
    throw Error(`string ${JSON.stringify(text)} doesn't end with suffix ${JSON.stringify(suffix)}; this is a bug`);
  }
  return text.slice(0, -suffix.length) + replacement;
}

const removePrefix = (text, prefix) => replacePrefix(text, prefix, "");
const removeSuffix = (text, suffix) => replaceSuffix(text, suffix, "");

/** The longest end of `a` that is also a start of `b`. */
function overlap(a, b) {
  for (let length = Math.min(a.length, b.length); length > 0; length--) {
    if (a.endsWith(b.slice(0, length))) return b.slice(0, length);
  }
  return "";
}

/**
 * Gives the whitespace around a change to one side. `before` and `after`
 * are the unchanged runs around it (null at the text's ends); `deletion`
 * and `insertion` the changed runs between them (either may be null).
 */
function dedupeWhitespace(before, deletion, insertion, after) {
  if (deletion && insertion) {
    const [oldStart, oldEnd] = [leadingWs(deletion.value), trailingWs(deletion.value)];
    const [newStart, newEnd] = [leadingWs(insertion.value), trailingWs(insertion.value)];
    if (before) {
      const shared = commonPrefix(oldStart, newStart);
      before.value = replaceSuffix(before.value, newStart, shared);
      deletion.value = removePrefix(deletion.value, shared);
      insertion.value = removePrefix(insertion.value, shared);
    }
    if (after) {
      const shared = commonSuffix(oldEnd, newEnd);
      after.value = replacePrefix(after.value, newEnd, shared);
      deletion.value = removeSuffix(deletion.value, shared);
      insertion.value = removeSuffix(insertion.value, shared);
    }
  } else if (insertion) {
    // All the whitespace is the new text's: each run keeps what follows it.
    if (before) insertion.value = insertion.value.slice(leadingWs(insertion.value).length);
    if (after) after.value = after.value.slice(leadingWs(after.value).length);
  } else if (before && after) {
    const newWs = leadingWs(after.value);
    const [deletedStart, deletedEnd] = [leadingWs(deletion.value), trailingWs(deletion.value)];
    const toBefore = commonPrefix(newWs, deletedStart);
    deletion.value = removePrefix(deletion.value, toBefore);
    const toAfter = commonSuffix(removePrefix(newWs, toBefore), deletedEnd);
    deletion.value = removeSuffix(deletion.value, toAfter);
    after.value = replacePrefix(after.value, newWs, toAfter);
    before.value = replaceSuffix(before.value, newWs, newWs.slice(0, newWs.length - toAfter.length));
  } else if (after) {
    deletion.value = removeSuffix(deletion.value, overlap(trailingWs(deletion.value), leadingWs(after.value)));
  } else if (before) {
    deletion.value = removePrefix(deletion.value, overlap(trailingWs(before.value), leadingWs(deletion.value)));
  }
}

/** jsdiff's diffWords(oldText, newText): runs of { value, added, removed }, in order. */
export function diffWords(oldText, newText) {
  const oldTokens = wordTokens(oldText);
  const newTokens = wordTokens(newText);
  const runs = [];
  for (let run = shortestEdit(oldTokens, newTokens, (a, b) => a.trim() === b.trim()); run; run = run.before) runs.push(run);
  runs.reverse();
  let x = 0;
  let y = 0;
  const changes = runs.map(({ kind, count }) => {
    let value;
    if (kind === "removed") {
      value = joinTokens(oldTokens.slice(x, x + count));
      x += count;
    } else {
      // Unchanged runs are spelled as in the new text.
      value = joinTokens(newTokens.slice(y, y + count));
      y += count;
      if (kind === "same") x += count;
    }
    return { value, added: kind === "added", removed: kind === "removed" };
  });
  let lastKept = null;
  let insertion = null;
  let deletion = null;
  for (const change of changes) {
    if (change.added) insertion = change;
    else if (change.removed) deletion = change;
    else {
      if (insertion || deletion) dedupeWhitespace(lastKept, deletion, insertion, change);
      lastKept = change;
      insertion = null;
      deletion = null;
    }
  }
  if (insertion || deletion) dedupeWhitespace(lastKept, deletion, insertion, null);
  return changes;
}
