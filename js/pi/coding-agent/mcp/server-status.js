// How servers are described to the user: short states for lists and the
// startup report, the order the manager lists them in (what needs the user
// first), and the plain status `/mcp` prints without a UI.
import { resolve } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { isEnabled } from "./servers-section.js";
import { serverExposure } from "./tool-exposure.js";

/** What each exposure means, as the manager explains it. */
export const EXPOSURE_DESCRIPTIONS = {
  codemode: "called from codemode scripts, which find them with searchTools()",
  deferred: "not declared until tool_search loads them, then called directly; no codemode needed",
  direct: "declared to the model like built-in tools",
};

export const firstLine = (text) => text.split("\n", 1)[0] ?? "";

/** A server's state in a few words; `withError` adds the first line of a failure. */
export function describeState(server, withError = true) {
  if (!isEnabled(server)) return "disabled";
  const { connection } = server;
  if (!connection) return "starting";
  switch (connection.state) {
    case "needs-auth":
      return "needs sign-in";
    case "failed":
      return withError ? `failed: ${firstLine(connection.error ?? "unknown error")}` : "failed";
    case "connected": {
      const count = connection.tools.length;
      return `connected · ${count} tool${count === 1 ? "" : "s"}${connection.hasResources ? " · resources" : ""}`;
    }
    case "connecting":
      return "connecting…";
    default:
      return connection.state;
  }
}

/** Lower first: servers that need the user come before working and disabled ones. */
export function attentionRank(server) {
  if (!isEnabled(server)) return 5;
  switch (server.connection?.state) {
    case "needs-auth":
      return 0;
    case "failed":
      return 1;
    case "disconnected":
      return 2;
    case "connected":
      return 4;
    default:
      return 3;
  }
}

/** The URL of an HTTP server, the command line of a stdio server. */
export function describeTransport(entry) {
  const { config } = entry;
  return "url" in config ? config.url : [config.command, ...(config.args ?? [])].join(" ");
}

export const noServersMessage = () => `No MCP servers configured. Add them to ${resolve(getAgentDir(), "mcp.json")} or .pi/mcp.json.`;

/** `/mcp` without a UI: one line per server (and its error), then the config problems. */
export function formatStatus({ servers, configErrors, overridden }) {
  if (servers.length === 0 && configErrors.length === 0 && overridden.length === 0) return noServersMessage();
  const lines = servers.map((server) => {
    const { name } = server.entry;
    const exposure = serverExposure(server.entry);
    const { connection } = server;
    if (connection?.state === "needs-auth") return `${name}: needs sign-in, run /mcp login ${name} (${exposure})`;
    const tools = connection?.state === "connected" ? `, ${connection.tools.length} tools` : "";
    const state = !isEnabled(server)
      ? "disabled"
      : connection?.state === "disconnected"
        ? "disconnected, reconnects on next call"
        : (connection?.state ?? "starting");
    const error = connection?.error && connection.state !== "connected" ? `\n    ${connection.error.split("\n").join("\n    ")}` : "";
    return `${name}: ${state}${tools} (${exposure})${error}`;
  });
  for (const error of configErrors) lines.push(`config error: ${error}`);
  for (const line of overridden) lines.push(`overridden: ${line}`);
  return lines.join("\n");
}
