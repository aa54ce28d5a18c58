// fetch, as Node 22 has it (no npm package needed): a tool that GETs a URL,
// streams the body chunk by chunk, and reports status, a header and size;
// the tool's abort signal cancels the request.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "fetch_status",
    label: "Fetch status",
    description: "GET a URL and report its status, content type and body size",
    parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    async execute(_id, params: { url: string }, signal) {
      const response = await fetch(params.url, { signal });
      let bytes = 0;
      let chunks = 0;
      for await (const chunk of response.body ?? []) {
        bytes += chunk.byteLength;
        chunks += 1;
      }
      const text = `${response.status} ${response.headers.get("content-type") ?? "?"} ${bytes} bytes`;
      return { content: [{ type: "text", text }], details: { status: response.status, bytes, chunks } };
    },
  });
}
