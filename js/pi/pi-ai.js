// The pi-ai root as extensions see it (pi's extension view): TypeBox's Type
// and a StringEnum built on Type.Unsafe.
import { Type } from "pihost:pi/typebox.js";

export { Type };

/** `{ type: "string", enum: [...] }`, for providers that reject anyOf/const. */
export function StringEnum(values, options) {
  return Type.Unsafe({
    type: "string",
    enum: values,
    ...(options?.description && { description: options.description }),
    ...(options?.default && { default: options.default }),
  });
}
