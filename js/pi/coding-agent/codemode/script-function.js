// How a codemode script becomes a function, in either sandbox (pi's QuickJS
// VM under Node, pihost's sandbox runtime in the engine).

/** The file name scripts are evaluated as; stack frames show it. */
export const SCRIPT_FILE = "codemode.js";

// The script becomes the body of this async arrow function. The head shares
// the script's first line, so error positions count lines and columns as
// pi reports them.
export const wrapScript = (code) => `(async (tools, console) => {${code}\n})`;
