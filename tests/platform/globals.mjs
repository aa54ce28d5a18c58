// The globals a library sniffs or leans on: the runtime must look like Node
// (no Deno), process facts, timers' objects, microtask order, encoders.
export async function run() {
  const order = [];
  await new Promise((resolve) => {
    setTimeout(() => {
      order.push("timeout");
      resolve();
    }, 0);
    setImmediate(() => order.push("immediate"));
    queueMicrotask(() => order.push("microtask"));
    process.nextTick(() => order.push("nextTick"));
    Promise.resolve().then(() => order.push("promise"));
  });
  const timer = setTimeout(() => {}, 1000);
  const timerShape = [typeof timer.ref, typeof timer.unref, typeof timer.hasRef, timer.unref() === timer];
  clearTimeout(timer);
  const hr = process.hrtime.bigint();
  return {
    deno: typeof Deno,
    bootstrap: typeof globalThis.__bootstrap,
    global: global === globalThis,
    // Node runs nextTick callbacks queued from inside a microtask after the
    // promise jobs; pihost runs them in queue order (README, known differences).
    order: [order.slice(0, 3).sort(), order.indexOf("timeout") >= 3],
    timerShape,
    process: {
      platform: process.platform,
      cwdIsString: typeof process.cwd() === "string",
      envPath: typeof process.env.PATH,
      versionsNode: typeof process.versions.node,
      argvIsArray: Array.isArray(process.argv),
      pid: typeof process.pid,
      hrtimeBigint: typeof hr,
      hrtimeArray: process.hrtime().length,
      memoryUsage: typeof process.memoryUsage().heapUsed,
      stdoutWrite: typeof process.stdout.write,
      exitCode: process.exitCode,
      emitWarning: typeof process.emitWarning,
      uptime: typeof process.uptime(),
    },
    structuredClone: structuredClone({ a: [1, { b: new Date(0).toISOString() }], m: new Map([[1, 2]]) }).m.get(1),
    textEncoder: Array.from(new TextEncoder().encode("é✓")),
    textDecoder: new TextDecoder().decode(new Uint8Array([0xc3, 0xa9])),
    base64: [btoa("hello"), atob("aGVsbG8=")],
    performance: typeof performance.now(),
  };
}
