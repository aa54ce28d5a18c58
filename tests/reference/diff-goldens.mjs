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
let differing = 0;
for (const name of new Set([...Object.keys(committed), ...Object.keys(fresh)])) {
  if (JSON.stringify(committed[name]) === JSON.stringify(fresh[name])) continue;
  differing++;
  console.error(`  ${name}\n    committed: ${shown(committed[name])}\n    now:       ${shown(fresh[name])}`);
}
console.error(`${differing} case(s) differ`);
