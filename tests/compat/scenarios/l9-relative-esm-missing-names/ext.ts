// Imports a name its own module no longer exports (L9): under jiti that is
// undefined, and calling it fails at the call, not when the file loads.
// Type-only imports vanish, even of a file that does not exist.
import { bump, counter, present, removed, type Shape } from "./lib";
import type { Nothing } from "./types-that-do-not-exist";
import * as lib from "./lib";

let square: Shape | Nothing | undefined;

export default function (pi: any) {
  // Changed before this module first reads it, so both jiti and ES bindings see it.
  bump();
  pi.registerCommand("use-removed", {
    description: "calls the removed function",
    handler: async () => (removed as any)(),
  });
  (globalThis as any).l9RelativeEsm = () => {
    let calling: string;
    try {
      (removed as any)();
      calling = "no error";
    } catch (error) {
      calling = error instanceof TypeError ? "TypeError at the call" : "other error";
    }
    return {
      present,
      removed: typeof removed,
      removedIsUndefined: removed === undefined,
      counter,
      namespaceKeys: Object.keys(lib).sort(),
      namespaceRemoved: typeof (lib as any).removed,
      calling,
      square: typeof square,
    };
  };
}
