// The event families of the extension runner (E1–E11): each event is
// dispatched to every extension's handlers, in order, with its family's merge
// rule. They are ExtensionRunner's methods (js/runtime/runner.js installs
// them on its prototype, as pi's runner has them); `this` is the runner.
// Merge rules live in JS, where object identity (E6) and in-place mutation
// (E8) mean what they mean in pi.
import { getCurrentSystemMessage } from "pihost:pi/ai/system-messages.js";
import { normalizeBuildSystemPromptOptions } from "pihost:pi/coding-agent/system-prompt.js";
import { snapshotHandlers } from "pihost:runtime/handler-snapshots.js";
import {
  ArrayPrototypeSlice,
  ArrayPrototypeUnshift,
  SafeSet,
  StructuredClone,
} from "pihost:runtime/primordials.js";

const SESSION_BEFORE_EVENTS = new SafeSet([
  "session_before_switch",
  "session_before_fork",
  "session_before_compact",
  "session_before_tree",
]);

function isUserBashResult(value) {
  if (typeof value !== "object" || value === null) return false;
  const hasOperations = value.operations !== undefined;
  const hasResult = value.result !== undefined;
  if (hasOperations === hasResult) return false;
  if (hasOperations) {
    return typeof value.operations === "object" && value.operations !== null && typeof value.operations.exec === "function";
  }
  const result = value.result;
  if (typeof result !== "object" || result === null) return false;
  return (
    typeof result.output === "string" &&
    "exitCode" in result &&
    (result.exitCode === undefined || typeof result.exitCode === "number") &&
    typeof result.cancelled === "boolean" &&
    typeof result.truncated === "boolean" &&
    (result.fullOutputPath === undefined || typeof result.fullOutputPath === "string")
  );
}

function sameMessages(left, right) {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

export function describeError(error) {
  return {
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  };
}

/** The paths resources_discover handlers answer (E11). */
const RESOURCE_KINDS = ["skillPaths", "promptPaths", "themePaths"];

/** What a tool_result handler may replace besides `content` (E4). */
const TOOL_RESULT_FIELDS = ["details", "structuredContent", "isError", "usage"];

/** Joins the project trust answers of every extension (E9). */
export async function emitProjectTrustEvent(extensions, event, ctx) {
  const errors = [];
  const snapshot = snapshotHandlers(extensions, "project_trust");
  for (let index = 0; index < snapshot.length; index++) {
    const { extension, handler } = snapshot[index];
    try {
      const result = await handler(event, ctx);
      if (result.trusted === "undecided") continue;
      return { result, errors };
    } catch (error) {
      errors[errors.length] = { extensionPath: extension.path, event: event.type, ...describeError(error) };
    }
  }
  return { errors };
}

/** The runner's emit methods, by family. */
export const eventFamilies = {
  /** turn_end / agent_before_settle: entries and continue chain; the host validates each draft (E10). */
  async emitBoundary(baseEvent, buildContext) {
    const ctx = this.createContext();
    let entries = [];
    let shouldContinue = false;
    let context = await buildContext(entries);
    let valid = true;
    const snapshot = snapshotHandlers(this.extensions, baseEvent.type);
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      const event = { ...baseEvent, entries, continue: shouldContinue, context };
      try {
        const result = await handler(event, ctx);
        if (result?.entries !== undefined) entries = result.entries;
        if (result?.continue !== undefined) shouldContinue = result.continue;
      } catch (error) {
        this.reportHandlerError(extension, baseEvent.type, error);
      }
      try {
        context = await buildContext(entries);
        valid = true;
      } catch (error) {
        valid = false;
        const { error: message, stack } = describeError(error);
        this.emitError({
          extensionPath: extension.path,
          event: baseEvent.type,
          error: `Invalid boundary entries: ${message}`,
          stack,
        });
      }
    }
    return valid
      ? { entries, continue: shouldContinue, context, valid: true }
      : { entries: [], continue: false, context, valid: false };
  },

  isSessionBeforeEvent(event) {
    return SESSION_BEFORE_EVENTS.has(event.type);
  },

  /** Every handler runs; only session_before_* results count, `cancel` returns at once (E2). */
  async emit(event) {
    const ctx = this.createContext();
    let result;
    const snapshot = snapshotHandlers(this.extensions, event.type);
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const handlerResult = await handler(event, ctx);
        if (this.isSessionBeforeEvent(event) && handlerResult) {
          result = handlerResult;
          if (result.cancel) return result;
        }
      } catch (error) {
        this.reportHandlerError(extension, event.type, error);
      }
    }
    return result;
  },

  /** The last override wins (E11). */
  async emitCacheWarmingDecision(event) {
    const ctx = this.createContext();
    let action = event.action;
    const snapshot = snapshotHandlers(this.extensions, event.type);
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler(event, ctx);
        if (result?.action !== undefined) action = result.action;
      } catch (error) {
        this.reportHandlerError(extension, event.type, error);
      }
    }
    return action;
  },

  /** A replacement message must keep the role; returns it only if modified (E7). */
  async emitMessageEnd(event) {
    const ctx = this.createContext();
    let current = event.message;
    let modified = false;
    const snapshot = snapshotHandlers(this.extensions, "message_end");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler({ ...event, message: current }, ctx);
        if (!result?.message) continue;
        if (result.message.role !== current.role) {
          this.emitError({
            extensionPath: extension.path,
            event: "message_end",
            error: "message_end handlers must return a message with the same role",
          });
          continue;
        }
        current = result.message;
        modified = true;
      } catch (error) {
        this.reportHandlerError(extension, "message_end", error);
      }
    }
    return modified ? current : undefined;
  },

  /** content/details/structuredContent/isError/usage chain through handlers (E4). */
  async emitToolResult(event) {
    const ctx = this.createContext();
    const current = { ...event };
    let modified = false;
    const snapshot = snapshotHandlers(this.extensions, "tool_result");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler(current, ctx);
        if (!result) continue;
        if (result.content !== undefined) {
          current.content = result.content;
          // Structured content not replaced with the content may no longer match it.
          if (result.structuredContent === undefined) delete current.structuredContent;
          modified = true;
        }
        for (let field = 0; field < TOOL_RESULT_FIELDS.length; field++) {
          const key = TOOL_RESULT_FIELDS[field];
          if (result[key] !== undefined) {
            current[key] = result[key];
            modified = true;
          }
        }
      } catch (error) {
        this.reportHandlerError(extension, "tool_result", error);
      }
    }
    if (!modified) return undefined;
    return {
      content: current.content,
      details: current.details,
      structuredContent: current.structuredContent,
      isError: current.isError,
      usage: current.usage,
    };
  },

  /** No try/catch: a throwing handler rejects the dispatch; `block` returns at once (E3). */
  async emitToolCall(event) {
    const ctx = this.createContext();
    let result;
    const snapshot = snapshotHandlers(this.extensions, "tool_call");
    for (let index = 0; index < snapshot.length; index++) {
      const { handler } = snapshot[index];
      const handlerResult = await handler(event, ctx);
      if (handlerResult) {
        result = handlerResult;
        if (result.block) return result;
      }
    }
    return result;
  },

  /** The first valid result wins; an invalid one is reported and thrown (E11). */
  async emitUserBash(event) {
    const ctx = this.createContext();
    const snapshot = snapshotHandlers(this.extensions, "user_bash");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler(event, ctx);
        if (result === undefined) continue;
        if (!isUserBashResult(result)) {
          throw new Error(
            "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object",
          );
        }
        return result;
      } catch (error) {
        this.reportHandlerError(extension, "user_bash", error);
        throw error;
      }
    }
    return undefined;
  },

  /**
   * context handlers see the conversation without system messages, on a
   * clone; context_with_system handlers then see everything (E6). `owned`:
   * nothing else holds `messages`, so the clone would protect nobody's.
   */
  async emitContext(messages, owned = false) {
    const ctx = this.createContext();
    let current = owned ? messages : StructuredClone(messages);
    const snapshot = snapshotHandlers(this.extensions, "context");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const visible = [];
        for (let message = 0; message < current.length; message++) {
          if (current[message].role !== "system") visible[visible.length] = current[message];
        }
        const given = ArrayPrototypeSlice(visible);
        const result = await handler({ type: "context", messages: visible }, ctx);
        // A handler may return a new list or edit event.messages in place.
        const returned = result?.messages ?? (sameMessages(visible, given) ? undefined : visible);
        if (!returned) continue;
        if (!sameMessages(returned, given)) {
          const head = getCurrentSystemMessage(current);
          if (head) {
            current = ArrayPrototypeSlice(returned);
            ArrayPrototypeUnshift(current, head);
          } else {
            current = returned;
          }
        }
      } catch (error) {
        this.reportHandlerError(extension, "context", error);
      }
    }
    const withSystem = snapshotHandlers(this.extensions, "context_with_system");
    for (let index = 0; index < withSystem.length; index++) {
      const { extension, handler } = withSystem[index];
      try {
        const hadLeadingSystem = current[0]?.role === "system";
        const result = await handler({ type: "context_with_system", messages: current }, ctx);
        current = result?.messages ?? current;
        if (hadLeadingSystem && current[0]?.role !== "system") {
          this.emitError({
            extensionPath: extension.path,
            event: "context_with_system",
            error:
              "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().",
          });
        }
      } catch (error) {
        this.reportHandlerError(extension, "context_with_system", error);
      }
    }
    return current;
  },

  /** A non-undefined return replaces the payload (E8). */
  async emitBeforeProviderRequest(payload) {
    const ctx = this.createContext();
    let current = payload;
    const snapshot = snapshotHandlers(this.extensions, "before_provider_request");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler({ type: "before_provider_request", payload: current }, ctx);
        if (result !== undefined) current = result;
      } catch (error) {
        this.reportHandlerError(extension, "before_provider_request", error);
      }
    }
    return current;
  },

  /** Handlers edit the headers in place; return values are ignored (E8). */
  async emitBeforeProviderHeaders(headers) {
    const ctx = this.createContext();
    const snapshot = snapshotHandlers(this.extensions, "before_provider_headers");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        await handler({ type: "before_provider_headers", headers }, ctx);
      } catch (error) {
        this.reportHandlerError(extension, "before_provider_headers", error);
      }
    }
    return headers;
  },

  /** Messages are collected; a systemPrompt overrides the prompt for later handlers (E11). */
  async emitBeforeAgentStart(trigger, systemPromptOptions) {
    const options = normalizeBuildSystemPromptOptions(systemPromptOptions);
    const render = () => this.buildSystemPromptFn(options);
    // pi copies a fresh context's descriptors to a new object: a fresh context is one.
    const ctx = this.createContext();
    ctx.getSystemPrompt = () => {
      this.assertActive();
      return render();
    };
    const messages = [];
    const snapshot = snapshotHandlers(this.extensions, "before_agent_start");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const event = {
          ...trigger,
          type: "before_agent_start",
          get systemPrompt() {
            return render();
          },
          systemPromptOptions: options,
        };
        const result = await handler(event, ctx);
        if (result) {
          if (result.message) messages[messages.length] = result.message;
          if (result.systemPrompt !== undefined) options.forceSystemPrompt = result.systemPrompt;
        }
      } catch (error) {
        this.reportHandlerError(extension, "before_agent_start", error);
      }
    }
    return { messages, systemPromptOptions: options };
  },

  /** Paths are collected with the extension that gave them (E11). */
  async emitResourcesDiscover(cwd, reason) {
    const ctx = this.createContext();
    const collected = { skillPaths: [], promptPaths: [], themePaths: [] };
    const snapshot = snapshotHandlers(this.extensions, "resources_discover");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler({ type: "resources_discover", cwd, reason }, ctx);
        for (let kind = 0; kind < RESOURCE_KINDS.length; kind++) {
          const key = RESOURCE_KINDS[kind];
          const paths = result?.[key];
          if (!paths?.length) continue;
          const list = collected[key];
          for (let path = 0; path < paths.length; path++) {
            list[list.length] = { path: paths[path], extensionPath: extension.path };
          }
        }
      } catch (error) {
        this.reportHandlerError(extension, "resources_discover", error);
      }
    }
    return collected;
  },

  /** Transforms chain, `handled` returns at once (E5). */
  async emitInput(text, images, source, streamingBehavior) {
    const ctx = this.createContext();
    let currentText = text;
    let currentImages = images;
    const snapshot = snapshotHandlers(this.extensions, "input");
    for (let index = 0; index < snapshot.length; index++) {
      const { extension, handler } = snapshot[index];
      try {
        const result = await handler(
          { type: "input", text: currentText, images: currentImages, source, streamingBehavior },
          ctx,
        );
        if (result?.action === "handled") return result;
        if (result?.action === "transform") {
          currentText = result.text;
          currentImages = result.images ?? currentImages;
        }
      } catch (error) {
        this.reportHandlerError(extension, "input", error);
      }
    }
    return currentText !== text || currentImages !== images
      ? { action: "transform", text: currentText, images: currentImages }
      : { action: "continue" };
  },
};
