// node:util as extensions and libraries use it: format and inspect output,
// promisify (custom and plain), types, deep equality, parseArgs.
import util, { format, inspect, promisify, types, isDeepStrictEqual, parseArgs, stripVTControlCharacters } from "node:util";

export async function run() {
  const circular = { name: "loop" };
  circular.self = circular;
  const sleep = promisify((ms, callback) => setTimeout(() => callback(null, ms * 2), ms));
  const failing = promisify((callback) => callback(new Error("nope")));
  class Point {
    constructor() {
      this.x = 1;
      this.y = 2;
    }
  }
  return {
    format: [
      format("%s is %d years and %i days", "pi", 42.5, 7.9),
      format("%j and %o", { a: 1 }, [1]),
      format("%O", { nested: { deep: { deeper: { deepest: 1 } } } }),
      format("100%% sure", "extra", 3),
      format(1, 2, "three"),
    ],
    inspect: [
      inspect({ a: 1, b: "two", c: [1, 2, 3], d: { e: { f: { g: 1 } } } }),
      inspect(circular),
      inspect(new Map([["k", 1]])),
      inspect(new Set([1, "a"])),
      inspect([undefined, null, 1n, Symbol("s")]),
      inspect("quote's"),
      inspect(new Point()),
      inspect(function named() {}),
      inspect(class Klass {}),
      inspect({ long: "x".repeat(100), other: 1 }),
      inspect(new Error("boom")).split("\n")[0],
      inspect({ a: 1 }, { compact: false }),
      inspect(Array.from({ length: 120 }, (_, i) => i)).split("\n").length,
    ],
    promisify: [await sleep(5), await failing().catch((error) => error.message)],
    custom: typeof promisify.custom,
    types: [
      types.isPromise(Promise.resolve()),
      types.isDate(new Date()),
      types.isRegExp(/x/),
      types.isAsyncFunction(async () => {}),
      types.isUint8Array(new Uint8Array()),
      types.isMap(new Map()),
    ],
    deepEqual: [isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), isDeepStrictEqual([1], ["1"])],
    parseArgs: parseArgs({
      args: ["-v", "--name", "pi", "file.txt"],
      options: { verbose: { type: "boolean", short: "v" }, name: { type: "string" } },
      allowPositionals: true,
    }),
    strip: stripVTControlCharacters("\u001b[31mred\u001b[0m"),
    inherits: typeof util.inherits,
    textEncoder: util.TextEncoder === TextEncoder,
  };
}
