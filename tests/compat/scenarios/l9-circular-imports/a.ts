// One end of an import cycle: a.ts → b.ts → c.ts → a.ts.
import { fromB, readA } from "./b";

export const fromA = "A";
export class Registry {
  static label = "registry";
}
export const seenFromB = fromB;
export function readThroughB() {
  return readA();
}
