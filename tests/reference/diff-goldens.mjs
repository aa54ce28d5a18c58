// Names the cases in which two golden files differ (a committed one and a
// fresh recording), for scripts/test when a recording does not match: a
// whole-file comparison alone does not say which case moved, and a case
// that records differently only now and then is otherwise hard to find.
//
//   node tests/reference/diff-goldens.mjs <committed.json> <fresh.json>
import { readFileSync } from "node:fs";

const [committedPath, freshPath] = process.argv.slice(2);
const casesOf = (path) => {
  try {
    return JSON.parse(readFileSync(path, "utf8")).cases ?? {};
  } catch (error) {
    console.error(`${path}: ${error.message}`);
    return {};
  }
};
const committed = casesOf(committedPath);
const fresh = casesOf(freshPath);
const shown = (value) => (value === undefined ? "(none)" : JSON.stringify(value).slice(0, 400));
/** The paths of the leaves that differ (at most `limit`), so a long case's change is visible. */
const differences = (a, b, at = "", found = [], limit = 5) => {
  if (found.length >= limit || JSON.stringify(a) === JSON.stringify(b)) return found;
  const container = (value) => value !== null && typeof value === "object";
  if (!container(a) || !container(b) || Array.isArray(a) !== Array.isArray(b)) {
    found.push(`${at || "(whole)"}: ${shown(a)} → ${shown(b)}`);
    return found;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[key], b[key], `${at}[${JSON.stringify(key)}]`, found, limit);
  return found;
};
let differing = 0;
for (const name of new Set([...Object.keys(committed), ...Object.keys(fresh)])) {
  if (JSON.stringify(committed[name]) === JSON.stringify(fresh[name])) continue;
  differing++;
  console.error(`  ${name}\n    committed: ${shown(committed[name])}\n    now:       ${shown(fresh[name])}`);
  for (const line of differences(committed[name], fresh[name])) console.error(`    differs at ${line}`);
}
console.error(`${differing} case(s) differ`);
