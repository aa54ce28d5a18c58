// AsyncLocalStorage through an HTTP client (axios, whose Node adapter is
// node:http's client, with follow-redirects): each request runs in its own
// ALS context holding a request id. axios' request interceptor reads the id
// from the context and sends it as a header, its response interceptor and
// the code after `await` read it again when the answer comes back. The
// requests run at once against a local node:http server the tool starts,
// which answers them in reverse order, so each response comes back while
// other contexts have run in between; the server is closed before the
// tool returns.
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { AddressInfo } from "node:net";
import axios from "axios";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

type Trace = { id: string; seen: string[] };

/** Answers `GET /echo` with the request id header it got, once every expected request has arrived, last first. */
function echoServer(expected: number) {
  const waiting: Array<() => void> = [];
  return http.createServer((request, response) => {
    waiting.push(() => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ header: request.headers["x-request-id"] ?? null }));
    });
    if (waiting.length === expected) {
      for (const answer of waiting.reverse()) answer();
    }
  });
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "traced_requests",
    label: "Traced requests",
    description: "Send requests with axios, each in its own AsyncLocalStorage context, and report what each step saw",
    parameters: { type: "object", properties: { ids: { type: "array", items: { type: "string" } } }, required: ["ids"] },
    async execute(_id, params: { ids: string[] }) {
      const storage = new AsyncLocalStorage<Trace>();
      const server = echoServer(params.ids.length);
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", resolve);
        });
        const { port } = server.address() as AddressInfo;
        const client = axios.create({ baseURL: `http://127.0.0.1:${port}`, timeout: 5000 });
        client.interceptors.request.use((config) => {
          const trace = storage.getStore();
          trace?.seen.push(`request ${trace.id}`);
          config.headers.set("x-request-id", trace?.id ?? "none");
          return config;
        });
        client.interceptors.response.use((response) => {
          const trace = storage.getStore();
          trace?.seen.push(`response ${trace.id}`);
          return { ...response, data: { ...response.data, inResponse: trace?.id ?? null } };
        });

        const results = await Promise.all(
          params.ids.map((id) =>
            storage.run({ id, seen: [] }, async () => {
              const response = await client.get("/echo");
              const trace = storage.getStore();
              return { id, ...response.data, afterAwait: trace?.id ?? null, seen: trace?.seen ?? [] };
            }),
          ),
        );
        const outside = storage.getStore()?.id ?? null;
        const text = results
          .map((result) => `${result.id}: header ${result.header}, response ${result.inResponse}, after await ${result.afterAwait}`)
          .join("\n");
        return { content: [{ type: "text", text }], details: { results, outside } };
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  });
}
