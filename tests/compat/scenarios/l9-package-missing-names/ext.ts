// Imports names packages do not export (L9): an ES package's removed
// helper, a CommonJS package's name it never had. Under jiti both are
// undefined; the names the packages have still work, and the package's own
// import of a name its file lacks is lenient too.
import packageDefault, { format, helper, internalSeen, oldHelper } from "l9-esm-package";
import commonJs, { assigned, never, visible } from "l9-cjs-package";

export default function (_pi: any) {
  (globalThis as any).l9Packages = () => ({
    packageDefault,
    helper: helper(),
    formatted: format("x"),
    oldHelper: typeof oldHelper,
    internalSeen,
    commonJsKeys: Object.keys(commonJs).sort(),
    visible,
    assigned,
    never: typeof never,
  });
}
