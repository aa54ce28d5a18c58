// The edit tool's matching and diffs. Edits are matched in the file's text
// with line endings made LF; when any edit only matches after fuzzy
// normalization (trailing spaces, smart quotes, dashes, odd spaces), all of
// them are matched in the normalized text and only the lines they touch are
// rewritten. The result is spliced back into the original text so untouched
// lines keep their CRLF or LF.
import { diffLines, formatPatch, patchHunks } from "./line-diff.js";

export function normalizeToLF(text) {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

export function splitBom(content) {
  return content.startsWith("\uFEFF") ? { bom: "\uFEFF", text: content.slice(1) } : { bom: "", text: content };
}

/** The text with per-line trailing whitespace dropped and typographic characters made ASCII. */
export function normalizeForFuzzyMatch(text) {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

/** The line ending at `offset`: its line's, or the previous line's for an unterminated last line. */
function lineEndingAt(content, offset) {
  let lineFeed = content.indexOf("\n", offset);
  if (lineFeed === -1) lineFeed = content.lastIndexOf("\n", offset);
  // A lone CR is a line ending only in files with no LF at all (classic Mac).
  if (lineFeed === -1) return content.includes("\r") ? "\r" : "\n";
  return content[lineFeed - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * `replacements` (offsets in the LF-normalized text) applied to the original.
 * New text takes the line ending of the line it starts on.
 */
export function applyReplacementsToOriginal(original, replacements) {
  // Only a CRLF shrinks when normalized, so an offset maps back by adding the CRLFs before it.
  let crlfsBefore = 0;
  let nextCrlf = original.indexOf("\r\n");
  const toOriginal = (offset) => {
    while (nextCrlf !== -1 && nextCrlf - crlfsBefore < offset) {
      crlfsBefore++;
      nextCrlf = original.indexOf("\r\n", nextCrlf + 2);
    }
    return offset + crlfsBefore;
  };
  const parts = [];
  let endsWithCr = false;
  const push = (part) => {
    if (part.length === 0) return;
    // A CR before a seam and an LF after it would read as one CRLF; the extra
    // LF keeps the line breaks the diff showed.
    if (endsWithCr && part[0] === "\n") parts.push("\n");
    parts.push(part);
    endsWithCr = part[part.length - 1] === "\r";
  };
  let position = 0;
  for (const replacement of replacements) {
    const start = toOriginal(replacement.matchIndex);
    push(original.slice(position, start));
    const ending = lineEndingAt(original, start);
    push(ending === "\n" ? replacement.newText : replacement.newText.replaceAll("\n", ending));
    position = toOriginal(replacement.matchIndex + replacement.matchLength);
  }
  push(original.slice(position));
  return parts.join("");
}

function findText(content, oldText) {
  const exact = content.indexOf(oldText);
  if (exact !== -1) return { found: true, index: exact, matchLength: oldText.length, fuzzy: false };
  const fuzzyOld = normalizeForFuzzyMatch(oldText);
  const fuzzyIndex = normalizeForFuzzyMatch(content).indexOf(fuzzyOld);
  if (fuzzyIndex === -1) return { found: false, index: -1, matchLength: 0, fuzzy: false };
  return { found: true, index: fuzzyIndex, matchLength: fuzzyOld.length, fuzzy: true };
}

function occurrences(content, oldText) {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
}

function editError(path, index, total, single, multiple) {
  return new Error(total === 1 ? single : multiple(index));
}

/** [start, end) offsets of each line, terminators included. */
function lineSpans(content) {
  const spans = [];
  let offset = 0;
  for (const line of content.match(/[^\n]*\n|[^\n]+/g) ?? []) {
    spans.push({ start: offset, end: offset + line.length });
    offset += line.length;
  }
  return spans;
}

function linesTouched(spans, replacement) {
  const start = replacement.matchIndex;
  const end = start + replacement.matchLength;
  const first = spans.findIndex((span) => start >= span.start && start < span.end);
  if (first === -1) throw new Error("Replacement range is outside the base content.");
  let last = first;
  while (last < spans.length && spans[last].end < end) last++;
  if (last >= spans.length) throw new Error("Replacement range is outside the base content.");
  return { startLine: first, endLine: last + 1 };
}

function applyReplacements(content, replacements, offset = 0) {
  let result = content;
  for (let i = replacements.length - 1; i >= 0; i--) {
    const { matchIndex, matchLength, newText } = replacements[i];
    const at = matchIndex - offset;
    result = result.slice(0, at) + newText + result.slice(at + matchLength);
  }
  return result;
}

/**
 * Fuzzy matches as replacements of whole lines of `original`: the touched
 * lines are rewritten from the normalized text, every other line is kept as
 * it was, trailing spaces and quotes included.
 */
function widenToLines(original, normalized, replacements) {
  const originalSpans = lineSpans(original);
  const normalizedSpans = lineSpans(normalized);
  if (originalSpans.length !== normalizedSpans.length) {
    throw new Error("Cannot preserve unchanged lines because the base content has a different line count.");
  }
  const groups = [];
  for (const replacement of [...replacements].sort((a, b) => a.matchIndex - b.matchIndex)) {
    const range = linesTouched(normalizedSpans, replacement);
    const current = groups[groups.length - 1];
    if (current && range.startLine < current.endLine) {
      current.endLine = Math.max(current.endLine, range.endLine);
      current.replacements.push(replacement);
    } else groups.push({ ...range, replacements: [replacement] });
  }
  return groups.map((group) => {
    const from = normalizedSpans[group.startLine].start;
    const to = normalizedSpans[group.endLine - 1].end;
    const originalStart = originalSpans[group.startLine].start;
    return {
      matchIndex: originalStart,
      matchLength: originalSpans[group.endLine - 1].end - originalStart,
      newText: applyReplacements(normalized.slice(from, to), group.replacements, from),
    };
  });
}

/** Matches every edit against `content` (LF text); the replacements and the new text, or the error pi gives. */
export function applyEditsToNormalizedContent(content, edits, path) {
  const total = edits.length;
  const normalizedEdits = edits.map((edit) => ({ oldText: normalizeToLF(edit.oldText), newText: normalizeToLF(edit.newText) }));
  normalizedEdits.forEach((edit, i) => {
    if (edit.oldText.length === 0) {
      throw editError(path, i, total, `oldText must not be empty in ${path}.`, (n) => `edits[${n}].oldText must not be empty in ${path}.`);
    }
  });
  const fuzzy = normalizedEdits.some((edit) => findText(content, edit.oldText).fuzzy);
  const base = fuzzy ? normalizeForFuzzyMatch(content) : content;
  const matched = normalizedEdits.map((edit, i) => {
    const match = findText(base, edit.oldText);
    if (!match.found) {
      throw editError(
        path,
        i,
        total,
        `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
        (n) => `Could not find edits[${n}] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
      );
    }
    const count = occurrences(base, edit.oldText);
    if (count > 1) {
      throw editError(
        path,
        i,
        total,
        `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`,
        (n) => `Found ${count} occurrences of edits[${n}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
      );
    }
    return { editIndex: i, matchIndex: match.index, matchLength: match.matchLength, newText: edit.newText };
  });
  matched.sort((a, b) => a.matchIndex - b.matchIndex);
  for (let i = 1; i < matched.length; i++) {
    const [previous, current] = [matched[i - 1], matched[i]];
    if (previous.matchIndex + previous.matchLength > current.matchIndex) {
      throw new Error(`edits[${previous.editIndex}] and edits[${current.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`);
    }
  }
  const replacements = fuzzy ? widenToLines(content, base, matched) : matched;
  const newContent = applyReplacements(content, replacements);
  if (newContent === content) {
    throw editError(
      path,
      0,
      total,
      `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
      () => `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return { baseContent: content, newContent, replacements };
}

function countLineFeeds(text, start, end) {
  let count = 0;
  for (let i = text.indexOf("\n", start); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Lines as text.split("\n") counts them. */
const lineCount = (text) => countLineFeeds(text, 0, text.length) + 1;

/**
 * pi's display diff: changed lines as "+N text" / "-N text", up to
 * `contextLines` unchanged lines around them, " ..." for the rest; numbers
 * padded to `width`, counted from the given first lines.
 */
function displayDiff(runs, oldFirst, newFirst, width, contextLines) {
  const output = [];
  let oldLine = oldFirst;
  let newLine = newFirst;
  let afterChange = false;
  let firstChangedLine;
  const numbered = (sign, number, line) => `${sign}${String(number).padStart(width, " ")} ${line}`;
  const skipped = () => ` ${"".padStart(width, " ")} ...`;
  const unchanged = (lines) => {
    for (const line of lines) {
      output.push(numbered(" ", oldLine, line));
      oldLine++;
      newLine++;
    }
  };
  const skip = (count) => {
    output.push(skipped());
    oldLine += count;
    newLine += count;
  };
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    const lines = run.value.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    if (run.added || run.removed) {
      firstChangedLine ??= newLine;
      for (const line of lines) {
        if (run.added) output.push(numbered("+", newLine++, line));
        else output.push(numbered("-", oldLine++, line));
      }
      afterChange = true;
      continue;
    }
    const beforeChange = i < runs.length - 1 && (runs[i + 1].added || runs[i + 1].removed);
    if (afterChange && beforeChange) {
      if (lines.length <= contextLines * 2) unchanged(lines);
      else {
        unchanged(lines.slice(0, contextLines));
        skip(lines.length - 2 * contextLines);
        unchanged(lines.slice(lines.length - contextLines));
      }
    } else if (afterChange) {
      const shown = lines.slice(0, contextLines);
      unchanged(shown);
      if (lines.length > shown.length) skip(lines.length - shown.length);
    } else if (beforeChange) {
      const hidden = Math.max(0, lines.length - contextLines);
      if (hidden > 0) skip(hidden);
      unchanged(lines.slice(hidden));
    } else {
      oldLine += lines.length;
      newLine += lines.length;
    }
    afterChange = false;
  }
  return { output, firstChangedLine };
}

/** pi's generateDiffString: the display diff of two whole texts. */
export function generateDiffString(oldContent, newContent, contextLines = 4) {
  const width = String(Math.max(lineCount(oldContent), lineCount(newContent))).length;
  const { output, firstChangedLine } = displayDiff(diffLines(oldContent, newContent), 1, 1, width, contextLines);
  return { diff: output.join("\n"), firstChangedLine };
}

/** Unchanged lines diffed on each side of a replacement: well past the 4 shown, so alignment matches a whole-file diff. */
const WINDOW_MARGIN_LINES = 32;

const lineStartBefore = (text, offset) => (offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1);

/** Whole-line windows around the (sorted, disjoint) replacements, with margins; overlapping ones merge. */
function diffWindows(base, replacements) {
  const windows = [];
  let offsetDelta = 0;
  let lineDelta = 0;
  let cursorOffset = 0;
  let cursorLine = 0;
  for (const replacement of replacements) {
    const matchEnd = replacement.matchIndex + replacement.matchLength;
    let start = lineStartBefore(base, replacement.matchIndex);
    for (let i = 0; i < WINDOW_MARGIN_LINES && start > 0; i++) start = lineStartBefore(base, start - 1);
    let end = matchEnd;
    for (let i = 0; i <= WINDOW_MARGIN_LINES && end < base.length; i++) {
      const lineFeed = base.indexOf("\n", i === 0 ? Math.max(matchEnd - 1, replacement.matchIndex) : end);
      end = lineFeed === -1 ? base.length : lineFeed + 1;
    }
    const ownOffsetDelta = replacement.newText.length - replacement.matchLength;
    const ownLineDelta =
      countLineFeeds(replacement.newText, 0, replacement.newText.length) - countLineFeeds(base, replacement.matchIndex, matchEnd);
    const previous = windows[windows.length - 1];
    if (previous && start <= previous.oldEnd) {
      previous.oldEnd = Math.max(previous.oldEnd, end);
      previous.newEnd = previous.oldEnd + offsetDelta + ownOffsetDelta;
    } else {
      cursorLine += countLineFeeds(base, cursorOffset, start);
      cursorOffset = start;
      windows.push({
        oldStart: start,
        oldEnd: end,
        oldLine: cursorLine,
        newStart: start + offsetDelta,
        newEnd: end + offsetDelta + ownOffsetDelta,
        newLine: cursorLine + lineDelta,
      });
    }
    offsetDelta += ownOffsetDelta;
    lineDelta += ownLineDelta;
  }
  return windows;
}

/**
 * The edit's details: display diff, unified patch and first changed line,
 * diffed only in windows around the replacements so the cost follows the
 * change, not the file.
 */
export function generateEditDiff(path, baseContent, newContent, replacements, contextLines = 4) {
  const width = String(Math.max(lineCount(baseContent), lineCount(newContent))).length;
  const skipMarker = ` ${"".padStart(width, " ")} ...`;
  const output = [];
  const hunks = [];
  let firstChangedLine;
  for (const window of diffWindows(baseContent, replacements)) {
    const oldText = baseContent.slice(window.oldStart, window.oldEnd);
    const newText = newContent.slice(window.newStart, window.newEnd);
    const shown = displayDiff(diffLines(oldText, newText), window.oldLine + 1, window.newLine + 1, width, contextLines);
    firstChangedLine ??= shown.firstChangedLine;
    // Unchanged lines between two windows are marked skipped by both; once is enough.
    if (output[output.length - 1] === skipMarker && shown.output[0] === skipMarker) shown.output.shift();
    for (const line of shown.output) output.push(line);
    for (const hunk of patchHunks(oldText, newText, contextLines)) {
      hunks.push({ ...hunk, oldStart: hunk.oldStart + window.oldLine, newStart: hunk.newStart + window.newLine });
    }
  }
  return { diff: output.join("\n"), patch: formatPatch(path, hunks), firstChangedLine };
}

/** A unified patch of a whole file (file headers only, `contextLines` around each change), as `diff -u` would print it. */
export function generateUnifiedPatch(path, oldContent, newContent, contextLines = 4) {
  return formatPatch(path, patchHunks(oldContent, newContent, contextLines));
}
