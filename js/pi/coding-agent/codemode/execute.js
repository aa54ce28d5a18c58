// One codemode tool call: parse the script, give it the session's callable
// tools (each call goes through `ctx.executeTool`, the session's tool
// pipeline with its hooks and permission checks), run it in the sandbox, and
// shape what it printed into the tool result. Nested results never reach
// the model; the result's details list the calls with their status, which
// is what the renderer shows while the script runs.
import { combineUsage } from "../context-usage.js";
import { renderToolSample } from "./declarations.js";
import { getCodemodeCallableTools, toCodemodeDeclaration } from "./description.js";
import { createDiscoveryGlobals } from "./discovery.js";
import { clipText, createModelGlobals } from "./models-api.js";
import { CODEMODE_MEMORY_LIMIT_BYTES, runSandboxedScript } from "./sandbox.js";
import { parseCodemodeSource } from "./script-source.js";
import { maxWorkers, reserveWorker, WORKER_WAIT_MS } from "./worker-slots.js";
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  fitOutputToBudget,
  labelImagesWithFiles,
  layOutOutput,
  mergeTextRuns,
  valueText,
} from "./script-output.js";
import { CODEMODE_STORE_ENTRY_TYPE, readCodemodeStore } from "./store.js";

const ARGS_PREVIEW_CHARS = 200;
const ERROR_PREVIEW_CHARS = 500;

function argsPreview(args) {
  if (args === undefined) return "";
  try {
    return clipText(JSON.stringify(args) ?? "", ARGS_PREVIEW_CHARS);
  } catch {
    return "";
  }
}

const resultText = (result) =>
  (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/**
 * What the script gets back from a nested call: a tool with an output schema
 * resolves to its structured content (also on error, as MCP results with
 * `isError` carry it); any other tool to its text, or it rejects with its
 * error text.
 */
function scriptValue(tool, outcome) {
  const { result } = outcome;
  if (tool.outputSchema && result.structuredContent !== undefined) return result.structuredContent;
  const text = resultText(result);
  if (outcome.isError) throw new Error(text || `Tool "${tool.name}" failed`);
  return text;
}

function failureText(error, rows) {
  let head;
  if (error.kind === "script") head = error.stack ?? `${error.name ?? "Error"}: ${error.message}`;
  else if (error.kind === "timeout") head = `Script timed out: ${error.message}`;
  else if (error.kind === "aborted") head = `Script aborted: ${error.message}`;
  else head = `Script sandbox failed: ${error.message}`;
  const calls =
    rows.length === 0
      ? "No tool calls were made."
      : `Tool calls made before the failure (they are not undone): ${rows.map((row) => `${row.name} (${row.status})`).join(", ")}`;
  return `${head}\n\n${calls}`;
}

/**
 * Runs one script. Without a session context (a plain agent, a direct call)
 * a script can call no tools, `load()` finds nothing and writes are dropped.
 * `options` are the tool's: appendEntry, models, getToolNamespace,
 * getToolGuidelines.
 */
export async function executeCodemode(toolCallId, input, signal, onUpdate, ctx, options = {}) {
  const startedAt = performance.now();
  const { code, options: scriptOptions } = parseCodemodeSource(input.code);
  // The rows of the result: nested tool calls and model calls, in start order.
  const rows = [];
  let modelUsage;
  let generatedImages = 0;
  const details = () => ({ calls: rows.map((row) => ({ ...row })) });
  const publish = () => onUpdate?.({ content: [], details: details() });
  // Shows the script as running before its first call, which starts the row's timer.
  publish();

  const callable = ctx ? getCodemodeCallableTools(ctx.tools) : [];
  const guidelines = options.getToolGuidelines?.();
  const samples = new Map(
    callable.map((tool) => [tool.name, renderToolSample(toCodemodeDeclaration(tool, guidelines?.get(tool.name)))]),
  );
  const sandboxTools = callable.map((tool) => ({
    name: tool.name,
    description: samples.get(tool.name),
    execute: async (args, { signal: callSignal }) => {
      // Renamed to the session's id for the call once it is known.
      const row = { id: `${toolCallId}/?`, name: tool.name, args: argsPreview(args), status: "running" };
      rows.push(row);
      publish();
      const callStartedAt = performance.now();
      const outcome = await ctx.executeTool(tool.name, args, { signal: callSignal });
      row.id = outcome.toolCall.id;
      row.durationMs = performance.now() - callStartedAt;
      if (outcome.isError) {
        row.status = callSignal.aborted ? "cancelled" : "error";
        row.error = clipText(resultText(outcome.result) || `Tool "${tool.name}" failed`, ERROR_PREVIEW_CHARS);
      } else {
        row.status = "ok";
      }
      publish();
      return scriptValue(tool, outcome);
    },
  }));
  const globals = createDiscoveryGlobals(callable, samples, options.getToolNamespace);
  if (options.models && ctx) {
    globals.push(
      ...createModelGlobals(ctx.modelRegistry, {
        toolCallId,
        rows,
        changed: publish,
        addUsage: (usage) => {
          modelUsage = modelUsage ? combineUsage(modelUsage, usage) : usage;
        },
        countGeneratedImages: (count) => {
          generatedImages += count;
        },
      }),
    );
  }

  // The wait for a worker slot counts toward the script's deadline.
  const deadline = scriptOptions.timeoutMs ?? Number.POSITIVE_INFINITY;
  const waitStartedAt = performance.now();
  const admission = await reserveWorker(signal, Math.min(deadline, WORKER_WAIT_MS));
  const waitedMs = performance.now() - waitStartedAt;
  if (admission.outcome !== "reserved") {
    const reason = signal?.reason instanceof Error ? signal.reason.message : "Execution aborted";
    const error =
      admission.outcome === "aborted"
        ? `Script aborted: ${reason}`
        : deadline <= WORKER_WAIT_MS
          ? `Script timed out: Execution timed out after ${deadline} ms while waiting for a free codemode worker`
          : `No codemode worker became free within ${WORKER_WAIT_MS / 1000} seconds. All ${maxWorkers()} workers, shared by every session in this process, are held by other scripts. Retry after they finish.`;
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    return {
      content: [
        { type: "text", text: `Script failed\nWall time ${seconds} seconds\nOutput:\n` },
        { type: "text", text: `Script error:\n${error}\n\nThe script did not start.` },
      ],
      details: details(),
      isError: true,
    };
  }

  const outcome = await runSandboxedScript({
    code,
    tools: sandboxTools,
    globals,
    store: ctx ? readCodemodeStore(ctx.sessionManager.getBranch()) : {},
    timeoutMs: Math.max(1, Math.round(deadline - waitedMs)),
    memoryLimitBytes: CODEMODE_MEMORY_LIMIT_BYTES,
    signal,
    onEnded: admission.release,
  });
  // Still running means cut off: by the script's end, the deadline or an abort.
  for (const row of rows) if (row.status === "running") row.status = "cancelled";

  const printed = [...outcome.output];
  if (outcome.ok) {
    const { set, delete: deleted } = outcome.storeWrites;
    if (Object.keys(set).length > 0 || deleted.length > 0) options.appendEntry?.(CODEMODE_STORE_ENTRY_TYPE, { set, delete: deleted });
    // A returned value is output like text().
    if (outcome.value !== undefined) printed.push({ type: "text", text: valueText(outcome.value) });
  }
  const items = layOutOutput(printed);
  if (!outcome.ok) items.push({ type: "text", text: `Script error:\n${failureText(outcome.error, rows)}` });
  if (generatedImages > 0 && !items.some((item) => item.type === "image")) {
    const plural = generatedImages === 1 ? "" : "s";
    items.push({
      type: "text",
      text: `Note: models.generateImages() returned ${generatedImages} image${plural} that the script did not show. Show each image block of result.output with image(block).`,
    });
  }
  const fitted = await fitOutputToBudget(mergeTextRuns(items), scriptOptions.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS);
  // Labelled after fitting, which moves images behind the text, so each path stays next to its image and is never cut.
  const content = mergeTextRuns(await labelImagesWithFiles(fitted.items));

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const header = `${outcome.ok ? "Script completed" : "Script failed"}\nWall time ${seconds} seconds\nOutput:\n`;
  const resultDetails = details();
  if (fitted.fullOutputPath) resultDetails.fullOutputPath = fitted.fullOutputPath;
  return {
    content: [{ type: "text", text: header }, ...content],
    details: resultDetails,
    ...(modelUsage ? { usage: modelUsage } : {}),
    ...(outcome.ok ? {} : { isError: true }),
  };
}
