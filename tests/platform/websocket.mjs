// The global WebSocket against a local server written here on node:http's
// 'upgrade' and node:crypto's handshake digest: the handshake with a
// subprotocol, text and binary messages both ways, a close the server
// starts with a code and reason, and a connection that is refused.
import http from "node:http";
import { createHash } from "node:crypto";

function bounded(promise, ms = 5000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function frame(opcode, payload) {
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x80 | opcode, length]) : Buffer.from([0x80 | opcode, 126, length >> 8, length & 255]);
  return Buffer.concat([header, payload]);
}

/** Splits the client's (masked) frames off the front of `buffer`. */
function parseFrames(buffer) {
  const frames = [];
  let offset = 0;
  while (buffer.length - offset >= 2) {
    const opcode = buffer[offset] & 0x0f;
    let length = buffer[offset + 1] & 0x7f;
    let at = offset + 2;
    if (length === 126) {
      if (buffer.length < at + 2) break;
      length = buffer.readUInt16BE(at);
      at += 2;
    }
    if (buffer.length < at + 4 + length) break;
    const mask = buffer.subarray(at, at + 4);
    const payload = Buffer.from(buffer.subarray(at + 4, at + 4 + length));
    for (let index = 0; index < payload.length; index += 1) payload[index] ^= mask[index % 4];
    frames.push({ opcode, payload });
    offset = at + 4 + length;
  }
  return { frames, rest: buffer.subarray(offset) };
}

function startServer(log) {
  const server = http.createServer((req, res) => res.writeHead(426).end());
  server.on("upgrade", (req, socket) => {
    log.push(["upgrade", req.url, req.headers.upgrade, req.headers["sec-websocket-version"], req.headers["sec-websocket-protocol"] ?? null]);
    const accept = createHash("sha1")
      .update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest("base64");
    const protocol = req.headers["sec-websocket-protocol"]?.split(",")[0].trim();
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${accept}\r\n${protocol ? `Sec-WebSocket-Protocol: ${protocol}\r\n` : ""}\r\n`,
    );
    let pending = Buffer.alloc(0);
    let closing = false;
    socket.on("data", (data) => {
      const { frames, rest } = parseFrames(Buffer.concat([pending, data]));
      pending = rest;
      for (const { opcode, payload } of frames) {
        if (opcode === 1) {
          const text = payload.toString();
          log.push(["server got text", text]);
          if (text === "close please") {
            const reason = Buffer.from("done");
            closing = true;
            socket.write(frame(8, Buffer.concat([Buffer.from([0x0f, 0xa0]), reason])));
          } else {
            socket.write(frame(1, Buffer.from(`echo:${text}`)));
          }
        } else if (opcode === 2) {
          log.push(["server got binary", [...payload]]);
          socket.write(frame(2, Buffer.from([...payload].reverse())));
        } else if (opcode === 8) {
          // The reason of a close the client starts is compared; when it
          // answers the server's close, Node's client sends the code alone
          // and Deno's repeats the reason too (both as RFC 6455 allows).
          log.push(["server got close", payload.length >= 2 ? payload.readUInt16BE(0) : null, closing ? null : payload.subarray(2).toString()]);
          // A close the client started is answered with the same code.
          if (!closing) socket.write(frame(8, payload.subarray(0, 2)));
          socket.end();
        }
      }
    });
    socket.on("error", () => {});
  });
  return server;
}

export async function run() {
  const log = [];
  const server = startServer(log);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  try {
    const conversation = await bounded(
      new Promise((resolve) => {
        const events = [];
        const socket = new WebSocket(`ws://127.0.0.1:${port}/chat?room=1`, ["pihost", "other"]);
        events.push(["constructed", socket.readyState, socket.binaryType, socket.url.replace(String(port), "<port>")]);
        socket.binaryType = "arraybuffer";
        socket.addEventListener("open", () => {
          events.push(["open", socket.readyState, socket.protocol, socket.extensions]);
          socket.send("hello");
          socket.send(new Uint8Array([1, 2, 3]));
        });
        socket.addEventListener("message", (event) => {
          const data = typeof event.data === "string" ? event.data : [event.data.constructor.name, [...new Uint8Array(event.data)]];
          events.push(["message", data, event.type, event instanceof MessageEvent]);
          if (Array.isArray(data)) socket.send("close please");
        });
        socket.addEventListener("error", (event) => events.push(["error", event.type]));
        socket.addEventListener("close", (event) => {
          events.push(["close", event.code, event.reason, event.wasClean, socket.readyState]);
          resolve(events);
        });
      }),
    );

    const blobs = await bounded(
      new Promise((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/blob`);
        socket.onopen = () => socket.send(new Uint8Array([9, 8]).buffer);
        let got;
        socket.onmessage = async (event) => {
          const bytes = [...new Uint8Array(await event.data.arrayBuffer())];
          socket.close(1000, "bye");
          got = [event.data instanceof Blob, bytes, socket.readyState];
        };
        socket.onclose = (event) => resolve([...got, event.code, event.reason, event.wasClean]);
      }),
    );

    server.close();
    // Node 22's WebSocket reports a refused connection with 'error' alone
    // (no 'close' follows, readyState stays CONNECTING): only the error is compared.
    const refused = await bounded(
      new Promise((resolve) => {
        const socket = new WebSocket("ws://127.0.0.1:1/");
        socket.onerror = (event) => resolve(["error", event.type, event instanceof Event]);
      }),
    );
    const badUrl = (() => {
      try {
        new WebSocket("http-nope://x");
        return "constructed";
      } catch (error) {
        return [error.name, error.constructor.name];
      }
    })();
    return {
      conversation,
      blobs,
      log,
      refused,
      badUrl,
      constants: [WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED],
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
