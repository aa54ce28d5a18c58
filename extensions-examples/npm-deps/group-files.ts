// A big CommonJS library (lodash, one 540 KB file) imported from ESM with
// named imports, which Node and pihost find by reading the CommonJS source.
// Groups paths by extension.
import _, { groupBy, sortBy } from "lodash";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "group_files",
    label: "Group files",
    description: "Group file paths by extension, most common first",
    parameters: { type: "object", properties: { paths: { type: "array", items: { type: "string" } } }, required: ["paths"] },
    async execute(_id, params: { paths: string[] }) {
      const groups = groupBy(params.paths, (path) => path.split(".").pop() ?? "");
      const ordered = sortBy(Object.entries(groups), ([, paths]) => -paths.length);
      const text = ordered.map(([extension, paths]) => `${extension}: ${_.join(paths, ", ")}`).join("\n");
      return { content: [{ type: "text", text }], details: { groups: ordered.length } };
    },
  });
}
