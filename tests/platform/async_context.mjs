// node:async_hooks' AsyncLocalStorage and AsyncResource, and
// node:diagnostics_channel, as extensions (and the libraries they bundle)
// use them: a store that follows await, timers, setImmediate, nextTick,
// promise chains, event emitters, an fs callback and an http request, and
// channels with subscribers and tracing channels.
import { AsyncLocalStorage, AsyncResource, executionAsyncId } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import http from "node:http";

function bounded(promise, ms = 5000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function localStorage(dir) {
  const als = new AsyncLocalStorage();
  const seen = [];
  const look = (where) => seen.push([where, als.getStore()?.id ?? null]);
  const emitter = new EventEmitter();
  emitter.on("ping", () => look("emitter (emitted inside)"));

  const server = http.createServer((req, res) => res.end("ok"));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;

  await als.run({ id: "outer" }, async () => {
    look("sync");
    await null;
    look("after await");
    await new Promise((resolve) => setTimeout(resolve, 1));
    look("after a timer");
    await new Promise((resolve) =>
      setTimeout(() => {
        look("timer callback");
        resolve();
      }, 1),
    );
    await new Promise((resolve) =>
      setImmediate(() => {
        look("setImmediate");
        resolve();
      }),
    );
    await new Promise((resolve) =>
      process.nextTick(() => {
        look("nextTick");
        resolve();
      }),
    );
    await new Promise((resolve) =>
      queueMicrotask(() => {
        look("queueMicrotask");
        resolve();
      }),
    );
    await Promise.resolve(1)
      .then(() => look("then"))
      .then(() => Promise.reject(new Error("x")))
      .catch(() => look("catch"))
      .finally(() => look("finally"));
    emitter.emit("ping");
    await new Promise((resolve) =>
      fs.readFile(`${dir}/als.txt`, () => {
        look("fs callback");
        resolve();
      }),
    );
    fs.writeFileSync(`${dir}/als.txt`, "x");
    await fs.promises.readFile(`${dir}/als.txt`);
    look("after fs.promises");
    await bounded(
      new Promise((resolve) => {
        http.get(`http://127.0.0.1:${port}/`, (res) => {
          look("http response");
          res.resume();
          res.on("end", () => {
            look("http end");
            resolve();
          });
        });
      }),
    );
    await fetch(`http://127.0.0.1:${port}/`).then((response) => response.text());
    look("after fetch");
    const inner = als.run({ id: "inner" }, () => {
      look("nested run");
      return als.getStore().id;
    });
    look(`back from nested (${inner})`);
    als.exit(() => look("exit"));
    als.enterWith({ id: "entered" });
    look("enterWith");
  });
  look("outside");
  await new Promise((resolve) => server.close(resolve));

  // A timer set inside run keeps the store it was set with.
  const later = await new Promise((resolve) => {
    als.run({ id: "timer" }, () => setTimeout(() => resolve(als.getStore()?.id), 1));
  });
  // An emitter listener registered inside run sees the emitter's caller's store, as in Node.
  const other = new EventEmitter();
  als.run({ id: "registered" }, () => other.on("x", () => seen.push(["listener from another run", als.getStore()?.id ?? null])));
  als.run({ id: "emitted" }, () => other.emit("x"));

  // AsyncLocalStorage.bind and snapshot.
  const bound = als.run({ id: "bound" }, () => AsyncLocalStorage.bind(() => als.getStore()?.id));
  const snapshot = als.run({ id: "snapshot" }, () => AsyncLocalStorage.snapshot());
  const two = new AsyncLocalStorage();
  const both = als.run({ id: "a" }, () => two.run("b", () => [als.getStore().id, two.getStore()]));
  const fromBound = bound();
  const fromSnapshot = snapshot(() => als.getStore()?.id);
  als.disable();
  return {
    seen,
    later,
    bound: fromBound,
    snapshot: fromSnapshot,
    both,
    afterDisable: als.getStore() ?? null,
  };
}

function asyncResource() {
  const als = new AsyncLocalStorage();
  const resource = als.run({ id: "resource" }, () => new AsyncResource("PIHOST_TEST"));
  const viaRun = resource.runInAsyncScope(function (a, b) {
    return [als.getStore()?.id, this?.tag, a + b];
  }, { tag: "self" }, 1, 2);
  const bound = als.run({ id: "bound-fn" }, () => AsyncResource.bind(() => als.getStore()?.id));
  const asyncIds = [typeof resource.asyncId(), typeof resource.triggerAsyncId(), typeof executionAsyncId()];
  resource.emitDestroy();
  let badType;
  try {
    new AsyncResource();
  } catch (error) {
    badType = { name: error.name, code: error.code };
  }
  return { viaRun, bound: bound(), asyncIds, badType };
}

async function channels() {
  const events = [];
  const channel = diagnostics.channel("pihost:test");
  const before = [channel.hasSubscribers, diagnostics.hasSubscribers("pihost:test")];
  const listener = (message, name) => events.push(["subscriber", message, name]);
  channel.subscribe(listener);
  diagnostics.subscribe("pihost:test", (message) => events.push(["by name", message]));
  channel.publish({ n: 1 });
  const during = channel.hasSubscribers;
  channel.unsubscribe(listener);
  channel.publish({ n: 2 });
  const same = diagnostics.channel("pihost:test") === channel;

  const tracing = diagnostics.tracingChannel("pihost:trace");
  const traced = [];
  tracing.subscribe({
    start: (context) => traced.push(["start", context.arg]),
    end: (context) => traced.push(["end", context.result ?? null]),
    asyncStart: (context) => traced.push(["asyncStart", context.result ?? null]),
    asyncEnd: (context) => traced.push(["asyncEnd", context.result ?? null]),
    error: (context) => traced.push(["error", context.error.message]),
  });
  const syncResult = tracing.traceSync((x) => x * 2, { arg: 21 }, null, 21);
  const promiseResult = await tracing.tracePromise(async (x) => x + 1, { arg: 1 }, null, 1);
  const failed = await tracing.tracePromise(async () => {
    throw new Error("boom");
  }, { arg: "fail" }).catch((error) => error.message);
  let threw;
  try {
    tracing.traceSync(() => {
      throw new Error("sync boom");
    }, { arg: "sync fail" });
  } catch (error) {
    threw = error.message;
  }
  const callbackResult = await new Promise((resolve) =>
    tracing.traceCallback((value, callback) => setTimeout(() => callback(null, value * 3), 1), 1, { arg: "cb" }, null, 5, (error, value) => resolve(value)),
  );
  return {
    before,
    events,
    during,
    same,
    traced,
    results: [syncResult, promiseResult, failed, threw, callbackResult],
    tracingHasSubscribers: tracing.hasSubscribers,
  };
}

export async function run({ dir }) {
  fs.writeFileSync(`${dir}/als.txt`, "x");
  return { localStorage: await localStorage(dir), asyncResource: asyncResource(), channels: await channels() };
}
