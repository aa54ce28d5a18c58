// The QuickJS-NG WebAssembly module every codemode script runs in
// (quickjs-wasi, vendored unmodified under js/vendor/quickjs-wasi/). pihost
// ships the bytes inside its binary and hands them out through an op.
// Compiling them is slow enough to do once per runtime, on the first script
// rather than at start-up; a failed compile is tried again next time.
import { ops } from "../../../runtime/ops.js";

let compiling;

/** The compiled module, shared by every script of this runtime. */
export function loadQuickJsModule() {
  if (!compiling) {
    compiling = Promise.resolve()
      .then(() => WebAssembly.compile(ops.op_pihost_quickjs_wasm()))
      .catch((error) => {
        compiling = undefined;
        throw error;
      });
  }
  return compiling;
}
