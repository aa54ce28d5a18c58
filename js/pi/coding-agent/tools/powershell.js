// pi's powershell tool: the bash tool's shell runner with PowerShell's
// config. Sessions register it next to bash (inactive unless selected); on
// anything but Windows running it fails with getPowerShellConfig's error.
import { getPowerShellConfig } from "../shell.js";
import { createLocalShellOperations, createShellToolDefinition } from "./bash.js";
import { wrapToolDefinition } from "./wrap.js";

const UTF8_OUTPUT_PREFIX = "try { [Console]::OutputEncoding=[System.Text.Encoding]::UTF8 } catch {}\n";
// Windows PowerShell 5.1 reports redirected native stderr as a failure although
// the command exited 0; the suffix exits 0 in that case and keeps -Command's
// rule otherwise. The lone `;` keeps an unfinished last statement a parse error.
const WINDOWS_POWERSHELL_EXIT_SUFFIX =
  '\n;\nif ($?) { exit 0 }\nif (($LASTEXITCODE -eq 0) -and ("$($Error[0].FullyQualifiedErrorId)" -like "NativeCommandError*")) { exit 0 }\nexit 1';

const powershellToolConfig = {
  name: "powershell",
  label: "powershell",
  shellName: "PowerShell",
  promptSnippet: "Execute PowerShell commands",
  promptGuidelines: ["You can inspect PI_* environment variables for current model and session details."],
  tempFilePrefix: "pi-powershell",
};

function baseName(file) {
  return file.split(/[\\/]/).pop();
}

export function createLocalPowerShellOperations() {
  return {
    exec: async (command, cwd, options) => {
      const config = getPowerShellConfig();
      // A final backtick would continue the command's last line into the suffix.
      const suffix = baseName(config.shell).toLowerCase() === "powershell.exe" && !command.endsWith("`") ? WINDOWS_POWERSHELL_EXIT_SUFFIX : "";
      return createLocalShellOperations("PowerShell", () => config).exec(`${UTF8_OUTPUT_PREFIX}${command}${suffix}`, cwd, options);
    },
  };
}

export function createPowerShellToolDefinition(cwd, options) {
  return createShellToolDefinition(cwd, powershellToolConfig, { ...options, operations: options?.operations ?? createLocalPowerShellOperations() });
}

export function createPowerShellTool(cwd, options) {
  const definition = createPowerShellToolDefinition(cwd, options);
  const tool = wrapToolDefinition(definition);
  Object.assign(tool, { promptSnippet: definition.promptSnippet, promptGuidelines: definition.promptGuidelines });
  return tool;
}
