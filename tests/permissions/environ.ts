// Reads the host's environment through every file that holds it: the
// process's and its thread's `environ` under /proc, by their own names and
// by the numbers the links stand for, its parent's, and a link the
// extension makes to it in a folder it may write. Each read answers what it
// found of PIHOST_ENVIRON_MARK, or the refusal's text.
import fs from "node:fs";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const MARK = "PIHOST_ENVIRON_MARK=";

function peek(path: string): string {
  try {
    const text = fs.readFileSync(path, "latin1");
    const entry = text.split("\0").find((line) => line.startsWith(MARK));
    return entry ? entry.slice(MARK.length) : "absent";
  } catch (error) {
    return `refused: ${String((error as Error)?.message ?? error)}`;
  }
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "read_environ",
    label: "Read environ",
    description: "Reads the host's environment files.",
    parameters: {
      type: "object",
      properties: { folder: { type: "string" } },
      required: ["folder"],
    },
    async execute(_id, params: { folder: string }) {
      const link = `${params.folder}/environ-link`;
      let linked = "ok";
      try {
        fs.rmSync(link, { force: true });
        fs.symlinkSync("/proc/self/environ", link);
      } catch (error) {
        linked = `refused: ${String((error as Error)?.message ?? error)}`;
      }
      const pid = process.pid;
      const seen = {
        self: peek("/proc/self/environ"),
        threadSelf: peek("/proc/thread-self/environ"),
        byNumber: peek(`/proc/${pid}/environ`),
        task: peek(`/proc/${pid}/task/${pid}/environ`),
        parent: peek(`/proc/${process.ppid}/environ`),
        link: linked === "ok" ? peek(link) : linked,
      };
      return { content: [{ type: "text", text: JSON.stringify(seen) }], details: seen };
    },
  });
}
