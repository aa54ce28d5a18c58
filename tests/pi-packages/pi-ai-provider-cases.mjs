// Cases for pi-ai's direct providers (streamAnthropic, …): each case points
// a catalog model at a local HTTP server that records what the provider
// sends and answers with canned vendor responses (SSE streams split across
// chunks, error statuses, streams that stop early). A case's result is the
// recorded requests, the events the provider emitted (reduced) and its
// final message, with what varies between runs (times, the port) masked.
// The server lives here, so the same cases run against pi under Node and
// against pihost's facade under Node and in pihost's engine.
import http from "node:http";

// Request headers worth comparing: auth, versions, betas, content type and
// the caller's own. The SDKs' platform headers (x-stainless-*) are left out.
const RECORDED_HEADERS = [
  "accept",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  "anthropic-version",
  "api-key",
  "authorization",
  "cf-aig-authorization",
  "content-type",
  "openai-organization",
  "session-id",
  "user-agent",
  "x-api-key",
  "x-app",
  "x-affinity",
  "x-client-request-id",
  "x-custom",
  "x-goog-api-client",
  "x-goog-api-key",
  "x-goog-user-project",
  "x-opencode-session",
  "metadata-flavor",
  "x-session-affinity",
  "x-session-id",
];

let server;
let baseUrl;
let script = [];
let requests = [];

export async function startServer() {
  if (server) return;
  server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", async () => {
      const headers = {};
      for (const name of RECORDED_HEADERS) {
        if (request.headers[name] !== undefined) headers[name] = request.headers[name];
      }
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        json = body;
      }
      requests.push({ method: request.method, path: request.url, headers, body: json });
      const reply = script.shift() ?? { status: 599, body: "no canned response left" };
      response.writeHead(reply.status ?? 200, { connection: "close", ...reply.headers });
      for (const chunk of reply.chunks ?? [reply.body ?? ""]) {
        response.write(chunk);
        // A pause between chunks, so the client reads them apart.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      // A stream that stalls: it stays open until the client goes away.
      if (reply.hang) await new Promise((resolve) => response.on("close", resolve));
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref?.();
  baseUrl = `http://127.0.0.1:${server.address().port}`;
}

function mask(value) {
  const port = String(server.address().port);
  return JSON.parse(
    JSON.stringify(value, (key, item) => {
      if ((key === "timestamp" || key === "durationMs" || key === "timestampMs") && typeof item === "number") return "<time>";
      // Stack traces name the engine's frames.
      if (key === "stack" && typeof item === "string") return "<stack>";
      // The port alone, not digits that happen to contain it (a tool call id made from the clock).
      if (typeof item === "string" && item.includes(port)) return item.replace(new RegExp(`(?<!\\d)${port}(?!\\d)`, "g"), "<port>");
      // Google's SDK names the engine's version.
      if (key === "x-goog-api-client" && typeof item === "string") return item.replace(/ gl-node\/\S+/, " gl-node/<version>");
      // pi's own user agent names the platform and the engine's version.
      if (key === "user-agent" && typeof item === "string" && item.startsWith("pi/")) return "<pi user agent>";
      return item;
    }),
  );
}

/** An event as data: everything but the partial message, which is the final message while it is built. */
function reduceEvent(event) {
  const { partial: _partial, ...rest } = event;
  return rest;
}

/** Runs `start(baseUrl)` (which returns a stream) against `replies`; the requests, events and final message. */
export async function exchange(replies, start, keep = {}) {
  await startServer();
  script = [...replies];
  requests = [];
  const stream = await start(baseUrl);
  const events = [];
  for await (const event of stream) events.push(reduceEvent(event));
  const message = await stream.result();
  keep.message = message;
  const result = mask({ requests, events, message });
  script = [];
  requests = [];
  return result;
}

/**
 * Runs `run(baseUrl)` against `replies` (or `replies(baseUrl)`, for answers
 * that name the server); the requests it made and what it returned (plain
 * data), masked.
 */
export async function recordRequests(replies, run) {
  await startServer();
  script = typeof replies === "function" ? replies(baseUrl) : [...replies];
  requests = [];
  try {
    const value = await run(baseUrl);
    return mask({ requests, value });
  } finally {
    script = [];
    requests = [];
  }
}

/** An SSE stream as the vendor sends it: `event:` lines (when named) and `data:` lines. */
function sse(events, { named = true } = {}) {
  return events
    .map((event) => (named && typeof event === "object" ? `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n` : `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`))
    .join("");
}

/** Text cut into pieces of `size` characters, so events straddle network chunks. */
export function pieces(text, size) {
  const out = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

export const SSE_HEADERS = { "content-type": "text/event-stream" };

export function sseReply(events, size = 37) {
  return { status: 200, headers: SSE_HEADERS, chunks: pieces(sse(events), size) };
}

// --- Anthropic --------------------------------------------------------------------

export function anthropicStart(id = "msg_1", model = "claude-sonnet-4-5", usage = {}) {
  return {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      usage: { input_tokens: 25, output_tokens: 1, cache_read_input_tokens: 3, cache_creation_input_tokens: 0, ...usage },
    },
  };
}

export function anthropicEnd(stopReason = "end_turn", usage = { output_tokens: 12 }, extra = {}) {
  return [{ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null, ...extra }, usage }, { type: "message_stop" }];
}

export function anthropicText(index, parts) {
  return [
    { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    ...parts.map((text) => ({ type: "content_block_delta", index, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index },
  ];
}

export const TOOLS = [
  {
    name: "read",
    description: "Read a file",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "The path" }, limit: { type: "number" } },
      required: ["path"],
    },
  },
  {
    name: "bash",
    description: "Run a command",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
];

const IMAGE = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };

export function historyContext(model) {
  return {
    systemPrompt: "You are terse.",
    tools: TOOLS,
    messages: [
      { role: "user", content: [{ type: "text", text: "look" }, IMAGE], timestamp: 1 },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "mine", thinkingSignature: "sig-1" },
          { type: "text", text: "Reading." },
          { type: "toolCall", id: "call|1/odd", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "call_2", name: "bash", arguments: { command: "ls" } },
        ],
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "call|1/odd", toolName: "read", content: [{ type: "text", text: "contents" }], isError: false, timestamp: 3 },
      { role: "toolResult", toolCallId: "call_2", toolName: "bash", content: [{ type: "text", text: "boom" }, IMAGE], isError: true, timestamp: 4 },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "other model's thoughts", thinkingSignature: "x" },
          { type: "text", text: "From elsewhere." },
          { type: "toolCall", id: "call|3", name: "read", arguments: { path: "b" } },
        ],
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 5,
      },
      { role: "user", content: "go on \uD800 please", timestamp: 6 },
    ],
  };
}

export const SIMPLE = { systemPrompt: "You are terse.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function addAnthropicCases(add, ai) {
  const model = (url, id = "claude-sonnet-4-5", extra = {}) => ({ ...ai.getModel("anthropic", id), baseUrl: url, ...extra });
  const key = { apiKey: "sk-ant-test" };

  add("providers.anthropic.text", () =>
    exchange([sseReply([anthropicStart(), ...anthropicText(0, ["Hel", "lo", " there"]), ...anthropicEnd()])], (url) =>
      ai.streamAnthropic(model(url), SIMPLE, { ...key, headers: { "X-Custom": "yes" } }),
    ),
  );
  add("providers.anthropic.thinkingAndToolCall", () =>
    exchange(
      [
        sseReply(
          [
            anthropicStart("msg_2", "claude-sonnet-4-5", { cache_creation: { ephemeral_1h_input_tokens: 2 }, cache_creation_input_tokens: 4 }),
            { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
            { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me " } },
            { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "think." } },
            { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-abc" } },
            { type: "content_block_stop", index: 0 },
            { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "opaque" } },
            { type: "content_block_stop", index: 1 },
            { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_1", name: "read", input: {} } },
            { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"pa' } },
            { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'th": "a.t' } },
            { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'xt"}' } },
            { type: "content_block_stop", index: 2 },
            ...anthropicEnd("tool_use", { output_tokens: 40, output_tokens_details: { thinking_tokens: 20 } }),
          ],
          23,
        ),
      ],
      (url) => ai.streamSimpleAnthropic(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { ...key, reasoning: "medium" }),
    ),
  );
  add("providers.anthropic.historyConversion", () =>
    exchange([sseReply([anthropicStart(), ...anthropicText(0, ["ok"]), ...anthropicEnd()])], (url) =>
      ai.streamAnthropic(model(url), ai.normalizeContext(historyContext(model(url))), { ...key, cacheRetention: "long", temperature: 0.3, toolChoice: "auto", metadata: { user_id: "u1" } }),
    ),
  );
  add("providers.anthropic.adaptiveThinking", () =>
    exchange([sseReply([anthropicStart("msg_3", "claude-opus-4-7"), ...anthropicText(0, ["ok"]), ...anthropicEnd()])], (url) =>
      ai.streamSimpleAnthropic(model(url, "claude-opus-4-7"), SIMPLE, { ...key, reasoning: "xhigh", temperature: 1, cacheRetention: "none" }),
    ),
  );
  add("providers.anthropic.oauthClaudeCode", () =>
    exchange(
      [
        sseReply([
          anthropicStart(),
          { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_9", name: "Bash", input: {} } },
          { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"command":"ls"}' } },
          { type: "content_block_stop", index: 0 },
          ...anthropicEnd("tool_use"),
        ]),
      ],
      (url) => ai.streamSimpleAnthropic(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { apiKey: "sk-ant-oat01-token" }),
    ),
  );
  add("providers.anthropic.payloadAndResponseHooks", async () => {
    const seen = [];
    const result = await exchange([sseReply([anthropicStart(), ...anthropicText(0, ["ok"]), ...anthropicEnd()])], (url) =>
      ai.streamAnthropic(model(url), SIMPLE, {
        ...key,
        onPayload: (params, requested) => {
          seen.push(["payload", requested.id, Object.keys(params)]);
          return { ...params, max_tokens: 77, stream: false, extra_field: 1 };
        },
        onResponse: (response) => {
          seen.push(["response", response.status, response.headers["content-type"]]);
        },
        onProviderStreamEvent: (event) => {
          seen.push(["event", event.type]);
        },
      }),
    );
    return { seen, result };
  });
  add("providers.anthropic.error400", () =>
    exchange(
      [
        {
          status: 400,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } }),
        },
      ],
      (url) => ai.streamAnthropic(model(url), SIMPLE, key),
    ),
  );
  add("providers.anthropic.error429RetriedThenAnswered", () =>
    exchange(
      [
        { status: 429, headers: { "content-type": "application/json", "retry-after-ms": "5" }, body: JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "slow down" } }) },
        sseReply([anthropicStart(), ...anthropicText(0, ["after retry"]), ...anthropicEnd()]),
      ],
      (url) => ai.streamAnthropic(model(url), SIMPLE, { ...key, maxRetries: 2 }),
    ),
  );
  add("providers.anthropic.error429RetryDelayTooLong", () =>
    exchange(
      [{ status: 429, headers: { "retry-after": "120" }, body: JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "later" } }) }],
      (url) => ai.streamAnthropic(model(url), SIMPLE, { ...key, maxRetries: 1 }),
    ),
  );
  add("providers.anthropic.error500PlainText", () =>
    exchange([{ status: 500, headers: { "content-type": "text/plain" }, body: "upstream exploded" }], (url) =>
      ai.streamAnthropic(model(url), SIMPLE, key),
    ),
  );
  add("providers.anthropic.streamCutBeforeStop", () =>
    exchange([sseReply([anthropicStart(), ...anthropicText(0, ["partial"]).slice(0, 2)])], (url) => ai.streamAnthropic(model(url), SIMPLE, key)),
  );
  add("providers.anthropic.streamErrorEvent", () =>
    exchange(
      [
        {
          status: 200,
          headers: SSE_HEADERS,
          body:
            sse([anthropicStart(), ...anthropicText(0, ["so far"]).slice(0, 2)]) +
            `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`,
        },
      ],
      (url) => ai.streamAnthropic(model(url), SIMPLE, key),
    ),
  );
  add("providers.anthropic.refusalAndUnknownStop", async () => [
    await exchange([sseReply([anthropicStart(), ...anthropicText(0, ["no"]), ...anthropicEnd("refusal", { output_tokens: 2 }, { stop_details: { explanation: "Not allowed." } })])], (url) =>
      ai.streamAnthropic(model(url), SIMPLE, key),
    ),
    await exchange([sseReply([anthropicStart(), ...anthropicEnd("mystery")])], (url) => ai.streamAnthropic(model(url), SIMPLE, key)),
    await exchange([sseReply([anthropicStart(), ...anthropicText(0, ["x"]), { type: "message_stop" }])], (url) => ai.streamAnthropic(model(url), SIMPLE, key)),
  ]);
  add("providers.anthropic.noKeyAndAborted", async () => {
    const controller = new AbortController();
    controller.abort();
    return [
      await exchange([], (url) => ai.streamAnthropic(model(url), SIMPLE, {})),
      await exchange([], (url) => ai.streamSimpleAnthropic(model(url), SIMPLE, {})),
      await exchange([], (url) => ai.streamAnthropic(model(url), SIMPLE, { ...key, signal: controller.signal })),
    ];
  });
  add("providers.anthropic.openRouterBilling", () =>
    exchange(
      [sseReply([anthropicStart("gen-1", "anthropic/claude-sonnet-4.5"), ...anthropicText(0, ["ok"]), ...anthropicEnd("end_turn", { output_tokens: 5, cost: 0.25, is_byok: false })])],
      (url) => ai.streamAnthropic({ ...ai.getModel("openrouter", "anthropic/claude-sonnet-4.5"), baseUrl: url }, SIMPLE, { ...key, sessionId: "s-or" }),
    ),
  );
  add("providers.anthropic.messageThreads", async () => {
    const threaded = (url) => model(url, "claude-sonnet-4-5", { compat: { supportsStrictTools: true, supportsMessageThreads: true } });
    const kept = {};
    const first = await exchange(
      [sseReply([anthropicStart("msg_t1"), ...anthropicText(0, ["one"]), ...anthropicEnd()])],
      (url) => ai.streamAnthropic(threaded(url), SIMPLE, { ...key, sessionId: "thread-session" }),
      kept,
    );
    const reply = kept.message;
    const next = {
      ...SIMPLE,
      messages: [...SIMPLE.messages, { ...reply, timestamp: 2 }, { role: "user", content: "more", timestamp: 3 }],
    };
    const second = await exchange([sseReply([anthropicStart("msg_t2"), ...anthropicText(0, ["two"]), ...anthropicEnd()])], (url) =>
      ai.streamAnthropic(threaded(url), next, { ...key, sessionId: "thread-session" }),
    );
    const third = await exchange(
      [
        { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "thread: Extra inputs are not permitted" } }) },
        sseReply([anthropicStart("msg_t3"), ...anthropicText(0, ["three"]), ...anthropicEnd()]),
      ],
      (url) => ai.streamAnthropic(threaded(url), SIMPLE, { ...key, sessionId: "thread-session-2" }),
    );
    ai.cleanupSessionResources?.();
    return [first.requests, second.requests, third];
  });
}

// --- OpenAI Chat Completions -----------------------------------------------------

export function chunk(delta, extra = {}) {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "served-model", choices: [{ index: 0, delta, finish_reason: null }], ...extra };
}

export function finish(reason, usage) {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "served-model", choices: [{ index: 0, delta: {}, finish_reason: reason }], ...(usage ? { usage } : {}) };
}

const COMPLETION_USAGE = {
  prompt_tokens: 120,
  completion_tokens: 30,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 20 },
  completion_tokens_details: { reasoning_tokens: 10 },
};

export function completionsReply(chunks, size = 41) {
  return { status: 200, headers: SSE_HEADERS, chunks: pieces(sse([...chunks, "[DONE]"], { named: false }), size) };
}

const GRAMMAR_TOOL = {
  name: "patch",
  description: "Apply a patch",
  parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
  constrainedSampling: { type: "grammar", variants: { openai_lark: "start: /.+/" } },
};

function addCompletionsCases(add, ai) {
  const model = (url, provider, id, extra = {}) => ({ ...ai.getModel(provider, id), baseUrl: url, ...extra });
  const key = { apiKey: "sk-test" };
  const withTools = (context) => ai.normalizeContext({ ...context, tools: TOOLS });

  add("providers.completions.textAndToolCalls", () =>
    exchange(
      [
        completionsReply([
          chunk({ role: "assistant", content: "" }),
          chunk({ content: "Let me " }),
          chunk({ content: "look." }),
          chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
          chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "bash", arguments: '{"comm' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: 'and":"ls"}' } }] }),
          finish("tool_calls"),
          { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "served-model", choices: [], usage: COMPLETION_USAGE },
        ]),
      ],
      (url) => ai.streamOpenAICompletions(model(url, "groq", "llama-3.1-8b-instant"), withTools(SIMPLE), { ...key, headers: { "X-Custom": "c" }, maxTokens: 500, temperature: 0.2, toolChoice: "auto" }),
    ),
  );
  add("providers.completions.deepseekReasoningHistory", () =>
    exchange(
      [
        completionsReply([
          chunk({ role: "assistant", reasoning_content: "Think" }),
          chunk({ reasoning_content: "ing..." }),
          chunk({ content: "Answer." }),
          finish("stop", { prompt_tokens: 50, completion_tokens: 9, prompt_cache_hit_tokens: 40 }),
        ]),
      ],
      (url) => {
        const deepseek = model(url, "deepseek", "deepseek-flash");
        const context = historyContext(deepseek);
        context.messages[1] = {
          ...context.messages[1],
          content: [{ type: "thinking", thinking: "earlier", thinkingSignature: "reasoning_content" }, ...context.messages[1].content.slice(1)],
        };
        return ai.streamSimpleOpenAICompletions(deepseek, ai.normalizeContext(context), { ...key, reasoning: "high", sessionId: "sess-1" });
      },
    ),
  );
  add("providers.completions.openRouterReasoningDetails", () =>
    exchange(
      [
        completionsReply([
          chunk({ role: "assistant", reasoning: "Plan", reasoning_details: [{ type: "reasoning.text", text: "Plan", index: 0, format: "x" }] }),
          chunk({ reasoning: " more", reasoning_details: [{ type: "reasoning.text", text: " more", signature: "s1", index: 0 }] }),
          chunk({ reasoning_details: [{ type: "reasoning.encrypted", data: "ZW5j", id: "r1", index: 1 }, { bogus: true }] }),
          chunk({ content: "Done" }),
          finish("stop", { ...COMPLETION_USAGE, cost: 0.5, is_byok: true, cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.1, upstream_inference_completions_cost: 0.2 } }),
        ]),
      ],
      (url) =>
        ai.streamSimpleOpenAICompletions(model(url, "openrouter", "~deepseek/deepseek-flash-latest"), withTools(SIMPLE), { ...key, reasoning: "medium", sessionId: "or-session", cacheRetention: "long" }),
    ),
  );
  add("providers.completions.thinkingFormats", async () => {
    const reply = () => completionsReply([chunk({ content: "ok" }), finish("stop")]);
    const results = [];
    for (const [provider, id, reasoning] of [
      ["zai", "glm-4.7", "high"],
      ["zai", "glm-4.7", undefined],
      ["qwen-token-plan", "deepseek-v4-flash-0731", "high"],
      ["together", "deepseek-ai/DeepSeek-V4-Pro-0813", "high"],
      ["baseten", "deepseek-ai/DeepSeek-V4-Flash-0731", undefined],
      ["cerebras", "gpt-oss-120b", "low"],
      ["moonshotai", "kimi-k2.6", "high"],
      ["xiaomi", "mimo-v2.6-flash", undefined],
      ["ant-ling", "Ling-2.6-1T", "high"],
    ]) {
      const result = await exchange([reply()], (url) => ai.streamSimpleOpenAICompletions(model(url, provider, id), withTools(SIMPLE), { ...key, reasoning }));
      results.push({ provider, reasoning, headers: result.requests[0].headers, body: result.requests[0].body });
    }
    return results;
  });
  add("providers.completions.compatOverrides", () =>
    exchange(
      [
        completionsReply([
          chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_g", type: "custom", custom: { name: "patch", input: "line one\n" } }] }),
          chunk({ tool_calls: [{ index: 0, custom: { input: 'with "quotes"' } }] }),
          finish("tool_calls", COMPLETION_USAGE),
        ]),
      ],
      (url) => {
        const custom = model(url, "groq", "llama-3.1-8b-instant", {
          provider: "openai",
          reasoning: true,
          thinkingLevelMap: { off: "none" },
          compat: {
            supportsStrictMode: true,
            supportsOpenAIGrammarTools: true,
            requiresAssistantAfterToolResult: true,
            requiresToolResultName: true,
            requiresThinkingAsText: true,
            thinkingFormat: "chat-template",
            chatTemplateKwargs: { enable_thinking: { $var: "thinking.enabled" }, budget: { $var: "thinking.budget" }, level: { omitWhenOff: true }, fixed: 3 },
            thinkingTokenBudgetField: "thinking_budget",
            promptCacheKeyMode: "enabled",
            vllmPriority: 5,
            supportsMidConvoSystemMessages: true,
            supportsMidConvoToolAdditions: true,
            openRouterRouting: { only: ["a"] },
            vercelGatewayRouting: { order: ["b"] },
          },
          samplingParams: { top_p: 0.9 },
        });
        const context = historyContext(custom);
        context.tools = [...TOOLS, GRAMMAR_TOOL];
        context.messages.push({ role: "system", content: "Now also patch.", toolsAdded: [{ ...TOOLS[0], name: "write" }], timestamp: 7 });
        return ai.streamSimpleOpenAICompletions(custom, ai.normalizeContext(context), { ...key, reasoning: "medium", sessionId: "x".repeat(70), maxTokens: 4000 });
      },
    ),
  );
  add("providers.completions.hooks", async () => {
    const seen = [];
    const result = await exchange([completionsReply([chunk({ content: "ok" }), finish("length")])], (url) =>
      ai.streamOpenAICompletions(model(url, "groq", "llama-3.1-8b-instant"), SIMPLE, {
        ...key,
        onPayload: (params) => {
          seen.push(["payload", Object.keys(params)]);
          return { ...params, injected: true };
        },
        onResponse: (response) => seen.push(["response", response.status]),
        onProviderStreamEvent: (event) => seen.push(["event", event.choices?.[0]?.finish_reason ?? null]),
      }),
    );
    return { seen, result };
  });
  add("providers.completions.errors", async () => {
    const groq = (url) => model(url, "groq", "llama-3.1-8b-instant");
    const one = (reply, options = key) => exchange([reply], (url) => ai.streamOpenAICompletions(groq(url), SIMPLE, options));
    return [
      await one({
        status: 400,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ error: { message: "context_length_exceeded", type: "invalid_request_error", metadata: { raw: "upstream said no" } } }),
      }),
      await one({ status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify({ detail: "bad key" }) }),
      await one({ status: 502, headers: { "content-type": "text/html" }, body: "<html>Bad gateway</html>" }),
      await one(completionsReply([chunk({ content: "so far" }), { error: { message: "Rate limit hit mid-stream", code: 429 } }])),
      await one({ status: 200, headers: SSE_HEADERS, body: sse([chunk({ content: "cut" })], { named: false }) }),
      await one(completionsReply([chunk({ content: "flagged" }), finish("content_filter")])),
      await one({ status: 200, headers: SSE_HEADERS, body: "data: {not json}\n\n" }),
      await one({ status: 200, headers: SSE_HEADERS, body: "" }, {}),
    ];
  });
  add("providers.completions.retryAndAbort", async () => {
    const groq = (url) => model(url, "groq", "llama-3.1-8b-instant");
    const controller = new AbortController();
    controller.abort();
    return [
      await exchange(
        [
          { status: 503, headers: { "retry-after": "0" }, body: "busy" },
          { status: 500, headers: { "x-should-retry": "false" }, body: JSON.stringify({ error: { message: "final" } }) },
        ],
        (url) => ai.streamOpenAICompletions(groq(url), SIMPLE, { ...key, maxRetries: 3 }),
      ),
      await exchange([], (url) => ai.streamOpenAICompletions(groq(url), SIMPLE, { ...key, signal: controller.signal })),
      await exchange([], (url) => ai.streamSimpleOpenAICompletions(groq(url), SIMPLE, { headers: { Authorization: "Bearer from-header" }, signal: controller.signal })),
    ];
  });
}

// --- OpenAI Responses ---------------------------------------------------------------

const RESPONSES_USAGE = {
  input_tokens: 200,
  input_tokens_details: { cached_tokens: 50 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 240,
};

export function responseObject(status, extra = {}) {
  return { id: "resp_1", object: "response", status, model: "gpt-5", output: [], usage: RESPONSES_USAGE, ...extra };
}

export function responsesMessage(index, id, parts, phase) {
  const text = parts.join("");
  return [
    { type: "response.output_item.added", output_index: index, item: { type: "message", id, role: "assistant", status: "in_progress", content: [], ...(phase ? { phase } : {}) } },
    ...parts.map((delta) => ({ type: "response.output_text.delta", output_index: index, item_id: id, content_index: 0, delta })),
    {
      type: "response.output_item.done",
      output_index: index,
      item: { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }], ...(phase ? { phase } : {}) },
    },
  ];
}

export function responsesHistory(model) {
  const reasoningItem = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "earlier" }], encrypted_content: "ENC" };
  return {
    systemPrompt: "You are terse.",
    tools: [...TOOLS, GRAMMAR_TOOL],
    messages: [
      { role: "user", content: [{ type: "text", text: "look" }, IMAGE], timestamp: 1 },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "earlier", thinkingSignature: JSON.stringify(reasoningItem) },
          { type: "text", text: "Reading.", textSignature: JSON.stringify({ v: 1, id: "msg_abc", phase: "commentary" }) },
          { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "call_2|ctc_2", name: "patch", arguments: { input: "*** patch" } },
        ],
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "call_1|fc_1", toolName: "read", content: [{ type: "text", text: "contents" }, IMAGE], isError: false, timestamp: 3 },
      { role: "toolResult", toolCallId: "call_2|ctc_2", toolName: "patch", content: [], isError: false, timestamp: 4 },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Other model.", textSignature: "legacy-id" },
          { type: "toolCall", id: "toolu_x|weird+id/=", name: "bash", arguments: { command: "ls" } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 5,
      },
      { role: "toolResult", toolCallId: "toolu_x|weird+id/=", toolName: "bash", content: [{ type: "text", text: "files" }], isError: false, timestamp: 6 },
      { role: "user", content: "next", timestamp: 7 },
    ],
  };
}

function addResponsesCases(add, ai) {
  const model = (url, id = "gpt-5", extra = {}) => ({ ...ai.getModel("openai", id), baseUrl: url, ...extra });
  const key = { apiKey: "sk-test" };
  const named = (events, size = 53) => ({ status: 200, headers: SSE_HEADERS, chunks: pieces(sse(events), size) });

  add("providers.responses.text", () =>
    exchange(
      [
        named([
          { type: "response.created", response: responseObject("in_progress", { usage: null }) },
          ...responsesMessage(0, "msg_1", ["Hel", "lo"], "final_answer"),
          { type: "response.completed", response: responseObject("completed") },
        ]),
      ],
      (url) => ai.streamOpenAIResponses(model(url, "gpt-4o-mini"), ai.normalizeContext(SIMPLE), { ...key, sessionId: "sess-r", maxTokens: 8, temperature: 0.5, headers: { "X-Custom": "r" } }),
    ),
  );
  add("providers.responses.reasoningAndFunctionCall", () =>
    exchange(
      [
        named([
          { type: "response.created", response: responseObject("in_progress", { usage: null }) },
          { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_9", summary: [] } },
          { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: "Thinking " },
          { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: "hard." },
          { type: "response.reasoning_summary_part.done", output_index: 0, summary_index: 0 },
          {
            type: "response.output_item.done",
            output_index: 0,
            item: { type: "reasoning", id: "rs_9", summary: [{ type: "summary_text", text: "Thinking hard." }] },
          },
          { type: "response.output_item.added", output_index: 1, item: { type: "function_call", id: "fc_9", call_id: "call_9", name: "read", arguments: "" } },
          { type: "response.function_call_arguments.delta", output_index: 1, delta: '{"pa' },
          { type: "response.function_call_arguments.delta", output_index: 1, delta: 'th":"x' },
          { type: "response.function_call_arguments.done", output_index: 1, arguments: '{"path":"x.md"}' },
          { type: "response.output_item.done", output_index: 1, item: { type: "function_call", id: "fc_9", call_id: "call_9", name: "read", arguments: '{"path":"x.md"}' } },
          {
            type: "response.completed",
            response: responseObject("completed", {
              service_tier: "priority",
              output: [{ type: "reasoning", id: "rs_9", encrypted_content: "BACKFILLED" }],
              input_transformations: [
                { type: "reasoning", id: "rs_1", action: "removed", reason: "prefix_mismatch" },
                { type: "reasoning", id: "rs_2", action: "removed", reason: "turn_boundary" },
              ],
            }),
          },
        ]),
      ],
      (url) => ai.streamSimpleOpenAIResponses(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { ...key, reasoning: "high" }),
    ),
  );
  add("providers.responses.grammarToolAndHistory", () =>
    exchange(
      [
        named([
          { type: "response.output_item.added", output_index: 0, item: { type: "custom_tool_call", id: "ctc_5", call_id: "call_5", name: "patch", input: "*** Be" } },
          { type: "response.custom_tool_call_input.delta", output_index: 0, delta: 'gin "x"\n' },
          { type: "response.custom_tool_call_input.done", output_index: 0, input: '*** Begin "x"\n*** End' },
          { type: "response.output_item.done", output_index: 0, item: { type: "custom_tool_call", id: "ctc_5", call_id: "call_5", name: "patch", input: '*** Begin "x"\n*** End' } },
          { type: "response.completed", response: responseObject("completed") },
        ]),
      ],
      (url) => {
        const gpt5 = model(url);
        return ai.streamOpenAIResponses(gpt5, ai.normalizeContext(responsesHistory(gpt5)), { ...key, reasoningEffort: "minimal", sessionId: "s".repeat(80), cacheRetention: "long", serviceTier: "flex" });
      },
    ),
  );
  add("providers.responses.stops", async () => {
    const run = (terminal, options = key) =>
      exchange([named([...responsesMessage(0, "msg_2", ["partial"]), ...terminal])], (url) => ai.streamOpenAIResponses(model(url, "gpt-4o-mini"), ai.normalizeContext(SIMPLE), options));
    return [
      await run([{ type: "response.incomplete", response: responseObject("incomplete", { incomplete_details: { reason: "max_output_tokens" } }) }]),
      await run([{ type: "response.incomplete", response: responseObject("incomplete", { incomplete_details: { reason: "content_filter" } }) }]),
      await run([{ type: "response.failed", response: responseObject("failed", { error: { code: "server_error", message: "The server had an error" } }) }]),
      await run([{ type: "error", code: "rate_limit_exceeded", message: "Slow down", param: null }]),
      await run([]),
      await run([{ type: "response.completed", response: responseObject("cancelled") }]),
    ];
  });
  add("providers.responses.httpErrors", async () => {
    const one = (reply, id = "gpt-4o-mini", options = key) => exchange([reply], (url) => ai.streamOpenAIResponses(model(url, id), ai.normalizeContext(SIMPLE), options));
    return [
      await one({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "Invalid input", type: "invalid_request_error", param: "input", code: null } }) }),
      await one({ status: 429, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "subscription_sharing_usage_limit_exceeded", type: "usage" } }) }),
      await one({ status: 500, headers: { "content-type": "text/plain" }, body: "oops" }),
      await exchange([{ status: 404, body: "missing" }], (url) =>
        ai.streamOpenAIResponses({ ...ai.getModel("openai", "gpt-4o-mini"), provider: "custom-proxy", baseUrl: url }, ai.normalizeContext(SIMPLE), key),
      ),
      await one({ status: 200, body: "" }, "gpt-4o-mini", {}),
    ];
  });
}

function addAzureCases(add, ai) {
  const model = (url) => ({ ...ai.getModel("azure", "chat-latest"), baseUrl: url });
  const reply = () => ({
    status: 200,
    headers: SSE_HEADERS,
    chunks: pieces(sse([...responsesMessage(0, "msg_az", ["Azure ", "says hi"]), { type: "response.completed", response: responseObject("completed") }]), 29),
  });
  add("providers.azure.responses", async () => [
    await exchange([reply()], (url) =>
      ai.streamSimpleAzureOpenAIResponses(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { apiKey: "az-key", reasoning: "low", sessionId: "az-s" }),
    ),
    await exchange([reply()], (url) =>
      ai.streamAzureOpenAIResponses(model(`${url}/`), ai.normalizeContext(SIMPLE), {
        apiKey: "az-key",
        azureApiVersion: "2025-04-01-preview",
        env: { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "chat-latest=my-deploy, other=x" },
      }),
    ),
    await exchange([{ status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { code: "401", message: "Access denied due to invalid subscription key." } }) }], (url) =>
      ai.streamAzureOpenAIResponses(model(url), ai.normalizeContext(SIMPLE), { apiKey: "bad", azureDeploymentName: "dep" }),
    ),
    await exchange([], (url) => ai.streamAzureOpenAIResponses(model(url), ai.normalizeContext(SIMPLE), {})),
    await exchange([], (url) => ai.streamAzureOpenAIResponses({ ...model(url), baseUrl: "" }, ai.normalizeContext(SIMPLE), { apiKey: "k" })),
  ]);
}

// --- Google Generative AI ----------------------------------------------------------

export function googleChunk(parts, extra = {}) {
  return { candidates: [{ content: { role: "model", parts }, index: 0 }], responseId: "resp-g1", modelVersion: "gemini-x", ...extra };
}

export const GOOGLE_USAGE = { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 5, cachedContentTokenCount: 10, totalTokenCount: 125 };

export function googleReply(chunks, size = 47) {
  return { status: 200, headers: SSE_HEADERS, chunks: pieces(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(""), size) };
}

/** Google tool call ids made up from the clock are masked. */
export function maskGeneratedIds(result) {
  return JSON.parse(JSON.stringify(result).replace(/(_)\d{13}_\d+/g, "$1<generated>"));
}

function addGoogleCases(add, ai) {
  const model = (url, id = "gemini-2.5-flash", extra = {}) => ({ ...ai.getModel("google", id), baseUrl: url, ...extra });
  const key = { apiKey: "g-key" };

  add("providers.google.textThinkingAndCalls", async () =>
    maskGeneratedIds(
      await exchange(
        [
          googleReply([
            googleChunk([{ text: "Pondering", thought: true, thoughtSignature: "c2lnMQ==" }]),
            googleChunk([{ text: " more.", thought: true }]),
            googleChunk([{ text: "Hello" }]),
            googleChunk([{ text: " world", thoughtSignature: "dGV4dA==" }]),
            googleChunk([{ functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" }, { functionCall: { name: "bash", args: { command: "ls" }, id: "given-id" } }]),
            googleChunk([], { candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP", index: 0 }], usageMetadata: GOOGLE_USAGE }),
          ]),
        ],
        (url) => ai.streamSimpleGoogle(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { ...key, reasoning: "medium", temperature: 0.4, headers: { "X-Custom": "g" } }),
      ),
    ),
  );
  add("providers.google.historyAndLevels", async () => {
    const results = [];
    for (const [id, reasoning, toolChoice] of [
      ["gemini-2.5-flash", undefined, "any"],
      ["gemini-3.1-pro-preview", "high", undefined],
      ["gemini-3.1-pro-preview", undefined, "none"],
      ["gemini-2.5-pro", "minimal", "auto"],
      ["gemma-4-31b-it", "minimal", undefined],
      ["gemini-4-hydrogen", "xhigh", undefined],
    ]) {
      const result = await exchange([googleReply([googleChunk([{ text: "ok" }], { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] })])], (url) => {
        const gemini = model(url, id);
        const context = historyContext(gemini);
        context.tools = [...TOOLS, { name: "pick", description: "Pick", parameters: { type: "object", properties: { kind: { const: "a" }, $defs: { x: {} } }, required: ["kind"] }, constrainedSampling: { type: "json_schema", strict: "prefer" } }];
        return ai.streamSimpleGoogle(gemini, ai.normalizeContext(context), { ...key, reasoning, toolChoice, maxTokens: 1000 });
      });
      results.push({ id, reasoning, requests: result.requests, stop: result.message.stopReason, error: result.message.errorMessage });
    }
    return results;
  });
  add("providers.google.stopsAndErrors", async () => {
    const one = (reply, options = key) => exchange([reply], (url) => ai.streamGoogle(model(url), ai.normalizeContext(SIMPLE), options));
    return [
      await one(googleReply([googleChunk([{ text: "cut" }], { candidates: [{ content: { role: "model", parts: [{ text: "cut" }] }, finishReason: "MAX_TOKENS" }] })])),
      await one(googleReply([googleChunk([{ text: "bad" }], { candidates: [{ content: { role: "model", parts: [{ text: "bad" }] }, finishReason: "SAFETY" }] })])),
      await one(googleReply([googleChunk([{ text: "no finish" }])])),
      await one({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT" } }) }),
      await one({ status: 503, headers: { "content-type": "text/plain" }, body: "overloaded" }),
      await one(googleReply([]), {}),
    ];
  });
}

// --- Mistral -------------------------------------------------------------------------

function mistralChunk(delta, extra = {}) {
  return { id: "cmpl-m1", object: "chat.completion.chunk", model: "mistral-x", choices: [{ index: 0, delta, finish_reason: null }], ...extra };
}

function mistralReply(chunks, size = 43) {
  return { status: 200, headers: SSE_HEADERS, chunks: pieces(sse([...chunks, "[DONE]"], { named: false }), size) };
}

function addMistralCases(add, ai) {
  const model = (url, id = "mistral-large-latest") => ({ ...ai.getModel("mistral", id), baseUrl: url });
  const key = { apiKey: "m-key" };
  add("providers.mistral.thinkingTextAndCalls", () =>
    exchange(
      [
        mistralReply([
          mistralChunk({ role: "assistant", content: "" }),
          mistralChunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "Hmm, " }] }] }),
          mistralChunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "yes." }] }] }),
          mistralChunk({ content: "Ans" }),
          mistralChunk({ content: [{ type: "text", text: "wer." }] }),
          mistralChunk({ tool_calls: [{ id: "abcDEF123", index: 0, function: { name: "read", arguments: '{"path":' } }] }),
          mistralChunk({ tool_calls: [{ id: "abcDEF123", index: 0, function: { name: "read", arguments: '"a"}' } }] }),
          mistralChunk({ tool_calls: [{ id: "null", index: 1, function: { name: "bash", arguments: { command: "ls" } } }] }),
          { ...mistralChunk({}), choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92, prompt_tokens_details: { cached_tokens: 30 } } },
        ]),
      ],
      (url) => ai.streamSimpleMistral(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { ...key, reasoning: "medium", sessionId: "m-s", toolChoice: "any", temperature: 0.1 }),
    ),
  );
  add("providers.mistral.historyAndModes", async () => {
    const results = [];
    for (const [id, reasoning] of [
      ["magistral-medium-latest", "high"],
      ["magistral-medium-latest", undefined],
      ["codestral-latest", undefined],
    ]) {
      const result = await exchange([mistralReply([{ ...mistralChunk({ content: "ok" }), choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }])], (url) => {
        const mistralModel = model(url, id);
        return ai.streamSimpleMistral(mistralModel, ai.normalizeContext(historyContext(mistralModel)), { ...key, reasoning, cacheRetention: "none", sessionId: "ignored", headers: { "X-Affinity": "mine" } });
      });
      results.push({ id, reasoning, request: result.requests[0], stop: result.message.stopReason });
    }
    return results;
  });
  add("providers.mistral.stopsAndErrors", async () => {
    const one = (reply, options = key) => exchange([reply], (url) => ai.streamMistral(model(url), ai.normalizeContext(SIMPLE), options));
    const finish = (reason) => mistralReply([{ ...mistralChunk({ content: "x" }), choices: [{ index: 0, delta: { content: "x" }, finish_reason: reason }] }]);
    return [
      await one(finish("model_length")),
      await one(finish("error")),
      await one(finish("weird")),
      await one(mistralReply([mistralChunk({ content: "no end" })])),
      await one({ status: 422, headers: { "content-type": "application/json" }, body: JSON.stringify({ object: "error", message: "bad tool schema" }) }),
      await one({ status: 500, body: "" }),
      await one({ status: 200, headers: SSE_HEADERS, body: 'data: {"no":"choices"}\n\n' }),
      await one(mistralReply([]), {}),
    ];
  });
}

// --- pi-messages (the Radius protocol) ---------------------------------------------

function addPiMessagesCases(add, ai) {
  const model = (url) => ({ ...ai.getModel("radius", "balanced"), baseUrl: `${url}/v1/` });
  const usage = { input: 5, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const wire = (events, size = 31) => ({ status: 200, headers: SSE_HEADERS, chunks: pieces(events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(""), size) });
  add("providers.piMessages.stream", async () => [
    await exchange(
      [
        wire([
          { type: "start" },
          { type: "thinking_start", contentIndex: 0 },
          { type: "thinking_delta", contentIndex: 0, delta: "mm" },
          { type: "thinking_end", contentIndex: 0, content: "mm", contentSignature: "sig" },
          { type: "text_start", contentIndex: 1 },
          { type: "text_delta", contentIndex: 1, delta: "Hi" },
          { type: "text_end", contentIndex: 1, content: "Hi!" },
          { type: "toolcall_start", contentIndex: 2, id: "t1", toolName: "read" },
          { type: "toolcall_delta", contentIndex: 2, delta: '{"path":"a' },
          { type: "toolcall_end", contentIndex: 2, toolCall: { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } } },
          { type: "done", reason: "toolUse", usage, responseId: "r1", responseModel: "inner", rewrite: { from: "a", to: "b" } },
        ]),
      ],
      (url) => ai.piMessagesApi().streamSimple(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { apiKey: "rk", reasoning: "high", sessionId: "ps", debug: true, env: { PI_CACHE_RETENTION: "long" } }),
    ),
    await exchange([wire([{ type: "start" }, { type: "error", reason: "error", usage, errorMessage: "upstream failed" }])], (url) =>
      ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), { apiKey: "rk" }),
    ),
    await exchange([wire([{ type: "start" }, { type: "text_delta", contentIndex: 3, delta: "x" }])], (url) => ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), { apiKey: "rk" })),
    await exchange([wire([{ type: "start" }])], (url) => ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), { apiKey: "rk" })),
    await exchange([{ status: 402, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "Out of credits", code: "insufficient_credits" } }) }], (url) =>
      ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), { apiKey: "rk" }),
    ),
    await exchange([{ status: 500, body: "plain failure" }], (url) => ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), { apiKey: "rk" })),
    await exchange([], (url) => ai.piMessagesApi().stream(model(url), ai.normalizeContext(SIMPLE), {})),
  ]);
}

// --- less travelled paths of the three main apis -------------------------------------

/** A fetch that sends every request to the local server, whatever host the model names. */
function toLocalServer(url) {
  return (target, init) => {
    const parsed = new URL(String(target));
    return globalThis.fetch(`${url}${parsed.pathname}${parsed.search}`, init);
  };
}

const TOOL_CHANGES = (base) => ({
  messages: [
    { role: "system", content: "Base prompt.", toolsAdded: [TOOLS[0]], timestamp: 0 },
    { role: "user", content: "one", timestamp: 1 },
    {
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      api: base.api,
      provider: base.provider,
      model: base.id,
      providerThinkingLevel: "medium",
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "stop",
      timestamp: 2,
    },
    { role: "system", content: "Now with bash.", toolsAdded: [TOOLS[1]], sections: { style: "Be brief." }, timestamp: 3 },
    { role: "user", content: "two", timestamp: 4 },
    { role: "system", content: "", toolsRemoved: [TOOLS[0]], toolsAdded: [{ ...TOOLS[1], description: "Run it" }], sections: { style: null }, timestamp: 5 },
    { role: "user", content: "three", timestamp: 6 },
  ],
});

const STRICT_TOOL = {
  name: "lookup",
  description: "Look up",
  parameters: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required: ["q"] },
  constrainedSampling: { type: "json_schema", strict: "prefer" },
};

function addEdgeCases(add, ai) {
  const anthropicModel = (url, extra = {}) => ({ ...ai.getModel("anthropic", "claude-sonnet-4-5"), baseUrl: url, ...extra });
  const okAnthropic = () => sseReply([anthropicStart(), ...anthropicText(0, ["ok"]), ...anthropicEnd()]);

  add("providers.edge.anthropicNativeToolChangesAndEffort", () =>
    exchange([okAnthropic()], (url) => {
      const model = anthropicModel(url, {
        compat: { supportsMidConvoSystemMessages: true, supportsMidConvoToolChanges: true, supportsMidConvoEffort: true, supportsStrictTools: true },
      });
      return ai.streamSimpleAnthropic(model, TOOL_CHANGES(model), { apiKey: "k", reasoning: "medium", cacheRetention: "long" });
    }),
  );
  add("providers.edge.anthropicStrictFallbackAndBetas", async () => {
    const tooMany = { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "Too many strict tools (25)" } }) };
    const strictContext = ai.normalizeContext({ ...SIMPLE, tools: [STRICT_TOOL, TOOLS[0]] });
    return [
      await exchange([tooMany, okAnthropic()], (url) => ai.streamAnthropic(anthropicModel(url), strictContext, { apiKey: "k", sessionId: "strict-s" })),
      // The session remembers: its next request sends the tool non-strict at once.
      await exchange([okAnthropic()], (url) => ai.streamAnthropic(anthropicModel(url), strictContext, { apiKey: "k", sessionId: "strict-s" })),
      await exchange([okAnthropic()], (url) =>
        ai.streamAnthropic(anthropicModel(url, { headers: { "anthropic-beta": "a-beta, b-beta ,a-beta" } }), strictContext, { apiKey: "k", headers: { "X-Custom": "1" } }),
      ),
      await exchange([okAnthropic()], (url) => ai.streamAnthropic(anthropicModel(url), strictContext, { apiKey: "k", headers: { "anthropic-beta": null }, thinkingEnabled: true })),
      await exchange([okAnthropic()], (url) =>
        ai.streamAnthropic({ ...anthropicModel(url), provider: "github-copilot" }, ai.normalizeContext({ ...SIMPLE, messages: [{ role: "user", content: [IMAGE], timestamp: 1 }] }), { apiKey: "gh-token" }),
      ),
      await exchange([okAnthropic()], (url) => ai.streamAnthropic(anthropicModel(url), strictContext, { headers: { Authorization: "Bearer header-auth" }, env: { PI_CACHE_RETENTION: "long" } })),
    ];
  });
  add("providers.edge.anthropicFallbackModelAndTransformations", () =>
    exchange(
      [
        sseReply([
          { type: "content_block_start", index: 0, content_block: { type: "fallback" } },
          anthropicStart("msg_f", "claude-haiku-4-5", { input_tokens: 1000 }),
          ...anthropicText(1, ["from fallback"]),
          { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 }, input_transformations: [{ type: "truncate", path: "messages.0", reason: "too long" }, { type: null }] },
          { type: "message_stop" },
        ]),
      ],
      (url) =>
        ai.streamAnthropic(
          anthropicModel(url, { compat: { allowedFallbackModels: [{ provider: "anthropic", model: "claude-haiku-4-5", cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } }] } }),
          ai.normalizeContext(SIMPLE),
          { apiKey: "k" },
        ),
    ),
  );
  add("providers.edge.anthropicDefaultThreadsOnAnthropicHost", async () => {
    const kept = {};
    const model = (url) => ({ ...ai.getModel("anthropic", "claude-sonnet-4-5") });
    const first = await exchange([okAnthropic()], (url) => ai.streamAnthropic(model(url), ai.normalizeContext(SIMPLE), { apiKey: "k", sessionId: "host-s", fetch: toLocalServer(url) }), kept);
    const next = ai.normalizeContext({ ...SIMPLE, messages: [...SIMPLE.messages, { ...kept.message, timestamp: 2 }, { role: "user", content: "more", timestamp: 3 }] });
    const continued = await exchange(
      [{ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "not_found_error", message: "gone", details: { error_code: "thread_not_found" } } }) }, okAnthropic()],
      (url) => ai.streamAnthropic(model(url), next, { apiKey: "k", sessionId: "host-s", fetch: toLocalServer(url) }),
    );
    ai.cleanupSessionResources?.("host-s");
    return { first: first.requests.map((request) => [request.path, request.body.thread]), continued: continued.requests.map((request) => [request.body.thread, request.body.messages.length]), diagnostics: continued.message.diagnostics };
  });

  const completionsModel = (url, provider, id, extra = {}) => ({ ...ai.getModel(provider, id), baseUrl: url, ...extra });
  const okCompletion = () => completionsReply([chunk({ content: "ok" }), finish("stop")]);
  add("providers.edge.completionsReplayAndFlavours", async () => {
    const results = [];
    const replay = (model) => {
      const context = historyContext(model);
      context.messages[1] = {
        ...context.messages[1],
        content: [
          { type: "thinking", thinking: "kept", thinkingSignature: JSON.stringify([{ type: "reasoning.encrypted", data: "RU5D", id: "r-1" }]) },
          ...context.messages[1].content.slice(1, 3).map((block) => (block.type === "toolCall" ? { ...block, thoughtSignature: JSON.stringify({ type: "reasoning.encrypted", data: "TEc=", id: "lg" }) } : block)),
        ],
      };
      return ai.normalizeContext(context);
    };
    for (const [provider, id, extra, reasoning] of [
      ["openrouter", "~deepseek/deepseek-flash-latest", {}, undefined],
      ["groq", "llama-3.1-8b-instant", { provider: "github-copilot", compat: { requiresToolsWithToolHistory: true, supportsStrictMode: false } }, undefined],
      ["groq", "llama-3.1-8b-instant", { reasoning: true, thinkingLevelMap: { off: "off-level", high: "max" }, compat: { thinkingFormat: "string-thinking" } }, "high"],
      ["groq", "llama-3.1-8b-instant", { reasoning: true, compat: { thinkingFormat: "qwen-chat-template", supportsThinkingTokenBudget: true } }, "low"],
      ["opencode-go", "beam-free", {}, "high"],
    ]) {
      const result = await exchange(
        [completionsReply([chunk({ reasoning: "r" }), chunk({ content: "ok" }), finish("stop")])],
        (url) => {
          const model = completionsModel(url, provider, id, extra);
          return ai.streamSimpleOpenAICompletions(model, replay(model), { apiKey: "k", reasoning, sessionId: "cs" });
        },
      );
      results.push({ provider, extra, request: result.requests[0], content: result.message.content });
    }
    return results;
  });
  add("providers.edge.completionsToolCallsWithoutIndex", () =>
    exchange(
      [
        completionsReply([
          chunk({ tool_calls: [{ id: "call_x", function: { name: "read", arguments: '{"pa' } }] }),
          chunk({ tool_calls: [{ id: "call_x", function: { arguments: 'th":"z"}' } }] }),
          chunk({ tool_calls: [{ index: 0, id: "call_y", function: { name: "", arguments: "" } }] }),
          chunk({ tool_calls: [{ index: 0, function: { name: "bash", arguments: '{"command":"pwd"}' } }] }),
          chunk({ content: null, reasoning_content: "" }),
          finish("tool_calls", { prompt_tokens: 10, completion_tokens: 2, cached_tokens: 3, reasoning_tokens: 1 }),
        ]),
      ],
      (url) => ai.streamOpenAICompletions(completionsModel(url, "groq", "llama-3.1-8b-instant", { compat: { supportsUsageInStreaming: false, supportsStore: false } }), ai.normalizeContext(SIMPLE), { apiKey: "k" }),
    ),
  );
  add("providers.edge.completionsNoFinishReasonSupport", () =>
    exchange([completionsReply([chunk({ content: "plain end" })])], (url) =>
      ai.streamOpenAICompletions(completionsModel(url, "groq", "llama-3.1-8b-instant", { compat: { supportsFinishReason: false } }), ai.normalizeContext(SIMPLE), { apiKey: "k" }),
    ),
  );

  const responsesModel = (url, id = "gpt-5", extra = {}) => ({ ...ai.getModel("openai", id), baseUrl: url, ...extra });
  const okResponses = () => ({ status: 200, headers: SSE_HEADERS, body: sse([...responsesMessage(0, "msg_o", ["ok"]), { type: "response.completed", response: responseObject("completed") }]) });
  add("providers.edge.responsesToolChangesAndEffort", async () => {
    const results = [];
    for (const compat of [
      { supportsMidConvoSystemMessages: true, supportsAdditionalTools: true, supportsMidConvoEffort: true, supportsStrictMode: true },
      { supportsToolSearch: true, supportsExplicitPromptCacheMode: true, supportsMaxOutputTokens: false, promptCacheKeyMode: "disabled", sessionAffinityFormat: "openrouter" },
    ]) {
      const result = await exchange([okResponses()], (url) => {
        const model = responsesModel(url, "gpt-5", { compat });
        return ai.streamSimpleOpenAIResponses(model, TOOL_CHANGES(model), { apiKey: "sk-k", reasoning: "low", sessionId: "rs", cacheRetention: "long" });
      });
      results.push({ compat, request: result.requests[0], providerThinkingLevel: result.message.providerThinkingLevel });
    }
    return results;
  });
  add("providers.edge.responsesChatGPTSignIn", async () => {
    const model = { ...ai.getModel("openai", "gpt-5") };
    const signIn = await exchange([okResponses()], (url) =>
      ai.streamSimpleOpenAIResponses({ ...model, compat: { ...model.compat, supportsMidConvoEffort: true } }, ai.normalizeContext(SIMPLE), {
        apiKey: "eyJ-chatgpt-token",
        reasoning: "high",
        maxTokens: 100,
        temperature: 0.2,
        cacheRetention: "long",
        fetch: toLocalServer(url),
      }),
    );
    const limited = await exchange(
      [{ status: 429, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { code: "subscription_sharing_workplace_individual_usage_limit_exceeded", message: "limit" } }) }],
      (url) => ai.streamOpenAIResponses(model, ai.normalizeContext(SIMPLE), { apiKey: "sk-k", fetch: toLocalServer(url) }),
    );
    return { signIn: signIn.requests[0], limited: limited.message.errorMessage };
  });
  add("providers.edge.responsesItemsWithoutAdded", () =>
    exchange(
      [
        {
          status: 200,
          headers: SSE_HEADERS,
          body: sse([
            { type: "response.output_item.done", output_index: 0, item: { type: "message", id: "msg_late", role: "assistant", content: [{ type: "output_text", text: "late" }, { type: "refusal", refusal: " no" }], phase: "commentary" } },
            { type: "response.output_item.added", output_index: 1, item: { type: "function_call", id: "fc_7", call_id: "call_7", name: "read", arguments: '{"path":"q"}' } },
            { type: "response.output_item.added", output_index: 2, item: { type: "function_call", id: "fc_8", call_id: "call_8", name: "bash", arguments: "" } },
            { type: "response.output_item.done", output_index: 1, item: { type: "function_call", id: "fc_7", call_id: "call_7", name: "read", arguments: '{"path":"q"}', namespace: "fs" } },
            { type: "response.completed", response: responseObject("completed") },
          ]),
        },
      ],
      (url) => ai.streamOpenAIResponses(responsesModel(url), ai.normalizeContext(SIMPLE), { apiKey: "sk-k" }),
    ),
  );
}

// --- aborting a stream midway ----------------------------------------------------------

/**
 * Starts a stream whose server stalls after its first chunks and aborts it
 * once the first delta arrives. The abort's own error text is the engine's
 * (its AbortError), so only the shape of the end is compared.
 */
export async function abortMidway(reply, start) {
  await startServer();
  script = [{ ...reply, hang: true }];
  requests = [];
  const controller = new AbortController();
  const stream = await start(baseUrl, controller.signal);
  const types = [];
  for await (const event of stream) {
    types.push(event.type);
    if (event.type.endsWith("_delta")) controller.abort();
  }
  const message = await stream.result();
  script = [];
  return { requests: requests.length, types, stopReason: message.stopReason, content: message.content, hasErrorMessage: typeof message.errorMessage === "string" };
}

function addAbortCases(add, ai) {
  const SIMPLE_CONTEXT = () => ai.normalizeContext(SIMPLE);
  add("providers.abortMidway", async () => [
    await abortMidway(sseReply([anthropicStart(), ...anthropicText(0, ["first", "second"]).slice(0, 2)]), (url, signal) =>
      ai.streamAnthropic({ ...ai.getModel("anthropic", "claude-sonnet-4-5"), baseUrl: url }, SIMPLE_CONTEXT(), { apiKey: "k", signal }),
    ),
    await abortMidway({ status: 200, headers: SSE_HEADERS, body: sse([chunk({ content: "first" })], { named: false }) }, (url, signal) =>
      ai.streamOpenAICompletions({ ...ai.getModel("groq", "llama-3.1-8b-instant"), baseUrl: url }, SIMPLE_CONTEXT(), { apiKey: "k", signal }),
    ),
    await abortMidway(
      { status: 200, headers: SSE_HEADERS, chunks: [sse(responsesMessage(0, "msg_a", ["first"]).slice(0, 2))] },
      (url, signal) => ai.streamOpenAIResponses({ ...ai.getModel("openai", "gpt-4o-mini"), baseUrl: url }, SIMPLE_CONTEXT(), { apiKey: "sk-k", signal }),
    ),
    await abortMidway(googleReply([googleChunk([{ text: "first" }])]), (url, signal) =>
      ai.streamGoogle({ ...ai.getModel("google", "gemini-2.5-flash"), baseUrl: url }, SIMPLE_CONTEXT(), { apiKey: "k", signal }),
    ),
    await abortMidway({ status: 200, headers: SSE_HEADERS, body: sse([mistralChunk({ content: "first" })], { named: false }) }, (url, signal) =>
      ai.streamMistral({ ...ai.getModel("mistral", "mistral-large-latest"), baseUrl: url }, SIMPLE_CONTEXT(), { apiKey: "k", signal }),
    ),
  ]);
}

// --- registration and images ---------------------------------------------------------

const BUILTIN_APIS = new Set([
  "anthropic-messages",
  "openai-completions",
  "openai-responses",
  "openai-codex-responses",
  "azure-openai-responses",
  "google-generative-ai",
  "google-vertex",
  "mistral-conversations",
  "bedrock-converse-stream",
  "pi-messages",
]);

function addRegistrationCases(add, ai) {
  add("providers.registerBuiltIns", async () => {
    ai.registerBuiltInApiProviders();
    try {
      const registered = ai.getApiProviders().map((provider) => provider.api).filter((api) => BUILTIN_APIS.has(api));
      const viaStream = await exchange(
        [sseReply([anthropicStart(), ...anthropicText(0, ["routed"]), ...anthropicEnd()])],
        (url) => ai.stream({ ...ai.getModel("anthropic", "claude-sonnet-4-5"), baseUrl: url }, SIMPLE, { env: { ANTHROPIC_API_KEY: "from-env" } }),
      );
      const viaComplete = await exchange(
        [completionsReply([chunk({ content: "done" }), finish("stop")])],
        (url) => ai.completeSimple({ ...ai.getModel("groq", "llama-3.1-8b-instant"), baseUrl: url }, SIMPLE, { apiKey: "explicit" }).then((message) => {
          const stream = ai.createAssistantMessageEventStream();
          stream.push({ type: "done", reason: message.stopReason, message });
          return stream;
        }),
      );
      return { registered, viaStream, viaComplete };
    } finally {
      ai.unregisterApiProviders(undefined);
    }
  });
  add("providers.bedrockModule", async () => {
    const calls = [];
    const answerWith = (kind) => (model, context, options) => {
      calls.push([kind, model.id, context.messages.length, options?.apiKey]);
      const stream = ai.createAssistantMessageEventStream();
      const message = { role: "assistant", content: [{ type: "text", text: kind }], api: model.api, provider: model.provider, model: model.id, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: Date.now() };
      Promise.resolve().then(() => {
        stream.push({ type: "start", partial: message });
        stream.push({ type: "done", reason: "stop", message });
        stream.end();
      });
      return stream;
    };
    const bedrock = ai.getModels("amazon-bedrock")[0];
    ai.setBedrockProviderModule({ stream: answerWith("stream"), streamSimple: answerWith("streamSimple") });
    const viaModule = await exchange([], () => ai.bedrockConverseStreamApi().stream(bedrock, ai.normalizeContext(SIMPLE), { apiKey: "aws" }));
    ai.setBedrockProviderLoader(async () => ({ stream: answerWith("loaded"), streamSimple: answerWith("loadedSimple") }));
    const viaLoader = await exchange([], () => ai.bedrockConverseStreamApi().streamSimple(bedrock, ai.normalizeContext(SIMPLE), {}));
    ai.setBedrockProviderLoader(async () => {
      throw new Error("loader failed");
    });
    const failing = await exchange([], () => ai.bedrockConverseStreamApi().stream(bedrock, ai.normalizeContext(SIMPLE), {}));
    return { calls, viaModule, viaLoader, failing };
  });
  add("providers.openRouterImages", async () => {
    await startServer();
    const imageModel = { ...ai.getImageModels("openrouter")[0], baseUrl };
    const run = async (reply, options) => {
      script = [reply];
      requests = [];
      const result = await ai.generateImagesOpenRouter(imageModel, { input: [{ type: "text", text: "a cat" }, IMAGE] }, options);
      const out = mask({ requests, result });
      script = [];
      return out;
    };
    ai.registerBuiltInImagesApiProviders();
    return {
      registered: typeof ai.getImagesApiProvider("openrouter-images")?.generateImages,
      model: { api: imageModel.api, output: imageModel.output },
      answers: [
        await run(
          {
            status: 200,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              id: "gen-img",
              choices: [{ message: { role: "assistant", content: "Here it is", images: [{ type: "image_url", image_url: { url: "data:image/png;base64,QUJD" } }, { image_url: "https://x/y.png" }] } }],
              usage: { prompt_tokens: 10, completion_tokens: 1290, prompt_tokens_details: { cached_tokens: 4, cache_write_tokens: 1 } },
            }),
          },
          { apiKey: "or-key" },
        ),
        await run({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "bad prompt", code: 400 } }) }, { apiKey: "or-key" }),
        await run({ status: 200, body: "{}" }, {}),
      ],
    };
  });
}

/** Adds the provider cases; `ai` is the pi-ai module under test. */
export function addProviderCases(add, ai) {
  addAnthropicCases(add, ai);
  addCompletionsCases(add, ai);
  addResponsesCases(add, ai);
  addAzureCases(add, ai);
  addGoogleCases(add, ai);
  addMistralCases(add, ai);
  addPiMessagesCases(add, ai);
  addEdgeCases(add, ai);
  addAbortCases(add, ai);
  addRegistrationCases(add, ai);
}
