// node:assert/strict: node:assert's strict mode, where equal, notEqual,
// deepEqual and notDeepEqual are the strict comparisons.
import { strict } from "../assert.js";

export default strict;
export const {
  AssertionError,
  ok,
  fail,
  equal,
  notEqual,
  deepEqual,
  notDeepEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  strictEqual,
  notStrictEqual,
  match,
  doesNotMatch,
  throws,
  rejects,
  doesNotThrow,
  doesNotReject,
  ifError,
} = strict;
export { strict };
