// pi-agent-core: the agent loop, the stateful Agent around it, and the
// stream functions. Model calls go through pi-ai (../pi-ai.js), whose
// requests the embedding host answers; streamProxy alone talks to a server
// of its own, over fetch.
export { Agent } from "./agent-core/agent.js";
export {
  DEFAULT_AGENT_IDENTITY,
  agentLoop,
  agentLoopContinue,
  runAgentLoop,
  runAgentLoopContinue,
} from "./agent-core/agent-loop.js";
export { runToolCall } from "./agent-core/tool-calls.js";
export { setDefaultStreamFn } from "./agent-core/stream-fn.js";
export { streamProxy } from "./agent-core/proxy.js";
