// node:net, node:tls and node:dns as extensions use them: a TCP server and
// client on 127.0.0.1 and over a Unix socket in the scratch directory, the
// order of 'connect', 'data', 'end' and 'close' on both ends,
// server.address(), the errors of a refused connection, a busy port and a
// missing socket; a TLS client against a local tls.createServer with the
// fixture certificate; and dns.lookup of localhost.
import net from "node:net";
import tls from "node:tls";
import dns from "node:dns";
import fs from "node:fs";
import path from "node:path";

const cert = fs.readFileSync(new URL("./fixtures/tls/cert.pem", import.meta.url));
const key = fs.readFileSync(new URL("./fixtures/tls/key.pem", import.meta.url));

function bounded(promise, ms = 5000, what = "step") {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorShape(error, port, dir) {
  const hide = (text) => {
    let hidden = String(text);
    if (port !== undefined) hidden = hidden.replaceAll(`:${port}`, ":<port>");
    if (dir !== undefined) hidden = hidden.replaceAll(dir, "<dir>");
    return hidden;
  };
  return {
    name: error.name,
    code: error.code,
    syscall: error.syscall,
    address: error.address === undefined ? undefined : hide(error.address),
    port: error.port === undefined ? undefined : error.port === port ? "<port>" : error.port,
    message: hide(error.message),
    errno: typeof error.errno,
  };
}

/**
 * An echo-like exchange: the server greets, upper-cases what it gets, and
 * ends when the client ends; both sides record their events in order.
 */
async function exchange(listenArgs, connectArgs, dir) {
  const serverEvents = [];
  const clientEvents = [];
  const server = net.createServer((socket) => {
    serverEvents.push("connection");
    socket.setEncoding("utf8");
    socket.write("hello ");
    socket.on("data", (data) => {
      serverEvents.push(`data:${data}`);
      socket.write(data.toUpperCase());
    });
    socket.on("end", () => {
      serverEvents.push("end");
      socket.end("bye");
    });
    socket.on("close", (hadError) => serverEvents.push(`close:${hadError}`));
  });
  await bounded(new Promise((resolve, reject) => server.once("error", reject).listen(...listenArgs, resolve)));
  const address = server.address();
  const shownAddress =
    typeof address === "string" ? address.replace(dir, "<dir>") : { ...address, port: typeof address.port };
  const connect = typeof address === "string" ? [address] : [address.port, "127.0.0.1"];
  const received = await bounded(
    new Promise((resolve, reject) => {
      let text = "";
      let remote = null;
      const client = net.connect(...connect, () => {
        clientEvents.push("connect");
        if (typeof address !== "string") remote = [client.remoteAddress, client.remoteFamily, client.remotePort === address.port];
        client.write("ping");
      });
      client.on("ready", () => clientEvents.push("ready"));
      client.on("data", (chunk) => {
        text += chunk;
        clientEvents.push("data");
        if (text === "hello PING") client.end();
      });
      client.on("end", () => clientEvents.push("end"));
      client.on("close", (hadError) => {
        clientEvents.push(`close:${hadError}`);
        resolve({
          text,
          bytesWritten: client.bytesWritten,
          bytesRead: client.bytesRead,
          destroyed: client.destroyed,
          remote,
        });
      });
      client.on("error", reject);
    }),
  );
  await bounded(new Promise((resolve) => server.close(resolve)));
  const dedupe = (events) => events.filter((event, index) => event !== events[index - 1]);
  return {
    address: shownAddress,
    received,
    serverEvents,
    clientEvents: dedupe(clientEvents),
    listening: server.listening,
  };
}

async function errors(dir) {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = probe.address().port;
  // A second server on a busy port.
  const busy = await bounded(
    new Promise((resolve) => {
      const second = net.createServer();
      second.on("error", (error) => resolve(errorShape(error, port)));
      second.listen(port, "127.0.0.1", () => second.close(() => resolve("listened")));
    }),
  );
  await new Promise((resolve) => probe.close(resolve));
  const refused = await bounded(
    new Promise((resolve) => {
      const events = [];
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", (error) => events.push(["error", errorShape(error, port)]));
      socket.on("close", (hadError) => {
        events.push(["close", hadError]);
        resolve(events);
      });
    }),
  );
  const missingSocket = await bounded(
    new Promise((resolve) => {
      net.connect(path.join(dir, "nobody.sock")).on("error", (error) => resolve(errorShape(error, undefined, dir)));
    }),
  );
  const badPort = (() => {
    try {
      net.connect(70000, "127.0.0.1");
      return "connected";
    } catch (error) {
      return { name: error.name, code: error.code, message: error.message };
    }
  })();
  return { busy, refused, missingSocket, badPort, isIP: [net.isIP("127.0.0.1"), net.isIP("::1"), net.isIP("x"), net.isIPv4("1.2.3.4")] };
}

async function tlsClient() {
  const server = tls.createServer({ key, cert }, (socket) => {
    socket.end(`secure hello, authorized=${socket.authorized}`);
  });
  await bounded(new Promise((resolve) => server.listen(0, "127.0.0.1", resolve)));
  const port = server.address().port;
  const connect = (options) =>
    bounded(
      new Promise((resolve) => {
        const events = [];
        let text = "";
        const socket = tls.connect({ host: "127.0.0.1", port, ...options }, () => {
          events.push("secureConnect");
          events.push(`authorized:${socket.authorized}`);
          events.push(`encrypted:${socket.encrypted}`);
        });
        socket.setEncoding("utf8");
        socket.on("data", (data) => (text += data));
        socket.on("end", () => events.push("end"));
        socket.on("error", (error) => events.push(`error:${error.code}:${error.message}`));
        socket.on("close", () => {
          events.push("close");
          resolve({ events, text });
        });
      }),
    );
  try {
    return {
      withCa: await connect({ ca: cert, servername: "localhost" }),
      unchecked: await connect({ rejectUnauthorized: false }),
      untrusted: await connect({}),
    };
  } finally {
    await bounded(new Promise((resolve) => server.close(resolve)));
  }
}

async function lookups() {
  const callback = await bounded(
    new Promise((resolve) => dns.lookup("localhost", { family: 4 }, (error, address, family) => resolve([error, address, family]))),
  );
  const promised = await dns.promises.lookup("localhost", { family: 4 });
  const all = await dns.promises.lookup("127.0.0.1", { all: true });
  const missing = await dns.promises.lookup("no-such-host.invalid").catch((error) => ({ code: error.code, syscall: error.syscall, hostname: error.hostname }));
  return { callback, promised, all, missing };
}

export async function run({ dir }) {
  return {
    tcp: await exchange([0, "127.0.0.1"], null, dir),
    unix: await exchange([path.join(dir, "echo.sock")], null, dir),
    errors: await errors(dir),
    tls: await tlsClient(),
    dns: await lookups(),
  };
}
