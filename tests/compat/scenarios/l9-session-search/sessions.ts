// A session search as published extensions write one with pi-coding-agent's
// SessionManager: sessions are files on disk, listed for a project
// (`SessionManager.list`) or everywhere (`listAll`), opened
// (`SessionManager.open`) and read entry by entry. The tool first writes
// three sessions of two projects into a folder of its own (`create`,
// `appendMessage`, `appendSessionInfo`, a branch), then searches them. What
// differs between runs (ids, paths, times) is left out of what it reports.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { Type } from "@earendil-works/pi-ai";

const assistant = (text: string) => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-test",
  usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason: "stop",
  timestamp: 1_700_000_000_000,
});
const user = (text: string) => ({ role: "user", content: text, timestamp: 1_700_000_000_000 });

/** The text of a message entry, whatever its content's shape. */
function textOf(message: any): string {
  if (typeof message.content === "string") return message.content;
  return (message.content ?? []).map((block: any) => block.text ?? "").join("");
}

function writeSessions(root: string) {
  const dir = join(root, "sessions");
  const first = SessionManager.create("/projects/alpha", dir);
  first.appendMessage(user("How do I rotate the API key?"));
  first.appendMessage(assistant("Run the rotate command, then restart the service."));
  first.appendSessionInfo("key rotation");
  const second = SessionManager.create("/projects/alpha", dir);
  second.appendMessage(user("Why is the build slow?"));
  const slow = second.appendMessage(assistant("The linker runs twice."));
  second.appendMessage(user("Can the API cache help?"));
  second.appendMessage(assistant("Yes: cache the API responses."));
  second.branch(slow);
  second.appendMessage(user("Only link once, then."));
  const third = SessionManager.create("/projects/beta", dir);
  third.appendMessage(user("Deploy beta to staging"));
  third.appendMessage(assistant("Deployed; the API answers on staging."));
  third.appendSessionInfo("beta deploy");
  return { dir, files: [first, second, third].map((session) => session.getSessionFile()) };
}

export default function (pi: any) {
  pi.registerTool({
    name: "search_sessions",
    label: "Search sessions",
    description: "Searches the messages of past sessions",
    parameters: Type.Object({ query: Type.String(), project: Type.Optional(Type.String()) }),
    async execute(_toolCallId: string, params: { query: string; project?: string }) {
      const root = mkdtempSync(join(tmpdir(), "pihost-session-search-"));
      try {
        const { dir, files } = writeSessions(root);
        const infos = params.project ? await SessionManager.list(params.project, dir) : await SessionManager.listAll(dir);
        const needle = params.query.toLowerCase();
        const hits = [];
        for (const info of infos) {
          const session = SessionManager.open(info.path, dir);
          const messages = session.getEntries().filter((entry: any) => entry.type === "message");
          const matching = messages.map((entry: any) => textOf(entry.message)).filter((text: string) => text.toLowerCase().includes(needle));
          hits.push({
            name: info.name ?? null,
            cwd: info.cwd,
            messageCount: info.messageCount,
            firstMessage: info.firstMessage,
            sessionName: session.getSessionName() ?? null,
            entries: session.getEntryCount(),
            branch: session.getBranch().filter((entry: any) => entry.type === "message").map((entry: any) => textOf(entry.message)),
            context: session.buildSessionContext().messages.length,
            matching,
            fileIsListed: files.includes(info.path),
          });
        }
        hits.sort((a, b) => (a.firstMessage < b.firstMessage ? -1 : 1));
        const found = hits.filter((hit) => hit.matching.length > 0);
        return {
          content: [{ type: "text", text: found.map((hit) => `${hit.name ?? hit.firstMessage}: ${hit.matching.length}`).join("\n") || "no matches" }],
          details: { listed: hits.length, hits },
        };
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  });
}
