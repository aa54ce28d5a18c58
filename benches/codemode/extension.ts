// pihost's codemode, timed inside pihost: `pihost tool codemode_bench -e benches/codemode/extension.ts`.
import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
import { timeCodemode } from "./cases.mjs";

export default function (pi: any) {
  pi.registerTool({
    name: "codemode_bench",
    label: "Codemode bench",
    description: "Times codemode scripts",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: JSON.stringify(await timeCodemode(createCodemodeExtension)) }], details: {} };
    },
  });
}
