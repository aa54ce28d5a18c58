// A Node-style console for extensions: Node's formatting (util.format and
// util.inspect, not the engine's), log/info/debug to stdout and
// error/warn/trace to stderr through pihost's write op, so that an embedder
// (pihost serve, whose stdout is the protocol) can send all of it to stderr.
import { core, ops } from "pihost:runtime/ops.js";
import {
  ArrayPrototypeJoin,
  ArrayPrototypeMap,
  ArrayPrototypeSlice,
  ReflectApply,
  SafeMap,
  StringPrototypeSlice,
  StringPrototypeSplit,
} from "pihost:runtime/primordials.js";

// Node's util.inspect, from deno_node, loaded on the first message.
const util = () => core.loadExtScript("ext:deno_node/internal/util/inspect.mjs");
/** `[first, ...rest]` without the array iterator. */
function prepend(first, rest) {
  const list = [first];
  for (let index = 0; index < rest.length; index++) list[index + 1] = rest[index];
  return list;
}

const formatWithOptions = (options, args) => ReflectApply(util().formatWithOptions, undefined, prepend(options, args));
const inspect = (value, options) => util().inspect(value, options);

let indent = "";
const counts = new SafeMap();
const timers = new SafeMap();

function write(toStderr, args) {
  const text = formatWithOptions({ colors: false }, args);
  const indented = indent
    ? ArrayPrototypeJoin(ArrayPrototypeMap(StringPrototypeSplit(text, "\n"), (line) => indent + line), "\n")
    : text;
  ops.op_pihost_write(`${indented}\n`, toStderr);
}

function elapsed(label) {
  const started = timers.get(label);
  if (started === undefined) {
    write(true, [`Warning: No such label '${label}' for console.timeEnd()`]);
    return undefined;
  }
  const ms = performance.now() - started;
  return ms < 1000 ? `${ms.toFixed(3)}ms` : `${(ms / 1000).toFixed(3)}s`;
}

export const console = {
  log: (...args) => write(false, args),
  info: (...args) => write(false, args),
  debug: (...args) => write(false, args),
  error: (...args) => write(true, args),
  warn: (...args) => write(true, args),
  trace: (...args) => {
    const stack = ArrayPrototypeJoin(ArrayPrototypeSlice(StringPrototypeSplit(new Error().stack, "\n"), 1), "\n");
    write(true, [`Trace: ${formatWithOptions({}, args)}\n${stack}`]);
  },
  dir: (value, options) => ops.op_pihost_write(`${indent}${inspect(value, { ...options, colors: false })}\n`, false),
  table: (data) => write(false, [data]),
  assert: (condition, ...args) => {
    if (!condition) write(true, args.length > 0 ? prepend("Assertion failed:", args) : ["Assertion failed"]);
  },
  count: (label = "default") => {
    const next = (counts.get(label) ?? 0) + 1;
    counts.set(label, next);
    write(false, [`${label}: ${next}`]);
  },
  countReset: (label = "default") => counts.delete(label),
  group: (...args) => {
    if (args.length > 0) write(false, args);
    indent += "  ";
  },
  groupCollapsed: (...args) => ReflectApply(console.group, undefined, args),
  groupEnd: () => {
    indent = StringPrototypeSlice(indent, 2);
  },
  time: (label = "default") => timers.set(label, performance.now()),
  timeLog: (label = "default", ...args) => {
    const shown = elapsed(label);
    if (shown !== undefined) write(false, prepend(`${label}: ${shown}`, args));
  },
  timeEnd: (label = "default") => {
    const shown = elapsed(label);
    if (shown !== undefined) write(false, [`${label}: ${shown}`]);
    timers.delete(label);
  },
};
