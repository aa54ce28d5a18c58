// pi-ai's StringEnum: a string schema written as `enum`, which some
// providers accept where they reject anyOf/const.
import { Type } from "../typebox.js";

/** `{ type: "string", enum: [...] }`, for providers that reject anyOf/const. */
export function StringEnum(values, options) {
  return Type.Unsafe({
    type: "string",
    enum: values,
    ...(options?.description && { description: options.description }),
    ...(options?.default && { default: options.default }),
  });
}
