// The engine's UTF-8 codec, once pihost installs it (js/runtime/globals.js).
// node:buffer's own UTF-8 loops are exact but an order of magnitude slower
// in the isolate on large text; both give WHATWG results (U+FFFD per maximal
// invalid subsequence, lone surrogates as U+FFFD). Kept apart from
// buffer.js so that module's exports stay Node's.
export let nativeUtf8 = null;

/** Lets the isolate's own codec do large UTF-8 conversions. */
export function useNativeUtf8(codec) {
  nativeUtf8 = codec;
}
