// File patterns with glob 11 (ESM and CommonJS builds, on path-scurry,
// minimatch and lru-cache): the tool matches patterns under a folder, with
// `ignore` patterns and `dot` for hidden files, both with the promise API
// and with globSync, and reports the matches sorted.
import { glob, globSync } from "glob";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "glob_files",
    label: "Glob files",
    description: "Find files under a folder matching glob patterns",
    parameters: {
      type: "object",
      properties: {
        cwd: { type: "string" },
        patterns: { type: "array", items: { type: "string" } },
        ignore: { type: "array", items: { type: "string" } },
        dot: { type: "boolean" },
      },
      required: ["cwd", "patterns"],
    },
    async execute(_id, params: { cwd: string; patterns: string[]; ignore?: string[]; dot?: boolean }, signal) {
      const options = { cwd: params.cwd, ignore: params.ignore ?? [], dot: params.dot ?? false, posix: true, nodir: true };
      const matches = (await glob(params.patterns, { ...options, signal })).sort();
      const syncMatches = globSync(params.patterns, options).sort();
      return {
        content: [{ type: "text", text: matches.join("\n") }],
        details: { matches, sameSync: JSON.stringify(matches) === JSON.stringify(syncMatches) },
      };
    },
  });
}
