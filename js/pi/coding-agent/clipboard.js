// pi-coding-agent's `copyToClipboard`. The clipboard belongs to the user's
// desktop or terminal, which the agent embedding pihost knows and pihost
// does not, so the agent is asked first (`host/clipboard.copy`). An agent
// that offers no clipboard leaves pi's own way on Linux and macOS: the
// system's clipboard programs, run as the extension's programs (a sandbox
// checks them). pi's last resort, the OSC 52 escape written to its own
// terminal, is not taken: pihost's standard output is not a terminal it
// owns (under `serve` it carries the protocol).
import { spawn } from "node:child_process";
import process from "node:process";
import { opSession, ops } from "../../runtime/ops.js";

const PROGRAM_TIMEOUT_MS = 5000;

/** Asks the agent; true when it copied the text. */
async function copyThroughAgent(text) {
  if (!ops) return false;
  const answer = await ops.op_pihost_host_request(opSession(), "clipboard.copy", JSON.stringify({ text }));
  return answer !== "" && JSON.parse(answer) === true;
}

/** The clipboard programs pi tries here, in its order. */
function clipboardPrograms(platform, env) {
  if (platform === "darwin") return [["pbcopy", []]];
  if (platform === "win32") return [["clip", []]];
  const programs = [];
  if (env.TERMUX_VERSION) programs.push(["termux-clipboard-set", []]);
  if (env.WAYLAND_DISPLAY) programs.push(["wl-copy", []]);
  if (env.DISPLAY) programs.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
  return programs;
}

/** Runs a clipboard program with `text` on its stdin; true when it exits with 0 in time. */
function runProgram(command, args, text) {
  return new Promise((resolve) => {
    let child;
    try {
      // Clipboard owners may stay running in the background: no output pipes
      // for them to hold, their own process group, and a folder they cannot pin.
      child = spawn(command, args, { stdio: ["pipe", "ignore", "ignore"], cwd: "/", detached: process.platform !== "win32" });
    } catch {
      resolve(false);
      return;
    }
    let settled = false;
    const finish = (copied) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(copied);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(false);
    }, PROGRAM_TIMEOUT_MS);
    child.on("error", () => finish(false));
    child.on("close", (code) => finish(code === 0));
    // A program may exit before it has read everything.
    child.stdin?.on("error", () => {});
    child.stdin?.end(text);
  });
}

function unavailable(platform, env) {
  if (env.TERMUX_VERSION) return "Clipboard unavailable: install the Termux:API app and `termux-api` package";
  if (platform === "linux" && env.WAYLAND_DISPLAY) {
    return "Clipboard unavailable: install `wl-clipboard` (`wl-copy`) or check Wayland access";
  }
  if (platform === "linux" && env.DISPLAY) return "Clipboard unavailable: install `xclip` or `xsel`, or check X11 access";
  return "Clipboard unavailable";
}

/** Copies `text` to the user's clipboard; rejects with pi's "Clipboard unavailable" errors when nothing could. */
export async function copyToClipboard(text) {
  const copied = String(text);
  if (await copyThroughAgent(copied)) return;
  const { platform, env } = process;
  for (const [command, args] of clipboardPrograms(platform, env)) {
    if (await runProgram(command, args, copied)) return;
  }
  throw new Error(unavailable(platform, env));
}
