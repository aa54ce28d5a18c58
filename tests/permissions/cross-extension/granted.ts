// The extension a policy grants the secret to (tests/permissions.rs). On its
// way to the file it uses built-ins another extension patched in its own
// realm, and it calls the callback another extension hands it over the
// shared event bus: neither may run with this extension's grant.
import { readFileSync } from "node:fs";

export default function (pi: any) {
  const outcomes: Record<string, string> = {};
  pi.events.on("call-me", async (request: any) => {
    try {
      outcomes.callback = String(await request.callback());
    } catch (error: any) {
      outcomes.callback = `threw: ${error.message}`;
    }
  });
  pi.registerTool({
    name: "read_secret",
    label: "Read the secret",
    description: "Reads the file this extension was granted",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    async execute(_id: string, params: { path: string }) {
      const texts = [params.path].map((path) => readFileSync(path, "utf8"));
      const text = JSON.parse(JSON.stringify(texts))[0];
      await Promise.resolve().then(() => undefined);
      return { content: [{ type: "text", text }], details: { outcomes } };
    },
  });
}
