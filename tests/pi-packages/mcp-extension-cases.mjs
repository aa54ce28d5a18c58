// Cases of pi-coding-agent's built-in MCP extension (createMcpExtension) for
// the pi package case table (pi-packages-cases.mjs). The extension runs
// against a recording ExtensionAPI (tools, active tools, commands, event
// handlers, notifications) and talks to a real MCP server: the Python fixture
// tests/fixtures/mcp-server/server.py, spawned as `python3 server.py …`. Every
// case gets a fresh temp directory (shown as <tmp>) holding the agent dir
// (PI_CODING_AGENT_DIR) and the project; files the extension writes to the OS
// temp directory are shown as <output>.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("../fixtures/mcp-server/server.py", import.meta.url));
const HTTP_FIXTURE = fileURLToPath(new URL("../fixtures/mcp-server/http_server.py", import.meta.url));
const FIXTURE_DIR = path.dirname(FIXTURE);
const OUTPUT_FILE = /([/\\][^\s"'`]*?)?pi-mcp-[0-9a-f]{16}(\.[A-Za-z0-9]+)/g;
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
/** The OAuth loopback callback, on a free port. */
const CALLBACK_URL = /http(?::\/\/|%3A%2F%2F)127\.0\.0\.1(?::|%3A)\d+(?:\/|%2F)callback/g;

/** A stdio server config running the fixture with `args`. */
const fixture = (...args) => ({ command: "python3", args: [FIXTURE, ...args] });
/**
 * The same server started from its own folder: the TUI wraps the command line
 * at the view's width, so an absolute path would make the frames depend on
 * where the checkout lives.
 */
const fixtureInItsFolder = (...args) => ({ command: "python3", args: [path.basename(FIXTURE), ...args], cwd: FIXTURE_DIR });

/** A codemode tool as the codemode extension registers it: it reaches tools. */
const CODEMODE_TOOL = {
  name: "codemode",
  description: "Run a script.",
  parameters: { type: "object", properties: {} },
  reachesTools: (input) => (input?.all ? "all" : (input?.servers ?? [])),
};
const TOOL_SEARCH_TOOL = {
  name: "tool_search",
  description: "Search tools.",
  parameters: { type: "object", properties: {} },
  exposure: "model-only",
  reachesTools: () => "all",
};
const READ_TOOL = { name: "read", description: "Read a file.", parameters: { type: "object", properties: {} } };

function stabilize(tmp, value, http) {
  const outputs = [];
  const text = (item) =>
    (http ? item.replaceAll(http, "<http>").replaceAll(encodeURIComponent(http), "<http>") : item)
      .replace(OUTPUT_FILE, (_match, _dir, extension) => `<output>${extension}`)
      .replaceAll(tmp, "<tmp>")
      .replaceAll(FIXTURE_DIR, "<fixture>")
      .replace(ISO_TIME, "<time>")
      .replace(CALLBACK_URL, "<callback>");
  const walk = (item) => {
    if (typeof item === "string") {
      for (const match of item.matchAll(OUTPUT_FILE)) outputs.push(match[0]);
      return text(item);
    }
    if (typeof item === "function") return "<function>";
    if (item instanceof Error) return { error: text(item.message) };
    if (Array.isArray(item)) return item.map(walk);
    if (item && typeof item === "object") {
      const out = {};
      for (const [key, entry] of Object.entries(item)) out[text(key)] = walk(entry);
      return out;
    }
    return item;
  };
  const stable = walk(value);
  for (const file of outputs) fs.rmSync(file, { force: true });
  return stable;
}

/** A tool definition as data: functions named, schemas kept. */
const describeTool = (tool) => Object.fromEntries(Object.entries(tool).map(([key, value]) => [key, typeof value === "function" ? "<function>" : value]));
const brief = (tool) => [tool.name, tool.exposure ?? null];

/**
 * A pi ExtensionAPI and context that record what the extension does. Tools
 * registered again replace the earlier definition in place; `log` keeps the
 * order of registrations, tool activations and notifications.
 */
function recordingPi({ tools, active, registered, cwd, trusted }) {
  const log = [];
  const handlers = new Map();
  const commands = new Map();
  const renderers = [];
  const allTools = [...tools];
  let activeTools = [...active];
  let mcpServers = registered;
  const pi = {
    on(event, handler) {
      if (!handlers.has(event)) handlers.set(event, []);
      handlers.get(event).push(handler);
    },
    registerTool(tool) {
      const index = allTools.findIndex((existing) => existing.name === tool.name);
      if (index >= 0) allTools[index] = tool;
      else allTools.push(tool);
      log.push(["registerTool", ...brief(tool)]);
    },
    registerToolRenderer(resolver) {
      renderers.push(resolver);
    },
    registerCommand(name, options) {
      commands.set(name, options);
    },
    getAllTools: () => [...allTools],
    getActiveTools: () => [...activeTools],
    setActiveTools(names) {
      activeTools = [...names];
      log.push(["setActiveTools", [...names]]);
    },
    getMcpServers: () => structuredClone(mcpServers),
  };
  const ctx = {
    cwd,
    hasUI: false,
    mode: "print",
    signal: undefined,
    isProjectTrusted: () => trusted,
    modelRegistry: { getApiKeyForProvider: async (provider) => `key-of-${provider}` },
    ui: {
      notify: (message, type) => log.push(["notify", type, message]),
      select: async (title, items) => {
        log.push(["select", title, items]);
        return items[items.length - 1];
      },
      // Like a user who never types: answers only when the caller gives up (its signal aborts).
      input: (title, placeholder, options) => {
        log.push(["input", title, placeholder]);
        const signal = options?.signal;
        if (!signal) return Promise.resolve(undefined);
        return new Promise((resolve) => {
          if (signal.aborted) resolve(undefined);
          else signal.addEventListener("abort", () => resolve(undefined), { once: true });
        });
      },
      custom: async () => {
        log.push(["custom"]);
        return undefined;
      },
    },
  };
  const emit = async (event, payload = {}) => {
    const results = [];
    for (const handler of handlers.get(event) ?? []) results.push(await handler({ type: event, ...payload }, ctx));
    return results;
  };
  return {
    pi,
    ctx,
    log,
    handlers,
    commands,
    renderers,
    emit,
    tool: (name) => allTools.find((tool) => tool.name === name),
    allTools: () => [...allTools],
    activeTools: () => [...activeTools],
    setRegistered(servers) {
      mcpServers = servers;
    },
    /** The log since the last call. */
    drain() {
      return log.splice(0);
    },
  };
}

const writeJson = (file, value) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
};

/** Starts the HTTP fixture with `args`; resolves with its base URL and a function that stops it. */
function startHttpFixture(args) {
  return new Promise((resolve, reject) => {
    // Its stderr is passed on, not inherited: a server that outlived this
    // process must not hold the pipe of whoever waits for this one's output.
    const child = spawn("python3", [HTTP_FIXTURE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    let output = "";
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const port = /PORT (\d+)\n/.exec(output)?.[1];
      if (port) {
        child.stdout.removeAllListeners("data");
        resolve({
          url: `http://127.0.0.1:${port}`,
          stop: () =>
            new Promise((done) => {
              child.once("close", done);
              child.kill("SIGKILL");
            }),
        });
      }
    });
  });
}

/**
 * Runs `run(world)` with the MCP extension loaded into a recording API: the
 * agent dir and project in a fresh temp directory, `global` and `project`
 * written as their mcp.json (either may be a function of the world, to
 * name the HTTP fixture `setup.http` starts with those arguments, shown as
 * <http>). The session is shut down afterwards.
 */
async function withMcp(agent, setup, run) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-mcp-")));
  const agentDir = path.join(tmp, "agent");
  const project = path.join(tmp, "project");
  fs.mkdirSync(agentDir, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const http = setup.http ? await startHttpFixture(setup.http) : undefined;
  const configOf = (value) => (typeof value === "function" ? value({ http: http?.url, tmp, agentDir, project }) : value);
  if (setup.global !== undefined) writeJson(path.join(agentDir, "mcp.json"), configOf(setup.global));
  if (setup.project !== undefined) writeJson(path.join(project, ".pi", "mcp.json"), configOf(setup.project));
  const previousAgentDir = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = agentDir;
  const api = recordingPi({
    tools: setup.tools ?? [READ_TOOL, CODEMODE_TOOL],
    active: setup.active ?? ["read"],
    registered: setup.registered ?? [],
    cwd: project,
    trusted: setup.trusted ?? true,
  });
  const options = typeof setup.options === "function" ? setup.options({ tmp, agentDir, project }) : setup.options;
  let shutDown = false;
  const world = {
    ...api,
    tmp,
    agentDir,
    project,
    http: http?.url,
    /** What the HTTP fixture was sent: [method, path, JSON-RPC method, session, protocol version, X-Fixture]. */
    seen: async () => (await fetch(`${http.url}/seen`)).json(),
    extension: agent.createMcpExtension(options),
    start: () => api.emit("session_start", { reason: "startup" }),
    /** Runs `/mcp <args>` headless and returns what it logged. */
    mcp: async (args = "") => {
      await api.commands.get("mcp").handler(args, api.ctx);
      return api.drain();
    },
    /** The mcp_servers section the next prompt gets, or undefined. */
    section: async () => {
      const sections = { other: "kept" };
      await api.emit("before_agent_start", { prompt: "hi", systemPromptOptions: { sections } });
      return sections.mcp_servers;
    },
    /** Runs a tool as pi does: the tool_call hook, then execute. */
    call: async (name, params, input = params) => {
      await api.emit("tool_call", { toolName: name, toolCallId: "call-1", input });
      const tool = api.tool(name);
      if (!tool) return { missing: name };
      const updates = [];
      try {
        const result = await tool.execute("call-1", params, undefined, (update) => updates.push(update));
        return updates.length > 0 ? { result, updates } : { result };
      } catch (error) {
        return updates.length > 0 ? { threw: error.message, updates } : { threw: error.message };
      }
    },
    shutdown: async () => {
      shutDown = true;
      await api.emit("session_shutdown", { reason: "quit" });
    },
    /** Waits until `check()` is true (at most 10 s), for changes servers announce. */
    until: async (check) => {
      for (let tries = 0; tries < 400 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      return check();
    },
  };
  world.extension(api.pi);
  try {
    return stabilize(tmp, await run(world), http?.url);
  } catch (error) {
    return stabilize(tmp, { threw: error.message }, http?.url);
  } finally {
    if (!shutDown) await api.emit("session_shutdown", { reason: "quit" }).catch(() => undefined);
    await http?.stop();
    if (previousAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = previousAgentDir;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Starts the session and waits for the startup connections (`/mcp` waits for them). */
async function started(world) {
  await world.start();
  const status = await world.mcp();
  return status;
}

/** Pages the fake browser of the sign-in case visited, awaited by the case. */
const browserVisits = [];
/** URLs the TUI sign-in case was asked to open. */
const openedUrls = [];

export function addMcpExtensionCases(add, agent) {
  const mcpCase = (name, setup, run) => add(`createMcpExtension: ${name}`, () => withMcp(agent, setup, run));

  // --- Loading, config files ------------------------------------------------

  mcpCase("what the factory registers", {}, async (world) => {
    const command = world.commands.get("mcp");
    const completions = ["", "l", "re", "login ", "reconnect x", "reconnect a b", "bogus x"].map((prefix) => [
      prefix,
      command.getArgumentCompletions(prefix),
    ]);
    return {
      factoryType: typeof world.extension,
      events: [...world.handlers.keys()],
      commands: [...world.commands.keys()],
      command: describeTool(command),
      completions,
      renderers: world.renderers.length,
      renderFor: world.renderers.map((resolver) => [
        typeof resolver("mcp__docs__search", () => undefined)?.renderCall,
        resolver("read", () => undefined),
        resolver("mcp__docs__search", () => "mine"),
      ]),
      log: world.drain(),
    };
  });

  mcpCase("no servers", {}, async (world) => {
    await world.start();
    return { start: world.drain(), status: await world.mcp(), section: await world.section(), tools: world.allTools().map(brief) };
  });

  mcpCase(
    "config errors are reported once at startup",
    {
      global: "{ not json",
      project: {
        autoEnableCodemode: "yes",
        mcpServers: {
          "bad name!": { command: "x" },
          legacy: { type: "sse", url: "https://example.com/sse" },
          nothing: { args: ["a"] },
          neither: { enabled: false, description: 3 },
          exposureTypo: { command: "x", exposure: "sometimes" },
          toolTypo: { command: "x", toolExposure: { a: "never" } },
          toolNotObject: { command: "x", toolExposure: ["a"] },
          badArgs: { command: "x", args: "a b" },
          badEnv: { command: "x", env: { A: 1 } },
          badUrl: { url: "ftp://example.com" },
          badHeaders: { url: "https://example.com/mcp", headers: { A: 1 } },
          badTimeout: { command: "x", timeout: 0 },
          authInProject: { url: "https://example.com/mcp", auth: { provider: "openai" } },
          badOauth: { url: "https://example.com/mcp", oauth: { callbackPort: 70000 } },
          cimd: { url: "https://example.com/mcp", oauth: { clientRegistration: "cimd", callbackUrl: "http://127.0.0.1:9/cb" } },
          orphanOverride: { enabled: false },
        },
      },
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), section: await world.section() };
    },
  );

  mcpCase(
    "global and project mcp.json: overrides, replacements, clashes",
    {
      global: {
        autoEnableCodemode: true,
        mcpServers: {
          docs: { url: "https://docs.example.com/mcp", description: "Product docs", enabled: false, headers: { Authorization: "Bearer x" } },
          files: { command: "files-server", args: ["."], enabled: false, exposure: "codemode-deferred" },
          "my-tools": { command: "tools", enabled: false },
          keep: { command: "keep", enabled: false, exposure: "direct" },
        },
      },
      project: {
        autoEnableCodemode: false,
        mcpServers: {
          docs: { exposure: "deferred" },
          files: { command: "project-files", enabled: false, description: "Project's own files server" },
          my_tools: { command: "other", enabled: false },
          keep: { enabled: false, toolExposure: { "a*": "hidden" }, description: "no" },
        },
      },
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), section: await world.section() };
    },
  );

  mcpCase(
    "an untrusted project's mcp.json is ignored",
    { trusted: false, global: { mcpServers: { g: { command: "g", enabled: false } } }, project: { mcpServers: { p: { command: "p" } } } },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp() };
    },
  );

  mcpCase(
    "a BOM and an empty mcpServers are fine",
    { global: "\uFEFF{\"mcpServers\": {}}", project: { other: 1 } },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), section: await world.section() };
    },
  );

  mcpCase(
    "registered servers: mcp.json takes precedence over the same name",
    {
      global: { mcpServers: { docs: { command: "docs", enabled: false }, "a-b": { command: "ab", enabled: false } } },
      registered: [
        { name: "docs", config: { command: "registered-docs" }, extensionPath: "/ext/docs.ts" },
        { name: "a_b", config: { command: "registered-ab" }, extensionPath: "/ext/ab.ts" },
        { name: "extra", config: { command: "extra", enabled: false, exposure: "deferred" }, extensionPath: "/ext/extra.ts" },
      ],
      tools: [READ_TOOL, CODEMODE_TOOL, TOOL_SEARCH_TOOL],
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), section: await world.section() };
    },
  );

  // --- Connecting ------------------------------------------------------------

  mcpCase(
    "a stdio server connects: its tools as pi registers them",
    { global: { mcpServers: { fx: { ...fixture("--instructions", "Fixture tools for tests.\nMore detail."), description: "  " } } } },
    async (world) => {
      const start = await world.start();
      const early = world.drain();
      const status = await world.mcp();
      return {
        start,
        early,
        status,
        tools: world.allTools().map(describeTool),
        active: world.activeTools(),
        section: await world.section(),
      };
    },
  );

  mcpCase(
    "odd tool names are sanitized and shortened",
    { global: { mcpServers: { "odd-server": { ...fixture("--odd-names", "--no-resources"), exposure: "direct" } } } },
    async (world) => {
      await started(world);
      const names = world.allTools().map((tool) => [tool.name, tool.label]);
      return { names, dotted: await world.call("mcp__odd_server__dotted_name", {}), active: world.activeTools() };
    },
  );

  const exposureSetups = {
    direct: { exposure: "direct" },
    deferred: { exposure: "deferred" },
    hidden: { exposure: "hidden" },
    codemode: { exposure: "codemode" },
    "toolExposure overrides": { exposure: "deferred", toolExposure: { echo: "direct", "s*": "hidden", weather: "codemode", "*o*": "direct" } },
  };
  for (const [label, config] of Object.entries(exposureSetups)) {
    mcpCase(
      `exposure ${label}`,
      { global: { mcpServers: { fx: { ...fixture("--no-templates"), ...config } } }, tools: [READ_TOOL, CODEMODE_TOOL, TOOL_SEARCH_TOOL] },
      async (world) => {
        await world.start();
        const start = world.drain();
        const status = await world.mcp();
        return {
          start,
          status,
          tools: world.allTools().map(brief),
          active: world.activeTools(),
          section: await world.section(),
          namespaces: world.allTools().filter((tool) => tool.namespace).length,
        };
      },
    );
  }

  mcpCase(
    "autoEnableCodemode false warns that the tools are unreachable",
    { global: { autoEnableCodemode: false, mcpServers: { fx: fixture("--no-resources") } } },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), active: world.activeTools() };
    },
  );

  mcpCase(
    "without codemode or tool_search tools the warning names neither",
    { global: { mcpServers: { fx: { ...fixture("--no-resources"), exposure: "deferred" } } }, tools: [READ_TOOL] },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), active: world.activeTools() };
    },
  );

  mcpCase(
    "codemode already active is not activated again",
    { global: { mcpServers: { fx: fixture("--no-resources") } }, active: ["read", "codemode"] },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), active: world.activeTools() };
    },
  );

  mcpCase(
    "a server without tools or resources",
    { global: { mcpServers: { bare: { ...fixture("--no-tools", "--no-resources", "--instructions", "   "), description: "Bare server\nsecond line" } } } },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), tools: world.allTools().map(brief), section: await world.section() };
    },
  );

  // --- Failures --------------------------------------------------------------

  mcpCase(
    "failed connections are reported",
    {
      global: {
        mcpServers: {
          missing: { command: "definitely-not-a-command-pihost" },
          crashes: fixture("--fail-init", "cannot start: no database"),
          ancient: fixture("--protocol", "1999-01-01"),
          unresolved: { ...fixture(), env: { TOKEN: "${PIHOST_MCP_UNSET_VARIABLE}" } },
          unresolvedMany: { ...fixture(), env: { TOKEN: "$PIHOST_MCP_UNSET_A-$PIHOST_MCP_UNSET_B" } },
          ok: { ...fixture("--no-resources"), exposure: "hidden" },
        },
      },
    },
    async (world) => {
      await world.start();
      const start = world.drain();
      const status = await world.mcp();
      const calls = {
        missingTool: await world.call("mcp__missing__echo", {}),
        listResources: await world.call("list_mcp_resources", {}),
      };
      return { start, status, calls, section: await world.section(), tools: world.allTools().map(brief) };
    },
  );

  mcpCase(
    "config values: env templates, commands and the working directory",
    {
      global: {
        mcpServers: {
          fx: {
            ...fixture("--no-resources"),
            cwd: "sub",
            env: { PLAIN: "plain $$ value", FROM_ENV: "${PIHOST_MCP_CASE_VALUE}/x", FROM_COMMAND: "!echo from-command", LITERAL_BANG: "$!bang" },
          },
        },
      },
    },
    async (world) => {
      fs.mkdirSync(path.join(world.project, "sub"));
      process.env.PIHOST_MCP_CASE_VALUE = "from-env";
      try {
        await started(world);
        return await world.call("mcp__fx__env", { names: ["PLAIN", "FROM_ENV", "FROM_COMMAND", "LITERAL_BANG", "PIHOST_MCP_CASE_VALUE"] });
      } finally {
        delete process.env.PIHOST_MCP_CASE_VALUE;
      }
    },
  );

  // --- Calling tools ---------------------------------------------------------

  mcpCase(
    "calling tools: text, structured, errors, images and other content",
    { global: { mcpServers: { fx: fixture() } } },
    async (world) => {
      await started(world);
      const calls = {};
      calls.echo = await world.call("mcp__fx__echo", { text: "hello" });
      calls.weather = await world.call("mcp__fx__weather", { city: "Bergen" });
      calls.failEmpty = await world.call("mcp__fx__fail", {});
      calls.failText = await world.call("mcp__fx__fail", { message: "it broke" });
      calls.image = await world.call("mcp__fx__image", {});
      calls.mixed = await world.call("mcp__fx__mixed", {});
      calls.structuredOnly = await world.call("mcp__fx__structured_only", {});
      calls.progress = await world.call("mcp__fx__slow_progress", { steps: 3 });
      calls.roots = await world.call("mcp__fx__roots", {});
      calls.protocolError = await world.call("mcp__fx__protocol_error", {});
      calls.nodesc = await world.call("mcp__fx__nodesc", undefined);
      calls.titled = await world.call("mcp__fx__titled", {});
      calls.clientInfo = await world.call("mcp__fx__client_info", {});
      return calls;
    },
  );

  mcpCase("long output is cut in the middle and saved", { global: { mcpServers: { fx: fixture() } } }, async (world) => {
    await started(world);
    const { result } = await world.call("mcp__fx__big", { size: 30000 });
    const [first, ...rest] = result.content;
    const saved = result.details.fullOutputPath;
    return {
      head: first.text.slice(0, 200),
      tail: first.text.slice(-300),
      length: first.text.length,
      rest,
      details: result.details,
      savedLength: fs.readFileSync(saved, "utf8").length,
      structuredLength: result.structuredContent.content[0].text.length,
    };
  });

  mcpCase("the server's log messages go to mcp.log", { global: { mcpServers: { fx: fixture("--no-resources") } } }, async (world) => {
    await started(world);
    await world.call("mcp__fx__slow_progress", { steps: 1 });
    return fs.readFileSync(path.join(world.agentDir, "mcp.log"), "utf8");
  });

  mcpCase(
    "the log path option",
    { global: { mcpServers: { fx: fixture("--no-resources") } }, options: ({ tmp }) => ({ logPath: path.join(tmp, "logs", "servers.log") }) },
    async (world) => {
      await started(world);
      await world.call("mcp__fx__slow_progress", { steps: 1 });
      return { custom: fs.readFileSync(path.join(world.tmp, "logs", "servers.log"), "utf8"), default: fs.existsSync(path.join(world.agentDir, "mcp.log")) };
    },
  );

  mcpCase("a server that quits disconnects and reconnects on the next call", { global: { mcpServers: { fx: fixture("--no-resources") } } }, async (world) => {
    await started(world);
    const quit = await world.call("mcp__fx__quit", {});
    let disconnected;
    for (let tries = 0; tries < 400; tries++) {
      disconnected = await world.mcp();
      if (JSON.stringify(disconnected).includes("disconnected")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const again = await world.call("mcp__fx__echo", { text: "again" });
    return { quit, disconnected, again, after: await world.mcp() };
  });

  mcpCase("tools the server adds and removes", { global: { mcpServers: { fx: fixture("--no-resources") } } }, async (world) => {
    await started(world);
    world.drain();
    const grow = await world.call("mcp__fx__grow", {});
    await world.until(() => world.tool("mcp__fx__extra") !== undefined);
    const grown = world.drain();
    const extra = await world.call("mcp__fx__extra", {});
    const shrink = await world.call("mcp__fx__shrink", {});
    await world.until(() => world.tool("mcp__fx__extra")?.exposure === "hidden");
    const shrunk = world.drain();
    const gone = await world.call("mcp__fx__extra", {});
    return { grow, grown, extra, shrink, shrunk, gone, status: await world.mcp() };
  });

  mcpCase("after shutdown tools report the server disabled", { global: { mcpServers: { fx: fixture() } } }, async (world) => {
    await started(world);
    await world.shutdown();
    return {
      call: await world.call("mcp__fx__echo", { text: "late" }),
      resources: await world.call("list_mcp_resources", {}),
      status: await world.mcp(),
      log: world.drain(),
    };
  });

  // --- Resources -------------------------------------------------------------

  mcpCase(
    "resource tools: listing, templates and reading",
    { global: { mcpServers: { fx: fixture(), other: { ...fixture("--no-templates"), exposure: "direct" }, plain: fixture("--no-resources") } } },
    async (world) => {
      await started(world);
      const calls = {};
      calls.resources = world.allTools().filter((tool) => !tool.name.startsWith("mcp__")).map(describeTool);
      calls.listAll = await world.call("list_mcp_resources", {});
      calls.listOne = await world.call("list_mcp_resources", { server: " fx " });
      calls.listNext = await world.call("list_mcp_resources", { server: "fx", cursor: "page-2" });
      calls.listBadCursor = await world.call("list_mcp_resources", { server: "fx", cursor: "nope" });
      calls.cursorWithoutServer = await world.call("list_mcp_resources", { cursor: "page-2" });
      calls.unknownServer = await world.call("list_mcp_resources", { server: "plain" });
      calls.notString = await world.call("list_mcp_resources", { server: 3 });
      calls.templatesAll = await world.call("list_mcp_resource_templates", {});
      calls.templatesOther = await world.call("list_mcp_resource_templates", { server: "other" });
      for (const uri of ["file:///notes.txt", "mem://logo.png", "mem://config.json", "dir://all", "mem://empty", "mem://items/7", "mem://nowhere"]) {
        calls[`read ${uri}`] = await world.call("read_mcp_resource", { server: "fx", uri });
      }
      const binary = await world.call("read_mcp_resource", { server: "fx", uri: "mem://data.bin" });
      const savedPath = /saved to (\S+)\]/.exec(binary.result.content[0].text)?.[1];
      calls.binary = { ...binary, saved: savedPath ? [...fs.readFileSync(savedPath)] : null };
      calls.readMissingUri = await world.call("read_mcp_resource", { server: "fx" });
      calls.readMissingServer = await world.call("read_mcp_resource", { uri: "x" });
      calls.readUnknownServer = await world.call("read_mcp_resource", { server: "nope", uri: "x" });
      calls.active = world.activeTools();
      return calls;
    },
  );

  mcpCase("resource links name read_mcp_resource only when the server has resources", { global: { mcpServers: { fx: fixture("--no-resources") } } }, async (world) => {
    await started(world);
    return { mixed: await world.call("mcp__fx__mixed", {}), tools: world.allTools().map(brief) };
  });

  // --- /mcp headless -----------------------------------------------------------

  mcpCase(
    "/mcp subcommands without a UI",
    { global: { mcpServers: { fx: fixture("--no-resources"), off: { command: "off", enabled: false }, web: { url: "http://127.0.0.1:9/mcp", enabled: false } } } },
    async (world) => {
      await world.start();
      world.drain();
      const results = {};
      for (const args of ["", "login", "login fx", "logout nope", "logout", "reconnect off", "reconnect fx", "reconnect", "bogus", "login a b", "  "]) {
        results[args] = await world.mcp(args);
      }
      const command = world.commands.get("mcp");
      results.completions = ["", "reconnect ", "reconnect f", "login ", "logout x"].map((prefix) => [prefix, command.getArgumentCompletions(prefix)]);
      return results;
    },
  );

  // --- Registered servers during the session ----------------------------------

  mcpCase(
    "servers registered and unregistered during the session",
    { registered: [], tools: [READ_TOOL, CODEMODE_TOOL, TOOL_SEARCH_TOOL] },
    async (world) => {
      await world.start();
      const start = world.drain();
      world.setRegistered([{ name: "late", config: { ...fixture("--no-resources"), exposure: "deferred" }, extensionPath: "/ext/late.ts" }]);
      await world.emit("mcp_servers_change", {});
      const added = world.drain();
      const status = await world.mcp();
      const call = await world.call("mcp__late__echo", { text: "late" });
      const section = await world.section();
      world.setRegistered([{ name: "late", config: { ...fixture("--no-resources"), exposure: "direct" }, extensionPath: "/ext/late.ts" }]);
      await world.emit("mcp_servers_change", {});
      const replaced = world.drain();
      world.setRegistered([]);
      await world.emit("mcp_servers_change", {});
      const removed = world.drain();
      return { start, added, status, call, section, replaced, removed, after: await world.mcp(), afterCall: await world.call("mcp__late__echo", { text: "x" }) };
    },
  );

  mcpCase(
    "a registered server that fails is reported when it connects",
    {},
    async (world) => {
      await world.start();
      world.setRegistered([{ name: "broken", config: { command: "definitely-not-a-command-pihost" }, extensionPath: "/ext/broken.ts" }]);
      await world.emit("mcp_servers_change", {});
      return { log: world.drain(), status: await world.mcp() };
    },
  );

  // --- The mcp_servers section ------------------------------------------------

  const offline = () => ({
    createTransport: () => {
      throw new Error("offline");
    },
  });

  mcpCase(
    "the section lists codemode and deferred servers with their summaries",
    {
      global: {
        mcpServers: {
          zeta: { command: "z", description: "Zeta tools\nmore" },
          alpha: { command: "a", exposure: "deferred", description: "x".repeat(400) },
          "beta-server": { command: "b", exposure: "direct", toolExposure: { "find*": "codemode" } },
          gamma: { command: "g", exposure: "direct" },
          hidden: { command: "h", exposure: "hidden" },
          off: { command: "o", enabled: false },
          mixed: { command: "m", exposure: "deferred", toolExposure: { x: "codemode" }, description: "Mixed: 😀 emoji" },
        },
      },
      options: offline,
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), section: await world.section(), status: await world.mcp() };
    },
  );

  mcpCase(
    "the section shrinks descriptions and leaves out servers beyond its size",
    {
      global: {
        mcpServers: Object.fromEntries(
          Array.from({ length: 120 }, (_, index) => [`server-number-${String(index).padStart(3, "0")}-with-a-long-name`, { command: "x", description: `Server ${index} ${"does things ".repeat(30)}` }]),
        ),
      },
      options: offline,
    },
    async (world) => {
      await world.start();
      const section = await world.section();
      return { length: section.length, lines: section.split("\n").length, head: section.slice(0, 600), tail: section.slice(-400) };
    },
  );

  mcpCase(
    "the section with a few servers gets shortened descriptions",
    {
      global: {
        mcpServers: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`s${index}`, { command: "x", description: `Server ${index}: ${"word ".repeat(80)}` }])),
      },
      options: offline,
    },
    async (world) => {
      await world.start();
      const section = await world.section();
      return { length: section.length, section };
    },
  );

  mcpCase(
    "the first prompt stops waiting for a direct server after startupWaitMs",
    {
      global: { mcpServers: { slow: { command: "unused", exposure: "direct", description: "Never answers" }, lazy: { command: "unused" } } },
      options: () => ({ startupWaitMs: 50, createTransport: () => new HangingTransport() }),
    },
    async (world) => {
      await world.start();
      const start = world.drain();
      const first = await world.section();
      const firstLog = world.drain();
      const second = await world.section();
      return { start, first, firstLog, second, secondLog: world.drain(), status: world.commands.get("mcp").getArgumentCompletions("reconnect ") };
    },
  );

  // --- Streamable HTTP ---------------------------------------------------------

  const agentFiles = (world) => fs.readdirSync(world.agentDir).sort();

  mcpCase(
    "a streamable HTTP server: headers, JSON and SSE answers, the session",
    {
      http: [],
      global: ({ http }) => ({
        mcpServers: { web: { url: `${http}/mcp`, headers: { Authorization: "Bearer ${PIHOST_MCP_HTTP_TOKEN}", "X-Fixture": "yes" } } },
      }),
    },
    async (world) => {
      process.env.PIHOST_MCP_HTTP_TOKEN = "t0k3n";
      try {
        const status = await started(world);
        const calls = {
          echo: await world.call("mcp__web__echo", { text: "over http" }),
          progress: await world.call("mcp__web__slow_progress", { steps: 2 }),
          resources: await world.call("list_mcp_resources", { server: "web" }),
          read: await world.call("read_mcp_resource", { server: "web", uri: "dir://all" }),
        };
        await world.shutdown();
        return { status, calls, seen: await world.seen(), log: fs.readFileSync(path.join(world.agentDir, "mcp.log"), "utf8"), files: agentFiles(world) };
      } finally {
        delete process.env.PIHOST_MCP_HTTP_TOKEN;
      }
    },
  );

  mcpCase(
    "an OAuth server without credentials needs a sign-in",
    { http: ["--no-resources"], global: ({ http }) => ({ mcpServers: { secure: { url: `${http}/secure` } } }) },
    async (world) => {
      await world.start();
      const start = world.drain();
      const status = await world.mcp();
      const command = world.commands.get("mcp");
      const results = {
        completions: command.getArgumentCompletions("login "),
        login: await world.mcp("login"),
        loginNamed: await world.mcp("login secure"),
        logout: await world.mcp("logout secure"),
        reconnect: await world.mcp("reconnect secure"),
        call: await world.call("mcp__secure__echo", { text: "x" }),
      };
      return { start, status, results, section: await world.section(), files: agentFiles(world), stored: fs.readFileSync(path.join(world.agentDir, "mcp-auth.json"), "utf8") };
    },
  );

  const storedTokens = (world, key) =>
    writeJson(path.join(world.agentDir, "mcp-auth.json"), { [key]: { serverUrl: `${world.http}/secure`, tokens: { access_token: "good", token_type: "Bearer" } } });

  mcpCase(
    "stored OAuth tokens are sent, and /mcp logout removes them",
    { http: ["--no-resources"], global: ({ http }) => ({ mcpServers: { secure: { url: `${http}/secure` } } }) },
    async (world) => {
      storedTokens(world, `mcp__secure|${world.http}/secure`);
      const status = await started(world);
      const call = await world.call("mcp__secure__echo", { text: "signed in" });
      const logout = await world.mcp("logout");
      return { status, call, logout, after: await world.mcp(), stored: fs.readFileSync(path.join(world.agentDir, "mcp-auth.json"), "utf8") };
    },
  );

  mcpCase(
    "tokens stored by URL alone are taken over",
    { http: ["--no-resources"], global: ({ http }) => ({ mcpServers: { secure: { url: `${http}/secure` } } }) },
    async (world) => {
      storedTokens(world, `${world.http}/secure`);
      const status = await started(world);
      return { status, stored: fs.readFileSync(path.join(world.agentDir, "mcp-auth.json"), "utf8") };
    },
  );

  mcpCase(
    "a sign-in done elsewhere is picked up on the next turn",
    { http: ["--no-resources"], global: ({ http }) => ({ mcpServers: { secure: { url: `${http}/secure` } } }) },
    async (world) => {
      const before = await started(world);
      await world.emit("turn_start", { turnIndex: 0 });
      const unchanged = await world.mcp();
      storedTokens(world, `mcp__secure|${world.http}/secure`);
      await world.emit("turn_start", { turnIndex: 1 });
      return { before, unchanged, after: await world.mcp() };
    },
  );

  mcpCase(
    "auth.provider sends the provider's key",
    {
      http: ["--no-resources"],
      global: ({ http }) => ({
        mcpServers: {
          good: { url: `${http}/provider`, auth: { provider: "openai" }, exposure: "direct" },
          wrong: { url: `${http}/provider`, auth: { provider: "anthropic" } },
        },
      }),
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), call: await world.call("mcp__good__echo", { text: "key" }), completions: world.commands.get("mcp").getArgumentCompletions("login ") };
    },
  );

  mcpCase(
    "HTTP failures: retried server errors, unreachable servers, unresolved headers",
    {
      http: [],
      global: ({ http }) => ({
        mcpServers: {
          broken: { url: `${http}/broken`, headers: { Authorization: "Bearer x" } },
          unreachable: { url: "http://127.0.0.1:1/mcp", headers: { authorization: "Bearer x" } },
          unresolved: { url: `${http}/mcp`, headers: { Authorization: "Bearer ${PIHOST_MCP_UNSET_TOKEN}" } },
        },
      }),
    },
    async (world) => {
      await world.start();
      return { start: world.drain(), status: await world.mcp(), seen: await world.seen() };
    },
  );

  mcpCase(
    "an expired HTTP session is replaced by a new one",
    { http: ["--no-resources"], global: ({ http }) => ({ mcpServers: { exp: { url: `${http}/expiring`, headers: { Authorization: "Bearer x" } } } }) },
    async (world) => {
      await started(world);
      const first = await world.call("mcp__exp__echo", { text: "one" });
      const second = await world.call("mcp__exp__echo", { text: "two" });
      return { first, second, seen: await world.seen(), status: await world.mcp() };
    },
  );

  // --- OAuth ------------------------------------------------------------------

  /** mcp-auth.json with its random values (state, verifier) masked. */
  const storedAuth = (world) => {
    const text = fs.readFileSync(path.join(world.agentDir, "mcp-auth.json"), "utf8");
    return JSON.parse(text, (key, value) => (key === "oauthState" || key === "codeVerifier" ? `<${key}>` : value));
  };
  const secureServer = ({ http }) => ({ mcpServers: { secure: { url: `${http}/secure` } } });

  mcpCase(
    "signing in with OAuth: discovery, registration, the browser, the code exchange",
    {
      http: ["--no-resources"],
      global: secureServer,
      options: () => ({
        // The browser: follows the authorization server's redirect back to pi's callback.
        openUrl: (url) => {
          browserVisits.push(
            fetch(url).then(async (response) => [response.status, response.headers.get("content-type"), (await response.text()).includes("Authentication successful")]),
          );
        },
      }),
    },
    async (world) => {
      browserVisits.length = 0;
      world.ctx.hasUI = true;
      world.ctx.mode = "rpc";
      const before = await started(world);
      const login = await world.mcp("login");
      const authorizationUrl = new URL(/in your browser:\n(\S+)/.exec(login.find((entry) => entry[0] === "notify")[2])[1]);
      const params = Object.fromEntries(
        [...authorizationUrl.searchParams].map(([key, value]) => [key, key === "state" || key === "code_challenge" ? `<${key}>` : value]),
      );
      return {
        before,
        login: login.map((entry) => (entry[0] === "notify" && entry[2].includes("in your browser") ? ["notify", entry[1], "<sign-in message>"] : entry)),
        authorizationUrl: { origin: authorizationUrl.origin, path: authorizationUrl.pathname, params },
        browser: await Promise.all(browserVisits),
        after: await world.mcp(),
        call: await world.call("mcp__secure__echo", { text: "after sign-in" }),
        stored: storedAuth(world),
        seen: (await world.seen()).filter((entry) => entry[1] !== "/secure"),
      };
    },
  );

  const expiredTokens = (world, tokens) =>
    writeJson(path.join(world.agentDir, "mcp-auth.json"), {
      [`mcp__secure|${world.http}/secure`]: {
        serverUrl: `${world.http}/secure`,
        clientInformation: { client_id: "client-0", redirect_uris: ["http://127.0.0.1:1/callback"], token_endpoint_auth_method: "none" },
        ...tokens,
      },
    });

  mcpCase("expired OAuth tokens are refreshed before they are sent", { http: ["--no-resources"], global: secureServer }, async (world) => {
    expiredTokens(world, { tokens: { access_token: "stale", token_type: "Bearer", refresh_token: "refresh-1", scope: "read" }, tokensExpireAt: 1 });
    const status = await started(world);
    return { status, stored: storedAuth(world), seen: (await world.seen()).filter((entry) => entry[1] !== "/secure") };
  });

  mcpCase("a refused OAuth token is refreshed and the request repeated", { http: ["--no-resources"], global: secureServer }, async (world) => {
    expiredTokens(world, { tokens: { access_token: "stale", token_type: "Bearer", refresh_token: "refresh-2" } });
    const status = await started(world);
    return { status, stored: storedAuth(world), seen: await world.seen() };
  });

  mcpCase("an OAuth refresh the server refuses needs a sign-in", { http: ["--no-resources"], global: secureServer }, async (world) => {
    expiredTokens(world, { tokens: { access_token: "stale", token_type: "Bearer", refresh_token: "revoked" } });
    const status = await started(world);
    return { status, stored: storedAuth(world), seen: (await world.seen()).filter((entry) => entry[1] !== "/secure") };
  });

  // --- Options ----------------------------------------------------------------

  mcpCase(
    "the loadConfig and createTransport options",
    {
      options: () => ({
        loadConfig: (ctx) => ({
          servers: [{ name: "mem", config: { command: "unused", exposure: "direct" }, source: `${ctx.cwd}/virtual.json`, scope: "global" }],
          errors: ["synthetic problem"],
          autoEnableCodemode: false,
        }),
        createTransport: (entry, cwd) => new ScriptedTransport(entry.name, cwd),
      }),
    },
    async (world) => {
      await world.start();
      const start = world.drain();
      const status = await world.mcp();
      return { start, status, tools: world.allTools().map(brief), call: await world.call("mcp__mem__ask", { q: 1 }), log: ScriptedTransport.log.splice(0) };
    },
  );
  // --- The manager (last: it initializes the theme) ---------------------------

  mcpCase(
    "/mcp in the TUI: the manager's menus, exposure and disabling in the project",
    { global: { mcpServers: { fx: fixtureInItsFolder("--no-resources"), off: { command: "off", enabled: false, description: "Off server" } } } },
    async (world) => {
      agent.initTheme("dark");
      await started(world);
      const projectFile = path.join(world.project, ".pi", "mcp.json");
      const frames = await driveManager(world, [
        ["manage fx", ["\r"]],
        ["tools", ["\r"]],
        ["back from tools", ["\x1b"]],
        ["exposure menu", [DOWN, DOWN, "\r"]],
        ["exposure direct", [DOWN, DOWN, "\r"]],
        // The menu comes back once the server's process has exited, which takes as long as the machine takes.
        [
          "disable in project",
          [DOWN, DOWN, DOWN, DOWN, "\r"],
          (shown) => fs.existsSync(projectFile) && world.tool("mcp__fx__echo")?.exposure === "hidden" && shown().includes(" State: disabled"),
        ],
        ["server list", ["\x1b"]],
        ["manage off", [DOWN, "\r"]],
        ["close", ["\x1b", "\x1b"]],
      ]);
      return {
        frames,
        global: fs.readFileSync(path.join(world.agentDir, "mcp.json"), "utf8"),
        project: fs.readFileSync(projectFile, "utf8"),
        log: world.drain(),
      };
    },
  );

  mcpCase(
    "/mcp login in the TUI: the sign-in screen, then the browser completes it",
    { http: ["--no-resources"], global: secureServer, options: () => ({ openUrl: (url) => openedUrls.push(url) }) },
    async (world) => {
      agent.initTheme("dark");
      openedUrls.length = 0;
      const before = await started(world);
      const browse = async () => {
        const response = await fetch(openedUrls[0]);
        return [response.status, (await response.text()).includes("Authentication successful")];
      };
      let browser;
      const frames = await driveManager(
        world,
        [
          ["sign-in screen", [], () => openedUrls.length > 0],
          [
            "after the browser",
            [
              async () => {
                browser = await browse();
              },
            ],
            () => world.tool("mcp__secure__echo") !== undefined,
          ],
        ],
        // The first screen ("Contacting the authorization server…") lasts as long as the machine takes.
        { args: "login secure", width: 600, openFrame: false },
      );
      const masked = frames.map(([label, lines]) =>
        [label, Array.isArray(lines) ? lines.map((line) => line.replace(/(state|code_challenge)=[^&\s]+/g, "$1=<$1>")) : lines],
      );
      return { before, frames: masked, browser, log: world.drain(), after: await world.mcp() };
    },
  );


}

const KEYS = { "tui.select.confirm": "\r", "tui.select.cancel": "\x1b", "app.message.copy": "\x03" };
const DOWN = "\x1b[B";
/** Colours, hyperlinks and the cursor markers of focused inputs. */
const ANSI = /\x1b\[[0-9;]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)|\x1b_[^\x07]*\x07/g;

/**
 * Drives `/mcp` in the TUI: the manager view the extension hands to
 * ctx.ui.custom, fed keys and rendered (colours stripped) after each step.
 */
async function driveManager(world, steps, { args = "", width = 60, openFrame = true } = {}) {
  const frames = [];
  let view;
  let closed = false;
  world.ctx.mode = "tui";
  world.ctx.hasUI = true;
  world.ctx.ui.custom = (factory) =>
    new Promise((resolve) => {
      const theme = { fg: (_color, text) => text, bold: (text) => text };
      const keybindings = { matches: (data, id) => KEYS[id] === data };
      view = factory({ requestRender() {} }, theme, keybindings, (value) => {
        closed = true;
        resolve(value);
      });
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
  const render = () =>
    view
      .render(width)
      .map((line) => line.replace(ANSI, "").trimEnd())
      .map((line) => (width > 60 ? line.replace(/─{60,}/, (rule) => `─ × ${rule.length}`) : line));
  const handler = world.commands.get("mcp").handler(args, world.ctx);
  await settle();
  if (openFrame) frames.push(["open", render()]);
  for (const [label, keys, wait] of steps) {
    for (const key of keys) {
      if (typeof key === "function") await key();
      else view.handleInput(key);
      await settle();
    }
    // A wait is given the frame as it would be rendered now.
    if (wait) await world.until(() => wait(render));
    await settle();
    frames.push([label, closed ? "closed" : render()]);
  }
  await handler;
  world.ctx.mode = "print";
  return frames;
}

/** A transport whose server never starts; closing it ends the wait. */
class HangingTransport {
  #closed;
  #release = () => {};
  constructor() {
    this.#closed = new Promise((resolve) => {
      this.#release = resolve;
    });
  }
  onMessage() {
    return () => {};
  }
  onError() {
    return () => {};
  }
  onClose(listener) {
    void this.#closed.then(listener);
    return () => {};
  }
  async start() {
    await this.#closed;
    throw new Error("closed before it started");
  }
  async send() {}
  async close() {
    this.#release();
  }
}

/**
 * A transport answering from a script instead of a process: a server named
 * after the entry with one tool, `ask`. It records what it was sent.
 */
class ScriptedTransport {
  static log = [];
  #listeners = { message: [], error: [], close: [] };
  #name;
  constructor(name, cwd) {
    this.#name = name;
    ScriptedTransport.log.push(["created", name, typeof cwd]);
  }
  onMessage(listener) {
    this.#listeners.message.push(listener);
    return () => {};
  }
  onError(listener) {
    this.#listeners.error.push(listener);
    return () => {};
  }
  onClose(listener) {
    this.#listeners.close.push(listener);
    return () => {};
  }
  async start() {
    ScriptedTransport.log.push(["start"]);
  }
  setProtocolVersion(version) {
    ScriptedTransport.log.push(["protocol", version]);
  }
  async send(message) {
    ScriptedTransport.log.push(["send", message.method ?? "response", message.params ?? message.result ?? null]);
    if (message.id === undefined || message.method === undefined) return;
    const answer = (result) => queueMicrotask(() => this.#listeners.message.forEach((listener) => listener({ jsonrpc: "2.0", id: message.id, result })));
    switch (message.method) {
      case "initialize":
        return answer({ protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: this.#name, version: "1" }, instructions: "  Scripted.  " });
      case "tools/list":
        return answer({ tools: [{ name: "ask", inputSchema: { type: "object" }, annotations: { title: "Ask" } }], nextCursor: "" });
      case "tools/call":
        return answer({ content: [{ type: "text", text: JSON.stringify(message.params) }] });
      default:
        return queueMicrotask(() =>
          this.#listeners.message.forEach((listener) => listener({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "nope" } })),
        );
    }
  }
  async close() {
    ScriptedTransport.log.push(["close"]);
    this.#listeners.close.forEach((listener) => listener());
  }
}
