// JSON-RPC over a Unix socket (vscode-jsonrpc's `node` entry, picked by the
// `node` export condition, on node:net): one tool call runs a server on a
// socket in the given folder and a client that connects to it. The client
// sends a notification and requests (one the server answers, one it sends a
// notification back during, one it does not know); both ends are disposed
// and the server closed before the tool returns.
import net from "node:net";
import path from "node:path";
import {
  createMessageConnection,
  type MessageConnection,
  NotificationType,
  RequestType,
  ResponseError,
  SocketMessageReader,
  SocketMessageWriter,
} from "vscode-jsonrpc/node";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const sum = new RequestType<number[], number, void>("math/sum");
const notes = new RequestType<void, string[], void>("notes/list");
const count = new RequestType<{ upTo: number }, string, void>("progress/count");
const note = new NotificationType<{ text: string }>("notes/add");
const progress = new NotificationType<{ step: number }>("progress/step");

function serve(socket: net.Socket, connections: MessageConnection[]) {
  const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  connections.push(connection);
  const received: string[] = [];
  connection.onNotification(note, ({ text }) => received.push(text));
  connection.onRequest(sum, (numbers) => numbers.reduce((total, n) => total + n, 0));
  connection.onRequest(notes, () => received);
  connection.onRequest(count, async ({ upTo }) => {
    for (let step = 1; step <= upTo; step++) await connection.sendNotification(progress, { step });
    return `counted to ${upTo}`;
  });
  connection.listen();
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "jsonrpc_roundtrip",
    label: "JSON-RPC round trip",
    description: "Run a JSON-RPC server and client on a Unix socket in a folder",
    parameters: { type: "object", properties: { dir: { type: "string" } }, required: ["dir"] },
    async execute(_id, params: { dir: string }) {
      const socketPath = path.join(params.dir, "rpc.sock");
      const connections: MessageConnection[] = [];
      const sockets: net.Socket[] = [];
      const server = net.createServer((accepted) => {
        sockets.push(accepted);
        serve(accepted, connections);
      });
      let socket: net.Socket | undefined;
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(socketPath, resolve);
        });
        socket = net.createConnection(socketPath);
        await new Promise<void>((resolve, reject) => {
          socket?.once("connect", resolve);
          socket?.once("error", reject);
        });
        const client = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
        connections.push(client);
        const steps: number[] = [];
        client.onNotification(progress, ({ step }) => steps.push(step));
        client.listen();

        await client.sendNotification(note, { text: "first" });
        await client.sendNotification(note, { text: "second" });
        const total = await client.sendRequest(sum, [1, 2, 3, 4]);
        const seen = await client.sendRequest(notes);
        const counted = await client.sendRequest(count, { upTo: 3 });
        let unknown = "";
        try {
          await client.sendRequest("no/such-method", {});
        } catch (error) {
          unknown = error instanceof ResponseError ? `${error.code} ${error.message}` : String(error);
        }
        const text = [`sum ${total}`, `notes ${seen.join(", ")}`, `${counted} (steps ${steps.join(" ")})`, unknown].join(
          "\n",
        );
        return { content: [{ type: "text", text }], details: { socketPath, total, seen, counted, steps, unknown } };
      } finally {
        for (const connection of connections) connection.dispose();
        socket?.destroy();
        for (const accepted of sockets) accepted.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  });
}
