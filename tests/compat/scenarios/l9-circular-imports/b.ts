import { fromA } from "./a";
import { classAtLoad, fromAAtLoad } from "./c";

export const fromB = "B";
// Read when called, after a.ts has run.
export function readA() {
  return fromA;
}
export const cSaw = [fromAAtLoad, classAtLoad];
