// Line diffs as pi's edit tool shows them, which it computes with jsdiff 8:
// the same tokens (a line with its "\n" or "\r\n"), the same shortest edit
// script, and — where several are equally short — the same choice among them,
// so hunks and line numbers come out identical. Also jsdiff's structured
// patch hunks and their unified text.

/** Lines with their terminators, as jsdiff's line tokenizer splits them. */
function lineTokens(text) {
  const pieces = text.split(/(\n|\r\n)/);
  if (!pieces[pieces.length - 1]) pieces.pop();
  const tokens = [];
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 1) tokens[tokens.length - 1] += pieces[i];
    else tokens.push(pieces[i]);
  }
  return tokens.filter((token) => token);
}

/**
 * Myers' O(ND) search. A path's `x` is the last old token it consumed (-1
 * before any); on diagonal k it has consumed x - k new tokens. Its edits are
 * a linked list of runs, newest first. Diagonals whose path reached the end
 * of either side are not explored further, and from two candidate paths the
 * one further along the old text wins, insertions winning ties: both choices
 * are jsdiff's, and they decide which of several shortest scripts comes out.
 * Tokens match by `equals` (jsdiff's word diff ignores their whitespace).
 */
export function shortestEdit(oldTokens, newTokens, equals = (a, b) => a === b) {
  const oldLength = oldTokens.length;
  const newLength = newTokens.length;
  const slide = (path, diagonal) => {
    let x = path.x;
    let y = x - diagonal;
    let common = 0;
    while (x + 1 < oldLength && y + 1 < newLength && equals(oldTokens[x + 1], newTokens[y + 1])) {
      x++;
      y++;
      common++;
    }
    if (common > 0) path.runs = { kind: "same", count: common, before: path.runs };
    path.x = x;
    return y;
  };
  const extend = (path, kind, advance) => {
    const runs = path.runs;
    if (runs && runs.kind === kind) return { x: path.x + advance, runs: { kind, count: runs.count + 1, before: runs.before } };
    return { x: path.x + advance, runs: { kind, count: 1, before: runs } };
  };
  const done = (path, y) => path.x + 1 >= oldLength && y + 1 >= newLength;

  const paths = new Map();
  const start = { x: -1, runs: undefined };
  if (done(start, slide(start, 0))) return start.runs;
  paths.set(0, start);
  let lowest = -Infinity;
  let highest = Infinity;
  for (let cost = 1; cost <= oldLength + newLength; cost++) {
    for (let k = Math.max(lowest, -cost); k <= Math.min(highest, cost); k += 2) {
      const fromRemove = paths.get(k - 1);
      const fromInsert = paths.get(k + 1);
      if (fromRemove) paths.delete(k - 1);
      const canInsert = fromInsert !== undefined && fromInsert.x - k >= 0 && fromInsert.x - k < newLength;
      const canRemove = fromRemove !== undefined && fromRemove.x + 1 < oldLength;
      if (!canInsert && !canRemove) {
        paths.delete(k);
        continue;
      }
      const path =
        !canRemove || (canInsert && fromRemove.x < fromInsert.x)
          ? extend(fromInsert, "added", 0)
          : extend(fromRemove, "removed", 1);
      const y = slide(path, k);
      if (done(path, y)) return path.runs;
      paths.set(k, path);
      if (path.x + 1 >= oldLength) highest = Math.min(highest, k - 1);
      if (y + 1 >= newLength) lowest = Math.max(lowest, k + 1);
    }
  }
  return undefined;
}

/** jsdiff's diffLines: runs of { value, count, added, removed }, in order. */
export function diffLines(oldText, newText) {
  const oldTokens = lineTokens(oldText);
  const newTokens = lineTokens(newText);
  const runs = [];
  for (let run = shortestEdit(oldTokens, newTokens); run; run = run.before) runs.push(run);
  runs.reverse();
  let x = 0;
  let y = 0;
  return runs.map(({ kind, count }) => {
    let value;
    if (kind === "removed") {
      value = oldTokens.slice(x, x + count).join("");
      x += count;
    } else {
      value = newTokens.slice(y, y + count).join("");
      y += count;
      if (kind === "same") x += count;
    }
    return { count, added: kind === "added", removed: kind === "removed", value };
  });
}

/** A run's lines, each keeping its "\n" except an unterminated last one. */
function patchLines(text) {
  const lines = text.split("\n").map((line) => `${line}\n`);
  if (text.endsWith("\n")) lines.pop();
  else lines[lines.length - 1] = lines[lines.length - 1].slice(0, -1);
  return lines;
}

/** jsdiff's structuredPatch hunks: { oldStart, oldLines, newStart, newLines, lines }. */
export function patchHunks(oldText, newText, context = 4) {
  const runs = diffLines(oldText, newText).map((run) => ({ ...run, lines: patchLines(run.value) }));
  // An empty unchanged run at the end closes the last hunk like any other.
  runs.push({ value: "", lines: [] });
  const hunks = [];
  let hunkOldStart = 0;
  let hunkNewStart = 0;
  let hunkLines = [];
  let oldLine = 1;
  let newLine = 1;
  const asContext = (lines) => lines.map((line) => ` ${line}`);
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (run.added || run.removed) {
      if (!hunkOldStart) {
        hunkOldStart = oldLine;
        hunkNewStart = newLine;
        const previous = runs[i - 1];
        if (previous) {
          hunkLines = context > 0 ? asContext(previous.lines.slice(-context)) : [];
          hunkOldStart -= hunkLines.length;
          hunkNewStart -= hunkLines.length;
        }
      }
      for (const line of run.lines) hunkLines.push((run.added ? "+" : "-") + line);
      if (run.added) newLine += run.lines.length;
      else oldLine += run.lines.length;
      continue;
    }
    if (hunkOldStart) {
      if (run.lines.length <= context * 2 && i < runs.length - 2) {
        for (const line of asContext(run.lines)) hunkLines.push(line);
      } else {
        const shown = Math.min(run.lines.length, context);
        for (const line of asContext(run.lines.slice(0, shown))) hunkLines.push(line);
        hunks.push({
          oldStart: hunkOldStart,
          oldLines: oldLine - hunkOldStart + shown,
          newStart: hunkNewStart,
          newLines: newLine - hunkNewStart + shown,
          lines: hunkLines,
        });
        hunkOldStart = 0;
        hunkNewStart = 0;
        hunkLines = [];
      }
    }
    oldLine += run.lines.length;
    newLine += run.lines.length;
  }
  for (const hunk of hunks) {
    const lines = [];
    for (const line of hunk.lines) {
      if (line.endsWith("\n")) lines.push(line.slice(0, -1));
      else lines.push(line, "\\ No newline at end of file");
    }
    hunk.lines = lines;
  }
  return hunks;
}

/** Unified diff text with file headers only, as jsdiff's formatPatch with FILE_HEADERS_ONLY. */
export function formatPatch(fileName, hunks) {
  const out = [`--- ${fileName}`, `+++ ${fileName}`];
  for (const hunk of hunks) {
    // Unified diff numbers an empty side from the line before it.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) out.push(line);
  }
  return `${out.join("\n")}\n`;
}
