// fs.watch, fs.promises.watch and fs.watchFile on a scratch directory: the
// events a watcher reports for a file and for a folder (non-recursive and
// recursive) as files are created, changed, renamed and removed; closing;
// aborting a promise watch; polling with watchFile; and the errors of a
// watch on a missing path. File events take time to arrive, so each step
// waits (a bounded time) for what it should cause, and the result is the
// set of distinct events seen, not their order or count.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds, at most `ms`. */
async function until(done, ms = 4000) {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) {
    await sleep(20);
  }
}

/** A `(eventType, filename)` listener that keeps the distinct pairs it heard. */
function recorder() {
  const seen = new Set();
  const key = (eventType, filename) => JSON.stringify([eventType, filename]);
  return {
    listener: (eventType, filename) => seen.add(key(eventType, Buffer.isBuffer(filename) ? `<buffer ${filename}>` : filename)),
    heard: (...pairs) => pairs.every(([eventType, filename]) => seen.has(key(eventType, filename))),
    pairs: () => [...seen].map((pair) => JSON.parse(pair)).sort(),
    size: () => seen.size,
  };
}

function failure(error, dir) {
  const text = (value) => (typeof value === "string" ? value.replaceAll(dir, "<dir>") : value);
  return {
    name: error.name,
    code: error.code,
    errno: error.errno,
    syscall: error.syscall,
    path: text(error.path),
    filename: text(error.filename),
    message: text(error.message),
  };
}

export async function run({ dir }) {
  const at = (...parts) => path.join(dir, ...parts);
  fs.mkdirSync(at("w"));
  fs.writeFileSync(at("w/watched.txt"), "one");

  // One file, its folder, and the folder's whole tree.
  const file = recorder();
  const folder = recorder();
  const tree = recorder();
  const buffers = recorder();
  const unheld = recorder();
  const fileWatcher = fs.watch(at("w/watched.txt"), file.listener);
  const folderWatcher = fs.watch(at("w"), folder.listener);
  const treeWatcher = fs.watch(at("w"), { recursive: true }, tree.listener);
  const bufferWatcher = fs.watch(at("w"), { encoding: "buffer" }, buffers.listener);
  // A watch that does not keep the process alive still reports.
  const unheldWatcher = fs.watch(at("w"), { persistent: false }, unheld.listener);
  const closed = [];
  for (const [name, watcher] of Object.entries({ fileWatcher, folderWatcher, treeWatcher, bufferWatcher })) {
    watcher.on("close", () => closed.push(name));
  }

  fs.appendFileSync(at("w/watched.txt"), " two");
  await until(() => file.heard(["change", "watched.txt"]) && folder.heard(["change", "watched.txt"]));
  fs.writeFileSync(at("w/new.txt"), "new");
  await until(() => folder.heard(["rename", "new.txt"]) && tree.heard(["rename", "new.txt"]));
  fs.renameSync(at("w/new.txt"), at("w/moved.txt"));
  await until(() => folder.heard(["rename", "moved.txt"]) && tree.heard(["rename", "moved.txt"]));
  fs.unlinkSync(at("w/moved.txt"));
  await until(() => tree.size() >= 3 && folder.size() >= 4);
  fs.mkdirSync(at("w/sub"));
  await until(() => folder.heard(["rename", "sub"]) && tree.heard(["rename", "sub"]));
  // A recursive watch sees into a new folder once it knows of it.
  await sleep(150);
  fs.writeFileSync(at("w/sub/deep.txt"), "deep");
  await until(() => tree.heard(["rename", path.join("sub", "deep.txt")]));
  fs.renameSync(at("w/watched.txt"), at("w/renamed.txt"));
  await until(() => file.heard(["rename", "watched.txt"]) && folder.heard(["rename", "renamed.txt"]));
  await sleep(200);

  fileWatcher.close();
  folderWatcher.close();
  treeWatcher.close();
  bufferWatcher.close();
  unheldWatcher.close();
  const afterClose = folder.size() + tree.size() + file.size();
  fs.writeFileSync(at("w/after-close.txt"), "late");
  await sleep(200);

  // Node 22's recursive watch on Linux is its own (built on non-recursive
  // watches and stat): it says "rename" for every entry that appears or
  // goes, as the native one does, but "change" differently (none for a new
  // file's first write, a spurious one after a rename). The tree's renames
  // and the names it reported are what both agree on.
  const treePairs = tree.pairs();
  const result = {
    file: file.pairs(),
    folder: folder.pairs(),
    treeRenames: treePairs.filter(([eventType]) => eventType === "rename"),
    treeNames: [...new Set(treePairs.map(([, filename]) => filename))].sort(),
    treeEventTypes: [...new Set(treePairs.map(([eventType]) => eventType))].sort(),
    buffers: buffers.heard(["rename", "<buffer new.txt>"]),
    notPersistent: unheld.heard(["rename", "new.txt"], ["change", "watched.txt"]),
    closed: closed.sort(),
    quietAfterClose: folder.size() + tree.size() + file.size() === afterClose,
  };

  // fs.promises.watch, ended by an AbortSignal.
  fs.mkdirSync(at("p"));
  const controller = new AbortController();
  const promised = recorder();
  const iterating = (async () => {
    try {
      for await (const { eventType, filename } of fsp.watch(at("p"), { signal: controller.signal })) {
        promised.listener(eventType, filename);
      }
      return "ended";
    } catch (error) {
      return { name: error.name, code: error.code, cause: error.cause };
    }
  })();
  fs.writeFileSync(at("p/one.txt"), "1");
  await until(() => promised.heard(["rename", "one.txt"], ["change", "one.txt"]));
  controller.abort("enough");
  result.promises = { events: promised.pairs(), ended: await iterating };
  const preAborted = fsp.watch(at("p"), { signal: AbortSignal.abort("before") });
  result.promisesPreAborted = await preAborted.next().then(
    (step) => ({ step }),
    (error) => ({ name: error.name, code: error.code, cause: error.cause }),
  );

  // fs.watchFile polls with stat: each change reports the new and old stats.
  const polled = at("polled.txt");
  fs.writeFileSync(polled, "a");
  const polls = new Set();
  const onPoll = (current, previous) => polls.add(JSON.stringify([previous.size, current.size, current.isFile()]));
  const statWatcher = fs.watchFile(polled, { interval: 40 }, onPoll);
  let stopped = false;
  statWatcher.on("stop", () => {
    stopped = true;
  });
  await sleep(250);
  fs.appendFileSync(polled, "bcd");
  await until(() => polls.has(JSON.stringify([1, 4, true])));
  fs.unlinkSync(polled);
  await until(() => polls.has(JSON.stringify([4, 0, false])));
  fs.unwatchFile(polled, onPoll);
  await until(() => stopped, 1000);
  const missingPolls = [];
  const onMissing = (current, previous) => missingPolls.push([current.size, current.mtimeMs, previous.mtimeMs]);
  fs.watchFile(at("never.txt"), { interval: 40 }, onMissing);
  await until(() => missingPolls.length > 0, 1000);
  fs.unwatchFile(at("never.txt"));
  result.watchFile = { polls: [...polls].map((poll) => JSON.parse(poll)).sort(), stopped, missing: missingPolls };

  // A watch that cannot start.
  const attempt = (fn) => {
    try {
      const watcher = fn();
      watcher.close();
      return "started";
    } catch (error) {
      return failure(error, dir);
    }
  };
  result.missing = attempt(() => fs.watch(at("nope.txt")));
  result.missingRecursive = attempt(() => fs.watch(at("nope"), { recursive: true }));
  result.notADirectory = attempt(() => fs.watch(at("p/one.txt/inner")));
  const missingPromise = fsp.watch(at("nope.txt"));
  result.missingPromise = await missingPromise.next().then(
    () => "started",
    (error) => failure(error, dir),
  );
  result.badOptions = attempt(() => fs.watch(at("p"), { recursive: "yes" }));
  return result;
}
