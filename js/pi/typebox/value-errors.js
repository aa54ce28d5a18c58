// The errors Value's asserting operations throw: the operation's name as the
// message, and the value with its validation errors as the hidden cause.

export class AssertError extends Error {
  constructor(source, value, errors) {
    super(source);
    Object.defineProperty(this, "cause", { value: { source, errors, value }, writable: false, configurable: false, enumerable: false });
  }
}

export class ParseError extends AssertError {
  constructor(value, errors) {
    super("Parse", value, errors);
  }
}
