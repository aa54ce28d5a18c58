// A diff from the edit tool ("+12 text", "-12 text", " 12 text", "   ...")
// coloured for the terminal: removed lines red, added green, context dim.
// When exactly one line is replaced by one line, the changed words are
// shown in inverse on both.
import { diffWords } from "../word-diff.js";
import { currentTheme } from "./theme.js";

/** { prefix, lineNum, content } of a numbered diff line; null for anything else. */
function parseDiffLine(line) {
  const match = line.match(/^([+-\s])(\s*\d*)\s(.*)$/);
  return match ? { prefix: match[1], lineNum: match[2], content: match[3] } : null;
}

const replaceTabs = (text) => text.replace(/\t/g, "   ");

/**
 * Both lines with their changed words in inverse. Shared indentation is set
 * aside first so that an insertion at the line's start cannot claim it, and
 * the first change on each side keeps its leading whitespace out of the
 * highlight.
 */
function highlightChangedWords(theme, oldContent, newContent) {
  let indentLength = 0;
  while (
    indentLength < oldContent.length &&
    oldContent[indentLength] === newContent[indentLength] &&
    /\s/.test(oldContent[indentLength])
  ) {
    indentLength++;
  }
  const indent = oldContent.slice(0, indentLength);
  let removedLine = indent;
  let addedLine = indent;
  let firstRemoved = true;
  let firstAdded = true;
  const highlight = (value, isFirst) => {
    const leading = isFirst ? value.match(/^(\s*)/)[1] : "";
    const rest = value.slice(leading.length);
    return leading + (rest ? theme.inverse(rest) : "");
  };
  for (const part of diffWords(oldContent.slice(indentLength), newContent.slice(indentLength))) {
    if (part.removed) {
      removedLine += highlight(part.value, firstRemoved);
      firstRemoved = false;
    } else if (part.added) {
      addedLine += highlight(part.value, firstAdded);
      firstAdded = false;
    } else {
      removedLine += part.value;
      addedLine += part.value;
    }
  }
  return { removedLine, addedLine };
}

/** Collects the lines from `start` on that parse with `prefix`; returns them and where they end. */
function collectRun(lines, start, prefix) {
  const run = [];
  let i = start;
  for (; i < lines.length; i++) {
    const parsed = parseDiffLine(lines[i]);
    if (!parsed || parsed.prefix !== prefix) break;
    run.push(parsed);
  }
  return { run, end: i };
}

/** The diff text, coloured line by line with the current theme. */
export function renderDiff(diffText, _options = {}) {
  const theme = currentTheme();
  const removedText = (lineNum, text) => theme.fg("toolDiffRemoved", `-${lineNum} ${text}`);
  const addedText = (lineNum, text) => theme.fg("toolDiffAdded", `+${lineNum} ${text}`);
  const lines = diffText.split("\n");
  const result = [];
  let i = 0;
  while (i < lines.length) {
    const parsed = parseDiffLine(lines[i]);
    if (!parsed) {
      result.push(theme.fg("toolDiffContext", lines[i]));
      i++;
    } else if (parsed.prefix === "-") {
      const removed = collectRun(lines, i, "-");
      const added = collectRun(lines, removed.end, "+");
      i = added.end;
      if (removed.run.length === 1 && added.run.length === 1) {
        const [oldLine] = removed.run;
        const [newLine] = added.run;
        const { removedLine, addedLine } = highlightChangedWords(theme, replaceTabs(oldLine.content), replaceTabs(newLine.content));
        result.push(removedText(oldLine.lineNum, removedLine), addedText(newLine.lineNum, addedLine));
      } else {
        for (const line of removed.run) result.push(removedText(line.lineNum, replaceTabs(line.content)));
        for (const line of added.run) result.push(addedText(line.lineNum, replaceTabs(line.content)));
      }
    } else if (parsed.prefix === "+") {
      result.push(addedText(parsed.lineNum, replaceTabs(parsed.content)));
      i++;
    } else {
      result.push(theme.fg("toolDiffContext", ` ${parsed.lineNum} ${replaceTabs(parsed.content)}`));
      i++;
    }
  }
  return result.join("\n");
}
