// Blob, File and FormData as extensions use them (uploading files and
// forms with fetch): their contents and shapes, FormData's methods,
// Response.formData() for multipart and url-encoded bodies, and what a
// local node:http server receives when fetch sends a FormData, a Blob, a
// URLSearchParams or a typed array.
import http from "node:http";
import { Blob as BufferBlob, File as BufferFile } from "node:buffer";

function bounded(promise, ms = 5000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function blobs() {
  const blob = new Blob(["héllo ", new Uint8Array([119, 111]), new Blob(["rld"])], { type: "Text/Plain" });
  const sliced = blob.slice(1, 5, "application/x-piece");
  const chunks = [];
  for await (const chunk of blob.stream()) chunks.push(...chunk);
  const file = new File(["file body"], "notes.txt", { type: "text/plain", lastModified: 1700000000000 });
  const untyped = new File([], "empty");
  return {
    blob: [blob.size, blob.type, await blob.text(), Object.prototype.toString.call(blob)],
    sliced: [sliced.size, sliced.type, await sliced.text()],
    negative: await blob.slice(-3).text(),
    arrayBuffer: [...new Uint8Array(await blob.arrayBuffer())].length,
    streamed: chunks.length,
    file: [file.name, file.size, file.type, file.lastModified, file instanceof Blob, await file.text(), Object.prototype.toString.call(file)],
    untyped: [untyped.name, untyped.size, untyped.type, typeof untyped.lastModified],
    sameAsBuffer: [BufferBlob === Blob, BufferFile === File],
    noName: (() => {
      try {
        new File(["x"]);
        return "constructed";
      } catch (error) {
        return error.name;
      }
    })(),
  };
}

async function forms() {
  const form = new FormData();
  form.append("name", "pi");
  form.append("tag", "a");
  form.append("tag", "b");
  form.append("upload", new Blob(["blob body"], { type: "text/plain" }));
  form.append("named", new Blob(["x"]), "custom.bin");
  form.set("name", "pihost");
  const upload = form.get("upload");
  const entries = [];
  for (const [key, value] of form) entries.push([key, typeof value === "string" ? value : ["File", value.name, value.type, value.size]]);
  form.delete("tag");
  return {
    entries,
    getAll: form.has("tag") ? "kept" : "deleted",
    upload: [upload instanceof File, upload.name, await upload.text()],
    keys: [...form.keys()],
    missing: form.get("nothing"),
    tag: Object.prototype.toString.call(form),
  };
}

async function parsed() {
  const boundary = "----pihost-boundary";
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="field"',
    "",
    "value one",
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="a.txt"',
    "Content-Type: text/plain",
    "",
    "file contents",
    `--${boundary}--`,
    "",
  ].join("\r\n");
  const multipart = await new Response(body, { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }).formData();
  const file = multipart.get("file");
  const encoded = await new Response("a=1&b=two+words&a=3&c=%C3%A9", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
  }).formData();
  const wrongType = await new Response("a=1", { headers: { "content-type": "text/plain" } })
    .formData()
    .then(() => "parsed")
    .catch((error) => error.name);
  const roundTrip = new FormData();
  roundTrip.append("k", "v");
  roundTrip.append("f", new File(["data"], "d.txt", { type: "text/x-data" }));
  const request = new Request("http://127.0.0.1/", { method: "POST", body: roundTrip });
  const back = await request.formData();
  return {
    multipart: [multipart.get("field"), file.name, file.type, await file.text()],
    encoded: [encoded.getAll("a"), encoded.get("b"), encoded.get("c")],
    wrongType,
    requestType: request.headers.get("content-type").startsWith("multipart/form-data; boundary="),
    back: [back.get("k"), back.get("f").name, back.get("f").type, await back.get("f").text()],
    blobResponse: [
      new Response(new Blob(["x"], { type: "image/png" })).headers.get("content-type"),
      new Response(new URLSearchParams("a=1")).headers.get("content-type"),
      new Response("text").headers.get("content-type"),
    ],
  };
}

/** What a server receives; the multipart boundary is random, so it is named. */
async function sent() {
  const received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const type = req.headers["content-type"] ?? null;
      const boundary = type?.match(/boundary=(.*)$/)?.[1];
      let text = body.toString("latin1");
      if (boundary) text = text.replaceAll(boundary, "<boundary>");
      received.push({
        url: req.url,
        type: boundary ? type.replace(boundary, "<boundary>") : type,
        lengthMatches: req.headers["content-length"] === undefined ? "no content-length" : Number(req.headers["content-length"]) === body.length,
        chunked: req.headers["transfer-encoding"] ?? null,
        body: text,
      });
      res.end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const form = new FormData();
    form.append("field", "value");
    form.append("quote\"d", "line\r\nbreak");
    form.append("file", new File(["file body"], "report.txt", { type: "text/plain" }));
    form.append("blob", new Blob([new Uint8Array([0, 255, 1])]));
    await bounded(fetch(`${base}/form`, { method: "POST", body: form }).then((response) => response.text()));
    const requestForm = new FormData();
    requestForm.append("via", "Request");
    await bounded(fetch(new Request(`${base}/request`, { method: "POST", body: requestForm })).then((response) => response.text()));
    await bounded(fetch(`${base}/blob`, { method: "POST", body: new Blob(["blob payload"], { type: "application/x-test" }) }).then((r) => r.text()));
    await bounded(fetch(`${base}/untyped-blob`, { method: "PUT", body: new Blob(["raw"]) }).then((r) => r.text()));
    await bounded(fetch(`${base}/params`, { method: "POST", body: new URLSearchParams({ a: "1", b: "x y" }) }).then((r) => r.text()));
    await bounded(fetch(`${base}/bytes`, { method: "POST", body: new Uint8Array([104, 105]) }).then((r) => r.text()));
    const streamBody = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("streamed "));
        controller.enqueue(new TextEncoder().encode("body"));
        controller.close();
      },
    });
    await bounded(fetch(`${base}/stream`, { method: "POST", body: streamBody, duplex: "half" }).then((r) => r.text()));
    return received;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export async function run() {
  return { blobs: await blobs(), forms: await forms(), parsed: await parsed(), sent: await sent(), fetchLength: fetch.length };
}
