// Default, named and namespace imports of CommonJS files and JSON, as jiti
// hands them over (L9, L7): the default is module.exports, or its own
// `default` when the module is marked __esModule and that is a function;
// any name reads off module.exports; a JSON file's keys import by name.
import plain, { extra, missing as plainMissing } from "./plain.cjs";
import * as plainNamespace from "./plain.cjs";
import compiled, { other } from "./compiled.cjs";
import * as compiledNamespace from "./compiled.cjs";
import objectDefault, { sibling } from "./object-default.cjs";
import hiddenDefault, { another, hidden } from "./hidden.js";
import data, { name, version, nothing } from "./data.json";

const describeValue = (value: any) =>
  typeof value === "function" ? `function ${value.name}` : value && typeof value === "object" ? Object.keys(value).sort() : value;

export default async function (_pi: any) {
  const dynamicCompiled: any = await import("./compiled.cjs");
  const dynamicPlain: any = await import("./plain.cjs");
  (globalThis as any).l9CommonJs = () => ({
    plain: describeValue(plain),
    plainCall: plain(),
    extra,
    plainMissing: typeof plainMissing,
    plainNamespace: Object.keys(plainNamespace).sort(),
    plainNamespaceDefault: describeValue(plainNamespace.default),
    compiled: describeValue(compiled),
    other,
    compiledNamespace: Object.keys(compiledNamespace).sort(),
    compiledNamespaceDefault: describeValue((compiledNamespace as any).default),
    objectDefault: describeValue(objectDefault),
    sibling,
    hiddenDefault: describeValue(hiddenDefault),
    hidden,
    another,
    data: describeValue(data),
    name,
    version,
    nothing: typeof nothing,
    dynamicCompiledDefault: describeValue(dynamicCompiled.default),
    dynamicPlainDefault: describeValue(dynamicPlain.default),
    dynamicPlainExtra: dynamicPlain.extra,
  });
}
