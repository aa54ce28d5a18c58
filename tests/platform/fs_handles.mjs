// File descriptors and FileHandle as extensions use them: open with flags
// (an exclusive "wx" create failing with EEXIST the second time, as lock
// files rely on), reads and writes at positions, fstat, close and a closed
// descriptor's EBADF, fs.promises.open's FileHandle, and streams over an fd
// or a byte range.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";

let scratch;
const hide = (text) => String(text).replaceAll(scratch, "<dir>");
const shape = (error) => ({ name: error.name, code: error.code, syscall: error.syscall, errno: error.errno, message: hide(error.message), path: error.path && hide(error.path) });

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: shape(error) };
  }
}

function callbackForm(at) {
  return new Promise((resolve) => {
    fs.open(at("cb.txt"), "w+", (error, fd) => {
      if (error) return resolve({ error: shape(error) });
      fs.write(fd, "callback world", 0, "utf8", (error, written, text) => {
        const buffer = Buffer.alloc(5);
        fs.read(fd, buffer, 0, 5, 9, (error, bytesRead, same) => {
          fs.fstat(fd, (error, stats) => {
            fs.close(fd, (closeError) => {
              resolve({ written, text, bytesRead, read: same.toString(), size: stats.size, closeError });
            });
          });
        });
      });
    });
  });
}

function syncForm(at) {
  const fd = fs.openSync(at("sync.txt"), "w+");
  const written = fs.writeSync(fd, "0123456789");
  const overwrite = fs.writeSync(fd, Buffer.from("AB"), 0, 2, 3);
  const positional = Buffer.alloc(4);
  const bytesRead = fs.readSync(fd, positional, 0, 4, 2);
  const stats = fs.fstatSync(fd);
  fs.ftruncateSync(fd, 6);
  const truncated = fs.fstatSync(fd).size;
  fs.fsyncSync(fd);
  const options = Buffer.alloc(3);
  const viaOptions = fs.readSync(fd, options, { position: 1 });
  fs.closeSync(fd);
  const closed = attempt(() => fs.fstatSync(fd));
  const appendFd = fs.openSync(at("sync.txt"), "a");
  fs.writeSync(appendFd, "+tail");
  fs.closeSync(appendFd);
  const readOnly = fs.openSync(at("sync.txt"), "r");
  const writeToReadOnly = attempt(() => fs.writeSync(readOnly, "x"));
  fs.closeSync(readOnly);

  const lock = at("lock");
  const first = fs.openSync(lock, "wx");
  fs.writeSync(first, String(1234));
  fs.closeSync(first);
  const second = attempt(() => fs.openSync(lock, "wx"));
  const missing = attempt(() => fs.openSync(at("no/such/file"), "r"));
  const badFlag = attempt(() => fs.openSync(at("sync.txt"), "nope"));
  return {
    written,
    overwrite,
    bytesRead,
    positional: positional.toString(),
    size: stats.size,
    isFile: stats.isFile(),
    truncated,
    viaOptions: [viaOptions, options.toString()],
    closed,
    afterAppend: fs.readFileSync(at("sync.txt"), "utf8"),
    writeToReadOnly,
    lock: fs.readFileSync(lock, "utf8"),
    second,
    missing,
    badFlag,
    fdType: typeof first,
  };
}

async function handles(at) {
  const handle = await fsp.open(at("handle.txt"), "w+");
  const fdType = typeof handle.fd;
  await handle.writeFile("handle contents");
  const { bytesWritten } = await handle.write("HANDLE", 0);
  const { bytesWritten: bufferWritten, buffer: written } = await handle.write(Buffer.from("!!"), 0, 2, 13);
  const read = await handle.read(Buffer.alloc(6), 0, 6, 7);
  const readDefault = await handle.read({ buffer: Buffer.alloc(3), position: 0 });
  const stat = await handle.stat();
  const whole = await handle.readFile({ encoding: "utf8" });
  await handle.truncate(6);
  await handle.sync();
  await handle.close();
  const afterClose = await handle.stat().catch(shape);

  const lock = at("promise.lock");
  const lockHandle = await fsp.open(lock, "wx");
  await lockHandle.writeFile("owner");
  await lockHandle.close();
  const second = await fsp.open(lock, "wx").catch(shape);
  await fsp.unlink(lock);
  const again = await fsp.open(lock, "wx");
  await again.close();

  const appendHandle = await fsp.open(at("handle.txt"), "a");
  await appendHandle.appendFile(" appended");
  await appendHandle.close();
  const lines = await fsp.open(at("lines.txt"), "w");
  await lines.writeFile("one\ntwo\nthree\n");
  await lines.close();
  const reader = await fsp.open(at("lines.txt"));
  const collected = [];
  for await (const line of reader.readLines()) collected.push(line);

  return {
    fdType,
    bytesWritten,
    bufferWritten,
    written: written.toString(),
    read: [read.bytesRead, read.buffer.toString()],
    readDefault: [readDefault.bytesRead, readDefault.buffer.toString()],
    size: stat.size,
    whole,
    afterClose,
    afterTruncate: fs.readFileSync(at("handle.txt"), "utf8"),
    second,
    lines: collected,
    missing: await fsp.open(at("missing.txt")).catch(shape),
  };
}

async function streams(at) {
  fs.writeFileSync(at("range.txt"), "0123456789abcdefghij");
  const readAll = async (stream) => {
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return Buffer.concat(chunks).toString();
  };
  const range = await readAll(fs.createReadStream(at("range.txt"), { start: 5, end: 9 }));
  const from = await readAll(fs.createReadStream(at("range.txt"), { start: 15 }));
  const small = [];
  for await (const chunk of fs.createReadStream(at("range.txt"), { highWaterMark: 8 })) small.push(chunk.length);

  const fd = fs.openSync(at("range.txt"), "r");
  const viaFd = await readAll(fs.createReadStream(null, { fd, start: 10, end: 12 }));
  const fdClosed = attempt(() => fs.fstatSync(fd));

  const keepFd = fs.openSync(at("range.txt"), "r");
  const kept = await readAll(fs.createReadStream("", { fd: keepFd, autoClose: false, end: 2 }));
  const stillOpen = fs.fstatSync(keepFd).size;
  fs.closeSync(keepFd);

  const handle = await fsp.open(at("range.txt"));
  const viaHandle = await readAll(handle.createReadStream({ start: 18 }));

  // A write stream at a position overwrites in place ("r+").
  const writer = fs.createWriteStream(at("range.txt"), { flags: "r+", start: 2 });
  writer.write("XY");
  writer.end("Z");
  const writeEvents = [];
  writer.on("open", () => writeEvents.push("open"));
  writer.on("ready", () => writeEvents.push("ready"));
  writer.on("finish", () => writeEvents.push("finish"));
  await new Promise((resolve) => writer.on("close", resolve));
  writeEvents.push("close");

  const outFd = fs.openSync(at("piped.txt"), "w");
  await pipeline(fs.createReadStream(at("range.txt"), { start: 0, end: 4 }), fs.createWriteStream(null, { fd: outFd }));

  const missing = await new Promise((resolve) => fs.createReadStream(at("missing.txt")).on("error", (error) => resolve(shape(error))));
  return {
    range,
    from,
    small,
    viaFd,
    fdClosed,
    kept,
    stillOpen,
    viaHandle,
    overwritten: fs.readFileSync(at("range.txt"), "utf8"),
    writeEvents,
    bytesWritten: writer.bytesWritten,
    piped: fs.readFileSync(at("piped.txt"), "utf8"),
    missing,
  };
}

export async function run({ dir }) {
  scratch = dir;
  const at = (...parts) => path.join(dir, ...parts);
  return {
    callback: await callbackForm(at),
    sync: syncForm(at),
    handles: await handles(at),
    streams: await streams(at),
  };
}
