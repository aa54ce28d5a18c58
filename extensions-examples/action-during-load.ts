/**
 * action-during-load.ts — calling action methods before the host has bound them.
 *
 * Demonstrates: during loading every action method throws "Extension runtime
 * not initialized. Action methods cannot be called during extension loading.";
 * the factory catches those throws, so the extension still loads and the
 * caught texts become visible as command descriptions. setModel does not throw
 * synchronously: it returns a promise that rejects with "Extension runtime not
 * initialized". The runtime's refreshTools is a no-op before binding: it is
 * reached through registerTool (pi 1.6.0 does not put refreshTools on the API
 * object itself; the description records typeof pi.refreshTools), so a tool
 * registered during load must not throw.
 *
 * Checklist: A2 (action methods before binding; setModel rejects instead of
 * throwing), A3 (refreshTools is a no-op before binding; registerTool legal).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

function caughtMessage(action: () => unknown): string {
  try {
    action();
    return "(no error)";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export default async function actionDuringLoad(pi: ExtensionAPI) {
  const sendMessageText = caughtMessage(() =>
    pi.sendMessage({ customType: "example-note", content: "hello from load", display: true }),
  );
  pi.registerCommand("action-send-message", {
    description: `sendMessage during load: ${sendMessageText}`,
    handler: async () => {},
  });

  // setModel: capture whether it throws synchronously, then await the rejection.
  let setModelText: string;
  let pending: Promise<unknown> | undefined;
  const syncText = caughtMessage(() => {
    pending = pi.setModel({ provider: "example-proxy", id: "example-small" } as unknown as Parameters<ExtensionAPI["setModel"]>[0]);
  });
  if (pending) {
    setModelText = await pending.then(
      (value) => `resolved ${JSON.stringify(value)}`,
      (error: unknown) => `rejected: ${error instanceof Error ? error.message : String(error)}`,
    );
  } else {
    setModelText = `threw synchronously: ${syncText}`;
  }
  pi.registerCommand("action-set-model", {
    description: `setModel during load ${setModelText}`,
    handler: async () => {},
  });

  // pi 1.6.0's API object has no refreshTools method; the runtime's no-op
  // refreshTools is reached through registerTool, which calls it on every
  // registration. So: report whether the API exposes the method (calling it only
  // if it does), and register a tool during load, which must not throw.
  const refreshKind = typeof (pi as unknown as { refreshTools?: unknown }).refreshTools;
  const refreshText =
    refreshKind === "function"
      ? caughtMessage(() => (pi as unknown as { refreshTools: () => void }).refreshTools())
      : "not called";
  const registerText = caughtMessage(() =>
    pi.registerTool({
      name: "load_time_tool",
      label: "Load-time tool",
      description: "Registered during load; registerTool refreshes tools internally",
      parameters: Type.Object({}),
      async execute() {
        return { content: [{ type: "text", text: "registered during load" }], details: {} };
      },
    }),
  );
  pi.registerCommand("action-refresh-tools", {
    description: `pi.refreshTools is ${refreshKind} (${refreshText}); registerTool during load: ${registerText}`,
    handler: async () => {},
  });

  // Every other action method: group the methods by the text they threw.
  const probes: Record<string, () => unknown> = {
    sendUserMessage: () => pi.sendUserMessage("hi"),
    appendEntry: () => pi.appendEntry("example-card", { n: 1 }),
    setSessionName: () => pi.setSessionName("load-time name"),
    getSessionName: () => pi.getSessionName(),
    setLabel: () => pi.setLabel("entry-1", "label"),
    getActiveTools: () => pi.getActiveTools(),
    getAllTools: () => pi.getAllTools(),
    getSettings: () => pi.getSettings(),
    setActiveTools: () => pi.setActiveTools(["read"]),
    getCommands: () => pi.getCommands(),
    getThinkingLevel: () => pi.getThinkingLevel(),
    setThinkingLevel: () => pi.setThinkingLevel("low"),
  };
  const byText = new Map<string, string[]>();
  for (const [name, probe] of Object.entries(probes)) {
    const text = caughtMessage(probe);
    byText.set(text, [...(byText.get(text) ?? []), name]);
  }
  const summary = [...byText].map(([text, names]) => `${names.join(",")} => ${text}`).join(" | ");
  pi.registerCommand("action-other-methods", {
    description: summary,
    handler: async () => {},
  });
}
