/**
 * async-factory.ts — a factory that returns a Promise.
 *
 * Demonstrates: the host awaits an async factory before it moves on; work done
 * after several awaits (microtask hops and an awaited async helper, no timers)
 * still lands in this extension's record. The command description counts the
 * hops so a host that stops awaiting early shows a different number.
 *
 * Checklist: L5 (async factories awaited one at a time), A1, A6 (commit happens
 * when the factory's promise resolves).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

function nextMicrotask(): Promise<void> {
  return new Promise<void>((resolve) => queueMicrotask(resolve));
}

async function countHops(total: number): Promise<number> {
  let hops = 0;
  for (let i = 0; i < total; i++) {
    await nextMicrotask();
    hops++;
  }
  return hops;
}

export default async function asyncFactory(pi: ExtensionAPI): Promise<void> {
  const hops = await countHops(3);
  const settled = await Promise.all([nextMicrotask().then(() => "a"), Promise.resolve("b")]);

  pi.registerCommand("async-ready", {
    description: `Registered after ${hops} awaited microtask hops (${settled.join("+")})`,
    handler: async (_args, ctx) => {
      ctx.ui.notify("async-factory is ready", "info");
    },
  });
}
