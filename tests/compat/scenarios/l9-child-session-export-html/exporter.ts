// A child session exported to HTML (AgentSession.exportToHtml), as a
// session-sharing extension does it: the session runs one prompt against a
// scripted model (pi-ai's faux provider) and is written to a page; the tool
// reads back the session data the page carries (base64 JSON under
// <script id="session-data">, which pi's own viewer reads) and reports it
// with ids, times and paths made stable. Also: an in-memory session and a
// session not written yet refuse to export.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "export-faux";

/** The session data a page carries, decoded. */
function pageData(html: string) {
  const encoded = /<script id="session-data" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  if (encoded === undefined) return "<no session data>";
  return JSON.parse(Buffer.from(encoded.trim(), "base64").toString("utf8"));
}

/** `data` with entry ids numbered in order, times and the temp folder replaced. */
function stable(data: any, root: string) {
  const ids = new Map<string, string>();
  const idOf = (id: any) => {
    if (typeof id !== "string") return id;
    if (!ids.has(id)) ids.set(id, `id${ids.size}`);
    return ids.get(id);
  };
  for (const entry of data.entries ?? []) idOf(entry.id);
  const walk = (value: any, key?: string): any => {
    if (typeof value === "string") {
      if (key === "id" || key === "parentId" || key === "leafId" || key === "targetId") return idOf(value);
      if (key === "timestamp") return "<time>";
      return value.split(root).join("<tmp>");
    }
    if (typeof value === "number" && key === "timestamp") return "<time>";
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, name)]));
    return value;
  };
  const { header, ...rest } = data;
  return { header: { ...walk(header), id: typeof header?.id, version: header?.version }, ...walk(rest) };
}

export default function (pi: any) {
  const faux = registerFauxProvider({ api: "export-faux-api", provider: PROVIDER, models: [{ id: "writer-1", reasoning: false }] });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Export Faux",
          auth: { apiKey: { name: "Key", resolve: async () => ({ auth: { apiKey: "key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  const childSession = async (sessionManager: any, modelRuntime: any, cwd: string) => {
    const settingsManager = piCodingAgent.SettingsManager.inMemory();
    const loader = new piCodingAgent.DefaultResourceLoader({
      cwd,
      agentDir: piCodingAgent.getAgentDir(),
      settingsManager,
      noExtensions: true,
      noSkills: true,
      noPromptTemplates: true,
      noThemes: true,
      noContextFiles: true,
      systemPrompt: "You are a child agent.",
    });
    await loader.reload();
    const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/writer-1`, modelRuntime });
    if (resolved.error) throw new Error(resolved.error);
    const { session } = await piCodingAgent.createAgentSession({
      cwd,
      modelRuntime,
      model: resolved.model,
      tools: ["read"],
      resourceLoader: loader,
      sessionManager,
      settingsManager,
    });
    return session;
  };

  pi.registerTool({
    name: "export_child",
    label: "Export child",
    description: "Runs a child session and exports it to HTML",
    parameters: { type: "object", properties: {} },
    async execute() {
      const root = mkdtempSync(join(tmpdir(), "pihost-export-html-"));
      const refused = async (run: () => Promise<unknown>) => {
        try {
          await run();
          return "exported";
        } catch (error: any) {
          return error?.message ?? String(error);
        }
      };
      try {
        const modelRuntime = await sharedRuntime();
        const cwd = join(root, "project");
        const memory = await childSession(piCodingAgent.SessionManager.inMemory(cwd), modelRuntime, cwd);
        const inMemory = await refused(() => memory.exportToHtml(join(root, "memory.html")));
        memory.dispose();

        const session = await childSession(piCodingAgent.SessionManager.create(cwd, join(root, "sessions")), modelRuntime, cwd);
        const notYet = await refused(() => session.exportToHtml(join(root, "early.html")));
        faux.setResponses([fauxAssistantMessage("Here is the summary you asked for.")]);
        await session.prompt("summarize the project");
        session.setSessionName("exported child");
        const target = join(root, "out", "..", "session.html");
        const returned = await session.exportToHtml(target);
        const html = readFileSync(join(root, "session.html"), "utf8");
        const data = pageData(html);
        session.dispose();
        return {
          content: [{ type: "text", text: "exported" }],
          details: {
            inMemory,
            notYet,
            returnedIsTarget: returned === target,
            doctype: html.startsWith("<!DOCTYPE html>"),
            data: typeof data === "string" ? data : stable(data, root),
          },
        };
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  });
}
