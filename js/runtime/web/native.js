// The Rust ops behind the web globals. The modules here never reach for
// `Deno.core` themselves: the runtime hands the ops in at start-up, and the
// differential tests hand in fakes, so the same code runs in both places.

export let nativeOps = null;

export function setNativeOps(ops) {
  nativeOps = ops;
}

/** The ops, or a TypeError naming the missing set-up instead of a null dereference. */
export function requireOps() {
  if (nativeOps === null) throw new TypeError("pihost web ops are not installed (setNativeOps was not called)");
  return nativeOps;
}
