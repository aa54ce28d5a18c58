// Cases of pi-coding-agent's powershell tool for the pi package case table
// (pi-packages-cases.mjs): what the factories declare, how arguments reach
// the operations (command prefix, session variables, spawn hook), how the
// tool reports what operations throw, and the error pi gives where
// PowerShell cannot run. The recording machine runs Linux without pwsh, so
// the local operations always fail with getPowerShellConfig's error there.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Renderers need pi's theme, which pihost's tools leave out.
const RENDER_KEYS = new Set(["renderCall", "renderResult"]);

/** What a factory's object declares: every field but the functions and renderers. */
function describeTool(tool) {
  const keys = Object.keys(tool).filter((key) => !RENDER_KEYS.has(key)).sort();
  const described = { keys };
  for (const key of keys) described[key] = typeof tool[key] === "function" ? typeof tool[key] : tool[key];
  return described;
}

/** Runs `run(dir)` in a fresh temp directory (its real path), removed afterwards. */
async function inTempDir(run) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-powershell-")));
  try {
    return JSON.parse(JSON.stringify(await run(dir)).replaceAll(dir, "<tmp>"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Operations that record what they are asked to run and answer with `answer`. */
function recordingOperations(seen, answer) {
  return {
    exec: async (command, cwd, { onData, timeout, env }) => {
      const sessionVariables = Object.fromEntries(Object.entries(env ?? {}).filter(([name]) => name.startsWith("PI_") || name === "HOOK_VAR"));
      seen.push({ command, cwd, timeout, sessionVariables });
      return answer(onData);
    },
  };
}

/** Executes a powershell tool once; its result (wall time dropped) or the error it throws. */
async function executeOnce(tool, params, { ctx, abort } = {}) {
  const controller = new AbortController();
  if (abort) controller.abort();
  try {
    const result = await tool.execute("call-1", params, controller.signal, undefined, ctx);
    if (result.structuredContent) result.structuredContent.wall_time_seconds = "<seconds>";
    return { result };
  } catch (error) {
    return { thrown: error?.message ?? String(error) };
  }
}

const SESSION_CTX = (cwd) => ({
  cwd,
  sessionManager: { getSessionId: () => "session-1", getSessionFile: () => "/sessions/one.jsonl" },
  model: { provider: "prov", id: "model-1", input: ["text"] },
  thinkingLevel: "medium",
});

export function addPowerShellCases(add, agent) {
  add("powershell: createPowerShellTool declares", () => inTempDir((dir) => describeTool(agent.createPowerShellTool(dir))));
  add("powershell: createPowerShellToolDefinition declares", () =>
    inTempDir((dir) => describeTool(agent.createPowerShellToolDefinition(dir))),
  );
  add("powershell: session environment hidden drops the guidelines", () =>
    inTempDir((dir) => {
      const tool = agent.createPowerShellTool(dir, { exposeSessionEnvironment: false });
      return { promptSnippet: tool.promptSnippet, promptGuidelines: tool.promptGuidelines };
    }),
  );
  add("powershell: local operations object", () => Object.keys(agent.createLocalPowerShellOperations()).sort());
  add("powershell: local operations off Windows", () =>
    inTempDir(async (dir) => {
      try {
        await agent.createLocalPowerShellOperations().exec("Get-Location", dir, { onData: () => {} });
        return "ran";
      } catch (error) {
        return { thrown: error.message };
      }
    }),
  );
  add("powershell: execute off Windows", () =>
    inTempDir((dir) => executeOnce(agent.createPowerShellTool(dir), { command: "Write-Output hi" })),
  );
  add("powershell: definition execute off Windows", () =>
    inTempDir((dir) => executeOnce(agent.createPowerShellToolDefinition(dir), { command: "Write-Output hi", timeout: 2 })),
  );
  add("powershell: custom operations see the command as given", () =>
    inTempDir(async (dir) => {
      const seen = [];
      const operations = recordingOperations(seen, (onData) => {
        onData(new TextEncoder().encode("PS output\n"));
        return { exitCode: 0 };
      });
      const outcome = await executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "Get-ChildItem", timeout: 3 });
      return { seen, outcome };
    }),
  );
  add("powershell: command prefix, session variables and spawn hook", () =>
    inTempDir(async (dir) => {
      const seen = [];
      const operations = recordingOperations(seen, () => ({ exitCode: 0 }));
      const tool = agent.createPowerShellTool(dir, {
        operations,
        commandPrefix: "$ErrorActionPreference = 'Stop'",
        spawnHook: (context) => ({ ...context, command: `${context.command}; Write-Output hooked`, env: { ...context.env, HOOK_VAR: "set" } }),
      });
      const outcome = await executeOnce(tool, { command: "Get-Date" }, { ctx: SESSION_CTX(dir) });
      return { seen, outcome };
    }),
  );
  add("powershell: session variables hidden", () =>
    inTempDir(async (dir) => {
      const seen = [];
      const operations = recordingOperations(seen, () => ({ exitCode: 0 }));
      const tool = agent.createPowerShellTool(dir, { operations, exposeSessionEnvironment: false });
      await executeOnce(tool, { command: "Get-Date" }, { ctx: SESSION_CTX(dir) });
      return seen;
    }),
  );
  add("powershell: exit code from operations", () =>
    inTempDir(async (dir) => {
      const operations = recordingOperations([], (onData) => {
        onData(new TextEncoder().encode("failed here\n"));
        return { exitCode: 1 };
      });
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "throw 'x'" });
    }),
  );
  add("powershell: operations time out", () =>
    inTempDir((dir) => {
      const operations = { exec: async () => { throw new Error("timeout:4"); } };
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "Start-Sleep 9", timeout: 4 });
    }),
  );
  add("powershell: aborted before", () =>
    inTempDir((dir) => {
      const operations = { exec: async (_command, _cwd, { signal }) => { if (signal?.aborted) throw new Error("aborted"); return { exitCode: 0 }; } };
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "Get-Date" }, { abort: true });
    }),
  );
  add("powershell: null exit code", () =>
    inTempDir((dir) => {
      const operations = { exec: async () => ({ exitCode: null }) };
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "Get-Date" });
    }),
  );
  add("powershell: operations error passes through", () =>
    inTempDir((dir) => {
      const operations = { exec: async () => { throw new Error("remote host unreachable"); } };
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "Get-Date" });
    }),
  );
  add("powershell: no output", () =>
    inTempDir((dir) => {
      const operations = { exec: async () => ({ exitCode: 0 }) };
      return executeOnce(agent.createPowerShellTool(dir, { operations }), { command: "$null" });
    }),
  );
}
