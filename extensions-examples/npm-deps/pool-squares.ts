// A pool of worker threads (workerpool, "workerType: thread"): the pool
// starts workers from the package's own CommonJS worker script and sends
// each one a function to run as source. Registers a tool that squares
// numbers in parallel and says how many workers did it.
import workerpool from "workerpool";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "pool_squares",
    label: "Pool squares",
    description: "Square numbers in a pool of worker threads (workerpool)",
    parameters: {
      type: "object",
      properties: { numbers: { type: "array", items: { type: "number" } } },
      required: ["numbers"],
    },
    async execute(_id, params: { numbers: number[] }) {
      const pool = workerpool.pool({ workerType: "thread", maxWorkers: 2 });
      try {
        const squares = await Promise.all(
          params.numbers.map((n) => pool.exec((x: number) => x * x, [n])),
        );
        const { totalWorkers } = pool.stats();
        return {
          content: [{ type: "text", text: squares.join(" ") }],
          details: { squares, totalWorkers },
        };
      } finally {
        await pool.terminate();
      }
    },
  });
}
