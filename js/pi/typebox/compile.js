// typebox/compile: Compile(type) → a Validator bound to one type. TypeBox
// generates code for speed; pihost walks the schema like Value does, so the
// validator is the Value functions with the type (and context) fixed.

import { SchemaChecker } from "./check.js";
import { Clean, Convert, Create, Decode, Default, Encode, Errors, HasCodec, ParseError } from "./value.js";

export class Validator {
  constructor(context, type) {
    this.context = context;
    this.type = type;
    this.checker = new SchemaChecker(type, { context });
    this.hasCodec = HasCodec(context, type);
  }
  /** Always false: pihost has no code generation (and so no `eval`). */
  IsAccelerated() {
    return false;
  }
  Context() {
    return this.context;
  }
  Type() {
    return this.type;
  }
  Check(value) {
    return this.checker.check(this.type, value);
  }
  Errors(value) {
    return Errors(this.context, this.type, value);
  }
  Parse(value) {
    if (this.Check(value)) return value;
    throw new ParseError(value, this.Errors(value));
  }
  Clean(value) {
    return Clean(this.context, this.type, value);
  }
  Convert(value) {
    return Convert(this.context, this.type, value);
  }
  Create() {
    return Create(this.context, this.type);
  }
  Default(value) {
    return Default(this.context, this.type, value);
  }
  // Without codecs, decoding and encoding are parsing.
  Decode(value) {
    return this.hasCodec ? Decode(this.context, this.type, value) : this.Parse(value);
  }
  Encode(value) {
    return this.hasCodec ? Encode(this.context, this.type, value) : this.Parse(value);
  }
}

export function Compile(...args) {
  const [context, type] = args.length >= 2 ? args : [{}, args[0]];
  return new Validator(context, type);
}

export { Code } from "./code.js";

export default Compile;
