// node:os and process facts that must have Node's shapes (values are the
// machine's, so only types and invariants are compared), process.chdir
// moving relative paths, and the small modules: process, tty, perf_hooks.
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import processModule from "node:process";
import tty from "node:tty";
import { performance as perf } from "node:perf_hooks";
import { execSync } from "node:child_process";

export async function run({ dir }) {
  const before = process.cwd();
  process.chdir(dir);
  fs.writeFileSync("relative.txt", "here");
  const landed = fs.readFileSync(path.join(dir, "relative.txt"), "utf8");
  const childCwd = execSync("pwd").toString().trim() === fs.realpathSync(dir);
  let missing;
  try {
    process.chdir("no-such-dir");
  } catch (error) {
    missing = [error.code, error.syscall];
  }
  process.chdir(before);
  const user = os.userInfo();
  return {
    landed,
    childCwd,
    missing,
    back: process.cwd() === before,
    os: {
      types: [typeof os.totalmem(), typeof os.freemem(), typeof os.uptime(), os.loadavg().length, typeof os.release(), typeof os.machine()],
      memory: os.freemem() <= os.totalmem() && os.totalmem() > 0,
      user: [typeof user.uid, typeof user.username, user.homedir === os.homedir()],
      constants: [os.constants.signals.SIGTERM, os.constants.signals.SIGKILL, os.constants.errno.ENOENT],
      eol: os.EOL,
      cpus: os.cpus().length === os.availableParallelism(),
      // Node's homedir follows the environment's HOME, set or not.
      homeFollowsEnv: (() => {
        const saved = process.env.HOME;
        try {
          process.env.HOME = "/tmp/elsewhere";
          const moved = os.homedir();
          process.env.HOME = "";
          const empty = os.homedir();
          delete process.env.HOME;
          const unset = os.homedir() === user.homedir;
          return [moved, empty, unset];
        } finally {
          process.env.HOME = saved;
        }
      })(),
    },
    process: {
      same: processModule === process,
      ppid: typeof process.ppid,
      rss: process.memoryUsage().rss > 0,
      kill: process.kill(process.pid, 0),
      stdinReadable: typeof process.stdin.on,
    },
    tty: [tty.isatty(1), typeof tty.WriteStream],
    perf: perf === performance,
    // The epoch time the process (pihost: the runtime) started, before now.
    timeOrigin: [
      typeof performance.timeOrigin,
      performance.timeOrigin <= Date.now() && Date.now() - performance.timeOrigin < 600000,
      Math.abs(performance.timeOrigin + performance.now() - Date.now()) < 1000,
    ],
  };
}
