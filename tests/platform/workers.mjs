// node:worker_threads as Node runs it: workers from .mjs, CommonJS .js and
// .ts files, from file: URLs and from eval'd source; workerData, messages
// both ways, MessagePorts handed to workers and between them, ArrayBuffers
// transferred (detached on the sender), the events a worker's life goes
// through, process.exit() and uncaught errors inside a worker, terminate()
// on a worker that never yields, parentPort.onmessage, postMessageToThread,
// receiveMessageOnPort, a worker's own worker, and many workers at once.
// The workers live in tests/platform/fixtures/workers. Every wait is
// bounded, so a broken worker fails the snippet instead of hanging it.
import { fileURLToPath } from "node:url";
import {
  MessageChannel,
  MessagePort,
  Worker,
  isMainThread,
  parentPort,
  receiveMessageOnPort,
  threadId,
  workerData,
} from "node:worker_threads";

const fixture = (name) => new URL(`./fixtures/workers/${name}`, import.meta.url);
const fixturePath = (name) => fileURLToPath(fixture(name));

function bounded(promise, label, ms = 15000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every event of `worker` until it exits, in order; `onMessage` may answer. */
function lifecycle(worker, label, onMessage) {
  const events = [];
  const done = new Promise((resolve) => {
    worker.on("online", () => events.push("online"));
    worker.on("message", (message) => {
      events.push({ message });
      onMessage?.(message);
    });
    worker.on("error", (error) => events.push({ error: [error.constructor.name, error.message] }));
    worker.on("exit", (code) => {
      events.push({ exit: code });
      resolve(events);
    });
  });
  return bounded(done, label);
}

function nextMessage(port, label) {
  return bounded(new Promise((resolve) => port.once("message", resolve)), label);
}

async function fromAnEsmFile() {
  const worker = new Worker(fixturePath("echo.mjs"), { workerData: { greeting: "hi", list: [1, 2] } });
  // A running worker has a positive id (Node makes it -1 once it exits).
  const threadIdPositive = worker.threadId > 0;
  // Sent before the worker listens: it waits in the worker's queue.
  worker.postMessage("early");
  let sameThreadId;
  const events = await lifecycle(worker, "echo.mjs", (message) => {
    if (message.hello) {
      sameThreadId = message.threadId === worker.threadId;
      worker.postMessage({ nested: { value: 2n, date: new Date(0), map: new Map([["k", 1]]) } });
    } else if (message.echo?.nested) {
      worker.postMessage("stop");
    }
  });
  const shown = events.map((event) =>
    event.message?.echo?.nested
      ? { echoed: [typeof event.message.echo.nested.value, event.message.echo.nested.date.getTime(), [...event.message.echo.nested.map]] }
      : event.message?.hello
        ? { hello: event.message.hello, isMainThread: event.message.isMainThread }
        : event,
  );
  return {
    events: shown,
    sameThreadId,
    threadIdPositive,
    terminateAfterExit: String(await worker.terminate()),
  };
}

async function fromAFileUrl() {
  const worker = new Worker(fixture("compute.mjs"), { workerData: 20 });
  return lifecycle(worker, "compute.mjs by URL");
}

async function fromCommonJs() {
  return lifecycle(new Worker(fixturePath("common.js"), { workerData: 21 }), "common.js");
}

async function fromTypeScript() {
  const shapes = [
    { sides: 3, name: "triangle" },
    { sides: 4, name: "square" },
  ];
  return lifecycle(new Worker(fixturePath("typed.ts"), { workerData: shapes }), "typed.ts");
}

async function fromSource() {
  process.env.PIHOST_WORKER_PARENT_VALUE = "from the parent";
  const source = `
    const { parentPort, workerData, isMainThread, threadId } = require("node:worker_threads");
    const path = require("path");
    process.env.PIHOST_WORKER_CHILD_VALUE = "from the worker";
    parentPort.postMessage({
      joined: path.join(workerData.dir, "file.txt"),
      isMainThread,
      threadIdPositive: threadId > 0,
      filename: __filename,
      dirname: __dirname,
      moduleType: typeof module,
      env: process.env.PIHOST_WORKER_PARENT_VALUE,
      argv: process.argv.slice(1),
    });
  `;
  const events = await lifecycle(new Worker(source, { eval: true, workerData: { dir: "/base" } }), "eval");
  // A message posted at once races "online" (which came first differed
  // between runs on a loaded machine): that it came is compared, not where.
  return {
    events: withoutOnline(events),
    online: events.includes("online"),
    childEnvStayedThere: process.env.PIHOST_WORKER_CHILD_VALUE === undefined,
  };
}

async function portsAndBuffers() {
  const channel = new MessageChannel();
  const worker = new Worker(fixturePath("ports.mjs"), {
    workerData: { port: channel.port2 },
    transferList: [channel.port2],
  });
  const result = {};
  const exited = lifecycle(worker, "ports.mjs");
  channel.port1.postMessage("through the workerData port");
  result.viaWorkerData = await nextMessage(channel.port1, "workerData port");

  const bytes = new Uint8Array([1, 2, 3, 4]);
  worker.postMessage({ buffer: bytes.buffer }, [bytes.buffer]);
  result.senderAfterTransfer = { byteLength: bytes.buffer.byteLength, viewLength: bytes.length };
  const summed = await nextMessage(worker, "buffer reply");
  result.summed = {
    sum: summed.sum,
    replyIsArrayBuffer: summed.reply instanceof ArrayBuffer,
    reply: [...new Uint8Array(summed.reply)],
  };

  const second = new MessageChannel();
  worker.postMessage({ port: second.port2, greeting: "over a sent port" }, [second.port2]);
  result.viaSentPort = await nextMessage(second.port1, "sent port");
  result.portIsNodePort = channel.port1 instanceof MessagePort && typeof channel.port1.on === "function";
  second.port1.close();

  worker.postMessage("stop");
  channel.port1.close();
  result.exit = (await exited).at(-1);
  return result;
}

async function betweenTwoWorkers() {
  const channel = new MessageChannel();
  const ping = new Worker(fixturePath("relay.mjs"), {
    workerData: { port: channel.port1, role: "ping" },
    transferList: [channel.port1],
  });
  const pong = new Worker(fixturePath("relay.mjs"), {
    workerData: { port: channel.port2, role: "pong" },
    transferList: [channel.port2],
  });
  const [pingEvents, pongEvents] = await Promise.all([lifecycle(ping, "ping"), lifecycle(pong, "pong")]);
  return { ping: pingEvents, pong: pongEvents };
}

/** Errors race the "online" message in Node too: compared without it. */
function withoutOnline(events) {
  return events.filter((event) => event !== "online");
}

async function errors() {
  const atLoad = await lifecycle(new Worker(fixturePath("throws.mjs"), { workerData: 5 }), "throws.mjs");
  const later = await lifecycle(new Worker(fixturePath("throws-later.mjs")), "throws-later.mjs");
  const missing = await lifecycle(new Worker("/nonexistent/pihost-worker.mjs"), "missing file");
  const syntax = await lifecycle(new Worker("this is not ( javascript", { eval: true }), "syntax error");
  return {
    atLoad: withoutOnline(atLoad),
    later: withoutOnline(later),
    missing: withoutOnline(missing),
    syntax: withoutOnline(syntax).map((event) => (event.error ? { error: event.error[0] } : event)),
    mainStillRuns: true,
  };
}

async function exitAndTerminate() {
  const exited = await lifecycle(new Worker(fixturePath("exits.mjs"), { workerData: 7 }), "exits.mjs");
  const spinner = new Worker(fixturePath("spins.mjs"));
  let terminated;
  const spun = await lifecycle(spinner, "spins.mjs", (message) => {
    if (message === "spinning") terminated = spinner.terminate();
  });
  return { exited, spun, terminatedWith: await bounded(terminated, "terminate") };
}

async function onmessageAndThreadMessages() {
  let onThreadMessage;
  const threadMessage = bounded(
    new Promise((resolve) => {
      onThreadMessage = (value, source) => resolve({ value, sourceIsWorker: source > 0 });
    }),
    "workerMessage",
  );
  process.on("workerMessage", onThreadMessage);
  const worker = new Worker(fixturePath("onmessage.mjs"));
  worker.postMessage("hello");
  const events = await lifecycle(worker, "onmessage.mjs");
  const got = await threadMessage;
  process.off("workerMessage", onThreadMessage);
  const { port1, port2 } = new MessageChannel();
  port1.postMessage({ queued: 1 });
  const received = [receiveMessageOnPort(port2), String(receiveMessageOnPort(port2))];
  port1.close();
  return { got, events, received };
}

async function nested() {
  const source = `
    const { Worker, parentPort, threadId } = require("node:worker_threads");
    const inner = new Worker(
      "const wt = require('node:worker_threads'); wt.parentPort.postMessage({ innerIsMain: wt.isMainThread, innerId: wt.threadId > 1 })",
      { eval: true },
    );
    inner.once("message", (message) => parentPort.postMessage({ ...message, outerId: threadId > 0 }));
  `;
  return lifecycle(new Worker(source, { eval: true }), "nested");
}

async function manyAtOnce() {
  const inputs = [15, 16, 17, 18, 19, 20, 21, 22];
  const runs = inputs.map((n) => lifecycle(new Worker(fixturePath("compute.mjs"), { workerData: n }), `compute ${n}`));
  const all = await Promise.all(runs);
  return all.map((events) => events.filter((event) => event !== "online"));
}

export async function run() {
  return {
    mainThread: { isMainThread, threadId, parentPort, workerData },
    esm: await fromAnEsmFile(),
    fileUrl: await fromAFileUrl(),
    commonJs: await fromCommonJs(),
    typeScript: await fromTypeScript(),
    eval: await fromSource(),
    ports: await portsAndBuffers(),
    betweenWorkers: await betweenTwoWorkers(),
    errors: await errors(),
    exitAndTerminate: await exitAndTerminate(),
    onmessageAndThreadMessages: await onmessageAndThreadMessages(),
    nested: await nested(),
    many: await manyAtOnce(),
  };
}
