// node:http and node:https as extensions use them: a server on 127.0.0.1
// and clients against it, status codes and headers both ways, bodies
// streamed (chunked) in both directions, a keep-alive agent reusing its
// socket, a refused connection's error, and https against a local TLS
// server with the fixture certificate.
import http from "node:http";
import https from "node:https";
import fs from "node:fs";

const cert = fs.readFileSync(new URL("./fixtures/tls/cert.pem", import.meta.url));
const key = fs.readFileSync(new URL("./fixtures/tls/key.pem", import.meta.url));

/** Rejects after `ms` so a snippet never hangs. */
function bounded(promise, ms = 5000, what = "step") {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function listen(server) {
  return bounded(
    new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server.address().port));
    }),
  );
}

function close(server) {
  server.closeAllConnections?.();
  return bounded(new Promise((resolve) => server.close(() => resolve())), 5000, "close");
}

// What a client sees of a response; `date` and the like are the moment's.
function collect(request, events = []) {
  return bounded(
    new Promise((resolve, reject) => {
      request.on("error", reject);
      request.on("response", (response) => {
        events.push("response");
        const chunks = [];
        response.on("data", (chunk) => {
          events.push("data");
          chunks.push(chunk);
        });
        response.on("end", () => {
          events.push("end");
          const headers = { ...response.headers };
          delete headers.date;
          resolve({
            status: response.statusCode,
            message: response.statusMessage,
            httpVersion: response.httpVersion,
            headers,
            rawHeaderNames: response.rawHeaders.filter((_, index) => index % 2 === 0 && response.rawHeaders[index] !== "Date"),
            body: Buffer.concat(chunks).toString(),
            complete: response.complete,
          });
        });
      });
    }),
  );
}

function dedupe(events) {
  return events.filter((event, index) => event !== events[index - 1]);
}

async function plainHttp() {
  const seen = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, httpVersion: req.httpVersion });
    if (req.url === "/hello") {
      res.writeHead(201, "Made", { "content-type": "text/plain", "x-custom": ["a", "b"] });
      res.end("hi");
    } else if (req.url === "/echo") {
      const chunks = [];
      req.on("data", (chunk) => chunks.push(chunk.toString()));
      req.on("end", () => {
        const headers = { ...req.headers };
        delete headers.host;
        res.setHeader("content-type", "application/json");
        res.statusCode = 200;
        res.write("[");
        res.write(JSON.stringify({ headers, chunks: chunks.join("|").length > 0, body: chunks.join("") }));
        setTimeout(() => res.end("]"), 10);
      });
    } else if (req.url === "/json") {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("X-Multi", ["1", "2"]);
      res.end(JSON.stringify({ ok: true, hasHeader: res.hasHeader("x-multi"), names: res.getHeaderNames() }));
    } else if (req.url === "/empty") {
      res.writeHead(204);
      res.end();
    } else if (req.url === "/head") {
      res.writeHead(200, { "content-length": 5 });
      res.end(req.method === "HEAD" ? undefined : "hello");
    } else {
      res.statusCode = 404;
      res.end("not here");
    }
  });
  server.on("connection", () => (connections += 1));
  const port = await listen(server);
  const base = `http://127.0.0.1:${port}`;
  try {
    const events = [];
    const hello = await collect(http.get(`${base}/hello`), events);

    // A request body written in pieces goes chunked; the reply comes in pieces too.
    const post = http.request({ host: "127.0.0.1", port, path: "/echo", method: "POST", headers: { "x-test": "yes" } });
    post.write("one ");
    post.write("two ");
    post.end("three");
    const echoed = await collect(post);
    echoed.body = JSON.parse(echoed.body);

    // A body of known length goes with content-length.
    const sized = http.request(`${base}/echo`, { method: "PUT", headers: { "content-length": 5, "content-type": "text/plain" } });
    sized.end("fixed");
    const fixed = await collect(sized);
    fixed.body = JSON.parse(fixed.body);

    const json = await collect(http.get({ hostname: "127.0.0.1", port, path: "/json" }));
    const empty = await collect(http.get(`${base}/empty`));
    const head = await collect(http.request(`${base}/head`, { method: "HEAD" }).end());
    const missing = await collect(http.get(new URL(`${base}/missing?q=1`)));

    // A keep-alive agent with one socket sends both requests over it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = connections;
    const first = http.get(`${base}/hello`, { agent });
    const firstResult = await collect(first);
    await new Promise((resolve) => setImmediate(resolve));
    const second = http.get(`${base}/json`, { agent });
    const secondResult = await collect(second);
    const reuse = {
      statuses: [firstResult.status, secondResult.status],
      connectionsOpened: connections - before,
      reusedSocket: [first.reusedSocket, second.reusedSocket],
      keepAliveHeader: firstResult.headers.connection,
    };
    agent.destroy();

    return {
      hello,
      events: dedupe(events),
      echoed,
      fixed,
      json,
      empty,
      head,
      missing,
      reuse,
      seen,
      statusCodes: [http.STATUS_CODES[200], http.STATUS_CODES[404], http.STATUS_CODES[418]],
      methods: http.METHODS.includes("PATCH"),
    };
  } finally {
    await close(server);
  }
}

async function refused() {
  const server = http.createServer();
  const port = await listen(server);
  await close(server);
  const error = await bounded(
    new Promise((resolve) => {
      http.get(`http://127.0.0.1:${port}/`).on("error", resolve);
    }),
  );
  return {
    name: error.name,
    code: error.code,
    syscall: error.syscall,
    address: error.address,
    samePort: error.port === port,
    message: error.message.replace(String(port), "<port>"),
    errno: typeof error.errno,
  };
}

async function requestErrors() {
  const attempt = (fn) => {
    try {
      fn();
      return "ok";
    } catch (error) {
      return { name: error.name, code: error.code, message: error.message };
    }
  };
  return {
    badHeader: attempt(() => http.request("http://127.0.0.1:1/", { headers: { "bad name": "x" } })),
    badProtocol: attempt(() => http.request("ftp://127.0.0.1/")),
    validateName: attempt(() => http.validateHeaderName("x y")),
  };
}

async function secure() {
  const server = https.createServer({ key, cert }, (req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`secure ${req.method} ${req.url} ${req.socket.encrypted === true}`);
  });
  const port = await listen(server);
  try {
    const trusted = await collect(https.get({ host: "127.0.0.1", port, path: "/ca", ca: cert, servername: "localhost" }));
    const unchecked = await collect(https.get(`https://127.0.0.1:${port}/unchecked`, { rejectUnauthorized: false }));
    const post = https.request({ host: "localhost", port, path: "/post", method: "POST", ca: cert });
    post.end("x");
    const posted = await collect(post);
    const untrusted = await bounded(
      new Promise((resolve) => {
        https
          .get(`https://127.0.0.1:${port}/untrusted`, (response) => resolve(`answered ${response.statusCode}`))
          .on("error", (error) => resolve({ code: error.code, message: error.message }));
      }),
    );
    return { trusted, unchecked, posted, untrusted };
  } finally {
    await close(server);
  }
}

export async function run() {
  return {
    http: await plainHttp(),
    refused: await refused(),
    requestErrors: await requestErrors(),
    https: await secure(),
  };
}
