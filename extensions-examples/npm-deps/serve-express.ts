// An HTTP framework (express 5, a CommonJS tree on node:http): the tool
// starts an app on 127.0.0.1, port 0, reads its routes back with fetch (a
// page, JSON with a route parameter and a query, a POST with a JSON body,
// a route that does not exist) and closes the server before it returns.
import type { AddressInfo } from "node:net";
import express from "express";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

function app() {
  const served = express();
  served.use(express.json());
  served.get("/", (_request, response) => {
    response.type("html").send("<!doctype html><title>pihost</title><h1>Hello from express</h1>");
  });
  served.get("/api/items/:id", (request, response) => {
    response.json({ id: request.params.id, tag: request.query.tag ?? null });
  });
  served.post("/api/echo", (request, response) => {
    const body = request.body as { words?: string[] };
    response.status(201).json({ received: body, count: body.words?.length ?? 0 });
  });
  return served;
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "express_roundtrip",
    label: "Express round trip",
    description: "Serve a small express app on a free local port and read its routes back with fetch",
    parameters: { type: "object", properties: {} },
    async execute(_id, _params, signal) {
      const server = app().listen(0, "127.0.0.1");
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("listening", resolve);
          server.once("error", reject);
        });
        const { port } = server.address() as AddressInfo;
        const base = `http://127.0.0.1:${port}`;
        const read = async (path: string, init?: RequestInit) => {
          const response = await fetch(`${base}${path}`, { ...init, signal });
          return {
            path,
            status: response.status,
            type: response.headers.get("content-type"),
            body: await response.text(),
          };
        };
        const results = [
          await read("/"),
          await read("/api/items/42?tag=blue"),
          await read("/api/echo", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ words: ["one", "two", "three"] }),
          }),
          await read("/missing"),
        ];
        const text = results.map((result) => `${result.status} ${result.path}`).join("\n");
        return { content: [{ type: "text", text }], details: { port, results } };
      } finally {
        server.closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  });
}
