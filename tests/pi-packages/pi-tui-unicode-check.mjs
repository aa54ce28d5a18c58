// Checks js/pi/pi-tui/unicode.js's grapheme clusters against Node's own
// Intl.Segmenter on seeded random strings: the property table was generated
// from this segmenter (tests/reference/gen-pi-tui-unicode.mjs), so any
// difference means the table or the rules are off. Run with Node 22:
//
//   node tests/pi-packages/pi-tui-unicode-check.mjs

import { graphemes } from "../../js/pi/pi-tui/unicode.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const reference = (s) => Array.from(segmenter.segment(s), (x) => x.segment);

// Code points that meet in the tricky rules: CR LF, controls, extenders,
// ZWJ emoji, regional indicators, Hangul jamo, Indic conjuncts, prepend.
const INTERESTING = [
  0x61, 0x20, 0x0d, 0x0a, 0x09, 0x1b, 0xad, 0x301, 0x308, 0x200b, 0x200c, 0x200d, 0xfe0f, 0x1f600, 0x1f469,
  0x1f466, 0x1f3fd, 0x1f1fa, 0x1f1f8, 0x915, 0x94d, 0x937, 0x93f, 0x903, 0x1100, 0x1161, 0x11a8, 0xac00, 0xac01,
  0x600, 0x0d4e, 0x111c2, 0x0e33, 0x0e01, 0x1f3f4, 0xe0067, 0xe007f, 0x2764, 0x4e2d, 0x1f9d1, 0x1f91d, 0x20e3,
  0x31, 0xd800,
];

let seed = 0x2545f491;
function random(n) {
  // xorshift32: the same strings on every run.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}

function anyCodePoint() {
  for (;;) {
    const cp = random(0x32000);
    if (cp < 0xd800 || cp > 0xdfff) return cp;
  }
}

let failures = 0;
let checked = 0;
function check(s) {
  checked++;
  const expected = JSON.stringify(reference(s));
  const actual = JSON.stringify(graphemes(s));
  if (expected === actual) return;
  if (failures++ < 20) console.log(`FAIL ${JSON.stringify(s)}\n    expected: ${expected}\n    actual:   ${actual}`);
}

for (let i = 0; i < 100000; i++) {
  let s = "";
  for (let k = 1 + random(8); k > 0; k--) s += String.fromCodePoint(INTERESTING[random(INTERESTING.length)]);
  check(s);
}
for (let i = 0; i < 100000; i++) {
  check(String.fromCodePoint(anyCodePoint(), anyCodePoint(), anyCodePoint()));
}
console.log(`${checked - failures} passed, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);
