// node:fs and node:fs/promises on a scratch directory: the file operations
// an extension does, and Node's error codes and messages when they fail.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: { code: error.code, message: error.message.replaceAll(globalThis.__scratch, "<dir>") } };
  }
}

export async function run({ dir }) {
  globalThis.__scratch = dir;
  const at = (...parts) => path.join(dir, ...parts);
  fs.mkdirSync(at("a/b/c"), { recursive: true });
  fs.writeFileSync(at("a/hello.txt"), "hello");
  fs.appendFileSync(at("a/hello.txt"), " world");
  await fsp.writeFile(at("a/b/data.json"), JSON.stringify({ ok: true }));
  await fsp.copyFile(at("a/hello.txt"), at("a/copy.txt"));
  await fsp.rename(at("a/copy.txt"), at("a/moved.txt"));
  fs.symlinkSync(at("a/hello.txt"), at("a/link.txt"));
  const entries = fs.readdirSync(at("a"), { withFileTypes: true }).map((entry) => [entry.name, entry.isFile(), entry.isDirectory(), entry.isSymbolicLink()]);
  const stat = fs.statSync(at("a/hello.txt"));
  const lstat = fs.lstatSync(at("a/link.txt"));
  const temp = await fsp.mkdtemp(at("tmp-"));
  const result = {
    read: fs.readFileSync(at("a/hello.txt"), "utf8"),
    readBuffer: fs.readFileSync(at("a/hello.txt")).length,
    json: JSON.parse(await fsp.readFile(at("a/b/data.json"), "utf8")),
    moved: fs.existsSync(at("a/moved.txt")) && !fs.existsSync(at("a/copy.txt")),
    entries: entries.sort(),
    sorted: (await fsp.readdir(at("a"))).sort(),
    stat: [stat.isFile(), stat.size, typeof stat.mtimeMs, stat.mtime instanceof Date],
    lstat: [lstat.isSymbolicLink(), fs.statSync(at("a/link.txt")).isFile()],
    realpath: fs.realpathSync(at("a/link.txt")) === fs.realpathSync(at("a/hello.txt")),
    readlink: fs.readlinkSync(at("a/link.txt")) === at("a/hello.txt"),
    mkdtemp: path.basename(temp).startsWith("tmp-") && fs.statSync(temp).isDirectory(),
    access: await fsp.access(at("a/hello.txt")).then(() => "ok"),
    missing: attempt(() => fs.readFileSync(at("nope.txt"))),
    missingAsync: await fsp.readFile(at("nope.txt")).catch((error) => error.code),
    notDir: attempt(() => fs.readdirSync(at("a/hello.txt"))),
    exists: attempt(() => fs.mkdirSync(at("a"))),
    notEmpty: attempt(() => fs.rmdirSync(at("a"))),
    callback: await new Promise((resolve) => fs.readFile(at("a/hello.txt"), "utf8", (error, text) => resolve([error, text]))),
  };
  await fsp.rm(at("a"), { recursive: true, force: true });
  fs.rmSync(at("never-existed"), { force: true });
  result.removed = fs.existsSync(at("a"));
  return result;
}
