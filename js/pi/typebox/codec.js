// Codecs: a type paired with decode/encode functions that Value.Decode and
// Value.Encode run, kept under the type's hidden `~codec` mark. Wrapping a
// type that already has a codec chains the two, so decoding runs the inner
// codec first and encoding runs it last.

import { updateSchema } from "./schema-object.js";

export class EncodeBuilder {
  constructor(type, decode) {
    this.type = type;
    this.decode = decode;
  }
  Encode(callback) {
    const inner = IsCodec(this.type) ? this.type["~codec"] : undefined;
    const outerDecode = this.decode;
    const decode = inner ? (value) => outerDecode(inner.decode(value)) : outerDecode;
    const encode = inner ? (value) => inner.encode(callback(value)) : callback;
    return updateSchema(this.type, { "~codec": { decode, encode } }, {});
  }
}

export class DecodeBuilder {
  constructor(type) {
    this.type = type;
  }
  Decode(callback) {
    return new EncodeBuilder(this.type, callback);
  }
}

export function Codec(type) {
  return new DecodeBuilder(type);
}

/** A codec that only decodes; encoding through it throws. */
export function Decode(type, callback) {
  return Codec(type)
    .Decode(callback)
    .Encode(() => {
      throw Error("Encode not implemented");
    });
}

/** A codec that only encodes; decoding through it throws. */
export function Encode(type, callback) {
  return Codec(type)
    .Decode(() => {
      throw Error("Decode not implemented");
    })
    .Encode(callback);
}

export function IsCodec(value) {
  if (typeof value !== "object" || value === null || !("~codec" in value)) return false;
  const codec = value["~codec"];
  return typeof codec === "object" && codec !== null && "encode" in codec && "decode" in codec;
}
