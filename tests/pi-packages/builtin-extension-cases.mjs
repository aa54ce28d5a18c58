// Cases of pi-coding-agent's built-in extension factories and its RpcClient
// for the pi package case table (pi-packages-cases.mjs). The tool_search
// factory runs against a small recording ExtensionAPI; the RpcClient drives a
// fake RPC agent written into a fresh temp directory (shown as <tmp>), which
// answers each command with what it received and emits a few events.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stabilizer } from "./session-manager-cases.mjs";

/** A pi ExtensionAPI that records registrations and keeps tools in memory. */
function recordingPi(allTools = [], active = []) {
  const registered = [];
  let activeTools = [...active];
  const changes = [];
  return {
    registered,
    changes,
    pi: {
      registerTool: (tool) => registered.push(tool),
      getAllTools: () => allTools,
      getActiveTools: () => [...activeTools],
      setActiveTools: (names) => {
        changes.push(names);
        activeTools = [...names];
      },
    },
  };
}

const schema = (properties) => ({ type: "object", properties, required: Object.keys(properties) });

const SEARCHABLE_TOOLS = [
  {
    name: "mcp__github__list_issues",
    description: "List issues of a GitHub repository.\nSupports filters.",
    parameters: schema({ repo: { type: "string", description: "Repository owner/name" }, state: { type: "string" } }),
    exposure: "deferred",
    namespace: { name: "github", description: "GitHub API", instructions: "Use for repositories and pull requests." },
  },
  {
    name: "mcp__github__create_pull_request",
    description: "Open a pull request from a branch.",
    parameters: schema({ title: { type: "string", description: "Title of the pull request" }, head: { type: "string" } }),
    exposure: "deferred",
    namespace: { name: "github", description: "GitHub API" },
  },
  {
    name: "mcp__peekaboo__app",
    description: "Launch, quit or focus an application window.",
    parameters: {
      type: "object",
      properties: { target: { $ref: "#/$defs/Target" }, again: { $ref: "#/$defs/Target" } },
      $defs: { Target: { type: "object", description: "Which window to take a screenshot of", properties: { windowId: { type: "number" } } } },
    },
    exposure: "codemode",
  },
  {
    name: "mcp__peekaboo__see",
    description: "Capture a screenshot of the screen or a window and describe it.",
    parameters: schema({ mode: { anyOf: [{ type: "string", description: "screen or window" }, { type: "null" }] } }),
    exposure: "codemode",
  },
  {
    name: "dev-radius",
    description: "Searches files within a radius of the cursor.",
    parameters: schema({ paths: { type: "array", items: { type: "string", description: "Glob patterns" } } }),
    exposure: "deferred",
  },
  { name: "weather", description: "Current weather for a city.", parameters: schema({ city: { type: "string" } }), exposure: "direct" },
  { name: "hidden_db", description: "Query the issues database.", parameters: schema({ sql: { type: "string" } }), exposure: "hidden" },
  { name: "read", description: "Read a file.", parameters: schema({ path: { type: "string" } }) },
  { name: "mcp__jira__search_issues", description: "Search issues with JQL.", parameters: schema({ jql: { type: "string" } }), exposure: "deferred" },
  { name: "中文工具", description: "搜索 文档 和 代码", parameters: schema({ 查询: { type: "string" } }), exposure: "deferred" },
];

/** The RPC agent the client spawns: echoes each command, emits events, reacts to a few. */
const FAKE_AGENT = `
const write = (value) => process.stdout.write(JSON.stringify(value) + "\\n");
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\\n")) !== -1) {
    const command = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    handle(command);
  }
});
function handle(command) {
  const { id, type } = command;
  const ok = (data) => write({ type: "response", id, command: type, success: true, data });
  switch (type) {
    case "hello":
      // Only answers, so nothing races the client's start-up grace period.
      process.stdout.write("not json at all\\n");
      write({ type: "greeting" });
      return ok({ argv: process.argv.slice(2), cwd: process.cwd(), marker: process.env.RPC_CASE_MARKER ?? null });
    case "prompt":
      ok({ disposition: "started" });
      write({ type: "agent_start" });
      write({ type: "message_update", text: "line\\u2028sep" + command.message });
      write({ type: "agent_settled" });
      return;
    case "steer":
    case "follow_up":
      return ok({ disposition: "queued", echo: command });
    case "get_available_models":
      return ok({ models: [{ provider: "faux", id: "m1" }] });
    case "get_available_thinking_levels":
      return ok({ levels: ["off", "low"] });
    case "get_fork_messages":
      return ok({ messages: [{ entryId: "e1", text: "hi" }] });
    case "get_last_assistant_text":
      return ok({ text: "last" });
    case "get_messages":
      return ok({ messages: [] });
    case "get_commands":
      return ok({ commands: [{ name: "c" }] });
    case "set_model":
      return write({ type: "response", id, command: type, success: false, error: "Model not found: " + command.provider + "/" + command.modelId });
    case "unanswered":
      return;
    case "crash":
      // Exits later, so "boom" has reached the client's stderr first even on a
      // loaded machine.
      process.stderr.write("boom\\n");
      return setTimeout(() => process.exit(7), 300);
    default:
      // A CRLF-terminated response split over two writes.
      const text = JSON.stringify({ type: "response", id, command: type, success: true, data: { echo: command } });
      process.stdout.write(text.slice(0, 5));
      setTimeout(() => process.stdout.write(text.slice(5) + "\\r\\n"), 5);
  }
}
`;

export function addBuiltinExtensionCases(add, agent) {
  // --- tool_search --------------------------------------------------------

  add("createToolSearchExtension: registers tool_search, inactive", () => {
    const { pi, registered } = recordingPi();
    const factory = agent.createToolSearchExtension();
    const returned = factory(pi);
    const [tool] = registered;
    return { factoryType: typeof factory, returned, count: registered.length, tool, keys: Object.keys(tool), reaches: tool.reachesTools() };
  });

  const search = async (params, active = [], tools = SEARCHABLE_TOOLS) => {
    const { pi, registered, changes } = recordingPi(tools, active);
    agent.createToolSearchExtension()(pi);
    try {
      const result = await registered[0].execute("call-1", params, undefined, undefined, {});
      return { result, changes };
    } catch (error) {
      return { threw: error.message, changes };
    }
  };

  const queries = [
    "issues",
    "list issues",
    "pull request",
    "screenshot window",
    "peekaboo app",
    "app",
    "thread_read",
    "github",
    "dev-radius",
    "DEV_RADIUS",
    "list_issues",
    "github__list_issues",
    "ListIssues",
    "glob patterns",
    "weather",
    "the of and",
    "searches",
    "代码",
    "文档 工具",
    "window target",
    "zzz nothing",
  ];
  for (const query of queries) add(`tool_search: query ${JSON.stringify(query)}`, () => search({ query }));
  add("tool_search: limit 1", () => search({ query: "issues", limit: 1 }));
  add("tool_search: limit 2 with one active", () => search({ query: "issues pull", limit: 2 }, ["read", "mcp__github__list_issues"]));
  add("tool_search: empty query", () => search({ query: "   " }));
  add("tool_search: limit 0", () => search({ query: "issues", limit: 0 }));
  add("tool_search: limit 1.5", () => search({ query: "issues", limit: 1.5 }));
  add("tool_search: no tools", () => search({ query: "issues" }, [], []));
  add("tool_search: all active", () =>
    search({ query: "issues" }, SEARCHABLE_TOOLS.map((tool) => tool.name)),
  );
  add("tool_search: ties keep order", () =>
    search({ query: "alpha" }, [], [
      { name: "t_one", description: "alpha beta", parameters: schema({}), exposure: "deferred" },
      { name: "t_two", description: "alpha beta", parameters: schema({}), exposure: "deferred" },
      { name: "t_three", description: "Alpha", parameters: { type: "object", properties: { x: { $ref: "#/nowhere" }, y: { $ref: "#/%E0%A4%A" } } }, exposure: "codemode" },
    ]),
  );

  // --- RpcClient ----------------------------------------------------------

  /** Runs `run(client, tmp)` against the fake agent; the client is stopped afterwards. */
  const withAgent = async (run, options = {}, script = FAKE_AGENT) => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-rpc-")));
    const cliPath = path.join(tmp, "fake-agent.cjs");
    fs.writeFileSync(cliPath, script);
    const client = new agent.RpcClient({ cliPath, cwd: tmp, ...options });
    try {
      return stabilizer(tmp)(await run(client, tmp));
    } catch (error) {
      return stabilizer(tmp)({ threw: error.message });
    } finally {
      await client.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  };

  add("RpcClient: fresh instance", () => {
    const client = new agent.RpcClient({ cliPath: "x.js" });
    const prototypeNames = Object.getOwnPropertyNames(agent.RpcClient.prototype).sort();
    return { client, stderr: client.getStderr(), prototypeNames };
  });

  add("RpcClient: handleLine routes responses and events", () => {
    const client = new agent.RpcClient();
    const seen = [];
    const resolved = [];
    client.onEvent((event) => {
      seen.push(["first", event]);
      if (event.boom) throw new Error("listener failed");
    });
    client.onEvent((event) => seen.push(["second", event]));
    client.pendingRequests.set("req_1", { resolve: (response) => resolved.push(response), reject: () => resolved.push("rejected") });
    client.handleLine('{"type":"response","id":"req_1","success":true}');
    client.handleLine('{"type":"response","id":"req_1","success":true,"again":1}');
    client.handleLine('{"type":"response","success":false}');
    client.handleLine("garbage");
    client.handleLine('{"type":"x","boom":true}');
    client.handleLine("null");
    client.handleLine('{"type":"after"}');
    let data;
    try {
      data = [client.getData({ success: true, data: { a: 1 } }), client.getData({ success: false, error: "nope" })];
    } catch (error) {
      data = { threw: error.message };
    }
    return { seen, resolved, pending: client.pendingRequests.size, data, exit: client.createProcessExitError(null, "SIGTERM").message };
  });

  add("RpcClient: send before start", async () => {
    const client = new agent.RpcClient();
    try {
      await client.getState();
      return "no error";
    } catch (error) {
      return { threw: error.message };
    }
  });

  add("RpcClient: stop before start", async () => {
    const client = new agent.RpcClient();
    return { stopped: await client.stop() };
  });

  add("RpcClient: start passes arguments, env and cwd; ignores non-JSON lines", () => {
    const events = [];
    return withAgent(
      async (client) => {
        client.onEvent((event) => events.push(event));
        await client.start();
        const hello = await client.send({ type: "hello" });
        let again;
        try {
          await client.start();
        } catch (error) {
          again = error.message;
        }
        return { hello, events, again };
      },
      { provider: "faux", model: "m1", args: ["--no-session", "--x"], env: { RPC_CASE_MARKER: "set" } },
    );
  });

  add("RpcClient: commands and what they return", () =>
    withAgent(async (client) => {
      await client.start();
      const results = {};
      results.steer = await client.steer("s", [{ type: "image", data: "AA", mimeType: "image/png" }]);
      results.followUp = await client.followUp("f");
      results.abort = await client.abort();
      results.clearQueue = await client.clearQueue();
      results.newSession = await client.newSession("/parent.jsonl");
      results.getState = await client.getState();
      results.cycleModel = await client.cycleModel();
      results.getAvailableModels = await client.getAvailableModels();
      results.setThinkingLevel = await client.setThinkingLevel("high");
      results.cycleThinkingLevel = await client.cycleThinkingLevel();
      results.getAvailableThinkingLevels = await client.getAvailableThinkingLevels();
      results.setSteeringMode = await client.setSteeringMode("all");
      results.setFollowUpMode = await client.setFollowUpMode("one-at-a-time");
      results.compact = await client.compact("keep it short");
      results.setAutoCompaction = await client.setAutoCompaction(false);
      results.setAutoRetry = await client.setAutoRetry(true);
      results.abortRetry = await client.abortRetry();
      results.bash = await client.bash("ls");
      results.abortBash = await client.abortBash();
      results.getSessionStats = await client.getSessionStats();
      results.exportHtml = await client.exportHtml("/out.html");
      results.switchSession = await client.switchSession("/s.jsonl");
      results.fork = await client.fork("e1");
      results.clone = await client.clone();
      results.getForkMessages = await client.getForkMessages();
      results.getEntries = await client.getEntries("e0");
      results.getTree = await client.getTree();
      results.getLastAssistantText = await client.getLastAssistantText();
      results.setSessionName = await client.setSessionName("named");
      results.getMessages = await client.getMessages();
      results.getCommands = await client.getCommands();
      results.send = await client.send({ type: "custom", value: 1 });
      results.requestId = client.requestId;
      return results;
    }),
  );

  add("RpcClient: error response", () =>
    withAgent(async (client) => {
      await client.start();
      try {
        await client.setModel("faux", "nope");
        return "no error";
      } catch (error) {
        return { threw: error.message, pending: client.pendingRequests.size };
      }
    }),
  );

  add("RpcClient: promptAndWait collects events to agent_settled", () =>
    withAgent(async (client) => {
      await client.start();
      const seen = [];
      const unsubscribe = client.onEvent((event) => seen.push(event.type));
      const events = await client.promptAndWait("hello", undefined, 5000);
      unsubscribe();
      const idle = client.waitForIdle(5000);
      const disposition = await client.prompt("again", undefined, "steer");
      await idle;
      return { events, seen, disposition, listeners: client.eventListeners.length };
    }),
  );

  add("RpcClient: a listener that unsubscribes does not starve the next", () =>
    withAgent(async (client) => {
      await client.start();
      const order = [];
      const first = client.onEvent((event) => {
        order.push(`first:${event.type}`);
        first();
      });
      client.onEvent((event) => order.push(`second:${event.type}`));
      await client.promptAndWait("x", undefined, 5000);
      return order;
    }),
  );

  add("RpcClient: the agent exits while a request is pending", () =>
    withAgent(async (client) => {
      await client.start();
      const pending = client.send({ type: "unanswered" });
      let crash;
      try {
        await client.send({ type: "crash" });
      } catch (error) {
        crash = error.message;
      }
      let first;
      try {
        await pending;
      } catch (error) {
        first = error.message;
      }
      let later;
      try {
        await client.getState();
      } catch (error) {
        later = error.message;
      }
      return { crash, first, later, stderr: client.getStderr(), same: client.exitError?.message === later };
    }),
  );

  add("RpcClient: an agent that exits by itself fails later commands", () =>
    withAgent(
      async (client) => {
        await client.start();
        // The agent exits 300 ms after it starts, after start()'s own 100 ms
        // wait however slow the machine: wait for the exit itself.
        for (let tries = 0; tries < 200 && !client.exitError; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return { exitError: client.exitError?.message, send: await client.getState().catch((error) => error.message) };
      },
      {},
      'process.stderr.write("bye\\n"); setTimeout(() => process.exit(3), 300);',
    ),
  );

  add("RpcClient: an agent that cannot be spawned", () =>
    withAgent(
      async (client, tmp) => {
        client.options.cwd = path.join(tmp, "missing-directory");
        await client.start();
        return { exitError: client.exitError?.message, send: await client.getState().catch((error) => error.message) };
      },
    ),
  );

  add("RpcClient: stop then start again", () =>
    withAgent(async (client) => {
      await client.start();
      await client.stop();
      const afterStop = { process: client.process, pending: client.pendingRequests.size };
      let send;
      try {
        await client.getState();
      } catch (error) {
        send = error.message;
      }
      await client.start();
      const state = await client.getState();
      return { afterStop, send, state };
    }),
  );
}
