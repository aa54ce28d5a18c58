/**
 * pi-imports.ts — host packages under both scopes.
 *
 * Demonstrates: `@earendil-works/*` and the legacy `@mariozechner/*` names (and
 * `typebox` vs `@sinclair/typebox`) resolve to the host's own modules. The
 * command description reports, as computed at load time, whether the two
 * namespaces export the same names with the very same values, and whether the
 * pi-ai root exposes TypeBox's own `Type`. (Whether the namespace objects
 * themselves are one object depends on pi's mode: distinct under jiti's alias
 * table in the npm install, one object in pi's compiled binary and in pihost,
 * so the description does not report it.)
 *
 * Checklist: L2 (virtual module map; both prefixes; pi-ai root is the compat
 * view with TypeBox's Type).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import * as agentNew from "@earendil-works/pi-coding-agent";
import * as agentOld from "@mariozechner/pi-coding-agent";
import * as aiNew from "@earendil-works/pi-ai";
import * as aiOld from "@mariozechner/pi-ai";
import * as typeboxNew from "typebox";
import * as typeboxOld from "@sinclair/typebox";

function compare(label: string, left: Record<string, unknown>, right: Record<string, unknown>): string {
  const leftKeys = Object.keys(left).sort();
  const rightKeys = Object.keys(right).sort();
  const sameKeys = leftKeys.length === rightKeys.length && leftKeys.every((key, i) => key === rightKeys[i]);
  const sameMembers = sameKeys && leftKeys.every((key) => left[key] === right[key]);
  return `${label}: members ${sameMembers ? "same" : "different"}`;
}

export default function piImports(pi: ExtensionAPI) {
  const parts = [
    compare("coding-agent", agentNew, agentOld),
    compare("pi-ai", aiNew, aiOld),
    compare("typebox", typeboxNew, typeboxOld),
    `pi-ai Type is typebox Type: ${(aiNew as Record<string, unknown>).Type === typeboxNew.Type ? "yes" : "no"}`,
    `getAgentDir: ${typeof agentNew.getAgentDir}`,
  ];
  pi.registerCommand("pi-imports", {
    description: parts.join("; "),
    handler: async () => {},
  });
}
