// Replies terminals send about their colours. Only the colour-scheme report
// is exported by pi-tui: a terminal that supports mode 2031 answers
// `CSI ? 996 n` (and announces changes) with `CSI ? 997 ; 1 n` for dark and
// `CSI ? 997 ; 2 n` for light.

// Reports can arrive back to back in one read; the last one is current.
const SCHEME_REPORTS = /^(?:\x1b\[\?997;([12])n)+$/;

/** "dark" or "light" when `data` is nothing but scheme reports, otherwise undefined. */
export function parseTerminalColorSchemeReport(data) {
  const reports = data.match(SCHEME_REPORTS);
  if (!reports) return undefined;
  return reports[1] === "2" ? "light" : "dark";
}
