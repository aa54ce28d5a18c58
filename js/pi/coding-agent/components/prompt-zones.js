// OSC 133 prompt marks around a message's lines, so terminals that support
// them can jump between conversation turns.
const ZONE_START = "\x1b]133;A\x07";
const ZONE_END_AND_FINAL = "\x1b]133;B\x07\x1b]133;C\x07";

/**
 * Marks the first and last of `lines` without touching them: the lines a
 * container renders are shared between frames, so the marked copy is kept
 * in `holder.zoneLines` until they change.
 */
export function withPromptZone(holder, lines) {
  if (lines.length === 0) return lines;
  if (holder.zoneLines?.source !== lines) {
    const marked = [...lines];
    marked[0] = ZONE_START + marked[0];
    marked[marked.length - 1] = ZONE_END_AND_FINAL + marked[marked.length - 1];
    holder.zoneLines = { source: lines, lines: marked };
  }
  return holder.zoneLines.lines;
}
