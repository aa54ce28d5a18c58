// Opens a URL in the user's browser the way pi does: the platform's opener
// run as a program of the extension (the sandbox checks it), never through
// a shell, which would re-read characters of an untrusted URL.
import { spawn } from "node:child_process";

function openerFor(platform, target) {
  if (platform === "darwin") return ["open", [target]];
  if (platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", target]];
  return ["xdg-open", [target]];
}

/** Best effort: the caller shows the URL as well, so a missing opener is not an error. */
export function openBrowser(target) {
  const [command, args] = openerFor(globalThis.process?.platform, target);
  // No launcher needs the session's folder, and a long one breaks some (WSL's explorer.exe).
  const child = spawn(command, args, { stdio: "ignore", detached: true, cwd: "/" });
  child.on("error", () => {});
  child.unref();
}
