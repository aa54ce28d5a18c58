// Drives `pihost mcp` with the official MCP TypeScript SDK
// (@modelcontextprotocol/sdk 1.32.2, from extensions-examples/npm-deps), so the
// server is checked against a real client, not only against our reading of the
// spec. The example extensions in extensions-examples/mcp-tools/ plus
// extensions-examples/hello-tool.ts are served; every scenario prints
// `ok <scenario>` or `FAILED <scenario>: <expected vs got>`, and the exit code
// is 1 when any failed.
//
//   node tests/mcp/ts-client.mjs <pihost binary>
//
// The raw-* scenarios talk to the server over plain stdio (child_process, no
// SDK) to send what an SDK never sends: malformed JSON, unknown methods, a
// request before initialize. Every scenario is bounded by a 10 s timeout.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sdkDir = path.join(project, "extensions-examples/npm-deps/node_modules/@modelcontextprotocol/sdk");
if (!existsSync(path.join(sdkDir, "package.json"))) {
  console.error(`ts-client: no MCP SDK at ${sdkDir}; run: cd extensions-examples/npm-deps && npm ci --no-audit --no-fund`);
  process.exit(2);
}
const sdk = (file) => import(pathToFileURL(path.join(sdkDir, "dist/esm", file)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema, McpError } =
  await sdk("types.js");

const bin = process.argv[2];
if (!bin) {
  console.error("usage: node tests/mcp/ts-client.mjs <pihost binary>");
  process.exit(2);
}
const binary = path.resolve(bin);
const extensions = [path.join(project, "extensions-examples/mcp-tools"), path.join(project, "extensions-examples/hello-tool.ts")];
const work = mkdtempSync(path.join(tmpdir(), "pihost-mcp-ts-"));
const agentDir = path.join(work, "agent"); // no ~/.pi/agent extensions leak in
const cwd = path.join(work, "cwd");
for (const dir of [agentDir, cwd]) mkdirSync(dir, { recursive: true });
const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
const serverArgs = ["mcp", ...extensions, "--cwd", cwd];

const SCENARIO_MS = 10_000;
const REQUEST = { timeout: SCENARIO_MS };
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

let failures = 0;
const stderrLogs = [];

class Mismatch extends Error {}
const show = (value) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 600 ? `${text.slice(0, 600)}…` : text;
};
function expectEqual(what, got, expected) {
  if (!isDeepStrictEqual(got, expected)) throw new Mismatch(`${what}: expected ${show(expected)}, got ${show(got)}`);
}
function expect(what, condition, got) {
  if (!condition) throw new Mismatch(`${what}; got ${show(got)}`);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(what, predicate, ms = 3000) {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Mismatch(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
}

async function scenario(name, body) {
  let timer;
  try {
    await Promise.race([
      body(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Mismatch(`no outcome within ${SCENARIO_MS / 1000} s`)), SCENARIO_MS);
      }),
    ]);
    console.log(`ok ${name}`);
  } catch (error) {
    failures++;
    const text = error instanceof Mismatch ? error.message : `threw ${error?.name ?? "error"}: ${error?.message ?? error}`;
    console.log(`FAILED ${name}: ${text.replace(/\n/g, "\\n")}`);
  } finally {
    clearTimeout(timer);
  }
}

/** An SDK client on a fresh server; records what arrives besides responses. */
async function connect(label, capabilities) {
  const transport = new StdioClientTransport({ command: binary, args: serverArgs, env, cwd: project, stderr: "pipe" });
  const log = { label, text: "" };
  stderrLogs.push(log);
  transport.stderr?.on("data", (chunk) => (log.text += chunk.toString()));
  const client = new Client({ name: `pihost-ts-client-${label}`, version: "1.0.0" }, { capabilities });
  const seen = { errors: [], messages: [], listChanged: 0, elicitations: [], otherRequests: [] };
  client.onerror = (error) => seen.errors.push(String(error?.message ?? error));
  client.fallbackRequestHandler = async (request) => {
    seen.otherRequests.push(request.method);
    throw new McpError(-32601, `Method not found: ${request.method}`);
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.messages.push(n.params));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => seen.listChanged++);
  await client.connect(transport, REQUEST);
  return { client, transport, seen };
}

const noSdkErrors = (seen) => expectEqual("errors the SDK reported (stray or malformed messages)", seen.errors, []);

// ---------------------------------------------------------------------------
// Client 1: declares form elicitation and answers from `answers`.
let answers = "accept";
let main;
await scenario("initialize", async () => {
  main = await connect("elicitation", { elicitation: { form: {} } });
  main.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    main.seen.elicitations.push(request.params);
    if (answers !== "accept") return { action: answers };
    const props = request.params.requestedSchema?.properties ?? {};
    if ("confirmed" in props) return { action: "accept", content: { confirmed: true } };
    if ("choice" in props) return { action: "accept", content: { choice: "green" } };
    if ("value" in props) return { action: "accept", content: { value: "Ada" } };
    return { action: "decline" };
  });
  const info = main.client.getServerVersion();
  expectEqual("serverInfo.name", info?.name, "pihost");
  const caps = main.client.getServerCapabilities();
  expectEqual("capabilities.tools", caps?.tools, { listChanged: true });
  expectEqual("capabilities.logging", caps?.logging, {});
});
if (!main) {
  console.log(`FAILED all-sdk-scenarios: no connection; server stderr: ${show(stderrLogs.at(-1)?.text.slice(-2000))}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}
const { client, seen } = main;

await scenario("list-tools", async () => {
  const { tools } = await client.listTools(undefined, REQUEST);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const wanted = {
    greet: ["Greet", "Greets someone by name, optionally several times or loudly."],
    count_up: ["Count up", "Counts from 1 to `to`, reporting each step as a progress update."],
    ask_user: ["Ask user", "Asks for a confirmation, a colour and a name, and returns the answers."],
    notify_levels: ["Notify levels", "Sends an info, a warning and an error notification."],
    fail_always: ["Fail always", "Throws an Error whose message is `reason` (or, with `bare`, the string itself)."],
    wait_for_abort: ["Wait for abort", "Waits until the call is cancelled, then writes `aborted` to the marker file."],
    show_pixel: ["Show pixel", "Returns a text block and a 1x1 PNG image block."],
    add_tool: ["Add tool", "Registers the tool `added_tool`."],
    retire_me: ["Retire me", "Taken out of the active tools by retire_tool."],
    retire_tool: ["Retire tool", "Makes every active tool but `retire_me` the active set."],
  };
  for (const [name, [title, description]] of Object.entries(wanted)) {
    const tool = byName.get(name);
    expect(`tool ${name} listed`, tool, [...byName.keys()]);
    expectEqual(`${name}.title`, tool.title, title);
    expectEqual(`${name}.description`, tool.description, description);
    expectEqual(`${name}.inputSchema.type`, tool.inputSchema?.type, "object");
  }
  expect("added_tool not listed before add_tool runs", !byName.has("added_tool"), [...byName.keys()]);
  expect("hidden and deferred tools not listed", !byName.has("secret_tool") && !byName.has("later_tool"), [...byName.keys()]);
  expectEqual("count_up.outputSchema", byName.get("count_up").outputSchema, {
    type: "object",
    required: ["count"],
    properties: { count: { type: "integer" } },
  });
  expectEqual("greet.outputSchema", byName.get("greet").outputSchema, undefined);
  const greet = byName.get("greet").inputSchema;
  expectEqual("greet.inputSchema.properties.name", greet.properties?.name, { type: "string", description: "Who to greet" });
  expectEqual("greet.inputSchema.required", greet.required, ["name"]);
  expectEqual("greet.inputSchema.properties.times", greet.properties?.times, {
    type: "integer",
    minimum: 1,
    maximum: 5,
    description: "How many greetings",
  });
  expectEqual("count_up.inputSchema.required", byName.get("count_up").inputSchema.required, ["to"]);
  noSdkErrors(seen);
});

await scenario("call-text", async () => {
  const result = await client.callTool({ name: "greet", arguments: { name: "MCP", times: 2 } }, undefined, REQUEST);
  expectEqual("content", result.content, [{ type: "text", text: "Hello, MCP. Hello, MCP." }]);
  expectEqual("isError", result.isError, false);
  expectEqual("structuredContent (pi's result has none; details do not cross)", result.structuredContent, undefined);
});

await scenario("call-image", async () => {
  const result = await client.callTool({ name: "show_pixel", arguments: {} }, undefined, REQUEST);
  expectEqual("content", result.content, [
    { type: "text", text: "one red pixel" },
    { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
  ]);
  expectEqual("structuredContent", result.structuredContent, { width: 1, height: 1 });
  expectEqual("isError", result.isError, false);
});

await scenario("progress", async () => {
  const updates = [];
  const result = await client.callTool({ name: "count_up", arguments: { to: 3 } }, undefined, {
    ...REQUEST,
    onprogress: (p) => updates.push(p),
  });
  expectEqual("progress notifications", updates, [
    { progress: 1, message: "step 1 of 3" },
    { progress: 2, message: "step 2 of 3" },
    { progress: 3, message: "step 3 of 3" },
  ]);
  expectEqual("content", result.content, [{ type: "text", text: "counted to 3" }]);
  expectEqual("structuredContent", result.structuredContent, { count: 3 });
  noSdkErrors(seen);
});

await scenario("progress-without-token", async () => {
  const before = seen.errors.length;
  const result = await client.callTool({ name: "count_up", arguments: { to: 2 } }, undefined, REQUEST);
  expectEqual("content", result.content, [{ type: "text", text: "counted to 2" }]);
  await sleep(200);
  expectEqual("progress notifications without a progressToken (SDK errors)", seen.errors.slice(before), []);
});

await scenario("error-result", async () => {
  const result = await client.callTool({ name: "fail_always", arguments: { reason: "boom: on purpose" } }, undefined, REQUEST);
  expectEqual("isError", result.isError, true);
  expectEqual("content", result.content, [{ type: "text", text: "boom: on purpose" }]);
});

await scenario("error-result-non-error", async () => {
  const result = await client.callTool({ name: "fail_always", arguments: { reason: "bare string", bare: true } }, undefined, REQUEST);
  expectEqual("isError", result.isError, true);
  expectEqual("content (pi's String(thrown))", result.content, [{ type: "text", text: "bare string" }]);
});

await scenario("validation-error", async () => {
  const result = await client.callTool({ name: "greet", arguments: { times: 9 } }, undefined, REQUEST);
  expectEqual("isError", result.isError, true);
  expectEqual("content block count", result.content?.length, 1);
  expectEqual("content[0].type", result.content[0].type, "text");
  expect(
    'text starts with `Validation failed for tool "greet"`',
    result.content[0].text.startsWith('Validation failed for tool "greet"'),
    result.content[0].text,
  );
});

await scenario("unknown-tool", async () => {
  let outcome;
  try {
    outcome = await client.callTool({ name: "no_such_tool", arguments: {} }, undefined, REQUEST);
  } catch (error) {
    outcome = error;
  }
  expect("a JSON-RPC error, not a result", outcome instanceof McpError, outcome);
  expectEqual("error code", outcome.code, -32602);
  expect("message contains `Unknown tool`", outcome.message.includes("Unknown tool"), outcome.message);
});

await scenario("hidden-tool-not-callable", async () => {
  let error;
  try {
    await client.callTool({ name: "secret_tool", arguments: {} }, undefined, REQUEST);
  } catch (caught) {
    error = caught;
  }
  expect("calling a hidden tool is an Unknown tool error", error?.code === -32602 && /Unknown tool/.test(error?.message), error?.message);
});

await scenario("notify", async () => {
  seen.messages.length = 0;
  const result = await client.callTool({ name: "notify_levels", arguments: { text: "hi" } }, undefined, REQUEST);
  expectEqual("content", result.content, [{ type: "text", text: "sent 3 notifications" }]);
  await waitFor("four notifications/message", () => seen.messages.length >= 4, 2000).catch(() => {});
  expectEqual("notifications/message params", seen.messages, [
    { level: "info", logger: "console", data: "notify_levels ran with hi" },
    { level: "info", logger: "pihost", data: "hi (info)" },
    { level: "warning", logger: "pihost", data: "hi (warning)" },
    { level: "error", logger: "pihost", data: "hi (error)" },
  ]);
});

const confirmSchema = (title) => ({
  type: "object",
  properties: { confirmed: { type: "boolean", title } },
  required: ["confirmed"],
});
function checkSelectAndInput(requests) {
  const [select, input] = requests;
  expectEqual("select: mode", select?.mode, "form");
  expectEqual("select: message", select?.message, "Pick a colour");
  expectEqual("select: requestedSchema.type", select?.requestedSchema?.type, "object");
  const choice = select?.requestedSchema?.properties?.choice;
  expectEqual("select: choice.type", choice?.type, "string");
  expectEqual("select: choice.enum", choice?.enum, ["red", "green", "blue"]);
  expectEqual("input: mode", input?.mode, "form");
  expectEqual("input: message", input?.message, "Your name");
  expectEqual("input: value.type", input?.requestedSchema?.properties?.value?.type, "string");
}

await scenario("elicitation-accept", async () => {
  answers = "accept";
  seen.elicitations.length = 0;
  const result = await client.callTool(
    { name: "ask_user", arguments: { title: "Proceed?", message: "This deletes nothing." } },
    undefined,
    REQUEST,
  );
  expectEqual("content", result.content, [{ type: "text", text: "confirmed=true choice=green value=Ada" }]);
  expectEqual("structuredContent", result.structuredContent, { confirmed: true, choice: "green", value: "Ada" });
  expectEqual("elicitation count", seen.elicitations.length, 3);
  expectEqual("confirm request", seen.elicitations[0], {
    mode: "form",
    message: "Proceed?\n\nThis deletes nothing.",
    requestedSchema: confirmSchema("Proceed?"),
  });
  checkSelectAndInput(seen.elicitations.slice(1));
});

await scenario("elicitation-title-only", async () => {
  answers = "accept";
  seen.elicitations.length = 0;
  const result = await client.callTool({ name: "ask_user", arguments: { title: "Sure?" } }, undefined, REQUEST);
  expectEqual("content", result.content, [{ type: "text", text: "confirmed=true choice=green value=Ada" }]);
  expectEqual("confirm request", seen.elicitations[0], {
    mode: "form",
    message: "Sure?",
    requestedSchema: confirmSchema("Sure?"),
  });
});

for (const action of ["decline", "cancel"]) {
  await scenario(`elicitation-${action}`, async () => {
    answers = action;
    seen.elicitations.length = 0;
    const result = await client.callTool({ name: "ask_user", arguments: { message: "Really?" } }, undefined, REQUEST);
    expectEqual("content", result.content, [{ type: "text", text: "confirmed=false choice=(none) value=(none)" }]);
    expectEqual("structuredContent", result.structuredContent, { confirmed: false, choice: null, value: null });
    expectEqual("elicitation count", seen.elicitations.length, 3);
    answers = "accept";
  });
}

await scenario("cancellation", async () => {
  const marker = path.join(work, "aborted-ts.txt");
  rmSync(marker, { force: true });
  const before = seen.errors.length;
  const controller = new AbortController();
  const fallback = setTimeout(() => controller.abort("fallback: no progress within 1.5 s"), 1500);
  let outcome;
  try {
    outcome = await client.callTool({ name: "wait_for_abort", arguments: { marker, limitMs: 8000 } }, undefined, {
      ...REQUEST,
      signal: controller.signal,
      onprogress: () => controller.abort("cancelled by the test"),
    });
  } catch (error) {
    outcome = error;
  } finally {
    clearTimeout(fallback);
  }
  expect("the call rejects once aborted", outcome instanceof Error, outcome);
  // writeFileSync creates the file before it writes: wait for its text, not for it to exist.
  await waitFor(`marker file ${marker}`, () => existsSync(marker) && readFileSync(marker, "utf8") !== "", 5000);
  expectEqual("marker content", readFileSync(marker, "utf8"), "aborted");
  await sleep(500);
  expectEqual("messages after the cancel (a response must not be sent)", seen.errors.slice(before), []);
  const after = await client.callTool({ name: "greet", arguments: { name: "again" } }, undefined, REQUEST);
  expectEqual("a call after the cancel", after.content, [{ type: "text", text: "Hello, again." }]);
});

await scenario("list-changed-register", async () => {
  const before = seen.listChanged;
  const result = await client.callTool({ name: "add_tool", arguments: {} }, undefined, REQUEST);
  expectEqual("content", result.content, [{ type: "text", text: "registered added_tool" }]);
  await waitFor("notifications/tools/list_changed", () => seen.listChanged > before, 3000);
  const { tools } = await client.listTools(undefined, REQUEST);
  const added = tools.find((t) => t.name === "added_tool");
  expect("added_tool listed", added, tools.map((t) => t.name));
  expectEqual("added_tool.title", added.title, "Added tool");
  const call = await client.callTool({ name: "added_tool", arguments: {} }, undefined, REQUEST);
  expectEqual("added_tool result", call.content, [{ type: "text", text: "added tool ran" }]);
});

await scenario("list-changed-set-active", async () => {
  const before = seen.listChanged;
  const result = await client.callTool({ name: "retire_tool", arguments: {} }, undefined, REQUEST);
  expectEqual("isError", result.isError, false);
  await waitFor("notifications/tools/list_changed", () => seen.listChanged > before, 3000);
  const names = (await client.listTools(undefined, REQUEST)).tools.map((t) => t.name);
  expect("retire_me no longer listed", !names.includes("retire_me"), names);
  const missing = ["greet", "count_up", "added_tool", "retire_tool"].filter((n) => !names.includes(n));
  expectEqual("active tools missing after setActiveTools(getActiveTools() minus retire_me)", missing, []);
});

await scenario("no-stray-output", async () => {
  expectEqual("server requests other than elicitation", seen.otherRequests, []);
  noSdkErrors(seen);
});
await client.close();

// ---------------------------------------------------------------------------
// A client that offers sampling: an extension's pi-ai `complete` is asked of it.
await scenario("sampling", async () => {
  const { client: sampler, seen: samplerSeen } = await connect("sampling", { sampling: {} });
  const asked = [];
  sampler.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(request.params);
    const question = request.params.messages.at(-1)?.content;
    const text = Array.isArray(question) ? question.map((block) => block.text).join("") : question?.text;
    return { role: "assistant", content: { type: "text", text: `echo ${text}` }, model: "client-model", stopReason: "endTurn" };
  });
  try {
    const result = await sampler.callTool({ name: "ask_model", arguments: { question: "colour?" } }, undefined, REQUEST);
    expectEqual("content", result.content, [{ type: "text", text: "stop: echo colour?" }]);
    expectEqual("sampling requests", asked.length, 1);
    expectEqual("systemPrompt", asked[0].systemPrompt, "Answer in one word.", JSON.stringify(asked[0]));
    expectEqual("model hint", asked[0].modelPreferences?.hints?.[0]?.name, result.structuredContent?.model);
    expect("maxTokens is a positive number", asked[0].maxTokens > 0, asked[0].maxTokens);
    noSdkErrors(samplerSeen);
  } finally {
    await sampler.close();
  }
});

// ---------------------------------------------------------------------------
// Client 2: no elicitation capability, so pi's headless answers and no requests.
await scenario("headless-dialogs", async () => {
  const { client: plain, seen: plainSeen } = await connect("headless", {});
  try {
    const result = await plain.callTool({ name: "ask_user", arguments: { message: "Really?" } }, undefined, REQUEST);
    expectEqual("content", result.content, [{ type: "text", text: "confirmed=false choice=(none) value=(none)" }]);
    expectEqual("structuredContent", result.structuredContent, { confirmed: false, choice: null, value: null });
    expectEqual("requests the server sent", plainSeen.otherRequests, []);
    // Without sampling a model call fails as in a pi with no provider for
    // the API: pi-ai's complete throws, so the tool's result is an error.
    const model = await plain.callTool({ name: "ask_model", arguments: { question: "colour?" } }, undefined, REQUEST);
    expect(
      "ask_model without sampling: pi's no-provider error",
      model.isError === true && /^No API provider registered for api: /.test(model.content?.[0]?.text ?? ""),
      model,
    );
    expectEqual("requests the server sent", plainSeen.otherRequests, []);
    noSdkErrors(plainSeen);
  } finally {
    await plain.close();
  }
});

// ---------------------------------------------------------------------------
// Raw stdio: one process, JSON lines by hand.
class RawServer {
  constructor() {
    this.child = spawn(binary, serverArgs, { cwd: project, env, stdio: ["pipe", "pipe", "pipe"] });
    this.lines = [];
    this.badLines = [];
    this.log = { label: "raw", text: "" };
    stderrLogs.push(this.log);
    let buffer = "";
    this.child.stdout.on("data", (chunk) => {
      buffer += chunk.toString();
      let at;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        if (line.trim() === "") continue;
        try {
          const message = JSON.parse(line);
          if (message?.jsonrpc !== "2.0") this.badLines.push(line);
          this.lines.push(message);
        } catch {
          this.badLines.push(line);
        }
      }
    });
    this.child.stderr.on("data", (chunk) => (this.log.text += chunk.toString()));
    this.child.on("error", (error) => (this.log.text += `spawn error: ${error}`));
  }
  send(value) {
    this.child.stdin.write(typeof value === "string" ? `${value}\n` : `${JSON.stringify(value)}\n`);
  }
  async response(id, ms = 5000) {
    const match = (m) => "id" in m && (m.result !== undefined || m.error !== undefined) && isDeepStrictEqual(m.id, id);
    await waitFor(`the response with id ${show(id)}`, () => this.lines.some(match), ms);
    return this.lines.find(match);
  }
  async request(id, method, params) {
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.response(id);
  }
  async initialize(version = "2025-11-25") {
    const reply = await this.request(`init-${version}`, "initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return reply;
  }
  close() {
    this.child.stdin.end();
    setTimeout(() => this.child.kill("SIGKILL"), 2000).unref();
  }
}

await scenario("raw-before-initialize", async () => {
  const raw = new RawServer();
  try {
    const early = await raw.request(1, "tools/list");
    expect("an error response to tools/list before initialize", early.error, early);
    expect("code -32600 or -32002", [-32600, -32002].includes(early.error.code), early.error);
    const init = await raw.initialize();
    expect("initialize afterwards succeeds", init.result, init);
    expectEqual("serverInfo.name", init.result.serverInfo?.name, "pihost");
    const list = await raw.request(2, "tools/list");
    expect("tools/list then works", Array.isArray(list.result?.tools), list);
    expectEqual("lines on stdout that are not JSON-RPC", raw.badLines, []);
  } finally {
    raw.close();
  }
});

await scenario("raw-bad-input", async () => {
  const raw = new RawServer();
  try {
    await raw.initialize();
    raw.send("{this is not json");
    await waitFor("a -32700 response", () => raw.lines.some((m) => m.error?.code === -32700), 5000);
    const parse = raw.lines.find((m) => m.error?.code === -32700);
    expectEqual("parse error id", parse.id, null);
    const unknown = await raw.request(7, "no/such/method", {});
    expectEqual("unknown method error code", unknown.error?.code, -32601);
    const ping = await raw.request(8, "ping");
    expectEqual("ping still answered", ping.result, {});
    const call = await raw.request(9, "tools/call", { name: "notify_levels", arguments: { text: "raw" } });
    expectEqual("a call still works", call.result?.content, [{ type: "text", text: "sent 3 notifications" }]);
    expectEqual("lines on stdout that are not JSON-RPC", raw.badLines, []);
    await waitFor("the tool's console.log on stderr", () => raw.log.text.includes("notify_levels ran with raw"), 2000);
  } finally {
    raw.close();
  }
});

for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
  await scenario(`raw-protocol-${version}`, async () => {
    const raw = new RawServer();
    try {
      const init = await raw.initialize(version);
      expectEqual("protocolVersion in the answer", init.result?.protocolVersion, version);
      const list = await raw.request(2, "tools/list");
      expect("tools/list works", list.result?.tools?.some((t) => t.name === "greet"), list);
    } finally {
      raw.close();
    }
  });
}

rmSync(work, { recursive: true, force: true });
if (failures > 0) {
  if (process.env.PIHOST_MCP_SHOW_STDERR) {
    for (const log of stderrLogs) console.error(`--- server stderr (${log.label}) ---\n${log.text.slice(-4000)}`);
  } else {
    console.error("ts-client: set PIHOST_MCP_SHOW_STDERR=1 to see the servers' stderr");
  }
}
process.exit(failures > 0 ? 1 : 0);
