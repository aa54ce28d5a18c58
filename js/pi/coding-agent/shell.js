// Which shell pi runs commands with. On Unix: /bin/bash, else bash on PATH,
// else sh; on Windows: Git Bash, else bash.exe on PATH. A configured
// shellPath wins but must exist. PowerShell is only offered on Windows.
import { accessSync, constants } from "node:fs";
import { delimiter, join, win32 } from "node:path";
import { hostEnv } from "../host-env.js";

const POWERSHELL_ARGS = ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"];

const platform = () => globalThis.process?.platform;

// Plain access(F_OK) and not existsSync: on Windows existsSync also stats,
// which refuses runnable app-execution aliases.
function shellPathExists(path) {
  try {
    accessSync(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

function isExecutable(path) {
  try {
    accessSync(path, platform() === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `executable` on PATH, as `which` or `where` would find it; null when there is none. */
function findExecutableOnPath(executable) {
  const env = hostEnv();
  const pathKey = Object.keys(env).find((key) => key.toLowerCase() === "path") ?? "PATH";
  for (const dir of (env[pathKey] ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, executable);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

// Windows' own System32 bash.exe is the WSL launcher, which mangles a
// command given with -c; pi pipes the command to its stdin instead.
function isLegacyWslBashPath(path) {
  const normalized = win32.normalize(path).toLowerCase();
  const systemRoot = hostEnv().SystemRoot;
  if (systemRoot) {
    if (!/^[a-z]:[\\/]/i.test(systemRoot)) return false;
    return ["System32", "Sysnative"].some((dir) => normalized === win32.join(systemRoot, dir, "bash.exe").toLowerCase());
  }
  return /^[a-z]:\\windows\\(?:system32|sysnative)\\bash\.exe$/.test(normalized);
}

function bashShellConfig(shell) {
  return isLegacyWslBashPath(shell) ? { shell, args: ["-s"], commandTransport: "stdin" } : { shell, args: ["-c"] };
}

/** `{ shell, args }` to run a command with: `customShellPath` when given (it must exist), else the platform's bash. */
export function getShellConfig(customShellPath) {
  if (customShellPath) {
    if (shellPathExists(customShellPath)) return bashShellConfig(customShellPath);
    throw new Error(`Custom shell path not found: ${customShellPath}`);
  }
  if (platform() === "win32") {
    const env = hostEnv();
    const gitBashPaths = [env.ProgramFiles, env["ProgramFiles(x86)"]]
      .filter(Boolean)
      .map((programFiles) => `${programFiles}\\Git\\bin\\bash.exe`);
    const gitBash = gitBashPaths.find(shellPathExists);
    if (gitBash) return bashShellConfig(gitBash);
    const bashOnPath = findExecutableOnPath("bash.exe");
    if (bashOnPath) return bashShellConfig(bashOnPath);
    throw new Error(
      "No bash shell found. Options:\n" +
        "  1. Install Git for Windows: https://git-scm.com/download/win\n" +
        "  2. Add your bash to PATH (Cygwin, MSYS2, etc.)\n" +
        "  3. Set shellPath in settings.json\n\n" +
        `Searched Git Bash in:\n${gitBashPaths.map((path) => `  ${path}`).join("\n")}`,
    );
  }
  if (shellPathExists("/bin/bash")) return bashShellConfig("/bin/bash");
  const bashOnPath = findExecutableOnPath("bash");
  if (bashOnPath) return bashShellConfig(bashOnPath);
  return { shell: "sh", args: ["-c"] };
}

/** PowerShell 7 when installed, else Windows PowerShell; only on Windows. */
export function getPowerShellConfig() {
  if (platform() !== "win32") throw new Error("The powershell tool is only available on Windows.");
  const env = hostEnv();
  let shell = findExecutableOnPath("pwsh.exe");
  // PowerShell 7 need not be on PATH, and may live on any drive.
  if (!shell && env.ProgramFiles) {
    const pwsh7 = win32.join(env.ProgramFiles, "PowerShell", "7", "pwsh.exe");
    if (shellPathExists(pwsh7)) shell = pwsh7;
  }
  shell ??= findExecutableOnPath("powershell.exe");
  if (!shell && env.SystemRoot) {
    const windowsPowerShell = win32.join(env.SystemRoot, "System32", "WindowsPowerShell", "v1.0", "powershell.exe");
    if (shellPathExists(windowsPowerShell)) shell = windowsPowerShell;
  }
  if (!shell) throw new Error("No PowerShell executable found. Install PowerShell or add powershell.exe/pwsh.exe to PATH.");
  return { shell, args: [...POWERSHELL_ARGS] };
}
