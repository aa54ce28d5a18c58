/**
 * tool-set.ts — tools that change the set of tools while they run.
 *
 * `add_tool` registers `added_tool` (which returns `added tool ran`) and
 * returns `registered added_tool`. `retire_tool` narrows the active tools with
 * pi.setActiveTools to every active one except `retire_me`, and returns the
 * names that stay active. Over MCP each call is followed by
 * notifications/tools/list_changed, and tools/list then shows the change.
 * `secret_tool` is `hidden` and `later_tool` `deferred` (pi's ToolExposure):
 * neither is active, so neither is listed or callable.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function toolSet(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "add_tool",
    label: "Add tool",
    description: "Registers the tool `added_tool`.",
    parameters: Type.Object({}),
    async execute() {
      pi.registerTool({
        name: "added_tool",
        label: "Added tool",
        description: "Registered by add_tool while it ran.",
        parameters: Type.Object({}),
        async execute() {
          return { content: [{ type: "text", text: "added tool ran" }], details: {} };
        },
      });
      return { content: [{ type: "text", text: "registered added_tool" }], details: {} };
    },
  });

  pi.registerTool({
    name: "retire_me",
    label: "Retire me",
    description: "Taken out of the active tools by retire_tool.",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "still here" }], details: {} };
    },
  });

  for (const [name, exposure] of [
    ["secret_tool", "hidden"],
    ["later_tool", "deferred"],
  ] as const) {
    pi.registerTool({
      name,
      label: name,
      description: `A ${exposure} tool.`,
      exposure,
      parameters: Type.Object({}),
      async execute() {
        return { content: [{ type: "text", text: `${name} ran` }], details: {} };
      },
    });
  }

  pi.registerTool({
    name: "retire_tool",
    label: "Retire tool",
    description: "Makes every active tool but `retire_me` the active set.",
    parameters: Type.Object({}),
    async execute() {
      const keep = pi.getActiveTools().filter((name) => name !== "retire_me");
      pi.setActiveTools(keep);
      return { content: [{ type: "text", text: `active: ${keep.join(", ")}` }], details: { active: keep } };
    },
  });
}
