// node:vm as far as the QuickJS backend allows (docs/engine-notes.md, note
// 12): code run in this context (runInThisContext, Script#runInThisContext,
// many runs of one Script), compileFunction with parameters and context
// extensions, isContext, and the errors a syntax error or a throwing
// script give. New contexts (createContext, runInNewContext) cannot be
// made there; tests/platform.rs checks that they throw instead.
import vm from "node:vm";

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    // The engine words its syntax errors its own way: the class is what is compared.
    return { error: { name: error.name, isSyntaxError: error instanceof SyntaxError, message: error instanceof SyntaxError ? undefined : error.message } };
  }
}

export async function run() {
  const counter = new vm.Script("globalThis.__vmRuns = (globalThis.__vmRuns ?? 0) + 1");
  const runs = [counter.runInThisContext(), counter.runInThisContext(), counter.runInThisContext()];
  vm.runInThisContext("var vmDeclared = 'declared'; globalThis.vmAssigned = 1");
  const result = {
    thisContext: vm.runInThisContext("typeof globalThis.setTimeout + ':' + (1 + 1)"),
    scriptInThisContext: new vm.Script("[typeof Array, 6 * 7]").runInThisContext(),
    runs,
    declared: [typeof globalThis.vmDeclared, globalThis.vmDeclared, globalThis.vmAssigned],
    completionValue: vm.runInThisContext("let a = 2; a * 21"),
    builtins: vm.runInThisContext("[JSON.stringify({ a: [1] }), Math.max(1, 5), [3, 1, 2].sort().join('')]"),
    isContext: [vm.isContext({}), vm.isContext(globalThis)],
    scriptIsClass: [typeof vm.Script, counter instanceof vm.Script],
    compileFunction: vm.compileFunction("return a + b", ["a", "b"])(2, 3),
    compileWithExtensions: vm.compileFunction("return typeof extra + ':' + extra.n", [], { contextExtensions: [{ extra: { n: 7 } }] })(),
    syntax: attempt(() => new vm.Script("let = = 1")),
    syntaxInThisContext: attempt(() => vm.runInThisContext("function (")),
    syntaxInFunction: attempt(() => vm.compileFunction("return )")),
    thrown: attempt(() => vm.runInThisContext("throw new TypeError('from the script')")),
    missing: attempt(() => vm.runInThisContext("notDefinedAnywhere + 1")),
    badArgument: attempt(() => new vm.Script(42, { filename: 5 })),
  };
  delete globalThis.__vmRuns;
  delete globalThis.vmAssigned;
  return result;
}
