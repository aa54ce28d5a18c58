// Failures extensions meet at the edges of child_process and fs: spawn with
// a cwd that is a file (Node throws ENOTDIR from spawn itself, while a
// missing cwd is an 'error' event), the same for spawnSync, execSync and
// exec; and lock files taken with fs.promises.open(path, "wx"), where only
// one of several racing takers wins and the rest see EEXIST.
import { spawn, spawnSync, execSync, exec } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

let scratch;
const hide = (value) => (typeof value === "string" ? value.replaceAll(scratch, "<dir>") : value);
const shape = (error) => ({
  name: error.name,
  code: error.code,
  errno: error.errno,
  syscall: error.syscall,
  message: hide(error.message),
  path: hide(error.path),
  spawnargs: error.spawnargs,
});

function bounded(promise, ms = 5000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function spawning(file) {
  let thrown;
  try {
    const child = spawn("pwd", [], { cwd: file });
    thrown = { threw: false, pid: typeof child.pid };
    child.on("error", () => {});
  } catch (error) {
    thrown = { threw: true, ...shape(error) };
  }
  let under;
  try {
    spawn("pwd", [], { cwd: path.join(file, "below") }).on("error", () => {});
    under = "no throw";
  } catch (error) {
    under = shape(error);
  }
  const missing = await bounded(
    new Promise((resolve) => {
      try {
        const child = spawn("pwd", [], { cwd: path.join(scratch, "no-such-dir") });
        const events = [];
        child.on("error", (error) => events.push(["error", shape(error)]));
        child.on("close", (code) => {
          events.push(["close", code]);
          resolve({ threw: false, pid: child.pid ?? null, events });
        });
      } catch (error) {
        resolve({ threw: true, ...shape(error) });
      }
    }),
  );
  const sync = spawnSync("pwd", [], { cwd: file });
  let execSyncError;
  try {
    execSync("pwd", { cwd: file, stdio: "pipe" });
  } catch (error) {
    execSyncError = shape(error);
  }
  let execThrown;
  try {
    exec("pwd", { cwd: file }, () => {});
    execThrown = "no throw";
  } catch (error) {
    execThrown = shape(error);
  }
  return {
    thrown,
    under,
    missing,
    sync: { error: sync.error && shape(sync.error), status: sync.status, signal: sync.signal },
    execSync: execSyncError,
    exec: execThrown,
  };
}

async function locks() {
  const lock = path.join(scratch, "work.lock");
  const take = async (who) => {
    try {
      const handle = await fsp.open(lock, "wx");
      await handle.writeFile(who);
      await handle.close();
      return [who, "took it"];
    } catch (error) {
      return [who, error.code];
    }
  };
  const racing = await Promise.all(["a", "b", "c", "d"].map(take));
  const owner = fs.readFileSync(lock, "utf8");
  const winners = racing.filter(([, outcome]) => outcome === "took it").map(([who]) => who);
  const losers = racing.filter(([, outcome]) => outcome !== "took it").map(([, outcome]) => outcome);
  const held = await take("e");
  await fsp.rm(lock);
  const released = await take("f");
  // Exclusive creation does not follow a dangling symlink (it is an existing name).
  fs.symlinkSync(path.join(scratch, "nowhere"), path.join(scratch, "link.lock"));
  const throughLink = await fsp.open(path.join(scratch, "link.lock"), "wx").then(
    () => "opened",
    (error) => error.code,
  );
  const directory = await fsp.open(scratch, "wx").then(
    () => "opened",
    (error) => error.code,
  );
  return {
    oneWinner: winners.length === 1 && owner === winners[0],
    losers,
    held,
    released,
    afterRelease: fs.readFileSync(lock, "utf8"),
    throughLink,
    directory,
  };
}

export async function run({ dir }) {
  scratch = dir;
  const file = path.join(dir, "a-file");
  fs.writeFileSync(file, "not a directory");
  return { spawning: await spawning(file), locks: await locks() };
}
