// Default imports and re-exports of ES modules as jiti gives them (L9): the
// default of a module without one is the module; a default whose own
// `default` is a function is that function; re-exports of missing names are
// undefined; `import()` follows the same rules.
import noDefault, { a } from "./no-default";
import named from "./with-default";
import inner from "./double-default";
import * as middle from "./middle";
import { gone, noDefault as reexportedModule, renamedA, withDefault } from "./middle";

const describeValue = (value: any) =>
  typeof value === "function" ? `function ${value.name}` : value && typeof value === "object" ? Object.keys(value).sort() : value;

export default async function (_pi: any) {
  const dynamic: any = await import("./no-default");
  const dynamicDouble: any = await import("./double-default");
  const dynamicMiddle: any = await import("./middle");
  (globalThis as any).l9EsmDefaults = () => ({
    noDefault: describeValue(noDefault),
    noDefaultCall: (noDefault as any).f(),
    a,
    named: describeValue(named),
    inner: describeValue(inner),
    middle: Object.keys(middle).sort(),
    middleGone: typeof (middle as any).gone,
    gone: typeof gone,
    reexportedModule: describeValue(reexportedModule),
    renamedA,
    withDefault: describeValue(withDefault),
    noDefaultNamespace: describeValue((middle as any).noDefaultNamespace),
    dynamic: Object.keys(dynamic).sort(),
    dynamicDefault: describeValue(dynamic.default),
    dynamicGone: typeof dynamic.gone,
    dynamicDouble: describeValue(dynamicDouble.default),
    dynamicMiddleB: dynamicMiddle.b,
  });
}
