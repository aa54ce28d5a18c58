// AgentSession.exportToHtml: the session as one HTML file. pi fills its own
// viewer app (a tree sidebar, markdown, highlighting, its themes) with the
// session's data; pihost writes the same data, under the same
// `<script id="session-data">` (base64 of the JSON), so what reads pi's
// exports reads these, in a page of its own that shows the current branch
// (session-viewer-page.js). Not pi's: the viewer app, themes, and custom
// tools pre-rendered with their TUI renderers.
import { Buffer } from "node:buffer";
import { existsSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { expandPath } from "./paths.js";
import { sessionViewerPage } from "./session-viewer-page.js";

/** Writes the page; `outputPath` defaults to pi's name for it in the working directory. Returns the path. */
export function exportSessionToHtml(sessionManager, state, { outputPath } = {}) {
  const sessionFile = sessionManager.getSessionFile();
  if (!sessionFile) throw new Error("Cannot export in-memory session to HTML");
  if (!existsSync(sessionFile)) throw new Error("Nothing to export yet - start a conversation first");
  const sessionData = {
    header: sessionManager.getHeader(),
    entries: sessionManager.getEntries(),
    leafId: sessionManager.getLeafId(),
    systemPrompt: state?.systemPrompt,
    tools: state?.tools?.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
  };
  const encoded = Buffer.from(JSON.stringify(sessionData)).toString("base64");
  const path = outputPath ? expandPath(outputPath) : `pi-session-${basename(sessionFile, ".jsonl")}.html`;
  writeFileSync(path, sessionViewerPage(encoded), "utf8");
  return path;
}
