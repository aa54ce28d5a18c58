// The QuickJS-NG WebAssembly module pi runs codemode scripts in (quickjs-wasi,
// vendored unmodified under js/vendor/quickjs-wasi/), for where pihost's
// codemode runs outside pihost: under Node, where it is checked against pi
// (tests/pi-packages/pi-packages-differential.mjs hands the bytes out through
// the op this module calls). Inside pihost scripts run in a sandbox runtime
// instead (engine-vm.js). Compiled once, on the first script; a failed
// compile is tried again next time.
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
