// npm packages as Node resolves and links them: CommonJS named exports seen
// from ESM (direct, re-exported, TypeScript's __exportStar), `exports`
// conditions and patterns, subpath `#imports`, JSON, require cycles.
// The packages live in tests/platform/fixtures/node_modules.
import { createRequire } from "node:module";
import * as named from "./fixtures/node_modules/cjs-named/index.js";
import namedDefault, { hello, answer } from "./fixtures/node_modules/cjs-named/index.js";
import * as reexport from "./fixtures/node_modules/cjs-reexport/index.js";
import * as compiled from "./fixtures/node_modules/ts-compiled/index.js";

const require = createRequire(new URL("./fixtures/entry.js", import.meta.url));

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: error.code };
  }
}

export async function run() {
  const dual = await import("./fixtures/node_modules/dual/lib/esm.mjs");
  return {
    namedKeys: Object.keys(named).sort(),
    hello: hello(),
    answer,
    defaultIsModuleExports: namedDefault.answer === 42 && typeof namedDefault.hello === "function",
    dash: named["dash-name"],
    reexportKeys: Object.keys(reexport).sort(),
    compiledKeys: Object.keys(compiled).sort(),
    shout: compiled.shout("hey"),
    widget: new compiled.Widget("w").name,
    required: {
      named: require("cjs-named").answer,
      dual: require("dual"),
      feature: require("dual/feature"),
      data: require("dual/data.json"),
      pattern: require("dual/sub/x"),
      cycle: require("cycle"),
      missing: attempt(() => require("no-such-package")),
      notExported: attempt(() => require("dual/lib/internal.js")),
      resolvedFile: require.resolve("cjs-reexport").endsWith("cjs-reexport/index.js"),
    },
    dualEsm: { flavor: dual.flavor, via: dual.via },
  };
}
