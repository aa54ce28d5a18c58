// An import cycle (L9): under jiti a module's exports exist before it runs,
// so a module reached inside the cycle reads undefined rather than failing
// the load; later reads see the values.
import { Registry, readThroughB, seenFromB } from "./a";
import { cSaw } from "./b";

export default function (_pi: any) {
  (globalThis as any).l9Cycle = () => ({
    cSaw,
    seenFromB,
    readThroughB: readThroughB(),
    label: Registry.label,
  });
}
