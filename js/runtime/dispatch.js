// Which of the runner's emit methods an event goes through: each event
// family has its own merge rule (E2–E11); anything else, including events pi
// adds later, goes through the generic emit untouched. Pure (only the
// captured built-ins), so the compat driver runs it against the reference's
// runner too.
import { PromiseResolve } from "./primordials.js";

/**
 * Dispatches `event` ({ type, ...fields }). `host.buildBoundaryContext(eventType,
 * entries)` validates boundary drafts (E10); `host.emitProjectTrust(event, ctx)`
 * runs project_trust (E9), which pi dispatches outside the runner.
 * `host.ownsEvent` says nothing else holds `event` (the host's JSON, read
 * for this call): then no copy is needed to keep the caller's messages
 * unchanged (E6).
 */
export function dispatchEvent(runner, event, host) {
  switch (event.type) {
    case "tool_call":
      return runner.emitToolCall(event);
    case "tool_result":
      return runner.emitToolResult(event);
    case "context":
      return runner.emitContext(event.messages, host.ownsEvent === true);
    case "input":
      return runner.emitInput(event.text, event.images, event.source, event.streamingBehavior);
    case "message_end":
      return runner.emitMessageEnd(event);
    case "before_provider_request":
      return runner.emitBeforeProviderRequest(event.payload);
    case "before_provider_headers":
      return runner.emitBeforeProviderHeaders(event.headers);
    case "before_agent_start":
      return runner.emitBeforeAgentStart(event, event.systemPromptOptions ?? {});
    case "resources_discover":
      return runner.emitResourcesDiscover(event.cwd, event.reason);
    case "user_bash":
      return runner.emitUserBash(event);
    case "cache_warming_decision":
      return runner.emitCacheWarmingDecision(event);
    case "project_trust":
      return host.emitProjectTrust(event, runner.createContext());
    case "turn_end":
    case "agent_before_settle":
      return runner.emitBoundary(event, (entries) => host.buildBoundaryContext(event.type, entries));
    default:
      // H3: with no handler at all there is nothing to build.
      if (!runner.hasHandlers(event.type)) return PromiseResolve(undefined);
      return runner.emit(event);
  }
}
