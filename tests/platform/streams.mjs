// node:stream, node:readline and node:string_decoder together: the pieces
// child processes and line-oriented tools are built from.
import { Readable, Writable, Transform, PassThrough, pipeline } from "node:stream";
import { pipeline as pipelinePromise } from "node:stream/promises";
import { createInterface } from "node:readline";
import { StringDecoder } from "node:string_decoder";

export async function run() {
  const readAll = async (stream) => {
    const chunks = [];
    for await (const chunk of stream) chunks.push(typeof chunk === "string" ? chunk : chunk.toString());
    return chunks;
  };
  const upper = new Transform({
    transform(chunk, _encoding, callback) {
      callback(null, chunk.toString().toUpperCase());
    },
  });
  const sink = [];
  await pipelinePromise(
    Readable.from(["a", "b", "c"]),
    upper,
    new Writable({
      write(chunk, _encoding, callback) {
        sink.push(chunk.toString());
        callback();
      },
    }),
  );
  const events = [];
  const readable = new Readable({ read() {} });
  readable.on("data", (chunk) => events.push(`data:${chunk}`));
  readable.on("end", () => events.push("end"));
  readable.on("close", () => events.push("close"));
  readable.push("x");
  readable.push("y");
  readable.push(null);
  await new Promise((resolve) => readable.on("close", resolve));
  const pass = new PassThrough();
  const lines = [];
  const rl = createInterface({ input: pass, crlfDelay: Infinity });
  rl.on("line", (line) => lines.push(line));
  const closed = new Promise((resolve) => rl.on("close", resolve));
  pass.write("first li");
  pass.write("ne\r\nsecond\nthi");
  pass.end("rd");
  await closed;
  const iterated = [];
  for await (const line of createInterface({ input: Readable.from(["one\ntwo\n", "three"]) })) iterated.push(line);
  const decoder = new StringDecoder("utf8");
  const euro = Buffer.from("€");
  const decoded = [decoder.write(euro.subarray(0, 1)), decoder.write(euro.subarray(1)), decoder.end()];
  const failed = await new Promise((resolve) =>
    pipeline(
      new Readable({
        read() {
          this.destroy(new Error("source broke"));
        },
      }),
      new PassThrough(),
      (error) => resolve(error?.message),
    ),
  );
  const objectMode = await readAll(Readable.from([{ a: 1 }, { b: 2 }]).map?.((o) => JSON.stringify(o)) ?? Readable.from(['{"a":1}', '{"b":2}']));
  return { sink, events, lines, iterated, decoded, failed, objectMode, fromString: await readAll(Readable.from("whole")) };
}
