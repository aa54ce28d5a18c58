// node:assert, written from Node's documentation and from observing Node 22.
// Messages follow Node's: the "a !== b" form for short primitives, a stacked
// "+ a / - b" form for other single-line values and a line diff of
// util.inspect output otherwise. The diff is a longest-common-subsequence
// diff, which can pair lines differently from Node's Myers diff in long,
// repetitive inputs. assert.ok cannot quote the caller's source expression
// (Node reads the calling file); it reports "value == true" instead, which is
// Node's own fallback when the source is unavailable.
import { inspect, isDeepStrictEqual } from "./util.js";
import { codedError, describeReceived, invalidArgType } from "./internal/errors.js";

const isDeepLooseEqual = isDeepStrictEqual[Symbol.for("pihost.util.isDeepLooseEqual")];

const isRegExp = (value) => value instanceof RegExp || Object.prototype.toString.call(value) === "[object RegExp]";
const isErrorLike = (value) => value instanceof Error || Object.prototype.toString.call(value) === "[object Error]";
const isObjectLike = (value) => value !== null && typeof value === "object";

// ---------------------------------------------------------------- messages

const HEADINGS = {
  deepStrictEqual: "Expected values to be strictly deep-equal:",
  strictEqual: "Expected values to be strictly equal:",
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: "Expected values to be loosely deep-equal:",
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notDeepEqualUnequal: "Expected values not to be loosely deep-equal:",
};

// Messages show values fully expanded, one property per line, keys sorted,
// so that a line diff lines up.
function show(value) {
  return inspect(value, {
    compact: false,
    customInspect: false,
    depth: 1000,
    maxArrayLength: Infinity,
    showHidden: false,
    showProxy: false,
    sorted: true,
    getters: true,
  });
}

const SHORT_PAIR_LENGTH = 12;
const INDICATOR_LINE_LENGTH = 80;
const CONTEXT_LINES = 5;

function diffMessage(actual, expected, operator, customMessage) {
  if (
    operator === "strictEqual" &&
    ((isObjectLike(actual) && isObjectLike(expected)) || (typeof actual === "function" && typeof expected === "function"))
  ) {
    operator = "strictEqualObject";
  }
  const shownActual = show(actual);
  const shownExpected = show(expected);
  if (shownActual === shownExpected && isObjectLike(actual) && isObjectLike(expected)) {
    return `${customMessage ?? "Values have same structure but are not reference-equal:"}\n\n${shownActual}\n`;
  }
  const actualLines = shownActual.split("\n");
  const expectedLines = shownExpected.split("\n");
  const heading = customMessage ?? HEADINGS[operator];
  const legend = "+ actual - expected";

  if (actualLines.length === 1 && expectedLines.length === 1 && (!isObjectLike(actual) || !isObjectLike(expected))) {
    let length = shownActual.length + shownExpected.length;
    if (typeof actual === "string") length -= 2;
    if (typeof expected === "string") length -= 2;
    if (length <= SHORT_PAIR_LENGTH && (actual !== 0 || expected !== 0)) {
      return `${heading}\n\n${shownActual} !== ${shownExpected}\n`;
    }
    let stacked = `\n+ ${shownActual}\n- ${shownExpected}`;
    const column = typeof actual === "string" && typeof expected === "string" ? firstDifference(shownActual, shownExpected) : -1;
    if (column !== -1) stacked += `\n${" ".repeat(column + 2)}^`;
    return `${heading}\n${legend}\n${stacked}\n`;
  }

  const { text, skipped } = lineDiff(actualLines, expectedLines, isObjectLike(actual));
  return `${heading}\n${legend}${skipped ? "\n... Skipped lines" : ""}\n\n${text}\n`;
}

// Where a caret under the stacked strings should point; -1 for none: the
// difference is obvious in the first characters, or the lines are too long.
function firstDifference(a, b) {
  if (a.length + b.length > INDICATOR_LINE_LENGTH) return -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return i >= 3 ? i : -1;
  }
  return a.length !== b.length ? a.length : -1;
}

// A line diff: common lines are indented by two spaces, lines only in
// `actual` are marked "+", lines only in `expected` "-". In object output a
// trailing comma alone does not make lines differ. Long runs of common lines
// are cut down to their first five lines and the line before a change.
function lineDiff(actualLines, expectedLines, ignoreCommas) {
  const same = (a, b) => a === b || (ignoreCommas && (`${a},` === b || a === `${b},`));
  const n = actualLines.length;
  const m = expectedLines.length;
  const ops = [];
  if (n * m > 4_000_000) {
    for (const line of actualLines) ops.push(["+", line]);
    for (const line of expectedLines) ops.push(["-", line]);
  } else {
    // common[i][j]: length of the longest common subsequence of the suffixes.
    const common = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        common[i][j] = same(actualLines[i], expectedLines[j])
          ? common[i + 1][j + 1] + 1
          : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && same(actualLines[i], expectedLines[j])) {
        const a = actualLines[i++];
        const b = expectedLines[j++];
        ops.push([" ", b.length > a.length ? b : a]);
      } else if (i < n && (j === m || common[i + 1][j] >= common[i][j + 1])) {
        ops.push(["+", actualLines[i++]]);
      } else {
        ops.push(["-", expectedLines[j++]]);
      }
    }
  }

  const out = [];
  let skipped = false;
  let run = [];
  const flushRun = (beforeChange) => {
    out.push(...run.slice(0, CONTEXT_LINES));
    if (beforeChange && run.length > CONTEXT_LINES) {
      if (run.length <= CONTEXT_LINES + 2) {
        out.push(...run.slice(CONTEXT_LINES));
      } else {
        out.push("...", run.at(-1));
        skipped = true;
      }
    }
    run = [];
  };
  for (const [mark, line] of ops) {
    if (mark === " ") {
      run.push(`  ${line}`);
      continue;
    }
    if (run.length > 0) flushRun(true);
    out.push(`${mark} ${line}`);
  }
  flushRun(false);
  return { text: out.join("\n").trimEnd(), skipped };
}

function truncate(text, limit) {
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

function generatedMessage(actual, expected, operator, customMessage) {
  if (operator === "deepStrictEqual" || operator === "strictEqual") {
    return diffMessage(actual, expected, operator, customMessage);
  }
  if (operator === "notDeepStrictEqual" || operator === "notStrictEqual") {
    let heading = HEADINGS[operator];
    if (operator === "notStrictEqual" && (isObjectLike(actual) || typeof actual === "function")) {
      heading = HEADINGS.notStrictEqualObject;
    }
    let lines = show(actual).split("\n");
    if (lines.length > 50) lines = [...lines.slice(0, 46), "..."];
    if (lines.length === 1) return `${heading}${lines[0].length > 5 ? "\n\n" : " "}${lines[0]}`;
    return `${heading}\n\n${lines.join("\n")}\n`;
  }
  const shownActual = show(actual);
  const shownExpected = show(expected);
  if (operator === "notDeepEqual" && shownActual === shownExpected) {
    return truncate(`${HEADINGS.notDeepEqual}\n\n${shownActual}`, 1024);
  }
  const a = truncate(shownActual, 512);
  const b = truncate(shownExpected, 512);
  if (operator === "deepEqual") return `${HEADINGS.deepEqual}\n\n${a}\n\nshould loosely deep-equal\n\n${b}`;
  if (operator === "notDeepEqual") return `${HEADINGS.notDeepEqualUnequal}\n\n${a}\n\nshould not loosely deep-equal\n\n${b}`;
  return `${a} ${operator} ${b}`;
}

// ---------------------------------------------------------------- AssertionError

// A stack-less look-alike: when both sides are errors, messages show them as
// "[Error: text]" rather than with their stack traces.
function withoutStack(error) {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error)), error);
  Object.defineProperty(copy, "message", { value: error.message });
  if (error.cause !== undefined) {
    Object.defineProperty(copy, "cause", { value: isErrorLike(error.cause) ? withoutStack(error.cause) : error.cause });
  }
  return copy;
}

export class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== "object") throw invalidArgType("options", "of type object", options);
    const { message, actual, expected, operator } = options;
    let shownActual = actual;
    let shownExpected = expected;
    if (message == null && actual instanceof Error && expected instanceof Error && "stack" in actual && "stack" in expected) {
      shownActual = withoutStack(actual);
      shownExpected = withoutStack(expected);
    }
    let text;
    if (message != null) {
      // Node keeps the diff under a custom message for the strict comparisons.
      text =
        operator === "deepStrictEqual" || operator === "strictEqual"
          ? generatedMessage(shownActual, shownExpected, operator, String(message))
          : String(message);
    } else {
      text = generatedMessage(shownActual, shownExpected, operator);
    }
    super(text);
    this.generatedMessage = message == null;
    Object.defineProperty(this, "name", { value: "AssertionError", writable: true, configurable: true, enumerable: false });
    this.code = "ERR_ASSERTION";
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
    this.diff = "simple";
    if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(this, options.stackStartFn || options.stackStartFunction);
  }

  toString() {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}

function throwAssertion(options) {
  if (options.message instanceof Error) throw options.message;
  throw new AssertionError(options);
}

// ---------------------------------------------------------------- assertions

function checkTruthy(fn, args) {
  const [value, message] = args;
  if (value) return;
  if (args.length === 0) {
    const err = new AssertionError({ message: "No value argument passed to `assert.ok()`", actual: undefined, expected: true, operator: "==", stackStartFn: fn });
    err.generatedMessage = true;
    throw err;
  }
  throwAssertion({ actual: value, expected: true, message, operator: "==", stackStartFn: fn });
}

let warnedAboutFail = false;

// fail(), fail(message) and the deprecated fail(actual, expected[, message[, operator]]).
function failAssertion(actual, expected, message, operator, stackStartFn) {
  const argCount = arguments.length;
  let generated = false;
  if (actual == null && argCount <= 1) {
    generated = true;
    message = "Failed";
  } else if (argCount === 1) {
    message = actual;
    actual = undefined;
  } else {
    if (!warnedAboutFail) {
      warnedAboutFail = true;
      globalThis.process?.emitWarning?.(
        "assert.fail() with more than one argument is deprecated. Please use assert.strictEqual() instead or only pass a message.",
        "DeprecationWarning",
        "DEP0094",
      );
    }
    if (argCount === 2) operator = "!=";
  }
  if (message instanceof Error) throw message;
  const err = new AssertionError({
    actual,
    expected,
    operator: operator === undefined ? "fail" : operator,
    message,
    stackStartFn: stackStartFn || failAssertion,
  });
  if (generated) err.generatedMessage = true;
  throw err;
}
Object.defineProperty(failAssertion, "name", { value: "fail" });

function equal(actual, expected, message) {
  // eslint-disable-next-line eqeqeq
  if (!(actual == expected || (Number.isNaN(actual) && Number.isNaN(expected)))) {
    throwAssertion({ actual, expected, message, operator: "==", stackStartFn: equal });
  }
}

function notEqual(actual, expected, message) {
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) {
    throwAssertion({ actual, expected, message, operator: "!=", stackStartFn: notEqual });
  }
}

function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) throwAssertion({ actual, expected, message, operator: "strictEqual", stackStartFn: strictEqual });
}

function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) throwAssertion({ actual, expected, message, operator: "notStrictEqual", stackStartFn: notStrictEqual });
}

function deepEqual(actual, expected, message) {
  if (!isDeepLooseEqual(actual, expected)) throwAssertion({ actual, expected, message, operator: "deepEqual", stackStartFn: deepEqual });
}

function notDeepEqual(actual, expected, message) {
  if (isDeepLooseEqual(actual, expected)) throwAssertion({ actual, expected, message, operator: "notDeepEqual", stackStartFn: notDeepEqual });
}

function deepStrictEqual(actual, expected, message) {
  if (!isDeepStrictEqual(actual, expected)) {
    throwAssertion({ actual, expected, message, operator: "deepStrictEqual", stackStartFn: deepStrictEqual });
  }
}

function notDeepStrictEqual(actual, expected, message) {
  if (isDeepStrictEqual(actual, expected)) {
    throwAssertion({ actual, expected, message, operator: "notDeepStrictEqual", stackStartFn: notDeepStrictEqual });
  }
}

function checkMatch(string, regexp, message, fn, wantMatch) {
  if (!isRegExp(regexp)) throw invalidArgType("regexp", "an instance of RegExp", regexp);
  if (typeof string === "string" && regexp.test(string) === wantMatch) return;
  if (message instanceof Error) throw message;
  const generated = message === undefined;
  let text = message;
  if (generated) {
    if (typeof string !== "string") {
      text = `The "string" argument must be of type string.${describeReceived(string)}`;
    } else {
      text = `${wantMatch ? "The input did not match" : "The input was expected to not match"} the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n`;
    }
  }
  const err = new AssertionError({ actual: string, expected: regexp, message: text, operator: fn.name, stackStartFn: fn });
  err.generatedMessage = generated;
  throw err;
}

function match(string, regexp, message) {
  checkMatch(string, regexp, message, match, true);
}

function doesNotMatch(string, regexp, message) {
  checkMatch(string, regexp, message, doesNotMatch, false);
}

function ifError(err) {
  if (err === null || err === undefined) return;
  let message = "ifError got unwanted exception: ";
  message += isObjectLike(err) && typeof err.message === "string" ? (err.message.length === 0 && err.constructor ? err.constructor.name : err.message) : inspect(err);
  throw new AssertionError({ actual: err, expected: null, operator: "ifError", message, stackStartFn: ifError });
}

// ---------------------------------------------------------------- throws and rejects

const NOTHING_THROWN = Symbol("nothing thrown");

function isThenable(value) {
  return value instanceof Promise || (isObjectLike(value) && typeof value.then === "function" && typeof value.catch === "function");
}

function caught(fn) {
  if (typeof fn !== "function") throw invalidArgType("fn", "of type function", fn);
  try {
    fn();
  } catch (err) {
    return err;
  }
  return NOTHING_THROWN;
}

async function rejectionOf(promiseFn) {
  let promise;
  if (typeof promiseFn === "function") {
    promise = promiseFn();
    if (!isThenable(promise)) {
      const got = describeReceived(promise).replace(/^ Received /, "");
      throw codedError(
        TypeError,
        "ERR_INVALID_RETURN_VALUE",
        `Expected instance of Promise to be returned from the "promiseFn" function but got ${got}.`,
      );
    }
  } else if (isThenable(promiseFn)) {
    promise = promiseFn;
  } else {
    throw invalidArgType("promiseFn", "of type function or an instance of Promise", promiseFn);
  }
  try {
    await promise;
  } catch (err) {
    return err;
  }
  return NOTHING_THROWN;
}

const ERROR_SPEC = "of type function or an instance of Error, RegExp, or Object";

function expectFailure(fn, actual, args) {
  let [expected, message] = args;
  if (typeof expected === "string") {
    if (args.length === 2) throw invalidArgType("error", ERROR_SPEC, expected);
    const same = isObjectLike(actual) ? actual.message === expected : actual === expected;
    if (same) {
      const what = isObjectLike(actual) ? `error message "${actual.message}"` : `error "${actual}"`;
      throw codedError(TypeError, "ERR_AMBIGUOUS_ARGUMENT", `The "error/message" argument is ambiguous. The ${what} is identical to the message.`);
    }
    message = expected;
    expected = undefined;
  } else if (expected != null && typeof expected !== "object" && typeof expected !== "function") {
    throw invalidArgType("error", ERROR_SPEC, expected);
  }
  if (actual === NOTHING_THROWN) {
    let details = expected?.name ? ` (${expected.name})` : "";
    details += message ? `: ${message}` : ".";
    const kind = fn === rejects ? "rejection" : "exception";
    throwAssertion({ actual: undefined, expected, operator: fn.name, message: `Missing expected ${kind}${details}`, stackStartFn: fn });
  }
  if (expected) checkExpectedError(fn, actual, expected, message);
}

// Stand-ins holding only the compared keys, so that the diff shows just those.
class Comparison {
  constructor(source, keys, actual) {
    for (const key of keys) {
      if (!(key in source)) continue;
      const value = source[key];
      this[key] = actual !== undefined && typeof actual[key] === "string" && isRegExp(value) && value.test(actual[key]) ? actual[key] : value;
    }
  }
}

function checkExpectedError(fn, actual, expected, message) {
  let text;
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      text = `The error is expected to be an instance of "${expected.name}". Received `;
      if (isErrorLike(actual)) {
        const name = actual.constructor?.name || actual.name;
        text += expected.name === name ? "an error with identical name but a different prototype." : `"${name}"`;
        if (actual.message) text += `\n\nError message:\n\n${actual.message}`;
      } else {
        text += `"${inspect(actual, { depth: -1 })}"`;
      }
    } else {
      const result = Reflect.apply(expected, {}, [actual]);
      if (result === true) return;
      text = `The ${expected.name ? `"${expected.name}" ` : ""}validation function is expected to return "true". Received ${inspect(result)}`;
      if (isErrorLike(actual)) text += `\n\nCaught error:\n\n${actual}`;
    }
  } else if (isRegExp(expected)) {
    const str = String(actual);
    if (expected.test(str)) return;
    text = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
  } else if (!isObjectLike(actual)) {
    const err = new AssertionError({ actual, expected, message, operator: "deepStrictEqual", stackStartFn: fn });
    err.operator = fn.name;
    throw err;
  } else {
    const keys = Object.keys(expected);
    if (expected instanceof Error) keys.push("name", "message");
    else if (keys.length === 0) {
      throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", `The argument 'error' may not be an empty object. Received {}`);
    }
    for (const key of keys) {
      if (typeof actual[key] === "string" && isRegExp(expected[key]) && expected[key].test(actual[key])) continue;
      if (key in actual && isDeepStrictEqual(actual[key], expected[key])) continue;
      if (message) throwAssertion({ actual, expected, message, operator: fn.name, stackStartFn: fn });
      const err = new AssertionError({
        actual: new Comparison(actual, keys),
        expected: new Comparison(expected, keys, actual),
        operator: "deepStrictEqual",
        stackStartFn: fn,
      });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    return;
  }
  const err = new AssertionError({ actual, expected, message: message || text, operator: fn.name, stackStartFn: fn });
  err.generatedMessage = !message;
  throw err;
}

function matchesUnwanted(actual, expected) {
  if (typeof expected !== "function") {
    if (isRegExp(expected)) return expected.test(String(actual));
    throw invalidArgType("expected", "of type function or an instance of RegExp", expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (Error.isPrototypeOf(expected)) return false;
  return Reflect.apply(expected, {}, [actual]) === true;
}

function expectNoFailure(fn, actual, args) {
  if (actual === NOTHING_THROWN) return;
  let [expected, message] = args;
  if (typeof expected === "string") {
    message = expected;
    expected = undefined;
  }
  if (!expected || matchesUnwanted(actual, expected)) {
    const kind = fn === doesNotReject ? "rejection" : "exception";
    throwAssertion({
      actual,
      expected,
      operator: fn.name,
      message: `Got unwanted ${kind}${message ? `: ${message}` : "."}\nActual message: "${actual?.message}"`,
      stackStartFn: fn,
    });
  }
  throw actual;
}

function throws(fn, ...args) {
  expectFailure(throws, caught(fn), args);
}

async function rejects(promiseFn, ...args) {
  expectFailure(rejects, await rejectionOf(promiseFn), args);
}

function doesNotThrow(fn, ...args) {
  expectNoFailure(doesNotThrow, caught(fn), args);
}

async function doesNotReject(promiseFn, ...args) {
  expectNoFailure(doesNotReject, await rejectionOf(promiseFn), args);
}

// ---------------------------------------------------------------- exports

/** assert(value[, message]), also assert.ok: throws unless value is truthy. */
function ok(...args) {
  checkTruthy(ok, args);
}

/** node:assert/strict: assert with the strict comparisons under the loose names. */
function strict(...args) {
  checkTruthy(strict, args);
}

const common = {
  AssertionError,
  ok,
  fail: failAssertion,
  deepStrictEqual,
  notDeepStrictEqual,
  strictEqual,
  notStrictEqual,
  match,
  doesNotMatch,
  throws,
  rejects,
  doesNotThrow,
  doesNotReject,
  ifError,
};
Object.assign(ok, common, { equal, notEqual, deepEqual, notDeepEqual, strict });
Object.assign(strict, common, {
  equal: strictEqual,
  notEqual: notStrictEqual,
  deepEqual: deepStrictEqual,
  notDeepEqual: notDeepStrictEqual,
  strict,
});

export default ok;
export {
  ok,
  equal,
  notEqual,
  deepEqual,
  notDeepEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  strictEqual,
  notStrictEqual,
  match,
  doesNotMatch,
  throws,
  rejects,
  doesNotThrow,
  doesNotReject,
  ifError,
  strict,
};
export { failAssertion as fail };
