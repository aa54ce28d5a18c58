/**
 * slow.ts — a tool that runs until its abort signal fires.
 *
 * `wait_for_abort { marker, limitMs? }` sends one update `waiting` (so a
 * client knows it started), then waits. When its signal aborts it writes
 * `aborted` to the file `marker` (relative paths start at the cwd) and throws;
 * if the signal never fires within limitMs (default 8000) it returns
 * `not aborted` and writes nothing. A marker file on disk is the proof that
 * an MCP notifications/cancelled reached the tool's signal.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { writeFileSync } from "node:fs";
import { Type } from "typebox";

export default function slow(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "wait_for_abort",
    label: "Wait for abort",
    description: "Waits until the call is cancelled, then writes `aborted` to the marker file.",
    parameters: Type.Object({
      marker: Type.String({ description: "File written when the signal aborts" }),
      limitMs: Type.Optional(Type.Integer({ minimum: 1, description: "Give up after this long" })),
    }),
    async execute(_toolCallId, params, signal, onUpdate) {
      onUpdate?.({ content: [{ type: "text", text: "waiting" }], details: {} });
      const aborted = await new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(true);
        const timer = setTimeout(() => resolve(false), params.limitMs ?? 8000);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            resolve(true);
          },
          { once: true },
        );
      });
      if (!aborted) return { content: [{ type: "text", text: "not aborted" }], details: { aborted } };
      writeFileSync(params.marker, "aborted");
      throw new Error("aborted");
    },
  });
}
